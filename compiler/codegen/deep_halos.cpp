#include "codegen/deep_halos.h"

#include <algorithm>
#include <fmt/format.h>

namespace stc {

std::string deep_halo_fits(const ir::Program &p, const std::vector<int> &grids, int dims,
                           const std::function<int(int)> &reach,
                           const std::function<std::string(int)> &extra) {
  std::string f = "  const std::vector<int> &procs__ = cart__->procs();\n";
  for (int d = 0; d < dims; ++d) {
    f += fmt::format("  if (procs__.size() > {0} && procs__[{0}] > 1) {{\n", d);
    if (extra)
      f += extra(d);
    for (int g : grids) {
      const auto &grid = p.grids[g];
      f += fmt::format(
          "    if (part__{0}_.global[{1}] / procs__[{1}] < {2} + k * {3})\n"
          "      return \"k=\" + std::to_string(k) + \" needs ghost layers \" + std::to_string({2} "
          "+ "
          "k * {3}) + \" cells deep in dimension {4} (k x {3}, the reach of a step, + the {2} "
          "of grid '{0}'), more than the smallest block has: \" + "
          "std::to_string(part__{0}_.global[{1}] / procs__[{1}]) + \" cells (\" + "
          "std::to_string(part__{0}_.global[{1}]) + \" over \" + std::to_string(procs__[{1}]) + "
          "\" processes)\";\n",
          grid.name, d, grid.halo[d], reach(d), d + 1);
    }
    f += "  }\n";
  }
  return f + "  return \"\";\n";
}

std::string deep_halo_list(const ir::Grid &g, int dims, const std::function<int(int)> &reach) {
  std::string halos;
  for (int d = 0; d < ir::kMaxRank; ++d)
    halos += fmt::format("{}{}", d ? ", " : "",
                         d < std::min(g.rank, dims) ? fmt::format("{} + (split__({}) ? k * {} : 0)",
                                                                  g.halo[d], d, reach(d))
                                                    : std::to_string(d < g.rank ? g.halo[d] : 0));
  return halos;
}

} // namespace stc
