// fusion_plan.cpp — the `fusion-plan` command: plan a graph file (or stdin) and print the plan.
//
// Usage: fusion-plan [--no-broadcast] [--resident-sources] [--strategy S] [--hardware H] [--rule NAME=VALUE]...
//                    [--dim NAME=VALUE]... [--sweep NAME=FROM:TO[:STEP]] [--search greedy|optimal]
//                    [--search-budget-nodes N] [--search-budget-ms N] [--numerics] [--eager-parity]
//                    [--numerics-seed N] [--numerics-elements N] [--table] [--verify] [--emit c|triton] [FILE|-]
// The flags become an options document read by fusion::read_options_json, so they are checked exactly
// as the JSON options are (docs/design.md §9, docs/strategies.md).
// Prints the plan JSON (byte for byte what the WASM module returns) or, with --table, a readable
// table. Bad input: one line on stderr naming the problem and where, exit status 2. --verify checks
// the plan with the independent verifier and exits 3 on any violation. A bug (an internal check that
// failed) or running out of memory: one line, error[internal_error] or error[out_of_memory], exit 4.
// --emit c|triton prints the plan's generated code instead (docs/design.md §19): for c a C11 program that runs and
// times the unfused and fused versions.
// --sweep prints the plan at each value of one named dimension (docs/design.md §16): a JSON list of rows, or a
// table with --table.
// The contract: docs/design.md §14.
// Shown by tests/core/cli_test.cmake (ctest `cli`) and tests/wasm/parity.test.mjs (the same bytes as WASM).
#include <fstream>
#include <iostream>
#include <iterator>
#include <new>
#include <optional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "fusion/codegen.h"
#include "fusion/dims.h"
#include "fusion/json_io.h"
#include "fusion/planner.h"
#include "fusion/sweep.h"
#include "fusion/verify.h"
#include "plan_table.h"
#include "sweep_table.h"

namespace {

constexpr const char* kUsage =
    "usage: fusion-plan [--no-broadcast] [--resident-sources] [--strategy S] [--hardware H] [--rule NAME=VALUE]...\n"
    "                   [--dim NAME=VALUE]... [--sweep NAME=FROM:TO[:STEP]] [--search greedy|optimal]\n"
    "                   [--search-budget-nodes N] [--search-budget-ms N] [--numerics] [--eager-parity]\n"
    "                   [--numerics-seed N] [--numerics-elements N] [--table] [--verify] [--emit c|triton]\n"
    "                   [FILE|-]\n"
    "Plans kernel fusion for the op graph in FILE (JSON; '-' or nothing reads stdin) and prints the plan.\n"
    "  --no-broadcast      merged edges need equal shapes (default: broadcast-compatible)\n"
    "  --resident-sources  sources are already in memory and cost nothing\n"
    "  --strategy S        seed (default), or a compiler's procedure: xla, tvm, inductor; xla-classic\n"
    "                      (docs/strategies.md)\n"
    "  --hardware H        time model device: h100, a100 (default), rtx4090\n"
    "  --rule NAME=VALUE   override one rule the strategy accepts, e.g. max_depth=8 (tvm),\n"
    "                      passes='[\"priority\"]' (xla), max_group_ops=8 (inductor, seed)\n"
    "                      (VALUE is JSON, or else a string)\n"
    "  --dim NAME=VALUE    the value of a named dimension (shape entry \"NAME\"), over the graph's \"dims\"\n"
    "  --sweep NAME=FROM:TO[:STEP]  plan at each value of NAME: FROM, the powers of two between, and TO,\n"
    "                      or every STEP; prints one row per value and where the grouping changes\n"
    "  --search MODE       greedy (default) or optimal: with a proof, the plan with the fewest bytes the seed\n"
    "                      rules allow, or under --strategy tvm the fastest (time model) FuseOps' rules allow\n"
    "  --search-budget-nodes N  stop the search after N budget units (default 200000; a node costs 1, more\n"
    "                      in parts of over 128 ops): the plan is then bounded\n"
    "  --search-budget-ms N  a time budget, as N x 250 units (the same plan on every machine); with\n"
    "                      --search-budget-nodes the smaller budget wins\n"
    "  --numerics          per group, what fusion changes in the results (rounding, FMA contraction,\n"
    "                      reduction order, NaN choices, casts), and the reference evaluator's differences\n"
    "                      per output (max_abs, max_rel, max_ulp) on seeded random inputs\n"
    "  --eager-parity      refuse merges that remove a rounding to f16/bf16/f8 (reason numerics; seed only)\n"
    "  --numerics-seed N   the random inputs' seed (default 0)\n"
    "  --numerics-elements N  elements evaluated per tensor (default 65536)\n"
    "  --table             print a readable table instead of JSON\n"
    "  --verify            check the plan with the independent verifier; exit 3 on a violation\n"
    "  --emit c|triton     print the plan's generated code: c, a C11 program (cc -O2 -std=c11 FILE.c -lm)\n"
    "                      that runs, compares and times the unfused and fused versions; triton, kernels to read\n";

struct Args {
  nlohmann::json options = nlohmann::json::object();
  std::optional<fusion::SweepSpec> sweep;
  std::optional<fusion::CodeDialect> emit;
  bool table = false, verify = false, help = false;
  std::string file = "-";
  std::string error;
};

// "--rule name=value" or "--dim name=value" into options[key][name]: the value as JSON when it parses, else as a
// string (the options reader then checks it).
void add_assignment(Args& args, const std::string& flag, const char* key, const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    args.error = flag + " needs NAME=VALUE, not '" + text + "'";
    return;
  }
  const std::string value = text.substr(eq + 1);
  nlohmann::json parsed = nlohmann::json::parse(value, nullptr, false);
  args.options[key][text.substr(0, eq)] = parsed.is_discarded() ? nlohmann::json(value) : parsed;
}

