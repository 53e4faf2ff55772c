#!/usr/bin/env bash
# A fresh project of a few lines against the installed prefix: find_package,
# stencilc_add_stencil, add_executable, target_link_libraries. Built with Ninja and run, its
# result must be the reference interpreter's, bit for bit (the generated code is compiled with
# -ffp-contract=off). Then editing the .stn, touching it, touching stencilc and editing the
# MACHINE file must each regenerate the code, and the rebuilt program follows the change.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
work=$STENCILC_WORK_DIR/consumer
fresh_dir "$work/src"
cd "$work"
stencilc=$PREFIX/bin/stencilc

cp "$SRC/samples/heat3d.stn" src/heat.stn
cp "$SRC/compiler/model/machines/generic-cpu.json" src/machine.json
cat >src/CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(consumer LANGUAGES CXX)
find_package(stencilc CONFIG REQUIRED)
stencilc_add_stencil(heat SOURCE heat.stn TARGET openmp MACHINE machine.json)
add_executable(app main.cpp)
target_link_libraries(app PRIVATE heat)
CMAKE
cat >src/main.cpp <<'CPP'
// app INIT.npy STEPS OUT.npy: u from INIT.npy on a 20 x 16 x 12 grid, STEPS steps, u saved.
#include <cstdio>
#include <string>

#include "heat3d.h"

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  heat3d::Stencil s(heat3d::Params::from(
      stencilc::ParamSet({{"NX", "20"}, {"NY", "16"}, {"NZ", "12"}})));
  s.load("u", argv[1]);
  s.run(std::stoll(argv[2]));
  s.save("u", argv[3]);
  std::printf("plan %s\n", s.plan().c_str());
}
CPP
"$PYTHON" -c 'import numpy as np
rng = np.random.default_rng(6)
np.save("init.npy", np.asfortranarray(rng.random((20, 16, 12), dtype=np.float32)))'

# Run the app and the interpreter on the current heat.stn; they must agree bit for bit.
check_run() { # TAG
  build/app init.npy 7 "app_$1.npy" >"app_$1.txt" || fail "app ($1)"
  "$stencilc" run src/heat.stn --set NX=20 --set NY=16 --set NZ=12 --steps 7 \
    --load u=init.npy --save u="ref_$1.npy" >/dev/null
  same_bits "app_$1.npy" "ref_$1.npy" || fail "app and interpreter differ ($1)"
  echo "$1: the app agrees with the interpreter ($(cat "app_$1.txt"))"
}
# The plan the model chooses for the MACHINE file at the .stn's default sizes.
model_plan() {
  "$stencilc" explain src/heat.stn --machine src/machine.json --json |
    "$PYTHON" -c 'import json, sys; print(json.load(sys.stdin)["chosen"]["plan"])'
}
# Builds with Ninja explaining why it reruns what it reruns; the log is in ninja_$1.txt.
rebuild() { # TAG
  "$CMAKE" --build build -- -d explain >"ninja_$1.txt" 2>&1 || {
    cat "ninja_$1.txt"
    fail "build ($1)"
  }
}
regenerated() { # TAG CAUSE: the build reran stencilc because CAUSE changed
  grep -q 'stencilc: generating heat from heat.stn' "ninja_$1.txt" ||
    fail "$1: the code was not regenerated: $(cat "ninja_$1.txt")"
  grep -q "ninja explain: .*older than most recent input .*$2" "ninja_$1.txt" ||
    fail "$1: ninja does not name $2 as the cause: $(cat "ninja_$1.txt")"
  grep -q 'Linking CXX executable app' "ninja_$1.txt" || fail "$1: app was not relinked"
}

configure src build "$PREFIX" >configure.txt || {
  cat configure.txt
  fail "configure"
}
rebuild first
gen=build/stencilc/heat
[ -f $gen/heat3d.h ] && [ -f $gen/heat3d.cpp ] || fail "no generated heat3d.h, heat3d.cpp in $gen"
check_run first
grep -qx "plan $(model_plan)" app_first.txt || fail "app does not run the model's plan: $(model_plan)"

# A changed param default: the new code computes the new .stn.
sed -i 's/c0 = 0.4/c0 = 0.25/' src/heat.stn
rebuild edited
regenerated edited heat.stn
check_run edited
if same_bits app_first.npy app_edited.npy 2>/dev/null; then
  fail "the edited .stn gives the same result"
fi

# A plain touch regenerates too (the files are rewritten, so they are newer).
before=$(mtime $gen/heat3d.cpp)
touch src/heat.stn
rebuild touched
regenerated touched heat.stn
[ "$(mtime $gen/heat3d.cpp)" -gt "$before" ] || fail "heat3d.cpp was not rewritten"
check_run touched

# A new stencilc regenerates (asked of Ninja without building).
touch "$stencilc"
"$CMAKE_MAKE_PROGRAM" -C build -n -d explain >ninja_stencilc.txt 2>&1
grep -q "older than most recent input $stencilc" ninja_stencilc.txt ||
  fail "a new stencilc does not regenerate: $(cat ninja_stencilc.txt)"
grep -q 'stencilc: generating heat' ninja_stencilc.txt || fail "no generation step planned"

# Another machine profile: memory and the L3 as fast as arithmetic, so the model chooses naive
# sweeps (with a slower L3, the planes a 256^3 sweep re-reads from it would favour rings in
# the L2).
sed -i 's/"bandwidth": 2.0e10/"bandwidth": 1.0e13/; s/"shared_cache_flops": 2.5e10/"shared_cache_flops": 5.0e10/' \
  src/machine.json
[ "$(model_plan)" = scheme=naive ] || fail "the fast-memory profile should choose naive"
rebuild machine
regenerated machine machine.json
check_run machine
grep -qx "plan scheme=naive" app_machine.txt || fail "app does not run the new plan"
echo "ok"
