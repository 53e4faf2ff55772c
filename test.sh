#!/usr/bin/env bash
# Installs what is missing, builds stencilc (Release) and runs the whole test suite through
# ctest. Exits non-zero on any failure. Works from any directory.
#   BUILD_DIR=dir ./test.sh    build somewhere else than ./build (relative to the repo root)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

BUILD_DIR=${BUILD_DIR:-build}
JOBS=$(nproc 2>/dev/null || echo 2)
# Each step with the wall-clock time and the minutes since the start (where CI's time goes).
start=$(date +%s)
step() { printf '==> %s (%s UTC, %d min in)\n' "$*" "$(date -u +%H:%M:%S)" $((($(date +%s) - start) / 60)); }

step "checking dependencies"
./scripts/install-deps.sh

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  step "configuring $BUILD_DIR (CMake, Ninja, Release)"
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi

step "building ($JOBS jobs)"
cmake --build "$BUILD_DIR" -j "$JOBS"

step "running the tests"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"

# The same suite under AddressSanitizer and UBSan: the compiler, the runtime, and every
# executable verify builds are instrumented. STENCILC_SKIP_SANITIZE=1 skips it locally.
if [ "${STENCILC_SKIP_SANITIZE:-0}" != 1 ]; then
  ASAN_DIR=${ASAN_BUILD_DIR:-build-asan}
  if [ ! -f "$ASAN_DIR/build.ninja" ]; then
    step "configuring $ASAN_DIR (AddressSanitizer + UBSan)"
    cmake -S . -B "$ASAN_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTENCILC_SANITIZE=ON
  fi
  step "building $ASAN_DIR ($JOBS jobs)"
  cmake --build "$ASAN_DIR" -j "$JOBS"
  step "running the tests under AddressSanitizer and UBSan"
  ctest --test-dir "$ASAN_DIR" --output-on-failure -j "$JOBS"
fi

step "all tests passed"
