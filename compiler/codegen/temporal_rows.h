// What every row function of the CPU temporal plan shares: the naive plan's (openmp_temporal)
// and the xshift=reg ones (x_shift_rows) print the same signature, pointers and rows, and both
// end rows in the naive sweep's x loop.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "ir/ir.h"

namespace stc {

/// Whether read `e` of kernel k is of a grid k writes, in the row it stores to: the row
/// function reads it from its output row (`G__r`), not from a slot.
bool reads_own_row(const ir::Kernel &k, const ir::Expr &e);
/// Whether k reads old values of a grid it writes in the same row (before storing to the cell
/// on every path, or a neighbour in the row, as a colour kernel does).
bool reads_old_row(const ir::Kernel &k);
/// Calls `read` on every grid read of k's body in order, with the grids stored to on every path
/// before it; returns the grids stored to on every path through the body.
std::set<int> walk_reads(const ir::Kernel &k,
                         const std::function<void(const ir::Expr &, const std::set<int> &)> &read);

/// A row a kernel reads in the temporal plan's row functions: (grid, offset in dimension 1,
/// offset in dimension 2), numbered in the order of first reading (its pointer in__[n]).
using RowSlot = std::tuple<int, int, int>;
std::map<RowSlot, int> row_slots(const ir::Kernel &k);
/// A row function's signature, its params and pointers, and the loop over its rows up to the
/// rows' pointers (`G__tN`, `G__r`): the x loop and two closing braces follow. `suffix` ends its
/// name (row__K<suffix>), `what` ends its comment; `wide` marks it STENCILC_WIDE_VECTORS.
std::string row_head(const ir::Program &p, const ir::Kernel &k, bool mpi, bool wide,
                     const std::string &suffix, const std::string &what);
/// The x loop over one row with the kernel's statements (`omp simd`), from lo0__ or, given
/// `from`, from that x (a domain without colours): whole vectors and the row's last vector
/// computed again where the kernel reads no old value of a row it writes (reads_old_row) and
/// `from` is not given, else the naive sweep's loop.
std::string row_x_loop(const ir::Program &p, const ir::Kernel &k, bool mpi, bool wide,
                       const std::string &from);

/// What the row and ghost functions get as ctx, as C++ statements: the params (as `params`),
/// and under mpi the block's offset (RowContext__ of the generated code).
std::string row_context(bool mpi, const char *params);

} // namespace stc
