#!/usr/bin/env bash
# A Physis program built whole by stencilc (its host code kept, rewritten, linked with the
# target's generated code) must behave as the same program written in plain C: the same text
# on stdout and the same files, byte for byte.
# Usage: physis_host.sh STENCILC PROGRAM.c PLAIN.c TARGET [stencilc build flags...]
# An MPI target runs under mpirun with each of the process counts in $NP ("1 4"; default 1),
# one build: rank 0 runs the host code.
set -euo pipefail
stencilc=$1 program=$2 plain=$3 target=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$stencilc" build "$program" --target "$target" --cxxflag=-Werror "$@" -o "$work/prog" >/dev/null
"${CC:-cc}" -std=gnu11 -O2 -ffp-contract=off -Wall -Werror "$plain" -o "$work/plain_prog"
mkdir "$work/plain"
(cd "$work/plain" && "$work/plain_prog" >"$work/plain.txt")

# One run of the build (under mpirun with $1 processes for an MPI target) against the plain one.
compare() {
  local np=$1 launch=() out="$work/stencilc$1"
  case $target in
    mpi-*) launch=(mpirun --allow-run-as-root --oversubscribe -np "$np") ;;
  esac
  mkdir "$out"
  local status=0
  if ! (cd "$out" && "${launch[@]}" "$work/prog" >"$out.txt"); then
    echo "FAIL: $program ($target) exited with an error" >&2
    status=1
  fi
  if ! diff -u "$work/plain.txt" "$out.txt"; then
    echo "FAIL: $program ($target) printed something else than $plain" >&2
    status=1
  fi
  if ! diff -r "$work/plain" "$out"; then
    echo "FAIL: $program ($target) wrote other files than $plain" >&2
    status=1
  fi
  [ -s "$out.txt" ] || { echo "FAIL: $program printed nothing" >&2; status=1; }
  [ $status -eq 0 ] && echo "ok: $program ($target${launch[*]:+, $np processes}) behaves as $plain: $(wc -l <"$out.txt") lines, $(ls "$out" | wc -l) files"
  return $status
}
status=0
for np in ${NP:-1}; do
  compare "$np" || status=1
done
exit $status
