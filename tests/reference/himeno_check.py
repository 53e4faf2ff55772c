#!/usr/bin/python3
"""samples/himeno.stn against an independent plain-loop Himeno (tests/reference/himeno.cpp).

    himeno_check.py STENCILC HIMENO_REFERENCE SAMPLE

Two cases, each comparing gosa after a fixed number of iterations and the checksum of p:
 1. the benchmark as published: size XS (imax x jmax x kmax = 32 x 32 x 64 with boundaries,
    so NX, NY, NZ = 62, 30, 30) and the original's initial values;
 2. a small non-cubic size (13 x 10 x 17) with every coefficient array and p's interior loaded
    from an integer pattern (b nonzero, a and c differing per axis, bnd with holes), so a swapped
    axis, a wrong edge term or a wrong sign in the 19-point stencil changes the result (with the
    original's values b = 0 and the operator symmetric in j and k, case 1 alone would not see
    many such mistakes).

Tolerance: relative 1e-12. Both sides do the same float operations in the same order (the
sample writes the terms in jacobi()'s order; the reference is built with -ffp-contract=off and
the interpreter rounds every float operation), and both sum gosa and the checksum in double in
the same order (k fastest), so they agree exactly; 1e-12 only leaves room for a differently
ordered double sum (~1e-16 relative per term). A single wrong term changes gosa far more than
that (float rounding alone is ~1e-7).
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

from common import check, rel_diff, run_json

TOL = 1e-12
GRIDS = ["a0", "a1", "a2", "a3", "b0", "b1", "b2", "c0", "c1", "c2", "bnd", "wrk1"]


def pattern(n, i, j, k):
    """Array n at original point (i, j, k); himeno.cpp's pattern(), as float32."""
    h = (i * 73 + j * 37 + k * 19 + n * 101) % 32
    if n in (0, 1, 2, 7, 8, 9):
        v = (16 + h) / 32.0
    elif n == 3:
        v = (128 + h) / 1024.0
    elif n in (4, 5, 6):
        v = (h - 16) / 128.0
    elif n == 10:
        v = np.where(h % 5 == 0, 0.0, 1.0)
    elif n == 11:
        v = (h - 16) / 256.0
    else:
        v = h / 32.0
    return np.asarray(v, dtype=np.float32)


def reference(exe, imax, jmax, kmax, niter, use_pattern):
    cmd = [exe, str(imax), str(jmax), str(kmax), str(niter)] + (["--pattern"] if use_pattern else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.split()
    vals = dict(zip(out[0::2], map(float, out[1::2])))
    return vals


def compare(stencilc, exe, sample, imax, jmax, kmax, niter, use_pattern, tmp):
    nx, ny, nz = kmax - 2, jmax - 2, imax - 2
    args = ["--set", f"NX={nx}", "--set", f"NY={ny}", "--set", f"NZ={nz}", "--steps", str(niter)]
    if use_pattern:
        # Sample (x, y, z) is the original's (k, j, i) shifted by the boundary plane.
        x, y, z = np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz), indexing="ij")
        i, j, k = z + 1, y + 1, x + 1
        for n, name in enumerate(GRIDS + ["p"]):
            f = os.path.join(tmp, f"{name}.npy")
            np.save(f, np.asfortranarray(pattern(n if n < 12 else 13, i, j, k)))
            args += ["--load", f"{name}={f}"]
    got = run_json(stencilc, sample, *args)
    ref = reference(exe, imax, jmax, kmax, niter, use_pattern)
    what = f"{imax}x{jmax}x{kmax} ({'pattern' if use_pattern else 'original values'}), {niter} iterations"
    check(got["steps"] == niter, f"{what}: the interpreter ran {got['steps']} iterations")
    g, r = got["reductions"]["gosa"], ref["gosa"]
    check(rel_diff(g, r) <= TOL and r > 0,
          f"{what}: gosa {g:.17g} interpreter, {r:.17g} reference, relative diff "
          f"{rel_diff(g, r):.2e} (tol {TOL:.0e}); the original's float sum: {ref['gosa_float']:.9g}")
    g, r = got["checksums"]["p"], ref["checksum"]
    check(rel_diff(g, r) <= TOL,
          f"{what}: checksum of p {g:.17g} interpreter, {r:.17g} reference, relative diff "
          f"{rel_diff(g, r):.2e}")


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: himeno_check.py STENCILC HIMENO_REFERENCE SAMPLE")
    stencilc, exe, sample = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        compare(stencilc, exe, sample, 32, 32, 64, 10, False, tmp)
        compare(stencilc, exe, sample, 13, 10, 17, 6, True, tmp)


if __name__ == "__main__":
    main()
