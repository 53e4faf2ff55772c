#include "frontend/stn_print.h"

#include <fmt/format.h>

#include <map>
#include <set>

namespace stc {
namespace {

using K = ast::Expr::Kind;

const std::set<std::string> &keywords() {
  static const std::set<std::string> k = {
      "stencil", "param", "grid",   "readonly", "like", "boundary", "init",  "kernel", "on",
      "let",     "if",    "else",   "reduce",   "run",  "until",    "max",   "swap",   "int",
      "long",    "float", "double", "var",      "for",  "in",       "struct"};
  return k;
}

// Binding strength, loosest first: ?:, ||, &&, == !=, < <= > >=, + -, * / %, unary, atoms.
int precedence(K k) {
  switch (k) {
  case K::Cond: return 0;
  case K::Or: return 1;
  case K::And: return 2;
  case K::Eq: case K::Ne: return 3;
  case K::Lt: case K::Le: case K::Gt: case K::Ge: return 4;
  case K::Add: case K::Sub: return 5;
  case K::Mul: case K::Div: case K::Mod: return 6;
  case K::Neg: case K::Plus: case K::Not: return 7;
  default: return 8;
  }
}

const char *op_text(K k) {
  switch (k) {
  case K::Or: return "||";
  case K::And: return "&&";
  case K::Eq: return "==";
  case K::Ne: return "!=";
  case K::Lt: return "<";
  case K::Le: return "<=";
  case K::Gt: return ">";
  case K::Ge: return ">=";
  case K::Add: return "+";
  case K::Sub: return "-";
  case K::Mul: return "*";
  case K::Div: return "/";
  case K::Mod: return "%";
  case K::Neg: return "-";
  case K::Plus: return "+";
  case K::Not: return "!";
  default: return "?";
  }
}

class Printer {
public:
  explicit Printer(const ast::Program &p) : p_(p) {
    // Every name the program has, so a renamed one does not collide with another.
    for (const auto &x : p.params)
      used_.insert(x.name);
    for (const auto &x : p.grids)
      used_.insert(x.name);
    for (const auto &k : p.kernels) {
      used_.insert(k.name);
      used_.insert(k.indices.begin(), k.indices.end());
      for (const auto &st : k.body)
        collect(st);
    }
    for (const auto &r : p.reduces) {
      used_.insert(r.name);
      used_.insert(r.indices.begin(), r.indices.end());
    }
  }

  std::string program(const std::string &origin) {
    std::string body;
    body += fmt::format("stencil {};\n\n", name(p_.name));
    for (const auto &x : p_.params)
      body += fmt::format("param {} {}{};\n", type(x.type), name(x.name),
                          x.init ? " = " + expr(x.init) : "");
    if (!p_.params.empty())
      body += "\n";
    for (const auto &st : p_.structs)
      body += struct_decl(st);
    for (const auto &g : p_.grids)
      body += grid(g);
    for (const auto &i : p_.inits)
      body += fmt::format("init {}[{}]{} = {};\n", name(i.grid), names(i.indices),
                          member(i.member, i.member_index), expr(i.value));
    for (const auto &k : p_.kernels)
      body += "\n" + kernel(k);
    if (!p_.reduces.empty())
      body += "\n";
    for (const auto &r : p_.reduces)
      body += fmt::format("reduce {}({}){} = {}({});\n", name(r.name), names(r.indices),
                          domain(r.domain), r.op, expr(r.value));
    for (const auto &r : p_.runs)
      body += "\n" + run(r);
    std::string head = fmt::format("// Imported from {} by `stencilc import`.\n", origin);
    if (!renamed_.empty()) {
      std::string list;
      for (const auto &[from, to] : renamed_)
        list += fmt::format("{}{} -> {}", list.empty() ? "" : ", ", from, to);
      head += "// Renamed (keywords of .stn): " + list + ".\n";
    }
    return head + body;
  }

  const std::map<std::string, std::string> &renamed() const { return renamed_; }

private:
  void collect(const ast::Stmt &st) {
    if (st.kind == ast::Stmt::Kind::Let || st.kind == ast::Stmt::Kind::Var ||
        st.kind == ast::Stmt::Kind::For)
      used_.insert(st.name);
    for (const auto &x : st.then_body)
      collect(x);
    for (const auto &x : st.else_body)
      collect(x);
  }

