#include "sema/instantiate.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "frontend/stn_print.h"

namespace stc {
namespace {

using ast::Expr;
using ast::ExprPtr;

using ast::type_text;

// "grid a, grid b, double dt"
std::string signature(const ast::Kernel &k) {
  std::string s;
  for (const auto &p : k.params)
    s += fmt::format("{}{} {}", s.empty() ? "" : ", ", p.grid ? "grid" : type_text(p.type), p.name);
  return s;
}

// What a parameter stands for in one copy: a grid's name, or a scalar's typed value.
struct Binding {
  std::map<std::string, std::string> grids;
  std::map<std::string, ExprPtr> scalars;
};

ExprPtr subst(const ExprPtr &e, const Binding &b) {
  if (!e)
    return e;
  auto copy = std::make_shared<Expr>(*e);
  if (e->kind == Expr::Kind::Name) {
    if (auto it = b.scalars.find(e->text); it != b.scalars.end())
      return it->second;
    if (auto it = b.grids.find(e->text); it != b.grids.end())
      copy->text = it->second;
    return copy;
  }
  if (e->kind == Expr::Kind::Access)
    if (auto it = b.grids.find(e->text); it != b.grids.end())
      copy->text = it->second;
  for (auto &a : copy->args)
    a = subst(a, b);
  return copy;
}

void subst(std::vector<ast::Stmt> &body, const Binding &b) {
  for (auto &st : body) {
    st.target = subst(st.target, b);
    st.value = subst(st.value, b);
    st.from = subst(st.from, b);
    st.to = subst(st.to, b);
    subst(st.then_body, b);
    subst(st.else_body, b);
  }
}

class Instantiator {
public:
  Instantiator(const ast::Program &p, DiagEngine &diags)
      : in_(p), diags_(diags), taken_(ast::declared_names(p)) {
    for (const auto &x : p.params)
      params_.insert(x.name);
    for (const auto &x : p.grids)
      grids_.insert(x.name);
  }

  ast::Program run() {
    ast::Program out = in_;
    std::map<std::string, const ast::Kernel *> kernels;
    for (const auto &k : in_.kernels) {
      kernels[k.name] = &k;
      if (!k.params.empty())
        check_params(k);
    }
    std::set<std::string> reductions;
    for (const auto &r : in_.reduces)
      reductions.insert(r.name);

    // Each call: its copy, made the first time its arguments are seen.
    std::map<std::string, std::vector<std::pair<std::string, const ast::RunStmt *>>> bindings;
    for (auto &r : out.runs)
      for (auto &st : r.body) {
        if (st.kind != ast::RunStmt::Kind::Call)
          continue;
        auto it = kernels.find(st.a);
        if (it == kernels.end()) {
          if (st.has_args && reductions.count(st.a))
            diags_.error(st.a_loc,
                         fmt::format("reduction '{}' takes no arguments; write '{};'", st.a, st.a));
          continue; // an unknown name: sema says so
        }
        const ast::Kernel &k = *it->second;
        if (k.params.empty()) {
          if (st.has_args)
            diags_.error(st.a_loc,
                         fmt::format("kernel '{}' has no parameters; write '{};'", k.name, k.name));
          continue;
        }
        if (!st.has_args || st.args.size() != k.params.size()) {
          diags_.error(st.a_loc, fmt::format("kernel '{}' takes {} argument{} ({}){} {}", k.name,
                                             k.params.size(), k.params.size() == 1 ? "" : "s",
                                             signature(k), st.has_args ? "," : ";",
                                             st.has_args ? fmt::format("not {}", st.args.size())
                                                         : "write " + k.name + "(...);"));
          continue;
        }
        if (!check_args(k, st))
          continue;
        std::string key;
        for (const auto &a : st.args)
          key += print_stn_expr(a) + "\n";
        auto &list = bindings[k.name];
        std::size_t i = 0;
        while (i < list.size() && list[i].first != key)
          ++i;
        if (i == list.size())
          list.push_back({key, &st});
        calls_.push_back({&st, k.name, i});
      }

    // The copies, where the kernel was declared; then the calls renamed to them.
    std::map<std::string, std::vector<std::string>> names;
    out.kernels.clear();
    for (const auto &k : in_.kernels) {
      if (k.params.empty()) {
        out.kernels.push_back(k);
        continue;
      }
      const auto &list = bindings[k.name];
      if (list.empty())
        diags_.warning(k.loc, fmt::format("kernel '{}' has parameters and the run block never "
                                          "calls it: it is not checked",
                                          k.name));
      for (std::size_t i = 0; i < list.size(); ++i) {
        ast::Kernel copy = k;
        copy.params.clear();
        copy.name = i == 0 ? k.name : fresh(fmt::format("{}_{}", k.name, i + 1));
        Binding b;
        const ast::RunStmt &call = *list[i].second;
        for (std::size_t j = 0; j < k.params.size(); ++j) {
          const ast::KernelParam &p = k.params[j];
          if (p.grid)
            b.grids[p.name] = call.args[j]->text;
          else {
            auto conv = std::make_shared<Expr>();
            conv->kind = Expr::Kind::Conv;
            conv->loc = call.args[j]->loc;
            conv->text = type_text(p.type);
            conv->args = {call.args[j]};
            b.scalars[p.name] = conv;
          }
        }
        subst(copy.body, b);
        copy.call_loc = call.a_loc;
        std::string args;
        for (const auto &a : call.args)
          args += (args.empty() ? "" : ", ") + print_stn_expr(a);
        copy.call_text = fmt::format("{}({})", k.name, args);
        for (auto &[lo, hi] : copy.domain.ranges) {
          lo = subst(lo, b);
          hi = subst(hi, b);
        }
        names[k.name].push_back(copy.name);
        out.kernels.push_back(std::move(copy));
      }
    }
    for (auto &c : calls_) {
      c.st->a = names[c.kernel][c.copy];
      c.st->has_args = false;
      c.st->args.clear();
    }
    return out;
  }

private:
  struct Call {
    ast::RunStmt *st;
    std::string kernel;
    std::size_t copy;
  };

