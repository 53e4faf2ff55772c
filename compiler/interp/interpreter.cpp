#include "interp/interpreter.h"

#include <cmath>
#include <limits>
#include <set>

#include <fmt/format.h>

#include "lower/lowered.h"
#include "stencilc/boundary.h"
#include "stencilc/checkpoint.h"
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

template <typename T> T to_elem(const ir::Scalar &v) {
  return std::is_integral_v<T> ? static_cast<T>(v.i) : static_cast<T>(v.d);
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
  auto check = [&](const std::string &owner, int domain_grid, std::set<int> used,
                   const ir::Domain &dom, int rank) {
    const auto &domain = ext[domain_grid];
    used.insert(domain_grid);
    for (int gi : used) {
      if (prog_.grids[gi].rank < rank) // a coefficient of lower rank: the lowering's checks below
        continue;
      if (ext[gi] != domain)
        throw stencilc::Error(fmt::format("{}: grid '{}' and grid '{}' have different shapes",
                                          owner, prog_.grids[gi].name,
                                          prog_.grids[domain_grid].name));
      for (int d = 0; d < rank; ++d)
        if (2 * prog_.grids[gi].halo[d] + 1 > domain[d] && domain[d] >= 1)
          throw stencilc::Error(fmt::format("grid '{}': extent {} in dimension {} is smaller "
                                            "than the stencil width {}",
                                            prog_.grids[gi].name, domain[d], d + 1,
                                            2 * prog_.grids[gi].halo[d] + 1));
    }
    if (dom.kind == ir::Domain::Kind::Range)
      for (int d = 0; d < rank; ++d) {
        const std::int64_t lo = eval_setup(dom.lo[d], params_).i;
        const std::int64_t hi = eval_setup(dom.hi[d], params_).i;
        if (lo < 0 || lo > hi || hi > domain[d])
          throw stencilc::Error(fmt::format("{}: domain [{}:{}] in dimension {} is not inside "
                                            "[0:{}]",
                                            owner, lo, hi, d + 1, domain[d]));
      }
  };
  for (const auto &k : prog_.kernels) {
    std::set<int> used = ir::grids_read(k.body);
    ir::for_each_stmt(k.body, [&](const ir::Stmt &s) {
      if (s.kind == ir::Stmt::Kind::Assign)
        used.insert(s.grid);
    });
    check(fmt::format("kernel '{}'", k.name), k.domain_grid, used, k.domain, k.rank);
  }
  for (const auto &r : prog_.reductions)
    check(fmt::format("reduction '{}'", r.name), r.domain_grid, ir::grids_read(r.value), r.domain,
          r.rank);
  // What the lowering adds for absolute indices and grids of lower rank (the same messages as
  // the generated code's, c_like.cpp size_checks).
  for (const lower::Check &c : lower::size_checks(prog_)) {
    const std::string &name = prog_.grids[c.grid].name;
    const std::int64_t e = ext[c.grid][c.dim];
    const std::int64_t index = c.index ? eval_setup(c.index, params_).i : c.width;
    if (c.kind == lower::Check::Kind::IndexInside && (index < 0 || e <= index))
      throw stencilc::Error(fmt::format("{}: reads grid '{}' at index {} of dimension {}, but its "
                                        "extent there is {}",
                                        c.owner, name, index, c.dim + 1, e));
    if (c.kind == lower::Check::Kind::SameExtent && e != ext[c.other][c.other_dim])
      throw stencilc::Error(fmt::format("{}: grid '{}' has another extent in dimension {} than "
                                        "grid '{}' in dimension {}, which it follows",
                                        c.owner, name, c.dim + 1, prog_.grids[c.other].name,
                                        c.other_dim + 1));
    if (c.kind == lower::Check::Kind::MinExtent && prog_.grids[c.grid].rank < c.rank && e < c.width)
      throw stencilc::Error(fmt::format("grid '{}': extent {} in dimension {} is smaller than the "
                                        "stencil width {}",
                                        name, e, c.dim + 1, c.width));
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
    default:
      if (g.wide)
        grids_.emplace_back(stencilc::Grid<std::int64_t>(g.name, g.rank, ext[gi], halo));
      else
        grids_.emplace_back(stencilc::Grid<std::int32_t>(g.name, g.rank, ext[gi], halo));
      break;
    }
  }
  // Initial values: `init` expressions of the indices, zero otherwise.
  for (std::size_t gi = 0; gi < prog_.grids.size(); ++gi) {
    const auto &g = prog_.grids[gi];
    if (!g.init)
      continue;
    std::array<std::int64_t, 4> pt{0, 0, 0, 0};
    ir::Env env;
    env.params = &params_;
    env.point = pt.data();
    std::visit(
        [&](auto &grid) {
          using T = typename std::remove_reference_t<decltype(grid)>::value_type;
          for (pt[3] = 0; pt[3] < grid.extent(3); ++pt[3])
            for (pt[2] = 0; pt[2] < grid.extent(2); ++pt[2])
              for (pt[1] = 0; pt[1] < grid.extent(1); ++pt[1])
                for (pt[0] = 0; pt[0] < grid.extent(0); ++pt[0]) {
                  ir::Scalar v;
                  try {
                    v = ir::eval(*g.init, env);
                  } catch (const ir::EvalError &e) {
                    throw stencilc::Error(fmt::format("init of grid '{}': {}", g.name, e.what()));
                  }
                  grid.at(pt[0], pt[1], pt[2], pt[3]) = to_elem<T>(v);
                }
        },
        grids_[gi]);
  }
  for (std::size_t g = 0; g < grids_.size(); ++g)
    fill_ghosts(static_cast<int>(g));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  reduction_.assign(prog_.reductions.size(), nan);
  reduction_first_.assign(prog_.reductions.size(), nan);
  reduced_.assign(prog_.reductions.size(), false);
  exact_.assign(prog_.reductions.size(), 0);
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
stencilc::GridRef Interpreter::grid(const std::string &grid) const {
  return std::visit([](const auto &g) -> stencilc::GridRef { return &g; },
                    grids_[grid_index(grid)]);
}
// Grids with an `init` keep their values: they define the problem (sources, coefficients).
void Interpreter::init_random(std::uint64_t seed) {
  for (std::size_t i = 0; i < grids_.size(); ++i)
    if (!prog_.grids[i].init)
      std::visit([&](auto &g) { stencilc::fill_random(g, seed, i); }, grids_[i]);
}

