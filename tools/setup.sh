#!/usr/bin/env bash
# tools/setup.sh — installs what building and testing need, and does nothing when it is all there.
#
# Debian packages: cmake, ninja-build, g++, emscripten, nlohmann-json3-dev, doctest-dev, chromium, and for the
# PyTorch exporter's tests (tests/python) python3-torch, python3-torchvision, python3-onnx, and for the ONNX
# importer's sweep (tests/onnx/onnx-testdata.test.mjs) libonnx-testdata. Missing ones are installed with
# apt-get when running as root; otherwise the exact commands are printed and the script fails. npm packages:
# `npm ci` when node_modules is missing or older than package-lock.json.
# Idempotent; a second run only checks (well under a second). Run by npm start, npm test and npm run build.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ emscripten nlohmann-json3-dev doctest-dev chromium python3-torch python3-torchvision python3-onnx
  libonnx-testdata)

installed() {
  [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

missing=()
for package in "${packages[@]}"; do
  installed "$package" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "setup: missing Debian packages: ${missing[*]}" >&2
    echo "setup: install them (Debian 12 or newer), then run the command again:" >&2
    echo "    sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  npm ci --no-audit --no-fund
fi