  // A name no declaration has (a copy's): `name`, else name_2, name_3, ... (never a trailing
  // underscore, which the generated code reserves).
  std::string fresh(const std::string &name) {
    std::string n = name;
    for (int i = 2; taken_.count(n); ++i)
      n = fmt::format("{}_{}", name, i);
    taken_.insert(n);
    return n;
  }

  void check_params(const ast::Kernel &k) {
    std::set<std::string> seen(k.indices.begin(), k.indices.end());
    for (const auto &p : k.params) {
      if (!seen.insert(p.name).second)
        diags_.error(p.loc, fmt::format("kernel '{}' already has an index or parameter named '{}'",
                                        k.name, p.name));
      else if (taken_.count(p.name))
        diags_.error(p.loc, fmt::format("parameter '{}' of kernel '{}' has the name of a "
                                        "declaration of the program; give it another name",
                                        p.name, k.name));
    }
    std::set<std::string> params;
    for (const auto &p : k.params)
      params.insert(p.name);
    check_locals(k, k.body, params);
  }

  void check_locals(const ast::Kernel &k, const std::vector<ast::Stmt> &body,
                    const std::set<std::string> &params) {
    for (const auto &st : body) {
      const bool declares = st.kind == ast::Stmt::Kind::Let || st.kind == ast::Stmt::Kind::Var ||
                            st.kind == ast::Stmt::Kind::For;
      if ((declares || st.kind == ast::Stmt::Kind::Set) && params.count(st.name))
        diags_.error(st.loc, fmt::format("'{}' is a parameter of kernel '{}': {}", st.name, k.name,
                                         declares ? "a local cannot have its name"
                                                  : "it cannot be assigned"));
      check_locals(k, st.then_body, params);
      check_locals(k, st.else_body, params);
    }
  }

  bool check_args(const ast::Kernel &k, const ast::RunStmt &st) {
    bool ok = true;
    for (std::size_t j = 0; j < k.params.size(); ++j) {
      const ast::KernelParam &p = k.params[j];
      const ExprPtr &a = st.args[j];
      if (p.grid) {
        if (a->kind != Expr::Kind::Name || !grids_.count(a->text)) {
          diags_.error(a->loc, fmt::format("argument {} of kernel '{}' is bound to grid "
                                           "parameter '{}': it must be the name of a grid",
                                           j + 1, k.name, p.name));
          ok = false;
        }
      } else
        ok &= scalar_arg(k, j, a);
    }
    return ok;
  }

  // A scalar argument is an expression of params and literals (evaluated when the kernel runs,
  // with the params' values): no grids, indices or locals, which it would see in the kernel.
  bool scalar_arg(const ast::Kernel &k, std::size_t j, const ExprPtr &e) {
    if (e->kind == Expr::Kind::Access || (e->kind == Expr::Kind::Name && !params_.count(e->text))) {
      const ast::KernelParam &p = k.params[j];
      diags_.error(e->kind == Expr::Kind::Access ? e->name_loc : e->loc,
                   fmt::format("argument {} of kernel '{}' ({} {}) must be an expression of "
                               "params and literals; '{}' is not a param",
                               j + 1, k.name, type_text(p.type), p.name, e->text));
      return false;
    }
    bool ok = true;
    for (const auto &a : e->args)
      ok &= scalar_arg(k, j, a);
    return ok;
  }

  const ast::Program &in_;
  DiagEngine &diags_;
  std::set<std::string> taken_, params_, grids_;
  std::vector<Call> calls_;
};

} // namespace

ast::Program instantiate(const ast::Program &prog, DiagEngine &diags) {
  return Instantiator(prog, diags).run();
}

} // namespace stc
