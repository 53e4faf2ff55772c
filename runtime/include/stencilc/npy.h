// .npy (NumPy format v1.0/2.0/3.0) reading and writing, and grid load/save.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "stencilc/grid.h"

namespace stencilc {

struct NpyArray {
  std::string descr;          // e.g. "<f4"
  bool fortran_order = false; //
  std::vector<std::int64_t> shape;
  std::vector<char> data;     // raw little-endian bytes, product(shape) * itemsize
};

/// Reads a whole .npy file. Throws stencilc::Error naming the file on anything malformed:
/// missing file, bad magic, truncated header or data, unparsable header dict, unsupported
/// dtype (only <f4 <f8 <i4 <i8 are read), data size not matching the
/// shape.
NpyArray npy_read(const std::string &path);

/// Writes a .npy v1.0 file (header padded to a multiple of 64 bytes). Throws stencilc::Error
/// if the file cannot be written.
void npy_write(const std::string &path, const std::string &descr, bool fortran_order,
               const std::vector<std::int64_t> &shape, const void *data, std::size_t bytes);

/// The header npy_write and save_grid write before the data (magic, version 1.0, the dict padded
/// to a multiple of 64 bytes). Throws stencilc::Error naming `path` for what it cannot write.
std::string npy_header(const std::string &path, const std::string &descr, bool fortran_order,
                       const std::vector<std::int64_t> &shape);

/// A .npy file's header and where its data start.
struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  std::vector<std::int64_t> shape;
  std::uint64_t data_offset = 0; // bytes before the data
};

/// Reads only the header of a regular .npy file, with npy_read's checks and messages (the
/// data's size included): for readers of parts of the data (MPI-IO).
NpyHeader npy_read_header(const std::string &path);

/// load_grid's checks of a file's dtype, order and shape against a grid named `grid` whose
/// element type is `type` (npy dtype `descr`) and extents `extents`: throws its messages.
/// Either order it accepts stores x fastest, as grids do.
void npy_check_grid(const std::string &path, const NpyHeader &h, const std::string &grid,
                    const std::string &type, const std::string &descr,
                    const std::vector<std::int64_t> &extents);

/// save_grid and load_grid go by the file name: a path ending in .h5 or .hdf5 is an HDF5 file
/// (h5_save_grid and h5_load_grid in hdf5.h), anything else a .npy file as described here.

/// Saves the interior of g as an array whose numpy index order matches the .stn index order:
/// fortran_order=True with shape (extent0, extent1, ...), so np.load(f)[x, y, z] == g[x, y, z].
template <typename T> void save_grid(const Grid<T> &g, const std::string &path);

/// Loads the interior of g from a file written by save_grid, or from a C-order array whose
/// shape is the reversed extents (extentN-1, ..., extent0) unless those read the same both ways
/// (a cube: the C-order array might be indexed either way, an error). The dtype must equal
/// npy_descr<T>() exactly; any dtype, rank or shape mismatch is a stencilc::Error that names the
/// file, the grid, and both the expected and the found dtype/shape. The halo is not touched.
template <typename T> void load_grid(Grid<T> &g, const std::string &path);

/// Element-wise comparison of two .npy files of the same dtype and shape. An element differs
/// when its bytes differ (rel_tol == 0: bit for bit, so 0.0 and -0.0 differ and NaN equals only
/// a NaN of the same bits), or, with rel_tol > 0, when |a - b| > rel_tol * max(|a|, |b|) or
/// exactly one of them is NaN (an infinity equals only itself).
struct NpyDiff {
  double max_abs = 0;    // largest |a - b|
  double max_rel = 0;    // largest |a - b| / max(|a|, |b|, tiny); 0 where both are 0
  double max_mag = 0;    // largest |a| or |b| (NaNs aside): the scale of the arrays
  std::int64_t count = 0; // elements compared
  std::int64_t differing = 0; // elements that differ (see above)
  /// The first differing element in a's storage order: its index in the array's dimensions
  /// (the grid's [x, y, z] for files stencilc writes, which are in Fortran order) and both
  /// values. Empty when none differs.
  std::vector<std::int64_t> first_index;
  double first_a = 0, first_b = 0;
};
/// Throws stencilc::Error if dtypes or shapes differ (or either file is bad).
NpyDiff npy_compare(const std::string &path_a, const std::string &path_b, double rel_tol = 0);

} // namespace stencilc
