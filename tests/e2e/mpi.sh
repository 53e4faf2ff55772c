#!/usr/bin/env bash
# The mpi-openmp executables under real mpirun, beyond verify (tests/e2e/CMakeLists.txt):
#   bytes  the .npy and .h5 files of a run (and a --save-every series) are the same bytes on 1,
#          2, 3 (splitting x) and 4 ranks (uneven blocks) and as the interpreter writes them; a
#          --load of them on 4 ranks runs on as the interpreter and saves them back unchanged
#   errors what every rank finds alike -- a split that does not fit, a --procs that does not
#          match the job, a corrupt or missing --load file -- is one "error:" line and exit 1,
#          before anything is allocated or run
#   procs  the process grid: --procs, else the compiled-in plan's if it makes as many processes
#          as the job, else MPI_Dims_create's with the most processes on the slowest dimension
#          (and the --json summary counts ranks and halo messages)
#   replicated  grids every rank holds whole (coefficients of lower rank read by 3D kernels,
#          gpu/lower_rank3d.stn): loaded (.npy and .h5) on every rank, saved once (the same bytes
#          on 1 and 4 ranks and in the interpreter), restored from a checkpoint on every rank
#   kill   a rank killed with SIGKILL ends the whole 4-rank job within 30 s, with mpirun's message
#   phases the --json summary's "phases": the slowest rank's seconds in each phase of its halo
#          refreshes during the steps (mpi-openmp: exchange; through the host on mpi-cuda and
#          mpi-hip: d2h, exchange, h2d), each more than 0 and at most the steps' time
#   temporal  (mpi-cuda, mpi-hip) the GPU temporal plan across ranks: halos k steps deep
#          exchanged once per block of k fused steps (k-fold fewer messages, overlapped or not);
#          overlap=boundary's exchange of what a sweep wrote, done once (not again by the next),
#          the --json plan, and the plans it refuses with one message
# The cases bytes, replicated and phases also run for mpi-cuda and mpi-hip (TARGET; through the
# CPU execution layer, --cpu-layer): the same bytes as mpi-openmp and the interpreter write.
# Usage: mpi.sh STENCILC SAMPLES_DIR CASE [TARGET]
set -euo pipefail
stencilc=$1
samples=$2
case=$3
target=${4:-mpi-openmp}
build=(--target "$target")
case $target in mpi-cuda | mpi-hip) build+=(--cpu-layer) ;; esac
# shellcheck source=mpi_common.sh
source "$(dirname "$0")/mpi_common.sh"

case $case in
bytes)
  "$stencilc" build "$samples/poisson_rbgs.stn" "${build[@]}" -o "$tmp/rbgs" >/dev/null
  sizes=(--set N=13 --steps 7 --init-random 3)
  # Each run writes the same file names in its own directory (an XDMF file names its HDF5
  # file): 1 to 4 ranks, 13 cells split unevenly (3 ranks split x: rows cut in three).
  runs=(1 2 3x 4)
  for run in "${runs[@]}"; do
    np=${run%x}
    procs=()
    [ "$run" = 3x ] && procs=(--procs 3x1x1)
    mkdir "$tmp/$run"
    "${mpirun[@]}" -np $np "$tmp/rbgs" "${sizes[@]}" "${procs[@]}" --save "u=$tmp/$run/u.npy" \
      --save "r=$tmp/$run/r.npy" --save "b=$tmp/$run/b.h5" >/dev/null
    [ "$run" = 3x ] && continue # series: 1, 2 and 4 ranks
    "${mpirun[@]}" -np $np "$tmp/rbgs" "${sizes[@]}" --save "u=$tmp/$run/s.h5" \
      --save "r=$tmp/$run/s.h5" --save-every 3 >/dev/null
  done
  # The interpreter writes the whole grids with the core's serial writers: the same bytes.
  mkdir "$tmp/interp"
  "$stencilc" run "$samples/poisson_rbgs.stn" "${sizes[@]}" --save "u=$tmp/interp/u.npy" \
    --save "r=$tmp/interp/r.npy" --save "b=$tmp/interp/b.h5" >/dev/null
  for run in interp "${runs[@]:1}"; do
    for f in u.npy r.npy b.h5 b.xmf s.h5 s.xmf; do
      case $run:$f in interp:s.* | 3x:s.*) continue ;; esac # no series there
      cmp "$tmp/1/$f" "$tmp/$run/$f" || fail "$f differs between 1 rank and $run"
    done
  done
  # Loads on 4 ranks (split 2x2x1, uneven) of a .npy and an .h5 written on 1: the run goes on
  # as the interpreter's from the same files, and b (read only) is saved back unchanged.
  load=(--set N=13 --steps 3 --load "u=$tmp/1/u.npy" --load "b=$tmp/1/b.h5")
  "${mpirun[@]}" -np 4 "$tmp/rbgs" "${load[@]}" --procs 2x2x1 --save "u=$tmp/u4.npy" \
    --save "b=$tmp/back.h5" >/dev/null
  "$stencilc" run "$samples/poisson_rbgs.stn" "${load[@]}" --save "u=$tmp/u1.npy" >/dev/null
  cmp "$tmp/u1.npy" "$tmp/u4.npy" || fail "a run from loaded files differs on 4 ranks"
  cmp "$tmp/1/b.h5" "$tmp/back.h5" || fail "load then save on 4 ranks changed the grid"
  echo "same bytes on 1 to 4 ranks and in the interpreter; loads on 4 ranks of files from 1"
  ;;