std::int64_t Interpreter::default_steps() const {
  return prog_.steps ? eval_setup(prog_.steps, params_).i : ir::kDefaultSteps;
}

std::int64_t Interpreter::domain_size(const ir::Domain &d, int g) const {
  return std::visit(
      [&](const auto &grid) -> std::int64_t {
        switch (d.kind) {
        case ir::Domain::Kind::Interior: return grid.interior_size();
        case ir::Domain::Kind::Red: return stencilc::colour_count(grid, 0);
        case ir::Domain::Kind::Black: return stencilc::colour_count(grid, 1);
        case ir::Domain::Kind::Range: break;
        }
        std::int64_t n = 1;
        if (d.colour >= 0) { // counted cell by cell: the reference for the closed form
          n = 0;
          for_each_point(d, g, [&](const std::array<std::int64_t, 4> &) { ++n; });
          return n;
        }
        for (std::size_t k = 0; k < d.lo.size(); ++k)
          n *= eval_setup(d.hi[k], params_).i - eval_setup(d.lo[k], params_).i;
        return n;
      },
      grids_[g]);
}

double Interpreter::cell_updates_per_step() const {
  double n = 0;
  for (const auto &r : prog_.run)
    if (r.kind == ir::RunStmt::Kind::Call) {
      const auto &k = prog_.kernels[r.a];
      n += static_cast<double>(domain_size(k.domain, k.domain_grid));
    }
  return n;
}

std::vector<std::pair<std::string, double>> Interpreter::reductions() const {
  std::vector<std::pair<std::string, double>> out;
  for (std::size_t i = 0; i < prog_.reductions.size(); ++i)
    out.emplace_back(prog_.reductions[i].name, reduction_[i]);
  return out;
}

std::vector<std::pair<std::string, std::int64_t>> Interpreter::integer_reductions() const {
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (std::size_t i = 0; i < prog_.reductions.size(); ++i)
    if (ir::integer_reduction(prog_.reductions[i]) && reduced_[i])
      out.emplace_back(prog_.reductions[i].name, exact_[i]);
  return out;
}

