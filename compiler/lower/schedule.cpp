#include <algorithm>

#include "lower/lowered.h"

namespace stc::lower {

Schedule step_schedule(const ir::Program &p, const Analysis &a) {
  Schedule s;
  for (const auto &r : p.run)
    if (r.kind == ir::RunStmt::Kind::Call) {
      for (int g : ir::grids_written(p.kernels[r.a].body))
        s.state.insert(g);
      s.calls.push_back(r.a);
      s.reach.push_back(a.kernels[r.a].radius);
      for (int d = 0; d < ir::kMaxRank; ++d)
        s.step_reach[d] += a.kernels[r.a].radius[d];
      s.updates.push_back(r.a);
    } else if (r.kind == ir::RunStmt::Kind::Swap) {
      s.state.insert({r.a, r.b});
    }
  return s;
}

} // namespace stc::lower
