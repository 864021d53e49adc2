// verify/group_parts.cpp — how a multi-op group hangs together, and how big it may be.
//
// Its parts are the sets of members connected by edges inside the group. Without horizontal fusion
// (rules.horizontal off and horizontal_small_bytes 0) a group is one part. With it, the parts must be
// joined by horizontal merges, which join loop groups only: a group of two or more parts holds no heavy op
// (matmul, conv, reduction); two parts join when they read one tensor from outside by members of one element
// count (rules.horizontal: sibling fusion) or when each moves at most horizontal_small_bytes on its own (its
// external inputs read plus its members the group writes); every part must join the others. Recomputation may come after those merges, so a
// part is measured as it was before: a recomputed copy counts as a tensor its readers read, and the copy's
// own inputs do not count. horizontal_max_ops bounds a horizontal merge when it
// happens, but later vertical merges may grow the group, so only max_group_ops is checked on the result.
// Limits (0 = none): max_group_ops members (copies included), max_group_operands external inputs +
// outputs, max_live_values those plus the members read by two or more members.
#include <algorithm>
#include <numeric>
#include <tuple>

#include "fusion/strategy.h"
#include "verify/context.h"

namespace fusion::verifier {
namespace {

class UnionFind {
 public:
  explicit UnionFind(std::size_t n) : root_(n) { std::iota(root_.begin(), root_.end(), std::size_t{0}); }
  std::size_t find(std::size_t x) {
    while (root_[x] != x) x = root_[x] = root_[root_[x]];
    return x;
  }
  void join(std::size_t a, std::size_t b) { root_[find(a)] = find(b); }