  std::string name(const std::string &n) {
    if (!keywords().count(n))
      return n;
    auto it = renamed_.find(n);
    if (it != renamed_.end())
      return it->second;
    // (Not n + "_": a trailing underscore is reserved for the generated code.)
    std::string r = n + "_c";
    for (int i = 2; keywords().count(r) || used_.count(r); ++i)
      r = n + "_c" + std::to_string(i);
    renamed_[n] = r;
    used_.insert(r);
    return r;
  }
  std::string names(const std::vector<std::string> &v) {
    std::string s;
    for (const auto &x : v)
      s += (s.empty() ? "" : ", ") + name(x);
    return s;
  }
  static const char *type(ast::TypeName t) { return ast::type_text(t); }

  std::string member(const std::string &m, const std::vector<int> &index) {
    if (m.empty())
      return "";
    std::string s = "." + name(m);
    for (int i : index)
      s += fmt::format("[{}]", i);
    return s;
  }

  std::string struct_decl(const ast::StructDecl &st) {
    std::string s = fmt::format("struct {} {{\n", name(st.name));
    for (const auto &m : st.members) {
      s += fmt::format("  {} {}", type(m.type), name(m.name));
      for (int d : m.dims)
        s += fmt::format("[{}]", d);
      s += ";\n";
    }
    return s + "}\n";
  }

  std::string grid(const ast::Grid &g) {
    std::string s =
        fmt::format("grid {}{} {}", g.readonly ? "readonly " : "",
                    g.struct_type.empty() ? type(g.type) : name(g.struct_type), name(g.name));
    if (!g.like.empty())
      s += " like " + name(g.like);
    else {
      std::string ext;
      for (const auto &e : g.extents)
        ext += (ext.empty() ? "" : ", ") + expr(e);
      s += "[" + ext + "]";
    }
    if (g.has_boundary) {
      std::string items;
      for (const auto &b : g.boundary) {
        std::string it;
        if (!b.face.empty())
          it = b.face + (b.side < 0 ? "-" : b.side > 0 ? "+" : "") + ": ";
        it += b.kind + (b.value ? "(" + expr(b.value) + ")" : "");
        items += (items.empty() ? "" : ", ") + it;
      }
      s += g.boundary.size() == 1 && g.boundary[0].face.empty() ? " boundary " + items
                                                               : " boundary(" + items + ")";
    }
    return s + ";\n";
  }

  std::string domain(const ast::Domain &d) {
    switch (d.kind) {
    case ast::Domain::Kind::Interior:
      return "";
    case ast::Domain::Kind::Colour:
    case ast::Domain::Kind::Range: {
      std::string r;
      for (const auto &[lo, hi] : d.ranges)
        r += fmt::format("{}{}:{}", r.empty() ? "" : ", ", expr(lo), expr(hi));
      if (d.kind == ast::Domain::Kind::Range)
        return " on [" + r + "]";
      return " on " + d.colour + (r.empty() ? "" : " [" + r + "]");
    }
    }
    return "";
  }

  std::string kernel(const ast::Kernel &k) {
    std::string params;
    for (const auto &kp : k.params)
      params += fmt::format("{}{} {}", params.empty() ? "; " : ", ",
                            kp.grid ? "grid" : type(kp.type), name(kp.name));
    std::string s = fmt::format("kernel {}({}{}){} {{\n", name(k.name), names(k.indices), params,
                                domain(k.domain));
    for (const auto &st : k.body)
      s += stmt(st, 1);
    return s + "}\n";
  }

