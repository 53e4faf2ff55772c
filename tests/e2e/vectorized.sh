#!/usr/bin/env bash
# Checks that GCC vectorises every innermost (x) loop of the generated openmp code of a sample:
# each loop after an `omp simd` pragma must be reported as "loop vectorized".
#   vectorized.sh STENCILC SAMPLE.stn
set -euo pipefail
stencilc=$1
sample=$2
name=$(basename "$sample" .stn)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$stencilc" build "$sample" --target openmp --keep-sources "$work/src" \
  --cxxflag=-fopt-info-vec-optimized -o "$work/exe" 2>"$work/report" >/dev/null
src="$work/src/$name.cpp"
# Line numbers of the loops that follow a simd pragma.
lines=$(awk '/#pragma omp (parallel for )?simd/ { want = 1; next } want && /for \(/ { print NR; want = 0 }' "$src")
[ -n "$lines" ] || { echo "no simd loops found in $src"; exit 1; }
status=0
for l in $lines; do
  # GCC names the loop by its header or by the first statement of its body.
  if grep -qE "$name.cpp:($l|$((l + 1))):[0-9]+: optimized: loop vectorized" "$work/report"; then
    echo "$name.cpp:$l: vectorized"
  else
    echo "$name.cpp:$l: NOT vectorized: $(sed -n "${l}p" "$src")"
    status=1
  fi
done
exit $status
