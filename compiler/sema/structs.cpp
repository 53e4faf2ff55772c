#include "sema/structs.h"

#include <map>
#include <set>

#include <fmt/format.h>

namespace stc {

namespace {

using ast::Expr;
using ast::ExprPtr;
using ast::member_grid_name;

// Bounds what one struct grid may expand to (each member element is a grid of its own).
constexpr long kMaxLeaves = 256;

// One scalar of a struct: a member, and its indices if the member is an array.
struct Leaf {
  const ast::StructMember *member;
  std::vector<int> index;
};

std::vector<Leaf> leaves(const ast::StructDecl &s) {
  std::vector<Leaf> out;
  for (const auto &m : s.members) {
    std::vector<int> idx(m.dims.size(), 0);
    for (;;) {
      out.push_back({&m, idx});
      std::size_t d = idx.size();
      while (d > 0 && ++idx[d - 1] == m.dims[d - 1])
        idx[--d] = 0;
      if (d == 0)
        break;
    }
  }
  return out;
}

// "float[2][3]"
std::string member_type(const ast::StructMember &m) {
  std::string s = ast::type_text(m.type);
  for (int d : m.dims)
    s += fmt::format("[{}]", d);
  return s;
}

class Splitter {
public:
  Splitter(const ast::Program &p, DiagEngine &diags) : in_(p), diags_(diags) {}

  std::optional<ast::Program> run() {
    ast::Program out = in_;
    out.structs.clear();
    check_structs();
    for (const auto &g : in_.grids) {
      if (g.struct_type.empty()) {
        scalar_grids_[g.name] = &g;
        continue;
      }
      auto it = structs_.find(g.struct_type);
      if (it == structs_.end() || !leaves_.count(g.struct_type)) {
        bad_grids_.insert(g.name);
        decl_errors_ = true;
        if (it != structs_.end())
          continue; // the struct's own error says why
        diags_.error(g.struct_loc,
                     fmt::format("unknown element type '{}': declare it first, struct {} {{ "
                                 "double a; ... }}, or use int, long, float or double",
                                 g.struct_type, g.struct_type));
        continue;
      }
      struct_grids_[g.name] = it->second;
    }
    out.grids = split_grids();
    out.inits.clear();
    for (const auto &in : in_.inits)
      if (auto i = split_init(in))
        out.inits.push_back(std::move(*i));
    for (auto &k : out.kernels)
      k.body = split_body(k.body);
    for (auto &r : out.reduces)
      r.value = rewrite(r.value);
    for (auto &r : out.runs)
      r.body = split_run(r.body);
    if (decl_errors_)
      return std::nullopt;
    return out;
  }

private:
  void check_structs() {
    for (const auto &s : in_.structs) {
      if (!structs_.emplace(s.name, &s).second) {
        diags_.error(s.loc, fmt::format("struct '{}' is declared twice", s.name));
        decl_errors_ = true;
        continue;
      }
      const int errors = diags_.error_count();
      if (s.members.empty())
        diags_.error(s.loc, fmt::format("struct '{}' has no members", s.name));
      std::set<std::string> names;
      long count = 0;
      for (const auto &m : s.members) {
        if (!names.insert(m.name).second)
          diags_.error(m.loc,
                       fmt::format("struct '{}' has two members named '{}'", s.name, m.name));
        long n = 1;
        for (int d : m.dims) {
          if (d < 1 || d > kMaxLeaves) {
            diags_.error(m.loc, fmt::format("member '{}' has an array extent of {}: extents are "
                                            "1 to {}",
                                            m.name, d, kMaxLeaves));
            n = 0;
            break;
          }
          n *= d;
          if (n > kMaxLeaves)
            break;
        }
        count += n;
      }
      if (count > kMaxLeaves)
        diags_.error(s.loc, fmt::format("struct '{}' has more than {} scalars: each is a grid "
                                        "of its own (structure of arrays)",
                                        s.name, kMaxLeaves));
      if (diags_.error_count() != errors)
        decl_errors_ = true;
      else
        leaves_[s.name] = leaves(s);
    }
  }

