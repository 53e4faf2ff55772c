"""Helpers shared by the reference checks: run `stencilc run ... --json` and read the summary."""
import json
import subprocess
import sys


def run_json(stencilc, sample, *args):
    """Runs the interpreter with --json and returns the parsed one-line summary."""
    cmd = [stencilc, "run", sample, "--json", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {proc.returncode}:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def check(ok, message):
    """Prints one result line; exits with status 1 on the first failure."""
    print(("ok    " if ok else "FAIL  ") + message, flush=True)
    if not ok:
        sys.exit(1)


def rel_diff(a, b):
    scale = max(abs(a), abs(b))
    return 0.0 if scale == 0 else abs(a - b) / scale
