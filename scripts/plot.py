#!/usr/bin/python3
"""Pictures of stencilc results: a slice of a saved grid, the residual history of a run, or a
machine's roofline with measured plans on it.

  plot.py slice GRID_FILE -o OUT.png [--axis x|y|z|w] [--index K] [--step N] [--title TEXT]
  plot.py history FILE.csv -o OUT.png [--title TEXT]
  plot.py roofline FILE.json -o OUT.png [--title TEXT]

slice reads a grid saved by `--save GRID=FILE.npy` (the runtime writes the interior in Fortran
order, so np.load(f)[x, y, z] is the cell (x, y, z)) or `--save GRID=FILE.h5` (dataset /GRID
in C order, (n_z, n_y, n_x): transposed on reading; FILE.h5:/DATASET picks a dataset, else the
file must hold exactly one). Dimensions are named x, y, z, w (0 to 3; x is the contiguous one).
  rank 1: a line plot of the values over x;
  rank 2: the whole grid, x across and y up;
  rank 3: the plane with --axis (default z) fixed at --index (default the middle): for z the
          x-y plane, for y the x-z plane, for x the y-z plane;
  rank 4: a plane with two dimensions fixed: --axis (default w) at --index, and the last of the
          others (w, or z when --axis is w) at its middle; the title names both.
The title gives the step of the grid when it is known: --step N, else a `step` attribute of the
HDF5 dataset (or of its file), else the name of a `--save-every` series entry (the dataset
/GRID/000040 of an .h5, the file NAME_000040.npy).
history reads the CSV that `--history FILE.csv` writes (a header `step,NAME,...`, then one line
`STEP,VALUE,...` per step) and draws one curve per column against the step, on a log y axis
when every value is positive.
roofline reads what `ROOFLINE_JSON=FILE bench/temporal.sh` writes: {"peak_flops": F,
"bandwidths": {"L1": B, "L2": B, "L3": B, "memory": B} (bytes/s, any of them), "points":
[{"name", "plan", "flops_per_cell", "bytes_per_cell", "cells_per_second"}, ...], "title"
(optional)}, and draws on log axes the roof of each level, min(F, I x B) against the arithmetic
intensity I (flop/byte), and each point at its naive sweep's intensity (flops over the bytes one
cell-update streams from memory) and its measured flop/s: a plan above the memory roof reuses
data from cache (temporal blocking).

Images are 800 x 600 pixels, drawn with matplotlib's Agg backend (no display needed). Errors
(a missing file, a file that is not a grid, a bad --axis or --index, a malformed CSV) are
printed as `error: message` on stderr with exit status 1; command-line usage errors exit 2.
Needs Debian's python3-numpy and python3-matplotlib (python3-h5py for .h5 files only).
"""

import argparse
import csv
import math
import os
import re
import sys

NPY_MAGIC = b"\x93NUMPY"
HDF5_MAGIC = b"\x89HDF\r\n\x1a\n"
AXES = "xyzw"
WIDTH, HEIGHT, DPI = 800, 600, 100


class UserError(Exception):
    """A problem with the user's input: printed as `error: message`, exit status 1."""


def split_h5_path(spec):
    """FILE.h5:/DATASET -> (FILE.h5, /DATASET); a path that exists as it is has no dataset."""
    if os.path.exists(spec) or ":" not in spec:
        return spec, None
    path, dataset = spec.rsplit(":", 1)
    return path, dataset or None


def read_magic(path):
    try:
        with open(path, "rb") as f:
            return f.read(8)
    except OSError as e:
        raise UserError(f"cannot read '{path}': {e.strerror}") from None


def load_npy(path):
    import numpy as np

    try:
        return np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError) as e:
        raise UserError(f"'{path}' is not a readable .npy grid: {e}") from None


