#include "lower/lowered.h"

namespace stc::lower {

Lowered lower(const ir::Program &p, const Analysis &a, bool distributed) {
  Lowered l;
  l.distributed = distributed;
  auto actions = [&](const std::vector<ir::RunStmt> &run) {
    std::vector<Action> step = insert_ghost_fills(p, lower_run_block(p, run));
    return distributed ? insert_halo_exchanges(p, step) : step;
  };
  l.step = actions(p.run);
  for (const auto &b : p.blocks)
    l.blocks.push_back(actions(b.run));
  l.checks = size_checks(p);
  l.schedule = step_schedule(p, a);
  return l;
}

} // namespace stc::lower
