#!/usr/bin/env bash
# Checks that the C++ compiler's messages point into the .stn for kernel statements and into the
# generated file, at the right line, for everything else (the #line directives of the generated
# code). The spec makes g++ -Wfloat-equal warn about a kernel statement, on the line of the spec
# marked "warns here", and about generated code around the kernels.
#   line_directives.sh STENCILC SPEC.stn
# Paths and names are matched as fixed strings (awk index() and ==, not grep patterns): a
# checkout path may hold '.', '+', '[' or '*'.
set -euo pipefail
stencilc=$1
spec=$2
# The generated files are named after the stencil (`stencil NAME;`), not after the spec's file.
name=$(sed -n 's/^ *stencil  *\([A-Za-z_][A-Za-z0-9_]*\) *;.*/\1/p' "$spec" | head -n 1)
[ -n "$name" ] || { echo "FAIL: no 'stencil NAME;' line in $spec"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$stencilc" build "$spec" --target openmp --keep-sources "$work/src" --cxx g++ \
  --cxxflag=-Wfloat-equal -o "$work/exe" 2>"$work/log" >/dev/null
cat "$work/log"
want=$(grep -n '// warns here$' "$spec" | cut -d: -f1)
[ "$(wc -w <<<"$want")" -eq 1 ] || { echo "the spec must mark one line '// warns here'"; exit 1; }
src="$work/src/$name.cpp"
warnings=$(grep 'warning: comparing floating-point' "$work/log" || true)
status=0
# The number of warnings that begin with the fixed string $1, the rest matching the ERE $2.
count_at() {
  PREFIX=$1 REST=$2 awk 'BEGIN { p = ENVIRON["PREFIX"]; n = 0 }
    index($0, p) == 1 && substr($0, length(p) + 1) ~ ENVIRON["REST"] { n++ }
    END { print n }' <<<"$warnings"
}
# About the kernel statement: FILE.stn:LINE, with the spec's path as given to stencilc.
in_stn=$(count_at "$spec:" '^[0-9]+:[0-9]+: warning')
at_line=$(count_at "$spec:$want:" '^[0-9]+: warning')
if [ "$in_stn" -eq 0 ] || [ "$in_stn" -ne "$at_line" ]; then
  echo "FAIL: expected the kernel statement's warnings at $spec:$want, got $in_stn in the .stn," \
       "$at_line of them on that line"
  status=1
fi
# About generated code: NAME.cpp:LINE must be a line that compares with ==, and some of them
# must come after a kernel statement (after a #line back to the generated file).
first_return=$(FILE="\"$name.cpp\"" awk '{ rest = $0 }
  sub(/^#line [0-9]+ /, "", rest) && rest == ENVIRON["FILE"] { print NR; exit }' "$src")
# The line of each warning whose file is NAME.cpp or ends in /NAME.cpp.
lines=$(FILE="$name.cpp" awk 'BEGIN { f = ENVIRON["FILE"] }
  match($0, /:[0-9]+:[0-9]+: warning/) {
    file = substr($0, 1, RSTART - 1)
    if (file == f || substr(file, length(file) - length(f)) == "/" f) {
      split(substr($0, RSTART + 1), at, ":"); print at[1]
    }
  }' <<<"$warnings")
after=0
for l in $lines; do
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