 private:
  std::vector<std::size_t> root_;
};

// Bytes one part moves as a kernel of its own: its distinct external inputs plus its written members.
std::vector<std::uint64_t> part_bytes(const Context& c, const FusionGroup& group, UnionFind& parts,
                                      const std::vector<std::pair<std::size_t, OpId>>& reads) {
  std::vector<std::uint64_t> bytes(group.ops.size(), 0);
  for (const auto& [part, in] : reads) bytes[part] += c.bytes_of(in);
  const std::vector<OpId>& written = c.io[static_cast<std::size_t>(group.id)].outputs;
  for (std::size_t j = 0; j < group.ops.size(); ++j)
    if (std::binary_search(written.begin(), written.end(), group.ops[j]))
      bytes[parts.find(j)] += c.bytes_of(group.ops[j]);
  return bytes;
}

// Parts that a horizontal merge could have joined; flags the group when some part joins none of the others.
void check_horizontal(Context& c, const FusionGroup& group, UnionFind& parts) {
  const auto copy = [&](OpId x) {
    return is_recomputed(group, x);
  };
  std::vector<std::pair<std::size_t, OpId>> reads;  // (part root, input from outside or a copy), distinct
  std::vector<std::tuple<OpId, std::uint64_t, std::size_t>> by_input;  // (input, its reader's elements, part root)
  std::ptrdiff_t heavy = -1;
  for (std::size_t j = 0; j < group.ops.size(); ++j) {
    if (copy(group.ops[j])) continue;
    const FusionOp& op = c.g.op(group.ops[j]);
    if (is_heavy_kind(op.kind)) heavy = static_cast<std::ptrdiff_t>(j);
    for (OpId in : c.producers[static_cast<std::size_t>(group.ops[j])])
      if (!c.holds(group.id, in) || copy(in)) {
        reads.push_back({parts.find(j), in});
        by_input.emplace_back(in, shape_elements(op.shape).value_or(0), parts.find(j));
      }
  }
  std::sort(reads.begin(), reads.end());
  reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
  const std::vector<std::uint64_t> bytes = part_bytes(c, group, parts, reads);
  UnionFind joined(group.ops.size());
  if (c.rules.horizontal) {
    std::sort(by_input.begin(), by_input.end());
    for (std::size_t i = 1; i < by_input.size(); ++i)
      if (std::get<0>(by_input[i]) == std::get<0>(by_input[i - 1]) &&
          std::get<1>(by_input[i]) == std::get<1>(by_input[i - 1]))
        joined.join(std::get<2>(by_input[i]), std::get<2>(by_input[i - 1]));
  }
  const std::uint64_t small = c.rules.horizontal_small_bytes;
  std::ptrdiff_t first_small = -1;
  for (std::size_t j = 0; j < group.ops.size() && small > 0; ++j) {
    if (parts.find(j) != j || bytes[j] > small) continue;
    if (first_small >= 0)
      joined.join(j, static_cast<std::size_t>(first_small));
    else
      first_small = static_cast<std::ptrdiff_t>(j);
  }
  for (std::size_t j = 0; j < group.ops.size(); ++j)
    if (heavy >= 0 && parts.find(j) != parts.find(static_cast<std::size_t>(heavy)))
      return c.fail("disconnected",
                    "group " + std::to_string(group.id) + " joins " +
                        op_text(c.g, group.ops[static_cast<std::size_t>(heavy)]) + " and " + op_text(c.g, group.ops[j]) +
                        ", which no edge inside the group connects; horizontal fusion joins loop groups only",
                    group.id, group.ops[j]);
  for (std::size_t j = 0; j < group.ops.size(); ++j)
    if (joined.find(parts.find(j)) != joined.find(parts.find(0)))
      return c.fail("disconnected",
                    "group " + std::to_string(group.id) + " joins the parts of " +
                        op_text(c.g, group.ops.front()) + " and " + op_text(c.g, group.ops[j]) +
                        ", which neither read a shared input by members of one element count (horizontal) nor each "
                        "move at most " +
                        std::to_string(small) + " bytes (horizontal_small_bytes)",
                    group.id, group.ops[j]);
}

void check_connected(Context& c, const FusionGroup& group, const std::vector<InnerEdge>& edges) {
  UnionFind parts(group.ops.size());
  for (const auto& [from, to] : edges) parts.join(from, to);
  if (c.rules.horizontal || c.rules.horizontal_small_bytes > 0) return check_horizontal(c, group, parts);
  for (std::size_t j = 0; j < group.ops.size(); ++j)
    if (parts.find(j) != parts.find(0))
      c.fail("disconnected",
             "op " + std::to_string(group.ops[j]) + " of group " + std::to_string(group.id) +
                 " is not connected to op " + std::to_string(group.ops.front()) +
                 " by edges inside the group",
             group.id, group.ops[j]);
}

void check_limit(Context& c, const FusionGroup& group, const char* rule, std::int64_t limit,
                 std::size_t value) {
  if (limit <= 0 || value <= static_cast<std::size_t>(limit)) return;
  c.fail("limit",
         "group " + std::to_string(group.id) + " has " + std::to_string(value) + " against " + rule + " = " +
             std::to_string(limit),
         group.id);
}

void check_limits(Context& c, const FusionGroup& group, const std::vector<InnerEdge>& edges) {
  const GroupIo& io = c.io[static_cast<std::size_t>(group.id)];
  const std::size_t operands = io.inputs.size() + io.outputs.size();
  std::vector<int> inner_readers(group.ops.size(), 0);
  for (const auto& edge : edges) ++inner_readers[edge.first];
  const auto shared = static_cast<std::size_t>(
      std::count_if(inner_readers.begin(), inner_readers.end(), [](int r) { return r >= 2; }));
  check_limit(c, group, "max_group_ops", c.rules.max_group_ops, group.ops.size());
  check_limit(c, group, "max_group_operands", c.rules.max_group_operands, operands);
  check_limit(c, group, "max_live_values", c.rules.max_live_values, operands + shared);
}

}  // namespace

void check_group_parts(Context& c) {
  for (const FusionGroup& group : c.plan.groups) {
    if (group.ops.size() < 2) continue;
    const std::vector<InnerEdge> edges = inner_edges(c, group);
    if (c.procedure == Procedure::rules) check_connected(c, group, edges);  // the procedures check their own
    if (c.procedure != Procedure::inductor) check_limits(c, group, edges);  // Inductor counts nodes, not ops
  }
}

}  // namespace fusion::verifier