// "--sweep name=from:to[:step]" (the range itself is checked by fusion::sweep_values).
void add_sweep(Args& args, const std::string& text) {
  const std::size_t eq = text.find('=');
  fusion::SweepSpec spec;
  std::int64_t* fields[] = {&spec.from, &spec.to, &spec.step};
  std::size_t at = eq == std::string::npos ? std::string::npos : eq + 1, count = 0;
  while (at != std::string::npos && at <= text.size() && count < 3) {
    const std::size_t colon = text.find(':', at);
    const std::string part = text.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 18) break;
    *fields[count++] = std::stoll(part);
    at = colon == std::string::npos ? std::string::npos : colon + 1;
  }
  if (eq == std::string::npos || eq == 0 || count < 2 || at != std::string::npos) {
    args.error = "--sweep needs NAME=FROM:TO or NAME=FROM:TO:STEP with whole numbers, not '" + text + "'";
    return;
  }
  spec.dim = text.substr(0, eq);
  args.sweep = spec;
}

// "--search-budget-nodes N", "--search-budget-ms N": options.search[key], the number as JSON when it parses, else
// the text (the options reader refuses it).
void add_search_budget(Args& args, const char* key, const std::string& text) {
  nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  args.options["search"][key] = parsed.is_discarded() ? nlohmann::json(text) : parsed;
}

// "--numerics-seed N", "--numerics-elements N": options.numerics[key], checked by the options reader.
void add_number(Args& args, const char* key, const std::string& text) {
  nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  args.options["numerics"][key] = parsed.is_discarded() ? nlohmann::json(text) : parsed;
}

// "--emit c" or "--emit triton".
void add_emit(Args& args, const std::string& text) {
  args.emit = fusion::parse_code_dialect(text);
  if (!args.emit) args.error = "--emit needs c or triton, not '" + text + "'";
}

Args parse_args(int argc, char** argv) {
  Args args;
  bool have_file = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--no-broadcast") args.options["broadcast"] = false;
    else if (a == "--resident-sources") args.options["resident_sources"] = true;
    else if (a == "--table") args.table = true;
    else if (a == "--verify") args.verify = true;
    else if (a == "--help" || a == "-h") args.help = true;
    else if (a == "--strategy" && i + 1 < argc) args.options["strategy"] = argv[++i];
    else if (a == "--hardware" && i + 1 < argc) args.options["hardware"] = argv[++i];
    else if (a == "--rule" && i + 1 < argc) add_assignment(args, a, "rules", argv[++i]);
    else if (a == "--dim" && i + 1 < argc) add_assignment(args, a, "dims", argv[++i]);
    else if (a == "--sweep" && i + 1 < argc) add_sweep(args, argv[++i]);
    else if (a == "--search" && i + 1 < argc) args.options["search"]["mode"] = argv[++i];
    else if (a == "--search-budget-nodes" && i + 1 < argc) add_search_budget(args, "budget_nodes", argv[++i]);
    else if (a == "--search-budget-ms" && i + 1 < argc) add_search_budget(args, "budget_ms", argv[++i]);
    else if (a == "--numerics") args.options["numerics"]["evaluate"] = true;
    else if (a == "--eager-parity") args.options["numerics"]["parity"] = true;
    else if (a == "--numerics-seed" && i + 1 < argc) add_number(args, "seed", argv[++i]);
    else if (a == "--numerics-elements" && i + 1 < argc) add_number(args, "max_elements", argv[++i]);
    else if (a == "--emit" && i + 1 < argc) add_emit(args, argv[++i]);
    else if (a.size() > 1 && a[0] == '-' ) args.error = "unknown option '" + a + "'";
    else if (have_file) args.error = "more than one input file";
    else { args.file = a; have_file = true; }
  }
  return args;
}

