// HDF5 grid files (Debian's serial libhdf5) with the XDMF sidecar ParaView and VisIt open.
//
// A grid's interior is one dataset in C order with the extents reversed: rank 3 is
// (NZ, NY, NX), x fastest, the grid's own memory order. So h5py's f["u"][...] equals
// np.load("u.npy").T for the Fortran-ordered (NX, NY, NZ) .npy that save_grid writes, bit for
// bit. Element types: IEEE 32- and 64-bit floats, 32-bit signed integers, little-endian.
// The libhdf5 headers stay inside the runtime: generated code never includes them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "stencilc/grid.h"

namespace stencilc {

/// Paths ending in .h5 or .hdf5 are HDF5 files; save_grid/load_grid and --save/--load go by it.
bool is_hdf5_path(const std::string &path);
/// The XDMF sidecar of an HDF5 file: the same path with the extension .xmf.
std::string xdmf_path_of(const std::string &h5_path);

/// How an XDMF file next to `h5_path` names one of its datasets: "FILE.h5:/u" (the file name
/// without its directory, so the pair can move together).
std::string xdmf_data_ref(const std::string &h5_path, const std::string &dataset);

/// An HDF5 file being written. Errors are stencilc::Error naming the file (libhdf5's own
/// error stack is not printed).
class H5File {
public:
  /// Creates `path`, replacing an existing file.
  explicit H5File(const std::string &path);
  /// Closes the file, ignoring errors (call close() to see them).
  ~H5File();
  H5File(const H5File &) = delete;
  H5File &operator=(const H5File &) = delete;

  /// Writes g's interior as the dataset `name` ("/u", "/u/000040"), creating the groups on
  /// its path.
  template <typename T> void write(const std::string &name, const Grid<T> &g);
  /// Pushes what was written to the file, so that readers see every dataset so far.
  void flush();
  void close();
  const std::string &path() const { return path_; }

private:
  std::string path_;
  std::int64_t id_ = -1; // hid_t
};

/// Writes grids of equal extents to a new file `path`, each as the dataset "/NAME" (NAME the
/// grid's name), and for ranks 2 and 3 the XDMF sidecar xdmf_path_of(path): one mesh named
/// `mesh` carrying every grid. A file that could not be written whole is removed.
void h5_save_grids(const std::string &path, const std::string &mesh,
                   const std::vector<GridRef> &grids);

/// Writes g's interior to `path` as the dataset "/NAME" (NAME the grid's name) and, for ranks
/// 2 and 3, the XDMF sidecar xdmf_path_of(path) describing it.
template <typename T> void h5_save_grid(const Grid<T> &g, const std::string &path);

/// Reads the dataset "/NAME" of `path` into g's interior (the halo is not touched). The
/// dataset must have the grid's element type (float, double or 32-bit int; any byte order)
/// and the reversed extents (NZ, NY, NX); a missing file or dataset, a file that is not HDF5,
/// another type or shape is a stencilc::Error naming the file, the dataset and both sides.
template <typename T> void h5_load_grid(Grid<T> &g, const std::string &path);

} // namespace stencilc
