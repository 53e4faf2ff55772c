#include "codegen/c_like.h"

#include <fmt/format.h>

#include "codegen/codegen.h"

namespace stc {

std::string BodyEmitter::statements(const std::vector<ir::Stmt> &body) const {
  const ir::Program &p = prog_;
  const std::string &x = indices_[0];
  std::string s;
  for (const auto &st : body) {
    s += stmt_line_directive(p, st);
    switch (st.kind) {
    case ir::Stmt::Kind::Assign:
      s += store(p.grids[st.grid], x, expr(st.value));
      break;
    case ir::Stmt::Kind::Let:
      s += fmt::format("[[maybe_unused]] const {} {} = {};\n",
                       ir::cxx_type_name((*locals_)[st.local].type), (*locals_)[st.local].name,
                       expr(st.value));
      break;
    case ir::Stmt::Kind::If:
      s += fmt::format("if ({}) {{\n{}}}", expr(st.value), statements(st.then_body));
      if (!st.else_body.empty())
        s += fmt::format(" else {{\n{}}}", statements(st.else_body));
      s += "\n";
      break;
    }
  }
  return s;
}

std::string BodyEmitter::kernel_statements(const ir::Kernel &k) const {
  // The statements cite the .stn; what follows is the generated file's again.
  return statements(k.body) + generated_line_directive(prog_, prog_.name + ".cpp");
}

std::string BodyEmitter::store(const ir::Grid &g, const std::string &x,
                               const std::string &value) const {
  return fmt::format("{}__r[{}] = {};\n", g.name, x, value);
}

std::string BodyEmitter::x_index(const ir::Expr &e) const {
  std::string s = indices_[0];
  if (e.offset[0] > 0)
    s += fmt::format(" + {}", e.offset[0]);
  else if (e.offset[0] < 0)
    s += fmt::format(" - {}", -e.offset[0]);
  return s;
}

std::string SetupEmitter::param(const ir::Expr &e) const {
  return "prm__." + prog_.params[e.id].name;
}

std::string SetupEmitter::index(const ir::Expr &e) const { return fmt::format("x{}__", e.id); }

// Sizes come from --set at run time: a zero divisor must be an error, not a crash.
std::string SetupEmitter::int_divmod(const char *op, const std::string &a,
                                     const std::string &b) const {
  return fmt::format("stencilc::checked_{}({}, {})", op[0] == '/' ? "div" : "mod", a, b);
}

std::string SetupEmitter::int_cast(const std::string &a) const {
  return fmt::format("stencilc::checked_to_int({})", a);
}

std::string setup_expr(const ir::Program &p, const ir::ExprPtr &e) {
  return SetupEmitter(p).expr(e);
}

std::string faces_key(const ir::Program &p, const ir::Grid &g) {
  SetupEmitter setup(p);
  std::string k;
  for (int f = 0; f < 2 * g.rank; ++f)
    k += std::string(ir::boundary_name(g.faces[f].kind)) + "(" +
         (g.faces[f].kind == ir::BoundaryKind::Dirichlet ? setup.expr(g.faces[f].value) : "") + ")";
  return k;
}

std::set<int> params_of(const std::vector<ir::Stmt> &body) {
  std::set<int> ps;
  ir::walk(body, [&](const ir::Expr &e) {
    if (e.op == ir::Op::Param)
      ps.insert(e.id);
  });
  return ps;
}

std::string param_copies(const ir::Program &p, const std::set<int> &params) {
  std::string s;
  for (int i : params)
    s += fmt::format("  const {} {} = params_.{};\n", ir::cxx_type_name(p.params[i].type),
                     p.params[i].name, p.params[i].name);
  return s;
}

std::string x_loop(const ir::Domain &domain, const std::vector<std::string> &idx, int rank,
                   const std::string &x_offset) {
  if (domain.kind == ir::Domain::Kind::Red || domain.kind == ir::Domain::Kind::Black) {
    std::string parity = domain.kind == ir::Domain::Kind::Red ? "0" : "1";
    if (!x_offset.empty())
      parity += " + " + x_offset;
    for (int d = 1; d < rank; ++d)
      parity += " + " + idx[d];
    return fmt::format("for (std::int64_t {0} = ({1}) % 2; {0} < hi0__; {0} += 2)", idx[0],
                       parity);
  }
  return fmt::format("for (std::int64_t {0} = lo0__; {0} < hi0__; ++{0})", idx[0]);
}

std::string flagged_divmod(const char *op, const std::string &a, const std::string &b) {
  return fmt::format("stencilc::kernel_{}({}, {}, err__)", op[0] == '/' ? "div" : "mod", a, b);
}

std::string flagged_to_int(const std::string &a) {
  return fmt::format("stencilc::kernel_to_int({}, err__)", a);
}

std::string fill_if_stale(const ir::Grid &g) {
  return fmt::format("  if (dirty__{0}_) {{\n    fill__{0}({0}_);\n    dirty__{0}_ = false;\n  }}\n",
                     g.name);
}

std::string mark_stale(const ir::Grid &g) { return fmt::format("  dirty__{}_ = true;\n", g.name); }

} // namespace stc
