#!/usr/bin/env bash
# Installs what is missing, builds stencilc (Release), compiles samples/heat3d.stn for the
# openmp target, checks it against the reference interpreter, then runs it at a larger size
# and prints its throughput. Exits non-zero if any step fails. Works from any directory.
#   BUILD_DIR=dir ./demo.sh    build somewhere else than ./build (relative to the repo root)
#   DEMO_SIZE=N ./demo.sh      edge of the cube of the timed run (default 256)
#   DEMO_STEPS=N ./demo.sh     steps of the timed run (default 20)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

BUILD_DIR=${BUILD_DIR:-build}
JOBS=$(nproc 2>/dev/null || echo 2)
SIZE=${DEMO_SIZE:-256}
STEPS=${DEMO_STEPS:-20}
STENCILC=$BUILD_DIR/bin/stencilc
EXE=$BUILD_DIR/demo/heat3d

heading() { printf '\n=== %s ===\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@"; }

heading "1. dependencies"
./scripts/install-deps.sh
echo "all installed"

heading "2. build stencilc (Release)"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$BUILD_DIR" -j "$JOBS" --target stencilc

heading "3. the program: samples/heat3d.stn"
cat samples/heat3d.stn

heading "4. generated OpenMP code vs the reference interpreter (small size)"
show "$STENCILC" verify samples/heat3d.stn --target openmp

heading "5. build an executable"
mkdir -p "$(dirname "$EXE")"
show "$STENCILC" build samples/heat3d.stn --target openmp -o "$EXE"

heading "6. run it: ${SIZE}^3 fp32, $STEPS steps"
show "$EXE" --set NX="$SIZE" --set NY="$SIZE" --set NZ="$SIZE" --steps "$STEPS" --init-random 1

heading "done"
echo "the generated code agrees with the interpreter; the throughput is the cell-updates/s line above"
