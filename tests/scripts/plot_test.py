"""Tests of scripts/plot.py: pictures of grids a stencilc run saved, residual histories, and its
errors. Run by ctest (tests/scripts/CMakeLists.txt) with a python3 that has Debian's numpy,
matplotlib and h5py:
  STENCILC=build/bin/stencilc python3 tests/scripts/plot_test.py -v
"""

import contextlib
import importlib.util
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLOT = os.path.join(ROOT, "scripts", "plot.py")
STENCILC = os.environ.get("STENCILC", os.path.join(ROOT, "build", "bin", "stencilc"))

spec = importlib.util.spec_from_file_location("plot", PLOT)
plot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plot)


def run_script(*args):
    """plot.py as a command."""
    return subprocess.run([sys.executable, PLOT, *args], capture_output=True, text=True)


def run_plot(*args):
    """plot.py's main() in this process (faster: matplotlib is imported once)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = plot.main(list(args))
        except SystemExit as e:  # argparse: --help, usage errors
            code = e.code
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


class PlotTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def assert_picture(self, png):
        """A real PNG of 800 x 600 pixels whose pixels are not all alike."""
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        import matplotlib.image

        pixels = matplotlib.image.imread(png)
        self.assertEqual(pixels.shape[:2], (600, 800))
        colours = np.unique(pixels.reshape(-1, pixels.shape[2]), axis=0)
        self.assertGreater(len(colours), 50, "hardly any colours: a blank picture?")
        self.assertGreater(pixels[..., :3].std(), 0.05)

    def assert_error(self, result, message):
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(result.stdout, "")
        self.assertTrue(result.stderr.startswith("error: "), result.stderr)
        self.assertIn(message, result.stderr)
        self.assertNotIn("Traceback", result.stderr)

    def saved_grid(self, sample, grid, *options):
        """Runs a sample with the interpreter and saves one grid as .npy."""
        npy = self.path(grid + ".npy")
        subprocess.run([STENCILC, "run", os.path.join(ROOT, "samples", sample + ".stn"),
                        *options, "--save", f"{grid}={npy}"], check=True, capture_output=True)
        return npy

    # --- slice ---

    def test_slice_of_a_saved_2d_grid(self):
        # A Gaussian bump spreading as a wave on a 48 x 32 membrane.
        npy = self.saved_grid("wave2d", "u", "--set", "NX=48", "--set", "NY=32", "--steps", "8")
        self.assertEqual(np.load(npy).shape, (48, 32))
        result = run_script("slice", npy, "-o", self.path("u.png"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout + result.stderr, "")
        self.assert_picture(self.path("u.png"))

    def test_slice_of_a_saved_3d_grid_along_each_axis(self):
        npy = self.saved_grid("heat3d", "u", "--set", "NX=12", "--set", "NY=10", "--set", "NZ=8",
                              "--steps", "2", "--init-random", "1")
        for axis, index in (("z", None), ("y", "0"), ("x", "11")):
            with self.subTest(axis=axis):
                png = self.path(f"u_{axis}.png")
                args = ["slice", npy, "-o", png, "--axis", axis, "--title", f"u, {axis} cut"]
                result = run_plot(*(args + (["--index", index] if index else [])))
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assert_picture(png)

    def test_line_plot_of_a_rank_1_grid(self):
        npy = self.saved_grid("jacobi1d", "u", "--set", "N=64", "--steps", "3",
                              "--init-random", "2")
        result = run_plot("slice", npy, "-o", self.path("u.png"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assert_picture(self.path("u.png"))

    def test_planes_hold_the_right_cells(self):
        # data[x, y, z, w] = 1000 x + 100 y + 10 z + w: every cell says where it is.
        data = np.fromfunction(lambda x, y, z, w: 1000 * x + 100 * y + 10 * z + w, (5, 6, 7, 8))
        values, names, what = plot.plane(data[..., 0], None, None)  # rank 3: z fixed, middle
        self.assertEqual(names, ("x", "y"))
        self.assertEqual(what, "z = 3 of 7")
        np.testing.assert_array_equal(values, data[:, :, 3, 0])
        values, names, _ = plot.plane(data[..., 0], "y", "2")
        self.assertEqual(names, ("x", "z"))
        np.testing.assert_array_equal(values, data[:, 2, :, 0])
        values, names, _ = plot.plane(data[..., 0], "x", "4")
        self.assertEqual(names, ("y", "z"))
        self.assertEqual(values[1, 2], 4000 + 100 + 20)
        # Rank 4: the default fixes w (--index) and z (its middle).
        values, names, what = plot.plane(data, None, "5")
        self.assertEqual(names, ("x", "y"))
        self.assertEqual(what, "z = 3 of 7, w = 5 of 8")
        np.testing.assert_array_equal(values, data[:, :, 3, 5])
        values, names, what = plot.plane(data, "w", None)
        self.assertEqual(what, "z = 3 of 7, w = 4 of 8")
        values, names, what = plot.plane(data, "y", "1")
        self.assertEqual(names, ("x", "z"))
        self.assertEqual(what, "y = 1 of 6, w = 4 of 8")
        np.testing.assert_array_equal(values, data[:, 1, :, 4])

    def test_rank_4_picture(self):
        npy = self.path("g.npy")
        np.save(npy, np.asfortranarray(np.random.default_rng(1).random((6, 7, 5, 4))))
        result = run_plot("slice", npy, "-o", self.path("g.png"), "--axis", "z", "--index", "1")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assert_picture(self.path("g.png"))

    def test_h5_grid_is_the_npy_grid(self):
        import h5py

        npy = self.saved_grid("heat3d", "u", "--set", "NX=6", "--set", "NY=5", "--set", "NZ=4",
                              "--init-random", "3", "--steps", "1")
        u = np.load(npy)
        h5 = self.path("u.h5")
        with h5py.File(h5, "w") as f:  # as stencilc writes it: C order (n_z, n_y, n_x)
            f["u"] = np.ascontiguousarray(u.T)
        data, name, step = plot.load_grid(h5)
        self.assertEqual((name, step), ("u", None))
        np.testing.assert_array_equal(data, u)
        two = self.path("two.h5")
        with h5py.File(two, "w") as f:
            f["u"] = np.ascontiguousarray(u.T)
            f["v"] = np.ascontiguousarray(2 * u.T)
        data, name, step = plot.load_grid(two + ":/v")
        self.assertEqual((name, step), ("v", None))
        np.testing.assert_array_equal(data, 2 * u)
        result = run_plot("slice", two + ":/v", "-o", self.path("v.png"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assert_picture(self.path("v.png"))
        self.assert_error(run_plot("slice", two, "-o", self.path("x.png")),
                          "holds 2 datasets (/u, /v): name one as")
        self.assert_error(run_plot("slice", two + ":/w", "-o", self.path("x.png")),
                          "has no dataset '/w'")

    def test_step_in_the_title(self):
        import h5py

        h5 = self.path("s.h5")
        with h5py.File(h5, "w") as f:
            f["u"] = np.ones((4, 5, 6))
            f["u"].attrs["step"] = 120
        self.assertEqual(plot.load_grid(h5)[2], 120)
        with h5py.File(h5, "a") as f:  # a step attribute of the file, and one that is no step
            del f["u"].attrs["step"]
            f.attrs["step"] = 7
            f["v"] = np.ones((2, 3))
            f["v"].attrs["step"] = [1, 2]
        self.assertEqual(plot.load_grid(h5 + ":/u")[2], 7)
        self.assertIsNone(plot.load_grid(h5 + ":/v")[2])
        self.assertEqual(plot.slice_title("u", 120, (6, 5, 4), "z = 2 of 4"),
                         "u at step 120 (6 x 5 x 4), z = 2 of 4")
        self.assertEqual(plot.slice_title("u", None, (6, 5), ""), "u (6 x 5)")
        npy = self.path("u.npy")
        np.save(npy, np.asfortranarray(np.random.default_rng(4).random((8, 6))))
        result = run_plot("slice", npy, "-o", self.path("u.png"), "--step", "40")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assert_picture(self.path("u.png"))

    def test_series_entries_know_their_step(self):
        # A --save-every series as stencilc writes it: /u/000003 ... in the .h5, u_000003.npy ...
        h5, npy = self.path("u.h5"), self.path("u.npy")
        subprocess.run([STENCILC, "run", os.path.join(ROOT, "samples", "heat3d.stn"), "--set",
                        "NX=6", "--set", "NY=5", "--set", "NZ=4", "--init-random", "5", "--steps",
                        "6", "--save-every", "3", "--save", f"u={h5}", "--save", f"u={npy}"],
                       check=True, capture_output=True)
        for step in (3, 6):
            data, name, found = plot.load_grid(f"{h5}:/u/{step:06d}")
            self.assertEqual((name, found), (f"u/{step:06d}", step))
            entry = self.path(f"u_{step:06d}.npy")
            np.testing.assert_array_equal(data, np.load(entry))
            self.assertEqual(plot.load_grid(entry)[1:], (f"u_{step:06d}", step))
        self.assert_error(run_plot("slice", h5, "-o", self.path("x.png")),
                          "holds 2 datasets (/u/000003, /u/000006): name one as")

    # --- history ---

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def test_history(self):
        lines = ["step,res,err"] + [f"{s},{0.5 ** s:.17g},{1 + 1 / s:.17g}" for s in range(1, 41)]
        csv = self.write("h.csv", "\n".join(lines) + "\n")
        result = run_script("history", csv, "-o", self.path("h.png"), "--title", "Jacobi")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assert_picture(self.path("h.png"))
        steps, columns = plot.read_history(csv)
        self.assertEqual(steps, list(range(1, 41)))
        self.assertEqual(list(columns), ["res", "err"])
        self.assertEqual(columns["res"][2], 0.125)

    def test_history_log_axis_only_for_positive_values(self):
        self.assertTrue(plot.log_axis({"r": [1.0, 1e-9, float("nan")]}))
        self.assertFalse(plot.log_axis({"r": [1.0, 0.0]}))
        self.assertFalse(plot.log_axis({"r": [1.0], "s": [-2.0]}))
        self.assertFalse(plot.log_axis({"r": [float("nan")]}))

    def test_history_nan_values(self):
        # %.17g prints a reduction never computed as nan (or -nan).
        csv = self.write("n.csv", "step,res\n1,nan\n2,-nan\n3,0.5\n4,0.25\n5,inf\n")
        steps, columns = plot.read_history(csv)
        self.assertEqual(steps, [1, 2, 3, 4, 5])
        self.assertTrue(np.isnan(columns["res"][1]))
        result = run_plot("history", csv, "-o", self.path("n.png"))
        self.assertEqual(result.returncode, 0, result.stderr)

    # --- roofline ---

    def roofline_json(self, **changes):
        data = {"title": "t", "peak_flops": 4.0e11,
                "bandwidths": {"L1": 5e11, "L2": 3.5e11, "L3": 5e10, "memory": 2.5e10},
                "points": [{"name": "heat3d", "plan": "scheme=temporal,k=6,rows=32",
                            "flops_per_cell": 8, "bytes_per_cell": 12, "cells_per_second": 5e9},
                           {"name": "heat3d naive", "plan": "scheme=naive",
                            "flops_per_cell": 8, "bytes_per_cell": 12,
                            "cells_per_second": 2.1e9}]}
        data.update(changes)
        return self.write("r.json", json.dumps(data))

    def test_roofline(self):
        js = self.roofline_json()
        result = run_script("roofline", js, "-o", self.path("r.png"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assert_picture(self.path("r.png"))
        peak, roofs, points, title = plot.read_roofline(js)
        self.assertEqual(peak, 4e11)
        self.assertEqual(roofs["memory"], 2.5e10)
        self.assertEqual(points[0], ("heat3d", "scheme=temporal,k=6,rows=32", 8.0, 12.0, 5e9))
        self.assertEqual(title, "t")

    def test_roofline_errors(self):
        self.assert_error(run_plot("roofline", self.path("none.json"), "-o", self.path("x.png")),
                          "cannot read")
        bad = self.write("bad.json", "{")
        self.assert_error(run_plot("roofline", bad, "-o", self.path("x.png")), "is not JSON")
        for changes, message in (({"peak_flops": None}, "not a roofline file"),
                                 ({"bandwidths": {"memory": 0}}, "must be positive"),
                                 ({"points": [{"name": "x"}]}, "not a roofline file"),
                                 ({"points": [{"name": "x", "flops_per_cell": 8,
                                               "bytes_per_cell": 12, "cells_per_second": 0}]},
                                  "must be positive")):
            js = self.roofline_json(**changes)
            self.assert_error(run_plot("roofline", js, "-o", self.path("x.png")), message)
        self.assertFalse(os.path.exists(self.path("x.png")))

    def test_roofline_without_matplotlib(self):
        # -S leaves out site-packages, so matplotlib too: as a python of its own first on PATH.
        result = subprocess.run([sys.executable, "-S", PLOT, "roofline", self.roofline_json(),
                                 "-o", self.path("r.png")], capture_output=True, text=True)
        self.assert_error(result, "has no matplotlib")
        self.assertFalse(os.path.exists(self.path("r.png")))

    # --- errors ---

    def truncated(self, npy):
        with open(npy, "rb") as f:
            head = f.read(200)
        with open(self.path("short.npy"), "wb") as f:
            f.write(head)
        return self.path("short.npy")

    def test_errors(self):
        npy3 = self.path("g3.npy")
        np.save(npy3, np.asfortranarray(np.ones((4, 5, 6), dtype=np.float32)))
        npy2 = self.path("g2.npy")
        np.save(npy2, np.ones((4, 5)))
        nan2 = self.path("nan2.npy")
        np.save(nan2, np.full((4, 5), np.nan))
        out = self.path("out.png")
        cases = [
            (["slice", self.path("missing.npy"), "-o", out], "cannot read"),
            (["slice", self.write("text.npy", "not a grid\n"), "-o", out], "is not a grid file"),
            (["slice", self.truncated(npy3), "-o", out], "is not a readable .npy grid"),
            (["slice", npy3, "-o", out, "--axis", "w"],
             "--axis w: a grid of rank 3 has axes x, y, z"),
            (["slice", npy3, "-o", out, "--axis", "q"], "--axis q: a grid of rank 3 has axes"),
            (["slice", npy3, "-o", out, "--index", "6"], "--index 6: z has 6 cells (0 to 5)"),
            (["slice", npy3, "-o", out, "--index", "-1"], "--index -1: z has 6 cells"),
            (["slice", npy3, "-o", out, "--index", "two"], "--index two: not an integer"),
            (["slice", npy2, "-o", out, "--axis", "x"], "select a plane of a grid of rank 3 or 4"),
            (["slice", npy3 + ":/u", "-o", out], "is a .npy file: it has no datasets"),
            (["slice", nan2, "-o", out], "has no finite value in this plane"),
            (["slice", npy3, "-o", os.path.join(self.dir, "no", "dir.png")], "cannot write"),
            (["history", self.path("missing.csv"), "-o", out], "cannot read"),
            (["history", self.write("e.csv", ""), "-o", out], "expected a header 'step,NAME,...'"),
            (["history", self.write("h.csv", "it,res\n1,2\n"), "-o", out], "expected a header"),
            (["history", self.write("o.csv", "step,res\n"), "-o", out], "has no steps to plot"),
            (["history", self.write("f.csv", "step,res\n1,2\n2,3,4\n"), "-o", out],
             "f.csv:3: 3 fields, the header has 2"),
            (["history", self.write("x.csv", "step,res\n1,abc\n"), "-o", out],
             "x.csv:2: not a step and numbers: 1,abc"),
            (["history", npy3, "-o", out], "is not a CSV file"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                self.assert_error(run_plot(*args), message)
        self.assertFalse(os.path.exists(out))
        # The same as a command: the message on stderr, exit status 1.
        self.assert_error(run_script("slice", npy3, "-o", out, "--index", "6"), "--index 6: z has")

    def test_usage(self):
        result = run_script("--help")
        self.assertEqual(result.returncode, 0)
        for word in ("slice GRID_FILE", "history FILE.csv", "--axis", "--index", ".h5", "Agg"):
            self.assertIn(word, result.stdout)
        self.assertEqual(run_plot("slice", "--help").returncode, 0)
        self.assertEqual(run_script("slice", "u.npy").returncode, 2)  # no -o
        self.assertEqual(run_plot("pie", "u.npy", "-o", "x.png").returncode, 2)


if __name__ == "__main__":
    unittest.main()
