// search/op_name.h — how the search's explanations name an op: its name, or "#<id>" when it has none.
#pragma once

#include <string>

#include "fusion/graph.h"

namespace fusion::search {

inline std::string op_name(const FusionGraph& g, OpId x) {
  if (!g.op(x).name.empty()) return g.op(x).name;
  std::string text = "#";
  text.append(std::to_string(x));
  return text;
}

}  // namespace fusion::search
