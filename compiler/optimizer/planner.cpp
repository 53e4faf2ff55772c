#include "optimizer/planner.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "analysis/x_shifts.h"
#include "lower/lowered.h"
#include "sema/check.h"
#include "stencilc/error.h"

namespace stc {

namespace {

// The bytes one refill of grid g's ghost cells moves (boundary.h's order, face by face),
// counted as bytes_per_cell counts a sweep's: a written cell twice (its line is read for
// ownership), a cell copied from once more. A face across x does so per line: a line of ghost
// cells and the line it copies from, per row and side.
double fill_bytes(const ir::Grid &g, const ir::Env &env) {
  std::array<double, ir::kMaxRank> n{1, 1, 1, 1}, h{0, 0, 0, 0};
  for (int d = 0; d < g.rank; ++d) {
    n[d] = static_cast<double>(ir::eval(*g.extents[d], env).i);
    h[d] = g.halo[d];
  }
  const double e = static_cast<double>(ir::elem_bytes(g));
  double bytes = 0;
  for (int d = 0; d < g.rank; ++d) {
    if (h[d] <= 0)
      continue;
    double cells = h[d];
    for (int k = 0; k < g.rank; ++k)
      if (k != d)
        cells *= k < d ? n[k] + 2 * h[k] : n[k];
    for (int side = 0; side < 2; ++side) {
      const double moves = g.faces[2 * d + side].kind == ir::BoundaryKind::Dirichlet ? 2 : 3;
      bytes += d == 0 ? (cells / h[0]) * moves * 64 * std::ceil(h[0] * e / 64) : cells * moves * e;
    }
  }
  return bytes;
}

// The rows one refill of grid g's ghost cells visits (boundary.h's for_each_ghost_row, face by
// face): each costs the sweep's t_row beyond its bytes. Across x, every interior row per side,
// once for both sides where both copy interior cells (fill_x_faces, a whole grid's); across
// dimension d >= 1, h_d layers of the rows of the dimensions after x, those before d with
// their ghost layers.
double fill_rows(const ir::Grid &g, const ir::Env &env) {
  std::array<double, ir::kMaxRank> n{1, 1, 1, 1}, h{0, 0, 0, 0};
  for (int d = 0; d < g.rank; ++d) {
    n[d] = static_cast<double>(ir::eval(*g.extents[d], env).i);
    h[d] = g.halo[d];
  }
  auto copies = [](const ir::Face &f) {
    return f.kind == ir::BoundaryKind::Periodic || f.kind == ir::BoundaryKind::Neumann;
  };
  double rows = 0;
  for (int d = 0; d < g.rank; ++d) {
    if (h[d] <= 0)
      continue;
    double per_side = d == 0 ? 1 : h[d];
    for (int k = 1; k < g.rank; ++k)
      if (k != d)
        per_side *= k < d ? n[k] + 2 * h[k] : n[k];
    rows += per_side * (d == 0 && copies(g.faces[0]) && copies(g.faces[1]) ? 1 : 2);
  }
  return rows;
}

// Bytes per cell of the grids a CPU temporal run's last block writes and the others skip
// (runtime engine.cpp: Options::all_results): grids the step writes or swaps whose value from
// before the step no kernel reads, like the target of a ping-pong swap. The step is followed
// twice, as the engine follows its k steps, so that a swap's second step is seen too.
double dead_written_bytes(const ir::Program &p) {
  const int ng = static_cast<int>(p.grids.size());
  std::vector<int> cur(ng);
  for (int g = 0; g < ng; ++g)
    cur[g] = g; // versions below ng: the grids' values from before the step
  std::vector<bool> live(ng, false), changed(ng, false);
  int next = ng;
  for (int t = 0; t < 2; ++t)
    for (const auto &r : p.run) {
      if (r.kind == ir::RunStmt::Kind::Swap) {
        std::swap(cur[r.a], cur[r.b]);
        changed[r.a] = changed[r.b] = true;
        continue;
      }
      if (r.kind != ir::RunStmt::Kind::Call)
        continue;
      const ir::Kernel &k = p.kernels[r.a];
      for (int g : ir::grids_read(k.body))
        if (cur[g] < ng)
          live[cur[g]] = true;
      // A kernel on part of the domain keeps the rest of the old values (the engine's
      // stages that are not `full`).
      const bool full = k.domain.kind == ir::Domain::Kind::Interior && ir::colour_of(k.domain) < 0;
      for (int w : ir::grids_written(k.body)) {
        if (!full && cur[w] < ng)
          live[cur[w]] = true;
        cur[w] = next++;
        changed[w] = true;
      }
    }
  double bytes = 0;
  for (int g = 0; g < ng; ++g)
    if (changed[g] && !live[g])
      bytes += static_cast<double>(ir::elem_bytes(p.grids[g]));
  return bytes;
}

// Grid g's storage (grid.h: rows of halo + extent + halo rounded up to a 64-byte line, the
// ghost rows and planes around them), in bytes.
double storage_bytes(const ir::Grid &g, const ir::Env &env) {
  const double e = static_cast<double>(ir::elem_bytes(g));
  double bytes = 1;
  for (int d = 0; d < g.rank; ++d) {
    const double n = static_cast<double>(ir::eval(*g.extents[d], env).i) + 2.0 * g.halo[d];
    bytes *= d == 0 ? std::ceil(n * e / 64) * 64 : n;
  }
  return bytes;
}

// The lowered step in its steady state (the third and fourth time round, averaged: a swap may
// alternate two states): the fills that find their grid stale, and the reductions.
void naive_extras(const ir::Program &p, const Analysis &a, const ir::Env &env, model::Cost &c,
                  std::set<int> &touched) {
  const lower::Lowered low = lower::lower(p, a);
  const double cells = std::max(1.0, c.cells());
  std::set<int> stale;
  for (std::size_t g = 0; g < p.grids.size(); ++g)
    stale.insert(static_cast<int>(g));
  constexpr int kPasses = 4, kCounted = 2; // the last two
  const double share = 1.0 / kCounted;
  for (int pass = 0; pass < kPasses; ++pass)
    for (const lower::Action &act : low.step) {
      const bool counted = pass >= kPasses - kCounted;
      switch (act.kind) {
      case lower::Action::Kind::FillGhosts:
        if (stale.erase(act.a) && counted) {
          c.fill_bytes_per_cell += share * fill_bytes(p.grids[act.a], env) / cells;
          c.extra_rows_per_cell += share * fill_rows(p.grids[act.a], env) / cells;
        }
        break;
      case lower::Action::Kind::MarkStale: stale.insert(act.a); break;
      case lower::Action::Kind::Swap:
        if (stale.count(act.a) != stale.count(act.b)) {
          const bool a_stale = stale.count(act.a);
          stale.erase(a_stale ? act.a : act.b);
          stale.insert(a_stale ? act.b : act.a);
        }
        break;
      case lower::Action::Kind::Reduce:
        if (counted) {
          std::set<int> read;
          ir::walk(p.reductions[act.a].value, [&](const ir::Expr &e) {
            if (e.op == ir::Op::GridRead)
              read.insert(e.id);
          });
          for (int g : read)
            c.reduce_bytes_per_cell += share * static_cast<double>(ir::elem_bytes(p.grids[g]));
          // One loop over the domain's rows (the x-rows of c.extent, set by the first kernel).
          c.extra_rows_per_cell +=
              share / static_cast<double>(std::max<std::int64_t>(1, c.extent[0]));
          touched.insert(read.begin(), read.end());
        }
        break;
      default: break;
      }
    }
}

} // namespace

model::Cost program_cost(const ir::Program &p, const Analysis &a,
                         const std::vector<ir::Scalar> &params, std::int64_t steps) {
  model::Cost c;
  ir::Env env;
  env.params = &params;
  bool first = true;
  // Grids the step changes (written or swapped; the others are coefficients) and how far it
  // reaches: the lowering's schedule.
  const lower::Schedule sched = lower::step_schedule(p, a);
  const std::set<int> &state = sched.state;
  c.halo_per_step = 1;
  c.whole_dims = ir::unsplit_dims(p);
  for (int d = 0; d < ir::kMaxRank; ++d)
    c.halo_per_step = std::max(c.halo_per_step, sched.step_reach[d]);
  // The rows and planes a temporal tile adds per step: the schedule's reach beyond x (x-rows
  // stay whole), the margins the CPU engine computes with.
  c.step_radius = 0;
  for (int d = 1; d < ir::kMaxRank; ++d)
    c.step_radius = std::max(c.step_radius, sched.step_reach[d]);
  c.stages = 0;
  bool single = true;
  std::set<int> step_grids; // every grid a kernel or reduction of the step touches
  for (const auto &r : p.run) {
    if (r.kind != ir::RunStmt::Kind::Call)
      continue;
    const ir::Kernel &k = p.kernels[r.a];
    const KernelStats &s = a.kernels[r.a];
    ++c.stages;
    c.x_shift_stages += why_no_x_shifts(p, k).empty() ? 1 : 0;
    const std::set<int> written = ir::grids_written(k.body);
    for (int g : ir::grids_read(k.body)) {
      const double elem = static_cast<double>(ir::elem_bytes(p.grids[g]));
      if (!state.count(g))
        c.readonly_bytes_per_cell += elem;
      bool offsets = false;
      for (int d = 0; d < k.rank; ++d)
        offsets = offsets || a.grid_radius[g][d] > 0;
      if (offsets && !written.count(g))
        c.offset_read_bytes_per_cell += elem;
      if (!offsets && !written.count(g))
        c.centre_read_bytes_per_cell += elem;
      // Its ghost ring, read once per sweep too (a star's faces: sum_d 2 r_d / n_d).
      if (!written.count(g))
        for (int d = 0; d < k.rank; ++d)
          c.ghost_read_bytes_per_cell +=
              elem * 2.0 * a.grid_radius[g][d] /
              static_cast<double>(std::max<std::int64_t>(1, ir::eval(*p.grids[k.domain_grid].extents[d], env).i));
    }
    // What a CPU sweep moves: rows are contiguous, so the prefetchers take whole padded rows
    // (a 32-cell fp64 row with 2 ghosts each side is 40 cells apart from the next: 1.25 of
    // its cells), and a grid read at offsets is read on its ghost rows and planes too.
    {
      const ir::Grid &dg = p.grids[k.domain_grid];
      std::array<double, ir::kMaxRank> n{};
      for (int d = 0; d < k.rank; ++d)
        n[d] = static_cast<double>(std::max<std::int64_t>(1, ir::eval(*dg.extents[d], env).i));
      const auto read = ir::grids_read(k.body);
      std::set<int> touched = written;
      touched.insert(read.begin(), read.end());
      step_grids.insert(touched.begin(), touched.end());
      c.streams = std::max(c.streams, static_cast<int>(touched.size()));
      // The planes a stage call of the CPU engine starts on (the model's T_calls): along the
      // streamed (last) dimension a read at offsets spans 2r + 1 of them.
      for (int g : touched)
        c.plane_streams +=
            (read.count(g) ? 2 * a.grid_radius[g][k.rank - 1] + 1 : 0) + (written.count(g) ? 1 : 0);
      for (int g : touched) {
        const double elem = static_cast<double>(ir::elem_bytes(p.grids[g]));
        const double line = 64 / elem;
        const double row = std::ceil((n[0] + 2.0 * a.grid_radius[g][0]) / line) * line / n[0];
        double ghosts = 1; // rows read per interior row
        for (int d = 1; d < k.rank && read.count(g); ++d)
          ghosts *= (n[d] + 2.0 * a.grid_radius[g][d]) / n[d];
        // A written grid's lines are read for ownership and written back (2), an input's read.
        c.padded_bytes_per_cell += elem * row * (written.count(g) ? 1 + ghosts : ghosts);
      }
    }
    std::set<int> swapped;
    for (const auto &q : p.run)
      if (q.kind == ir::RunStmt::Kind::Swap)
        swapped.insert({q.a, q.b});
    for (int g : written)
      if (swapped.count(g))
        c.swapped_written_bytes_per_cell += static_cast<double>(ir::elem_bytes(p.grids[g]));
    std::set<std::pair<int, std::array<int, ir::kMaxRank>>> offset_loads, xy_loads;
    ir::walk(k.body, [&](const ir::Expr &e) {
      if (e.op != ir::Op::GridRead || written.count(e.id))
        return;
      bool offsets = false;
      for (int d = 0; d < k.rank; ++d)
        offsets = offsets || a.grid_radius[e.id][d] > 0;
      std::array<int, ir::kMaxRank> at{};
      for (int d = 0; d < ir::kMaxRank; ++d)
        at[d] = e.relative(d);
      if (offsets)
        offset_loads.insert({e.id, at});
      if (offsets && (at[0] != 0 || at[1] != 0))
        xy_loads.insert({e.id, at});
    });
    c.offset_loads_per_cell += static_cast<double>(offset_loads.size());
    c.xy_loads_per_cell += static_cast<double>(xy_loads.size());
    for (int g : ir::grids_read(k.body))
      single = single && (written.count(g) || swapped.count(g));
    c.flops_per_cell += s.flops;
    c.bytes_per_cell += s.bytes_streamed;
    c.written_bytes_per_cell += s.bytes_written;
    // The CPU engine's last stage of a block computes a whole-interior kernel that reads none
    // of the grids it writes straight into the results (engine.cpp, writes_shadows): ordinary
    // stores. The step's last kernel is that stage; any other result streams to its shadow.
    bool reads_written = false;
    for (int g : ir::grids_read(k.body))
      reads_written = reads_written || written.count(g) > 0;
    c.direct_written_bytes_per_cell =
        k.domain.kind == ir::Domain::Kind::Interior && !reads_written ? s.bytes_written : 0;
    c.loads_per_cell += s.loads;
    c.grids = std::max(c.grids, s.grids_read);
    for (int d = 0; d < k.rank; ++d)
      c.radius = std::max(c.radius, s.radius[d]);
    const ir::Grid &g = p.grids[k.domain_grid];
    c.elem_bytes = std::max(c.elem_bytes, static_cast<double>(ir::elem_bytes(g)));
    if (first) {
      c.rank = k.rank;
      for (int d = 0; d < k.rank; ++d)
        c.extent[d] = ir::eval(*g.extents[d], env).i;
      first = false;
    }
  }
  c.single_array = single && c.stages == 1;
  c.dead_written_bytes_per_cell = dead_written_bytes(p);
  naive_extras(p, a, env, c, step_grids);
  for (int g : step_grids)
    c.footprint_bytes_per_cell += storage_bytes(p.grids[g], env) / std::max(1.0, c.cells());
  c.steps = steps > 0 ? steps : p.steps ? ir::eval(*p.steps, env).i : ir::kDefaultSteps;
  c.step_radius = std::max(c.step_radius, 1);
  c.stages = std::max(c.stages, 1);
  return c;
}

std::vector<model::Prediction> plan_candidates(const ir::Program &p, const Analysis &a,
                                               const Target &t, const model::Machine &m,
                                               const std::vector<ir::Scalar> &params, int ranks,
                                               std::int64_t steps) {
  return plan_candidates(p, t, m, program_cost(p, a, params, steps), ranks);
}

std::vector<model::Prediction> plan_candidates(const ir::Program &p, const Target &t,
                                               const model::Machine &m, const model::Cost &cost,
                                               int ranks) {
  auto cands = model::candidates(cost, m, t.plan_rules(), ranks);
  cands.erase(std::remove_if(cands.begin(), cands.end(),
                             [&](const model::Prediction &c) { return !t.why_not(c.plan, p).empty(); }),
              cands.end());
  if (cands.empty() && ranks > 1 && t.plan_rules().distributed) {
    bool splittable = false;
    for (int d = 0; d < std::min(cost.rank, ir::kMaxRank); ++d)
      splittable |= !((cost.whole_dims >> d) & 1u);
    if (!splittable)
      throw stencilc::Error(fmt::format(
          "{} {}, so no dimension can be split over {} ranks: run it on 1", p.name,
          cost.whole_dims == ir::absolute_dims(p)
              ? "reads every dimension of its grids at absolute indices"
              : "has its dimensions read at absolute indices or missing from a grid of lower "
                "rank that is distributed",
          ranks));
  }
  if (cands.empty())
    throw stencilc::Error("the model found no plan that fits this machine");
  return cands;
}

model::Prediction choose_plan(const ir::Program &p, const Analysis &a, const Target &t,
                              const std::string &machine, const stencilc::RunOptions &run) {
  std::string from;
  const model::Machine m = model::load_machine(machine, t.plan_rules().platform, from);
  return plan_candidates(p, a, t, m, param_values(p, run), 1, run.steps.value_or(0)).front();
}

stencilc::Plan plan_to_emit(const ir::Program &p, const Analysis &a, const Target &t,
                            const std::string &given, const std::string &machine,
                            PlanSource &source) {
  if (!machine.empty()) {
    // A bad --machine is an error even where no plan is chosen with it (--plan given).
    std::string from;
    model::load_machine(machine, t.plan_rules().platform, from);
  }
  if (given.empty()) {
    try {
      source = PlanSource::Model;
      return choose_plan(p, a, t, machine, {}).plan;
    } catch (const stencilc::Error &) {
    } catch (const ir::EvalError &) {
    }
    source = PlanSource::Fallback;
    return stencilc::Plan{};
  }
  source = PlanSource::Given;
  const stencilc::Plan plan = stencilc::parse_plan(given, t.plan_rules());
  const std::string why = t.why_not(plan, p);
  if (!why.empty())
    throw stencilc::Error(fmt::format("--plan {}: {}", given, why));
  return plan;
}

std::string plan_comment(const ir::Program &p, const Analysis &a, const Target &t,
                         const std::string &machine, const stencilc::Plan &plan,
                         PlanSource source) {
  const std::string origin =
      source == PlanSource::Model ? "Plan: the performance model's choice (stencilc explain "
                                    "shows the candidates).\n"
      : source == PlanSource::ModelRegisters
          ? "Plan: the performance model's choice with the registers ptxas reported for the "
            "kernels\n(stencilc explain --ptxas shows the candidates; the prediction below "
            "leaves them out).\n"
      : source == PlanSource::Given ? "Plan: given with --plan.\n"
                                    : "Plan: naive by default; the performance model chose none.\n";
  std::vector<ir::Scalar> params;
  try {
    params = param_values(p, {});
  } catch (const stencilc::Error &e) {
    return origin +
           fmt::format("No prediction: the model could not size the program:\n{}.", e.what());
  }
  try {
    std::string from;
    const model::Machine m = model::load_machine(machine, t.plan_rules().platform, from);
    const model::Cost cost = program_cost(p, a, params);
    const model::Prediction pred = model::predict(cost, m, plan);
    // The params that size the grids, at their defaults.
    std::set<int> sizes;
    for (const auto &g : p.grids)
      for (const auto &e : g.extents)
        ir::walk(e, [&](const ir::Expr &n) {
          if (n.op == ir::Op::Param)
            sizes.insert(n.id);
        });
    std::string defaults;
    for (int i : sizes) {
      const auto &q = p.params[i];
      defaults += fmt::format("{}{}={}", defaults.empty() ? ": " : ", ", q.name,
                              q.type == ir::Type::Int ? fmt::format("{}", params[i].i)
                                                      : fmt::format("{:g}", params[i].d));
    }
    std::string dims;
    for (int d = 0; d < cost.rank; ++d)
      dims += fmt::format("{}{}", d ? " x " : "", cost.extent[d]);
    return origin + fmt::format("Predicted: {:.4g} s/step, {:.4g} cell-updates/s ({}-bound)\n"
                                "on machine {} ({})\n"
                                "at the program's default sizes{} (domain {}, {} steps).",
                                pred.seconds_per_step, cost.cells() / pred.seconds_per_step,
                                pred.bound, m.name, from, defaults, dims,
                                static_cast<long long>(cost.steps));
  } catch (const stencilc::Error &e) {
    return origin + fmt::format("No prediction: {}.", e.what());
  } catch (const ir::EvalError &e) {
    return origin +
           fmt::format("No prediction: the model could not size the program:\n{}.", e.what());
  }
}

} // namespace stc