  const std::vector<Leaf> *leaves_of(const std::string &grid) const {
    auto g = struct_grids_.find(grid);
    if (g == struct_grids_.end())
      return nullptr;
    auto l = leaves_.find(g->second->name);
    return l == leaves_.end() ? nullptr : &l->second;
  }

  std::vector<ast::Grid> split_grids() {
    std::set<std::string> taken = ast::declared_names(in_);
    for (const auto &[name, s] : struct_grids_)
      taken.erase(name);
    std::vector<ast::Grid> out;
    for (const auto &g : in_.grids) {
      ast::Grid base = g;
      // A shape copied from a struct grid is its first member's (they all have it); a grid of
      // the same struct copies each member from the same member (its boundary too, as `like`
      // does between grids of one type).
      const auto *like = leaves_of(g.like);
      const bool same_struct =
          like && !g.struct_type.empty() && struct_grids_.at(g.like)->name == g.struct_type;
      if (like)
        base.like = member_grid_name(g.like, like->front().member->name, like->front().index);
      if (g.struct_type.empty()) {
        out.push_back(std::move(base));
        continue;
      }
      const auto *l = leaves_of(g.name);
      if (!l)
        continue; // reported
      for (const auto &leaf : *l) {
        ast::Grid m = base;
        m.struct_type.clear();
        m.member_of = g.name;
        m.type = leaf.member->type;
        m.name = member_grid_name(g.name, leaf.member->name, leaf.index);
        if (same_struct)
          m.like = member_grid_name(g.like, leaf.member->name, leaf.index);
        if (!taken.insert(m.name).second && (decl_errors_ = true))
          diags_.error(g.loc, fmt::format("grid '{}' of struct {} keeps member {} in a grid named "
                                          "'{}', a name the program already uses: rename one",
                                          g.name, g.struct_type, leaf_text(leaf), m.name));
        out.push_back(std::move(m));
      }
    }
    return out;
  }

  static std::string leaf_text(const Leaf &l) {
    std::string s = l.member->name;
    for (int i : l.index)
      s += fmt::format("[{}]", i);
    return s;
  }

  // The grid holding member[index] of struct grid `grid`, or "" (reported).
  std::string resolve(const std::string &grid, const std::string &member,
                      const std::vector<int> &index, SourceLoc loc) {
    const ast::StructDecl &s = *struct_grids_.at(grid);
    const ast::StructMember *m = nullptr;
    std::string names;
    for (const auto &x : s.members) {
      names += (names.empty() ? "" : ", ") + x.name;
      if (x.name == member)
        m = &x;
    }
    if (!m) {
      diags_.error(loc, fmt::format("struct {} has no member '{}' (its members: {})", s.name,
                                    member, names));
      return "";
    }
    if (index.size() != m->dims.size()) {
      if (m->dims.empty())
        diags_.error(loc, fmt::format("member '{}' of struct {} is a {}, not an array: it takes "
                                      "no index",
                                      member, s.name, member_type(*m)));
      else
        diags_.error(loc, fmt::format("member '{}' of struct {} is an array, {}: give {} "
                                      "constant ind{}, not {}",
                                      member, s.name, member_type(*m), m->dims.size(),
                                      m->dims.size() == 1 ? "ex" : "ices", index.size()));
      return "";
    }
    for (std::size_t d = 0; d < index.size(); ++d)
      if (index[d] < 0 || index[d] >= m->dims[d]) {
        diags_.error(loc, fmt::format("index {} of member '{}' is out of range: {} is {}", index[d],
                                      member, member, member_type(*m)));
        return "";
      }
    if (!leaves_of(grid))
      return ""; // the struct itself was reported
    return member_grid_name(grid, member, index);
  }

