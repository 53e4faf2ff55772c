#include "codegen/c_emitter.h"

#include <fmt/format.h>

namespace stc {
namespace {

// C++ precedence, loosest first.
int precedence(ir::Op op) {
  switch (op) {
  case ir::Op::Select: return 1;
  case ir::Op::Or: return 2;
  case ir::Op::And: return 3;
  case ir::Op::Eq:
  case ir::Op::Ne: return 4;
  case ir::Op::Lt:
  case ir::Op::Le:
  case ir::Op::Gt:
  case ir::Op::Ge: return 5;
  case ir::Op::Add:
  case ir::Op::Sub: return 6;
  case ir::Op::Mul:
  case ir::Op::Div:
  case ir::Op::Mod: return 7;
  case ir::Op::Neg:
  case ir::Op::Not: return 8;
  default: return 9; // atoms, casts and calls
  }
}

const char *op_text(ir::Op op) {
  switch (op) {
  case ir::Op::Add: return "+";
  case ir::Op::Sub: return "-";
  case ir::Op::Mul: return "*";
  case ir::Op::Div: return "/";
  case ir::Op::Mod: return "%";
  case ir::Op::Lt: return "<";
  case ir::Op::Le: return "<=";
  case ir::Op::Gt: return ">";
  case ir::Op::Ge: return ">=";
  case ir::Op::Eq: return "==";
  case ir::Op::Ne: return "!=";
  case ir::Op::And: return "&&";
  case ir::Op::Or: return "||";
  default: return "?";
  }
}

// The <cmath> function for a type: std::fabs for floating abs, std::abs for int.
std::string fn_text(ir::Fn fn, ir::Type t) {
  if (fn == ir::Fn::Abs && t != ir::Type::Int)
    return "std::fabs";
  // The type spelled out: std::min and std::max deduce it from both arguments, which fails
  // when one is a proxy for a grid element (the GPU targets' CPU execution layer).
  if (fn == ir::Fn::Min || fn == ir::Fn::Max)
    return fmt::format("std::{}<{}>", ir::fn_name(fn), ir::cxx_type_name(t));
  return std::string("std::") + ir::fn_name(fn);
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
std::string CEmitter::local(const ir::Expr &e) const { return fmt::format("local{}", e.id); }
std::string CEmitter::reduction(const ir::Expr &e) const {
  return fmt::format("{}__{}_", e.op == ir::Op::Reduction ? "red" : "first",
                     prog_.reductions[e.id].name);
}

std::string CEmitter::expr(const ir::ExprPtr &e) const { return sub(e, 0, false); }

// Parenthesise a child when its operator binds looser than the parent's, or equally on the
// right (C++ binary operators are left-associative, like the language's).
std::string CEmitter::sub(const ir::ExprPtr &e, int parent_prec, bool right) const {
  const int prec = precedence(e->op);
  std::string s;
  switch (e->op) {
  case ir::Op::IntConst:
    // Language ints are 64-bit; a C++ literal like 65536 is a 32-bit int, so widen it
    // wherever it meets an operator or a call.
    s = parent_prec > 0 ? fmt::format("INT64_C({})", e->ival) : literal(*e);
    break;
  case ir::Op::FloatConst: s = literal(*e); break;
  case ir::Op::Param: s = param(*e); break;
  case ir::Op::Index: s = index(*e); break;
  case ir::Op::Local: s = local(*e); break;
  case ir::Op::Reduction:
  case ir::Op::ReductionFirst: s = reduction(*e); break;
  case ir::Op::GridRead:
    s = grid_read(*e);
    if (e->type == ir::Type::Int) // int grids store 32-bit values; arithmetic is 64-bit
      s = "static_cast<std::int64_t>(" + s + ")";
    break;
  case ir::Op::Cast:
    if (e->type == ir::Type::Int) {
      std::string call = int_cast(sub(e->a, 0, false));
      if (!call.empty()) {
        s = call;
        break;
      }
    }
    s = fmt::format("static_cast<{}>({})", ir::cxx_type_name(e->type), sub(e->a, 0, false));
    break;
  case ir::Op::Call:
    s = fn_text(e->fn, e->type) + "(" + sub(e->a, 1, false) +
        (e->b ? ", " + sub(e->b, 1, false) : std::string()) + ")";
    break;
  case ir::Op::Neg:
  case ir::Op::Not: {
    std::string a = sub(e->a, prec, false);
    const char *op = e->op == ir::Op::Neg ? "-" : "!";
    s = a[0] == op[0] ? std::string(op) + "(" + a + ")" : op + a;
    break;
  }
  case ir::Op::Select:
    // Always parenthesised: a ?: inside anything reads badly without.
    return "(" + sub(e->a, 2, false) + " ? " + sub(e->b, 1, false) + " : " + sub(e->c, 1, false) +
           ")";
  default: {
    if ((e->op == ir::Op::Div || e->op == ir::Op::Mod) && ir::may_fail(*e)) {
      std::string call = int_divmod(op_text(e->op), sub(e->a, 1, false), sub(e->b, 1, false));
      if (!call.empty())
        return call;
    }
    s = sub(e->a, prec, false) + " " + op_text(e->op) + " " + sub(e->b, prec, true);
  }
  }
  // (&& inside || is parenthesised too: it is what -Wparentheses asks for.)
  const bool paren = prec < parent_prec || (right && prec == parent_prec && prec < 8) ||
                     (parent_prec == 2 && e->op == ir::Op::And);
  if (paren)
    return "(" + s + ")";
  return s;
}

std::string cxx_plan(const stencilc::Plan &plan) {
  namespace sch = stencilc::scheme;
  std::string scheme = "stencilc::scheme::Naive{}";
  if (const auto *t = plan.get<sch::CpuTemporal>())
    // The fields up to the last that differs from its default.
    scheme = t->xreg     ? fmt::format("stencilc::scheme::CpuTemporal{{{}, {}, {}, {}, {}, true}}",
                                       t->k, t->rows, t->chunk, t->vec, t->carry)
             : !t->carry ? fmt::format("stencilc::scheme::CpuTemporal{{{}, {}, {}, {}, false}}",
                                       t->k, t->rows, t->chunk, t->vec)
             : t->vec == 256 ? fmt::format("stencilc::scheme::CpuTemporal{{{}, {}, {}}}", t->k,
                                           t->rows, t->chunk)
                             : fmt::format("stencilc::scheme::CpuTemporal{{{}, {}, {}, {}}}", t->k,
                                           t->rows, t->chunk, t->vec);
  else if (const auto *s = plan.get<sch::GpuStreaming>())
    scheme =
        fmt::format("stencilc::scheme::GpuStreaming{{{}, {}, {}}}", s->tile_x, s->tile_y, s->chunk);
  else if (const auto *g = plan.get<sch::GpuTemporal>())
    scheme = fmt::format("stencilc::scheme::GpuTemporal{{{}, {}, {}, {}}}", g->k, g->tile_x,
                         g->tile_y, g->chunk);
  std::string dist = "std::nullopt";
  if (const auto &d = plan.distribution)
    dist = fmt::format("stencilc::Distribution{{{{{}, {}, {}, {}}}, {}, {}{}}}", d->procs[0],
                       d->procs[1], d->procs[2], d->procs[3], d->k, d->overlap ? "true" : "false",
                       d->host ? ", true" : "");
  return plan.layout == stencilc::Layout::Aosoa
             ? fmt::format("stencilc::Plan{{{}, {}, stencilc::Layout::Aosoa}}", scheme, dist)
             : fmt::format("stencilc::Plan{{{}, {}}}", scheme, dist);
}

} // namespace stc
