"""What runs write, checked from Python as a user would read it (issue #6's acceptance line).

  output.py STENCILC SAMPLES_DIR CASE

CASE is one of
  save      samples' grids saved as .npy and .h5 in one run, by the interpreter and by a built
            executable: h5py's array equals np.load(npy).T bit for bit with the same dtype, and
            the XDMF sidecar names FILE.h5:/GRID with the right Dimensions, NumberType and
            Precision (ranks 2 and 3; none for ranks 1 and 4); a built executable loads the .h5
  series    --save-every: one dataset /GRID/STEP per saved step, FILE_STEP.npy files, an XDMF
            temporal collection, and the last entry equal to a plain run's result
  history   --history of the convergence samples: a line per step, the last values equal the
            summary's reductions, the same iteration count as a run without it
  progress  the progress line on a pseudo-terminal (util-linux script), none under --json or
            without a terminal, and the same results either way
Prints one line per check; exits 1 at the first failure.
"""
import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import h5py
import numpy as np

STENCILC, SAMPLES, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
WORK = tempfile.mkdtemp(prefix="stencilc_output_")
atexit.register(shutil.rmtree, WORK, ignore_errors=True)


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        sys.exit(1)


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=WORK, **kw)
    if p.returncode != 0:
        print(" ".join(cmd), "\n", p.stdout, p.stderr)
        check(False, "exit code 0 of " + os.path.basename(cmd[0]))
    return p


def sample(name):
    return os.path.join(SAMPLES, name + ".stn")


def built(name):
    exe = os.path.join(WORK, name)
    if not os.path.exists(exe):
        run([STENCILC, "build", sample(name), "-o", exe])
    return exe


def runners(name):
    """How to run a sample: the interpreter, and an executable built from it."""
    return [("interp", [STENCILC, "run", sample(name)]), ("build", [built(name)])]


def summary(cmd):
    return json.loads(run(cmd + ["--json"]).stdout)


def same_bits(h5_array, npy_array, what):
    """h5[...] == np.load(npy).T: same dtype, shape and bytes."""
    t = np.ascontiguousarray(npy_array.T)
    check(h5_array.dtype == t.dtype, f"{what}: dtype {h5_array.dtype} == {t.dtype}")
    check(h5_array.shape == t.shape, f"{what}: shape {h5_array.shape} == .npy shape reversed")
    check(h5_array.tobytes() == t.tobytes(), f"{what}: the same bits")


def check_xdmf_grid(grid, h5_name, dataset, array, what):
    """One uniform XDMF grid: a CoRect mesh of the array's shape carrying `dataset`."""
    dims = " ".join(str(n) for n in array.shape)
    topo = grid.find("Topology")
    check(topo.get("TopologyType") == f"{array.ndim}DCoRectMesh" and topo.get("Dimensions") == dims,
          f"{what}: topology {array.ndim}DCoRectMesh {dims}")
    item = grid.find(f"Attribute[@Name='{dataset.split('/')[1]}']/DataItem")
    check(item is not None and item.text == f"{h5_name}:{dataset}",
          f"{what}: names {h5_name}:{dataset}")
    want_type = "Int" if array.dtype.kind == "i" else "Float"
    check(item.get("Dimensions") == dims and item.get("NumberType") == want_type
          and item.get("Precision") == str(array.dtype.itemsize) and item.get("Format") == "HDF",
          f"{what}: Dimensions {dims}, NumberType {want_type}, Precision {array.dtype.itemsize}")


# (sample, grid, sizes, rank): float rank 3, int rank 2, double rank 1 and 4; every extent
# different, so a transposed array cannot pass.
SAVES = [("heat3d", "u", ["NX=7", "NY=5", "NZ=3"], 3),
         ("life", "cells", ["NX=9", "NY=6"], 2),
         ("jacobi1d", "u", ["N=11"], 1),
         ("gt5d_4d", "u", ["NX=6", "NY=5", "NZ=7", "NW=8"], 4)]


def case_save():
    for name, grid, sizes, rank in SAVES:
        for how, cmd in runners(name):
            what = f"{name} ({how})"
            sets = [a for s in sizes for a in ("--set", s)]
            stem = f"{name}_{how}"
            run(cmd + sets + ["--steps", "3", "--init-random", "5", "--save", f"{grid}={stem}.npy",
                              "--save", f"{grid}={stem}.h5"])
            npy = np.load(os.path.join(WORK, stem + ".npy"))
            with h5py.File(os.path.join(WORK, stem + ".h5"), "r") as f:
                check(list(f.keys()) == [grid], f"{what}: the file holds /{grid} alone")
                h5 = f[grid][...]
            check(np.count_nonzero(npy) > 0, f"{what}: the grid is not all zero")
            same_bits(h5, npy, what)
            xmf = os.path.join(WORK, stem + ".xmf")
            if rank in (2, 3):
                root = ET.parse(xmf).getroot()
                check_xdmf_grid(root.find("Domain/Grid"), stem + ".h5", "/" + grid, h5, what)
            else:
                check(not os.path.exists(xmf), f"{what}: no XDMF file for rank {rank}")
            # The executable reads the interpreter's .h5: saved again as .npy, the same bytes.
            if how == "interp":
                run([built(name)] + sets + ["--steps", "0", "--load", f"{grid}={stem}.h5",
                                            "--save", f"{grid}={stem}_loaded.npy"])
                with open(os.path.join(WORK, stem + ".npy"), "rb") as a, \
                        open(os.path.join(WORK, stem + "_loaded.npy"), "rb") as b:
                    check(a.read() == b.read(), f"{what}: --load of the .h5 by the executable")


