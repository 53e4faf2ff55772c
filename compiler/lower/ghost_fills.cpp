// The interpreter refills ghost cells before every read; generated code refills a grid only
// when its flag says they are stale, and gets the same values: a ghost value depends only on the
// grid's faces (fixed per grid), the params (fixed during a run), the ghost cell's index and,
// for Neumann and periodic faces, the interior. Only a fill writes ghost cells, so they stay
// right until the interior changes under such a face (MarkStale, load, init_random) or the
// storage moves by a swap to a grid with other faces (stale too); the flag travels with the
// storage. A Dirichlet-only grid is filled once.
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
