#!/usr/bin/env bash
# stencilc_add_stencil(... TARGET mpi-openmp) in a fresh project against the installed prefix:
# the application links stencilc::runtime_mpi_openmp (the distributed runtime, MPI, the Open MPI
# libhdf5 and the CPU engine) through the library, runs under mpirun on 1 and 3 ranks, and its
# grid, saved through MPI-IO and through parallel HDF5, is the reference interpreter's bit for
# bit. The Stencil takes the process grid (empty: chosen at run time) after its params.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
work=$STENCILC_WORK_DIR/consumer_mpi
fresh_dir "$work/src"
cd "$work"
stencilc=$PREFIX/bin/stencilc
mpirun=(mpirun --allow-run-as-root --oversubscribe)

cp "$SRC/samples/heat3d.stn" src/heat.stn
cat >src/CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(consumer_mpi LANGUAGES CXX)
find_package(stencilc CONFIG REQUIRED)
stencilc_add_stencil(heat SOURCE heat.stn TARGET mpi-openmp PLAN scheme=naive)
add_executable(app main.cpp)
target_link_libraries(app PRIVATE heat)
CMAKE
cat >src/main.cpp <<'CPP'
// app INIT.npy STEPS OUT: u from INIT.npy on a 20 x 16 x 12 grid, STEPS steps, u saved as
// OUT.npy and OUT.h5 (every rank takes part; rank 0 prints the plan).
#include <cstdio>
#include <string>

#include "heat3d.h"
#include "stencilc/mpi/comm.h"

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  stencilc::mpi::Session session(argc, argv);
  heat3d::Stencil s(heat3d::Params::from(
                        stencilc::ParamSet({{"NX", "20"}, {"NY", "16"}, {"NZ", "12"}})),
                    {});
  s.load("u", argv[1]);
  s.run(std::stoll(argv[2]));
  s.save("u", std::string(argv[3]) + ".npy");
  s.save("u", std::string(argv[3]) + ".h5");
  if (s.writes_files())
    std::printf("plan %s on %d ranks\n", s.plan().c_str(), s.ranks());
}
CPP
"$PYTHON" -c 'import numpy as np
rng = np.random.default_rng(7)
np.save("init.npy", np.asfortranarray(rng.random((20, 16, 12), dtype=np.float32)))'

configure src build "$PREFIX" >configure.txt 2>&1 || {
  cat configure.txt
  fail "configure"
}
"$CMAKE" --build build >build.txt 2>&1 || {
  cat build.txt
  fail "build"
}
"$stencilc" run src/heat.stn --set NX=20 --set NY=16 --set NZ=12 --steps 5 --load u=init.npy \
  --save u=ref.npy >/dev/null
for np in 1 3; do
  "${mpirun[@]}" -np $np build/app init.npy 5 "app$np" >"app$np.txt" || fail "app on $np ranks"
  grep -q "on $np ranks" "app$np.txt" || fail "app on $np ranks: $(cat "app$np.txt")"
  same_bits "app$np.npy" ref.npy || fail "app on $np ranks and the interpreter differ (.npy)"
  "$PYTHON" - "app$np.h5" <<'PY' || fail "app on $np ranks and the interpreter differ (.h5)"
import sys
import h5py, numpy as np
with h5py.File(sys.argv[1]) as f:
    got = f["u"][...]
want = np.ascontiguousarray(np.load("ref.npy").T) # HDF5 stores [z, y, x]
if got.dtype != want.dtype or got.shape != want.shape or got.tobytes() != want.tobytes():
    sys.exit(f"{got.dtype}{got.shape} against {want.dtype}{want.shape}")
PY
  echo "ok: $np ranks: $(cat "app$np.txt"), u bit for bit the interpreter's (.npy and .h5)"
done
