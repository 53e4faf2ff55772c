#!/usr/bin/env bash
# The real GPU toolchains on the generated code of every sample: `stencilc build --target cuda`
# with nvcc for sm_80 and sm_90 (one nvcc run per sample, both architectures), or `--target
# hip` with hipcc for gfx90a, each a complete executable. A kernel that spills registers fails
# the test (nvcc: ptxas -v; hipcc: the kernel-resource-usage remarks). Then one executable is
# started: with no device here it must print one line saying so and exit 1. mpi-cuda and
# mpi-hip: the same toolchains with Open MPI's flags, on the samples named (all if none).
# Exit 77 (ctest SKIP_RETURN_CODE) when the toolchain is absent, saying which.
#
#   gpu_toolchains.sh STENCILC SAMPLES_DIR cuda|hip|mpi-cuda|mpi-hip [SAMPLE...]
set -u
stencilc=$1 samples=$2 target=$3
shift 3
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for stn in "$samples"/*.stn; do names+=("$(basename "$stn" .stn)"); done
fi
no_device=heat2d prefix=
case $target in mpi-*) no_device=${names[0]} prefix="rank 0: " ;; esac
case ${target#mpi-} in
cuda)
  compiler=${CUDACXX:-/usr/local/cuda/bin/nvcc}
  export STENCILC_CUDA_ARCH=sm_80,sm_90
  usage=(--cxxflag=-Xptxas=-v)
  device=/dev/nvidia0 api=CUDA
  ;;
hip)
  compiler=${HIPCXX:-hipcc}
  export STENCILC_HIP_ARCH=gfx90a
  usage=(--cxxflag=-Rpass-analysis=kernel-resource-usage)
  device=/dev/kfd api=HIP
  ;;
*) echo "usage: $0 STENCILC SAMPLES_DIR cuda|hip|mpi-cuda|mpi-hip [SAMPLE...]" >&2; exit 2 ;;
esac
if ! command -v "$compiler" >/dev/null 2>&1; then
  echo "SKIP: the $target toolchain '$compiler' is not installed (set CUDACXX or HIPCXX)"
  exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0
for name in "${names[@]}"; do
  stn=$samples/$name.stn
  if ! "$stencilc" build "$stn" --target "$target" "${usage[@]}" -o "$tmp/$name" \
      >"$tmp/$name.log" 2>&1; then
    echo "FAIL $name: the $target build failed"
    tail -20 "$tmp/$name.log"
    failed=1
    continue
  fi
  if [ "${target#mpi-}" = cuda ]; then
    # The compiler's own ptxas parser (compiler/target/ptxas_usage.cpp): exit 1 names each
    # spilling kernel and its spill bytes.
    if summary=$("$stencilc" ptxas-usage "$tmp/$name.log" 2>&1); then
      echo "ok   $name: $summary"
    else
      echo "FAIL $name: $summary"
      failed=1
    fi
    continue
  else
    spills=$(grep -E '(SGPRs|VGPRs) Spill: [1-9]' "$tmp/$name.log")
    regs=$(grep -oE 'VGPRs: [0-9]+' "$tmp/$name.log" | awk '{print $2}' | sort -n | tail -1)
    kernels=$(grep -c 'Function Name:' "$tmp/$name.log")
  fi
  if [ "$kernels" -eq 0 ]; then
    echo "FAIL $name: no resource usage reported (did the flags reach the device compiler?)"
    failed=1
  elif [ -n "$spills" ]; then
    echo "FAIL $name: spills registers:"
    echo "$spills"
    failed=1
  else
    echo "ok   $name: $kernels kernel compilations, at most ${regs:-?} registers, no spills"
  fi
done
# An executable started where there is no device: one line, exit 1.
if [ -e "$device" ]; then
  echo "($device exists: the no-device check does not apply here)"
elif [ -x "$tmp/$no_device" ]; then
  # (an MPI program started alone is a job of one rank)
  out=$("$tmp/$no_device" --steps 1 2>&1)
  rc=$?
  lines=$(printf '%s\n' "$out" | wc -l)
  if [ $rc -eq 1 ] && [ "$lines" -eq 1 ] && [[ $out == "error: ${prefix}no $api device"* ]]; then
    echo "ok   no device: '$out', exit 1"
  else
    echo "FAIL no device: exit $rc, output:"
    printf '%s\n' "$out"
    failed=1
  fi
fi
exit $failed
