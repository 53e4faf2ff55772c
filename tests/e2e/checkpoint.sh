#!/usr/bin/env bash
# Checkpoints (--checkpoint, --every, --restart) of the built executables (README, "Run
# options"; docs/MPI.md). A restarted run must end bitwise as one that never stopped: the same
# saved .npy bytes and the same --json summary (steps, convergence, reductions, checksums; the
# time, the rate and the message count are of the restarted part only, so they are left out).
#   openmp   poisson_jacobi (run until, first(res)) restarted mid-run stops at the same iteration;
#            an --every series whose second write is interrupted halfway (the test hook
#            STENCILC_TEST_CHECKPOINT_CRASH) leaves the first checkpoint valid and restartable;
#            a truncated, a corrupt and another program's checkpoint are refused
#   cuda     poisson_jacobi on cuda through the CPU execution layer, restarted mid-run
#   mpi      heat3d on mpi-openmp: the checkpoint is the same bytes on 1 and 4 ranks, one written
#            by 4 ranks restarts on 1 and vice versa, and a bad file is one error on 4 ranks
#   mpi_until poisson_jacobi on mpi-openmp, 4 ranks: restarted mid-run, stops at the same
#            iteration with the same reductions (1 rank: the mpi case)
#   integer  tests/e2e/temporal/intreduce2d.stn (integer reductions past 2^53) on openmp and on
#            mpi-openmp with 4 ranks: a restart from the last step's checkpoint runs nothing
#            and reports the same exact 64-bit values, which only the checkpoint carries
#   blocks   tests/e2e/temporal/blocks3d.stn (named run blocks, which run before the main one) on
#            openmp and on mpi-openmp with 4 ranks: a restart mid-run ends as the uninterrupted
#            run (the checkpoint holds the named blocks' effect; a restart does not run them)
# The mpi and mpi_until cases also run for mpi-cuda and mpi-hip (TARGET; through the CPU
# execution layer).
# Usage: checkpoint.sh STENCILC SAMPLES_DIR CASE [TARGET]
set -euo pipefail
stencilc=$1
samples=$2
case=$3
mpi_build=(--target "${4:-mpi-openmp}")
case ${4:-} in mpi-cuda | mpi-hip) mpi_build+=(--cpu-layer) ;; esac
# shellcheck source=mpi_common.sh
source "$(dirname "$0")/mpi_common.sh"

# The --json summary without what only the restarted part measures.
result() {
  sed -E 's/"seconds":[^,]*,"cell_updates":[^,]*,"cells_per_second":[^,]*,//; s/"messages":[^,]*,//; s/"phases":\{[^}]*\},//' "$1"
}
same_result() {
  [ "$(result "$1")" = "$(result "$2")" ] || fail "summaries differ: $(cat "$1") vs $(cat "$2")"
}
steps_of() {
  sed -E 's/.*"steps":([0-9]+).*/\1/' "$1"
}

# A run-until program restarted mid-run on `run` (a command prefix): the same end.
until_restart() {
  local tag=$1
  shift
  local args=(--set N=6 --set tol=1e-2 --set MAXIT=200 --init-random 5 --json)
  "$@" "${args[@]}" --save "u=$tmp/$tag.full.npy" >"$tmp/$tag.full.json"
  grep -q '"converged":true' "$tmp/$tag.full.json" || fail "$tag: no convergence"
  local total m
  total=$(steps_of "$tmp/$tag.full.json")
  [ "$total" -ge 6 ] || fail "$tag: converged after $total steps, too few to stop halfway"
  m=$((total / 2))
  "$@" "${args[@]}" --steps $m --checkpoint "$tmp/$tag.ckpt" >/dev/null
  "$@" "${args[@]}" --restart "$tmp/$tag.ckpt" --save "u=$tmp/$tag.rest.npy" \
    >"$tmp/$tag.rest.json"
  same_result "$tmp/$tag.full.json" "$tmp/$tag.rest.json"
  cmp "$tmp/$tag.full.npy" "$tmp/$tag.rest.npy" || fail "$tag: u differs after the restart"
}

