// The temporal plan's row functions with x-shifts in registers (the plan's xshift=reg): a
// kernel's reads of a row at x + dx (dx != 0) are lanes shifted out of vectors of that row
// loaded once each at x - W, x and x + W (W lanes), where the naive loop loads every shifted
// vector again, most of them across two cache lines. The statements are the kernel's, on
// vectors of its element type, in the same order: the same bits.
#pragma once
#include <string>

#include "ir/ir.h"

namespace stc {

/// The xshift=reg row function row__K__xreg on 256-bit vectors, or with `wide`
/// row__K__xreg_wide on 512-bit ones (vec=512,xshift=reg: STENCILC_WIDE_VECTORS, twice the
/// lanes). why_no_x_shifts (analysis/x_shifts.h) must be "": a kernel it admits on 256-bit
/// vectors reads its rows less than half a 512-bit vector away.
std::string x_shift_row_function(const ir::Program &p, const ir::Kernel &k, bool mpi,
                                 bool wide = false);

} // namespace stc
