// The checked program: names resolved to indices, every expression typed, every grid access
// reduced to constant offsets. Produced by sema, read by analysis, the interpreter and codegen.
// Nodes are immutable once made; each keeps the source location it came from.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "support/diagnostics.h"

namespace stc::ir {

/// Bool is the type of comparisons and conditions; it is never stored in a grid or a param.
enum class Type { Bool, Int, Float, Double };
const char *type_name(Type t);      // "bool", "int", "float", "double"
const char *cxx_type_name(Type t);  // "bool", "std::int64_t" (params, expressions), ...
/// The usual arithmetic conversion: the wider of the two (int < float < double).
Type join(Type a, Type b);

constexpr int kMaxRank = 4;
using Offsets = std::array<int, kMaxRank>;
/// Per dimension of a grid read: the kernel dimension whose index it follows.
using Axes = std::array<int, kMaxRank>;

enum class Fn { Sqrt, Exp, Log, Sin, Cos, Tan, Abs, Min, Max, Pow, Floor };
const char *fn_name(Fn f);

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;
/// Per dimension of a grid read: an absolute index given by an expression of params, or null.
using Indices = std::array<ExprPtr, kMaxRank>;

enum class Op {
  IntConst, FloatConst, Param, Index, Local, GridRead, Reduction, ReductionFirst, // atoms
  Cast, Neg, Not, Call,                                                            // unary-ish
  Add, Sub, Mul, Div, Mod, Lt, Le, Gt, Ge, Eq, Ne, And, Or,                        // binary
  Select                                                                          // a ? b : c
};
bool is_binary(Op op);
bool is_comparison(Op op);

struct Expr {
  Op op;
  Type type;
  SourceLoc loc;
  std::int64_t ival = 0; // IntConst
  double fval = 0;       // FloatConst (already rounded to `type`)
  std::string spelling;  // FloatConst as written, for readable generated code
  /// Param, Local, Reduction(First): its index; GridRead: grid index; Index: dimension.
  int id = -1;
  Offsets offset{};      // GridRead: constant offset per dimension
  /// GridRead: bit d set: offset[d] is an absolute index in dimension d (`g[x, y, 0]` reads
  /// the plane z = 0 wherever the point is), not an offset from the point's index; or at[d] is.
  unsigned absolute = 0;
  /// GridRead: an absolute index given by an integer expression of params (`g[x, y, NZ - 1]`),
  /// the same at every point and step; null where it is the constant offset[d] (0 then).
  Indices at{};
  bool absolute_in(int d) const { return (absolute >> d) & 1u; }
  /// GridRead: the offset from the point in dimension d (0 in an absolute dimension).
  int relative(int d) const { return absolute_in(d) ? 0 : offset[d]; }
  /// GridRead: subscript d is the index of kernel dimension axis[d] plus offset[d] (the
  /// identity for a grid of the kernel's rank; `c[z]`, a rank-1 grid read in a kernel (x, y, z),
  /// has axis[0] = 2); -1 where it is absolute or beyond the grid's rank.
  Axes axis{0, 1, 2, 3};
  Fn fn = Fn::Sqrt;      // Call
  ExprPtr a, b, c;       // operands (Select: a ? b : c; unary and one-argument calls: a)