  // Accesses of struct grids made accesses of member grids.
  ExprPtr rewrite(const ExprPtr &e) {
    if (!e)
      return e;
    auto c = std::make_shared<Expr>(*e);
    for (auto &a : c->args)
      a = rewrite(a);
    if (e->kind != Expr::Kind::Access || bad_grids_.count(e->text))
      return c;
    if (struct_grids_.count(e->text)) {
      // After an error, the first member's grid: sema then does not report an unknown grid.
      const auto &first = leaves_of(e->text)->front();
      c->text = member_grid_name(e->text, first.member->name, first.index);
      if (e->member.empty()) {
        diags_.error(e->loc, fmt::format("grid '{}' holds struct {} elements: read one member, "
                                         "{}[...].{}",
                                         e->text, struct_grids_.at(e->text)->name, e->text,
                                         struct_grids_.at(e->text)->members.empty()
                                             ? "m"
                                             : struct_grids_.at(e->text)->members[0].name));
        return c;
      }
      const std::string name = resolve(e->text, e->member, e->member_index, e->member_loc);
      if (!name.empty())
        c->text = name;
      c->member.clear();
      c->member_index.clear();
    } else if (!e->member.empty()) {
      if (auto g = scalar_grids_.find(e->text); g != scalar_grids_.end())
        diags_.error(e->member_loc,
                     fmt::format("grid '{}' holds {} elements, not a struct: it "
                                 "has no member '{}'",
                                 e->text, ast::type_text(g->second->type), e->member));
      // An unknown grid is sema's to report.
    }
    return c;
  }

  // A whole element copied, `h[x, y] = g[x + 1, y];`: one assignment per member.
  bool whole_copy(const ast::Stmt &st, std::vector<ast::Stmt> &out) {
    const auto tg = struct_grids_.find(st.target->text);
    if (tg == struct_grids_.end() || !st.target->member.empty())
      return false;
    if (!leaves_of(st.target->text))
      return false; // a grid of a struct with errors
    // The element copied: other[...], or periodic(other[...]) (each member read so).
    const bool periodic = st.value && st.value->kind == Expr::Kind::Call &&
                          st.value->text == "periodic" && st.value->args.size() == 1;
    const Expr *v = periodic ? st.value->args[0].get() : st.value.get();
    if (!v || v->kind != Expr::Kind::Access || !v->member.empty() ||
        !struct_grids_.count(v->text) || struct_grids_.at(v->text) != tg->second) {
      if (v && v->kind == Expr::Kind::Access && v->member.empty() && struct_grids_.count(v->text))
        diags_.error(v->loc, fmt::format("grid '{}' holds struct {} elements, grid '{}' struct "
                                         "{}: a whole element is copied between grids of one "
                                         "struct",
                                         st.target->text, tg->second->name, v->text,
                                         struct_grids_.at(v->text)->name));
      else
        diags_.error(st.target->loc,
                     fmt::format("grid '{}' holds struct {} elements: assign one member "
                                 "({}[...].{} = ...) or copy a whole element of a grid of "
                                 "struct {} ({}[...] = other[...])",
                                 st.target->text, tg->second->name, st.target->text,
                                 tg->second->members.empty() ? "m" : tg->second->members[0].name,
                                 tg->second->name, st.target->text));
      return true;
    }
    const auto *l = leaves_of(st.target->text);
    if (!l)
      return true;
    for (const auto &leaf : *l) {
      ast::Stmt one = st;
      auto t = std::make_shared<Expr>(*st.target);
      auto s = std::make_shared<Expr>(*v);
      t->member = s->member = leaf.member->name;
      t->member_index = s->member_index = leaf.index;
      t->member_loc = t->loc;
      s->member_loc = s->loc;
      one.target = rewrite(t);
      if (periodic) {
        auto call = std::make_shared<Expr>(*st.value);
        call->args = {s};
        one.value = rewrite(call);
      } else {
        one.value = rewrite(s);
      }
      out.push_back(std::move(one));
    }
    return true;
  }