errors)
  "$stencilc" build "$samples/heat3d.stn" --target mpi-openmp -o "$tmp/heat" >/dev/null
  expect_error "grid 'u' cannot be split over 4 processes in dimension 3 (--procs 1x1x4): it has only 3 cells there" \
    "${mpirun[@]}" -np 4 "$tmp/heat" --set NX=8 --set NY=8 --set NZ=3 --procs 1x1x4
  expect_error "--procs 2x1x1 makes 2 processes, but the job has 4" \
    "${mpirun[@]}" -np 4 "$tmp/heat" --procs 2x1x1
  head -c 100 /dev/urandom >"$tmp/bad.npy"
  expect_error "$tmp/bad.npy: not a .npy file (bad magic; it should start with \\x93NUMPY)" \
    "${mpirun[@]}" -np 4 "$tmp/heat" --set NX=8 --set NY=8 --set NZ=8 --load "u=$tmp/bad.npy"
  expect_error "$tmp/none.npy: cannot open: No such file or directory" \
    "${mpirun[@]}" -np 4 "$tmp/heat" --set NX=8 --set NY=8 --set NZ=8 --load "u=$tmp/none.npy"
  # A .npy of the wrong shape.
  "${mpirun[@]}" -np 1 "$tmp/heat" --set NX=8 --set NY=8 --set NZ=8 --steps 0 --save "u=$tmp/u8.npy" >/dev/null
  expect_error "$(cd "$tmp" && "$tmp/heat" --set NX=9 --set NY=8 --set NZ=8 --load "u=$tmp/u8.npy" 2>&1 | sed -n 's/^error: //p')" \
    "${mpirun[@]}" -np 4 "$tmp/heat" --set NX=9 --set NY=8 --set NZ=8 --load "u=$tmp/u8.npy"
  # A .npy cut short, an HDF5 file of the wrong shape: the message of the interpreter (the
  # core's serial readers), once. (tests/mpi has more bad files.)
  head -c -100 "$tmp/u8.npy" >"$tmp/cut.npy"
  "$stencilc" run "$samples/heat3d.stn" --set NX=8 --set NY=8 --set NZ=8 --steps 0 --save "u=$tmp/u8.h5" >/dev/null
  for f in cut.npy u8.h5; do
    args=(--set NX=9 --set NY=8 --set NZ=8 --load "u=$tmp/$f")
    expect_error "$("$stencilc" run "$samples/heat3d.stn" "${args[@]}" 2>&1 | sed -n 's/^error: //p')" \
      "${mpirun[@]}" -np 4 "$tmp/heat" "${args[@]}"
  done
  # The temporal plan's halos must come from the neighbour blocks' own cells.
  expect_error "--plan scheme=temporal,k=8: temporal blocking does not apply: k=8 needs ghost layers 9 cells deep in dimension 3 (k x 1, the reach of a step, + the 1 of grid 'u'), more than the smallest block has: 4 cells (8 over 2 processes)" \
    "${mpirun[@]}" -np 2 "$tmp/heat" --set NX=8 --set NY=8 --set NZ=8 --plan scheme=temporal,k=8
  # A kernel on a sub-domain of a grid periodic in a split dimension: widening a block across
  # the periodic face would compute with coordinates that do not wrap.
  "$stencilc" build "$samples/../tests/e2e/temporal/mixed3d.stn" --target mpi-openmp -o "$tmp/mixed" >/dev/null
  expect_error "--plan scheme=temporal,k=2: temporal blocking does not apply: dimension 3 is periodic and split over 2 processes, and kernel 'update' runs on a sub-domain: a block widened across the periodic face would see coordinates that do not wrap" \
    "${mpirun[@]}" -np 2 "$tmp/mixed" --procs 1x1x2 --plan scheme=temporal,k=2
  expect_error "--plan scheme=temporal,k=2,overlap=on: mpi-openmp overlaps the exchange with the interior under scheme=naive only (the temporal plan exchanges once per k steps, before its block)" \
    "${mpirun[@]}" -np 2 "$tmp/heat" --set NX=8 --set NY=8 --set NZ=8 --plan scheme=temporal,k=2,overlap=on
  echo "every error: one line, exit 1"
  ;;
