#include "interp/interpreter.h"

#include <set>

#include <fmt/format.h>

#include "stencilc/error.h"
#include "stencilc/npy.h"

namespace stc {

namespace {

// Param, size and boundary expressions get their values from --set: an evaluation error
// there is the user's, reported like the generated code reports it.
ir::Scalar eval_setup(const ir::ExprPtr &e, const std::vector<ir::Scalar> &params) {
  ir::Env env;
  env.params = &params;
  try {
    return ir::eval(*e, env);
  } catch (const ir::EvalError &err) {
    throw stencilc::Error(std::string(err.what()) + " in a param or size expression");
  }
}

} // namespace

Interpreter::Interpreter(const ir::Program &prog, std::vector<ir::Scalar> params)
    : prog_(prog), params_(std::move(params)) {
  // Sizes first, checked as the generated code checks them, before anything is allocated.
  std::vector<stencilc::Extents> ext(prog_.grids.size(), stencilc::Extents{1, 1, 1, 1});
  for (std::size_t gi = 0; gi < prog_.grids.size(); ++gi) {
    const auto &g = prog_.grids[gi];
    for (int d = 0; d < g.rank; ++d)
      ext[gi][d] = eval_setup(g.extents[d], params_).i;
  }
  for (const auto &k : prog_.kernels) {
    std::set<int> used;
    for (const auto &a : k.body) {
      used.insert(a.grid);
      ir::walk(a.value, [&](const ir::Expr &e) {
        if (e.op == ir::Op::GridRead)
          used.insert(e.id);
      });
    }
    const auto &domain = ext[k.domain_grid];
    for (int gi : used) {
      if (ext[gi] != domain)
        throw stencilc::Error(fmt::format("kernel '{}': grid '{}' and grid '{}' have different "
                                          "shapes",
                                          k.name, prog_.grids[gi].name,
                                          prog_.grids[k.domain_grid].name));
      for (int d = 0; d < k.rank; ++d)
        if (2 * prog_.grids[gi].halo[d] + 1 > domain[d] && domain[d] >= 1)
          throw stencilc::Error(fmt::format("grid '{}': extent {} in dimension {} is smaller "
                                            "than the stencil width {}",
                                            prog_.grids[gi].name, domain[d], d + 1,
                                            2 * prog_.grids[gi].halo[d] + 1));
    }
  }
  for (std::size_t gi = 0; gi < prog_.grids.size(); ++gi) {
    const auto &g = prog_.grids[gi];
    stencilc::Halos halo{0, 0, 0, 0};
    for (int d = 0; d < g.rank; ++d)
      halo[d] = g.halo[d];
    switch (g.type) {
    case ir::Type::Float:
      grids_.emplace_back(stencilc::Grid<float>(g.name, g.rank, ext[gi], halo));
      break;
    case ir::Type::Double:
      grids_.emplace_back(stencilc::Grid<double>(g.name, g.rank, ext[gi], halo));
      break;
    case ir::Type::Int:
      grids_.emplace_back(stencilc::Grid<std::int32_t>(g.name, g.rank, ext[gi], halo));
      break;
    }
  }
  for (std::size_t g = 0; g < grids_.size(); ++g)
    fill_ghosts(static_cast<int>(g));
}

std::vector<std::string> Interpreter::grid_names() const {
  std::vector<std::string> n;
  for (const auto &g : prog_.grids)
    n.push_back(g.name);
  return n;
}

int Interpreter::grid_index(const std::string &name) const {
  for (std::size_t i = 0; i < prog_.grids.size(); ++i)
    if (prog_.grids[i].name == name)
      return static_cast<int>(i);
  std::string list;
  for (const auto &g : prog_.grids)
    list += (list.empty() ? "" : ", ") + g.name;
  throw stencilc::Error(fmt::format("no grid named '{}' (grids: {})", name, list));
}

void Interpreter::load(const std::string &grid, const std::string &path) {
  std::visit([&](auto &g) { stencilc::load_grid(g, path); }, grids_[grid_index(grid)]);
}
void Interpreter::save(const std::string &grid, const std::string &path) const {
  std::visit([&](const auto &g) { stencilc::save_grid(g, path); }, grids_[grid_index(grid)]);
}
double Interpreter::checksum(const std::string &grid) const {
  return std::visit([](const auto &g) { return stencilc::checksum(g); }, grids_[grid_index(grid)]);
}
void Interpreter::init_random(std::uint64_t seed) {
  for (std::size_t i = 0; i < grids_.size(); ++i)
    std::visit([&](auto &g) { stencilc::fill_random(g, seed, i); }, grids_[i]);
}

std::int64_t Interpreter::default_steps() const {
  return prog_.steps ? eval_setup(prog_.steps, params_).i : ir::kDefaultSteps;
}

double Interpreter::cell_updates_per_step() const {
  double n = 0;
  for (const auto &r : prog_.run)
    if (r.kind == ir::RunStmt::Kind::Call)
      n += static_cast<double>(std::visit([](const auto &g) { return g.interior_size(); },
                                          grids_[prog_.kernels[r.a].domain_grid]));
  return n;
}

ir::Scalar Interpreter::at(int grid, const std::array<std::int64_t, 4> &p) const {
  const ir::Type t = prog_.grids[grid].type;
  return std::visit(
      [&](const auto &g) {
        const auto v = g.at(p[0], p[1], p[2], p[3]);
        return t == ir::Type::Int ? ir::Scalar::of_int(static_cast<std::int64_t>(v))
                                  : ir::Scalar{0, static_cast<double>(v)};
      },
      grids_[grid]);
}

// Ghost cells hold the boundary value (Dirichlet) before every kernel that reads the grid.
void Interpreter::fill_ghosts(int grid) {
  const ir::Scalar v = eval_setup(prog_.grids[grid].boundary.value, params_);
  std::visit(
      [&](auto &g) {
        using T = typename std::remove_reference_t<decltype(g)>::value_type;
        g.fill_halo(std::is_same_v<T, std::int32_t> ? static_cast<T>(v.i) : static_cast<T>(v.d));
      },
      grids_[grid]);
}

void Interpreter::run_kernel(const ir::Kernel &k) {
  std::set<int> read;
  for (const auto &a : k.body)
    ir::walk(a.value, [&](const ir::Expr &e) {
      if (e.op == ir::Op::GridRead)
        read.insert(e.id);
    });
  for (int g : read)
    fill_ghosts(g);

  std::array<std::int64_t, 4> pt{0, 0, 0, 0};
  ir::Env env;
  env.params = &params_;
  env.point = pt.data();
  env.read = [&](int g, const ir::Offsets &off) {
    return at(g, {pt[0] + off[0], pt[1] + off[1], pt[2] + off[2], pt[3] + off[3]});
  };
  std::array<std::int64_t, 4> n{1, 1, 1, 1};
  std::visit(
      [&](const auto &g) {
        for (int d = 0; d < g.rank(); ++d)
          n[d] = g.extent(d);
      },
      grids_[k.domain_grid]);
  for (pt[3] = 0; pt[3] < n[3]; ++pt[3])
    for (pt[2] = 0; pt[2] < n[2]; ++pt[2])
      for (pt[1] = 0; pt[1] < n[1]; ++pt[1])
        for (pt[0] = 0; pt[0] < n[0]; ++pt[0])
          for (const auto &a : k.body) {
            ir::Scalar v;
            try {
              v = ir::eval(*a.value, env);
            } catch (const ir::EvalError &e) {
              throw stencilc::Error(fmt::format("kernel '{}' at ({}, {}, {}, {}): {}", k.name,
                                                pt[0], pt[1], pt[2], pt[3], e.what()));
            }
            std::visit(
                [&](auto &g) {
                  using T = typename std::remove_reference_t<decltype(g)>::value_type;
                  g.at(pt[0], pt[1], pt[2], pt[3]) =
                      std::is_same_v<T, std::int32_t> ? static_cast<T>(v.i) : static_cast<T>(v.d);
                },
                grids_[a.grid]);
          }
}

void Interpreter::run(std::int64_t steps) {
  for (std::int64_t s = 0; s < steps; ++s)
    for (const auto &r : prog_.run) {
      if (r.kind == ir::RunStmt::Kind::Call)
        run_kernel(prog_.kernels[r.a]);
      else
        std::visit(
            [&](auto &a) {
              using G = std::remove_reference_t<decltype(a)>;
              a.swap_storage(std::get<G>(grids_[r.b]));
            },
            grids_[r.a]);
    }
}

} // namespace stc
