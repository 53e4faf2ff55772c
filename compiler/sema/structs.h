// Grids of struct elements made grids of scalars, before sema: one grid per member.
#pragma once
#include <optional>

#include "frontend/ast.h"
#include "support/diagnostics.h"

namespace stc {

/// `struct P { float p; double r[2]; }` and `grid P g[N, N]` become the grids `g_p`, `g_r_0`
/// and `g_r_1` (structure of arrays: each member contiguous, so vector loads and coalesced GPU
/// accesses stay unit-stride), declared where g was, with g's shape, boundary and readonly.
/// `g[x + 1, y].r[1]` reads g_r_1; `h[x, y] = g[x, y];` between grids of one struct copies
/// every member; `swap g, h` swaps every member; `init g[x, y].p = ...` initialises one.
/// Reports struct misuse (unknown types and members, a member of a scalar grid, a struct read
/// without a member, indices of array members, member grid names already taken).
/// Run after instantiate (kernel parameters name struct grids like any grid). Nothing when a
/// declaration is wrong (a struct, a grid's element type, a member grid's name): the rest of
/// the program would only repeat it.
std::optional<ast::Program> split_structs(const ast::Program &prog, DiagEngine &diags);

} // namespace stc
