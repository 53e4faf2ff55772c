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
# Kernel statements carry #line directives, so GCC would name a loop by its line in the .stn,
# the same line for the naive sweep and the temporal row function of a kernel. The compiler is
# called through a wrapper that first blanks the directives out of the sources (the same code
# on the same lines), so that every report names a line of the generated file.
cat >"$work/cxx" <<'WRAPPER'
#!/usr/bin/env bash
for a in "$@"; do
  case $a in *.cpp) sed -i 's/^#line .*//' "$a" ;; esac
done
exec "$STENCILC_REAL_CXX" "$@"
WRAPPER
chmod +x "$work/cxx"
STENCILC_REAL_CXX=${CXX:-c++} "$stencilc" build "$sample" --target openmp \
  --keep-sources "$work/src" --cxx "$work/cxx" \
  --cxxflag=-fopt-info-vec-optimized -o "$work/exe" 2>"$work/report" >/dev/null
src="$work/src/$name.cpp"
# Line ranges (header to closing brace) of the loops that follow a simd pragma.
ranges=$(awk '
  /#pragma omp (parallel for )?simd/ { want = 1; next }
  want && /for \(/ { start = NR; depth = 0; want = 0; inloop = 1 }
  inloop {
    n = split($0, ch, "")
    for (i = 1; i <= n; ++i) {
      if (ch[i] == "{") depth++
      if (ch[i] == "}") { depth--; if (depth == 0) { print start ":" NR; inloop = 0; break } }
    }
  }' "$src")
[ -n "$ranges" ] || { echo "no simd loops found in $src"; exit 1; }
# GCC names a vectorised loop by its header or by a line of its body.
reported=$(sed -n "s/.*$name\.cpp:\([0-9]*\):[0-9]*: optimized: loop vectorized.*/\1/p" "$work/report")
status=0
for r in $ranges; do
  lo=${r%:*}
  hi=${r#*:}
  found=0
  for l in $reported; do
    if [ "$l" -ge "$lo" ] && [ "$l" -le "$hi" ]; then found=1; fi
  done
  if [ $found = 1 ]; then
    echo "$name.cpp:$lo: vectorized"
  else
    echo "$name.cpp:$lo: NOT vectorized: $(sed -n "${lo}p" "$src")"
    status=1
  fi
done
exit $status
