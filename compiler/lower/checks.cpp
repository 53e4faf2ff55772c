#include <fmt/format.h>

#include <functional>
#include <map>
#include <tuple>

#include "lower/lowered.h"

namespace stc::lower {

namespace {

void checks_of(std::vector<Check> &out, const std::string &owner, int domain_grid,
               std::set<int> used, const ir::Program &p, const ir::Domain &dom, int rank) {
  used.insert(domain_grid);
  for (int g : used) {
    if (p.grids[g].rank < rank) // read_checks
      continue;
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

// What the reads need beyond checks_of: the largest absolute index each grid is read at, per
// dimension; a grid of lower rank has the extent of the grid run over in the dimension each of
// its dimensions follows, and is wider than its stencil.
void read_checks(std::vector<Check> &out, const std::string &owner, int domain_grid, int rank,
                 const ir::Program &p,
                 const std::function<void(const std::function<void(const ir::Expr &)> &)> &walk) {
  std::map<std::pair<int, int>, int> most;
  std::set<std::tuple<int, int, int>> follows; // grid, its dimension, the owner's dimension
  std::set<std::tuple<int, int, std::string>> given; // indices given by params, as printed
  walk([&](const ir::Expr &e) {
    if (e.op != ir::Op::GridRead)
      return;
    const int grank = p.grids[e.id].rank;
    for (int d = 0; d < grank; ++d)
      if (e.at[d]) {
        if (given.insert({e.id, d, ir::print(p, e.at[d])}).second) {
          Check c{Check::Kind::IndexInside, owner, e.id, -1, d, rank, 0, nullptr};
          c.index = e.at[d];
          out.push_back(c);
        }
      } else if (e.absolute_in(d)) {
        auto [it, fresh] = most.insert({{e.id, d}, e.offset[d]});
        it->second = std::max(it->second, e.offset[d]);
      } else if (grank < rank) {
        follows.insert({e.id, d, e.axis[d]});
      }
  });
  for (const auto &[gd, index] : most)
    out.push_back({Check::Kind::IndexInside, owner, gd.first, -1, gd.second, rank, index, nullptr});
  std::set<std::pair<int, int>> widths;
  for (const auto &[g, d, axis] : follows) {
    Check c{Check::Kind::SameExtent, owner, g, domain_grid, d, rank, 0, nullptr};
    c.other_dim = axis;
    out.push_back(c);
    const int width = 2 * p.grids[g].halo[d] + 1;
    if (width > 1 && widths.insert({g, d}).second)
      out.push_back({Check::Kind::MinExtent, owner, g, -1, d, rank, width, nullptr});
  }
}

} // namespace

std::vector<Check> size_checks(const ir::Program &p) {
  std::vector<Check> out;
  for (const auto &k : p.kernels) {
    std::set<int> used = ir::grids_read(k.body);
    for (int g : ir::grids_written(k.body))
      used.insert(g);
    const std::string owner = fmt::format("kernel '{}'", k.name);
    checks_of(out, owner, k.domain_grid, used, p, k.domain, k.rank);
    read_checks(out, owner, k.domain_grid, k.rank, p, [&](const auto &f) { ir::walk(k.body, f); });
  }
  for (const auto &r : p.reductions) {
    const std::string owner = fmt::format("reduction '{}'", r.name);
    checks_of(out, owner, r.domain_grid, ir::grids_read(r.value), p, r.domain, r.rank);
    read_checks(out, owner, r.domain_grid, r.rank, p, [&](const auto &f) { ir::walk(r.value, f); });
  }
  return out;
}

} // namespace stc::lower
