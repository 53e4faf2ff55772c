#!/usr/bin/env bash
# A whole Physis program built for the device with the real toolchain (nvcc or hipcc): its host
# code compiled by the C compiler and linked with the device code; started here, where there is
# no GPU, it must print one line saying so and exit 1 (a device, where there is one: it must
# behave as its plain-C counterpart, as physis_host.sh checks through the CPU layer).
# Exit 77 (ctest SKIP_RETURN_CODE) when the toolchain is absent.
#
#   physis_host_device.sh STENCILC PROGRAM.c PLAIN.c cuda|hip
set -u
stencilc=$1 program=$2 plain=$3 target=$4
case $target in
cuda) compiler=${CUDACXX:-/usr/local/cuda/bin/nvcc} device=/dev/nvidia0 api=CUDA ;;
hip) compiler=${HIPCXX:-hipcc} device=/dev/kfd api=HIP ;;
*) echo "usage: $0 STENCILC PROGRAM.c PLAIN.c cuda|hip" >&2; exit 2 ;;
esac
if ! command -v "$compiler" >/dev/null 2>&1; then
  echo "SKIP: the $target toolchain '$compiler' is not installed (set CUDACXX or HIPCXX)"
  exit 77
fi
if [ -e "$device" ]; then
  exec bash "$(dirname "$0")/physis_host.sh" "$stencilc" "$program" "$plain" "$target"
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$stencilc" build "$program" --target "$target" -o "$tmp/prog" || exit 1
(cd "$tmp" && ./prog >"$tmp/out.txt" 2>"$tmp/err.txt")
rc=$?
cat "$tmp/out.txt" "$tmp/err.txt"
if [ $rc -ne 1 ] || [ "$(wc -l <"$tmp/err.txt")" -ne 1 ] || [ -s "$tmp/out.txt" ] ||
   ! grep -q "no $api device" "$tmp/err.txt"; then
  echo "FAIL: without a $api device the program must print one line saying so and exit 1 (exit $rc)"
  exit 1
fi
echo "ok: $(basename "$program") built with $compiler; without a device: exit 1, one line"
