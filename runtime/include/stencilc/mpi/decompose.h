// The arithmetic of a Cartesian decomposition, without MPI (unit-tested on its own): how a
// grid's extents are split over a process grid, the --procs text, and the checks every rank
// makes identically before it allocates anything.
//
// Uneven extents: n cells over p processes give the first n % p processes one cell more
// (n / p + 1), the others n / p, in coordinate order; process c starts at
// c * (n / p) + min(c, n % p).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "stencilc/grid.h"

namespace stencilc::mpi {

/// The cells of one process along one dimension: [offset, offset + count).
struct Block {
  std::int64_t offset = 0;
  std::int64_t count = 0;
};

/// The block of process `c` (0 <= c < p) of n cells split over p.
Block block(std::int64_t n, int p, int c);

/// "2x1x1" -> {2, 1, 1}: x first, like the grid's dimensions. Throws stencilc::Error for
/// anything else (empty, a zero, not a number, more than 4 dimensions).
std::vector<int> parse_procs(const std::string &text);

/// "2x1x1".
std::string procs_text(const std::vector<int> &procs);

/// The process grid for `nranks` processes over `ndims` dimensions: `given` (from --procs) if
/// not empty, checked (its product must be nranks, its length ndims, or 3 of 4: the fourth
/// dimension whole); else `balanced` (what
/// MPI_Dims_create chose, largest first) with the largest factors on the slowest dimensions
/// (the last ones), so that x rows stay whole and messages are long. `whole`: bit d set, the
/// program reads dimension d at absolute indices, so it is not split (given must have 1 there;
/// `balanced` then covers the other dimensions only). Throws stencilc::Error.
std::vector<int> order_procs(int nranks, int ndims, const std::vector<int> &given,
                             const std::vector<int> &balanced, unsigned whole = 0);

/// Why grid `name` (rank `rank`, interior `extent`, ghost depth `halo`) cannot be split over
/// `procs` ("" if it can): more processes than cells along a dimension, a block narrower than
/// the halo it must fill for its neighbour (every block must be at least halo cells wide, as
/// the smallest is n / p), or processes along a dimension the grid does not have.
std::string split_error(const std::vector<int> &procs, const std::string &name, int rank,
                        const Extents &extent, const Halos &halo);

/// Interior cells of colour `colour` (0 = red: even index sum) of a grid of these extents.
std::int64_t colour_cells(int rank, const Extents &extent, int colour);

} // namespace stencilc::mpi
