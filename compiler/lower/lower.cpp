#include "lower/lowered.h"

namespace stc::lower {

Lowered lower(const ir::Program &p, const Analysis &a, bool distributed) {
  Lowered l;
  l.distributed = distributed;
  l.step = insert_ghost_fills(p, lower_run_block(p));
  if (distributed)
    l.step = insert_halo_exchanges(p, l.step);
  l.checks = size_checks(p);
  l.schedule = step_schedule(p, a);
  return l;
}

} // namespace stc::lower
