// cc_run.h — for the tests that compile emitted C (codegen_run, codegen_run_batch): write a C file under
// CODEGEN_TMP, compile it with `cc FLAGS -std=c11 FILE -lm` (several at once if asked), run it, and give back the
// compiler's diagnostics, the exit status and what it printed; the graph outputs the driver compares; and which ops the fused version must
// compute exactly as the unfused one does.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fusion/graph.h"
#include "fusion/numerics.h"
#include "fusion/plan.h"

namespace fusion::testing {

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Run {
  std::string compile_errors;  // cc's diagnostics ("cc failed: ..." when it failed)
  int status = -1;             // the program's exit status (-1 when it did not compile)
  std::string output;          // what it printed
};

// Compiles the programs (name, code) with up to `jobs` cc processes at a time, then runs each in turn.
inline std::vector<Run> compile_and_run_all(const std::vector<std::pair<std::string, std::string>>& programs,
                                            const std::string& flags = "-O2", std::size_t jobs = 1) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(CODEGEN_TMP);
  fs::create_directories(dir);
  auto quoted = [](const fs::path& p) { return "'" + p.string() + "'"; };
  std::vector<Run> runs(programs.size());
  for (std::size_t first = 0; first < programs.size(); first += jobs) {
    std::string script;  // each compile in the background, its status in NAME.rc; then wait for all
    for (std::size_t k = first; k < std::min(programs.size(), first + jobs); ++k) {
      const fs::path base = dir / programs[k].first;
      fs::remove(fs::path(base.string() + ".rc"));
      std::ofstream(base.string() + ".c", std::ios::binary) << programs[k].second;
      script += "(cc " + flags + " -std=c11 " + quoted(base.string() + ".c") + " -o " + quoted(base) + " -lm 2> " +
                quoted(base.string() + ".err") + "; echo $? > " + quoted(base.string() + ".rc") + ") & ";
    }
    script += "wait";
    const int waited = std::system(script.c_str());
    (void)waited;  // each compile's own status is in its .rc file
  }
  for (std::size_t k = 0; k < programs.size(); ++k) {
    const fs::path base = dir / programs[k].first;
    Run& run = runs[k];
    run.compile_errors = read_text(base.string() + ".err");
    if (read_text(base.string() + ".rc") != "0\n") {
      run.compile_errors = "cc failed: " + run.compile_errors;
      continue;
    }
    run.status = std::system((quoted(base) + " > " + quoted(base.string() + ".out")).c_str());
    run.output = read_text(base.string() + ".out");
  }
  return runs;
}

inline Run compile_and_run(const std::string& name, const std::string& code, const std::string& flags = "-O2") {
  return compile_and_run_all({{name, code}}, flags).front();
}

// The graph outputs the driver compares: non-source ops marked output or without readers.
inline std::vector<OpId> graph_outputs(const FusionGraph& g) {
  std::vector<bool> read(g.size(), false);
  for (const FusionOp& op : g.ops())
    for (OpId in : op.inputs) read[static_cast<std::size_t>(in)] = true;
  std::vector<OpId> out;
  for (std::size_t x = 0; x < g.size(); ++x)
    if (!g.ops()[x].inputs.empty() && (g.ops()[x].output || !read[x])) out.push_back(static_cast<OpId>(x));
  return out;
}

// Per op: must the generated C's fused value equal the unfused one exactly (docs/design.md §19)? Both versions
// run the same operations in the same types; they differ only where a fused reader gets a value the unfused
// graph rounds on its store, which is what §18's `rounding` notes list (the rounding point first, then its
// readers in the group). Those readers and everything downstream of them may differ; every other op must not.
inline std::vector<bool> exact_ops(const FusionGraph& g, const FusionPlan& plan) {
  std::vector<std::vector<OpId>> readers(g.size());
  for (std::size_t x = 0; x < g.size(); ++x)
    for (OpId in : g.ops()[x].inputs) readers[static_cast<std::size_t>(in)].push_back(static_cast<OpId>(x));
  std::vector<bool> exact(g.size(), true);
  std::vector<OpId> work;
  for (const std::vector<NumericsNote>& notes : fusion_notes(g, plan))
    for (const NumericsNote& note : notes)
      if (note.kind == "rounding") work.insert(work.end(), note.ops.begin() + 1, note.ops.end());
  while (!work.empty()) {
    const auto x = static_cast<std::size_t>(work.back());
    work.pop_back();
    if (!exact[x]) continue;
    exact[x] = false;
    work.insert(work.end(), readers[x].begin(), readers[x].end());
  }
  return exact;
}

// The op a driver line `output op N '...': ...` is about, -1 for another line.
inline OpId output_line_op(const std::string& line) {
  if (line.rfind("output op ", 0) != 0) return -1;
  return static_cast<OpId>(std::atol(line.c_str() + 10));
}

inline bool exact_line(const std::string& line) {
  return line.find(": max_abs 0 max_rel 0 rms_rel 0 nan_mismatch 0") != std::string::npos;
}

}  // namespace fusion::testing
