// codegen/kernel_writer.cpp — the shared part of the kernel writers (codegen/kernel_writer.h).
#include "codegen/kernel_writer.h"

#include "codegen/semantics.h"

namespace fusion::codegen {

KernelWriterBase::KernelWriterBase(const GraphFacts& facts, const Kernel& kernel, int indent, const char* comment)
    : f_(facts), g_(facts.g), k_(kernel), notes_(facts, kernel), indent_(indent), comment_(comment) {}

void KernelWriterBase::line(const std::string& code, const std::string& comment) {
  std::string text(static_cast<std::size_t>(depth_ * indent_), ' ');
  text += code;
  if (!comment.empty()) {
    if (text.size() < 64) text.resize(64, ' ');
    text += "  " + comment_ + " " + comment;
  }
  out_ += text + "\n";
}

std::string KernelWriterBase::scratch(OpId x) const { return ident('w', x); }
std::string KernelWriterBase::buffer(OpId x) const { return ident('t', x); }

std::string KernelWriterBase::title() const {
  auto count = [](std::size_t n, const char* one, const char* many) { return std::to_string(n) + (n == 1 ? one : many); };
  std::string text = k_.group >= 0 ? "group " + std::to_string(k_.group) : "unfused " + describe(g_, k_.members.front());
  text += ": " + count(k_.members.size(), " op", " ops");
  if (!k_.recomputed.empty()) text += ", " + std::to_string(k_.recomputed.size()) + " recomputed";
  return text + ", " + count(k_.stages.size(), " stage", " stages");
}

}  // namespace fusion::codegen
