#!/usr/bin/env bash
# stencilc_add_stencil stops configuration with a clear message on bad arguments, on a .stn
# stencilc rejects, and at build time when the stencil was renamed since CMake configured.
# One project, reconfigured for each call (after the first configure, a few tenths of a second).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
work=$STENCILC_WORK_DIR/arguments
fresh_dir "$work/src"
cd "$work"

cp "$SRC/samples/heat3d.stn" src/heat.stn
printf 'stencil bad;\ngrid float u[8] boundary dirichlet(0.0);\nkernel k(x) { u[x] = w[x]; }\nrun 1 { k; }\n' >src/bad.stn
cat >src/CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(arguments LANGUAGES CXX)
find_package(stencilc CONFIG REQUIRED)
include(call.cmake)
CMAKE

# The file's lines joined and spaces squeezed: CMake wraps its messages.
joined() { tr '\n' ' ' <"$1" | tr -s ' '; }

# CALL must stop configuration with a message matching REGEX (extended grep, one line).
rejects() { # CALL REGEX
  echo "$1" >src/call.cmake
  if configure src build "$PREFIX" >out.txt 2>&1; then
    fail "configured despite $1"
  fi
  grep -Eq -- "$2" <<<"$(joined out.txt)" || {
    cat out.txt
    fail "$1: expected a message matching: $2"
  }
  echo "rejected: $1"
}
usage='stencilc_add_stencil\(<name> SOURCE <file.stn> \[TARGET openmp\|cuda\|hip\|mpi-openmp\|mpi-cuda\|mpi-hip\]'
rejects 'stencilc_add_stencil(h TARGET openmp)' "stencilc_add_stencil\(h\): no SOURCE; give the .stn program: $usage"
rejects 'stencilc_add_stencil(h SOURCE missing.stn)' "stencilc_add_stencil\(h\): SOURCE missing.stn: no such file \($work/src/missing.stn\)"
rejects 'stencilc_add_stencil(h SOURCE heat.stn TARGET mpi-c)' 'TARGET mpi-c: stencilc_add_stencil builds openmp, cuda, hip, mpi-openmp, mpi-cuda and mpi-hip code'
rejects 'stencilc_add_stencil(h SOURCE heat.stn TARGET mpi-cuda)' 'TARGET mpi-cuda needs CMake.s CUDA language: project\(... LANGUAGES CXX CUDA\) or enable_language\(CUDA\) first'
rejects 'stencilc_add_stencil(h SOURCE heat.stn TARGET cuda)' 'TARGET cuda needs CMake.s CUDA language: project\(... LANGUAGES CXX CUDA\) or enable_language\(CUDA\) first'
rejects 'stencilc_add_stencil(SOURCE heat.stn)' "stencilc_add_stencil: the first argument is the library's name: $usage"
rejects 'stencilc_add_stencil(h SOURCE heat.stn PLAN)' "stencilc_add_stencil\(h\): PLAN needs a value"
rejects 'stencilc_add_stencil(h SOURCE heat.stn OPTIMIZE)' "stencilc_add_stencil\(h\): unexpected arguments 'OPTIMIZE'"
rejects 'stencilc_add_stencil(h SOURCE heat.stn MACHINE nosuch.json)' "MACHINE nosuch.json: no such file \($work/src/nosuch.json\)"
rejects 'stencilc_add_stencil(h SOURCE heat.stn MACHINE nosuch)' 'stencilc cannot generate code for heat.stn: error: --machine nosuch: no built-in profile or file of that name'
rejects 'stencilc_add_stencil(h SOURCE heat.stn PLAN scheme=bogus)' 'stencilc cannot generate code for heat.stn: error: .*scheme=bogus'
rejects 'stencilc_add_stencil(h SOURCE bad.stn)' "stencilc cannot generate code for bad.stn: $work/src/bad.stn:3:22: error: "
rejects 'add_library(h INTERFACE)
stencilc_add_stencil(h SOURCE heat.stn)' 'stencilc_add_stencil\(h\): a target named h already exists'

# A good call configures; renaming the stencil afterwards fails the build with what to do,
# and re-running CMake picks up the new name.
echo 'stencilc_add_stencil(h SOURCE heat.stn MACHINE generic-cpu)' >src/call.cmake
configure src build "$PREFIX" >out.txt 2>&1 || {
  cat out.txt
  fail "a good call does not configure"
}
sed -i 's/^stencil heat3d;/stencil hot;/' src/heat.stn
if "$CMAKE" --build build >out.txt 2>&1; then
  fail "built after the stencil was renamed"
fi
renamed="stencilc did not write $work/build/stencilc/h/heat3d.h: the name after \`stencil\` in"
renamed+=" $work/src/heat.stn changed since CMake configured this build; re-run CMake"
grep -qF "$renamed" <<<"$(joined out.txt)" || {
  cat out.txt
  fail "no clear message for a renamed stencil"
}
configure src build "$PREFIX" >out.txt 2>&1 || fail "reconfigure after the rename"
grep -q 'stencilc/h/hot.cpp' <<<"$("$CMAKE_MAKE_PROGRAM" -C build -n h)" || fail "hot.cpp is not built"
echo "ok"
