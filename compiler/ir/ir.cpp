#include "ir/ir.h"

#include <cstdlib>

#include <fmt/format.h>

namespace stc::ir {

const char *type_name(Type t) {
  switch (t) {
  case Type::Int: return "int";
  case Type::Float: return "float";
  case Type::Double: return "double";
  }
  return "?";
}
const char *cxx_type_name(Type t) {
  return t == Type::Int ? "std::int64_t" : type_name(t);
}
const char *cxx_elem_name(Type t) {
  return t == Type::Int ? "std::int32_t" : type_name(t);
}
Type join(Type a, Type b) { return static_cast<int>(a) > static_cast<int>(b) ? a : b; }

namespace {
std::shared_ptr<Expr> node(Op op, Type t, SourceLoc loc) {
  auto e = std::make_shared<Expr>();
  e->op = op;
  e->type = t;
  e->loc = loc;
  return e;
}
} // namespace

ExprPtr Expr::int_const(SourceLoc loc, std::int64_t v) {
  auto e = node(Op::IntConst, Type::Int, loc);
  e->ival = v;
  return e;
}
ExprPtr Expr::float_const(SourceLoc loc, Type t, double v, std::string spelling) {
  if (t == Type::Int)
    internal_error("float_const of int type");
  auto e = node(Op::FloatConst, t, loc);
  // Round the spelling once, as a C++ compiler rounds the literal `spelling` or `spellingf`.
  if (!spelling.empty())
    v = t == Type::Float ? static_cast<double>(std::strtof(spelling.c_str(), nullptr))
                         : std::strtod(spelling.c_str(), nullptr);
  e->fval = t == Type::Float ? static_cast<double>(static_cast<float>(v)) : v;
  e->spelling = std::move(spelling);
  return e;
}
ExprPtr Expr::param(SourceLoc loc, Type t, int id) {
  auto e = node(Op::Param, t, loc);
  e->id = id;
  return e;
}
ExprPtr Expr::index(SourceLoc loc, int dim) {
  auto e = node(Op::Index, Type::Int, loc);
  e->id = dim;
  return e;
}
ExprPtr Expr::grid_read(SourceLoc loc, Type t, int grid, const Offsets &off) {
  auto e = node(Op::GridRead, t, loc);
  e->id = grid;
  e->offset = off;
  return e;
}
ExprPtr Expr::cast(Type to, ExprPtr a) {
  if (!a)
    internal_error("cast of null");
  if (a->type == to)
    return a;
  auto e = node(Op::Cast, to, a->loc);
  e->a = std::move(a);
  return e;
}
ExprPtr Expr::unary(Op op, SourceLoc loc, ExprPtr a) {
  if (op != Op::Neg || !a)
    internal_error("bad unary node");
  auto e = node(op, a->type, loc);
  e->a = std::move(a);
  return e;
}
ExprPtr Expr::binary(Op op, SourceLoc loc, ExprPtr a, ExprPtr b) {
  if (!a || !b || a->type != b->type ||
      !(op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Div))
    internal_error("bad binary node");
  auto e = node(op, a->type, loc);
  e->a = std::move(a);
  e->b = std::move(b);
  return e;
}

std::string print(const Program &p, const ExprPtr &e) {
  if (!e)
    return "<none>";
  switch (e->op) {
  case Op::IntConst: return std::to_string(e->ival);
  case Op::FloatConst: return fmt::format("{}:{}", e->spelling, type_name(e->type));
  case Op::Param: return p.params[e->id].name;
  case Op::Index: return fmt::format("i{}", e->id);
  case Op::GridRead: {
    const Grid &g = p.grids[e->id];
    std::string s = g.name + "[";
    for (int d = 0; d < g.rank; ++d)
      s += fmt::format("{}{:+d}", d ? "," : "", e->offset[d]);
    return s + "]";
  }
  case Op::Cast: return fmt::format("{}({})", type_name(e->type), print(p, e->a));
  case Op::Neg: return "-(" + print(p, e->a) + ")";
  default: break;
  }
  const char *ops[] = {"+", "-", "*", "/"};
  int k = static_cast<int>(e->op) - static_cast<int>(Op::Add);
  return "(" + print(p, e->a) + " " + ops[k] + " " + print(p, e->b) + ")";
}

std::string print(const Program &p) {
  std::string s = fmt::format("stencil {}\n", p.name);
  for (const auto &q : p.params)
    s += fmt::format("param {} {} = {}\n", type_name(q.type), q.name, print(p, q.init));
  for (const auto &g : p.grids) {
    s += fmt::format("grid {}{} {}[", g.readonly ? "readonly " : "", type_name(g.type), g.name);
    for (int d = 0; d < g.rank; ++d)
      s += (d ? ", " : "") + print(p, g.extents[d]);
    s += fmt::format("] halo [");
    for (int d = 0; d < g.rank; ++d)
      s += fmt::format("{}{}", d ? "," : "", g.halo[d]);
    s += fmt::format("] dirichlet({})\n", print(p, g.boundary.value));
  }
  for (const auto &k : p.kernels) {
    s += fmt::format("kernel {}(", k.name);
    for (std::size_t i = 0; i < k.indices.size(); ++i)
      s += (i ? ", " : "") + k.indices[i];
    s += ")\n";
    for (const auto &a : k.body)
      s += fmt::format("  {} = {}\n", p.grids[a.grid].name, print(p, a.value));
  }
  s += fmt::format("run {}\n", p.steps ? print(p, p.steps) : "steps");
  for (const auto &r : p.run)
    s += r.kind == RunStmt::Kind::Call
             ? fmt::format("  {}\n", p.kernels[r.a].name)
             : fmt::format("  swap {}, {}\n", p.grids[r.a].name, p.grids[r.b].name);
  return s;
}

} // namespace stc::ir
