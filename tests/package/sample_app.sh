#!/usr/bin/env bash
# samples/app, built as its README says against a copy of the installed prefix in another
# place (the package is relocatable), run on a 24^3 grid: its result must be the interpreter's
# from the same initial grid, and what it prints must match the grids it saved.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
work=$STENCILC_WORK_DIR/sample_app
fresh_dir "$work"
cd "$work"
cp -a "$PREFIX" prefix

configure "$SRC/samples/app" build "$work/prefix" >configure.txt || {
  cat configure.txt
  fail "configure"
}
"$CMAKE" --build build >build.txt 2>&1 || {
  cat build.txt
  fail "build"
}
mkdir out
build/heat3d_app 24 10 out | tee app.txt
prefix/bin/stencilc run "$SRC/samples/heat3d.stn" --set NX=24 --set NY=24 --set NZ=24 \
  --steps 10 --load u=out/u0.npy --save u=ref.npy >/dev/null
same_bits out/u.npy ref.npy || fail "heat3d_app and the interpreter differ"

"$PYTHON" - <<'PY'
import re
import sys
import numpy as np
text = open("app.txt").read()
u0, u = np.load("out/u0.npy").astype(np.float64), np.load("out/u.npy").astype(np.float64)
def fail(msg):
    sys.exit(f"FAIL: {msg}\n{text}")
m = re.search(r"total heat: (\S+) before, (\S+) after", text) or fail("no total heat line")
if abs(float(m[1]) - u0.sum()) > 1e-5 * u0.sum() or abs(float(m[2]) - u.sum()) > 1e-5 * u.sum():
    fail(f"total heat printed {m[1]}, {m[2]}; the grids hold {u0.sum()}, {u.sum()}")
m = re.search(r"peak: \S+ before, (\S+) after, at \((\d+), (\d+), (\d+)\)", text) or fail("no peak")
at = tuple(int(v) for v in m.groups()[1:])
if at != np.unravel_index(np.argmax(u), u.shape) or abs(float(m[1]) - u.max()) > 1e-6:
    fail(f"peak printed {m[1]} at {at}; the grid's is {u.max()} at "
         f"{np.unravel_index(np.argmax(u), u.shape)}")
if at != (8, 12, 16):
    fail(f"the hot spot moved from (8, 12, 16) to {at}")
m = re.search(r"grown by (\S+) (\S+) (\S+) \(2\*c1\*steps = (\S+)\)", text) or fail("no variance")
if any(abs(float(g) - float(m[4])) > 0.01 for g in m.groups()[:3]):
    fail("the variance did not grow by 2*c1*steps")
PY
echo "ok"
