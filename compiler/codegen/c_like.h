// Code printing that every C-like target (openmp, cuda, hip) shares: a kernel body's statements
// with an overridable store, reads through row pointers, the x-offset of a grid read, the x
// loop of a domain (colour parity included), local copies of params, flagged arithmetic for
// code that cannot throw, and host-side setup (expressions outside kernels, boundary keys, the
// dirty-flag ghost refresh, size checks, init loops, domain sizes). A target derives from these
// and overrides only what it prints differently (qualifiers, launch, pragmas, grid reads).
#pragma once
#include <set>
#include <string>
#include <vector>

#include "codegen/c_emitter.h"
#include "ir/ir.h"
#include "lower/lowered.h"

namespace stc {

/// Inside a kernel or reduction body: indices are the loop variables, locals their names. A
/// target says how a grid is read (grid_read) and may say how a cell is stored (store).
class BodyEmitter : public CEmitter {
public:
  BodyEmitter(const ir::Program &p, const std::vector<std::string> &indices,
              const std::vector<ir::Local> *locals)
      : CEmitter(p), indices_(indices), locals_(locals) {}

  /// The statements of a body; an assignment to a grid goes through store().
  std::string statements(const std::vector<ir::Stmt> &body) const;
  /// A kernel's statements for one cell, cited to the .stn by #line and followed by the
  /// directive back to the generated file: the same text for every plan and target.
  std::string kernel_statements(const ir::Kernel &k) const;

protected:
  std::string index(const ir::Expr &e) const override { return indices_[e.id]; }
  std::string local(const ir::Expr &e) const override { return (*locals_)[e.id].name; }
  /// The store of `value` to the cell at x of grid g (default: `G__r[x] = value;`).
  virtual std::string store(const ir::Grid &g, const std::string &x,
                            const std::string &value) const;
  /// A read through the grid's row pointer: `G__r[x + o0 + o1 * G__s1 ...]` (the row pointer
  /// G__r points at the cell (0, y, z, w) of the current row; G__sD are the strides).
  std::string row_read(const ir::Expr &e) const;
  /// The x coordinate of a read: the x index plus the read's offset in dimension 0.
  std::string x_index(const ir::Expr &e) const;
  /// The absolute index of read `e` in dimension d: the constant, or the params' expression.
  std::string absolute_index(const ir::Expr &e, int d) const;
  /// Whether read `e` indexes its grid whole from the origin (a grid of lower rank), each
  /// subscript being axis_index() of the kernel dimension it follows plus the offset.
  virtual bool indexed_whole(const ir::Expr &e) const;
  /// The index of kernel dimension d in such a subscript.
  virtual std::string axis_index(int d) const { return indices_[d]; }

