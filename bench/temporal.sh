#!/usr/bin/env bash
# Temporal blocking against hand-written OpenMP loops: for each workload the executable stencilc
# generates, running the plan its performance model chooses for the benchmark size, and the
# loop a competent user writes by hand, built with the same compiler and flags and run
# alternately in one invocation (memory bandwidth drifts a lot on shared machines, so only
# ratios within a run mean something).
#
#   bench/temporal.sh [ROUNDS]     (default 3; OMP_NUM_THREADS defaults to 2; BUILD_DIR, CXX as
#                                   in bench/run.sh; runs `stencilc calibrate` first when no
#                                   calibrated profile exists, or when STENCILC_BENCH_CALIBRATE=1;
#                                   ROOFLINE_JSON=FILE also writes the medians and the machine's
#                                   roofs for `scripts/plot.py roofline FILE -o OUT.png`)
#
# Workloads (baseline sizes include the fixed boundary faces; stencilc's grids hold only the
# interior and keep the faces in ghost cells, so stencilc runs SIZE-2 per dimension: the same
# problem and the same memory layout, see bench/run.sh):
#   heat3d fp32  512^3, 100 steps   ../shared/bench/heat3d_naive.cpp vs samples/heat3d.stn
#                                   (also stencilc's naive plan, --plan scheme=naive, in the
#                                   same rounds: the gain of temporal blocking itself)
#   heat3d fp64  512^3, 100 steps   bench/baselines/heat3d_f64.cpp vs bench/heat3d_f64.stn
#   heat2d fp32  8192^2, 40 steps   bench/baselines/heat2d.cpp vs samples/heat2d.stn
#   himeno M     128x128x256 points (imax x jmax x kmax, boundary planes included), i.e.
#                NX x NY x NZ = 254 x 126 x 126, 100 iterations
#                                   bench/baselines/himeno.cpp vs samples/himeno.stn
#   ceiling      the hand-written heat3d loop on 128x128x64 (2000 steps), whose two grids
#                (8 MiB) stay in cache: the compute ceiling of this loop; stencilc's heat3d
#                512^3 fp32 rate is reported as a fraction of it (and stencilc's own in-cache
#                rate, with the model's plan for that size, is shown too)
#
# The plan: `stencilc explain SPEC --set <bench size> --steps <bench steps> --json` gives the model's choice
# (.chosen.plan), passed to the executable with --plan (an executable built by `stencilc build`
# has the choice for the program's default sizes compiled in). Each round prints the plan the
# executable reports it ran.
#
# Before timing anything, a check runs every baseline and every stencilc plan used on the same
# input (small grids loaded from .npy for the heat workloads, the benchmark's own initial
# values at size M for himeno) and stops unless the checksums (and gosa) agree.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
rounds=${1:-3}
case $rounds in '' | *[!0-9]* | 0) echo "usage: $0 [ROUNDS]  (ROUNDS a positive integer)" >&2; exit 2 ;; esac
build=${BUILD_DIR:-$root/build}
stencilc=$build/bin/stencilc
shared=$root/../shared/bench
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
cxx=${CXX:-c++}

if [ ! -d "$shared" ] || [ ! -f "$shared/heat3d_naive.cpp" ]; then
  echo "error: the shared baseline directory $shared (with heat3d_naive.cpp) is missing;" \
       "bench/temporal.sh needs ../shared/bench next to the repository" >&2
  exit 1
fi
if [ ! -x "$stencilc" ]; then
  echo "error: stencilc is not built ($stencilc not found): build it first" \
       "(./test.sh, or cmake --build $build)" >&2
  exit 1
