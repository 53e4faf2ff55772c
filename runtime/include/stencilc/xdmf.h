// XDMF sidecars of HDF5 grid files: the small XML files ParaView and VisIt open to find the
// mesh and the arrays inside an HDF5 file. Text only; hdf5.h and output.h write them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "stencilc/grid.h"

namespace stencilc {

/// One grid of a mesh: an XDMF Attribute whose data is an HDF5 dataset.
struct XdmfAttribute {
  std::string name; // the array's name in ParaView: the grid's
  std::string data; // "FILE.h5:/u": the HDF5 file (relative to the .xmf) and the dataset
  bool integer = false;
  int precision = 4; // bytes per element
};

/// The attribute of grid g (named as g, of g's element type) whose data is `data`.
XdmfAttribute xdmf_attribute(const GridRef &g, const std::string &data);

/// XDMF meshes are 2D or 3D: grids of rank 2 and 3 get a sidecar, ranks 1 and 4 none.
inline bool xdmf_describes(int rank) { return rank == 2 || rank == 3; }

/// A document with one uniform grid named `name`: a CoRect mesh with a point per cell of
/// `extents` (x first, the grid's order; rank 2 or 3; origin 0, spacing 1) carrying `attrs`.
std::string xdmf_uniform(const std::string &name, const std::vector<std::int64_t> &extents,
                         const std::vector<XdmfAttribute> &attrs);

/// One saved step of a time series: Time = the step.
struct XdmfStep {
  std::int64_t step = 0;
  std::vector<XdmfAttribute> attrs;
};
/// A temporal collection: one uniform grid (as xdmf_uniform) per step.
std::string xdmf_temporal(const std::string &name, const std::vector<std::int64_t> &extents,
                          const std::vector<XdmfStep> &steps);

/// Writes `text` to `path` through a temporary file renamed over it, so a reader never sees
/// half a file. Throws stencilc::Error naming the path.
void write_text_file(const std::string &path, const std::string &text);

} // namespace stencilc
