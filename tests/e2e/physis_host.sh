#!/usr/bin/env bash
# A Physis program built whole by stencilc (its host code kept, rewritten, linked with the
# target's generated code) must behave as the same program written in plain C: the same text
# on stdout and the same files, byte for byte.
# Usage: physis_host.sh STENCILC PROGRAM.c PLAIN.c TARGET [stencilc build flags...]
# An MPI target runs under mpirun with $NP processes (default 1): rank 0 runs the host code.
set -euo pipefail
stencilc=$1 program=$2 plain=$3 target=$4
shift 4
launch=()
case $target in
  mpi-*) launch=(mpirun --allow-run-as-root --oversubscribe -np "${NP:-1}") ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/stencilc" "$work/plain"

"$stencilc" build "$program" --target "$target" --cxxflag=-Werror "$@" -o "$work/prog" >/dev/null
"${CC:-cc}" -std=gnu11 -O2 -ffp-contract=off -Wall -Werror "$plain" -o "$work/plain_prog"

(cd "$work/stencilc" && "${launch[@]}" "$work/prog" >"$work/stencilc.txt")
(cd "$work/plain" && "$work/plain_prog" >"$work/plain.txt")
status=0
if ! diff -u "$work/plain.txt" "$work/stencilc.txt"; then
  echo "FAIL: $program ($target) printed something else than $plain" >&2
  status=1
fi
if ! diff -r "$work/plain" "$work/stencilc"; then
  echo "FAIL: $program ($target) wrote other files than $plain" >&2
  status=1
fi
[ -s "$work/stencilc.txt" ] || { echo "FAIL: $program printed nothing" >&2; status=1; }
[ $status -eq 0 ] && echo "ok: $program ($target${NP:+, $NP processes}) behaves as $plain: $(wc -l <"$work/stencilc.txt") lines, $(ls "$work/stencilc" | wc -l) files"
exit $status
