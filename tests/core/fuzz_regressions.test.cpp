// fuzz_regressions.test.cpp — replays every input saved under fuzz/regressions/ through the same checks
// the fuzz targets run (fuzz/fuzz_checks.h), so each crasher found once stays fixed.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "fuzz_checks.h"

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

template <typename Check>
int replay(const char* folder, Check check) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(FUZZ_REGRESSIONS) / folder)) {
    if (!entry.is_regular_file()) continue;
    CAPTURE(entry.path().string());
    check(read_file(entry.path()));
    ++count;
  }
  return count;
}

}  // namespace

TEST_CASE("saved JSON fuzz inputs still pass every check") {
  CHECK(replay("json", [](const std::string& text) { fusion::fuzz::check_json_input(text); }) > 0);
}

TEST_CASE("saved builder fuzz inputs still pass every check") {
  replay("builder", [](const std::string& bytes) {
    fusion::fuzz::check_builder_input(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  });
}

TEST_CASE("the builder fuzz program builds deep graphs from bytes") {
  std::vector<std::uint8_t> bytes;
  for (int i = 0; i < 100; ++i) bytes.insert(bytes.end(), {std::uint8_t(1 + i % 5), std::uint8_t(i), 1, 2});
  const fusion::FusionGraph g = fusion::fuzz::graph_from_bytes(bytes.data(), bytes.size());
  CHECK(g.size() == 100);
  fusion::fuzz::check_all_options(g, true);
}