fi
command -v python3 >/dev/null || { echo "error: python3 is required" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ---- sizes ----------------------------------------------------------------------------------
H3=512; H3_STEPS=100; H3N=$((H3 - 2))
H2=8192; H2_STEPS=40; H2N=$((H2 - 2))
HM_I=128; HM_J=128; HM_K=256; HM_ITER=100            # himeno M: imax jmax kmax
HM_NX=$((HM_K - 2)); HM_NY=$((HM_J - 2)); HM_NZ=$((HM_I - 2))
IC_X=128; IC_Y=128; IC_Z=64; IC_STEPS=2000            # the in-cache ceiling

# ---- build ----------------------------------------------------------------------------------
flags=(-O3 -march=native -fopenmp)
# stencilc compiles without FMA contraction by default (results equal the interpreter's); give
# it the baselines' default back so both sides are built with exactly the same flags.
flag_args=(--cxxflag=-ffp-contract=fast)
for f in "${flags[@]}"; do flag_args+=(--cxxflag="$f"); done

echo "== build: $cxx ${flags[*]} (stencilc: the same, plus -ffp-contract=fast)"
"$cxx" "${flags[@]}" "$shared/heat3d_naive.cpp" -o "$work/b_heat3d"
"$cxx" "${flags[@]}" "$here/baselines/heat3d_f64.cpp" -o "$work/b_heat3d_f64"
"$cxx" "${flags[@]}" "$here/baselines/heat2d.cpp" -o "$work/b_heat2d"
"$cxx" "${flags[@]}" "$here/baselines/himeno.cpp" -o "$work/b_himeno"
spec_heat3d=$root/samples/heat3d.stn
spec_heat3d_f64=$here/heat3d_f64.stn
spec_heat2d=$root/samples/heat2d.stn
spec_himeno=$root/samples/himeno.stn
for w in heat3d heat3d_f64 heat2d himeno; do
  spec_var=spec_$w
  "$stencilc" build "${!spec_var}" --target openmp --cxx "$cxx" "${flag_args[@]}" \
    -o "$work/s_$w" >/dev/null
done

# ---- helpers ----------------------------------------------------------------------------------
# field, run_json, fmt, div, explain, record, load
source "$here/lib.sh"
results=$work/results.tsv
: >"$results"

# ---- the model's plans ----------------------------------------------------------------------
# The model chooses for the machine `stencilc calibrate` measured; measure it first if nobody has
# (STENCILC_BENCH_CALIBRATE=1 measures it again).
profile=${XDG_CONFIG_HOME:-$HOME/.config}/stencilc/machine.json
if [ ! -f "$profile" ] || [ "${STENCILC_BENCH_CALIBRATE:-0}" = 1 ]; then
  echo "== calibrating this machine for the model (stencilc calibrate)"
  "$stencilc" calibrate
fi
sets3() { echo --set NX=$1 --set NY=$2 --set NZ=$3; }
# (--steps: the model shares a run's steps out over its blocks, so the step count matters.)
read -r plan_h3 pred_h3 < <(explain "$spec_heat3d" $(sets3 $H3N $H3N $H3N) --steps $H3_STEPS)
read -r plan_h3d pred_h3d < <(explain "$spec_heat3d_f64" $(sets3 $H3N $H3N $H3N) --steps $H3_STEPS)
read -r plan_h2 pred_h2 < <(explain "$spec_heat2d" --set NX=$H2N --set NY=$H2N --steps $H2_STEPS)
read -r plan_hm pred_hm < <(explain "$spec_himeno" $(sets3 $HM_NX $HM_NY $HM_NZ) --steps $HM_ITER)
read -r plan_ic pred_ic < <(explain "$spec_heat3d" $(sets3 $((IC_X - 2)) $((IC_Y - 2)) $((IC_Z - 2))) \
                                    --steps $IC_STEPS)
# The roofline bounds of each workload on the calibrated profile (explain --json .roofline:
# cells/s at the vector peak and streaming from memory, L3, L2), recorded for the summary.
roofline() {
  local wl=$1
  shift
  # The JSON on stdin (explain() in lib.sh says why).
  "$stencilc" explain "$@" --json | python3 -c '
import json, sys
d = json.loads(sys.stdin.read().strip().splitlines()[-1])
r = d.get("roofline", {})
bounds = {k: r[k]["cells_per_second"] if k in r else 0 for k in ("memory", "L3", "L2")}
bounds["peak"] = r.get("peak_flops", 0) / d["flops_per_cell"]
for k, v in bounds.items():
    print(f"{sys.argv[1]}\troof.{k}\t{v}")
# For the roofline picture (ROOFLINE_JSON): the naive intensity and the machine roofs.
wl, fpc, bpc, peak = sys.argv[1], d["flops_per_cell"], d["bytes_per_cell"], r.get("peak_flops", 0)
print(f"{wl}\tflops_per_cell\t{fpc}")
print(f"{wl}\tbytes_per_cell\t{bpc}")
print(f"machine\tpeak_flops\t{peak}")
for k in ("L1", "L2", "L3", "memory"):
    if k in r:
        bw = r[k]["bandwidth"]
        print(f"machine\tbw.{k}\t{bw}")' "$wl" >>"$results"
}
roofline heat3d_f32 "$spec_heat3d" $(sets3 $H3N $H3N $H3N)
roofline heat3d_f32_naive "$spec_heat3d" $(sets3 $H3N $H3N $H3N)
roofline heat3d_f64 "$spec_heat3d_f64" $(sets3 $H3N $H3N $H3N)
roofline heat2d "$spec_heat2d" --set NX=$H2N --set NY=$H2N
roofline himeno "$spec_himeno" $(sets3 $HM_NX $HM_NY $HM_NZ)
for v in plan_h3 plan_h3d plan_h2 plan_hm plan_ic; do
  [ -n "${!v}" ] || { echo "error: stencilc explain gave no plan ($v)" >&2; exit 1; }
done

echo "== stencilc temporal blocking vs hand-written OpenMP loops"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cpus," \
     "OMP_NUM_THREADS=$OMP_NUM_THREADS; $("$cxx" --version | head -n 1)"
echo "$("$stencilc" --version | head -n 1), repository at" \
     "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
echo "machine profile: $(PROFILE="$profile" python3 -c 'import json, os, sys
p = os.environ["PROFILE"]
try:
    m = json.load(open(p))
    print("%s: %.2f GB/s, %.1f Gflop/s in L2 (%.2f MiB), %.1f Gflop/s with the planes in L3 (%.0f MiB)"
          % (p, m["bandwidth"] / 1e9, m["flops"] / 1e9, m["cache_bytes"] / 2**20,
             m.get("shared_cache_flops", 0) / 1e9, m.get("shared_cache_bytes", 0) / 2**20))
except OSError:
    print("none (stencilc calibrate not run): generic-cpu")')"
echo "model's plans (stencilc explain --set <size> --json, .chosen.plan; predicted cells/s):"
printf '  %-34s %-32s %s\n' "heat3d fp32 ${H3N}^3" "$plan_h3" "$pred_h3" \
  "heat3d fp64 ${H3N}^3" "$plan_h3d" "$pred_h3d" \
  "heat2d fp32 ${H2N}^2" "$plan_h2" "$pred_h2" \
  "himeno ${HM_NX}x${HM_NY}x${HM_NZ}" "$plan_hm" "$pred_hm" \
  "heat3d fp32 $((IC_X - 2))x$((IC_Y - 2))x$((IC_Z - 2)) (in cache)" "$plan_ic" "$pred_ic"

# ---- check: the same input gives the same result --------------------------------------------
# write_pattern FILE DTYPE NX NY [NZ]: the baselines' initial interior (1 + (7x + 13y [+ 29z]
# mod 97) / 97 at storage index x = interior index + 1, rounded as the baselines do) as .npy.
write_pattern() {
  python3 - "$@" <<'EOF'
import array, itertools, sys
path, dtype, dims = sys.argv[1], sys.argv[2], [int(v) for v in sys.argv[3:]]
code = "f" if dtype == "<f4" else "d"
coef = [7, 13, 29][: len(dims)]
shape = tuple(reversed(dims))           # C order, indexed [z, y, x]
vals = array.array(code)
for rev in itertools.product(*[range(n) for n in shape]):   # z slowest, x fastest
    idx = reversed(rev)                                      # (x, y[, z])
    m = sum(c * (i + 1) for c, i in zip(coef, idx)) % 97
    q = array.array(code, [m / 97.0])[0]                     # m / 97 in the element type
    vals.append(1.0 + q)                                     # rounded again on append
header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
    dtype, ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else ""))