procs)
  "$stencilc" build "$samples/heat3d.stn" --target mpi-openmp --plan scheme=naive,procs=4x1x1 \
    -o "$tmp/heat" >/dev/null
  plan() { "${mpirun[@]}" "$@" --set NX=16 --set NY=8 --set NZ=8 --steps 1 --json |
    python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["plan"])'; }
  got=$(plan -np 4 "$tmp/heat")
  [ "$got" = "scheme=naive,procs=4x1x1,overlap=off" ] || fail "4 ranks, compiled-in plan: $got"
  got=$(plan -np 2 "$tmp/heat")
  [ "$got" = "scheme=naive,procs=1x1x2,overlap=off" ] || fail "2 ranks, balanced: $got"
  got=$(plan -np 4 "$tmp/heat" --procs 1x2x2)
  [ "$got" = "scheme=naive,procs=1x2x2,overlap=off" ] || fail "4 ranks, --procs 1x2x2: $got"
  # Halo messages: heat3d exchanges u once a step, one message per neighbour block.
  field() { "${mpirun[@]}" "${@:2}" --set NX=16 --set NY=8 --set NZ=8 --steps 3 --json |
    python3 -c "import json, sys; print(json.loads(sys.stdin.readline())['$1'])"; }
  got=$(field messages -np 2 "$tmp/heat")
  [ "$got" = 3 ] || fail "1x1x2, 3 steps: $got messages, expected 3"
  got=$(field messages -np 4 "$tmp/heat" --procs 1x2x2)
  [ "$got" = 6 ] || fail "1x2x2, 3 steps: $got messages, expected 6"
  got=$(field ranks -np 4 "$tmp/heat")
  [ "$got" = 4 ] || fail "ranks: $got"
  # The temporal plan exchanges halos k steps deep once a block: 12 steps, k = 4: 3 exchanges
  # instead of 12, k-fold fewer messages (heat3d has no reduction, so no step runs unblocked).
  many() { "${mpirun[@]}" "${@:2}" --set NX=16 --set NY=8 --set NZ=24 --steps 12 --json |
    python3 -c "import json, sys; print(json.loads(sys.stdin.readline())['$1'])"; }
  got=$(many messages -np 2 "$tmp/heat")
  [ "$got" = 12 ] || fail "naive, 1x1x2, 12 steps: $got messages, expected 12"
  # overlap=on sends the same messages, non-blocking.
  got=$(many messages -np 4 "$tmp/heat" --procs 1x2x2 --plan scheme=naive,overlap=on)
  [ "$got" = 24 ] || fail "naive, overlap=on, 1x2x2, 12 steps: $got messages, expected 24"
  got=$(many plan -np 2 "$tmp/heat" --plan scheme=naive,overlap=on)
  [ "$got" = "scheme=naive,procs=1x1x2,overlap=on" ] || fail "overlap plan: $got"
  got=$(many messages -np 2 "$tmp/heat" --plan scheme=temporal,k=4)
  [ "$got" = 3 ] || fail "temporal k=4, 1x1x2, 12 steps: $got messages, expected 3"
  got=$(many plan -np 2 "$tmp/heat" --plan scheme=temporal,k=4)
  [ "$got" = "scheme=temporal,k=4,procs=1x1x2,overlap=off" ] || fail "temporal plan: $got"
  got=$(many messages -np 4 "$tmp/heat" --procs 1x2x2 --plan scheme=temporal,k=3)
  [ "$got" = 8 ] || fail "temporal k=3, 1x2x2, 12 steps: $got messages, expected 8"
  # Himeno: only p is exchanged per block (ss, which jacobi reads after storing it, and wrk2, a
  # ping-pong target, are not): 11 blocked steps in blocks of 4, 4 and 3 make 3 exchanges of p,
  # the 12 coefficient grids once (their halos deepened), and the last step, run unblocked for
  # the gosa reduction, 1: 16 messages against naive's 12 in 12 steps (and 38 against 100 in
  # 100 steps).
  "$stencilc" build "$samples/himeno.stn" --target mpi-openmp -o "$tmp/himeno" >/dev/null
  got=$(many messages -np 2 "$tmp/himeno" --plan scheme=naive)
  [ "$got" = 12 ] || fail "himeno naive, 1x1x2, 12 steps: $got messages, expected 12"
  got=$(many messages -np 2 "$tmp/himeno" --plan scheme=temporal,k=4)
  [ "$got" = 16 ] || fail "himeno temporal k=4, 1x1x2, 12 steps: $got messages, expected 16"
  echo "process grids as chosen; halo messages counted, k-fold fewer under the temporal plan"
  ;;
