#!/usr/bin/python3
"""samples/life.stn reproduces known Game of Life patterns (Gardner, 1970), across the torus wrap.

    life_period.py STENCILC SAMPLE

The sample starts with a blinker (a row of three cells at the centre of the 64 x 64 torus)
and a glider near the origin, far apart. From runs of 0, 1, 2, 4 and 8 generations (--save):
 - the blinker (the 5 x 5 window around the centre) has period 2: state(2) == state(0) and
   state(1) != state(0), and state(1) is the vertical bar;
 - the glider (everything outside that window) is translated by (+1, +1) every 4 generations:
   state(4) == state(0) shifted by (1, 1), state(8) == state(0) shifted by (2, 2), with five
   live cells throughout, and it is not a mere translation after 1 or 2 generations.
That glider never reaches an edge, so those runs would pass with any boundary. So the script
also --loads a state of its own: the same blinker and the same glider moved next to the high x
edge, on a diagonal 16 cells off the blinker's (they never meet). One run of 256 generations,
saved every 4 (--save-every), must give exactly
   state(4n) == blinker + the initial glider np.roll'ed by (n, n),   n = 1 .. 64,
so the glider crosses the x wrap (n = 2, 3), later the y wrap (n = 18, 19), and after 64
shifts, once around the torus, the state is the initial one again.

.npy files index grids as the language does: --save writes Fortran order, shape (NX, NY), so
np.load(f)[x, y] is cells[x, y]; --load takes the same (np.asfortranarray of an [x, y] array).
"""
import os
import sys
import tempfile

import numpy as np

from common import check, run_json

NX = NY = 64
STEPS = [0, 1, 2, 4, 8]
START = (59, 43)     # the sample's glider (x, y in 1 .. 3) rolled to x in 60 .. 62, y in 44 .. 46
LAPS = NX            # 4 * 64 generations: 64 shifts, once around the torus
SIZE = ["--set", f"NX={NX}", "--set", f"NY={NY}"]


def straddles(cells, axis, n):
    """Whether the live cells touch both the last and the first row of the axis."""
    occupied = cells.any(axis=1 - axis)
    return bool(occupied[0] and occupied[n - 1])


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: life_period.py STENCILC SAMPLE")
    stencilc, sample = sys.argv[1:]
    states = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in STEPS:
            f = os.path.join(tmp, f"cells{n}.npy")
            got = run_json(stencilc, sample, *SIZE, "--steps", str(n), "--save", f"cells={f}")
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

        # The state to --load: the sample's blinker, its glider moved next to the high x edge.
        blinker0 = states[0] - glider(0)
        glider0 = np.roll(glider(0), START, axis=(0, 1))
        start = blinker0 + glider0
        start_file = os.path.join(tmp, "start.npy")
        np.save(start_file, np.asfortranarray(start.astype(np.int32)))
        loaded_file = os.path.join(tmp, "loaded.npy")
        run_json(stencilc, sample, *SIZE, "--load", f"cells={start_file}", "--steps", "0",
                 "--save", f"cells={loaded_file}")
        loaded = np.load(loaded_file)
        series = os.path.join(tmp, "wrap.npy")
        got = run_json(stencilc, sample, *SIZE, "--load", f"cells={start_file}",
                       "--steps", str(4 * LAPS), "--save-every", "4", "--save", f"cells={series}")
        assert got["steps"] == 4 * LAPS
        wrap = {n: np.load(os.path.join(tmp, f"wrap_{4 * n:06d}.npy")) for n in range(1, LAPS + 1)}

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

    # Across the wrap, from the loaded state.
    check(np.array_equal(loaded, start),
          f"--load then --save (0 generations) gives back the built state: blinker and glider "
          f"at x {START[0] + 1}..{START[0] + 3}, y {START[1] + 1}..{START[1] + 3}")

    def expected(n):
        return blinker0 + np.roll(glider0, (n, n), axis=(0, 1))

    # The premise: at these shifts the expected glider really lies across the wrap.
    for axis, name, extent in ((0, "x", NX), (1, "y", NY)):
        across = [n for n in range(1, LAPS) if straddles(np.roll(glider0, (n, n), axis=(0, 1)),
                                                         axis, extent)]
        check(len(across) > 0 and all(np.array_equal(wrap[n], expected(n)) for n in across),
              f"generations {', '.join(str(4 * n) for n in across)}: the glider lies across the "
              f"{name} wrap ({name} = {extent - 1} and {name} = 0), exactly shifted by (n, n)")
    wrong = [4 * n for n in range(1, LAPS + 1) if not np.array_equal(wrap[n], expected(n))]
    check(not wrong, f"generations 4n, n = 1 .. {LAPS}: state == blinker + glider rolled by "
                     f"(n, n)" + (f"; differs at generation(s) {wrong[:8]}" if wrong else ""))
    check(np.array_equal(wrap[LAPS], start),
          f"generation {4 * LAPS}: once around the torus, the initial state again")


if __name__ == "__main__":
    main()
