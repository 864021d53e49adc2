// generate_main.cpp — `fusion-generate NAME OPS [SEED]`: prints a benchmark graph as JSON.
#include <iostream>
#include <string>

#include "generators.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: fusion-generate NAME OPS [SEED]\n  names:";
    for (const auto& name : fusion::bench::generator_names()) std::cerr << ' ' << name;
    std::cerr << '\n';
    return 2;
  }
  const fusion::FusionGraph g =
      fusion::bench::generate(argv[1], std::stoll(argv[2]), argc > 3 ? std::stoull(argv[3]) : 1);
  if (g.size() == 0) {
    std::cerr << "fusion-generate: unknown generator '" << argv[1] << "'\n";
    return 2;
  }
  std::cout << fusion::bench::graph_to_json(g);
  return 0;
}
