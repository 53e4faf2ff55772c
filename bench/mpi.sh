#!/usr/bin/env bash
# The mpi-openmp target on this machine: ranks against threads, and temporal blocking across
# ranks against the naive distributed plan, all in one run (memory bandwidth drifts on shared
# machines, so only ratios within a run mean something).
#
#   bench/mpi.sh [ROUNDS]     (default 3; BUILD_DIR, CXX as in bench/temporal.sh; runs
#                              `stencilc calibrate` first when no calibrated profile exists, or
#                              when STENCILC_BENCH_CALIBRATE=1)
#
# Workloads (sizes as in bench/temporal.sh: stencilc's grids hold the interior only):
#   heat3d fp32  510^3 interior, 100 steps   samples/heat3d.stn
#   himeno M     NX x NY x NZ = 254 x 126 x 126, 100 iterations   samples/himeno.stn
# and, for scale, the hand-written heat3d loop (../shared/bench/heat3d_naive.cpp, 512^3, one
# process of 2 threads) in the same rounds.
#
# Each workload runs two plans: naive (scheme=naive) and the model's choice for 2 ranks
# (`stencilc explain --target mpi-openmp --ranks 2 --json`, .chosen.plan, its process grid
# left to the run), each as 2 ranks x 1 thread (mpirun -np 2, a rank bound to each core) and
# as 1 rank x 2 threads (mpirun -np 1 --bind-to none): the cost of ranks against threads for
# the same plan, and the gain of the model's plan over naive on 2 ranks. The naive plan with
# overlap=on (the exchange in flight while each sweep computes its interior) also runs on 2
# ranks x 1 thread, against naive without it. The halo messages per rank that each run counts
# (--json "messages") are shown beside.
#
# Before timing, the plans are run on a small grid on 1 and 2 ranks and must give the same
# checksums bit for bit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
rounds=${1:-3}
case $rounds in '' | *[!0-9]* | 0) echo "usage: $0 [ROUNDS]  (ROUNDS a positive integer)" >&2; exit 2 ;; esac
build=${BUILD_DIR:-$root/build}
stencilc=$build/bin/stencilc
shared=$root/../shared/bench
cxx=${CXX:-c++}

if [ ! -f "$shared/heat3d_naive.cpp" ]; then
  echo "error: the shared baseline $shared/heat3d_naive.cpp is missing;" \
       "bench/mpi.sh needs ../shared/bench next to the repository" >&2
  exit 1
fi
if [ ! -x "$stencilc" ]; then
  echo "error: stencilc is not built ($stencilc not found): build it first" \
       "(./test.sh, or cmake --build $build)" >&2
  exit 1