  std::vector<ast::Stmt> split_body(const std::vector<ast::Stmt> &body) {
    std::vector<ast::Stmt> out;
    for (const auto &st : body) {
      if (st.kind == ast::Stmt::Kind::Assign && st.target && whole_copy(st, out))
        continue;
      ast::Stmt c = st;
      c.target = rewrite(st.target);
      c.value = rewrite(st.value);
      c.from = rewrite(st.from);
      c.to = rewrite(st.to);
      c.then_body = split_body(st.then_body);
      c.else_body = split_body(st.else_body);
      out.push_back(std::move(c));
    }
    return out;
  }

  std::optional<ast::Init> split_init(const ast::Init &in) {
    ast::Init out = in;
    out.member.clear();
    out.member_index.clear();
    out.value = rewrite(in.value);
    if (struct_grids_.count(in.grid)) {
      if (in.member.empty()) {
        diags_.error(in.grid_loc, fmt::format("grid '{}' holds struct {} elements: initialise "
                                              "each member, init {}[...].m = ...",
                                              in.grid, struct_grids_.at(in.grid)->name, in.grid));
        return std::nullopt;
      }
      const std::string name = resolve(in.grid, in.member, in.member_index, in.member_loc);
      if (name.empty())
        return std::nullopt;
      out.grid = name;
    } else if (!in.member.empty()) {
      if (auto g = scalar_grids_.find(in.grid); g != scalar_grids_.end())
        diags_.error(in.member_loc,
                     fmt::format("grid '{}' holds {} elements, not a struct: it "
                                 "has no member '{}'",
                                 in.grid, ast::type_text(g->second->type), in.member));
    }
    return out;
  }

  std::vector<ast::RunStmt> split_run(const std::vector<ast::RunStmt> &body) {
    std::vector<ast::RunStmt> out;
    for (const auto &st : body) {
      if (st.kind != ast::RunStmt::Kind::Swap) {
        out.push_back(st);
        continue;
      }
      const auto a = struct_grids_.find(st.a), b = struct_grids_.find(st.b);
      if (a == struct_grids_.end() && b == struct_grids_.end()) {
        out.push_back(st);
        continue;
      }
      if (a == struct_grids_.end() || b == struct_grids_.end() || a->second != b->second) {
        const auto elem = [&](const std::string &g) {
          auto s = struct_grids_.find(g);
          if (s != struct_grids_.end())
            return "struct " + s->second->name;
          auto t = scalar_grids_.find(g);
          return t == scalar_grids_.end() ? std::string("?")
                                          : std::string(ast::type_text(t->second->type));
        };
        diags_.error(st.loc, fmt::format("cannot swap '{}' ({}) with '{}' ({}): swapped grids "
                                         "hold the same element type",
                                         st.a, elem(st.a), st.b, elem(st.b)));
        continue;
      }
      const auto *l = leaves_of(st.a);
      if (!l)
        continue;
      for (const auto &leaf : *l) {
        ast::RunStmt one = st;
        one.a = member_grid_name(st.a, leaf.member->name, leaf.index);
        one.b = member_grid_name(st.b, leaf.member->name, leaf.index);
        out.push_back(std::move(one));
      }
    }
    return out;
  }

  const ast::Program &in_;
  DiagEngine &diags_;
  std::map<std::string, const ast::StructDecl *> structs_;
  std::map<std::string, std::vector<Leaf>> leaves_;
  std::map<std::string, const ast::StructDecl *> struct_grids_;
  std::map<std::string, const ast::Grid *> scalar_grids_;
  std::set<std::string> bad_grids_; // of an unknown struct or one with errors
  bool decl_errors_ = false;        // then sema would only repeat them: stop after this pass
};

} // namespace

std::optional<ast::Program> split_structs(const ast::Program &prog, DiagEngine &diags) {
  return Splitter(prog, diags).run();
}

} // namespace stc
