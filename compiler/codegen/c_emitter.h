// The shared C-like expression emitter. Targets derive from it and override only what they
// print differently (grid reads, names of params, indices, locals and reductions, integer
// division); the operator tree is printed with exactly the parentheses that keep the IR's
// evaluation order, so every target computes the same operations in the same order as the
// interpreter.
#pragma once
#include <string>

#include "ir/ir.h"
#include "stencilc/plan.h"

namespace stc {

class CEmitter {
public:
  explicit CEmitter(const ir::Program &p) : prog_(p) {}
  virtual ~CEmitter() = default;
  std::string expr(const ir::ExprPtr &e) const;

protected:
  virtual std::string grid_read(const ir::Expr &e) const;
  virtual std::string param(const ir::Expr &e) const;
  virtual std::string index(const ir::Expr &e) const;
  virtual std::string local(const ir::Expr &e) const;
  virtual std::string reduction(const ir::Expr &e) const;
  /// Integer division or remainder (`op` is "/" or "%") that may fail (ir::may_fail) as a call
  /// (e.g. one that checks for zero), or "" for the plain operator.
  virtual std::string int_divmod(const char *, const std::string &, const std::string &) const {
    return "";
  }
  /// int(x) of a floating value as a call that checks the range, or "" for static_cast.
  virtual std::string int_cast(const std::string &) const { return ""; }
  std::string literal(const ir::Expr &e) const;
  const ir::Program &prog_;

private:
  std::string sub(const ir::ExprPtr &e, int parent_prec, bool right) const;
};

/// A C++ string literal for s (quotes and escapes included).
std::string cxx_string(const std::string &s);

/// The plan as a C++ expression of type stencilc::Plan, for the generated code.
std::string cxx_plan(const stencilc::Plan &plan);

} // namespace stc
