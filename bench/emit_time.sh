#!/usr/bin/env bash
# How long `stencilc emit` takes: each sample (samples/*.stn, tests/e2e/temporal/*.stn) emitted
# RUNS times with the plan the model chooses for the built-in default machine profile (an empty
# XDG_CONFIG_HOME hides a calibrated one), printing the median wall time per sample in ms, and
# the slowest. The goal is under 100 ms for every sample; most of it is libFormat
# (compiler/codegen/format.cpp), so `--no-format` times are printed beside for comparison.
#
#   bench/emit_time.sh [RUNS] [STENCILC...]   (RUNS default 5; STENCILC default
#                                              $BUILD_DIR/bin/stencilc, BUILD_DIR default build;
#                                              several binaries are timed in turn, sample by
#                                              sample, e.g. to compare a change with main)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
runs=${1:-5}
case $runs in '' | *[!0-9]* | 0) echo "usage: $0 [RUNS] [STENCILC...]" >&2; exit 2 ;; esac
shift || true
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=("$root/${BUILD_DIR:-build}/bin/stencilc")
for b in "${bins[@]}"; do
  [ -x "$b" ] || { echo "no stencilc at $b (build first, or pass its path)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/config"
export XDG_CONFIG_HOME=$work/config

# The median wall time in ms of RUNS runs of the command.
median_ms() {
  local times=() s e
  for _ in $(seq "$runs"); do
    s=$(date +%s%N)
    "$@" > /dev/null
    e=$(date +%s%N)
    times+=($(((e - s) / 1000000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}

printf '%-18s' sample
for i in "${!bins[@]}"; do printf '  %8s %10s' "ms[$i]" "no-fmt[$i]"; done
echo
declare -A worst
cd "$root"
for spec in samples/*.stn tests/e2e/temporal/*.stn; do
  printf '%-18s' "$(basename "$spec" .stn)"
  for i in "${!bins[@]}"; do
    t=$(median_ms "${bins[$i]}" emit "$spec" -o "$work/out")
    n=$(median_ms "${bins[$i]}" emit "$spec" --no-format -o "$work/out")
    printf '  %8s %10s' "$t" "$n"
    [ "${worst[$i]:-0}" -ge "$t" ] || worst[$i]=$t
  done
  echo
done
for i in "${!bins[@]}"; do echo "slowest [$i] ${bins[$i]}: ${worst[$i]} ms"; done
