#include "ir/ir.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

namespace stc::ir {

const char *type_name(Type t) {
  switch (t) {
  case Type::Bool: return "bool";
  case Type::Int: return "int";
  case Type::Float: return "float";
  case Type::Double: return "double";
  }
  return "?";
}
const char *cxx_type_name(Type t) { return t == Type::Int ? "std::int64_t" : type_name(t); }
const char *elem_name(const Grid &g) {
  return g.type == Type::Int ? (g.wide ? "std::int64_t" : "std::int32_t") : type_name(g.type);
}
std::size_t elem_bytes(const Grid &g) {
  return g.type == Type::Double || (g.type == Type::Int && g.wide) ? 8 : 4;
}
Type join(Type a, Type b) { return static_cast<int>(a) > static_cast<int>(b) ? a : b; }

const char *fn_name(Fn f) {
  static const char *const names[] = {"sqrt", "exp", "log", "sin", "cos", "tan",
                                      "abs",  "min", "max", "pow", "floor"};
  return names[static_cast<int>(f)];
}
const char *boundary_name(BoundaryKind k) {
  static const char *const names[] = {"dirichlet", "neumann", "periodic"};
  return names[static_cast<int>(k)];
}
const char *reduce_name(ReduceOp op) {
  static const char *const names[] = {"sum", "min", "max", "norm2", "prod"};
  return names[static_cast<int>(op)];
}

std::vector<std::vector<int>> struct_groups(const Program &p) {
  std::vector<std::vector<int>> groups;
  std::vector<std::string> names;
  for (std::size_t g = 0; g < p.grids.size(); ++g) {
    if (p.grids[g].member_of.empty())
      continue;
    const auto it = std::find(names.begin(), names.end(), p.grids[g].member_of);
    if (it == names.end()) {
      names.push_back(p.grids[g].member_of);
      groups.push_back({static_cast<int>(g)});
    } else {
      groups[static_cast<std::size_t>(it - names.begin())].push_back(static_cast<int>(g));
    }
  }
  return groups;
}

Program with_group_halos(const Program &p) {
  Program q = p;
  for (const auto &group : struct_groups(p))
    for (int d = 1; d < kMaxRank; ++d) {
      int h = 0;
      for (int g : group)
        h = std::max(h, q.grids[g].halo[d]);
      for (int g : group)
        q.grids[g].halo[d] = h;
    }
  return q;
}

std::vector<RunStmt> all_run_stmts(const Program &p) {
  std::vector<RunStmt> all = p.run;
  for (const auto &b : p.blocks)
    all.insert(all.end(), b.run.begin(), b.run.end());
  return all;
}

bool integer_reduction(const Reduction &r) {
  return r.op != ReduceOp::Norm2 && r.value && r.value->type == Type::Int;
}

const char *reduction_cxx_type(const Reduction &r) {
  return integer_reduction(r) ? "std::int64_t" : "double";
}

int colour_of(const Domain &d) {
  return d.kind == Domain::Kind::Red     ? 0
         : d.kind == Domain::Kind::Black ? 1
         : d.kind == Domain::Kind::Range ? d.colour
                                         : -1;
}

bool is_binary(Op op) { return op >= Op::Add && op <= Op::Or; }
bool is_comparison(Op op) { return op >= Op::Lt && op <= Op::Ne; }

bool Grid::time_dependent_ghosts() const {
  for (int f = 0; f < 2 * rank; ++f)
    if (faces[f].kind != BoundaryKind::Dirichlet)
      return true;
  return false;
}

namespace {
std::shared_ptr<Expr> node(Op op, Type t, SourceLoc loc) {
  auto e = std::make_shared<Expr>();
  e->op = op;
  e->type = t;
  e->loc = loc;
  return e;
}
bool numeric(Type t) { return t != Type::Bool; }
} // namespace

ExprPtr Expr::int_const(SourceLoc loc, std::int64_t v) {
  auto e = node(Op::IntConst, Type::Int, loc);
  e->ival = v;
  return e;
}
ExprPtr Expr::float_const(SourceLoc loc, Type t, double v, std::string spelling) {
  if (t != Type::Float && t != Type::Double)
    internal_error("float_const of a non-floating type");
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
ExprPtr Expr::local(SourceLoc loc, Type t, int id) {
  auto e = node(Op::Local, t, loc);
  e->id = id;
  return e;
}
ExprPtr Expr::grid_read(SourceLoc loc, Type t, int grid, const Offsets &off, unsigned absolute,
                        const Axes &axis, const Indices &at) {
  auto e = node(Op::GridRead, t, loc);
  e->id = grid;
  e->offset = off;
  e->absolute = absolute;
  e->axis = axis;
  e->at = at;
  return e;
}
ExprPtr Expr::reduction(SourceLoc loc, int id, bool first) {
  auto e = node(first ? Op::ReductionFirst : Op::Reduction, Type::Double, loc);
  e->id = id;
  return e;
}
ExprPtr Expr::cast(Type to, ExprPtr a) {
  if (!a || !numeric(to) || !numeric(a->type))
    internal_error("bad cast");
  if (a->type == to)
    return a;
  auto e = node(Op::Cast, to, a->loc);
  e->a = std::move(a);
  return e;
}
ExprPtr Expr::unary(Op op, SourceLoc loc, ExprPtr a) {
  if (!a || !((op == Op::Neg && numeric(a->type)) || (op == Op::Not && a->type == Type::Bool)))
    internal_error("bad unary node");
  auto e = node(op, a->type, loc);
  e->a = std::move(a);
  return e;
}
ExprPtr Expr::binary(Op op, SourceLoc loc, ExprPtr a, ExprPtr b) {
  if (!a || !b || a->type != b->type || !is_binary(op))
    internal_error("bad binary node");
  Type t = a->type;
  if (op == Op::And || op == Op::Or) {
    if (t != Type::Bool)
      internal_error("logical operator on numbers");
  } else if (!numeric(t) || (op == Op::Mod && t != Type::Int)) {
    internal_error("bad operand type");
  }
  if (is_comparison(op))
    t = Type::Bool;
  auto e = node(op, t, loc);
  e->a = std::move(a);
  e->b = std::move(b);
  return e;
}
ExprPtr Expr::select(SourceLoc loc, ExprPtr cond, ExprPtr a, ExprPtr b) {
  if (!cond || !a || !b || cond->type != Type::Bool || a->type != b->type)
    internal_error("bad select node");
  auto e = node(Op::Select, a->type, loc);
  e->a = std::move(cond);
  e->b = std::move(a);
  e->c = std::move(b);
  return e;
}
ExprPtr Expr::call(SourceLoc loc, Fn fn, Type t, ExprPtr a, ExprPtr b) {
  const bool two = fn == Fn::Min || fn == Fn::Max || fn == Fn::Pow;
  const bool int_ok = fn == Fn::Abs || fn == Fn::Min || fn == Fn::Max;
  if (!a || a->type != t || two != static_cast<bool>(b) || (b && b->type != t) ||
      !numeric(t) || (t == Type::Int && !int_ok))
    internal_error("bad call node");
  auto e = node(Op::Call, t, loc);
  e->fn = fn;
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
  case Op::Local: return fmt::format("local{}", e->id);
  case Op::Reduction: return p.reductions[e->id].name;
  case Op::ReductionFirst: return fmt::format("first({})", p.reductions[e->id].name);
  case Op::GridRead: {
    const Grid &g = p.grids[e->id];
    std::string s = g.name + "[";
    for (int d = 0; d < g.rank; ++d)
      s += e->at[d]            ? fmt::format("{}@({})", d ? "," : "", print(p, e->at[d]))
           : e->absolute_in(d) ? fmt::format("{}@{}", d ? "," : "", e->offset[d])
           : e->axis[d] != d   ? fmt::format("{}i{}{:+d}", d ? "," : "", e->axis[d], e->offset[d])
                               : fmt::format("{}{:+d}", d ? "," : "", e->offset[d]);
    return s + "]";
  }
  case Op::Cast: return fmt::format("{}({})", type_name(e->type), print(p, e->a));
  case Op::Neg: return "-(" + print(p, e->a) + ")";
  case Op::Not: return "!(" + print(p, e->a) + ")";
  case Op::Call:
    return fmt::format("{}:{}({}{}{})", fn_name(e->fn), type_name(e->type), print(p, e->a),
                       e->b ? ", " : "", e->b ? print(p, e->b) : "");
  case Op::Select:
    return "(" + print(p, e->a) + " ? " + print(p, e->b) + " : " + print(p, e->c) + ")";
  default: break;
  }
  static const char *const ops[] = {"+", "-", "*", "/", "%", "<", "<=",
                                    ">", ">=", "==", "!=", "&&", "||"};
  const int k = static_cast<int>(e->op) - static_cast<int>(Op::Add);
  return "(" + print(p, e->a) + " " + ops[k] + " " + print(p, e->b) + ")";
}

namespace {

void print_domain(const Program &p, const Domain &d, std::string &s) {
  switch (d.kind) {
  case Domain::Kind::Interior: break;
  case Domain::Kind::Red: s += " on red"; break;
  case Domain::Kind::Black: s += " on black"; break;
  case Domain::Kind::Range:
    s += d.colour < 0 ? " on [" : d.colour == 0 ? " on red [" : " on black [";
    for (std::size_t i = 0; i < d.lo.size(); ++i)
      s += fmt::format("{}{}:{}", i ? ", " : "", print(p, d.lo[i]), print(p, d.hi[i]));
    s += "]";
  }
}

void print_body(const Program &p, const Kernel &k, const std::vector<Stmt> &body, int depth,
                std::string &s) {
  const std::string pad(2 * depth, ' ');
  for (const auto &st : body) {
    switch (st.kind) {
    case Stmt::Kind::Assign:
      s += fmt::format("{}{} = {}\n", pad, p.grids[st.grid].name, print(p, st.value));
      break;
    case Stmt::Kind::Let:
      if (st.reassign)
        s += fmt::format("{}set local{} ({}) = {}\n", pad, st.local, k.locals[st.local].name,
                         print(p, st.value));
      else
        s += fmt::format("{}{} local{} {} ({}) = {}\n", pad, k.locals[st.local].mut ? "var" : "let",
                         st.local, type_name(k.locals[st.local].type), k.locals[st.local].name,
                         print(p, st.value));
      break;
    case Stmt::Kind::If:
      s += fmt::format("{}if {}\n", pad, print(p, st.value));
      print_body(p, k, st.then_body, depth + 1, s);
      if (!st.else_body.empty()) {
        s += pad + "else\n";
        print_body(p, k, st.else_body, depth + 1, s);
      }
      break;
    }
  }
}

} // namespace

std::string print(const Program &p) {
  std::string s = fmt::format("stencil {}\n", p.name);
  for (const auto &q : p.params)
    s += fmt::format("param {} {} = {}\n", type_name(q.type), q.name, print(p, q.init));
  for (const auto &g : p.grids) {
    s += fmt::format("grid {}{} {}[", g.readonly ? "readonly " : "",
                     g.wide ? "long" : type_name(g.type), g.name);
    for (int d = 0; d < g.rank; ++d)
      s += (d ? ", " : "") + print(p, g.extents[d]);
    s += fmt::format("] halo [");
    for (int d = 0; d < g.rank; ++d)
      s += fmt::format("{}{}", d ? "," : "", g.halo[d]);
    s += "]";
    for (int f = 0; f < 2 * g.rank; ++f) {
      const Face &face = g.faces[f];
      s += fmt::format(" {}{}:{}", "xyzw"[f / 2], f % 2 ? '+' : '-', boundary_name(face.kind));
      if (face.kind == BoundaryKind::Dirichlet)
        s += "(" + print(p, face.value) + ")";
    }
    s += "\n";
    if (g.init)
      s += fmt::format("init {} = {}\n", g.name, print(p, g.init));
  }
  for (const auto &k : p.kernels) {
    s += fmt::format("kernel {}(", k.name);
    for (std::size_t i = 0; i < k.indices.size(); ++i)
      s += (i ? ", " : "") + k.indices[i];
    s += ")";
    print_domain(p, k.domain, s);
    s += "\n";
    print_body(p, k, k.body, 1, s);
  }
  for (const auto &r : p.reductions) {
    s += fmt::format("reduce {} = {}({})", r.name, reduce_name(r.op), print(p, r.value));
    print_domain(p, r.domain, s);
    s += "\n";
  }
  if (p.until)
    s += fmt::format("run until {} max {}\n", print(p, p.until), print(p, p.steps));
  else
    s += fmt::format("run {}\n", p.steps ? print(p, p.steps) : "steps");
  auto stmts = [&](const std::vector<RunStmt> &run) {
    for (const auto &r : run) {
      switch (r.kind) {
      case RunStmt::Kind::Call: s += fmt::format("  {}\n", p.kernels[r.a].name); break;
      case RunStmt::Kind::Reduce: s += fmt::format("  {}\n", p.reductions[r.a].name); break;
      case RunStmt::Kind::Swap:
        s += fmt::format("  swap {}, {}\n", p.grids[r.a].name, p.grids[r.b].name);
        break;
      }
    }
  };
  stmts(p.run);
  // Named blocks after the main one, so a program without them prints as it always did.
  for (const auto &b : p.blocks) {
    s += fmt::format("run {}: {}\n", b.name, print(p, b.steps));
    stmts(b.run);
  }
  return s;
}

bool may_fail(const Expr &e) {
  if (e.op == Op::Cast)
    return e.type == Type::Int; // casts are never int to int
  if ((e.op != Op::Div && e.op != Op::Mod) || e.type != Type::Int)
    return false;
  const Expr &d = *e.b;
  const bool neg = d.op == Op::Neg;
  const Expr &lit = neg ? *d.a : d;
  if (lit.op != Op::IntConst)
    return true;
  const std::int64_t v = neg ? -lit.ival : lit.ival; // a literal is at most INT64_MAX
  return v == 0 || v == -1;
}

std::set<int> grids_read(const ExprPtr &e) {
  std::set<int> g;
  walk(e, [&](const Expr &x) {
    if (x.op == Op::GridRead)
      g.insert(x.id);
  });
  return g;
}

std::set<int> grids_read(const std::vector<Stmt> &body) {
  std::set<int> g;
  walk(body, [&](const Expr &x) {
    if (x.op == Op::GridRead)
      g.insert(x.id);
  });
  return g;
}

unsigned absolute_dims(const Program &p) {
  unsigned dims = 0;
  auto visit = [&](const Expr &x) {
    if (x.op == Op::GridRead)
      dims |= x.absolute;
  };
  for (const auto &k : p.kernels)
    walk(k.body, visit);
  for (const auto &r : p.reductions)
    walk(r.value, visit);
  return dims;
}

unsigned unsplit_dims(const Program &p) {
  int max_rank = 1;
  for (const auto &g : p.grids)
    max_rank = std::max(max_rank, g.rank);
  unsigned dims = absolute_dims(p);
  const std::set<int> whole = lower_rank_grids(p);
  for (std::size_t i = 0; i < p.grids.size(); ++i)
    if (!whole.count(static_cast<int>(i)))
      for (int d = p.grids[i].rank; d < max_rank; ++d)
        dims |= 1u << d;
  return dims;
}

std::set<int> lower_rank_grids(const Program &p) {
  std::set<int> g;
  for_each_lower_rank_read(p, [&](const Expr &e, const std::string &, int) { g.insert(e.id); });
  return g;
}

std::set<int> grids_written(const std::vector<Stmt> &body) {
  std::set<int> g;
  for_each_stmt(body, [&](const Stmt &s) {
    if (s.kind == Stmt::Kind::Assign)
      g.insert(s.grid);
  });
  return g;
}

} // namespace stc::ir
