#!/usr/bin/python3
"""Red-black Gauss-Seidel reaches the tolerance in fewer iterations than Jacobi.

    rbgs_vs_jacobi.py STENCILC JACOBI_SAMPLE RBGS_SAMPLE

Both samples solve the same Poisson problem with the same stopping rule (||r||/||r0|| < tol,
the default tol = 1e-6). Checks that `stencilc run` prints the iteration count of each
("converged after N iterations"), that both converge, and that red-black Gauss-Seidel needs
fewer iterations (theory: about half, its spectral radius being Jacobi's squared).
"""
import re
import subprocess
import sys

from common import check

N = 16


def iterations(stencilc, sample):
    cmd = [stencilc, "run", sample, "--set", f"N={N}"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    m = re.search(r"converged after (\d+) iterations", out)
    check(m is not None, f"{' '.join(cmd[1:])} prints: "
                         + (m.group(0) if m else f"no iteration count in\n{out.strip()}"))
    return int(m.group(1))


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: rbgs_vs_jacobi.py STENCILC JACOBI_SAMPLE RBGS_SAMPLE")
    stencilc, jacobi, rbgs = sys.argv[1:]
    nj, nr = iterations(stencilc, jacobi), iterations(stencilc, rbgs)
    check(nr < nj, f"N={N}, tol 1e-6: red-black Gauss-Seidel {nr} iterations < Jacobi {nj} "
                   f"(ratio {nr / nj:.3f})")


if __name__ == "__main__":
    main()
