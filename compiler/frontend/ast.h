// The parsed program as written: names are unresolved, nothing is type-checked yet.
// Built by parse.cpp from the ANTLR tree (which is discarded); checked into ir:: by sema.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/diagnostics.h"

namespace stc::ast {

enum class TypeName { Int, Float, Double };

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  enum class Kind { Int, Float, Name, Access, Neg, Plus, Add, Sub, Mul, Div };
  Kind kind;
  SourceLoc loc;
  std::string text;           // literal spelling, or the name (Name, Access)
  std::vector<ExprPtr> args;  // operands, or the index expressions of an Access
  SourceLoc name_loc;         // Access: where the grid name is
};

struct Param {
  SourceLoc loc;
  TypeName type;
  std::string name;
  ExprPtr init; // may be null: then the value must come from --set
};

struct Boundary {
  SourceLoc loc;
  std::string kind; // "dirichlet", ...
  ExprPtr value;    // may be null
};

struct Grid {
  SourceLoc loc;
  TypeName type;
  bool readonly = false;
  std::string name;
  std::vector<ExprPtr> extents; // explicit shape
  std::string like;             // or the grid whose shape this copies
  SourceLoc like_loc;
  std::optional<Boundary> boundary;
};

struct Assign {
  SourceLoc loc;
  ExprPtr target; // an Access
  ExprPtr value;
};

struct Kernel {
  SourceLoc loc;
  std::string name;
  std::vector<std::string> indices;
  std::vector<SourceLoc> index_locs;
  std::vector<Assign> body;
};

struct RunStmt {
  enum class Kind { Call, Swap };
  Kind kind;
  SourceLoc loc;
  std::string a, b; // kernel name, or the two grids
  SourceLoc a_loc, b_loc;
};

struct Run {
  SourceLoc loc;
  ExprPtr count;
  std::vector<RunStmt> body;
};

struct Program {
  std::string name;
  SourceLoc name_loc;
  std::vector<Param> params;
  std::vector<Grid> grids;
  std::vector<Kernel> kernels;
  std::vector<Run> runs; // sema requires exactly one
};

} // namespace stc::ast
