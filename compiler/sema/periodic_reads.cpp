// `periodic(g[...])` reads grid g as if its faces were periodic, whatever g's own boundary:
// periodic access chosen per read (Physis's PSGridGetPeriodic beside PSGridGet). Rewritten
// before the checks into what every target already runs: a grid `g_periodic` like g with
// periodic faces, a kernel `copy_g_periodic` copying g's interior into it, called in the run
// block right before every kernel and reduction that reads it, and the read made a read of the
// copy. A copy before every such call keeps the meaning of the read whatever the run block
// does to g between calls (writes, swaps). A grid whose faces are all periodic is read as it is.
#include "sema/periodic_reads.h"

#include <algorithm>
#include <map>
#include <set>

namespace stc {
namespace {

using K = ast::Expr::Kind;

bool is_periodic_read(const ast::Expr &e) {
  return e.kind == K::Call && e.text == "periodic" && e.args.size() == 1 && e.args[0] &&
         e.args[0]->kind == K::Access;
}

class Rewriter {
public:
  Rewriter(const std::set<std::string> &grids, const std::set<std::string> &periodic,
           std::set<std::string> &names)
      : grids_(grids), periodic_(periodic), names_(names) {}

  // The copies each rewritten read uses, in order of first use, with where it was first read.
  std::vector<std::pair<std::string, SourceLoc>> used;
  std::map<std::string, std::string> copy_of; // grid -> its periodic copy

  ast::ExprPtr expr(const ast::ExprPtr &e, std::set<std::string> &reads) {
    if (!e)
      return e;
    if (is_periodic_read(*e) && periodic_.count(e->args[0]->text)) // wraps around already
      return expr(e->args[0], reads);
    if (is_periodic_read(*e) && grids_.count(e->args[0]->text)) {
      const ast::Expr &access = *e->args[0];
      auto out = std::make_shared<ast::Expr>(access);
      out->text = copy(access.text, e->loc);
      std::vector<ast::ExprPtr> idx;
      for (const auto &a : access.args)
        idx.push_back(expr(a, reads));
      out->args = std::move(idx);
      reads.insert(access.text);
      return out;
    }
    bool changed = false;
    std::vector<ast::ExprPtr> args;
    for (const auto &a : e->args) {
      args.push_back(expr(a, reads));
      changed |= args.back() != a;
    }
    if (!changed)
      return e;
    auto out = std::make_shared<ast::Expr>(*e);
    out->args = std::move(args);
    return out;
  }

  void body(std::vector<ast::Stmt> &stmts, std::set<std::string> &reads) {
    for (auto &s : stmts) {
      s.value = expr(s.value, reads);
      s.from = expr(s.from, reads);
      s.to = expr(s.to, reads);
      body(s.then_body, reads);
      body(s.else_body, reads);
    }
  }

  // A name no declaration of the program takes (for indices, which need not be unique).
  std::string unused(const std::string &base) const {
    std::string name = base;
    for (int i = 2; names_.count(name); ++i)
      name = base + "_" + std::to_string(i);
    return name;
  }

  // A new name no declaration of the program takes.
  std::string fresh(const std::string &base) {
    std::string name = base;
    for (int i = 2; names_.count(name); ++i)
      name = base + std::to_string(i);
    names_.insert(name);
    return name;
  }

private:
  std::string copy(const std::string &grid, SourceLoc loc) {
    auto it = copy_of.find(grid);
    if (it != copy_of.end())
      return it->second;
    const std::string name = fresh(grid + "_periodic");
    copy_of[grid] = name;
    used.emplace_back(grid, loc);
    return name;
  }

  const std::set<std::string> &grids_, &periodic_;
  std::set<std::string> &names_;
};

// The rank of a grid: its extents, or those of the grid its `like` chain ends at (1 when the
// chain is broken: sema reports that).
std::size_t rank_of(const ast::Program &p, const ast::Grid &g) {
  const ast::Grid *src = &g;
  for (int hops = 0; src && !src->like.empty() && hops < 64; ++hops) {
    const ast::Grid *next = nullptr;
    for (const auto &x : p.grids)
      if (x.name == src->like)
        next = &x;
    src = next;
  }
  return src && src->like.empty() ? std::max<std::size_t>(1, src->extents.size()) : 1;
}

// Every face periodic: `boundary periodic`, or face items that are all periodic with a default.
bool all_periodic(const ast::Grid &g) {
  if (!g.has_boundary)
    return false;
  bool all = false;
  for (const auto &item : g.boundary) {
    if (item.kind != "periodic")
      return false;
    all = all || item.face.empty();
  }
  return all;
}

} // namespace

ast::Program lower_periodic_reads(const ast::Program &in) {
  std::set<std::string> grids, periodic, names = ast::declared_names(in);
  for (const auto &g : in.grids) {
    grids.insert(g.name);
    if (all_periodic(g))
      periodic.insert(g.name);
  }

  ast::Program out = in;
  Rewriter rw(grids, periodic, names);
  std::map<std::string, std::set<std::string>> reads_of; // kernel or reduction -> grids
  for (auto &k : out.kernels)
    rw.body(k.body, reads_of[k.name]);
  for (auto &r : out.reduces) {
    std::set<std::string> &reads = reads_of[r.name];
    r.value = rw.expr(r.value, reads);
  }
  if (rw.used.empty())
    return out;

  std::map<std::string, std::string> copy_kernel;
  for (const auto &[grid, loc] : rw.used) {
    const ast::Grid *g = nullptr;
    for (const auto &x : in.grids)
      if (x.name == grid)
        g = &x;
    ast::Grid c;
    c.loc = loc;
    c.type = g->type;
    c.name = rw.copy_of[grid];
    c.like = grid;
    c.like_loc = loc;
    c.has_boundary = true;
    ast::BoundaryItem all;
    all.loc = all.kind_loc = loc;
    all.kind = "periodic";
    c.boundary.push_back(all);
    out.grids.push_back(c);

    // copy_g_periodic(i0, i1, ...) { g_periodic[i0, ...] = g[i0, ...]; } over g's interior.
    ast::Kernel k;
    k.loc = loc;
    k.name = rw.fresh("copy_" + c.name);
    const std::size_t n = rank_of(in, *g);
    std::vector<ast::ExprPtr> idx;
    for (std::size_t d = 0; d < n; ++d) {
      k.indices.push_back(rw.unused("i" + std::to_string(d)));
      k.index_locs.push_back(loc);
      auto name = std::make_shared<ast::Expr>();
      name->kind = K::Name;
      name->loc = loc;
      name->text = k.indices.back();
      idx.push_back(name);
    }
    auto target = std::make_shared<ast::Expr>();
    target->kind = K::Access;
    target->loc = target->name_loc = loc;
    target->text = c.name;
    target->args = idx;
    auto value = std::make_shared<ast::Expr>(*target);
    value->text = grid;
    ast::Stmt st;
    st.kind = ast::Stmt::Kind::Assign;
    st.loc = loc;
    st.target = target;
    st.value = value;
    k.body.push_back(st);
    copy_kernel[grid] = k.name;
    out.kernels.push_back(std::move(k));
  }

  // Each call that reads a copy refreshes it first.
  for (auto &run : out.runs) {
    std::vector<ast::RunStmt> body;
    for (const auto &st : run.body) {
      if (st.kind == ast::RunStmt::Kind::Call && reads_of.count(st.a))
        for (const auto &grid : reads_of[st.a]) {
          ast::RunStmt call = st;
          call.a = copy_kernel[grid];
          body.push_back(call);
        }
      body.push_back(st);
    }
    run.body = std::move(body);
  }
  return out;
}

} // namespace stc
