#!/usr/bin/env bash
# tools/fuzz.sh [SECONDS] [TARGET...] — builds the libFuzzer targets (fuzz/*_fuzz.cpp) with clang, ASan and
# UBSan, seeds them with the examples and saved regressions, and runs each for SECONDS (default 60).
# Targets: json, builder (default both). Crashing inputs land in fuzz/regressions/<target>/, where
# tests/core/fuzz_regressions.test.cpp replays them in every `npm test`. Installs clang and its runtime
# with apt-get when missing (as root). Prints executions and coverage per target.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json builder)

for package in clang libclang-rt-14-dev nlohmann-json3-dev; do
  if [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" != "install ok installed" ]; then
    if [ "$(id -u)" -ne 0 ]; then echo "fuzz: run: sudo apt-get install -y clang libclang-rt-14-dev" >&2; exit 1; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$package"
  fi
done

out=build/fuzz
mkdir -p "$out"
sources=$(ls core/src/*.cpp core/src/codegen/*.cpp core/src/detail/*.cpp core/src/numerics/*.cpp core/src/presets/*.cpp core/src/search/*.cpp core/src/verify/*.cpp)
for target in "${targets[@]}"; do
  binary="$out/${target}_fuzz"
  if [ ! -x "$binary" ] || [ -n "$(find core fuzz tests/core/reference_planner.h -newer "$binary" -name '*.[ch]*' | head -1)" ]; then
    echo "fuzz: building $target"
    clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
      -Icore/include -Icore/src -Itests/core -Ifuzz "fuzz/${target}_fuzz.cpp" $sources -o "$binary"
  fi
  corpus="$out/corpus-$target"
  mkdir -p "$corpus" "fuzz/regressions/$target"
  if [ "$target" = json ]; then cp examples/*.json tests/core/data/*.json "$corpus"/ 2>/dev/null || true; fi
  cp fuzz/regressions/"$target"/* "$corpus"/ 2>/dev/null || true
  echo "fuzz: running $target for $seconds s"
  "$binary" "$corpus" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="fuzz/regressions/$target/" -print_final_stats=1 2>&1 |
    grep -E "^#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::new_units_added|cov:|ERROR|SUMMARY|check failed" |
    tail -6
done
