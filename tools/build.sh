#!/usr/bin/env bash
# tools/build.sh — builds the parts named on the command line, in order: native, wasm, site, asan (default: the
# first three).
#
#   native  cmake + Ninja into build/native: the core library, the fusion-plan CLI, the doctest suite (ctest).
#   wasm    emcmake into build/wasm: the embind module, copied to wasm/generated/ (gitignored) as
#           fusion_core.mjs (the loader, which wasm/fusion.mjs imports) and fusion_core.wasm (the binary), the
#           plan-only module fusion_plan.mjs / fusion_plan.wasm (wasm/fusion-plan.mjs; the element's), and
#           the core's catalog as wasm/generated/catalog.mjs (tools/write-catalog.mjs). Each is rewritten only
#           when changed, so watchers do not reload.
#   site    vite build of web/ into dist/: a static site for any static host (needs wasm first), then the size
#           report (tools/size-report.mjs: every file raw and gzip, and the budgets; over budget fails).
#   asan    in build/native too (FUSION_SANITIZED_TESTS=ON, target `sanitized`): a copy of the core under
#           AddressSanitizer + UBSan at -O1 -g1 (reports carry lines), and the doctest suite and the CLI linked
#           against it from the native build's own test objects (compiled once for both). Their ctest entries are
#           sanitized.<name> (label "sanitized"); tools/run-tests.mjs runs them with halt_on_error and the plain
#           ones with -LE sanitized. Not run by default.
# Build types: FUSION_NATIVE_BUILD_TYPE (default Release), FUSION_WASM_BUILD_TYPE (default Release:
# 25% larger than MinSizeRel, 4x faster on a 20k-op graph).
# Assumes tools/setup.sh has run. Incremental: a second run with nothing changed takes a few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's Emscripten needs acorn, which Debian installs where Node does not look by default.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
jobs=$(nproc)

# Configures a build folder once; later builds re-run CMake by themselves when a CMakeLists.txt changes.
# Extra cmake arguments may follow a "--" after the wrapper command (e.g. emcmake).
configure() {
  local dir=$1 type=$2 wrapper=() extra=()
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do wrapper+=("$1"); shift; done
  [ $# -gt 0 ] && shift && extra=("$@")
  [ -f "$dir/build.ninja" ] ||
    "${wrapper[@]}" cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" "${extra[@]}"
}

build_native() {
  configure build/native "${FUSION_NATIVE_BUILD_TYPE:-Release}"
  cmake --build build/native -j "$jobs"
}

build_asan() {
  configure build/native "${FUSION_NATIVE_BUILD_TYPE:-Release}"
  grep -q '^FUSION_SANITIZED_TESTS:BOOL=ON$' build/native/CMakeCache.txt ||
    cmake build/native -DFUSION_SANITIZED_TESTS=ON >/dev/null
  cmake --build build/native -j "$jobs" --target sanitized
}

build_wasm() {
  configure build/wasm "${FUSION_WASM_BUILD_TYPE:-Release}" emcmake
  cmake --build build/wasm -j "$jobs" --target fusion_wasm fusion_wasm_plan
  mkdir -p wasm/generated
  for file in fusion_core.mjs fusion_core.wasm fusion_plan.mjs fusion_plan.wasm; do
    cmp -s "build/wasm/wasm/$file" "wasm/generated/$file" || cp "build/wasm/wasm/$file" "wasm/generated/$file"
  done
  node tools/write-catalog.mjs  # the core's tables for JavaScript: wasm/generated/catalog.mjs
}

build_site() {
  node_modules/.bin/vite build --config vite.config.mjs
  node tools/size-report.mjs dist  # the chunk table; fails the build when a budget is exceeded
}

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(native wasm site)
for part in "${parts[@]}"; do
  case "$part" in
    native | wasm | site | asan) echo "build: $part"; "build_$part" ;;
    *) echo "build: unknown part '$part' (use native, wasm, site, asan)" >&2; exit 2 ;;
  esac
done
