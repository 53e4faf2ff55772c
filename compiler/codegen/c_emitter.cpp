#include "codegen/c_emitter.h"

#include <fmt/format.h>

namespace stc {
namespace {

int precedence(ir::Op op) {
  switch (op) {
  case ir::Op::Add:
  case ir::Op::Sub: return 1;
  case ir::Op::Mul:
  case ir::Op::Div: return 2;
  case ir::Op::Neg: return 3;
  default: return 4; // atoms, casts (printed as calls)
  }
}

} // namespace

std::string cxx_string(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string CEmitter::literal(const ir::Expr &e) const {
  if (e.op == ir::Op::IntConst) {
    if (e.ival > 2147483647 || e.ival < -2147483647)
      return fmt::format("std::int64_t{{{}}}", e.ival);
    return std::to_string(e.ival);
  }
  std::string s = e.spelling;
  if (s.find_first_of(".eE") == std::string::npos)
    s += ".0";
  return e.type == ir::Type::Float ? s + "f" : s;
}

std::string CEmitter::grid_read(const ir::Expr &e) const {
  return fmt::format("{}[?]", prog_.grids[e.id].name);
}
std::string CEmitter::param(const ir::Expr &e) const { return prog_.params[e.id].name; }
std::string CEmitter::index(const ir::Expr &e) const { return fmt::format("i{}", e.id); }

std::string CEmitter::expr(const ir::ExprPtr &e) const { return sub(e, 0, false); }

// Parenthesise a child when its operator binds looser than the parent's, or equally on the
// right (C++ operators are left-associative, like the language's).
std::string CEmitter::sub(const ir::ExprPtr &e, int parent_prec, bool right) const {
  const int prec = precedence(e->op);
  std::string s;
  switch (e->op) {
  case ir::Op::IntConst:
    // Language ints are 64-bit; a C++ literal like 65536 is a 32-bit int, so widen it
    // wherever it meets arithmetic.
    s = parent_prec > 0 ? fmt::format("INT64_C({})", e->ival) : literal(*e);
    break;
  case ir::Op::FloatConst: s = literal(*e); break;
  case ir::Op::Param: s = param(*e); break;
  case ir::Op::Index: s = index(*e); break;
  case ir::Op::GridRead:
    s = grid_read(*e);
    if (e->type == ir::Type::Int) // int grids store 32-bit values; arithmetic is 64-bit
      s = "static_cast<std::int64_t>(" + s + ")";
    break;
  case ir::Op::Cast:
    s = fmt::format("static_cast<{}>({})", ir::cxx_type_name(e->type), sub(e->a, 0, false));
    break;
  case ir::Op::Neg: {
    std::string a = sub(e->a, prec, false);
    s = a[0] == '-' ? "-(" + a + ")" : "-" + a;
    break;
  }
  default: {
    if (e->op == ir::Op::Div && e->type == ir::Type::Int) {
      std::string call = int_div(sub(e->a, 1, false), sub(e->b, 1, false));
      if (!call.empty())
        return call;
    }
    const char *ops[] = {"+", "-", "*", "/"};
    const int k = static_cast<int>(e->op) - static_cast<int>(ir::Op::Add);
    s = sub(e->a, prec, false) + " " + ops[k] + " " + sub(e->b, prec, true);
  }
  }
  const bool paren = prec < parent_prec || (right && prec == parent_prec && prec < 3);
  if (paren)
    return "(" + s + ")";
  return s;
}

} // namespace stc
