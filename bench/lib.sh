# Helpers the benchmark scripts share (bench/temporal.sh, bench/mpi.sh): sourced, not run.
# They need $work (a scratch directory), $stencilc and, for record and load, $results (a file).

# field JSON KEY[.KEY...]: one value from a JSON line.
field() {
  python3 -c '
import json, sys
d = json.loads(sys.argv[1])
for k in sys.argv[2].split("."):
    d = d[k]
print(d)' "$1" "$2"
}
# run_json NAME CMD...: run a benchmark, check it printed a JSON line with cells_per_second,
# and print that line with two fields added: "others", the share of the machine's CPU time
# that other processes used while it ran (busy time in /proc/stat minus this script's own
# children), and "steal", the share the hypervisor gave to other guests. On a 2-core machine a
# concurrent compile makes an OpenMP program wait at every barrier, so rounds with others
# above 0.1 are flagged: their rates say little about the code.
run_json() {
  local name=$1 out stat0 stat1 wall0 wall1 times0 times1
  shift
  stat0=$(head -n 1 /proc/stat); wall0=$(date +%s.%N); times >"$work/times"; times0=$(tail -n 1 "$work/times")
  if ! out=$("$@" 2>"$work/stderr"); then
    echo "error: $name failed: $*" >&2
    cat "$work/stderr" >&2
    exit 1
  fi
  stat1=$(head -n 1 /proc/stat); wall1=$(date +%s.%N); times >"$work/times"; times1=$(tail -n 1 "$work/times")
  out=$(printf '%s\n' "$out" | tail -n 1)
  if ! python3 - "$out" "$stat0" "$stat1" "$wall0" "$wall1" "$times0" "$times1" "$(nproc)" \
       "$(getconf CLK_TCK)" <<'PY'
import json, math, re, sys
out, st0, st1, w0, w1, tm0, tm1, ncpu, hz = sys.argv[1:]
d = json.loads(out)
v = d["cells_per_second"]
if not (isinstance(v, (int, float)) and v > 0 and math.isfinite(v)):
    sys.exit(1)
def stat(line):  # busy and steal jiffies: user nice system idle iowait irq softirq steal
    f = [int(x) for x in line.split()[1:9]]
    return f[0] + f[1] + f[2] + f[5] + f[6], f[7]
def children(line):  # bash `times`, second line: children's user and system time
    return sum(int(m) * 60 + float(s) for m, s in re.findall(r"(\d+)m([\d.]+)s", line))
(b0, s0), (b1, s1) = stat(st0), stat(st1)
cap = (float(w1) - float(w0)) * int(ncpu)
mine = children(tm1) - children(tm0)
d["others"] = round(max(0.0, ((b1 - b0) / int(hz) - mine) / cap), 3)
d["steal"] = round(max(0.0, (s1 - s0) / int(hz) / cap), 3)
print(json.dumps(d))
PY
  then
    echo "error: $name printed no valid cells_per_second: $out" >&2
    exit 1
  fi
}
fmt() { python3 -c 'import sys; print(f"{float(sys.argv[1]):.3e}")' "$1"; }
div() { python3 -c 'import sys; print(f"{float(sys.argv[1]) / float(sys.argv[2]):.3f}")' "$1" "$2"; }
# explain SPEC --set ...: the model's chosen plan and its predicted cells/s ("PLAN PRED").
# (On stdin: with every candidate listed the JSON can pass the 128 KiB an argument may hold.)
explain() {
  "$stencilc" explain "$@" --json | python3 -c '
import json, sys
c = json.loads(sys.stdin.read().strip().splitlines()[-1])["chosen"]
print(c["plan"], "%.3e" % c["cells_per_second"])'
}
# record WORKLOAD KEY VALUE: one result, for the summary.
record() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$results"; }   # workload key value
# load JSON...: one line on the CPU time other processes took during these runs (the largest
# share of any run), recorded for the summary.
load() {
  local line
  line=$(python3 -c '
import json, sys
ds = [json.loads(a) for a in sys.argv[1:]]
o, s = max(d["others"] for d in ds), max(d["steal"] for d in ds)
flag = "  <-- DISTURBED: the rates of this round are not reliable" if o > 0.1 or s > 0.1 else ""
print(f"{max(o, s)}\t           other processes used up to {o:.0%} of the CPUs during a run of this round (steal {s:.0%}){flag}")' "$@")
  record load max "${line%%$'\t'*}"
  printf '%s\n' "${line#*$'\t'}"
}

