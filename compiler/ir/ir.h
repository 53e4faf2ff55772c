// The checked program: names resolved to indices, every expression typed, every grid access
// reduced to constant offsets. Produced by sema, read by analysis, the interpreter and codegen.
// Nodes are immutable once made; each keeps the source location it came from.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "support/diagnostics.h"

namespace stc::ir {

enum class Type { Int, Float, Double };
const char *type_name(Type t);      // "int", "float", "double"
const char *cxx_type_name(Type t);  // "std::int64_t" (params, expressions), "float", "double"
const char *cxx_elem_name(Type t);  // grid element: "std::int32_t", "float", "double"
/// The usual arithmetic conversion: the wider of the two (int < float < double).
Type join(Type a, Type b);

constexpr int kMaxRank = 4;
using Offsets = std::array<int, kMaxRank>;

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

enum class Op { IntConst, FloatConst, Param, Index, GridRead, Cast, Neg, Add, Sub, Mul, Div };

struct Expr {
  Op op;
  Type type;
  SourceLoc loc;
  std::int64_t ival = 0; // IntConst
  double fval = 0;       // FloatConst (already rounded to `type`)
  std::string spelling;  // FloatConst as written, for readable generated code
  int id = -1;           // Param: param index; GridRead: grid index; Index: dimension
  Offsets offset{};      // GridRead: constant offset per dimension
  ExprPtr a, b;          // operands (Cast/Neg: a only)

  static ExprPtr int_const(SourceLoc loc, std::int64_t v);
  static ExprPtr float_const(SourceLoc loc, Type t, double v, std::string spelling);
  static ExprPtr param(SourceLoc loc, Type t, int id);
  static ExprPtr index(SourceLoc loc, int dim);
  static ExprPtr grid_read(SourceLoc loc, Type t, int grid, const Offsets &off);
  static ExprPtr cast(Type to, ExprPtr a);
  static ExprPtr unary(Op op, SourceLoc loc, ExprPtr a);
  /// Both operands must already have the result type (sema inserts the casts).
  static ExprPtr binary(Op op, SourceLoc loc, ExprPtr a, ExprPtr b);
};

struct Param {
  SourceLoc loc;
  std::string name;
  Type type;
  ExprPtr init; // null: required from --set; may read earlier params only
};

enum class BoundaryKind { Dirichlet };

struct Boundary {
  BoundaryKind kind = BoundaryKind::Dirichlet;
  ExprPtr value; // of the grid's type; reads params only
  SourceLoc loc;
};

struct Grid {
  SourceLoc loc;
  std::string name;
  Type type;
  bool readonly = false;
  int rank = 0;
  std::vector<ExprPtr> extents; // int expressions of params
  Boundary boundary;
  /// Ghost width per dimension: the widest offset any kernel reads this grid at, joined over
  /// grids that swap with it (so swapped grids share a layout). Filled in by sema.
  Offsets halo{};
};

struct Assign {
  SourceLoc loc;
  int grid = -1; // written at the centre point
  ExprPtr value; // of the grid's type
};

struct Kernel {
  SourceLoc loc;
  std::string name;
  std::vector<std::string> indices; // names of the dimensions, x first
  int rank = 0;
  std::vector<Assign> body;
  int domain_grid = -1; // the first written grid: the kernel runs over its interior
};

struct RunStmt {
  enum class Kind { Call, Swap };
  Kind kind;
  SourceLoc loc;
  int a = -1, b = -1; // kernel index, or the two grid indices
};

struct Program {
  std::string name;
  std::string source_path;
  std::vector<Param> params;
  std::vector<Grid> grids;
  std::vector<Kernel> kernels;
  /// Step count: an int expression of params, or null for "steps" (from --steps, default 10).
  ExprPtr steps;
  SourceLoc run_loc;
  std::vector<RunStmt> run;
};

constexpr std::int64_t kDefaultSteps = 10;

/// Calls f(expr) on e and every subexpression, parents first.
template <typename F> void walk(const ExprPtr &e, F &&f) {
  if (!e)
    return;
  f(*e);
  walk(e->a, f);
  walk(e->b, f);
}

/// Readable one-expression-per-line dump of the program (for --print-ir and tests).
std::string print(const Program &p);
std::string print(const Program &p, const ExprPtr &e);

} // namespace stc::ir
