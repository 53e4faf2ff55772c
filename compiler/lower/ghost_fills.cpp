#include "lower/lowered.h"

namespace stc::lower {

std::vector<Action> insert_ghost_fills(const ir::Program &p, const std::vector<Action> &step) {
  std::vector<Action> out;
  for (const Action &act : step) {
    std::set<int> read;
    if (act.kind == Action::Kind::Sweep)
      read = ir::grids_read(p.kernels[act.a].body);
    else if (act.kind == Action::Kind::Reduce)
      read = ir::grids_read(p.reductions[act.a].value);
    // Only where stale: generated code keeps a flag per grid, set by MarkStale, a swap of
    // grids with different faces, and loads.
    for (int g : read)
      out.push_back({Action::Kind::FillGhosts, g, -1, act.loc});
    out.push_back(act);
  }
  return out;
}

} // namespace stc::lower
