#include "driver/explain.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/x_shifts.h"
#include "model/machine.h"
#include "optimizer/planner.h"
#include "optimizer/ptxas_registers.h"
#include "stencilc/error.h"
#include "support/units.h"
#include "target/ptxas_usage.h"
#include "target/target.h"

namespace stc {

namespace {

// The levels a calibrated CPU profile measured, fastest first, with their load bandwidth: a
// kernel streaming from one of them is bounded by min(peak / flops, bandwidth / bytes) per cell.
std::vector<std::pair<std::string, double>> roofline_levels(const model::Machine &m) {
  std::vector<std::pair<std::string, double>> v;
  for (const auto &[name, bw] : {std::pair<const char *, double>{"L1", m.l1_bandwidth},
                                 {"L2", m.l2_bandwidth},
                                 {"L3", m.l3_bandwidth},
                                 {"memory", m.bandwidth}})
    if (bw > 0)
      v.emplace_back(name, bw);
  return v;
}

// The registers and spills ptxas reported for the program's sweeps (the widest kernel of each
// plan), on the profile's architecture, into the cost: the model's occupancy term.
void read_ptxas_registers(const ir::Program &p, const ExplainOptions &opts, const model::Machine &m,
                          model::Cost &cost) {
  if (!find_target(opts.target).reports_ptxas())
    throw stencilc::Error("--ptxas reads nvcc's `-Xptxas -v` output: the cuda target only");
  std::ifstream in(opts.ptxas, std::ios::binary);
  if (!in)
    throw stencilc::Error("--ptxas: cannot read '" + opts.ptxas + "'");
  std::ostringstream text;
  text << in.rdbuf();
  std::set<std::string> archs;
  if (!add_ptxas_registers(p, stencilc::target::parsePtxasUsage(text.str()), m.arch, cost,
                           &archs)) {
    std::string seen;
    for (const auto &a : archs)
      seen += (seen.empty() ? "" : ", ") + a;
    throw stencilc::Error(fmt::format(
        "--ptxas {}: no kernel of {} compiled for {} in it{} (build with "
        "STENCILC_CUDA_ARCH={} and --cxxflag=-Xptxas=-v)",
        opts.ptxas, p.name, m.arch.empty() ? "any architecture" : m.arch,
        seen.empty() ? "" : " (it has " + seen + ")", m.arch.empty() ? "sm_90" : m.arch));
  }
}

} // namespace

int explain(const Compiled &c, const ExplainOptions &opts) {
  const Target &target = find_target(opts.target);
  const stencilc::PlanRules rules = target.plan_rules();
  const auto params = param_values(c.program, opts.run);
  const std::int64_t steps = opts.run.steps.value_or(0);
  model::Cost cost = program_cost(c.program, c.analysis, params, steps);
  std::string from;
  const model::Machine m = model::load_machine(opts.machine, rules.platform, from);
  if (!opts.ptxas.empty())
    read_ptxas_registers(c.program, opts, m, cost);
  const int ranks = rules.distributed ? opts.ranks : 1;
  auto cands = plan_candidates(c.program, target, m, cost, ranks);
  const std::string why_naive = target.why_not_blocked(c.program);
  // The step's kernels without xshift=reg row functions, and why (CPU temporal plans only).
  std::vector<std::pair<std::string, std::string>> no_x_shifts;
  if (why_naive.empty() && rules.platform == stencilc::Platform::Cpu) {
    std::set<int> seen;
    for (const auto &r : c.program.run)
      if (r.kind == ir::RunStmt::Kind::Call && seen.insert(r.a).second) {
        const std::string why = why_no_x_shifts(c.program, c.program.kernels[r.a]);
        if (!why.empty())
          no_x_shifts.emplace_back(c.program.kernels[r.a].name, why);
      }
  }
  model::Prediction chosen = cands.front();
  bool overridden = false;
  if (!opts.plan.empty()) {
    chosen = model::predict(cost, m, stencilc::parse_plan(opts.plan, rules, chosen.plan));
    overridden = true;
  }
  const double intensity = cost.flops_per_cell / cost.bytes_per_cell;
  const double balance = m.flops / m.bandwidth;
  const double cells = cost.cells();
  std::string dims;
  for (int d = 0; d < cost.rank; ++d)
    dims += fmt::format("{}{}", d ? " x " : "", cost.extent[d]);

  if (opts.json) {
    nlohmann::ordered_json j;
    j["stencil"] = c.program.name;
    j["target"] = opts.target;
    j["machine"] = m.name;
    j["machine_from"] = from;
    j["cells"] = cells;
    j["flops_per_cell"] = cost.flops_per_cell;
    j["bytes_per_cell"] = cost.bytes_per_cell;
    j["intensity"] = intensity;
    j["balance"] = balance;
    j["memory_bandwidth"] = m.bandwidth; // bytes/s: the ceiling of effective bandwidth
    if (m.peak_flops > 0) { // calibrated: the roofline bound of this kernel at each level
      nlohmann::ordered_json rl;
      rl["peak_flops"] = m.peak_flops;
      for (const auto &[level, bw] : roofline_levels(m))
        rl[level] = {{"bandwidth", bw},
                     {"cells_per_second",
                      std::min(m.peak_flops / cost.flops_per_cell, bw / cost.bytes_per_cell)}};
      j["roofline"] = rl;
    }
    if (m.kind == "gpu") // the least a GPU sweep moves (each input, its ghost ring, each output once)
      j["min_global_bytes_per_cell"] = model::gpu_min_bytes(cost);
    auto row = [&](const model::Prediction &p) {
      nlohmann::ordered_json r;
      r["plan"] = stencilc::to_string(p.plan);
      r["seconds_per_step"] = p.seconds_per_step;
      r["cells_per_second"] = cells / p.seconds_per_step;
      r["bound"] = p.bound;
      r["note"] = p.note;
      if (m.kind == "gpu") {
        r["global_bytes_per_cell"] = p.global_bytes;
        // The least bytes a cell-update moves over its time (the plain output's column).
        r["effective_bandwidth"] = cells / p.seconds_per_step * model::gpu_min_bytes(cost);
      }
      if (p.occupancy > 0)
        r["occupancy"] = p.occupancy;
      // The terms behind the time, seconds per step (docs/MODEL.md §3).
      r["terms"] = {{"compute", p.t_compute}, {"memory", p.t_memory}};
      if (p.t_extra > 0)
        r["terms"]["fills_and_reductions"] = p.t_extra;
      if (p.t_rows > 0) // CPU: the rows' share of compute
        r["terms"]["rows"] = p.t_rows;
      if (p.t_calls > 0) // CPU temporal: the (tile, plane) calls' share of the rows'
        r["terms"]["calls"] = p.t_calls;
      if (p.t_state + p.t_coefficients + p.t_carry > 0) { // CPU temporal: memory's parts
        r["terms"]["state"] = p.t_state;
        r["terms"]["coefficients"] = p.t_coefficients;
        r["terms"]["carry"] = p.t_carry;
      }
      if (p.t_last > 0) // CPU temporal: the run's last block, whether or not its rings fit
        r["terms"]["last_block"] = p.t_last;
      if (p.plan.distribution) // one exchange period's terms, seconds (docs/MODEL.md §4)
        r["period"] = {{"k", p.plan.k()}, {"inner", p.t_inner}, {"boundary", p.t_boundary},
                       {"d2h", p.t_d2h},  {"mpi", p.t_mpi},     {"h2d", p.t_h2d}};
      return r;
    };
    j["chosen"] = row(chosen);
    if (!why_naive.empty())
      j["temporal_blocking"] = "does not apply: " + why_naive;
    for (const auto &[kernel, why] : no_x_shifts)
      j["no_x_shifts"][kernel] = why;
    j["override"] = overridden;
    j["candidates"] = nlohmann::ordered_json::array();
    for (const auto &p : cands)
      j["candidates"].push_back(row(p));
    std::printf("%s\n", j.dump().c_str());
    return 0;
  }
  std::printf("%s on %s, machine %s (%s)\n", c.program.name.c_str(), opts.target.c_str(),
              m.name.c_str(), from.c_str());
  std::printf("  domain %s = %s cells, %lld steps\n", dims.c_str(), si(cells, "").c_str(),
              static_cast<long long>(cost.steps));
  std::printf("  per cell and step: %g flops, %g bytes streamed, %g loads, radius %d: %.3g "
              "flop/byte\n",
              cost.flops_per_cell, cost.bytes_per_cell, cost.loads_per_cell, cost.radius,
              intensity);
  std::printf("  machine: %s, %s: balance %.3g flop/byte, so a naive sweep is %s-bound (%s "
              "cells/s at best)\n",
              si(m.flops, "flop/s").c_str(), si(m.bandwidth, "B/s").c_str(), balance,
              intensity < balance ? "memory" : "compute",
              si(std::min(m.flops / cost.flops_per_cell, m.bandwidth / cost.bytes_per_cell), "")
                  .c_str());
  if (m.kind == "cpu" && m.shared_cache_bytes > 0)
    std::printf("  caches: L2 %s per core (%s), L3 %s shared: temporal rings may use %s of it "
                "per thread (%s with a stage's planes there)\n",
                si(m.cache_bytes, "B").c_str(), si(m.flops, "flop/s").c_str(),
                si(m.shared_cache_bytes, "B").c_str(),
                si(m.shared_cache_bytes * model::kSharedCacheShare / std::max(1, m.threads), "B")
                    .c_str(),
                si(m.shared_cache_flops > 0 ? m.shared_cache_flops : m.flops, "flop/s").c_str());
  else if (m.kind == "cpu")
    std::printf("  cache: L2 %s per core\n", si(m.cache_bytes, "B").c_str());
  if (m.peak_flops > 0) {
    std::string levels;
    for (const auto &[level, bw] : roofline_levels(m))
      levels += fmt::format("{}{} {} ({} cells/s)", levels.empty() ? "" : ", ", level,
                            si(bw, "B/s"),
                            si(std::min(m.peak_flops / cost.flops_per_cell, bw / cost.bytes_per_cell), ""));
    // A kernel without floating-point work (integer grids) has no compute ceiling to show.
    const std::string compute = cost.flops_per_cell > 0
                                    ? si(m.peak_flops / cost.flops_per_cell, "") + " cells/s"
                                    : std::string("no flops in the kernels");
    std::printf("  roofline: vector peak %s (%s); streaming from %s\n",
                si(m.peak_flops, "flop/s").c_str(), compute.c_str(), levels.c_str());
  }
  // GPU: the effective bandwidth (the least bytes a cell-update must move, each input read
  // once and each output written once, over its time), and the most one step at a time allows.
  const bool gpu = m.kind == "gpu";
  const double least = model::gpu_min_bytes(cost);
  if (gpu)
    std::printf("  single-step ceiling: %.3g B per cell-update at least, %s cells/s at %s; "
                "effective bandwidth = that many bytes per cell-update / time\n",
                least, si(m.bandwidth / least, "").c_str(), si(m.bandwidth, "B/s").c_str());
  if (ranks > 1)
    std::printf("  %d ranks\n", ranks);
  const bool only_naive = std::all_of(cands.begin(), cands.end(),
                                      [](const model::Prediction &p) { return p.plan.naive(); });
  if (!why_naive.empty())
    std::printf("  %s%s\n", why_naive.c_str(), only_naive ? "; naive plans only" : "");
  for (const auto &[kernel, why] : no_x_shifts)
    std::printf("  x-shifts in registers (xshift=reg) not for kernel '%s': %s\n", kernel.c_str(),
                why.c_str());
  std::printf("  candidates, fastest first (%zu in all, * = chosen%s):\n", cands.size(),
              overridden ? ", override from --plan" : "");
  const std::size_t shown = std::min<std::size_t>(cands.size(), 12);
  // The plan column as wide as the longest plan shown (a distributed temporal plan's key is).
  int width = 48;
  for (std::size_t i = 0; i < shown; ++i)
    width = std::max(width, static_cast<int>(stencilc::to_string(cands[i].plan).size()));
  if (overridden)
    width = std::max(width, static_cast<int>(stencilc::to_string(chosen.plan).size()));
  std::printf("    %-*s %12s %12s%s %10s  %-14s %s\n", width, "plan", "s/step", "cells/s",
              gpu ? "   eff. B/s" : "", "redundant", "bound", "note");
  auto print_row = [&](const model::Prediction &p, bool mark) {
    const double rate = cells / p.seconds_per_step;
    std::printf("  %s %-*s %12.4g %12.4g%s %9.1f%%  %-14s %s\n", mark ? "*" : " ", width,
                stencilc::to_string(p.plan).c_str(), p.seconds_per_step, rate,
                gpu ? fmt::format(" {:>10}", si(rate * least, "B/s")).c_str() : "",
                (p.redundancy - 1) * 100, p.bound.c_str(), p.note.c_str());
  };
  bool naive_shown = false;
  for (std::size_t i = 0; i < shown; ++i) {
    print_row(cands[i], !overridden && i == 0);
    naive_shown |= cands[i].plan.naive() && cands[i].plan.k() == 1;
  }
  if (!naive_shown)
    for (const auto &p : cands)
      if (p.plan.naive() && p.plan.k() == 1 &&
          (!p.plan.distribution || p.plan.distribution->procs == cands[0].plan.distribution->procs)) {
        std::printf("    ...\n");
        print_row(p, false);
        break;
      }
  if (overridden) {
    std::printf("    override:\n");
    print_row(chosen, true);
  }
  std::printf("  chosen: %s, %.4g s/step predicted (%s-bound)%s\n", stencilc::to_string(chosen.plan).c_str(),
              chosen.seconds_per_step, chosen.bound.c_str(),
              overridden ? " [--plan override]" : "");
  // What the model would choose among every plan it prices, when the target does not generate
  // it: so the user sees what is missing and what it would gain.
  if (!overridden) {
    const auto all = model::candidates(cost, m, rules, ranks);
    if (!all.empty() && all.front().plan != chosen.plan &&
        all.front().seconds_per_step < chosen.seconds_per_step) {
      const std::string why = target.why_not(all.front().plan, c.program);
      if (!why.empty())
        std::printf("  the model's best plan, %s (%.4g s/step, %.2fx the chosen), is not "
                    "generated: %s\n",
                    stencilc::to_string(all.front().plan).c_str(), all.front().seconds_per_step,
                    chosen.seconds_per_step / all.front().seconds_per_step, why.c_str());
    }
  }
  if (chosen.plan.distribution) {
    // One exchange period of the chosen plan, term by term (docs/MODEL.md §4), and what it
    // gains over the plain plan of the same process grid: naive, k = 1, no overlap.
    const auto &dist = *chosen.plan.distribution;
    std::printf("  exchange period (k=%d): inner %.3g s, boundary %.3g s, d2h %.3g s, mpi %.3g s, "
                "h2d %.3g s: %s\n",
                dist.k, chosen.t_inner, chosen.t_boundary, chosen.t_d2h, chosen.t_mpi, chosen.t_h2d,
                dist.host      ? "d2h + max(inner, mpi + boundary + h2d), the boundary on the "
                                 "host's cores"
                : dist.first   ? "boundary + max(inner, d2h + mpi + h2d), the boundary first"
                : dist.overlap ? "max(inner, d2h + mpi + h2d) + boundary"
                               : "inner + d2h + mpi + h2d + boundary");
    stencilc::Plan plain;
    plain.distribution = stencilc::Distribution{dist.procs, 1, false};
    const model::Prediction base = model::predict(cost, m, plain);
    if (base.plan != chosen.plan)
      std::printf("  against %s (%.4g s/step predicted): %.2fx\n",
                  stencilc::to_string(base.plan).c_str(), base.seconds_per_step,
                  base.seconds_per_step / chosen.seconds_per_step);
  }
  return 0;
}

} // namespace stc