pad = 64 - (10 + len(header) + 1) % 64
header = header + " " * (pad % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin1"))
    f.write(vals.tobytes())
EOF
}
# agree NAME A B TOL: stop unless |A - B| <= TOL |B|.
agree() {
  if python3 -c 'import sys; a, b, t = map(float, sys.argv[1:]); sys.exit(0 if abs(a - b) <= t * abs(b) else 1)' "$2" "$3" "$4"; then
    printf '  %-58s %s\n' "$1" "$(python3 -c 'import sys; a, b = map(float, sys.argv[1:]); print(f"{a:.10g} vs {b:.10g} (relative difference {abs(a - b) / abs(b):.1e})")' "$2" "$3")"
  else
    echo "error: check failed: $1: stencilc $2, hand-written $3 (tolerance $4 relative)" >&2
    exit 1
  fi
}
echo "== check: stencilc and the hand-written loops agree on the same input"
cs=7   # steps of the heat checks (not a multiple of the plans' k)
write_pattern "$work/h3.npy" '<f4' 38 34 30
write_pattern "$work/h3d.npy" '<f8' 38 34 30
write_pattern "$work/h2.npy" '<f4' 126 98
b=$(run_json baseline "$work/b_heat3d" 40 36 32 $cs)
for p in "$plan_h3" scheme=naive; do
  s=$(run_json stencilc "$work/s_heat3d" $(sets3 38 34 30) --steps $cs --load u="$work/h3.npy" --plan "$p" --json)
  agree "heat3d fp32 38x34x30, $cs steps, $(field "$s" plan)" "$(field "$s" checksums.u)" "$(field "$b" checksum)" 1e-5