  std::string stmt(const ast::Stmt &st, int depth) {
    const std::string ind(2 * depth, ' ');
    switch (st.kind) {
    case ast::Stmt::Kind::Let:
      return fmt::format("{}let {} = {};\n", ind, name(st.name), expr(st.value));
    case ast::Stmt::Kind::Var:
      return fmt::format("{}var {} = {};\n", ind, name(st.name), expr(st.value));
    case ast::Stmt::Kind::Set:
      return fmt::format("{}{} = {};\n", ind, name(st.name), expr(st.value));
    case ast::Stmt::Kind::For: {
      std::string s = fmt::format("{}for {} in [{}:{}] {{\n", ind, name(st.name), expr(st.from),
                                  expr(st.to));
      for (const auto &x : st.then_body)
        s += stmt(x, depth + 1);
      return s + ind + "}\n";
    }
    case ast::Stmt::Kind::Assign:
      return fmt::format("{}{} = {};\n", ind, expr(st.target), expr(st.value));
    case ast::Stmt::Kind::If: {
      std::string s = fmt::format("{}if ({}) {{\n", ind, expr(st.value));
      for (const auto &x : st.then_body)
        s += stmt(x, depth + 1);
      if (!st.else_body.empty()) {
        s += ind + "} else {\n";
        for (const auto &x : st.else_body)
          s += stmt(x, depth + 1);
      }
      return s + ind + "}\n";
    }
    }
    return "";
  }

  std::string run(const ast::Run &r) {
    std::string s = r.until          ? fmt::format("run until {} max {} {{", expr(r.cond), expr(r.count))
                    : r.name.empty() ? fmt::format("run {} {{", expr(r.count))
                                     : fmt::format("run {}: {} {{", name(r.name), expr(r.count));
    for (const auto &x : r.body)
      s += x.kind == ast::RunStmt::Kind::Swap
               ? fmt::format(" swap {}, {};", name(x.a), name(x.b))
               : fmt::format(" {}{};", name(x.a), x.has_args ? "(" + args(x.args) + ")" : "");
    return s + " }\n";
  }

  std::string args(const std::vector<ast::ExprPtr> &v) {
    std::string s;
    for (const auto &a : v)
      s += (s.empty() ? "" : ", ") + expr(a);
    return s;
  }

public:
  // `e` as it must be written inside an operator of precedence `outer` (parenthesised if it
  // binds more loosely; the right operand of - / % also if it binds equally: a - (b - c)).
  std::string expr(const ast::ExprPtr &e, int outer = -1, bool right = false) {
    int prec = precedence(e->kind);
    if ((e->kind == K::Int || e->kind == K::Float) && !e->text.empty() && e->text[0] == '-')
      prec = precedence(K::Neg); // a negative literal reads as a negation
    std::string s;
    switch (e->kind) {
    case K::Int:
    case K::Float:
      s = e->text;
      break;
    case K::Name:
      s = name(e->text);
      break;
    case K::Access: {
      std::string subs;
      for (const auto &a : e->args)
        subs += (subs.empty() ? "" : ", ") + expr(a);
      s = name(e->text) + "[" + subs + "]" + member(e->member, e->member_index);
      break;
    }
    case K::Call:
    case K::Conv: s = e->text + "(" + args(e->args) + ")"; break;
    case K::Neg:
    case K::Plus:
    case K::Not:
      s = expr(e->args[0], prec);
      s = op_text(e->kind) + std::string(s[0] == '-' || s[0] == '+' ? " " : "") + s;
      break;
    case K::Cond:
      s = expr(e->args[0], 1) + " ? " + expr(e->args[1], 1) + " : " + expr(e->args[2], 0);
      break;
    default: // binary: left-associative
      s = expr(e->args[0], prec) + " " + op_text(e->kind) + " " + expr(e->args[1], prec, true);
      break;
    }
    const bool parens = prec < outer || (right && prec == outer && prec != 8);
    return parens ? "(" + s + ")" : s;
  }

private:
  const ast::Program &p_;
  std::map<std::string, std::string> renamed_;
  std::set<std::string> used_;
};

} // namespace

std::string print_stn_expr(const ast::ExprPtr &e) {
  static const ast::Program none;
  return Printer(none).expr(e);
}

std::string print_stn(const ast::Program &p, const std::string &origin,
                      std::map<std::string, std::string> *renamed) {
  Printer printer(p);
  std::string text = printer.program(origin);
  if (renamed)
    *renamed = printer.renamed();
  return text;
}

} // namespace stc
