#!/usr/bin/env bash
# Checks that the C++ compiler's messages point into the .stn for kernel statements and into the
# generated file, at the right line, for everything else (the #line directives of the generated
# code). The spec makes g++ -Wfloat-equal warn about a kernel statement, on the line of the spec
# marked "warns here", and about generated code around the kernels.
#   line_directives.sh STENCILC SPEC.stn
set -euo pipefail
stencilc=$1
spec=$2
name=$(basename "$spec" .stn)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$stencilc" build "$spec" --target openmp --keep-sources "$work/src" --cxx g++ \
  --cxxflag=-Wfloat-equal -o "$work/exe" 2>"$work/log" >/dev/null
cat "$work/log"
want=$(grep -n '// warns here$' "$spec" | cut -d: -f1)
[ "$(wc -w <<<"$want")" -eq 1 ] || { echo "the spec must mark one line '// warns here'"; exit 1; }
src="$work/src/$name.cpp"
warnings=$(grep 'warning: comparing floating-point' "$work/log")
status=0
# About the kernel statement: FILE.stn:LINE, with the spec's path as given to stencilc.
in_stn=$(grep -c "^$spec:[0-9]*:[0-9]*: warning" <<<"$warnings" || true)
at_line=$(grep -c "^$spec:$want:[0-9]*: warning" <<<"$warnings" || true)
if [ "$in_stn" -eq 0 ] || [ "$in_stn" -ne "$at_line" ]; then
  echo "FAIL: expected the kernel statement's warnings at $spec:$want, got $in_stn in the .stn," \
       "$at_line of them on that line"
  status=1
fi
# About generated code: NAME.cpp:LINE must be a line that compares with ==, and some of them
# must come after a kernel statement (after a #line back to the generated file).
first_return=$(grep -n "^#line [0-9]* \"$name.cpp\"" "$src" | head -1 | cut -d: -f1)
after=0
for l in $(sed -n "s/^\(.*\/\)\{0,1\}$name\.cpp:\([0-9]*\):[0-9]*: warning.*/\2/p" <<<"$warnings"); do
  if ! sed -n "${l}p" "$src" | grep -q '=='; then
    echo "FAIL: $name.cpp:$l is not the comparison: $(sed -n "${l}p" "$src")"
    status=1
  fi
  if [ -n "$first_return" ] && [ "$l" -gt "$first_return" ]; then after=$((after + 1)); fi
done
if [ "$after" -eq 0 ]; then
  echo "FAIL: no warning about generated code after a kernel statement"
  status=1
fi
[ $status -eq 0 ] && echo "ok: $in_stn warning(s) at $spec:$want, $after in $name.cpp after kernel code"
exit $status