done
b=$(run_json baseline "$work/b_heat3d_f64" 40 36 32 $cs)
s=$(run_json stencilc "$work/s_heat3d_f64" $(sets3 38 34 30) --steps $cs --load u="$work/h3d.npy" --plan "$plan_h3d" --json)
agree "heat3d fp64 38x34x30, $cs steps, $(field "$s" plan)" "$(field "$s" checksums.u)" "$(field "$b" checksum)" 1e-12
b=$(run_json baseline "$work/b_heat2d" 128 100 $cs)
s=$(run_json stencilc "$work/s_heat2d" --set NX=126 --set NY=98 --steps $cs --load u="$work/h2.npy" --plan "$plan_h2" --json)
agree "heat2d fp32 126x98, $cs steps, $(field "$s" plan)" "$(field "$s" checksums.u)" "$(field "$b" checksum)" 1e-5
b=$(run_json baseline "$work/b_himeno" $HM_I $HM_J $HM_K 5)
s=$(run_json stencilc "$work/s_himeno" $(sets3 $HM_NX $HM_NY $HM_NZ) --steps 5 --plan "$plan_hm" --json)
agree "himeno M, 5 iterations, $(field "$s" plan): gosa" "$(field "$s" reductions.gosa)" "$(field "$b" gosa)" 1e-5
agree "himeno M, 5 iterations, $(field "$s" plan): checksum p" "$(field "$s" checksums.p)" "$(field "$b" checksum)" 1e-5