std::string Interpreter::fingerprint() const {
  std::vector<std::pair<std::string, std::string>> values;
  for (std::size_t i = 0; i < prog_.params.size(); ++i)
    values.emplace_back(prog_.params[i].name, prog_.params[i].type == ir::Type::Int
                                                  ? stencilc::param_text(params_[i].i)
                                                  : stencilc::param_text(params_[i].d));
  return stencilc::fingerprint(ir::program_hash(prog_), values);
}

// As the generated code's: per reduction its value, its first value and whether it was
// computed; whether the run converged; then the integer reductions' exact values.
std::vector<double> Interpreter::run_state() const {
  std::vector<double> s;
  for (std::size_t i = 0; i < reduction_.size(); ++i)
    s.insert(s.end(), {reduction_[i], reduction_first_[i], reduced_[i] ? 1.0 : 0.0});
  s.push_back(converged_ ? 1.0 : 0.0);
  for (std::size_t i = 0; i < reduction_.size(); ++i)
    if (ir::integer_reduction(prog_.reductions[i]))
      s.push_back(stencilc::int_bits(exact_[i]));
  return s;
}

void Interpreter::set_run_state(const std::vector<double> &s) {
  const std::size_t n = reduction_.size();
  const std::size_t size =
      3 * n + 1 +
      static_cast<std::size_t>(
          std::count_if(prog_.reductions.begin(), prog_.reductions.end(), ir::integer_reduction));
  if (s.size() != size)
    throw stencilc::Error(fmt::format("a run state of {} values, not {}", s.size(), size));
  for (std::size_t i = 0; i < n; ++i) {
    reduction_[i] = s[3 * i];
    reduction_first_[i] = s[3 * i + 1];
    reduced_[i] = s[3 * i + 2] != 0;
  }
  converged_ = s[3 * n] != 0;
  std::size_t k = 3 * n + 1;
  for (std::size_t i = 0; i < n; ++i)
    if (ir::integer_reduction(prog_.reductions[i]))
      exact_[i] = stencilc::bits_int(s[k++]);
}