  const std::vector<std::string> &indices_;
  const std::vector<ir::Local> *locals_;
};

/// Outside kernels (param defaults, extents, domains, boundary values, inits, the run
/// condition, the engine's step description): params are fields of `prm__`, indices are
/// x0__, x1__, ...; integer arithmetic that may fail throws (stencilc::checked_*): sizes come
/// from --set, and a zero divisor there is a user error, not a crash.
class SetupEmitter : public CEmitter {
public:
  using CEmitter::CEmitter;

protected:
  std::string param(const ir::Expr &e) const override;
  std::string index(const ir::Expr &e) const override;
  std::string int_divmod(const char *op, const std::string &a,
                         const std::string &b) const override;
  std::string int_cast(const std::string &a) const override;
};

/// Code that cannot throw (an OpenMP region, a device kernel): a kernel's statements with
/// reads through row pointers (row_read), integer division and int() flagging a bit of err__
/// (flagged_divmod), which the caller reports after the loop or kernel.
/// `global`: the loops run over a block of a distributed grid in local indices; the program's
/// index is the global one, the loop index plus the block's offset offD__.
class RowBodyEmitter : public BodyEmitter {
public:
  RowBodyEmitter(const ir::Program &p, const std::vector<std::string> &indices,
                 const std::vector<ir::Local> *locals, bool global = false)
      : BodyEmitter(p, indices, locals), global_(global),
        replicated_(global ? ir::lower_rank_grids(p) : std::set<int>()) {}

protected:
  std::string index(const ir::Expr &e) const override;
  /// `global`: a grid every rank holds whole (ir::lower_rank_grids) is indexed whole at global
  /// indices, whatever its rank.
  bool indexed_whole(const ir::Expr &e) const override;
  std::string axis_index(int d) const override;
  std::string grid_read(const ir::Expr &e) const override { return row_read(e); }
  std::string int_divmod(const char *op, const std::string &a,
                         const std::string &b) const override;
  std::string int_cast(const std::string &a) const override;

private:
  bool global_;
  std::set<int> replicated_;
};

/// A setup expression (params in prm__, indices x0__..x3__) in code that cannot throw: an init
/// loop in an OpenMP region, an init or Dirichlet value in a device kernel. Flags err__ too.
class FlaggedSetupEmitter : public SetupEmitter {
public:
  using SetupEmitter::SetupEmitter;

protected:
  std::string int_divmod(const char *op, const std::string &a,
                         const std::string &b) const override;
  std::string int_cast(const std::string &a) const override;
};

/// Where a grid's row pointer G__r points in a sweep over indices `idx`: the cell (0, y, z, w)
/// of the current row (G__o plus the indices times the strides G__sD); for a grid of lower
/// rank than the sweep, or one indexed whole (`whole`: BodyEmitter::indexed_whole), its origin.
std::string row_origin(const ir::Grid &grid, const std::vector<std::string> &idx,
                       bool whole = false);

/// An expression outside kernels (SetupEmitter), e.g. a domain bound.
std::string setup_expr(const ir::Program &p, const ir::ExprPtr &e);

/// A grid's boundary conditions as text: equal keys, equal ghost cells.
std::string faces_key(const ir::Program &p, const ir::Grid &g);

/// Params a body uses (kernels copy them into locals), or an expression (a reduction's value).
std::set<int> params_of(const std::vector<ir::Stmt> &body);
std::set<int> params_of(const ir::ExprPtr &value);

/// The value a reduction's accumulator starts from, as C++: 0, +infinity (min), -infinity (max).
const char *reduction_identity(ir::ReduceOp op);
/// How a reduction accumulates in generated code: the accumulator's C++ type, its identity, and
/// the value of one point (`v__`, of the reduction's type) as the accumulator's type. Integer
/// sums and products accumulate in std::uint64_t, so they wrap modulo 2^64 without undefined
/// behaviour and give the same bits in any order (ir::integer_reduction).
struct Accumulator {
  const char *type, *identity, *of_value;
};
Accumulator accumulator(const ir::Reduction &r);
/// The accumulated `acc` as the reduction's value (a cast for the unsigned integer ones).
std::string as_value(const ir::Reduction &r, const std::string &acc);
/// This rank's accumulated `acc` combined over the ranks of cart__ (min, max and integers
/// exactly; floating sums and products in rank order, the square root of norm2 after), as the
/// reduction's value.
std::string combined_over_ranks(const ir::Reduction &r, const std::string &acc);

/// Local copies of params from `params_` (`  const T name = params_.name;` each): the compiler
/// then knows stores to grids cannot change them.
std::string param_copies(const ir::Program &p, const std::set<int> &params);

/// The loop over x of a domain from lo0__ to hi0__; a colour visits every other x, the first
/// one of a row having the row's parity (of global coordinates, idx[1..rank), plus `x_offset`,
/// the global x of local x 0, for a block of a distributed grid). `from_lo`: a colour's first x
/// is the first of its parity at or after lo0__ (>= 0), not 0 or 1 (a region of a block).
std::string x_loop(const ir::Domain &domain, const std::vector<std::string> &idx, int rank,
                   const std::string &x_offset = "", bool from_lo = false);

/// Integer division or remainder (`op` "/" or "%") and int() that flag a failure in `err__`
/// instead of throwing, for code that cannot throw (a parallel region, a device); the caller
/// reports the flag after the loop (stencilc::kernel_error).
std::string flagged_divmod(const char *op, const std::string &a, const std::string &b);
std::string flagged_to_int(const std::string &a);

/// What host code does for a lowered FillGhosts: refill the grid's ghost cells if its flag
/// says they are stale.
std::string fill_if_stale(const ir::Grid &g);
/// The same on a distributed target: a grid whose halo alone is stale (MarkHaloStale) is
/// exchanged, its physical faces left as they are.
std::string exchange_if_stale(const ir::Grid &g);
/// ... and for a MarkStale.
std::string mark_stale(const ir::Grid &g);

/// The lowering's size checks as statements of the constructor (the interpreter's messages).
/// `distributed`: before the grids exist, on the global extents gext__G[d].
std::string size_checks(const ir::Program &p, const std::vector<lower::Check> &checks,
                        bool distributed);
/// A grid's `init` values, computed on the host into grid `NAME_` (the loop nest under `pragma`,
/// e.g. an OpenMP one, or "" for none); bad arithmetic is reported after the loop.
/// `distributed`: NAME_ is this rank's block; the loops are local, the program's indices global
/// (the block's offset part__NAME_.offset added).
std::string init_code(const ir::Program &p, const ir::Grid &g, const std::string &pragma,
                      bool distributed);
/// The cells of a domain of grid g as a C++ double expression (the update count of a sweep);
/// `distributed`: of the global grid (part__G_.global), not of this rank's block.
std::string domain_cells(const ir::Program &p, const ir::Domain &d, int g, bool distributed);
/// Each line of text as a `// ` comment line, never re-flowed.
std::string comment_lines(const std::string &text);

/// Host code for a grid's ghost cells, in the order the interpreter fills them.
enum class HostFill {
  Whole,    // openmp: fill__G(g), every face
  Exchange, // distributed: fill__G(g, faces), per dimension the exchange, then dim_faces__G
  DimFaces, // distributed: dim_faces__G(g, d), the physical faces of dimension d (also what
            // overlap=on's non-blocking exchange calls)
  Across,   // distributed: fill_faces__G(g), the physical faces alone, Dirichlet across the
            // other dimensions' halos (a grid the temporal plan overwrites before reading: its
            // ghost cells on faces between blocks are never read)
};
/// The definition of that member function of Stencil (distributed: over cart__ and part__G_).
std::string host_fill_definition(const ir::Program &p, const ir::Grid &g, HostFill kind);

} // namespace stc
