#include "analysis/analyze.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <utility>

#include <fmt/format.h>

namespace stc {

Analysis analyze(const ir::Program &p) {
  Analysis a;
  a.grid_radius.assign(p.grids.size(), ir::Offsets{});
  for (const auto &k : p.kernels) {
    KernelStats s;
    s.rank = k.rank;
    std::set<std::pair<int, ir::Offsets>> loads;
    std::set<int> read, written;
    ir::for_each_stmt(k.body, [&](const ir::Stmt &st) {
      if (st.kind == ir::Stmt::Kind::Assign)
        written.insert(st.grid);
    });
    {
      ir::walk(k.body, [&](const ir::Expr &e) {
        switch (e.op) {
        case ir::Op::Add:
        case ir::Op::Sub:
        case ir::Op::Mul:
        case ir::Op::Div:
        case ir::Op::Call: // a math function counts as one operation
          if (e.type != ir::Type::Int)
            ++s.flops;
          break;
        case ir::Op::GridRead:
          loads.insert({e.id, e.offset});
          read.insert(e.id);
          for (int d = 0; d < ir::kMaxRank; ++d) {
            // (Dimension d of a grid of lower rank follows the kernel's dimension axis[d].)
            const int r = std::abs(e.relative(d));
            if (e.axis[d] >= 0)
              s.radius[e.axis[d]] = std::max(s.radius[e.axis[d]], r);
            a.grid_radius[e.id][d] = std::max(a.grid_radius[e.id][d], r);
          }
          break;
        default: break;
        }
      });
    }
    s.loads = static_cast<int>(loads.size());
    s.grids_read = static_cast<int>(read.size());
    s.stores = static_cast<int>(written.size());
    for (int g : read)
      if (!written.count(g))
        s.bytes_streamed += ir::elem_bytes(p.grids[g]);
    for (int g : written)
      s.bytes_written += 2.0 * ir::elem_bytes(p.grids[g]);
    s.bytes_streamed += s.bytes_written;
    a.kernels.push_back(s);
  }
  return a;
}

std::string report(const ir::Program &p, const Analysis &a) {
  std::string out = fmt::format("stencil {}\n", p.name);
  for (std::size_t i = 0; i < p.kernels.size(); ++i) {
    const auto &k = p.kernels[i];
    const auto &s = a.kernels[i];
    std::string radius;
    for (int d = 0; d < s.rank; ++d)
      radius += fmt::format("{}{}", d ? "," : "", s.radius[d]);
    out += fmt::format("kernel {}: rank {}, radius [{}], {} flops, {} loads from {} grids, {} "
                       "stores, {:.0f} bytes/point streamed, {:.3f} flops/byte\n",
                       k.name, s.rank, radius, s.flops, s.loads, s.grids_read, s.stores,
                       s.bytes_streamed, s.bytes_streamed > 0 ? s.flops / s.bytes_streamed : 0.0);
  }
  for (std::size_t g = 0; g < p.grids.size(); ++g) {
    std::string halo;
    for (int d = 0; d < p.grids[g].rank; ++d)
      halo += fmt::format("{}{}", d ? "," : "", p.grids[g].halo[d]);
    out += fmt::format("grid {}: {} rank {}, halo [{}]\n", p.grids[g].name,
                       ir::type_name(p.grids[g].type), p.grids[g].rank, halo);
  }
  return out;
}

} // namespace stc
