// Evaluation of typed IR expressions with C++ semantics (float arithmetic in float, int in
// 64-bit). Shared by sema (param defaults), the interpreter and the generated-code setup.
#pragma once
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

#include "ir/ir.h"

namespace stc::ir {

/// A value of a known ir::Type: ints and bools (0/1) in i, float and double in d (a float is
/// kept rounded).
struct Scalar {
  std::int64_t i = 0;
  double d = 0;
  static Scalar of_int(std::int64_t v) { return {v, static_cast<double>(v)}; }
  static Scalar of(Type t, double v);
  double as_double(Type t) const { return t == Type::Int ? static_cast<double>(i) : d; }
};

/// Thrown for integer division (or %) by zero or overflow of the division.
struct EvalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Env {
  const std::vector<Scalar> *params = nullptr;
  const std::int64_t *point = nullptr; // kernel indices, for Index nodes
  const Scalar *locals = nullptr;      // values of `let` locals, for Local nodes
  const std::vector<double> *reductions = nullptr;       // latest value of each reduction
  const std::vector<double> *reductions_first = nullptr; // first value of each reduction
  /// Reads a grid at a cell (the point plus the read's offsets, or its absolute indices);
  /// returns the value in the grid's type.
  std::function<Scalar(int grid, const std::array<std::int64_t, kMaxRank> &cell)> read;
};

Scalar eval(const Expr &e, const Env &env);

} // namespace stc::ir
