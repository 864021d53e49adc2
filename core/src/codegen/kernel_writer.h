// codegen/kernel_writer.h — what the C and Triton kernel writers share (docs/design.md §19): the kernel and its
// graph, the byte comments of load and store lines (codegen/byte_notes.h), the text written so far with its
// indentation, the names of a tensor in memory (`t3`) and in scratch (`w3`), and the kernel's title line.
// A dialect's writer derives from it and adds what it writes. Shown by tests/core/codegen.test.cpp.
#pragma once

#include <cstdint>
#include <string>

#include "codegen/byte_notes.h"
#include "codegen/kernel.h"

namespace fusion::codegen {

class KernelWriterBase {
 protected:
  // `indent`: spaces per level; `comment`: the dialect's comment mark ("//" or "#").
  KernelWriterBase(const GraphFacts& facts, const Kernel& kernel, int indent, const char* comment);

  const GraphFacts& f_;
  const FusionGraph& g_;
  const Kernel& k_;
  ByteNotes notes_;  // the byte comments of load and store lines
  std::string out_;
  int depth_ = 1;

  // One line at the current depth; a comment, when given, from column 64 on.
  void line(const std::string& code, const std::string& comment = {});

  std::int64_t member(OpId x) const { return k_.member_index(x); }
  std::string scratch(OpId x) const;
  std::string buffer(OpId x) const;
  std::uint64_t elements(OpId x) const { return f_.elements(x); }
  std::string load_comment(OpId x) { return notes_.load(x); }
  std::string store_comment(OpId x) const { return notes_.store(x); }

  // "group 3: 2 ops, 1 recomputed, 2 stages" or "unfused op 5 '...' ...: 1 op, 1 stage".
  std::string title() const;

 private:
  int indent_;
  std::string comment_;
};

}  // namespace fusion::codegen