replicated)
  spec=$(dirname "$0")/gpu/lower_rank3d.stn
  "$stencilc" build "$spec" "${build[@]}" -o "$tmp/lr" >/dev/null
  # Coefficients unlike the inits: random values of grids of kz's and sxy's shapes.
  printf 'stencil k;\ngrid double kz[16];\ngrid double sxy[20, 18];\nrun 0 { }\n' >"$tmp/k.stn"
  "$stencilc" run "$tmp/k.stn" --init-random 9 --save "kz=$tmp/kz.npy" --save "sxy=$tmp/sxy.h5" \
    >/dev/null
  args=(--init-random 4 --load "kz=$tmp/kz.npy" --load "sxy=$tmp/sxy.h5")
  mkdir "$tmp/interp" "$tmp/1" "$tmp/4" "$tmp/4y"
  save() { echo --save "u=$1/u.npy" --save "kz=$1/kz.npy" --save "sxy=$1/sxy.h5" --save "cx=$1/cx.npy"; }
  # shellcheck disable=SC2046
  "$stencilc" run "$spec" "${args[@]}" --steps 6 $(save "$tmp/interp") >"$tmp/interp.txt"
  # shellcheck disable=SC2046
  for run in 1 4 4y; do
    procs=()
    [ "$run" = 4y ] && procs=(--procs 1x4x1)
    "${mpirun[@]}" -np "${run%y}" "$tmp/lr" "${args[@]}" "${procs[@]}" --steps 6 \
      $(save "$tmp/$run") >"$tmp/$run.txt"
    for f in u.npy kz.npy sxy.h5 sxy.xmf cx.npy; do
      cmp "$tmp/interp/$f" "$tmp/$run/$f" || fail "$f differs between the interpreter and $run ranks"
    done
  done
  cmp "$tmp/kz.npy" "$tmp/4/kz.npy" || fail "kz loaded then saved on 4 ranks changed"
  # A checkpoint at step 3 on 4 ranks, restarted on 4 without the loads: the coefficients come
  # from the checkpoint on every rank, and the run ends as the uninterrupted one.
  "${mpirun[@]}" -np 4 "$tmp/lr" "${args[@]}" --steps 3 --checkpoint "$tmp/c.ckpt" >/dev/null
  "${mpirun[@]}" -np 4 "$tmp/lr" --init-random 4 --steps 6 --restart "$tmp/c.ckpt" \
    --save "u=$tmp/r.npy" --save "kz=$tmp/rkz.npy" >/dev/null
  cmp "$tmp/interp/u.npy" "$tmp/r.npy" || fail "the restarted run on 4 ranks differs"
  cmp "$tmp/kz.npy" "$tmp/rkz.npy" || fail "kz restored on 4 ranks differs"
  echo "grids held whole by every rank: loaded, saved and restored as on 1 rank"
  ;;
