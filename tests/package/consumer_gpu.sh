#!/usr/bin/env bash
# stencilc_add_stencil(... TARGET cuda|hip|mpi-cuda|mpi-hip) in a fresh project against the
# installed prefix: cuda through CMake's CUDA language (nvcc, sm_80), hip through hipcc
# (gfx90a); mpi-cuda and mpi-hip the same with stencilc::runtime_mpi (MPI, the Open MPI
# libhdf5), the application run under mpirun. The application builds; run here, where there is
# no GPU, it must print the one-line "no CUDA device" (or HIP) message the generated code
# throws and exit 1. Exit 77 (skipped) when the toolchain is absent.
#   consumer_gpu.sh cuda|hip|mpi-cuda|mpi-hip
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
target=$1
launch=()
case $target in mpi-*) launch=(mpirun --allow-run-as-root --oversubscribe -np 1) ;; esac
case ${target#mpi-} in
cuda)
  nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
  command -v "$nvcc" >/dev/null 2>&1 || { echo "SKIP: no nvcc ($nvcc)"; exit 77; }
  languages="CXX CUDA" args=(-DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=80)
  api=CUDA device=/dev/nvidia0
  ;;
hip)
  command -v "${HIPCXX:-hipcc}" >/dev/null 2>&1 || { echo "SKIP: no hipcc"; exit 77; }
  languages="CXX" args=() api=HIP device=/dev/kfd
  ;;
*) fail "usage: $0 cuda|hip|mpi-cuda|mpi-hip" ;;
esac
work=$STENCILC_WORK_DIR/consumer_$target
fresh_dir "$work/src"
cd "$work"
cp "$SRC/samples/heat3d.stn" src/heat.stn
cat >src/CMakeLists.txt <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(consumer_gpu LANGUAGES $languages)
find_package(stencilc CONFIG REQUIRED)
stencilc_add_stencil(heat SOURCE heat.stn TARGET $target PLAN scheme=naive)
add_executable(app main.cpp)
target_link_libraries(app PRIVATE heat)
CMAKE
if [ ${#launch[@]} -eq 0 ]; then session="" procs=""; else
  session='#include "stencilc/mpi/comm.h"' procs=", {}"
fi
cat >src/main.cpp <<CPP
// app STEPS: heat3d on a 20 x 16 x 12 grid on the device; prints the checksum of u.
#include <cstdio>
#include <exception>
#include <string>

#include "heat3d.h"
$session

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  ${session:+stencilc::mpi::Session session(argc, argv);}
  try {
    heat3d::Stencil s(heat3d::Params::from(
        stencilc::ParamSet({{"NX", "20"}, {"NY", "16"}, {"NZ", "12"}}))$procs);
    s.init_random(1);
    s.run(std::stoll(argv[1]));
    std::printf("checksum %.17g\\n", s.checksum("u"));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "error: %s\\n", e.what());
    return 1;
  }
}
CPP
configure src build "$PREFIX" "${args[@]}" >configure.log 2>&1 || { cat configure.log; fail "configure"; }
"$CMAKE" --build build >build.log 2>&1 || { cat build.log; fail "build"; }
grep -q "stencilc: generating heat" build.log || fail "the stencil was not generated at build time"
if [ -e "$device" ]; then
  "${launch[@]}" ./build/app 3 || fail "the application failed on the $api device"
  echo "ok: TARGET $target built and ran on the device"
  exit 0
fi
set +e
${launch[@]+"${launch[@]}"} ./build/app 3 >out.txt 2>err.txt
rc=$?
set -e
cat out.txt err.txt
[ $rc -eq 1 ] || fail "exit $rc without a $api device, expected 1"
if [ ${#launch[@]} -eq 0 ]; then
  [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "no $api device" err.txt ||
    fail "expected one line saying there is no $api device"
else # (mpirun adds its own lines about the exit status)
  [ "$(grep -c "no $api device" err.txt)" -eq 1 ] ||
    fail "expected one line saying there is no $api device"
fi
echo "ok: TARGET $target builds; without a device: exit 1, one line"
