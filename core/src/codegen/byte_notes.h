// codegen/byte_notes.h — the byte comments of a kernel's load and store lines, shared by both dialects
// (docs/design.md §19): an input's first load carries its output bytes and every later load of it in the same
// kernel 0 (" (again)"); a store carries the output's bytes, 0 for a source under resident_sources. So a
// kernel's loads sum to its group's bytes_read and its stores to bytes_written (the verifier checks it).
#pragma once

#include <string>
#include <vector>

#include "codegen/kernel.h"

namespace fusion::codegen {

class ByteNotes {
 public:
  ByteNotes(const GraphFacts& facts, const Kernel& kernel);
  std::string load(OpId input);         // "load N B: op 3 'x' ..." (N only the first time)
  std::string store(OpId output) const;  // "store N B: ..."

 private:
  const GraphFacts& f_;
  const Kernel& k_;
  std::vector<bool> counted_;  // per input (position in kernel.inputs): its bytes already annotated
};

}  // namespace fusion::codegen
