// codegen/kernel.h — the structure of one kernel, shared by both dialects: which ops it computes, what it loads
// and stores, and the stages its body runs as.
//
// A kernel is a group of the plan (its members, copies included) or, for the unfused version, one op alone.
// Its inputs are the distinct non-members its members read; its outputs are the owned members some op outside
// reads, that have no reader, or that are marked output (docs/design.md §5, §8) — the same lists the byte model
// prices. The body is a list of stages in execution order:
//  - a loop stage runs one flat loop over a shape: elementwise members of that shape (values in registers) and
//    reductions whose first input has that shape (accumulated into scratch, finished after the loop);
//  - a barrier stage computes one other member (matmul, conv, softmax, a movement op, a stand-in) into scratch.
// Members are placed in topological order, each into the earliest loop stage of its shape that follows all its
// producers, else into a new stage; so an elementwise chain of one shape is one loop. A member read in another
// stage than its own keeps its value in scratch (on chip in the byte model: never a load or a store).
// Linear in the members and their inputs. Shown by tests/core/codegen.test.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fusion/graph.h"
#include "fusion/plan.h"

namespace fusion::codegen {

// Facts about the graph, computed once per emission.
struct GraphFacts {
  explicit GraphFacts(const FusionGraph& graph);
  const FusionGraph& g;
  std::vector<std::int64_t> position;        // op -> its place in a topological order
  std::vector<OpId> order;                   // ops in that order
  std::vector<std::vector<OpId>> producers;  // op -> distinct inputs, in first-occurrence order
  std::vector<std::vector<OpId>> readers;    // op -> distinct readers, ascending
  std::uint64_t elements(OpId x) const;
  std::uint64_t bytes(OpId x) const;
};

enum class StageKind { loop, barrier };

struct Stage {
  StageKind kind = StageKind::loop;
  Shape shape;              // the loop's shape (loop stages)
  std::vector<OpId> ops;    // members, in topological order
};

struct Kernel {
  std::string name;                 // "group_3" or "op_5"
  std::int32_t group = -1;          // the plan's group, -1 for an unfused op
  std::vector<OpId> members;        // ascending
  std::vector<OpId> recomputed;     // ascending
  std::vector<OpId> inputs;         // ascending
  std::vector<OpId> outputs;        // ascending
  bool fill = false;                // a group of sources: the driver fills them
  bool resident_sources = false;    // sources' stores count 0 B
  std::vector<Stage> stages;
  std::vector<std::int32_t> stage_of;      // per member (position in members)
  std::vector<bool> in_scratch;            // per member: its value is kept in scratch
  std::vector<std::uint64_t> scratch_at;   // per member: offset in the workspace (floats)
  std::uint64_t scratch_floats = 0;

  // Position of x in members, or -1.
  std::int64_t member_index(OpId x) const;
  bool is_member(OpId x) const { return member_index(x) >= 0; }
  bool is_output(OpId x) const;
};

// Is this member computed inside a loop stage (elementwise, or a reduction)?
bool is_loop_member(const FusionOp& op);

// Per op: does some group that does not hold it (owned or as a copy) read it? Such an op is written by its owner.
std::vector<bool> read_from_memory(const GraphFacts& facts, const FusionPlan& plan);

// `read`: read_from_memory of the same plan.
Kernel group_kernel(const GraphFacts& facts, const FusionPlan& plan, std::int32_t group, const std::vector<bool>& read);
Kernel op_kernel(const GraphFacts& facts, OpId op);

}  // namespace fusion::codegen