def case_series():
    sets = ["--set", "NX=12", "--set", "NY=9", "--set", "NZ=7", "--init-random", "2"]
    for how, cmd in runners("heat3d"):
        what = f"heat3d ({how})"
        run(cmd + sets + ["--steps", "23", "--save", f"u={how}_final.npy"])
        run(cmd + sets + ["--steps", "23", "--save-every", "10", "--save", f"u={how}.h5",
                          "--save", f"u={how}.npy"])
        steps = [10, 20, 23]
        names = [f"{s:06d}" for s in steps]
        npys = sorted(f for f in os.listdir(WORK) if re.fullmatch(how + r"_\d+\.npy", f))
        check(npys == [f"{how}_{n}.npy" for n in names], f"{what}: .npy files {npys}")
        with h5py.File(os.path.join(WORK, how + ".h5"), "r") as f:
            check(list(f.keys()) == ["u"] and list(f["u"].keys()) == names,
                  f"{what}: datasets /u/{', /u/'.join(names)}")
            for n in names:
                same_bits(f["u"][n][...], np.load(os.path.join(WORK, f"{how}_{n}.npy")),
                          f"{what} step {n}")
            last = f["u"][names[-1]][...]
        same_bits(last, np.load(os.path.join(WORK, f"{how}_final.npy")),
                  f"{what}: the last entry and a plain run's result")
        first = np.load(os.path.join(WORK, f"{how}_{names[0]}.npy"))
        check(not np.array_equal(first.T, last), f"{what}: the entries differ")
        root = ET.parse(os.path.join(WORK, how + ".xmf")).getroot()
        coll = root.find("Domain/Grid")
        check(coll.get("GridType") == "Collection" and coll.get("CollectionType") == "Temporal",
              f"{what}: a temporal collection")
        grids = coll.findall("Grid")
        check([g.find("Time").get("Value") for g in grids] == [str(s) for s in steps],
              f"{what}: Time values {steps}")
        for g, n in zip(grids, names):
            check_xdmf_grid(g, how + ".h5", "/u/" + n, last, f"{what} step {n}")


def case_history():
    for name in ("poisson_jacobi", "poisson_rbgs"):
        for how, cmd in runners(name):
            what = f"{name} ({how})"
            cmd = cmd + ["--set", "N=8"]
            plain = summary(cmd)
            csv = os.path.join(WORK, f"{name}_{how}.csv")
            s = summary(cmd + ["--history", csv])
            check(s["steps"] == plain["steps"] and s["converged"],
                  f"{what}: converged after {s['steps']} steps, as without --history")
            with open(csv) as f:
                lines = f.read().splitlines()
            names = list(s["reductions"])
            check(lines[0] == "step," + ",".join(names), f"{what}: header {lines[0]}")
            check(len(lines) == s["steps"] + 1, f"{what}: {len(lines) - 1} lines, one per step")
            check([int(l.split(",")[0]) for l in lines[1:]] == list(range(1, s["steps"] + 1)),
                  f"{what}: steps 1..{s['steps']}")
            last = [float(v) for v in lines[-1].split(",")[1:]]
            check(last == [s["reductions"][n] for n in names]
                  == [plain["reductions"][n] for n in names],
                  f"{what}: the last line equals the summary's reductions")
            res = [float(l.split(",")[1]) for l in lines[1:]]
            check(res[-1] < res[0], f"{what}: the residual falls")


def case_progress():
    # The test clock (a runtime test hook) advances 1 s at every reading, so the line is drawn
    # after every chunk of one step, however fast the machine: nothing here depends on timing.
    exe = built("heat3d")
    cmd = [exe, "--set", "NX=16", "--set", "NY=12", "--set", "NZ=10", "--steps", "20",
           "--init-random", "4"]
    env = dict(os.environ, STENCILC_TEST_CLOCK_TICK="1")
    quiet = run(cmd, env=env)
    check(quiet.stderr == "", "no terminal: nothing on stderr")
    want = quiet.stdout.splitlines()[2:]  # the checksums (the first two lines are timings)

    def on_pty(args):
        line = " ".join(f"'{a}'" for a in args)
        # Bytes: text mode would turn every '\r' into a newline.
        p = subprocess.run(["script", "-qec", line, "/dev/null"], capture_output=True,
                           stdin=subprocess.DEVNULL, cwd=WORK, env=env)
        check(p.returncode == 0, "exit code 0 on a terminal")
        return p.stdout.decode()

    out = on_pty(cmd)
    drawn = re.findall(r"\rheat3d: (\d+)/20 steps \(\d+%\), [0-9.e+]+ steps/s, ETA [^\r]*", out)
    check([int(n) for n in drawn] == list(range(1, 21)),
          f"a terminal: the progress line (steps, steps/s, ETA) after each step: {drawn}")
    check(re.search(r"\r +\rheat3d: 20 steps on openmp", out) is not None,
          "the line is erased before the summary")
    got = out.replace("\r\n", "\n").split("\n")
    check(got[2:2 + len(want)] == want, "the same checksums as without chunks")
    out = on_pty(cmd + ["--json"])
    check("steps/s" not in out and "\r" not in out.rstrip("\r\n"), "a terminal and --json: quiet")
    check(json.loads(out)["steps"] == 20, "the JSON line alone")


{"save": case_save, "series": case_series, "history": case_history,
 "progress": case_progress}[CASE]()