# ---- rounds ---------------------------------------------------------------------------------
# pair WORKLOAD ROUND BASELINE_JSON STENCILC_JSON: print and record one comparison.
pair() {
  local wl=$1 r=$2 b=$3 s=$4 bc sc ratio
  bc=$(field "$b" cells_per_second)
  sc=$(field "$s" cells_per_second)
  ratio=$(div "$sc" "$bc")
  record "$wl" baseline "$bc"
  record "$wl" stencilc "$sc"
  record "$wl" ratio "$ratio"
  record "$wl" plan "$(field "$s" plan)"
  record "$wl" stream "$(field "$b" stream_gbs)"
  printf '  round %d: hand-written %s cells/s, stencilc %s cells/s (plan %s), ratio %s;' \
    "$r" "$(fmt "$bc")" "$(fmt "$sc")" "$(field "$s" plan)" "$ratio"
  printf ' stream %s GB/s, stencilc at %s x the naive bandwidth bound\n' \
    "$(field "$b" stream_gbs)" "$(div "$sc" "$(field "$b" bandwidth_bound_cells_per_second)")"
}

echo "== heat3d fp32: ${H3}^3 hand-written (${H3N}^3 interior), $H3_STEPS steps; stencilc's naive plan" \
     "and the in-cache ceiling (hand-written ${IC_X}x${IC_Y}x${IC_Z}, $IC_STEPS steps) in the same rounds"
for r in $(seq "$rounds"); do
  b=$(run_json baseline "$work/b_heat3d" $H3 $H3 $H3 $H3_STEPS)
  s=$(run_json stencilc "$work/s_heat3d" $(sets3 $H3N $H3N $H3N) --steps $H3_STEPS --init-random 1 --plan "$plan_h3" --json)
  n=$(run_json stencilc-naive "$work/s_heat3d" $(sets3 $H3N $H3N $H3N) --steps $H3_STEPS --init-random 1 --plan scheme=naive --json)
  c=$(run_json ceiling "$work/b_heat3d" $IC_X $IC_Y $IC_Z $IC_STEPS)
  ci=$(run_json stencilc-in-cache "$work/s_heat3d" $(sets3 $((IC_X - 2)) $((IC_Y - 2)) $((IC_Z - 2))) --steps $IC_STEPS --init-random 1 --plan "$plan_ic" --json)
  pair heat3d_f32 "$r" "$b" "$s"
  bc=$(field "$b" cells_per_second); sc=$(field "$s" cells_per_second); nc=$(field "$n" cells_per_second)
  cc=$(field "$c" cells_per_second); cic=$(field "$ci" cells_per_second)
  record heat3d_f32_naive baseline "$bc"
  record heat3d_f32_naive stencilc "$nc"
  record heat3d_f32_naive ratio "$(div "$nc" "$bc")"
  record heat3d_f32_naive plan "$(field "$n" plan)"
  record heat3d_f32 gain "$(div "$sc" "$nc")"
  record ceiling baseline "$cc"
  record ceiling stencilc "$cic"
  record ceiling fraction "$(div "$sc" "$cc")"
  record ceiling plan "$(field "$ci" plan)"
  printf '           stencilc naive plan %s cells/s (plan %s), ratio %s to hand-written; temporal / naive %s\n' \
    "$(fmt "$nc")" "$(field "$n" plan)" "$(div "$nc" "$bc")" "$(div "$sc" "$nc")"
  printf '           in cache: hand-written %s cells/s, stencilc %s cells/s (plan %s); stencilc %s^3 at %s of the hand-written in-cache rate\n' \
    "$(fmt "$cc")" "$(fmt "$cic")" "$(field "$ci" plan)" "$H3" "$(div "$sc" "$cc")"
  load "$b" "$s" "$n" "$c" "$ci"
done

