#include "lower/lowered.h"

namespace stc::lower {

Lowered lower(const ir::Program &p, const Analysis &a) {
  Lowered l;
  l.step = insert_ghost_fills(p, lower_run_block(p));
  l.checks = size_checks(p);
  l.schedule = step_schedule(p, a);
  return l;
}

} // namespace stc::lower
