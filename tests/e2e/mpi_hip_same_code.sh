#!/usr/bin/env bash
# mpi-hip's generated code is mpi-cuda's but for the target's name: the same files, byte for
# byte once "mpi-hip" reads "mpi-cuda", for every sample under the model's plan and, where the
# program takes it, the temporal plan across ranks. Through the CPU execution layer both are
# compiled and run alike, so the mpi-cuda verify tests of every sample and overlap strategy
# cover mpi-hip's too; the mpi-hip ones run on a subset (tests/e2e/CMakeLists.txt), and hipcc
# compiles mpi-hip's own (e2e.toolchain.mpi-hip).
#
#   mpi_hip_same_code.sh STENCILC SAMPLES_DIR
# (Unformatted: libFormat breaks lines by their length, which the names change.)
set -euo pipefail
stencilc=$1 samples=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count=0
for stn in "$samples"/*.stn; do
  name=$(basename "$stn" .stn)
  plans=("")
  case $name in heat3d | himeno) plans+=("scheme=temporal,k=3,tile=16x12") ;; heat2d) plans+=("scheme=temporal,k=3,tile=24x1") ;; esac
  for plan in "${plans[@]}"; do
    args=()
    [ -n "$plan" ] && args=(--plan "$plan")
    rm -rf "$tmp/cuda" "$tmp/hip"
    "$stencilc" emit "$stn" --target mpi-cuda "${args[@]}" --no-format -o "$tmp/cuda" >/dev/null
    "$stencilc" emit "$stn" --target mpi-hip "${args[@]}" --no-format -o "$tmp/hip" >/dev/null
    for f in "$tmp"/hip/*; do
      sed -i 's/mpi-hip/mpi-cuda/g' "$f"
    done
    if ! diff -r "$tmp/cuda" "$tmp/hip" >"$tmp/diff"; then
      echo "FAIL: $name ${plan:-(the model plan)}: mpi-hip's code differs from mpi-cuda's beyond the target's name:"
      head -40 "$tmp/diff"
      exit 1
    fi
    count=$((count + 1))
  done
done
[ "$count" -ge 15 ] || { echo "FAIL: only $count programs compared"; exit 1; }
echo "mpi-hip's code is mpi-cuda's but for the name: $count programs"