echo "== heat3d fp64: ${H3}^3 hand-written (${H3N}^3 interior), $H3_STEPS steps"
for r in $(seq "$rounds"); do
  b=$(run_json baseline "$work/b_heat3d_f64" $H3 $H3 $H3 $H3_STEPS)
  s=$(run_json stencilc "$work/s_heat3d_f64" $(sets3 $H3N $H3N $H3N) --steps $H3_STEPS --init-random 1 --plan "$plan_h3d" --json)
  pair heat3d_f64 "$r" "$b" "$s"
  load "$b" "$s"
done

echo "== heat2d fp32: ${H2}^2 hand-written (${H2N}^2 interior), $H2_STEPS steps"
for r in $(seq "$rounds"); do
  b=$(run_json baseline "$work/b_heat2d" $H2 $H2 $H2_STEPS)
  s=$(run_json stencilc "$work/s_heat2d" --set NX=$H2N --set NY=$H2N --steps $H2_STEPS --init-random 1 --plan "$plan_h2" --json)
  pair heat2d "$r" "$b" "$s"
  load "$b" "$s"
done

echo "== himeno M fp32: ${HM_I}x${HM_J}x${HM_K} points hand-written (imax x jmax x kmax)," \
     "NX x NY x NZ = ${HM_NX}x${HM_NY}x${HM_NZ}, $HM_ITER iterations (both from the benchmark's initial values)"
for r in $(seq "$rounds"); do
  b=$(run_json baseline "$work/b_himeno" $HM_I $HM_J $HM_K $HM_ITER)
  s=$(run_json stencilc "$work/s_himeno" $(sets3 $HM_NX $HM_NY $HM_NZ) --steps $HM_ITER --plan "$plan_hm" --json)
  pair himeno "$r" "$b" "$s"
  printf '           gosa: hand-written %s, stencilc %s\n' "$(field "$b" gosa)" "$(field "$s" reductions.gosa)"
  load "$b" "$s"
done

# ---- summary --------------------------------------------------------------------------------
echo "== summary: medians over $rounds round(s), $OMP_NUM_THREADS threads (ratio = stencilc / hand-written, the median of the per-round ratios)"
PROFILE="$profile" ROOFLINE_JSON=${ROOFLINE_JSON:-} python3 - "$results" "$rounds" \
  "heat3d_f32=heat3d fp32 ${H3}^3, $H3_STEPS steps" \
  "heat3d_f32_naive=  same, stencilc naive plan" \
  "heat3d_f64=heat3d fp64 ${H3}^3, $H3_STEPS steps" \
  "heat2d=heat2d fp32 ${H2}^2, $H2_STEPS steps" \
  "himeno=himeno M fp32, $HM_ITER iterations" \
  "ceiling=heat3d fp32 ${IC_X}x${IC_Y}x${IC_Z} in cache" <<'EOF'
import json, os, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    wl, key, value = line.rstrip("\n").split("\t")
    rows.setdefault(wl, {}).setdefault(key, []).append(value)
names = dict(a.split("=", 1) for a in sys.argv[3:])
med = lambda vs: statistics.median(float(v) for v in vs)
def plans(vs):
    return ", ".join(sorted(set(vs)))
print(f"{'workload':<36} {'hand-written':>13} {'stencilc':>13} {'ratio':>7}  plan")
for wl in ("heat3d_f32", "heat3d_f32_naive", "heat3d_f64", "heat2d", "himeno"):
    d = rows[wl]
    print(f"{names[wl]:<36} {med(d['baseline']):>13.3e} {med(d['stencilc']):>13.3e} "
          f"{med(d['ratio']):>7.3f}  {plans(d['plan'])}")
