// Static facts about a checked program: stencil radii (which size the halos), flops and
// distinct loads per point. The performance model and `stencilc check --stats` read these.
#pragma once
#include <string>
#include <vector>

#include "ir/ir.h"

namespace stc {

struct KernelStats {
  int rank = 0;
  ir::Offsets radius{};  // widest read offset per dimension, over all grids read
  int flops = 0;         // floating + - * / and math calls per point (negation, comparisons
                         // and int arithmetic are free); both branches of an if count
  int loads = 0;         // distinct (grid, offset) reads per point
  int grids_read = 0;    // distinct grids read
  int stores = 0;        // grids written per point
  /// Bytes per point when each grid read streams once from memory and each written grid
  /// is read for ownership and written back (no reuse across points beyond the stencil).
  double bytes_streamed = 0;
  double bytes_written = 0; // the part of bytes_streamed that is write-allocate and write-back
};

struct Analysis {
  std::vector<KernelStats> kernels;         // by kernel index
  std::vector<ir::Offsets> grid_radius;     // per grid: widest offset it is read at
};

Analysis analyze(const ir::Program &p);

/// Human-readable table of the analysis (for `stencilc check --stats`).
std::string report(const ir::Program &p, const Analysis &a);

} // namespace stc
