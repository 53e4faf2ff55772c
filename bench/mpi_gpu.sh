#!/usr/bin/env bash
# The MPI+GPU benchmark (issue 16), ready for a GPU cluster: heat3d fp32 and himeno on N ranks
# (default 16) of `--target mpi-cuda` (mpi-hip where rocminfo finds a GPU and nvidia-smi none),
# the naive plan and the temporal one (k=4 fused steps on halos 4 steps deep, tile 32x16; K and
# TILE change them), each with the overlap strategies the target generates (overlap=off,
# overlap=on, overlap=host: the host's cores on the boundary, overlap=boundary: the boundary
# first, which the model prices as overlap=on), every rank on a GPU of its node. For each: the model's exchange-period terms for the machine profile (inner,
# boundary, d2h, mpi, h2d; `stencilc explain --json`), its predicted and the measured time per
# step, and the measured cell-updates/s per rank, all from one run; below each plan, the
# measured terms per step that the runtime times (the --json summary's "phases", the slowest
# rank's: d2h and h2d in blocking refreshes only -- overlap=on's copies run beside the interior
# untimed -- and mpi as the time in the exchange: packing, messages, unpacking).
#
# Without a GPU here: the model's terms and predictions only (on a100-40gb unless MACHINE says
# otherwise), and exits 0; nothing is measured (the CPU execution layer's speed says nothing about
# a GPU's).
#
#   bench/mpi_gpu.sh [RANKS [STEPS]]   STENCILC=path overrides build/bin/stencilc; MACHINE=profile;
#                                      MPIRUN="mpirun ..." how to start RANKS ranks (default
#                                      mpirun -np RANKS); HEAT=NX,NY,NZ and HIMENO=NX,NY,NZ sizes;
#                                      K=k, TILE=XxY of the temporal plan
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
stencilc=${STENCILC:-$root/build/bin/stencilc}
ranks=${1:-16} steps=${2:-100}
machine=${MACHINE:-a100-40gb}
heat=${HEAT:-1024,1024,1024} himeno=${HIMENO:-513,513,1025}
k=${K:-4} tile=${TILE:-32x16}
[ -x "$stencilc" ] || { echo "error: no stencilc at $stencilc (build first, or set STENCILC)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

target=
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  target=mpi-cuda
elif command -v rocminfo >/dev/null 2>&1 && rocminfo 2>/dev/null | grep -q 'Name: *gfx'; then
  target=mpi-hip
fi

sizes() { # NX,NY,NZ -> --set NX=.. --set NY=.. --set NZ=..
  IFS=, read -r x y z <<<"$1"
  echo "--set NX=$x --set NY=$y --set NZ=$z"
}

# The model's row of a plan: predicted s/step and the period's terms.
predict() { # spec sizes plan
  # shellcheck disable=SC2086
  "$stencilc" explain "$1" --target "${target:-mpi-cuda}" --ranks "$ranks" --machine "$machine" \
    $2 --steps "$steps" --plan "$3" --json | python3 -c '
import json, sys
c = json.load(sys.stdin)["chosen"]
p = c["period"]
print("%.4g %s" % (c["seconds_per_step"], " ".join("%.3g" % p[t] for t in ("inner", "boundary", "d2h", "mpi", "h2d"))))'
}

printf 'mpi_gpu.sh: %s ranks, %s steps, machine profile %s%s\n' "$ranks" "$steps" "$machine" \
  "${target:+, measured on $target}"
printf '%-8s %-34s %11s %9s %9s %9s %9s %9s %11s %14s\n' workload plan "pred s/st" inner \
  boundary d2h mpi h2d "meas s/st" "cell-upd/s/rk"
for w in heat3d himeno; do
  spec=$root/samples/$w.stn
  set_w=$(sizes "$([ $w = heat3d ] && echo "$heat" || echo "$himeno")")
  exe=
  if [ -n "$target" ]; then
    # shellcheck disable=SC2086
    "$stencilc" build "$spec" --target "$target" --machine "$machine" -o "$tmp/$w" >/dev/null
    exe=$tmp/$w
  fi
  for plan in scheme=naive,overlap=off scheme=naive,overlap=on scheme=naive,overlap=host \
    scheme=naive,overlap=boundary \
    "scheme=temporal,k=$k,tile=$tile,overlap=off" "scheme=temporal,k=$k,tile=$tile,overlap=on" \
    "scheme=temporal,k=$k,tile=$tile,overlap=host" "scheme=temporal,k=$k,tile=$tile,overlap=boundary"; do
    read -r pred inner boundary d2h mpi h2d <<<"$(predict "$spec" "$set_w" "$plan")"
    meas=- per_rank=- m_d2h=- m_mpi=- m_h2d=-
    if [ -n "$exe" ]; then
      # shellcheck disable=SC2086
      ${MPIRUN:-mpirun -np $ranks} "$exe" $set_w --steps "$steps" --plan "$plan" --json \
        >"$tmp/run.json"
      read -r meas per_rank m_d2h m_mpi m_h2d <<<"$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
n = s["steps"]
p = s.get("phases", {})
print("%.4g %.4g" % (s["seconds"] / n, s["cells_per_second"] / s.get("ranks", 1)),
      " ".join("%.3g" % (p[t] / n) if t in p else "-" for t in ("d2h", "exchange", "h2d")))' \
        "$tmp/run.json")"
    fi
    printf '%-8s %-34s %11s %9s %9s %9s %9s %9s %11s %14s\n' "$w" "${plan#scheme=}" "$pred" \
      "$inner" "$boundary" "$d2h" "$mpi" "$h2d" "$meas" "$per_rank"
    [ -z "$exe" ] || printf '%-8s %-34s %11s %9s %9s %9s %9s %9s\n' "" "  measured" "" "" "" \
      "$m_d2h" "$m_mpi" "$m_h2d"
  done
done
[ -n "$target" ] || echo "(no GPU here: predictions only; run on a GPU cluster to measure)"