// The interpreter refills ghost cells before every read, so the interior is all there is.
void Interpreter::restore(const std::string &grid, const stencilc::GridRef &whole) {
  std::visit([&](auto &g) { stencilc::restore_grid(g, whole); }, grids_[grid_index(grid)]);
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

// The ghost cells of a grid hold its boundary values before every kernel or reduction that
// reads it: faces in dimension order, low before high (runtime/boundary.h).
void Interpreter::fill_ghosts(int grid) {
  const ir::Grid &g = prog_.grids[grid];
  std::visit(
      [&](auto &store) {
        using T = typename std::remove_reference_t<decltype(store)>::value_type;
        for (int d = 0; d < g.rank; ++d)
          for (int side = 0; side < 2; ++side) {
            const ir::Face &f = g.faces[2 * d + side];
            switch (f.kind) {
            case ir::BoundaryKind::Neumann: stencilc::fill_neumann(store, d, side); break;
            case ir::BoundaryKind::Periodic: stencilc::fill_periodic(store, d, side); break;
            case ir::BoundaryKind::Dirichlet: {
              std::int64_t pt[4];
              ir::Env env;
              env.params = &params_;
              env.point = pt;
              stencilc::fill_dirichlet(store, d, side,
                                       [&](std::int64_t x, std::int64_t y, std::int64_t z,
                                           std::int64_t w) {
                                         pt[0] = x, pt[1] = y, pt[2] = z, pt[3] = w;
                                         try {
                                           return to_elem<T>(ir::eval(*f.value, env));
                                         } catch (const ir::EvalError &e) {
                                           throw stencilc::Error(fmt::format(
                                               "boundary value of grid '{}': {}", g.name,
                                               e.what()));
                                         }
                                       });
              break;
            }
            }
          }
      },
      grids_[grid]);
}

template <typename F>
void Interpreter::for_each_point(const ir::Domain &d, int g, F &&f) const {
  std::array<std::int64_t, 4> lo{0, 0, 0, 0}, hi{1, 1, 1, 1};
  std::visit(
      [&](const auto &grid) {
        for (int k = 0; k < grid.rank(); ++k)
          hi[k] = grid.extent(k);
      },
      grids_[g]);
  if (d.kind == ir::Domain::Kind::Range)
    for (std::size_t k = 0; k < d.lo.size(); ++k) {
      lo[k] = eval_setup(d.lo[k], params_).i;
      hi[k] = eval_setup(d.hi[k], params_).i;
    }
  const int colour = ir::colour_of(d);
  std::array<std::int64_t, 4> pt;
  for (pt[3] = lo[3]; pt[3] < hi[3]; ++pt[3])
    for (pt[2] = lo[2]; pt[2] < hi[2]; ++pt[2])
      for (pt[1] = lo[1]; pt[1] < hi[1]; ++pt[1])
        for (pt[0] = lo[0]; pt[0] < hi[0]; ++pt[0])
          if (colour < 0 || (pt[0] + pt[1] + pt[2] + pt[3]) % 2 == colour)
            f(pt);
}

// One point of a kernel: statements in order; lets bind values, if/else picks a branch.
void Interpreter::exec(const ir::Kernel &k, const std::vector<ir::Stmt> &body, ir::Env &env,
                       std::vector<ir::Scalar> &locals, const std::array<std::int64_t, 4> &pt) {
  for (const auto &s : body) {
    switch (s.kind) {
    case ir::Stmt::Kind::Let: locals[s.local] = ir::eval(*s.value, env); break;
    case ir::Stmt::Kind::If:
      exec(k, ir::eval(*s.value, env).i ? s.then_body : s.else_body, env, locals, pt);
      break;
    case ir::Stmt::Kind::Assign: {
      const ir::Scalar v = ir::eval(*s.value, env);
      std::visit(
          [&](auto &g) {
            using T = typename std::remove_reference_t<decltype(g)>::value_type;
            g.at(pt[0], pt[1], pt[2], pt[3]) = to_elem<T>(v);
          },
          grids_[s.grid]);
      break;
    }
    }
  }
}

void Interpreter::run_kernel(const ir::Kernel &k) {
  for (int g : ir::grids_read(k.body))
    fill_ghosts(g);
  std::array<std::int64_t, 4> pt{0, 0, 0, 0};
  std::vector<ir::Scalar> locals(k.locals.size());
  ir::Env env;
  env.params = &params_;
  env.point = pt.data();
  env.locals = locals.data();
  env.read = [&](int g, const std::array<std::int64_t, 4> &cell) { return at(g, cell); };
  for_each_point(k.domain, k.domain_grid, [&](const std::array<std::int64_t, 4> &p) {
    pt = p;
    try {
      exec(k, k.body, env, locals, pt);
    } catch (const ir::EvalError &e) {
      throw stencilc::Error(fmt::format("kernel '{}' at ({}, {}, {}, {}): {}", k.name, pt[0],
                                        pt[1], pt[2], pt[3], e.what()));
    }
  });
}

// In double, in x-fastest order (integer values in 64-bit integers); norm2 is the square root
// of the sum of squares.
void Interpreter::run_reduction(int id) {
  const ir::Reduction &r = prog_.reductions[id];
  for (int g : ir::grids_read(r.value))
    fill_ghosts(g);
  std::array<std::int64_t, 4> pt{0, 0, 0, 0};
  ir::Env env;
  env.params = &params_;
  env.point = pt.data();
  env.read = [&](int g, const std::array<std::int64_t, 4> &cell) { return at(g, cell); };
  // Integer values: exact in 64 bits, sums and products modulo 2^64 (ir::integer_reduction).
  const bool exact = ir::integer_reduction(r);
  std::uint64_t wrap = r.op == ir::ReduceOp::Prod ? 1 : 0;
  std::int64_t extreme = r.op == ir::ReduceOp::Min ? std::numeric_limits<std::int64_t>::max()
                                                   : std::numeric_limits<std::int64_t>::min();
  double acc = r.op == ir::ReduceOp::Min   ? std::numeric_limits<double>::infinity()
               : r.op == ir::ReduceOp::Max ? -std::numeric_limits<double>::infinity()
               : r.op == ir::ReduceOp::Prod ? 1.0
                                            : 0.0;
  for_each_point(r.domain, r.domain_grid, [&](const std::array<std::int64_t, 4> &p) {
    pt = p;
    ir::Scalar s;
    try {
      s = ir::eval(*r.value, env);
    } catch (const ir::EvalError &e) {
      throw stencilc::Error(fmt::format("reduction '{}' at ({}, {}, {}, {}): {}", r.name, pt[0],
                                        pt[1], pt[2], pt[3], e.what()));
    }
    if (exact) {
      const auto u = static_cast<std::uint64_t>(s.i);
      switch (r.op) {
      case ir::ReduceOp::Sum: wrap += u; break;
      case ir::ReduceOp::Prod: wrap *= u; break;
      case ir::ReduceOp::Min: extreme = std::min(extreme, s.i); break;
      case ir::ReduceOp::Max: extreme = std::max(extreme, s.i); break;
      case ir::ReduceOp::Norm2: break; // never integer
      }
      return;
    }
    const double v = s.as_double(r.value->type);
    switch (r.op) {
    case ir::ReduceOp::Sum: acc += v; break;
    case ir::ReduceOp::Norm2: acc += v * v; break;
    case ir::ReduceOp::Min: acc = std::min(acc, v); break;
    case ir::ReduceOp::Max: acc = std::max(acc, v); break;
    case ir::ReduceOp::Prod: acc *= v; break;
    }
  });
  if (r.op == ir::ReduceOp::Norm2)
    acc = std::sqrt(acc);
  if (exact) {
    exact_[id] = r.op == ir::ReduceOp::Sum || r.op == ir::ReduceOp::Prod
                     ? static_cast<std::int64_t>(wrap)
                     : extreme;
    acc = static_cast<double>(exact_[id]);
  }
  reduction_[id] = acc;
  if (!reduced_[id]) {
    reduced_[id] = true;
    reduction_first_[id] = acc;
  }
}

void Interpreter::run_stmts(const std::vector<ir::RunStmt> &stmts) {
  for (const auto &r : stmts) {
    switch (r.kind) {
    case ir::RunStmt::Kind::Call: run_kernel(prog_.kernels[r.a]); break;
    case ir::RunStmt::Kind::Reduce: run_reduction(r.a); break;
    case ir::RunStmt::Kind::Swap:
      std::visit(
          [&](auto &a) {
            using G = std::remove_reference_t<decltype(a)>;
            a.swap_storage(std::get<G>(grids_[r.b]));
          },
          grids_[r.a]);
      break;
    }
  }
}

std::vector<std::string> Interpreter::blocks() const {
  std::vector<std::string> names;
  for (const auto &b : prog_.blocks)
    names.push_back(b.name);
  return names;
}

const ir::Program::Block &Interpreter::block(const std::string &name) const {
  for (const auto &b : prog_.blocks)
    if (b.name == name)
      return b;
  throw stencilc::Error("no run block named '" + name + "'");
}

std::int64_t Interpreter::block_steps(const std::string &name) const {
  const std::int64_t n = eval_setup(block(name).steps, params_).i;
  if (n < 0)
    throw stencilc::Error("run block '" + name + "': the step count is " + std::to_string(n) +
                          "; it must be at least 0");
  return n;
}

void Interpreter::run_block(const std::string &name, std::int64_t steps) {
  const auto &b = block(name);
  for (std::int64_t s = 0; s < steps; ++s)
    run_stmts(b.run);
}

std::int64_t Interpreter::run(std::int64_t steps) {
  converged_ = false;
  for (std::int64_t s = 0; s < steps; ++s) {
    run_stmts(prog_.run);
    if (prog_.until) {
      ir::Env env;
      env.params = &params_;
      env.reductions = &reduction_;
      env.reductions_first = &reduction_first_;
      bool stop = false;
      try {
        stop = ir::eval(*prog_.until, env).i != 0;
      } catch (const ir::EvalError &e) {
        throw stencilc::Error(std::string("the condition of 'run until': ") + e.what());
      }
      if (stop) {
        converged_ = true;
        return s + 1;
      }
    }
  }
  return steps;
}

} // namespace stc
