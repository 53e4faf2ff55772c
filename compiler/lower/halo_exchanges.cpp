// Halo exchanges, for a target whose grids are split over processes: a ghost cell on a face
// between two blocks holds the neighbour's interior, not a boundary value. So a grid's ghost
// cells go stale whenever its interior is written, whatever its faces (on one process a
// Dirichlet-only grid is filled once: here its physical faces still are, MarkHaloStale, and
// only the exchange repeats), and refilling them is an exchange with the neighbour
// ranks followed by the physical faces, dimension by dimension, which the runtime does in the
// order boundary.h fills one grid, so corners come out the same. The exchange is as deep as the
// grid's halo (the widest read of it); the stale flags keep "only where stale"; a grid without
// ghost cells (read only at the centre) has nothing to exchange, and a sweep or reduction that
// reads a grid only at the centre needs no exchange of it (its flag stays stale for the next).
#include "lower/lowered.h"

namespace stc::lower {

namespace {

// Whether the sweep or reduction `act` reads grid g off the centre (only then are its ghost
// cells read).
bool reads_off_centre(const ir::Program &p, const Action &act, int g) {
  bool off = false;
  auto visit = [&](const ir::Expr &e) {
    if (e.op == ir::Op::GridRead && e.id == g)
      for (int d = 0; d < ir::kMaxRank; ++d)
        off |= e.relative(d) != 0;
  };
  if (act.kind == Action::Kind::Sweep)
    ir::walk(p.kernels[act.a].body, visit);
  else if (act.kind == Action::Kind::Reduce)
    ir::walk(p.reductions[act.a].value, visit);
  return off;
}

} // namespace

std::vector<Action> insert_halo_exchanges(const ir::Program &p, const std::vector<Action> &step) {
  std::vector<Action> out;
  for (std::size_t i = 0; i < step.size(); ++i) {
    Action act = step[i];
    if (act.kind == Action::Kind::FillGhosts) {
      const ir::Grid &g = p.grids[act.a];
      bool ghosts = false; // a grid read only at the centre has none to exchange
      for (int d = 0; d < g.rank; ++d)
        ghosts |= g.halo[d] > 0;
      // The fills precede the sweep or reduction that reads the grid.
      std::size_t reader = i;
      while (reader < step.size() && step[reader].kind == Action::Kind::FillGhosts)
        ++reader;
      if (!ghosts || reader == step.size() || !reads_off_centre(p, step[reader], act.a))
        continue;
      act.kind = Action::Kind::Exchange;
    }
    out.push_back(act);
    if (act.kind != Action::Kind::Sweep)
      continue;
    // The grids the sweep writes that the run block does not already mark stale right after.
    std::set<int> marked;
    for (std::size_t j = i + 1; j < step.size() && step[j].kind == Action::Kind::MarkStale; ++j)
      marked.insert(step[j].a);
    for (int g : ir::grids_written(p.kernels[act.a].body))
      if (!marked.count(g))
        // (A grid with Neumann or periodic faces is marked stale by the run block already.)
        out.push_back({Action::Kind::MarkHaloStale, g, -1, act.loc});
  }
  return out;
}

} // namespace stc::lower
