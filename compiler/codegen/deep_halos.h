// Halos k steps deep on the MPI targets' temporal plans (mpi-openmp's CPU engine, mpi-cuda's
// and mpi-hip's fused GPU steps): each rank widens its block by k steps' reach into halos that
// much deeper in the split dimensions, exchanged once per block of k steps. The generated
// checks that the blocks are deep enough and the halos' sizes, shared by both generators.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace stc {

/// The body of a `std::string temporal_fits__(int k)`: why halos k steps deep cannot be used
/// ("" if they can), the same on every rank (global extents and the process grid): in every
/// dimension split over processes, the smallest block must hold each grid's own halo plus k
/// times `reach(d)`. `extra(d)`: more checks of a split dimension d (statements).
std::string deep_halo_fits(const ir::Program &p, const std::vector<int> &grids, int dims,
                           const std::function<int(int)> &reach,
                           const std::function<std::string(int)> &extra = nullptr);

/// The halos of grid g with k steps' reach added in the split dimensions below `dims`, as the
/// initializer of a stencilc::Halos (k, split__(d) in scope).
std::string deep_halo_list(const ir::Grid &g, int dims, const std::function<int(int)> &reach);

} // namespace stc
