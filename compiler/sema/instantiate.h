// Kernels with parameters made ordinary kernels, before sema: one copy per distinct binding.
#pragma once
#include "frontend/ast.h"
#include "support/diagnostics.h"

namespace stc {

/// `kernel step(x, y; grid a, grid b, double dt)` called as `step(u, v, 0.5);` in the run block
/// becomes a kernel without parameters that reads and writes u and v and uses double(0.5)
/// for dt; each distinct set of arguments gives its own copy (named, in the order of the first
/// calls, as the kernel, then name_2, name_3, ... as the Physis front end names a kernel mapped
/// twice), and the calls name the copies. Everything else is as written. Reports misuse (arity, a
/// grid parameter bound to something that is not a grid, an argument that reads grids or indices,
/// clashing names); what the copies then do wrong is sema's to report.
ast::Program instantiate(const ast::Program &prog, DiagEngine &diags);

} // namespace stc
