// The parsed program as written: names are unresolved, nothing is type-checked yet.
// Built by parse.cpp from the ANTLR tree (which is discarded); checked into ir:: by sema.
#pragma once
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "support/diagnostics.h"

namespace stc::ast {

enum class TypeName { Int, Long, Float, Double };

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  enum class Kind {
    Int, Float, Name, Access, Call, Conv, // atoms; Call: text = function; Conv: text = type
    Neg, Plus, Not,                       // unary
    Add, Sub, Mul, Div, Mod, Lt, Le, Gt, Ge, Eq, Ne, And, Or, // binary
    Cond                                  // a ? b : c
  };
  Kind kind;
  SourceLoc loc;              // binary/unary: the operator; others: the first token
  std::string text;           // literal spelling, name, function or type name
  std::vector<ExprPtr> args;  // operands, subscripts or call arguments
  SourceLoc name_loc;         // Access: where the grid name is
  // Access to a struct element: the member, and an index per dimension of an array member
  // (`g[x, y].r[1]`); structs.cpp makes it a read of the member's own grid.
  std::string member;
  std::vector<int> member_index;
  SourceLoc member_loc;
};

/// `float r[2][3];` in a struct: a scalar type, and the extents of an array member.
struct StructMember {
  SourceLoc loc;
  TypeName type;
  std::string name;
  std::vector<int> dims;
};

/// `struct Point { ... }`: an element type of grids, stored as one grid per member.
struct StructDecl {
  SourceLoc loc;
  std::string name;
  std::vector<StructMember> members;
};

struct Param {
  SourceLoc loc;
  TypeName type;
  std::string name;
  ExprPtr init; // may be null: then the value must come from --set
};

/// One item of a boundary clause: `KIND(VALUE)` for every face, or `FACE: KIND(VALUE)`.
struct BoundaryItem {
  SourceLoc loc;
  std::string face; // "" (all faces), or x, y, z, w
  int side = 0;     // 0 both faces of `face`, -1 the low one, +1 the high one
  SourceLoc face_loc;
  std::string kind; // dirichlet, neumann, periodic, ...
  SourceLoc kind_loc;
  ExprPtr value;    // may be null
};

struct Grid {
  SourceLoc loc;
  TypeName type;
  std::string struct_type; // a struct's name (then `type` is unused), or empty
  SourceLoc struct_loc;
  std::string member_of; // split structs: the struct grid this grid is a member of, or empty
  bool readonly = false;
  std::string name;
  std::vector<ExprPtr> extents; // explicit shape
  std::string like;             // or the grid whose shape this copies
  SourceLoc like_loc;
  bool has_boundary = false;
  std::vector<BoundaryItem> boundary;
};

struct Init {
  SourceLoc loc;
  std::string grid;
  SourceLoc grid_loc;
  std::vector<std::string> indices;
  std::vector<SourceLoc> index_locs;
  std::string member; // of a struct grid, as in an Access
  std::vector<int> member_index;
  SourceLoc member_loc;
  ExprPtr value;
};

/// Where a kernel or reduction applies: everywhere, a box of the interior, or a colour.
struct Domain {
  enum class Kind { Interior, Range, Colour };
  Kind kind = Kind::Interior;
  SourceLoc loc;
  std::vector<std::pair<ExprPtr, ExprPtr>> ranges; // [lo:hi) per dimension
  std::string colour; // Colour: red or black, of the interior or of the ranges if given
};

struct Stmt {
  // Var declares a mutable local, Set assigns one; For repeats then_body with `name` bound to
  // each integer of [from, to) (constants: sema unrolls it).
  enum class Kind { Assign, Let, Var, Set, If, For };
  Kind kind;
  SourceLoc loc;
  ExprPtr target;           // Assign: an Access
  std::string name;         // Let, Var, Set: the local; For: the loop variable
  ExprPtr value;            // Assign, Let, Var, Set: the value; If: the condition
  std::vector<Stmt> then_body, else_body; // If; For: the body in then_body
  ExprPtr from, to;         // For
};

/// A kernel's parameter, bound at each call in the run block: a grid, or a scalar of a type.
struct KernelParam {
  SourceLoc loc;
  bool grid = false;
  TypeName type = TypeName::Double; // a scalar's
  std::string name;
};

struct Kernel {
  SourceLoc loc;
  std::string name;
  std::vector<std::string> indices;
  std::vector<SourceLoc> index_locs;
  std::vector<KernelParam> params; // none: an ordinary kernel (instantiate.cpp binds them)
  Domain domain;
  std::vector<Stmt> body;
  // A copy instantiate.cpp made of a kernel with parameters: the first call it serves, which
  // sema's errors in the copy name in a note.
  SourceLoc call_loc;
  std::string call_text;
};

struct Reduce {
  SourceLoc loc;
  std::string name;
  std::vector<std::string> indices;
  std::vector<SourceLoc> index_locs;
  Domain domain;
  std::string op; // sum, min, max, norm2, prod
  SourceLoc op_loc;
  ExprPtr value;
};

struct RunStmt {
  enum class Kind { Call, Swap };
  Kind kind = Kind::Call;
  SourceLoc loc;
  std::string a, b; // kernel or reduction name, or the two grids
  SourceLoc a_loc, b_loc;
  bool has_args = false;     // Call: written with parentheses, `step(u, v, 0.5)`
  std::vector<ExprPtr> args; // ... and these arguments
};

struct Run {
  SourceLoc loc;
  std::string name; // "" for the main block; a named block runs before it (and via the API)
  SourceLoc name_loc;
  bool until = false;
  ExprPtr count; // steps: the step count; until: the iteration limit
  ExprPtr cond;  // until: the stop condition
  std::vector<RunStmt> body;
};

struct Program {
  std::string name;
  SourceLoc name_loc;
  std::vector<Param> params;
  std::vector<StructDecl> structs; // structs.cpp replaces their grids by one per member
  std::vector<Grid> grids;
  std::vector<Init> inits;
  std::vector<Kernel> kernels;
  std::vector<Reduce> reduces;
  std::vector<Run> runs; // sema requires exactly one unnamed (main) block; named ones any number
};

/// The type as written in .stn: int, long, float, double.
inline const char *type_text(TypeName t) {
  return t == TypeName::Int     ? "int"
         : t == TypeName::Long  ? "long"
         : t == TypeName::Float ? "float"
                                : "double";
}

/// The grid that holds member[index...] of the elements of struct grid `grid` (structure of
/// arrays, sema/structs.cpp): grid_member_i_j.
inline std::string member_grid_name(const std::string &grid, const std::string &member,
                                    const std::vector<int> &index) {
  std::string s = grid + "_" + member;
  for (int i : index)
    s += "_" + std::to_string(i);
  return s;
}

/// The names the program declares: params, grids, kernels and reductions.
inline std::set<std::string> declared_names(const Program &p) {
  std::set<std::string> names;
  for (const auto &x : p.params)
    names.insert(x.name);
  for (const auto &x : p.grids)
    names.insert(x.name);
  for (const auto &x : p.kernels)
    names.insert(x.name);
  for (const auto &x : p.reduces)
    names.insert(x.name);
  return names;
}

} // namespace stc::ast
