#!/usr/bin/env bash
# The GPU benchmark (issue 14): heat3d fp32, SIZE^3 (default 512), STEPS steps (default 100).
#
# On a machine with a GPU (nvidia-smi or rocminfo finds one): the plan stencilc chooses for it
# (`stencilc build --target cuda|hip`) against the hand-written naive kernel of
# bench/gpu/heat3d_naive.cu, in the same run, each as cell-updates/s and effective bandwidth
# (8 bytes per cell update: each input read once, each output written once, the figure of merit
# of the AMD Laplacian study), and their ratio.
# Without a GPU: the model's prediction of the chosen plan on h100-sxm, h200 and mi250x-gcd
# (cell-updates/s, effective bandwidth, and its fraction of the machine's memory bandwidth),
# checks that the hand-written kernel compiles with the toolchains that are here, and exits 0.
#
#   bench/gpu.sh [SIZE [STEPS]]        STENCILC=path overrides build/bin/stencilc
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
stencilc=${STENCILC:-$root/build/bin/stencilc}
size=${1:-512} steps=${2:-100}
spec=$root/samples/heat3d.stn
sets=(--set "NX=$size" --set "NY=$size" --set "NZ=$size")
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
hipcc=${HIPCXX:-hipcc}
[ -x "$stencilc" ] || { echo "error: no stencilc at $stencilc (build first, or set STENCILC)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

target=
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  target=cuda compiler=$nvcc lang=cu
elif command -v rocminfo >/dev/null 2>&1 && rocminfo 2>/dev/null | grep -q 'Name: *gfx'; then
  target=hip compiler=$hipcc lang=hip
fi

field() { python3 -c "import json,sys; print(json.loads(sys.stdin.read())['$1'])"; }

if [ -z "$target" ]; then
  echo "bench/gpu.sh: no GPU here (nvidia-smi and rocminfo find none): the model's predictions"
  echo "heat3d fp32 ${size}^3, ${steps} steps; effective bandwidth = 8 B per cell update"
  printf '%-12s %-6s %-44s %14s %12s %10s\n' machine target "chosen plan" "cell-upd/s" "eff. GB/s" "of peak"
  for m in h100-sxm h200 mi250x-gcd; do
    t=cuda
    [ "$m" = mi250x-gcd ] && t=hip
    "$stencilc" explain "$spec" --target "$t" --machine "$m" "${sets[@]}" --steps "$steps" --json \
      >"$tmp/$m.json"
    python3 - "$tmp/$m.json" "$m" "$t" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
c = j["chosen"]
eff = c["cells_per_second"] * 8
print("%-12s %-6s %-44s %14.4g %12.1f %9.0f%%" % (sys.argv[2], sys.argv[3], c["plan"],
      c["cells_per_second"], eff / 1e9, 100 * eff / j["memory_bandwidth"]))
PY
  done
  for tc in "cuda:$nvcc:cu" "hip:$hipcc:hip"; do
    IFS=: read -r t c l <<<"$tc"
    if command -v "$c" >/dev/null 2>&1; then
      extra=()
      [ "$t" = hip ] && extra=(--offload-arch=gfx90a)
      "$c" -O3 "${extra[@]}" -x "$l" "$here/gpu/heat3d_naive.cu" -o "$tmp/naive_$t"
      echo "the hand-written $t kernel compiles with $c (run it on a GPU: bench/gpu.sh there)"
    fi
  done
  exit 0
fi

echo "bench/gpu.sh: $target device found; heat3d fp32 ${size}^3, ${steps} steps"
"$stencilc" build "$spec" --target "$target" -o "$tmp/heat3d" >/dev/null
"$compiler" -O3 -x "$lang" "$here/gpu/heat3d_naive.cu" -o "$tmp/naive"
# stencilc's heat3d keeps the faces in ghost cells: SIZE-2 interior cells per dimension, as the
# hand-written kernel updates.
inner=$((size - 2))
"$stencilc" explain "$spec" --target "$target" --set "NX=$inner" --set "NY=$inner" \
  --set "NZ=$inner" --steps "$steps" --json >"$tmp/explain.json"
gen=$("$tmp/heat3d" --set "NX=$inner" --set "NY=$inner" --set "NZ=$inner" --steps "$steps" --json)
hand=$("$tmp/naive" "$size" "$size" "$size" "$steps")
python3 - "$gen" "$hand" "$tmp/explain.json" <<'PY'
import json, sys
gen, hand = json.loads(sys.argv[1]), json.loads(sys.argv[2])
model = json.load(open(sys.argv[3]))
g, h = gen["cells_per_second"], hand["cells_per_second"]
print("%-28s %14s %12s" % ("", "cell-upd/s", "eff. GB/s"))
print("%-28s %14.4g %12.1f" % ("stencilc " + gen["plan"], g, g * 8 / 1e9))
print("%-28s %14.4g %12.1f" % ("hand-written naive", h, h * 8 / 1e9))
print("stencilc / hand-written: %.2fx; model predicted %.4g cell-upd/s for %s" %
      (g / h, model["chosen"]["cells_per_second"], model["chosen"]["plan"]))
PY