def load_h5(path, dataset):
    try:
        import h5py
    except ImportError:
        raise UserError(f"reading '{path}' needs h5py (Debian: python3-h5py)") from None
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise UserError(f"'{path}' is not a readable HDF5 file: {e}") from None
    with f:
        if dataset is None:
            found = []
            f.visititems(lambda name, obj: found.append("/" + name)
                         if isinstance(obj, h5py.Dataset) else None)
            if len(found) != 1:
                listed = ", ".join(found) if found else "none"
                raise UserError(f"'{path}' holds {len(found)} datasets ({listed}): name one as "
                                f"{path}:/DATASET")
            dataset = found[0]
        obj = f.get(dataset)
        if not isinstance(obj, h5py.Dataset):
            raise UserError(f"'{path}' has no dataset '{dataset}'")
        step = obj.attrs.get("step", f.attrs.get("step"))
        if step is not None and (getattr(step, "ndim", 0) != 0 or not float(step).is_integer()):
            step = None  # not a step number
        if step is None:
            step = series_step(dataset, r"^/?[^/]+/(\d{6,})$")
        # stencilc writes C order (n_z, n_y, n_x): transposed, it is indexed [x, y, z] like .npy.
        return obj[()].T, dataset, step


def series_step(name, pattern):
    """The step in the name of an entry of a --save-every series (runtime/src/output.cpp
    numbers them %06d), or None."""
    m = re.search(pattern, name)
    return int(m.group(1)) if m else None


def load_grid(spec):
    """The grid as a numpy array indexed [x, y, z, w], a name for it, and its step (None: not
    known)."""
    import numpy as np

    path, dataset = split_h5_path(spec)
    magic = read_magic(path)
    if magic.startswith(NPY_MAGIC):
        if dataset is not None:
            raise UserError(f"'{path}' is a .npy file: it has no datasets (':{dataset}')")
        name = os.path.splitext(os.path.basename(path))[0]
        data, step = load_npy(path), series_step(name, r"_(\d{6,})$")
    elif magic == HDF5_MAGIC:
        data, name, step = load_h5(path, dataset)
        name = name.lstrip("/")
    else:
        raise UserError(f"'{path}' is not a grid file (neither .npy nor HDF5)")
    data = np.asarray(data)
    if data.dtype.kind not in "iuf":
        raise UserError(f"'{spec}' holds {data.dtype} values, not numbers")
    if not 1 <= data.ndim <= 4:
        raise UserError(f"'{spec}' has rank {data.ndim}: grids have rank 1 to 4")
    if data.size == 0:
        raise UserError(f"'{spec}' is empty (shape {data.shape})")
    return data, name, step


def parse_index(text):
    try:
        return int(text)
    except ValueError:
        raise UserError(f"--index {text}: not an integer") from None


def plane(data, axis, index):
    """Two dimensions of a rank-3 or rank-4 grid: (2D array [a, b], names of a and b, what was
    fixed as text)."""
    rank = data.ndim
    names = AXES[:rank]
    if axis is None:
        axis = "z" if rank == 3 else "w"
    if axis not in names:
        raise UserError(f"--axis {axis}: a grid of rank {rank} has axes {', '.join(names)}")
    d = names.index(axis)
    n = data.shape[d]
    k = n // 2 if index is None else parse_index(index)
    if not 0 <= k < n:
        raise UserError(f"--index {k}: {axis} has {n} cells (0 to {n - 1})")
    fixed = {d: k}
    if rank == 4:
        other = 3 if d != 3 else 2
        fixed[other] = data.shape[other] // 2
    kept = [i for i in range(rank) if i not in fixed]
    sel = tuple(fixed.get(i, slice(None)) for i in range(rank))
    what = ", ".join(f"{AXES[i]} = {fixed[i]} of {data.shape[i]}" for i in sorted(fixed))
    return data[sel], (AXES[kept[0]], AXES[kept[1]]), what