phases)
  "$stencilc" build "$samples/heat3d.stn" "${build[@]}" -o "$tmp/heat" >/dev/null
  want='["exchange"]'
  case $target in mpi-cuda | mpi-hip) want='["d2h", "exchange", "h2d"]' ;; esac
  for overlap in off on; do
    out=$("${mpirun[@]}" -np 2 "$tmp/heat" --set NX=16 --set NY=8 --set NZ=24 --steps 12 \
      --plan scheme=naive,overlap=$overlap --json)
    python3 - "$want" "$out" <<'PY' || fail "overlap=$overlap: $out"
import json, sys
want, j = json.loads(sys.argv[1]), json.loads(sys.argv[2])
phases = j.get("phases", {})
if list(phases) != want:
    sys.exit(f"phases {list(phases)}, expected {want}")
# overlap=on's copies run beside the interior, untimed (only blocking refreshes count, if any);
# the rest took some time, and no phase of the steps can take longer than they did.
for name, s in phases.items():
    untimed = "overlap=on" in j["plan"] and name != "exchange"
    if not ((0 if untimed else 1e-12) <= s <= j["seconds"]):
        sys.exit(f"{name}: {s} s against {j['seconds']} s of steps")
PY
  done
  echo "halo refresh phases: $want, each within the steps' time"
  ;;
