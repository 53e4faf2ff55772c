#!/usr/bin/python3
"""Second-order convergence of the Poisson samples to their manufactured solution.

    poisson_convergence.py STENCILC SAMPLE

The sample solves -lap(u) = f on the unit cube with u* = sin(pi x) sin(pi y) sin(pi z), N
interior points per dimension, h = 1/(N+1). Going from N to 2N+1 halves h exactly, so with a
second-order scheme the max-norm error `err` (max |u - u*|, a reduction of the sample) drops by
about 4. The iteration is run to ||r||/||r0|| < 1e-10 so that the iteration error (about
cond(A) * 1e-10 ~ 1e-8 relative) is far below the discretisation error (~1e-3). Checks, for
N = 3 -> 7 -> 15: the run converged, and each error ratio lies in [3.5, 4.5].
"""
import sys

from common import check, run_json

SIZES = [3, 7, 15]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: poisson_convergence.py STENCILC SAMPLE")
    stencilc, sample = sys.argv[1:]
    errs = []
    for n in SIZES:
        got = run_json(stencilc, sample, "--set", f"N={n}", "--set", "tol=1e-10")
        err = got["reductions"]["err"]
        check(got["converged"], f"N={n} (h=1/{n + 1}): converged after {got['steps']} "
                                f"iterations, max error {err:.6e}")
        errs.append(err)
    for (n0, e0), (n1, e1) in zip(zip(SIZES, errs), zip(SIZES[1:], errs[1:])):
        ratio = e0 / e1
        check(3.5 <= ratio <= 4.5, f"error ratio N={n0} -> N={n1} (h halves): {ratio:.4f} "
                                   f"(second order: about 4; accepted [3.5, 4.5])")


if __name__ == "__main__":
    main()
