#!/usr/bin/env bash
# The rate of one temporal-plan stage (heat3d's row function) by where its planes live: L2, L3
# or memory, on one core or several at once (bench/row_cache.cpp). The CPU temporal plan's
# rings are such planes, so this is the ceiling of a stage for the ring size a plan gives
# (docs/PERFORMANCE.md).
#
#   bench/row_cache.sh [ROWS...]     (rows per plane; default 8 16 32 64 96 128 192 256 512 1024;
#                                     CXX as in bench/run.sh; THREADS=2 runs a copy on each of 2
#                                     threads at once and prints their rate together)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cxx=${CXX:-c++}
threads=${THREADS:-1}
[[ $threads =~ ^[1-9][0-9]*$ ]] || { echo "error: THREADS=$threads is not a positive number" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-O3 -march=native -fopenmp -ffp-contract=off)
"$cxx" "${flags[@]}" "$here/row_cache.cpp" -o "$work/row_cache"
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); $("$cxx" --version | head -n 1); ${flags[*]}"
echo "   $threads thread(s), each its own 4 planes of ROWS rows of 510 cells (fp32, 528-cell pitch): 3 read, 1 written; cells/s of all threads together"
OMP_NUM_THREADS=$threads "$work/row_cache" "$@"
