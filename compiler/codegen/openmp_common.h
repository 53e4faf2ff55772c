// What the openmp target's naive sweeps (openmp.cpp) and temporal row functions
// (openmp_temporal.cpp) share: both print a kernel body the same way, so both plans compute
// every cell with the same operations in the same order.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "codegen/c_emitter.h"
#include "ir/ir.h"
#include "lower/lowered.h"

namespace stc {

/// Params a body uses (sweeps copy them into locals).
std::set<int> params_of(const std::vector<ir::Stmt> &body);
/// The statements of a kernel body; an assignment to grid G stores to G__r[x].
std::string statements(const ir::Program &p, const CEmitter &em,
                       const std::vector<ir::Stmt> &body, const std::vector<ir::Local> &locals,
                       const std::string &x);

/// A kernel's statements for one cell (statements() of its body), written by the naive sweep and
/// the temporal row function alike.
std::string kernel_statements(const ir::Program &p, const CEmitter &em, const ir::Kernel &k);

/// An expression outside sweeps (params are fields of `prm__`), e.g. a domain bound.
std::string setup_expr(const ir::Program &p, const ir::ExprPtr &e);

/// A grid's boundary conditions as text: equal keys, equal ghost cells.
std::string faces_key(const ir::Program &p, const ir::Grid &g);

/// The temporal plan's part of the generated program (openmp_temporal.cpp).
struct TemporalCode {
  std::string why_not;  // "" when the program can be blocked, else the reason
  std::string row_fns;  // namespace-scope row functions, one per kernel the step calls
  std::string describe; // body of Stencil::temporal_describe__()
  std::string block;    // body of Stencil::temporal_block__()
  std::string alloc;    // body of Stencil::temporal_alloc__(): the shadow grids
  std::string views;    // body of Stencil::temporal_views__()
  std::string shadows;  // member declarations of the shadow grids
  bool reductions = false; // the step computes reductions: the last step runs unblocked
};
TemporalCode temporal_code(const ir::Program &p, const lower::Lowered &l);

/// What generated code does for a lowered FillGhosts: refill the grid's ghost cells if its
/// flag says they are stale.
std::string fill_if_stale(const ir::Grid &g);
/// ... and for a MarkStale.
std::string mark_stale(const ir::Grid &g);

} // namespace stc
