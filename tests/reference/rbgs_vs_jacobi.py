#!/usr/bin/python3
"""Jacobi and red-black Gauss-Seidel stop at the iterations an independent numpy solver predicts.

    rbgs_vs_jacobi.py STENCILC JACOBI_SAMPLE RBGS_SAMPLE

Both samples solve the same Poisson problem with the same stopping rule (||r||/||r0|| < tol,
the default tol = 1e-6), here with N = 12. For each sample the script runs the interpreter
(--json: the iteration count, `converged`, the last `res`) and a numpy transcription of the
sample: the same b (the init, with math.sin, i.e. the C library's sin, in the init's operation
order), u = 0, zero ghosts, the same statements in the order of the run block
   jacobi:  jacobi; res; swap u, unew;        (r from the old u, then u = tmp / 6)
   rbgs:    residual; res; red; black;        (red: x+y+z even, in place; then black)
and the condition checked after each complete iteration, res / first(res) < tol, first(res)
being the residual of u = 0. The operations are the kernels' in their order and res sums r*r
sequentially with x fastest, as the interpreter does, so numpy reproduces its values bit for
bit. Checks, per sample: both stop at the same iteration (and converged), with the same final
res exactly; and the count does not hinge on rounding: res/first(res) is at least 1e-9
(relative) away from tol at the last iteration and at the one before. Finally red-black
Gauss-Seidel needs fewer iterations than Jacobi (theory: about half, its spectral radius being
Jacobi's squared).
"""
import math
import sys

import numpy as np

from common import check, run_json

N = 12
TOL = 1e-6           # the samples' default tol
MAXIT = 20000        # and MAXIT
PI = 3.141592653589793
MARGIN = 1e-9        # relative distance of res/first(res) from tol that rounding cannot bridge


def rhs():
    """b[x, y, z] = h*h*3*pi*pi*sin(pi*(x+1)*h)*sin(pi*(y+1)*h)*sin(pi*(z+1)*h), left to right."""
    h = 1.0 / (N + 1)
    s = np.array([math.sin(PI * (i + 1) * h) for i in range(N)])
    c = h * h * 3.0 * PI * PI
    return c * s[:, None, None] * s[None, :, None] * s[None, None, :]


def neighbours(b, u):
    """b + u[x-1] + u[x+1] + u[y-1] + u[y+1] + u[z-1] + u[z+1], left to right, 0 in the ghosts."""
    p = np.pad(u, 1)
    c = slice(1, -1)
    t = b + p[:-2, c, c]
    t = t + p[2:, c, c]
    t = t + p[c, :-2, c]
    t = t + p[c, 2:, c]
    t = t + p[c, c, :-2]
    return t + p[c, c, 2:]


def norm2(r):
    """sqrt of the sum of r*r, summed one value after the other, x fastest (not pairwise)."""
    return math.sqrt(np.add.accumulate((r * r).ravel(order="F"))[-1])


def solve(step):
    """Runs `step` (u -> (res, new u)) until res / first(res) < TOL; returns the iteration
    count, the last res and the ratios res / first(res) of every iteration."""
    u = np.zeros((N, N, N))
    ratios = []
    first = None
    for it in range(1, MAXIT + 1):
        res, u = step(u)
        first = res if first is None else first
        ratios.append(res / first)
        if res / first < TOL:
            return it, res, ratios
    return None, res, ratios


def jacobi_step(b):
    def step(u):
        tmp = neighbours(b, u)
        r = tmp - 6.0 * u
        return norm2(r), tmp / 6.0          # res of the old u; swap u, unew
    return step


def rbgs_step(b):
    x, y, z = np.indices((N, N, N))
    red = (x + y + z) % 2 == 0              # point (0, 0, 0) is red

    def step(u):
        res = norm2(neighbours(b, u) - 6.0 * u)
        u = u.copy()
        u[red] = (neighbours(b, u) / 6.0)[red]       # reads only black points
        u[~red] = (neighbours(b, u) / 6.0)[~red]     # reads the new red points
        return res, u
    return step


def compare(stencilc, sample, name, step):
    got = run_json(stencilc, sample, "--set", f"N={N}")
    want, res, ratios = solve(step)
    check(want is not None and got["converged"] and got["steps"] == want,
          f"{name}, N={N}: the interpreter stops after {got['steps']} iterations "
          f"(converged: {got['converged']}), numpy after {want}")
    check(got["reductions"]["res"] == res,
          f"{name}: the last res is numpy's exactly ({got['reductions']['res']!r} vs {res!r})")
    last, before = ratios[-1], ratios[-2]
    check(abs(last - TOL) > MARGIN * TOL and abs(before - TOL) > MARGIN * TOL,
          f"{name}: res/first(res) = {before:.9g} at iteration {want - 1}, {last:.9g} at {want}: "
          f"both more than {MARGIN:g} (relative) from tol {TOL:g}")
    return want


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: rbgs_vs_jacobi.py STENCILC JACOBI_SAMPLE RBGS_SAMPLE")
    stencilc, jacobi, rbgs = sys.argv[1:]
    b = rhs()
    nj = compare(stencilc, jacobi, "Jacobi", jacobi_step(b))
    nr = compare(stencilc, rbgs, "red-black Gauss-Seidel", rbgs_step(b))
    check(nr < nj, f"N={N}, tol {TOL:g}: red-black Gauss-Seidel {nr} iterations < Jacobi {nj} "
                   f"(ratio {nr / nj:.3f})")


if __name__ == "__main__":
    main()
