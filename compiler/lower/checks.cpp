#include <fmt/format.h>

#include "lower/lowered.h"

namespace stc::lower {

namespace {

void checks_of(std::vector<Check> &out, const std::string &owner, int domain_grid,
               std::set<int> used, const ir::Program &p, const ir::Domain &dom, int rank) {
  used.insert(domain_grid);
  for (int g : used) {
    if (g != domain_grid)
      out.push_back({Check::Kind::SameShape, owner, g, domain_grid, 0, rank, 0, nullptr});
    for (int d = 0; d < rank; ++d) {
      const int width = 2 * p.grids[g].halo[d] + 1;
      if (width > 1)
        out.push_back({Check::Kind::MinExtent, owner, g, -1, d, rank, width, nullptr});
    }
  }
  if (dom.kind == ir::Domain::Kind::Range)
    for (int d = 0; d < rank; ++d)
      out.push_back({Check::Kind::DomainInside, owner, domain_grid, -1, d, rank, 0, &dom});
}

} // namespace

std::vector<Check> size_checks(const ir::Program &p) {
  std::vector<Check> out;
  for (const auto &k : p.kernels) {
    std::set<int> used = ir::grids_read(k.body);
    for (int g : ir::grids_written(k.body))
      used.insert(g);
    checks_of(out, fmt::format("kernel '{}'", k.name), k.domain_grid, used, p, k.domain, k.rank);
  }
  for (const auto &r : p.reductions)
    checks_of(out, fmt::format("reduction '{}'", r.name), r.domain_grid, ir::grids_read(r.value),
              p, r.domain, r.rank);
  return out;
}

} // namespace stc::lower