if all(float(rows[wl]["roof.peak"][0]) > 0 for wl in ("heat3d_f32", "heat3d_f64", "heat2d", "himeno")):
    print("stencilc's median rate as a fraction of the roofline bound of its intensity (calibrated"
          " profile: cells/s at the vector peak, and streaming from memory, L3 and L2):")
    for wl in ("heat3d_f32", "heat3d_f32_naive", "heat3d_f64", "heat2d", "himeno"):
        d, v = rows[wl], med(rows[wl]["stencilc"])
        fr = "  ".join(f"{k} {v / float(d['roof.' + k][0]):.3f}" for k in ("memory", "L3", "L2", "peak")
                       if float(d["roof." + k][0]) > 0)
        print(f"  {names[wl]:<34} {fr}")
    out = os.environ.get("ROOFLINE_JSON")
    if out:  # scripts/plot.py roofline draws it
        m = rows["machine"]
        points = [{"name": names[wl].strip(), "plan": plans(rows[wl]["plan"]),
                   "flops_per_cell": float(rows[wl]["flops_per_cell"][0]),
                   "bytes_per_cell": float(rows[wl]["bytes_per_cell"][0]),
                   "cells_per_second": med(rows[wl]["stencilc"])}
                  for wl in ("heat3d_f32", "heat3d_f32_naive", "heat3d_f64", "heat2d", "himeno")]
        points[1]["name"] = names["heat3d_f32"] + ", naive plan"
        json.dump({"title": f"this machine, {os.environ.get('OMP_NUM_THREADS', '?')} threads: "
                            f"medians of {sys.argv[2]} round(s) of bench/temporal.sh",
                   "peak_flops": float(m["peak_flops"][0]),
                   "bandwidths": {k[3:]: float(v[0]) for k, v in m.items() if k.startswith("bw.")},
                   "points": points}, open(out, "w"), indent=1)
        print(f"wrote {out} (scripts/plot.py roofline {out} -o OUT.png)")
else:
    print("(no roofline: the machine profile has no peak_flops; run stencilc calibrate)")
d = rows["ceiling"]
print(f"{names['ceiling']:<36} {med(d['baseline']):>13.3e} {med(d['stencilc']):>13.3e} "
      f"{med(d['stencilc']) / med(d['baseline']):>7.3f}  {plans(d['plan'])}  (ratio of the medians)")
print(f"{names['heat3d_f32'].split(',')[0]}: temporal / naive plan "
      f"{med(rows['heat3d_f32']['gain']):.3f}; stencilc at {med(d['fraction']):.3f} of the "
      f"hand-written in-cache rate (median per-round fraction)")
# What the 2.5x line asks of the stages: the calibrated row benchmark (a 7-point fp32 stencil on
# 512-cell rows in the L2, 8 flops per cell: the rate the model prices a stage at before the
# engine's efficiency) against the hand-written loop. Where it is under 2.5 even a block of
# stages at that rate, with nothing else to do, stays under the line.
try:
    prof = json.load(open(os.environ["PROFILE"]))
    base = med(rows["heat3d_f32"]["baseline"])
    rates = [(w, prof.get(key, 0) / 8) for w, key in (("256-bit", "flops"), ("512-bit", "wide_flops"))]
    rates = [(w, r) for w, r in rates if r > 0]
    if rates and base > 0:
        print(f"{names['heat3d_f32'].split(',')[0]}: the profile's row benchmark in the L2 "
              + ", ".join(f"{r:.3e} cells/s ({w}), {r / base:.2f}x the hand-written loop"
                          for w, r in rates)
              + f"; stencilc's plan at {med(rows['heat3d_f32']['stencilc']) / max(r for _, r in rates):.2f} of the faster")
except (OSError, ValueError, KeyError):
    pass
streams = [float(v) for wl in rows for v in rows[wl].get("stream", [])]
print(f"stream bandwidth measured by the hand-written programs: {min(streams):.2f} to "
      f"{max(streams):.2f} GB/s")
loads = [float(v) for v in rows["load"]["max"]]
bad = sum(v > 0.1 for v in loads)
print(f"other processes: up to {max(loads):.0%} of the CPUs during a run; "
      + (f"{bad} of {len(loads)} round(s) DISTURBED (over 10%): rerun on an idle machine"
         if bad else "no round disturbed (all under 10%)"))
EOF
