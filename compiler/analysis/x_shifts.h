// Whether a kernel's rows can be computed with x-shifts in registers (the CPU temporal plan's
// xshift=reg, codegen/x_shift_rows.h): what the code generator builds them for, and what the
// planner counts (model::Cost::x_shift_stages) so that only plans that change something are
// offered.
#pragma once
#include <string>

#include "ir/ir.h"

namespace stc {

/// The bytes of the xshift=reg row functions' vectors (256 bits, the plan's vec=256).
constexpr int kXShiftVectorBytes = 32;

/// The element type every grid kernel k reads or writes has (Float or Double), or Bool where
/// they differ or are integers.
ir::Type x_shift_type(const ir::Program &p, const ir::Kernel &k);

/// Why kernel k's rows cannot be computed with x-shifts in registers ("" if they can): only
/// assignments and lets of one floating type over reads of grids it does not write (or of the
/// cell it stored before), params and constants, with + - * / and negation, over a domain
/// without colours, reading some row at an x offset less than a vector away.
std::string why_no_x_shifts(const ir::Program &p, const ir::Kernel &k);

} // namespace stc
