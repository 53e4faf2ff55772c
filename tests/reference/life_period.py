#!/usr/bin/python3
"""samples/life.stn reproduces known Game of Life patterns (Gardner, 1970).

    life_period.py STENCILC SAMPLE

The sample starts with a blinker (a row of three cells at the centre of the 64 x 64 torus)
and a glider near the origin, far apart. From runs of 0, 1, 2, 4 and 8 generations (--save):
 - the blinker (the 5 x 5 window around the centre) has period 2: state(2) == state(0) and
   state(1) != state(0), and state(1) is the vertical bar;
 - the glider (everything outside that window) is translated by (+1, +1) every 4 generations:
   state(4) == state(0) shifted by (1, 1), state(8) == state(0) shifted by (2, 2), with five
   live cells throughout, and it is not a mere translation after 1 or 2 generations.
"""
import os
import sys
import tempfile

import numpy as np

from common import check, run_json

NX = NY = 64
STEPS = [0, 1, 2, 4, 8]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: life_period.py STENCILC SAMPLE")
    stencilc, sample = sys.argv[1:]
    states = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in STEPS:
            f = os.path.join(tmp, f"cells{n}.npy")
            got = run_json(stencilc, sample, "--set", f"NX={NX}", "--set", f"NY={NY}",
                           "--steps", str(n), "--save", f"cells={f}")
            assert got["steps"] == n
            states[n] = np.load(f)  # states[n][x, y]
    cx, cy = NX // 2, NY // 2
    window = (slice(cx - 2, cx + 3), slice(cy - 2, cy + 3))

    def blinker(n):
        return states[n][window]

    def glider(n):
        g = states[n].copy()
        g[window] = 0
        return g

    horizontal = np.zeros((5, 5), dtype=np.int32)
    horizontal[1:4, 2] = 1          # y == NY/2, x in NX/2-1 .. NX/2+1
    vertical = horizontal.T.copy()
    check(np.array_equal(blinker(0), horizontal), "generation 0: the blinker is the row of three")
    check(np.array_equal(blinker(1), vertical), "generation 1: the blinker is the vertical bar")
    check(np.array_equal(blinker(2), blinker(0)) and not np.array_equal(blinker(1), blinker(0)),
          "the blinker has period 2: state(2) == state(0) != state(1)")
    check(all(glider(n).sum() == 5 for n in STEPS), "the glider keeps 5 live cells")
    for n, shift in ((4, 1), (8, 2)):
        check(np.array_equal(glider(n), np.roll(glider(0), (shift, shift), axis=(0, 1))),
              f"generation {n}: the glider moved by ({shift}, {shift})")
    moved = [np.array_equal(glider(n), np.roll(glider(0), (s, t), axis=(0, 1)))
             for n in (1, 2) for s in range(-2, 3) for t in range(-2, 3)]
    check(not any(moved), "generations 1 and 2 are other phases of the glider, not translations")


if __name__ == "__main__":
    main()
