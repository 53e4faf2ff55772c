#!/usr/bin/env python3
"""The model's GPU memory traffic against the bytes the CPU execution layer counts.

usage: gpu_traffic.py STENCILC SPEC STEPS [--plan PLAN] [--set NAME=VALUE]...

Builds SPEC for the cuda target through the CPU layer (checking mode), runs it with the layer
counting global-memory traffic (STENCILC_GPU_TRAFFIC), and compares the sweeps' bytes per
cell-update with `stencilc explain --json` at the same sizes:
- the distinct bytes each launch reads and writes agree with the model's least traffic
  (min_global_bytes_per_cell: each input once with its ghost ring, each output once) within 10%;
- the naive plan's modelled traffic (that least traffic times the L2 re-read factor of the
  profile) lies between the distinct bytes per launch (every neighbour re-read hits a cache) and
  the distinct bytes per block summed (no block shares a byte with another).
With --plan (a streaming or temporal plan), the run uses that plan and its blocks' traffic is
compared:
- the distinct bytes per block, summed (a block shares nothing with another: what a 2.5D block
  loads into shared memory, each input once, plus its x-y halo), agree with the plan's
  modelled traffic (global_bytes_per_cell of `explain --plan`) within 10%, and stay within 1.1x
  the least traffic (not a streaming plan over chunks of z: each chunk loads its halo planes,
  the traffic the model trades for more blocks). A temporal plan's launches fuse k steps (the kernels named __temporal;
  kernel__K__temporal<k>; the run's last step runs unfused and is left out): their bytes per cell-update are those of
  the STEPS - 1 fused steps.
Exits 1 with the figures when one does not hold.
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    stencilc, spec, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    sets = sys.argv[4:]
    plan = []
    if sets[:1] == ["--plan"]:
        plan, sets = sets[:2], sets[2:]
    with tempfile.TemporaryDirectory() as d:
        exe = os.path.join(d, "exe")
        subprocess.run([stencilc, "build", spec, "--target", "cuda", "--cpu-layer", "-o", exe],
                       check=True, stdout=subprocess.DEVNULL)
        counts = os.path.join(d, "traffic.jsonl")
        env = dict(os.environ, STENCILC_GPU_TRAFFIC=counts)
        subprocess.run([exe, *sets, *plan, "--steps", str(steps)], check=True, env=env,
                       stdout=subprocess.DEVNULL)
        with open(counts) as f:
            kernels = [json.loads(line) for line in f]
    model = json.loads(subprocess.run(
        [stencilc, "explain", spec, "--target", "cuda", "--machine", "h100-sxm", "--json", *sets,
         *plan], check=True, stdout=subprocess.PIPE, text=True).stdout)

    temporal = bool(plan) and "scheme=temporal" in plan[1]
    sweeps = [k for k in kernels if k["kernel"].startswith("kernel__")
              and (not temporal or "__temporal" in k["kernel"])]
    if not sweeps:
        print(f"error: no sweep kernel was counted in {[k['kernel'] for k in kernels]}")
        return 1
    updates = model["cells"] * (steps - 1 if temporal else steps)
    unique = sum(k["read_bytes"] + k["written_bytes"] for k in sweeps) / updates
    block = sum(k["block_read_bytes"] + k["block_written_bytes"] for k in sweeps) / updates
    least = model["min_global_bytes_per_cell"]
    name = os.path.basename(spec)
    if plan:
        modelled = model["chosen"]["global_bytes_per_cell"]
        print(f"{name} {plan[1]}: counted {block:.3f} B/cell-update distinct per block "
              f"({unique:.3f} per launch); model: {modelled:.3f}, least {least:.3f}")
        checks = [
            (abs(block / modelled - 1) <= 0.10,
             f"the blocks move {block / modelled:.3f}x the plan's modelled traffic (10% allowed)"),
        ]
        if "chunk=" not in plan[1]:
            checks.append((block <= 1.1 * least,
                           f"the blocks move {block / least:.3f}x the least traffic (1.1x allowed)"))
    else:
        naive = next(c for c in model["candidates"] if c["plan"] == "scheme=naive")
        modelled = naive["global_bytes_per_cell"]
        print(f"{name}: counted {unique:.3f} B/cell-update distinct per launch, {block:.3f} per "
              f"block; model: least {least:.3f}, naive {modelled:.3f}")
        checks = [
            (abs(unique / least - 1) <= 0.10,
             f"the counted traffic is {unique / least:.3f}x the model's least traffic "
             "(10% allowed)"),
            (unique <= modelled <= block,
             "the naive plan's modelled traffic is outside [per launch, per block]"),
        ]
    failed = [why for ok, why in checks if not ok]
    for why in failed:
        print(f"error: {why}")
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
