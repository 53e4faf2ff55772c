#!/usr/bin/env bash
# Runs the libFuzzer target for a while, seeded with every .stn file of the samples and the
# lit tests, and fails on any crash, sanitizer report, leak, timeout or out-of-memory.
#   tests/fuzz/run.sh FUZZER SECONDS WORK_DIR [extra libFuzzer flags...]
# WORK_DIR (created; its corpus is rebuilt from the seeds on each run) receives the corpus,
# the log and any crash-*, leak-*, timeout-* or oom-* reproducer. Nothing is written to the
# source tree. The ctest test fuzz.check.60s runs it for 60 seconds.
# The random seed is fixed rather than drawn by libFuzzer: -seed=$STENCILC_FUZZ_SEED, 1 when
# unset (0 lets libFuzzer draw one; a -seed=N among the extra flags wins). It is printed first,
# and libFuzzer logs it ("INFO: Seed: N"). The seed fixes the corpus order and the mutations;
# which mutants are kept also depends on the coverage they reach, and that of this target
# varies a little between processes (two runs with seed 1: 6105 and 6112 edges once the seeds
# were loaded), so two runs share their first inputs and then drift apart, and how far a run
# gets in SECONDS depends on the machine. A crash is replayed from its reproducer (below).
set -euo pipefail

if [ $# -lt 3 ]; then
  echo "usage: $0 FUZZER SECONDS WORK_DIR [libFuzzer flags...]" >&2
  exit 2
fi
fuzzer=$1
seconds=$2
work=$3
shift 3
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seed=${STENCILC_FUZZ_SEED:-1}
if ! [[ "$seed" =~ ^[0-9]+$ ]]; then
  echo "run.sh: error: STENCILC_FUZZ_SEED must be a non-negative integer, not '$seed'" >&2
  exit 2
fi

if [ ! -x "$fuzzer" ]; then
  echo "run.sh: error: no fuzzer at $fuzzer (build the main project first)" >&2
  exit 1
fi

mkdir -p "$work"
work=$(cd "$work" && pwd)
rm -rf "$work/corpus"
mkdir -p "$work/corpus" "$work/artifacts"

# Seeds: the samples and every lit test (names made unique by their path).
n=0
while IFS= read -r -d '' f; do
  rel=${f#"$root"/}
  cp "$f" "$work/corpus/${rel//\//__}"
  n=$((n + 1))
done < <(find "$root/samples" "$root/tests/lit" -name '*.stn' -type f -print0)
echo "run.sh: libFuzzer -seed=$seed (STENCILC_FUZZ_SEED); $n seed files; fuzzing for" \
     "${seconds}s; log and reproducers in $work"

# UBSan is built with -fno-sanitize-recover (it aborts), but say where it happened.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

log=$work/fuzz.log
status=0
"$fuzzer" \
  -max_total_time="$seconds" \
  -timeout=10 \
  -rss_limit_mb=2048 \
  -dict="$root/tests/fuzz/stn.dict" \
  -artifact_prefix="$work/artifacts/" \
  -print_final_stats=1 \
  -seed="$seed" \
  "$@" \
  "$work/corpus" >"$log" 2>&1 || status=$?

if [ "$status" -eq 0 ]; then
  # The seed, and the last status line: "#EXECUTIONS ... cov: ... exec/s ...".
  grep -E '^INFO: Seed' "$log" || true
  grep -E '^#[0-9]+' "$log" | tail -n 1 || true
  echo "run.sh: no crash"
  exit 0
fi

echo "run.sh: the fuzzer failed (exit $status, -seed=$seed: rerun with STENCILC_FUZZ_SEED=$seed);" \
     "the end of its log ($log):"
tail -n 120 "$log"
# The newest reproducer, if one was written; small ones also in base64 (survives a log).
repro=$(ls -t "$work"/artifacts/{crash,leak,timeout,oom,slow-unit}-* 2>/dev/null | head -n 1 || true)
if [ -n "$repro" ]; then
  size=$(wc -c <"$repro")
  echo "run.sh: reproducer $repro ($size bytes)"
  if [ "$size" -le 4096 ]; then
    echo "run.sh: base64 of the reproducer (decode with base64 -d):"
    base64 "$repro"
  fi
  echo "run.sh: replay with: $fuzzer $repro"
fi
exit 1
