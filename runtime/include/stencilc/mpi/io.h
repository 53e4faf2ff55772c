// Collective parallel I/O of the MPI runtime: every rank reads and writes its own block of a
// grid's file, nothing is gathered to one rank. .npy files through MPI-IO (rank 0 writes the
// header, every rank its block through a subarray file view), .h5 files through parallel HDF5
// (the mpio driver, hyperslab selections, collective transfers; Debian's Open MPI flavour of
// libhdf5, whose headers stay inside the runtime). The files are the bytes the core's writers
// make of the whole grid (npy.h, hdf5.h), whatever the number of ranks and the split.
//
// Every function here is collective (every rank calls it alike) and reports what goes wrong
// as a CollectiveError on every rank, with the message of the first rank that found it.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "stencilc/grid.h"
#include "stencilc/mpi/comm.h"
#include "stencilc/output.h"

namespace stencilc::mpi {

/// --load of one grid: this rank's block of a .npy or HDF5 file (by the name, as load_grid).
template <typename T>
void load(const Cart &c, Grid<T> &local, const Part &p, const std::string &path);
/// --save of one grid: every rank writes its block of the file save_grid writes (for HDF5,
/// rank 0 then writes the XDMF sidecar).
template <typename T>
void save(const Cart &c, const Grid<T> &local, const Part &p, const std::string &path);

/// Writes the global grid whose block `local` is as save_grid writes a .npy file.
template <typename T>
void npy_save(const Cart &c, const Grid<T> &local, const Part &p, const std::string &path);
/// Reads this rank's block of a .npy file: rank 0 reads and checks the header alone (load_grid's
/// checks against the global grid), every rank learns the verdict before reading its block.
template <typename T>
void npy_load(const Cart &c, Grid<T> &local, const Part &p, const std::string &path);
/// Reads this rank's block of the dataset "/NAME" of an HDF5 file (h5_load_grid's checks).
template <typename T>
void h5_load(const Cart &c, Grid<T> &local, const Part &p, const std::string &path);

/// A grid's block on this rank and where it lies in the global grid, by the grid's name.
using BlockOf = std::function<std::pair<GridRef, const Part *>(const std::string &grid)>;
/// Creates the HDF5 file `path`, replacing an existing one; its write() writes every rank's
/// block of blocks(grid) as H5File::write writes the whole grid.
std::unique_ptr<GridFile> create_h5(const Cart &c, const std::string &path, BlockOf blocks);

} // namespace stencilc::mpi
