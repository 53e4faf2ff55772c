#include <algorithm>
#include <cstdlib>
#include <map>

#include "lower/lowered.h"

namespace stc::lower {

namespace {

using Need = std::map<int, ir::Offsets>; // grid -> how far around a tile its value is needed

void widen(Need &need, int g, const ir::Offsets &m) {
  auto [it, fresh] = need.emplace(g, m);
  if (!fresh)
    for (int d = 0; d < ir::kMaxRank; ++d)
      it->second[d] = std::max(it->second[d], m[d]);
}

} // namespace

Schedule step_schedule(const ir::Program &p, const Analysis &a) {
  Schedule s;
  for (const auto &r : p.run)
    if (r.kind == ir::RunStmt::Kind::Call) {
      for (int g : ir::grids_written(p.kernels[r.a].body))
        s.state.insert(g);
      s.calls.push_back(r.a);
      s.reach.push_back(a.kernels[r.a].radius);
      s.updates.push_back(r.a);
    } else if (r.kind == ir::RunStmt::Kind::Swap) {
      s.state.insert({r.a, r.b});
    }

  // Margins, last call first: every state grid is needed over the tile itself (0) at the end
  // of the step; a call computes what its outputs must cover, and needs what it reads that far
  // plus the read's offset. The value a call overwrites counts as read at its own cells (a
  // colour, a sub-domain or an in-place kernel keeps the rest), which never widens a margin
  // past what the call's reads already need.
  Need need;
  for (int g : s.state)
    need[g] = ir::Offsets{};
  s.margin.assign(s.calls.size(), ir::Offsets{});
  int call = static_cast<int>(s.calls.size());
  for (auto r = p.run.rbegin(); r != p.run.rend(); ++r) {
    if (r->kind == ir::RunStmt::Kind::Swap) {
      std::swap(need[r->a], need[r->b]);
      continue;
    }
    if (r->kind != ir::RunStmt::Kind::Call)
      continue;
    const ir::Kernel &k = p.kernels[r->a];
    ir::Offsets m{};
    for (int g : ir::grids_written(k.body))
      for (int d = 0; d < ir::kMaxRank; ++d)
        m[d] = std::max(m[d], need[g][d]);
    s.margin[--call] = m;
    for (int g : ir::grids_written(k.body))
      need[g] = m;
    ir::walk(k.body, [&](const ir::Expr &e) {
      if (e.op != ir::Op::GridRead || !s.state.count(e.id))
        return;
      ir::Offsets at = m;
      for (int d = 0; d < ir::kMaxRank; ++d)
        at[d] += std::abs(e.relative(d));
      widen(need, e.id, at);
    });
  }
  for (int g : s.state)
    for (int d = 0; d < ir::kMaxRank; ++d)
      s.step_reach[d] = std::max(s.step_reach[d], need[g][d]);
  return s;
}

} // namespace stc::lower