case $case in
openmp)
  "$stencilc" build "$samples/poisson_jacobi.stn" --target openmp -o "$tmp/pj" >/dev/null
  until_restart omp "$tmp/pj"
  args=(--set N=6 --set tol=1e-2 --set MAXIT=200 --init-random 5 --json)
  # An interrupted write: the second of an --every 3 series stops halfway (exit 3, as a crash
  # would), which leaves FILE.tmp behind and FILE at step 3, from which the run completes.
  rc=0
  STENCILC_TEST_CHECKPOINT_CRASH=2 "$tmp/pj" "${args[@]}" --checkpoint "$tmp/c.ckpt" --every 3 \
    >/dev/null || rc=$?
  [ "$rc" -eq 3 ] || fail "the crash hook exited $rc"
  [ -s "$tmp/c.ckpt.tmp" ] || fail "no half-written c.ckpt.tmp"
  cmp -s "$tmp/c.ckpt" "$tmp/c.ckpt.tmp" && fail "the half-written file replaced the checkpoint"
  "$tmp/pj" "${args[@]}" --restart "$tmp/c.ckpt" --save "u=$tmp/c.npy" >"$tmp/c.json"
  same_result "$tmp/omp.full.json" "$tmp/c.json"
  cmp "$tmp/omp.full.npy" "$tmp/c.npy" || fail "u differs after restarting the interrupted run"
  # The --every series of an uninterrupted run ends with the final state: a restart from it
  # runs nothing and reports the same.
  "$tmp/pj" "${args[@]}" --checkpoint "$tmp/c.ckpt" --every 3 >/dev/null
  [ -e "$tmp/c.ckpt.tmp" ] && fail "c.ckpt.tmp left after a good write"
  "$tmp/pj" "${args[@]}" --restart "$tmp/c.ckpt" >"$tmp/end.json"
  same_result "$tmp/omp.full.json" "$tmp/end.json"
  # Refused: truncated, corrupt, another program's (other params), missing.
  size=$(stat -c %s "$tmp/omp.ckpt")
  head -c $((size - 100)) "$tmp/omp.ckpt" >"$tmp/trunc.ckpt"
  expect_error "--restart $tmp/trunc.ckpt: truncated or corrupt (checksum mismatch)" \
    "$tmp/pj" "${args[@]}" --restart "$tmp/trunc.ckpt"
  head -c 20 "$tmp/omp.ckpt" >"$tmp/short.ckpt"
  expect_error "--restart $tmp/short.ckpt: truncated (20 bytes)" \
    "$tmp/pj" "${args[@]}" --restart "$tmp/short.ckpt"
  cp "$tmp/omp.ckpt" "$tmp/flip.ckpt"
  printf '\x55' | dd of="$tmp/flip.ckpt" bs=1 seek=$((size - 200)) conv=notrunc status=none
  expect_error "--restart $tmp/flip.ckpt: truncated or corrupt (checksum mismatch)" \
    "$tmp/pj" "${args[@]}" --restart "$tmp/flip.ckpt"
  expect_error "--restart $tmp/pj: not a stencilc checkpoint (bad magic)" \
    "$tmp/pj" "${args[@]}" --restart "$tmp/pj"
  # Checked before the grids are allocated: 10^15 cells would be out of memory.
  rc=0
  "$tmp/pj" --set N=100000 --set tol=1e-2 --set MAXIT=200 --restart "$tmp/omp.ckpt" \
    >"$tmp/out" 2>&1 || rc=$?
  cat "$tmp/out"
  [ "$rc" -eq 1 ] || fail "another N: exit $rc"
  grep -q "^error: --restart $tmp/omp.ckpt: a checkpoint of another version of poisson_jacobi or other param values (fingerprint [0-9a-f]*, this run [0-9a-f]*)\$" \
    "$tmp/out" || fail "another N: wrong message"
  expect_error "--restart $tmp/none.ckpt: cannot open: No such file or directory" \
    "$tmp/pj" "${args[@]}" --restart "$tmp/none.ckpt"
  expect_error "--checkpoint $tmp/no/dir/c.ckpt: cannot open for writing: No such file or directory" \
    "$tmp/pj" "${args[@]}" --checkpoint "$tmp/no/dir/c.ckpt" --every 2
  ;;
cuda)
  "$stencilc" build "$samples/poisson_jacobi.stn" --target cuda --cpu-layer -o "$tmp/pj" >/dev/null
  until_restart cuda "$tmp/pj"
  ;;
