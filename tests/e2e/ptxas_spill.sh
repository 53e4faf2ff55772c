#!/usr/bin/env bash
# The spill check can fail: samples/himeno.stn built for sm_80 with -maxrregcount=16 makes ptxas
# spill in the Jacobi kernel, and `stencilc ptxas-usage` must exit 1 naming that kernel and its
# spill bytes. Exit 77 (ctest SKIP_RETURN_CODE) without nvcc.
#
#   ptxas_spill.sh STENCILC SAMPLES_DIR
set -u
stencilc=$1 samples=$2
source "$(dirname "$0")/nvcc_common.sh"
export STENCILC_CUDA_ARCH=sm_80
if ! "$stencilc" build "$samples/himeno.stn" --target cuda --cxxflag=-Xptxas=-v \
    --cxxflag=-maxrregcount=16 -o "$tmp/himeno" >"$tmp/log" 2>&1; then
  echo "FAIL: the build failed"; tail -20 "$tmp/log"; exit 1
fi
out=$("$stencilc" ptxas-usage "$tmp/log" 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 1 ]; then
  echo "FAIL: ptxas-usage exit $rc, expected 1 (spills)"; exit 1
fi
if ! grep -qE '^spill: .*kernel__jacobi.*\(sm_80\): [1-9][0-9]* bytes spill stores, [0-9]+ bytes spill loads' <<<"$out"; then
  echo "FAIL: the report does not name the Jacobi kernel and its spill bytes"; exit 1
fi
echo "ok   the spill in the Jacobi kernel is reported"
