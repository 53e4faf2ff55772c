#!/usr/bin/env bash
# What a page walk costs, run by run: a random walk over MIB of memory (bench/page_walk.cpp), one
# hop per small page, in RUNS fresh processes on huge pages and on small ones. Each process gets
# its own pages. One expects runs alike and huge pages faster; on the AMD EPYC VM
# (PERFORMANCE.md, 2026-12-07 02:35) a few runs walked 2-4 times faster than the rest, on huge
# or small guest pages alike (256 MiB: huge 204 ns in one run of 12, 314-340 in the rest; small
# 87 ns in one run of 8, 282-334 in the rest): which memory the run got, not what it asked for.
# The host's backing of the guest's memory (huge pages or not) is the likely cause; a guest
# cannot see or choose it.
#
#   bench/page_walk.sh [MIB] [RUNS]     (default 256 12; CXX as in bench/run.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cxx=${CXX:-c++}
mib=${1:-256}
runs=${2:-12}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cxx" -O2 "$here/page_walk.cpp" -o "$work/page_walk"
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); THP $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
for pages in huge small; do
  line=""
  for _ in $(seq "$runs"); do line+="$("$work/page_walk" "$mib" "$pages") "; done
  echo "$mib MiB on $pages pages, ns per hop, run by run: $line"
done
