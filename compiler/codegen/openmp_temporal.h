// The openmp target's temporal plan (openmp_temporal.cpp), as emit_openmp (openmp.cpp) composes
// it into the generated program. It prints kernel bodies with the shared C-like layer
// (codegen/c_like.h), as the naive sweeps do, and calls nothing of openmp.cpp.
#pragma once
#include <string>

#include "ir/ir.h"
#include "lower/lowered.h"

namespace stc {

/// The temporal plan's part of the generated program.
struct TemporalCode {
  std::string why_not;  // "" when the program can be blocked, else the reason
  std::string row_fns;  // namespace-scope row functions, one per kernel the step calls
  std::string describe; // body of Stencil::temporal_describe__()
  std::string block;    // body of Stencil::temporal_block__()
  std::string options;  // body of Stencil::temporal_options__(k, last): the engine's Options
  std::string alloc;    // body of Stencil::temporal_alloc__(): the shadow grids
  std::string views;    // body of Stencil::temporal_views__()
  std::string shadows;  // member declarations of the shadow grids
  bool reductions = false; // the step computes reductions: the last step runs unblocked
  // mpi-openmp only: bodies of Stencil::temporal_fits__(k) (why halos k steps deep cannot be
  // used here, "" if they can) and Stencil::temporal_deepen__(k) (the grids reallocated with
  // them, values kept).
  std::string fits, deepen;
};
/// `mpi`: for mpi-openmp, where the engine runs on each rank's block widened into halos k
/// steps deep (exchanged once per block), with global indices from the block's offset.
/// `aosoa`: the struct grids' members are interleaved (layout=aosoa), and so are the shadows
/// and the deepened grids of each struct's members that the step uses.
TemporalCode temporal_code(const ir::Program &p, const lower::Lowered &l, bool mpi = false,
                           bool aosoa = false);

} // namespace stc