mpi)
  "$stencilc" build "$samples/heat3d.stn" "${mpi_build[@]}" -o "$tmp/heat" >/dev/null
  args=(--set NX=16 --set NY=16 --set NZ=16 --init-random 2 --json)
  # A run of 10 steps with a checkpoint after every 4 (the last is the final state), and one
  # at step 4 from a shorter run, on 1 and 4 ranks: the same bytes.
  for np in 1 4; do
    "${mpirun[@]}" -np $np "$tmp/heat" "${args[@]}" --steps 10 --save "u=$tmp/full$np.npy" \
      --checkpoint "$tmp/c$np.ckpt" --every 4 >"$tmp/full$np.json"
    "${mpirun[@]}" -np $np "$tmp/heat" "${args[@]}" --steps 4 --checkpoint "$tmp/m$np.ckpt" \
      >/dev/null
  done
  cmp "$tmp/full1.npy" "$tmp/full4.npy" || fail "1 and 4 ranks differ"
  cmp "$tmp/c1.ckpt" "$tmp/c4.ckpt" || fail "the checkpoints of 1 and 4 ranks differ"
  cmp "$tmp/m1.ckpt" "$tmp/m4.ckpt" || fail "the step-4 checkpoints of 1 and 4 ranks differ"
  # Written by 4, restarted on 1, and the other way round.
  "${mpirun[@]}" -np 1 "$tmp/heat" "${args[@]}" --steps 10 --restart "$tmp/m4.ckpt" \
    --save "u=$tmp/r41.npy" >"$tmp/r41.json"
  "${mpirun[@]}" -np 4 "$tmp/heat" "${args[@]}" --steps 10 --restart "$tmp/m1.ckpt" \
    --save "u=$tmp/r14.npy" >"$tmp/r14.json"
  cmp "$tmp/full1.npy" "$tmp/r41.npy" || fail "4 -> 1 ranks: u differs"
  cmp "$tmp/full4.npy" "$tmp/r14.npy" || fail "1 -> 4 ranks: u differs"
  same_result "$tmp/full1.json" "$tmp/r41.json"
  same_result "$tmp/full4.json" "$tmp/r14.json"
  # Collective errors on 4 ranks: one message, exit 1.
  head -c 300 "$tmp/m4.ckpt" >"$tmp/trunc.ckpt"
  expect_error "--restart $tmp/trunc.ckpt: truncated or corrupt (checksum mismatch)" \
    "${mpirun[@]}" -np 4 "$tmp/heat" "${args[@]}" --restart "$tmp/trunc.ckpt"
  # Other params, checked before the grids are allocated (10^15 cells).
  rc=0
  timeout 60 "${mpirun[@]}" -np 4 "$tmp/heat" --set NX=100000 --set NY=100000 --set NZ=100000 \
    --restart "$tmp/m4.ckpt" >"$tmp/out" 2>&1 || rc=$?
  cat "$tmp/out"
  [ "$rc" -eq 1 ] || fail "other params on 4 ranks: exit $rc"
  [ "$(grep -c '^error: ' "$tmp/out")" -eq 1 ] || fail "other params on 4 ranks: not one error"
  grep -q "^error: --restart $tmp/m4.ckpt: a checkpoint of another version of heat3d or other param values (fingerprint [0-9a-f]*, this run [0-9a-f]*)\$" \
    "$tmp/out" || fail "other params on 4 ranks: wrong message"
  expect_error "--checkpoint $tmp/no/dir/c.ckpt: cannot open for writing: No such file or directory" \
    "${mpirun[@]}" -np 4 "$tmp/heat" "${args[@]}" --checkpoint "$tmp/no/dir/c.ckpt"
  ;;
mpi_until)
  "$stencilc" build "$samples/poisson_jacobi.stn" "${mpi_build[@]}" -o "$tmp/pj" >/dev/null
  until_restart np4 "${mpirun[@]}" -np 4 "$tmp/pj"
  ;;
blocks)
  spec="$(dirname "$0")/temporal/blocks3d.stn"
  "$stencilc" build "$spec" --target openmp -o "$tmp/bl" >/dev/null
  "$stencilc" build "$spec" --target mpi-openmp -o "$tmp/blm" >/dev/null
  for tag in omp mpi; do
    if [ $tag = omp ]; then run=("$tmp/bl"); else run=("${mpirun[@]}" -np 4 "$tmp/blm"); fi
    args=(--init-random 4 --json)
    "${run[@]}" "${args[@]}" --steps 9 --save "u=$tmp/$tag.full.npy" >"$tmp/$tag.full.json"
    "${run[@]}" "${args[@]}" --steps 4 --checkpoint "$tmp/$tag.ckpt" >/dev/null
    "${run[@]}" "${args[@]}" --steps 9 --restart "$tmp/$tag.ckpt" --save "u=$tmp/$tag.rest.npy" \
      >"$tmp/$tag.rest.json"
    same_result "$tmp/$tag.full.json" "$tmp/$tag.rest.json"
    cmp "$tmp/$tag.full.npy" "$tmp/$tag.rest.npy" || fail "$tag: u differs after the restart"
  done
  ;;
integer)
  spec="$(dirname "$0")/temporal/intreduce2d.stn"
  "$stencilc" build "$spec" --target openmp -o "$tmp/ir" >/dev/null
  "$stencilc" build "$spec" --target mpi-openmp -o "$tmp/irm" >/dev/null
  for tag in omp mpi; do
    if [ $tag = omp ]; then run=("$tmp/ir"); else run=("${mpirun[@]}" -np 4 "$tmp/irm"); fi
    "${run[@]}" --json --checkpoint "$tmp/$tag.ckpt" >"$tmp/$tag.full.json"
    grep -Eq '"total":-?[0-9]{17,}[,}]' "$tmp/$tag.full.json" ||
      fail "$tag: no exact integer reduction past 2^53 in $(cat "$tmp/$tag.full.json")"
    "${run[@]}" --json --restart "$tmp/$tag.ckpt" >"$tmp/$tag.rest.json"
    same_result "$tmp/$tag.full.json" "$tmp/$tag.rest.json"
  done
  # The same values on 1 process and on 4 ranks (the plans differ).
  [ "$(sed 's/.*"checksums"//' "$tmp/omp.full.json")" = "$(sed 's/.*"checksums"//' "$tmp/mpi.full.json")" ] ||
    fail "openmp and 4 ranks differ: $(cat "$tmp/omp.full.json") vs $(cat "$tmp/mpi.full.json")"
  ;;
*)
  fail "unknown case $case"
  ;;
esac
echo "OK $case"