def slice_command(args):
    data, name, step = load_grid(args.grid)
    import numpy as np

    step = args.step if args.step is not None else step
    if data.ndim <= 2 and (args.axis is not None or args.index is not None):
        raise UserError(f"--axis and --index select a plane of a grid of rank 3 or 4; "
                        f"'{args.grid}' has rank {data.ndim}")
    what = ""
    if data.ndim == 2:
        values, (a, b) = data, ("x", "y")
    elif data.ndim > 2:
        values, (a, b), what = plane(data, args.axis, args.index)
    if data.ndim > 1 and not np.isfinite(values).any():
        raise UserError(f"'{args.grid}' has no finite value in this plane")
    fig, plt = new_figure()
    ax = fig.add_subplot()
    if data.ndim == 1:
        ax.plot(np.arange(data.shape[0]), data)
        ax.set_xlabel("x")
        ax.set_ylabel(name)
        ax.grid(True, alpha=0.3)
    else:
        # values[a, b]: a across, b up.
        image = ax.imshow(values.T, origin="lower", aspect="equal", interpolation="nearest",
                          cmap="viridis")
        ax.set_xlabel(a)
        ax.set_ylabel(b)
        # A colour bar as tall as the picture.
        from mpl_toolkits.axes_grid1 import make_axes_locatable

        bar = make_axes_locatable(ax).append_axes("right", size="4%", pad=0.15)
        fig.colorbar(image, cax=bar, label=name)
    title = slice_title(name, step, data.shape, what)
    ax.set_title(args.title if args.title is not None else title)
    save(fig, plt, args.output)


def slice_title(name, step, shape, what):
    """The name, the step if known, the shape and the plane cut:
    'u at step 100 (48 x 32 x 8), z = 4 of 8'."""
    at = f" at step {int(step)}" if step is not None else ""
    dims = " x ".join(str(n) for n in shape)
    return f"{name}{at} ({dims})" + (f", {what}" if what else "")


