// Periodic reads chosen per read, `periodic(g[...])`, rewritten into ordinary grids, kernels
// and calls before sema checks the program (periodic_reads.cpp says how).
#pragma once
#include "frontend/ast.h"

namespace stc {

/// The program with every `periodic(g[...])` of a kernel or reduction reading a periodic copy
/// of g, refreshed before each call that reads it; the program itself when it has none.
ast::Program lower_periodic_reads(const ast::Program &prog);

} // namespace stc