temporal)
  # (Built naive: a plan given at run time is read over the compiled-in one.)
  "$stencilc" build "$samples/heat3d.stn" "${build[@]}" --plan scheme=naive -o "$tmp/heat" >/dev/null
  many() { "${mpirun[@]}" "${@:2}" --set NX=16 --set NY=16 --set NZ=24 --steps 12 --json |
    python3 -c "import json, sys; print(json.loads(sys.stdin.readline())['$1'])"; }
  got=$(many messages -np 2 "$tmp/heat" --plan scheme=naive)
  [ "$got" = 12 ] || fail "naive, 1x1x2, 12 steps: $got messages, expected 12"
  # 12 steps: 11 fused in blocks of 4, 4 and 3, each after one exchange of u; v's halo once
  # (its ghost cells are first filled before the first block); the last step unfused, after
  # an exchange of u.
  got=$(many messages -np 2 "$tmp/heat" --plan scheme=temporal,k=4,tile=16x16)
  [ "$got" = 5 ] || fail "temporal k=4, 1x1x2, 12 steps: $got messages, expected 5"
  got=$(many plan -np 2 "$tmp/heat" --plan scheme=temporal,k=4,tile=16x16)
  [ "$got" = "scheme=temporal,k=4,tile=16x16,procs=1x1x2,overlap=off" ] || fail "temporal plan: $got"
  # overlap=on sends the same messages, u's beside the interior region.
  got=$(many messages -np 2 "$tmp/heat" --plan scheme=temporal,k=4,tile=16x16,overlap=on)
  [ "$got" = 5 ] || fail "temporal k=4, overlap=on, 1x1x2, 12 steps: $got messages, expected 5"
  # overlap=boundary: each sweep exchanges what it wrote beside its own interior, so the next
  # sweep finds u current: the first step's refresh, then one after each of the 12 steps (the
  # last one's unused). Were the early exchange lost, every step would refresh again (24).
  got=$(many messages -np 2 "$tmp/heat" --plan scheme=naive,overlap=boundary)
  [ "$got" = 13 ] || fail "naive, overlap=boundary, 1x1x2, 12 steps: $got messages, expected 13"
  got=$(many messages -np 4 "$tmp/heat" --procs 1x2x2 --plan scheme=naive,overlap=boundary)
  [ "$got" = 26 ] || fail "naive, overlap=boundary, 1x2x2, 12 steps: $got messages, expected 26"
  # Under the temporal plan too: the first blocking refresh of u and v's first fill, then one
  # exchange after each block and after the last step, none before them: 6 (9 were the early
  # exchanges lost: every block would refresh u again).
  got=$(many messages -np 2 "$tmp/heat" --plan scheme=temporal,k=4,tile=16x16,overlap=boundary)
  [ "$got" = 6 ] || fail "temporal k=4, overlap=boundary, 1x1x2, 12 steps: $got messages, expected 6"
  # 4 ranks 1x2x2: two neighbours each; blocks of 3, 3, 3 and 2 then the last step.
  got=$(many messages -np 4 "$tmp/heat" --procs 1x2x2 --plan scheme=temporal,k=3,tile=16x16)
  [ "$got" = 12 ] || fail "temporal k=3, 1x2x2, 12 steps: $got messages, expected 12"
  # What the plan refuses, on every rank alike: one message.
  expect_error "--plan scheme=temporal,k=8,tile=32x32: k=8 needs ghost layers 9 cells deep in dimension 3 (k x 1, the reach of a step, + the 1 of grid 'u'), more than the smallest block has: 4 cells (8 over 2 processes)" \
    "${mpirun[@]}" -np 2 "$tmp/heat" --set NX=8 --set NY=8 --set NZ=8 --plan scheme=temporal,k=8,tile=32x32
  expect_error "--plan scheme=temporal,k=4,tile=8x8: a block of tile_x * tile_y threads (1 to 1024) must keep cells after k fused steps: tile_x > 2 * k * 1 and tile_y > 2 * k * 1" \
    "${mpirun[@]}" -np 2 "$tmp/heat" --set NX=8 --set NY=8 --set NZ=8 --plan scheme=temporal,k=4,tile=8x8
  expect_error "--plan scheme=streaming,tile=16x16: scheme streaming is not a plan of the $target target" \
    "${mpirun[@]}" -np 2 "$tmp/heat" --set NX=8 --set NY=8 --set NZ=8 --plan scheme=streaming,tile=16x16
  echo "the temporal plan across ranks: k-fold fewer messages; refused plans: one message"
  ;;
kill)
  "$stencilc" build "$samples/heat3d.stn" --target mpi-openmp -o "$tmp/victim" >/dev/null
  start=$(date +%s)
  rc=0
  "${mpirun[@]}" -np 4 "$tmp/victim" --set NX=32 --set NY=32 --set NZ=32 --steps 1000000000 \
    >"$tmp/out" 2>&1 &
  job=$!
  # Wait for the four ranks, then kill one of them (this test's own executable, by its pid).
  for _ in $(seq 100); do
    [ "$(pgrep -fx "$tmp/victim .*" | wc -l)" -ge 4 ] && break
    sleep 0.2
  done
  victim=$(pgrep -fx "$tmp/victim .*" | head -1)
  [ -n "$victim" ] || fail "no rank started"
  sleep 1
  kill -9 "$victim"
  for _ in $(seq 300); do
    kill -0 "$job" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$job" 2>/dev/null; then
    kill -9 "$job"
    fail "the job still runs 30 s after a rank was killed"
  fi
  wait "$job" || rc=$?
  cat "$tmp/out"
  [ "$rc" -ne 0 ] || fail "the job exited 0 after a rank was killed"
  grep -q 'exited on signal 9' "$tmp/out" || fail "no message naming the killed rank"
  echo "the job ended $(($(date +%s) - start)) s after it started, exit $rc"
  ;;
*)
  fail "unknown case $case"
  ;;
esac