  static ExprPtr int_const(SourceLoc loc, std::int64_t v);
  static ExprPtr float_const(SourceLoc loc, Type t, double v, std::string spelling);
  static ExprPtr param(SourceLoc loc, Type t, int id);
  static ExprPtr index(SourceLoc loc, int dim);
  static ExprPtr local(SourceLoc loc, Type t, int id);
  static ExprPtr grid_read(SourceLoc loc, Type t, int grid, const Offsets &off,
                           unsigned absolute = 0, const Axes &axis = {0, 1, 2, 3},
                           const Indices &at = {});
  static ExprPtr reduction(SourceLoc loc, int id, bool first);
  static ExprPtr cast(Type to, ExprPtr a);
  static ExprPtr unary(Op op, SourceLoc loc, ExprPtr a); // Neg (numeric), Not (bool)
  /// Arithmetic: both operands have the result type. Comparisons: both operands have the
  /// same numeric type, the result is bool. And/Or: bool operands. (Sema inserts the casts.)
  static ExprPtr binary(Op op, SourceLoc loc, ExprPtr a, ExprPtr b);
  static ExprPtr select(SourceLoc loc, ExprPtr cond, ExprPtr a, ExprPtr b);
  /// Arguments already converted to the call's type t (int only for abs/min/max).
  static ExprPtr call(SourceLoc loc, Fn fn, Type t, ExprPtr a, ExprPtr b = nullptr);
};

struct Param {
  SourceLoc loc;
  std::string name;
  Type type;
  ExprPtr init; // null: required from --set; may read earlier params only
};

enum class BoundaryKind { Dirichlet, Neumann, Periodic };
const char *boundary_name(BoundaryKind k);

/// The boundary condition of one face. Dirichlet values may use params and the indices of
/// the ghost cell being filled (Index nodes), and have the grid's type.
struct Face {
  BoundaryKind kind = BoundaryKind::Dirichlet;
  ExprPtr value;
  SourceLoc loc;
};

struct Grid {
  SourceLoc loc;
  std::string name;
  Type type;
  bool readonly = false;
  int rank = 0;
  std::vector<ExprPtr> extents; // int expressions of params
  /// faces[2*d] is the low face of dimension d, faces[2*d+1] the high one.
  std::array<Face, 2 * kMaxRank> faces;
  /// `init g[...] = value` (Index nodes for the indices), or null: zero.
  ExprPtr init;
  /// Ghost width per dimension: the widest offset any kernel or reduction reads this grid at,
  /// joined over grids that swap with it (so swapped grids share a layout). Filled in by sema.
  Offsets halo{};
  /// An Int grid stored in 64 bits (`grid long`); Int grids are 32-bit otherwise.
  bool wide = false;
  /// A member of a grid of struct elements (the struct grid's name; sema/structs.cpp), or
  /// empty: the members of one struct grid are stored together under layout=aosoa.
  std::string member_of;
  bool time_dependent_ghosts() const; // some face is Neumann or periodic
};

/// The C++ type of a grid's elements: "std::int32_t" ("std::int64_t" if wide), "float", "double".
const char *elem_name(const Grid &g);
std::size_t elem_bytes(const Grid &g);

struct Stmt {
  enum class Kind { Assign, Let, If };
  Kind kind;
  SourceLoc loc;
  int grid = -1;  // Assign: written at the centre point
  int local = -1; // Let
  ExprPtr value;  // Assign, Let: the value (of the grid's or local's type); If: the condition
  std::vector<Stmt> then_body, else_body;
  bool reassign = false; // Let: a new value of a var declared before (not a declaration)
};

/// Where a kernel or reduction applies.
struct Domain {
  enum class Kind { Interior, Range, Red, Black };
  Kind kind = Kind::Interior;
  std::vector<ExprPtr> lo, hi; // Range: [lo, hi) per dimension, int expressions of params
  int colour = -1;             // Range: only its red (0) or black (1) cells (`on red [...]`)
};
/// The parity of global x+y+... a domain's cells have: 0 red, 1 black, -1 any.
int colour_of(const Domain &d);

struct Local {
  std::string name;
  Type type;
  bool mut = false; // a var: Let statements with `reassign` assign it again
};

struct Kernel {
  SourceLoc loc;
  std::string name;
  std::vector<std::string> indices; // names of the dimensions, x first
  int rank = 0;
  Domain domain;
  std::vector<Stmt> body;
  std::vector<Local> locals;
  int domain_grid = -1; // the first written grid: the kernel runs over its interior
};

enum class ReduceOp { Sum, Min, Max, Norm2, Prod };
const char *reduce_name(ReduceOp op);

/// A reduction over the interior (or a domain) of an expression; the value is a double.
struct Reduction {
  SourceLoc loc;
  std::string name;
  std::vector<std::string> indices;
  int rank = 0;
  Domain domain;
  ReduceOp op = ReduceOp::Sum;
  ExprPtr value;        // numeric
  int domain_grid = -1; // the first grid read: the reduction runs over its interior
};

/// Whether a reduction combines in 64-bit integers: sum, min, max and prod of an `int` value.
/// Sums and products wrap modulo 2^64 (exact, and the same whatever the order of combination);
/// the others and every floating-point value combine in double.
bool integer_reduction(const Reduction &r);
/// The C++ type of a reduction's value: "std::int64_t" or "double".
const char *reduction_cxx_type(const Reduction &r);

struct RunStmt {
  enum class Kind { Call, Swap, Reduce };
  Kind kind;
  SourceLoc loc;
  int a = -1, b = -1; // kernel index, the two grid indices, or the reduction index
};

struct Program {
  std::string name;
  std::string source_path;
  std::vector<Param> params;
  std::vector<Grid> grids;
  std::vector<Kernel> kernels;
  std::vector<Reduction> reductions;
  /// `run steps`/`run N`: the step count (null for "steps": --steps, default 10).
  /// `run until C max N`: `steps` is N, `until` is C (bool; reads reductions).
  ExprPtr steps;
  ExprPtr until;
  SourceLoc run_loc;
  std::vector<RunStmt> run;
  /// Named run blocks (`run NAME: N { ... }`), in declaration order: they run before the main
  /// block, each its count of steps, and alone through the C++ API (run_NAME). Naive plans
  /// only; `run`, `steps` and `until` above are the main block's.
  struct Block {
    std::string name;
    SourceLoc loc;
    ExprPtr steps; // an int expression of params
    std::vector<RunStmt> run;
  };
  std::vector<Block> blocks;
};

/// The grids of each struct grid (members, in declaration order), in the order of the struct
/// grids: what layout=aosoa allocates together.
std::vector<std::vector<int>> struct_groups(const Program &p);
/// p with the halos of each struct group's members joined above dimension 0 (their rows are
/// interleaved under layout=aosoa, so they share the rows of every plane; each keeps its own
/// halo in x).
Program with_group_halos(const Program &p);

/// Every statement of every run block, the main one first: what a swap or a write anywhere
/// means for the program as a whole (halos, coefficients).
std::vector<RunStmt> all_run_stmts(const Program &p);

constexpr std::int64_t kDefaultSteps = 10;

/// Calls f(expr) on e and every subexpression, parents first (a grid read's absolute indices
/// given by params included).
template <typename F> void walk(const ExprPtr &e, F &&f) {
  if (!e)
    return;
  f(*e);
  for (const auto &i : e->at)
    walk(i, f);
  walk(e->a, f);
  walk(e->b, f);
  walk(e->c, f);
}

/// Calls f(expr) on every expression of the statements (conditions included).
template <typename F> void walk(const std::vector<Stmt> &body, F &&f) {
  for (const auto &s : body) {
    walk(s.value, f);
    walk(s.then_body, f);
    walk(s.else_body, f);
  }
}

/// Calls f(stmt) on every statement, nested ones included.
template <typename F> void for_each_stmt(const std::vector<Stmt> &body, F &&f) {
  for (const auto &s : body) {
    f(s);
    for_each_stmt(s.then_body, f);
    for_each_stmt(s.else_body, f);
  }
}

/// Whether this operation alone can fail at run time: an int division or remainder, unless its
/// divisor is a constant other than 0 and -1 (INT64_MIN / -1 overflows), and int() of a
/// floating value (NaN, infinities and values beyond 64 bits have no int).
bool may_fail(const Expr &e);
/// Whether some operation of an expression, or of statements (nested ones and conditions
/// included), may fail (may_fail): what a target checks per cell and what a temporal plan refuses.
template <typename Node> bool any_may_fail(const Node &n) {
  bool found = false;
  walk(n, [&](const Expr &e) { found = found || may_fail(e); });
  return found;
}

/// Grids an expression or statements read, and grids statements assign.
std::set<int> grids_read(const ExprPtr &e);
std::set<int> grids_read(const std::vector<Stmt> &body);
std::set<int> grids_written(const std::vector<Stmt> &body);
/// Bit d set: some kernel or reduction reads a grid at an absolute index in dimension d (such a
/// dimension is never split among MPI ranks: every rank holds the cells it reads).
unsigned absolute_dims(const Program &p);
/// The dimensions the MPI targets never split (bit d): absolute_dims, and the dimensions that a
/// grid of lower rank which is distributed (not in lower_rank_grids) does not have, since its
/// blocks follow the process grid's first dimensions only.
unsigned unsplit_dims(const Program &p);
/// Calls f(read, owner, rank) for every read of a grid of lower rank than the kernel or
/// reduction it is in (owner: "kernel 'K'" or "reduction 'R'"; rank: the kernel's).
template <typename F> void for_each_lower_rank_read(const Program &p, F &&f) {
  // The owner's name is copied into the visitor: it outlives the string it was made from.
  auto each = [&](std::string owner, int rank) {
    return [&p, &f, owner = std::move(owner), rank](const Expr &e) {
      if (e.op == Op::GridRead && p.grids[e.id].rank < rank)
        f(e, owner, rank);
    };
  };
  for (const auto &k : p.kernels)
    walk(k.body, each("kernel '" + k.name + "'", k.rank));
  for (const auto &r : p.reductions)
    walk(r.value, each("reduction '" + r.name + "'", r.rank));
}
/// The grids some kernel or reduction of higher rank reads: coefficients (sema), which every
/// rank of the MPI targets holds whole and reads at global indices.
std::set<int> lower_rank_grids(const Program &p);

/// Readable dump of the program (for --print-ir and tests).
std::string print(const Program &p);
std::string print(const Program &p, const ExprPtr &e);
/// The program's part of a checkpoint's fingerprint (stencilc/checkpoint.h): a hash of print(p),
/// so the interpreter and every target agree on it and no source path enters it.
std::string program_hash(const Program &p);

} // namespace stc::ir