bool read_input(const std::string& file, std::string& text) {
  if (file == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), {});
    return true;
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return true;
}

int fail_with(const std::string& file, const std::vector<fusion::Error>& errors) {
  const fusion::Error& e = errors.front();
  std::cerr << "fusion-plan: " << (file == "-" ? "<stdin>" : file);
  if (e.line) std::cerr << ':' << *e.line << ':' << *e.column;
  std::cerr << ": error[" << fusion::to_string(e.code) << "]: " << e.message;
  if (!e.path.empty()) std::cerr << " (at " << e.path << ")";
  if (errors.size() > 1) std::cerr << " (+" << errors.size() - 1 << " more)";
  std::cerr << '\n';
  return 2;
}

int run_sweep(const Args& args, const fusion::FusionGraph& graph, const fusion::PlannerOptions& options) {
  if (args.verify) {
    std::cerr << "fusion-plan: --verify checks one plan; it does not combine with --sweep\n";
    return 2;
  }
  const auto result = fusion::sweep(graph, fusion::FusionPlanner(options), *args.sweep);
  if (!result) return fail_with(args.file, result.errors());
  std::cout << (args.table ? fusion::cli::format_sweep_table(*result) : fusion::write_sweep_rows_json(*result) + "\n");
  return 0;
}

// --emit: the code of the plan, for the graph bound as the plan was (docs/design.md §19).
int run_emit(const Args& args, const fusion::FusionGraph& graph, const fusion::PlannerOptions& options,
             const fusion::FusionPlan& plan) {
  if (args.sweep || args.table) {
    std::cerr << "fusion-plan: --emit prints code for one plan; it does not combine with --sweep or --table\n";
    return 2;
  }
  const auto bound = fusion::bind_dims(graph, options.dims);
  if (!bound) return fail_with(args.file, bound.errors());
  fusion::CodegenOptions codegen;
  codegen.dialect = *args.emit;
  std::cout << fusion::emit_program(*bound, plan, codegen);
  return 0;
}

int run(const Args& args) {
  if (args.help) {
    std::cout << kUsage;
    return 0;
  }
  if (!args.error.empty()) {
    std::cerr << "fusion-plan: " << args.error << "\n" << kUsage;
    return 2;
  }
  std::string text;
  if (!read_input(args.file, text)) {
    std::cerr << "fusion-plan: cannot read '" << args.file << "'\n";
    return 2;
  }
  const auto options = fusion::read_options_json(args.options.dump());
  if (!options) return fail_with("options", options.errors());
  const auto graph = fusion::read_graph_json(text);
  if (!graph) return fail_with(args.file, graph.errors());
  if (args.sweep && !args.emit) return run_sweep(args, *graph, *options);
  const auto plan = fusion::FusionPlanner(*options).plan(*graph);
  if (!plan) return fail_with(args.file, plan.errors());
  if (args.verify) {
    const auto violations = fusion::verify_plan(*graph, *options, *plan);
    for (const auto& v : violations) std::cerr << "fusion-plan: verify: " << v.code << ": " << v.message << '\n';
    if (!violations.empty()) return 3;
  }
  if (args.emit) return run_emit(args, *graph, *options, *plan);
  std::cout << (args.table ? fusion::cli::format_plan_table(*graph, *plan) : fusion::write_plan_json(*plan) + "\n");
  return 0;
}

}  // namespace

// A bug (fusion::InternalError) or exhausted memory is not the user's mistake: one line saying so, exit 4.
int main(int argc, char** argv) {
  try {
    return run(parse_args(argc, argv));
  } catch (const std::bad_alloc&) {
    std::cerr << "fusion-plan: error[out_of_memory]: the planner ran out of memory; try a smaller graph\n";
  } catch (const fusion::InternalError& e) {
    std::cerr << "fusion-plan: error[internal_error]: " << e.what() << '\n';
  }
  return 4;
}
