#include "lower/lowered.h"

namespace stc::lower {

namespace {

bool same_faces(const ir::Program &p, const ir::Grid &a, const ir::Grid &b) {
  for (int f = 0; f < 2 * a.rank; ++f) {
    if (a.faces[f].kind != b.faces[f].kind)
      return false;
    if (a.faces[f].kind == ir::BoundaryKind::Dirichlet &&
        ir::print(p, a.faces[f].value) != ir::print(p, b.faces[f].value))
      return false;
  }
  return true;
}

} // namespace

std::vector<Action> lower_run_block(const ir::Program &p, const std::vector<ir::RunStmt> &run) {
  std::vector<Action> out;
  for (const auto &r : run) {
    switch (r.kind) {
    case ir::RunStmt::Kind::Call:
      out.push_back({Action::Kind::Sweep, r.a, -1, r.loc});
      // Ghosts that depend on the interior (Neumann, periodic) are stale once it changes.
      for (int g : ir::grids_written(p.kernels[r.a].body))
        if (p.grids[g].time_dependent_ghosts())
          out.push_back({Action::Kind::MarkStale, g, -1, r.loc});
      break;
    case ir::RunStmt::Kind::Reduce:
      out.push_back({Action::Kind::Reduce, r.a, -1, r.loc});
      break;
    case ir::RunStmt::Kind::Swap:
      out.push_back({Action::Kind::Swap, r.a, r.b, r.loc});
      // Ghost cells travel with the storage: with other faces, they are the wrong ones.
      if (!same_faces(p, p.grids[r.a], p.grids[r.b])) {
        out.push_back({Action::Kind::MarkStale, r.a, -1, r.loc});
        out.push_back({Action::Kind::MarkStale, r.b, -1, r.loc});
      }
      break;
    }
  }
  return out;
}

} // namespace stc::lower