fi
for tool in python3 mpirun; do
  command -v $tool >/dev/null || { echo "error: $tool is required (scripts/install-deps.sh)" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/lib.sh"   # field, run_json, fmt, div, explain, record, load
results=$work/results.tsv
: >"$results"

# (BENCH_H3, BENCH_STEPS and BENCH_HIMENO=NXxNYxNZ shrink them for a quick try of the script.)
H3=${BENCH_H3:-512}; H3N=$((H3 - 2)); H3_STEPS=${BENCH_STEPS:-100}
IFS=x read -r HM_NX HM_NY HM_NZ <<<"${BENCH_HIMENO:-254x126x126}"; HM_ITER=${BENCH_STEPS:-100}
sets3() { echo --set NX=$1 --set NY=$2 --set NZ=$3; }

# ---- build ----------------------------------------------------------------------------------
flags=(-O3 -march=native -fopenmp)
flag_args=(--cxxflag=-ffp-contract=fast)
for f in "${flags[@]}"; do flag_args+=(--cxxflag="$f"); done
echo "== build: $cxx ${flags[*]} (stencilc: the same, plus -ffp-contract=fast, Open MPI's wrapper flags)"
"$cxx" "${flags[@]}" "$shared/heat3d_naive.cpp" -o "$work/b_heat3d"
for w in heat3d himeno; do
  "$stencilc" build "$root/samples/$w.stn" --target mpi-openmp --cxx "$cxx" "${flag_args[@]}" \
    -o "$work/s_$w" >/dev/null
done

profile=${XDG_CONFIG_HOME:-$HOME/.config}/stencilc/machine.json
if [ ! -f "$profile" ] || [ "${STENCILC_BENCH_CALIBRATE:-0}" = 1 ]; then
  echo "== calibrating this machine for the model (stencilc calibrate)"
  "$stencilc" calibrate
fi
# The model's plan for 2 ranks, without its process grid (each run has its own rank count).
model_plan() {
  local p
  read -r p _ < <(explain "$@" --target mpi-openmp --ranks 2)
  [ -n "$p" ] || { echo "error: stencilc explain gave no plan for $*" >&2; exit 1; }
  printf '%s\n' "$p" | sed -E 's/(^|,)procs=[0-9x]+//; s/^,//'
}
declare -A plan args
args[heat3d]="$(sets3 $H3N $H3N $H3N) --steps $H3_STEPS"
args[himeno]="$(sets3 $HM_NX $HM_NY $HM_NZ) --steps $HM_ITER"
for w in heat3d himeno; do
  plan[$w]=$(model_plan "$root/samples/$w.stn" ${args[$w]})
done

# mpi_run RANKS THREADS EXE ARGS...: the executable on RANKS processes of THREADS threads each.
# One thread per rank: each rank bound to its own core; one rank of several threads: unbound
# (mpirun binds a single rank to one core, which would put every thread on it).
mpi_run() {
  local ranks=$1 threads=$2
  shift 2
  local bind=(--bind-to core)
  [ "$threads" -gt 1 ] && bind=(--bind-to none)
  env OMP_NUM_THREADS="$threads" mpirun --allow-run-as-root -np "$ranks" "${bind[@]}" "$@"
}

echo "== stencilc mpi-openmp: ranks against threads, the model's plan against naive"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cpus;" \
     "$("$cxx" --version | head -n 1); $(mpirun --version 2>&1 | head -n 1)"
echo "$("$stencilc" --version | head -n 1), repository at" \
     "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
echo "machine profile: $profile"
echo "model's plans for 2 ranks: heat3d ${H3N}^3: ${plan[heat3d]}; himeno ${HM_NX}x${HM_NY}x${HM_NZ}: ${plan[himeno]}"

# ---- check ----------------------------------------------------------------------------------
echo "== check: every plan on 1 and 2 ranks gives the same checksums, bit for bit"
for w in heat3d himeno; do
  ref=""
  for p in scheme=naive "${plan[$w]}" scheme=naive,overlap=on; do
    for ranks in 1 2; do
      out=$(mpi_run "$ranks" 1 "$work/s_$w" $(sets3 46 30 38) --steps 7 --init-random 1 \
              --plan "$p" --json | tail -n 1)
      sums=$(field "$out" checksums)
      [ -n "$ref" ] || ref=$sums
      if [ "$sums" != "$ref" ]; then
        echo "error: check failed: $w, $p, $ranks rank(s): checksums $sums, naive on 1 rank $ref" >&2
        exit 1
      fi
      printf '  %-8s %-40s %d rank(s): %s\n' "$w" "$(field "$out" plan)" "$ranks" "$sums"
    done
  done
done

# ---- rounds ---------------------------------------------------------------------------------
# one WORKLOAD KEY RANKS THREADS PLAN ARGS...: time one configuration, record it, print it.
one() {
  local wl=$1 key=$2 ranks=$3 threads=$4 plan=$5 out
  shift 5
  out=$(run_json "$wl $key" mpi_run "$ranks" "$threads" "$work/s_$wl" "$@" --plan "$plan" --json)
  record "$wl" "$key" "$(field "$out" cells_per_second)"
  record "$wl" "$key.messages" "$(field "$out" messages)"
  record "$wl" "$key.plan" "$(field "$out" plan)"
  printf '    %-14s %s cells/s  %4s messages per rank  %s\n' "$key" \
    "$(fmt "$(field "$out" cells_per_second)")" "$(field "$out" messages)" "$(field "$out" plan)" >&2
  printf '%s\n' "$out"
}
for r in $(seq "$rounds"); do
  echo "  round $r"
  b=$(run_json baseline env OMP_NUM_THREADS=2 "$work/b_heat3d" $H3 $H3 $H3 $H3_STEPS)
  record heat3d handwritten "$(field "$b" cells_per_second)"
  printf '    %-14s %s cells/s  (hand-written loop, 1 process x 2 threads; stream %s GB/s)\n' \
    handwritten "$(fmt "$(field "$b" cells_per_second)")" "$(field "$b" stream_gbs)" >&2
  all=("$b")
  for w in heat3d himeno; do
    echo "   $w"
    init=(); [ $w = heat3d ] && init=(--init-random 1)   # himeno starts from its own values
    all+=("$(one $w naive.2x1 2 1 scheme=naive ${args[$w]} "${init[@]}")")
    all+=("$(one $w naive.1x2 1 2 scheme=naive ${args[$w]} "${init[@]}")")
    all+=("$(one $w model.2x1 2 1 "${plan[$w]}" ${args[$w]} "${init[@]}")")
    all+=("$(one $w model.1x2 1 2 "${plan[$w]}" ${args[$w]} "${init[@]}")")
    all+=("$(one $w overlap.2x1 2 1 scheme=naive,overlap=on ${args[$w]} "${init[@]}")")
  done 2>&1
  load "${all[@]}"
done

# ---- summary --------------------------------------------------------------------------------
echo "== summary: medians over $rounds round(s) (ratios: medians of the per-round ratios)"
python3 - "$results" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    wl, key, value = line.rstrip("\n").split("\t")
    rows.setdefault(wl, {}).setdefault(key, []).append(value)
med = lambda vs: statistics.median(float(v) for v in vs)
ratio = lambda d, a, b: statistics.median(float(x) / float(y) for x, y in zip(d[a], d[b]))
for wl in ("heat3d", "himeno"):
    d = rows[wl]
    print(f"{wl}:")
    for key in ("naive.2x1", "naive.1x2", "model.2x1", "model.1x2", "overlap.2x1"):
        plans = ", ".join(sorted(set(d[key + ".plan"])))
        print(f"  {key:<10} {med(d[key]):.3e} cells/s, {int(med(d[key + '.messages']))} messages per rank  ({plans})")
    print(f"  2 ranks x 1 thread / 1 rank x 2 threads: naive {ratio(d, 'naive.2x1', 'naive.1x2'):.3f},"
          f" model's plan {ratio(d, 'model.2x1', 'model.1x2'):.3f}")
    print(f"  model's plan / naive, 2 ranks: {ratio(d, 'model.2x1', 'naive.2x1'):.3f};"
          f" messages per rank {int(med(d['naive.2x1.messages']))} -> {int(med(d['model.2x1.messages']))}")
    print(f"  naive with overlap=on / without, 2 ranks: {ratio(d, 'overlap.2x1', 'naive.2x1'):.3f}")
h = rows["heat3d"]
print(f"heat3d against the hand-written loop (1 process x 2 threads, {med(h['handwritten']):.3e} cells/s):"
      f" naive 2 ranks {ratio(h, 'naive.2x1', 'handwritten'):.3f}, model's plan 2 ranks"
      f" {ratio(h, 'model.2x1', 'handwritten'):.3f}")
loads = [float(v) for v in rows["load"]["max"]]
bad = sum(v > 0.1 for v in loads)
print(f"other processes: up to {max(loads):.0%} of the CPUs during a run; "
      + (f"{bad} of {len(loads)} round(s) DISTURBED (over 10%): rerun on an idle machine"
         if bad else "no round disturbed (all under 10%)"))
EOF