def read_history(path):
    """Steps and {column: values} from a --history CSV."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise UserError(f"cannot read '{path}': {e.strerror}") from None
    except (UnicodeDecodeError, csv.Error) as e:
        raise UserError(f"'{path}' is not a CSV file: {e}") from None
    if not rows or rows[0][:1] != ["step"] or len(rows[0]) < 2:
        raise UserError(f"{path}:1: expected a header 'step,NAME,...' (the format of --history)")
    header = rows[0]
    if any(not h for h in header):
        raise UserError(f"{path}:1: empty column name in the header")
    steps, columns = [], [[] for _ in header[1:]]
    for line, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        if len(row) != len(header):
            raise UserError(f"{path}:{line}: {len(row)} fields, the header has {len(header)}")
        try:
            steps.append(int(row[0]))
            values = [float(v) for v in row[1:]]
        except ValueError:
            raise UserError(f"{path}:{line}: not a step and numbers: {','.join(row)}") from None
        for c, v in zip(columns, values):
            c.append(v)
    if not steps:
        raise UserError(f"'{path}' has no steps to plot (only a header)")
    return steps, dict(zip(header[1:], columns))


def log_axis(columns):
    """A log y axis when every value (NaN aside: never computed) is positive."""
    known = [v for values in columns.values() for v in values if not math.isnan(v)]
    return bool(known) and all(v > 0 for v in known)


def history_command(args):
    steps, columns = read_history(args.csv)
    fig, plt = new_figure()
    ax = fig.add_subplot()
    for name, values in columns.items():
        ax.plot(steps, values, label=name, marker="." if len(steps) < 50 else None)
    if log_axis(columns):
        ax.set_yscale("log")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("step")
    ax.set_ylabel("value")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    ax.set_title(args.title if args.title is not None else os.path.basename(args.csv))
    save(fig, plt, args.output)


def read_roofline(path):
    import json

    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise UserError(f"cannot read '{path}': {e.strerror}") from None
    except ValueError as e:
        raise UserError(f"'{path}' is not JSON: {e}") from None
    try:
        peak = float(data["peak_flops"])
        roofs = {str(k): float(v) for k, v in data["bandwidths"].items()}
        points = [(str(p["name"]), str(p.get("plan", "")), float(p["flops_per_cell"]),
                   float(p["bytes_per_cell"]), float(p["cells_per_second"]))
                  for p in data["points"]]
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise UserError(f"'{path}': not a roofline file (peak_flops, bandwidths, points): "
                        f"missing or bad {e}") from None
    if peak <= 0 or not roofs or any(b <= 0 for b in roofs.values()):
        raise UserError(f"'{path}': peak_flops and every bandwidth must be positive")
    if any(f <= 0 or b <= 0 or c <= 0 for _, _, f, b, c in points):
        raise UserError(f"'{path}': a point's flops, bytes and cells per second must be positive")
    return peak, roofs, points, data.get("title")


def roofline_command(args):
    peak, roofs, points, title = read_roofline(args.json)
    fig, plt = new_figure()
    ax = fig.add_subplot()
    lo = min([0.05] + [f / b / 4 for _, _, f, b, _ in points])
    hi = max([50.0] + [f / b * 4 for _, _, f, b, _ in points])
    xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    for level, bw in sorted(roofs.items(), key=lambda kv: kv[1]):
        ax.plot(xs, [min(peak, x * bw) for x in xs], label=f"{level} {bw / 1e9:.3g} GB/s")
    ax.axhline(peak, color="gray", linestyle=":", label=f"vector peak {peak / 1e9:.3g} Gflop/s")
    for i, (name, plan, f, b, c) in enumerate(points):
        ax.plot([f / b], [c * f], marker="o", linestyle="none", color=f"C{(i + len(roofs)) % 10}",
                label=f"{name}: {plan}" if plan else name)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity of the naive sweep (flop/byte from memory)")
    ax.set_ylabel("flop/s")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title(args.title if args.title is not None else (title or os.path.basename(args.json)),
                 fontsize=9)
    save(fig, plt, args.output)


def new_figure():
    try:
        import matplotlib
    except ImportError:
        # A python of its own (pyenv, a venv) first on PATH lacks Debian's packages.
        raise UserError(f"this python ({sys.executable}) has no matplotlib: install Debian's "
                        "python3-matplotlib and run scripts/plot.py itself (its first line "
                        "runs /usr/bin/python3)")

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt.figure(figsize=(WIDTH / DPI, HEIGHT / DPI), dpi=DPI), plt


def save(fig, plt, output):
    try:
        fig.savefig(output, format="png", dpi=DPI)
    except OSError as e:
        raise UserError(f"cannot write '{output}': {e.strerror}") from None
    finally:
        plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="plot.py", description=__doc__.split("\n\n", 1)[0],
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="{slice,history,roofline}")
    s = sub.add_parser("slice", help="a 2D slice (or the line) of a saved grid")
    s.add_argument("grid", metavar="GRID_FILE", help="FILE.npy, FILE.h5 or FILE.h5:/DATASET")
    s.add_argument("-o", "--output", required=True, metavar="OUT.png", help="PNG to write")
    s.add_argument("--axis", metavar="x|y|z|w",
                   help="the dimension fixed to cut the plane (rank 3: default z; rank 4: w)")
    s.add_argument("--index", metavar="K",
                   help="where along --axis (0-based; default: the middle)")
    s.add_argument("--step", type=int, metavar="N",
                   help="the step the grid was saved at, for the title")
    s.add_argument("--title", help="title of the picture (default: name, step, shape, slice)")
    s.set_defaults(run=slice_command)
    h = sub.add_parser("history", help="the residual history a run wrote with --history")
    h.add_argument("csv", metavar="FILE.csv", help="header 'step,NAME,...', one line per step")
    h.add_argument("-o", "--output", required=True, metavar="OUT.png", help="PNG to write")
    h.add_argument("--title", help="title of the picture (default: the file name)")
    h.set_defaults(run=history_command)
    r = sub.add_parser("roofline", help="the roofline of a machine with measured plans on it")
    r.add_argument("json", metavar="FILE.json", help="as ROOFLINE_JSON=FILE bench/temporal.sh writes")
    r.add_argument("-o", "--output", required=True, metavar="OUT.png", help="PNG to write")
    r.add_argument("--title", help="title of the picture (default: the file's title)")
    r.set_defaults(run=roofline_command)
    args = parser.parse_args(argv)
    try:
        args.run(args)
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
