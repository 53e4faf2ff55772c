#!/usr/bin/env bash
# heat3d: the executable stencilc generates against the hand-written loop in
# ../shared/bench/heat3d_naive.cpp, built with the same compiler and flags, run alternately
# in one invocation. Prints each pair and the ratio of cell-updates per second.
#
#   bench/run.sh [SIZE] [STEPS] [ROUNDS]      (defaults: 512 20 3; OMP_NUM_THREADS defaults to 2)
#
# Sizes: the baseline's SIZE^3 array includes its fixed boundary faces; stencilc's grids hold
# the interior and keep the faces in ghost cells, so stencilc runs with (SIZE-2)^3 interior
# cells: the same problem and the same memory footprint.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
size=${1:-512}
steps=${2:-20}
rounds=${3:-3}
build=${BUILD_DIR:-$root/build}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
baseline_src=${BASELINE:-$root/../shared/bench/heat3d_naive.cpp}
[ -f "$baseline_src" ] || { echo "error: baseline $baseline_src not found" >&2; exit 1; }
[ -x "$build/bin/stencilc" ] || { echo "error: build stencilc first ($build/bin/stencilc)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-O3 -march=native -fopenmp)
cxx=${CXX:-c++}
"$cxx" "${flags[@]}" "$baseline_src" -o "$work/baseline"
# stencilc compiles without FMA contraction by default (results equal the interpreter's);
# give it the baseline's default back so both are built with exactly the same flags.
flag_args=(--cxxflag=-ffp-contract=fast)
for f in "${flags[@]}"; do flag_args+=(--cxxflag="$f"); done
"$build/bin/stencilc" build "$root/samples/heat3d.stn" --target openmp --cxx "$cxx" \
  "${flag_args[@]}" -o "$work/heat3d" >/dev/null

n=$((size - 2))
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }
ratios=()
echo "heat3d fp32, ${size}^3 storage, $steps steps, $OMP_NUM_THREADS threads, $rounds rounds"
for r in $(seq "$rounds"); do
  b=$("$work/baseline" "$size" "$size" "$size" "$steps")
  s=$("$work/heat3d" --set NX=$n --set NY=$n --set NZ=$n --steps "$steps" --init-random 1 --json)
  bc=$(field "$b" cells_per_second)
  sc=$(field "$s" cells_per_second)
  bw=$(field "$b" bandwidth_bound_cells_per_second)
  gbs=$(field "$b" stream_gbs)
  ratio=$(python3 -c "print(f'{$sc/$bc:.3f}')")
  ratios+=("$ratio")
  printf "round %d: baseline %.3e cells/s, stencilc %.3e cells/s, ratio %s; stream %s GB/s, stencilc at %.2f of the bandwidth bound\n" \
    "$r" "$bc" "$sc" "$ratio" "$gbs" "$(python3 -c "print($sc/$bw)")"
done
median=$(printf "%s\n" "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
echo "stencilc / hand-written: median ratio $median over $rounds rounds"
