#include "driver/explain.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "codegen/codegen.h"
#include "driver/process.h"
#include "model/machine.h"
#include "sema/check.h"
#include "stencilc/error.h"

namespace stc {

model::Cost program_cost(const ir::Program &p, const Analysis &a,
                         const std::vector<ir::Scalar> &params, std::int64_t steps) {
  model::Cost c;
  ir::Env env;
  env.params = &params;
  bool first = true;
  // Grids the step changes (written or swapped); the others are coefficients.
  std::set<int> state;
  for (const auto &r : p.run)
    if (r.kind == ir::RunStmt::Kind::Call) {
      for (int g : ir::grids_written(p.kernels[r.a].body))
        state.insert(g);
    } else if (r.kind == ir::RunStmt::Kind::Swap) {
      state.insert({r.a, r.b});
    }
  c.step_radius = 0;
  c.stages = 0;
  for (const auto &r : p.run) {
    if (r.kind != ir::RunStmt::Kind::Call)
      continue;
    const ir::Kernel &k = p.kernels[r.a];
    const KernelStats &s = a.kernels[r.a];
    ++c.stages;
    int reach = 0;
    for (int d = 1; d < k.rank; ++d)
      reach = std::max(reach, s.radius[d]);
    c.step_radius += reach;
    for (int g : ir::grids_read(k.body))
      if (!state.count(g))
        c.readonly_bytes_per_cell += p.grids[g].type == ir::Type::Double ? 8.0 : 4.0;
    c.flops_per_cell += s.flops;
    c.bytes_per_cell += s.bytes_streamed;
    c.written_bytes_per_cell += s.bytes_written;
    c.loads_per_cell += s.loads;
    c.grids = std::max(c.grids, s.grids_read);
    for (int d = 0; d < k.rank; ++d)
      c.radius = std::max(c.radius, s.radius[d]);
    const ir::Grid &g = p.grids[k.domain_grid];
    c.elem_bytes = std::max(c.elem_bytes, g.type == ir::Type::Double ? 8.0 : 4.0);
    if (first) {
      c.rank = k.rank;
      for (int d = 0; d < k.rank; ++d)
        c.extent[d] = ir::eval(*g.extents[d], env).i;
      first = false;
    }
  }
  c.steps = steps > 0 ? steps : p.steps ? ir::eval(*p.steps, env).i : ir::kDefaultSteps;
  c.step_radius = std::max(c.step_radius, 1);
  c.stages = std::max(c.stages, 1);
  return c;
}

namespace {

std::string si(double v, const char *unit) {
  static const char *const prefixes[] = {"", "k", "M", "G", "T", "P"};
  int i = 0;
  while (std::fabs(v) >= 1000 && i < 5) {
    v /= 1000;
    ++i;
  }
  return fmt::format("{:.3g} {}{}", v, prefixes[i], unit);
}

} // namespace

std::vector<model::Prediction> program_candidates(const Compiled &c, const std::string &target,
                                                  const model::Machine &m,
                                                  const std::vector<ir::Scalar> &params,
                                                  int ranks, std::int64_t steps) {
  const model::Cost cost = program_cost(c.program, c.analysis, params, steps);
  auto cands = model::candidates(cost, m, target, ranks);
  if (target == "openmp" && !temporal_unsupported(c.program).empty())
    cands.erase(std::remove_if(cands.begin(), cands.end(),
                               [](const model::Prediction &p) { return p.plan.scheme != "naive"; }),
                cands.end());
  if (cands.empty())
    throw stencilc::Error("the model found no plan that fits this machine");
  return cands;
}

model::Prediction chosen_plan(const Compiled &c, const std::string &target,
                              const std::string &machine, const stencilc::RunOptions &run) {
  std::string from;
  const model::Machine m = model::load_machine(machine, target, from);
  return program_candidates(c, target, m, param_values(c.program, run), 1, run.steps.value_or(0))
      .front();
}

std::string plan_comment(const Compiled &c, const std::string &target, const std::string &machine,
                         const std::string &plan, PlanSource source) {
  const std::string origin =
      source == PlanSource::Model   ? "Plan: the performance model's choice (stencilc explain "
                                      "shows the candidates).\n"
      : source == PlanSource::Given ? "Plan: given with --plan.\n"
                                    : "Plan: naive by default; the performance model chose none.\n";
  std::vector<ir::Scalar> params;
  try {
    params = param_values(c.program, {});
  } catch (const stencilc::Error &e) {
    return origin +
           fmt::format("No prediction: the model could not size the program:\n{}.", e.what());
  }
  try {
    std::string from;
    const model::Machine m = model::load_machine(machine, target, from);
    const model::Cost cost = program_cost(c.program, c.analysis, params);
    model::Plan base;
    base.target = target;
    base.scheme = "naive";
    const model::Prediction pred = model::predict(cost, m, model::parse_plan(plan, base));
    // The params that size the grids, at their defaults.
    std::set<int> sizes;
    for (const auto &g : c.program.grids)
      for (const auto &e : g.extents)
        ir::walk(e, [&](const ir::Expr &n) {
          if (n.op == ir::Op::Param)
            sizes.insert(n.id);
        });
    std::string defaults;
    for (int i : sizes) {
      const auto &q = c.program.params[i];
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

int explain(const Compiled &c, const ExplainOptions &opts) {
  check_target(opts.target, true);
  const auto params = param_values(c.program, opts.run);
  const std::int64_t steps = opts.run.steps.value_or(0);
  const model::Cost cost = program_cost(c.program, c.analysis, params, steps);
  std::string from;
  const model::Machine m = model::load_machine(opts.machine, opts.target, from);
  const int ranks = opts.target.rfind("mpi-", 0) == 0 ? opts.ranks : 1;
  auto cands = program_candidates(c, opts.target, m, params, ranks, steps);
  const std::string why_naive = opts.target == "openmp" ? temporal_unsupported(c.program) : "";
  model::Prediction chosen = cands.front();
  bool overridden = false;
  if (!opts.plan.empty()) {
    model::Plan p = model::parse_plan(opts.plan, chosen.plan);
    chosen = model::predict(cost, m, p);
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
    auto row = [&](const model::Prediction &p) {
      nlohmann::ordered_json r;
      r["plan"] = p.plan.key();
      r["seconds_per_step"] = p.seconds_per_step;
      r["cells_per_second"] = cells / p.seconds_per_step;
      r["bound"] = p.bound;
      r["note"] = p.note;
      return r;
    };
    j["chosen"] = row(chosen);
    if (!why_naive.empty())
      j["temporal_blocking"] = "does not apply: " + why_naive;
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
                "per thread (%s when full)\n",
                si(m.cache_bytes, "B").c_str(), si(m.flops, "flop/s").c_str(),
                si(m.shared_cache_bytes, "B").c_str(),
                si(m.shared_cache_bytes * model::kSharedCacheShare / std::max(1, m.threads), "B")
                    .c_str(),
                si(m.shared_cache_flops > 0 ? m.shared_cache_flops : m.flops, "flop/s").c_str());
  else if (m.kind == "cpu")
    std::printf("  cache: L2 %s per core\n", si(m.cache_bytes, "B").c_str());
  if (ranks > 1)
    std::printf("  %d ranks\n", ranks);
  if (!why_naive.empty())
    std::printf("  temporal blocking does not apply: %s; naive plans only\n", why_naive.c_str());
  std::printf("  candidates, fastest first (%zu in all, * = chosen%s):\n", cands.size(),
              overridden ? ", override from --plan" : "");
  std::printf("    %-48s %12s %12s %10s  %-14s %s\n", "plan", "s/step", "cells/s", "redundant",
              "bound", "note");
  auto print_row = [&](const model::Prediction &p, bool mark) {
    std::printf("  %s %-48s %12.4g %12.4g %9.1f%%  %-14s %s\n", mark ? "*" : " ",
                p.plan.key().c_str(), p.seconds_per_step, cells / p.seconds_per_step,
                (p.redundancy - 1) * 100, p.bound.c_str(), p.note.c_str());
  };
  const std::size_t shown = std::min<std::size_t>(cands.size(), 12);
  bool naive_shown = false;
  for (std::size_t i = 0; i < shown; ++i) {
    print_row(cands[i], !overridden && i == 0);
    naive_shown |= cands[i].plan.scheme == "naive" && cands[i].plan.k == 1;
  }
  if (!naive_shown)
    for (const auto &p : cands)
      if (p.plan.scheme == "naive" && p.plan.k == 1 && p.plan.procs == cands[0].plan.procs) {
        std::printf("    ...\n");
        print_row(p, false);
        break;
      }
  if (overridden) {
    std::printf("    override:\n");
    print_row(chosen, true);
  }
  std::printf("  chosen: %s, %.4g s/step predicted (%s-bound)%s\n", chosen.plan.key().c_str(),
              chosen.seconds_per_step, chosen.bound.c_str(),
              overridden ? " [--plan override]" : "");
  return 0;
}

int tune(const Compiled &c, const TuneOptions &opts) {
  check_target(opts.explain.target, false);
  const auto params = param_values(c.program, opts.explain.run);
  // The model predicts runs of the steps measured (blocks of at most k share them out).
  const model::Cost cost = program_cost(c.program, c.analysis, params, opts.steps);
  std::string from;
  const model::Machine m = model::load_machine(opts.explain.machine, opts.explain.target, from);
  const auto cands = program_candidates(c, opts.explain.target, m, params, 1, opts.steps);
  // What to measure: the model's best few, the best it predicts for every k and for every tile
  // height (so a mistake of the model in either shows), and naive.
  std::vector<model::Prediction> runnable;
  auto take = [&](const model::Prediction &p) {
    for (const auto &q : runnable)
      if (q.plan.key() == p.plan.key())
        return;
    if (implemented_plan(opts.explain.target, p.plan, c.program) &&
        static_cast<int>(runnable.size()) < opts.max_candidates)
      runnable.push_back(p);
  };
  for (std::size_t i = 0; i < cands.size() && i < 4; ++i)
    take(cands[i]);
  std::set<int> ks, rows;
  for (const auto &p : cands)
    if (ks.insert(p.plan.k).second)
      take(p);
  for (const auto &p : cands)
    if (p.plan.scheme == "temporal" && rows.insert(p.plan.rows).second)
      take(p);
  for (const auto &p : cands)
    if (p.plan.scheme == "naive")
      take(p);
  std::printf("tune %s on %s, machine %s: %zu candidate plans, measuring %zu (%d round%s)\n",
              c.program.name.c_str(), opts.explain.target.c_str(), m.name.c_str(), cands.size(),
              runnable.size(), opts.rounds, opts.rounds == 1 ? "" : "s");
  if (runnable.empty())
    throw stencilc::Error("no candidate plan is implemented for this target yet");
  std::fflush(stdout);
  // One build; the plans are chosen at run time with --plan.
  TempDir tmp;
  const std::string exe = tmp.path() + "/candidate";
  BuildOptions b = opts.build;
  b.target = opts.explain.target;
  b.emit.plan = "scheme=naive";
  build_executable(c, b, exe);
  const double cells = cost.cells();
  // Every round measures every candidate once, so a slow spell of the machine (other tenants,
  // bandwidth that drifts) hits all of them alike; a candidate's figure is its median.
  std::vector<std::vector<double>> rates(runnable.size());
  for (int round = 0; round < opts.rounds; ++round)
    for (std::size_t i = 0; i < runnable.size(); ++i) {
      std::vector<std::string> cmd = {exe, "--json", "--steps", std::to_string(opts.steps),
                                      "--init-random", "1", "--plan", runnable[i].plan.key()};
      for (const auto &[k, v] : opts.explain.run.sets) {
        cmd.push_back("--set");
        cmd.push_back(k + "=" + v);
      }
      const std::string out = tmp.path() + "/out.json";
      if (run_process(cmd, out) != 0)
        throw stencilc::Error("candidate " + runnable[i].plan.key() +
                              " failed: " + command_line(cmd));
      const std::string what = "cannot read the summary of candidate " + runnable[i].plan.key();
      auto j = read_json_line(out, what);
      if (!j.contains("cells_per_second"))
        throw stencilc::Error(what);
      rates[i].push_back(j["cells_per_second"].get<double>());
    }
  std::vector<double> measured;
  for (auto &r : rates) {
    std::sort(r.begin(), r.end());
    const std::size_t n = r.size();
    measured.push_back(n % 2 ? r[n / 2] : 0.5 * (r[n / 2 - 1] + r[n / 2]));
  }
  const double best = *std::max_element(measured.begin(), measured.end());
  std::size_t best_i = 0;
  for (std::size_t i = 0; i < measured.size(); ++i)
    if (measured[i] == best)
      best_i = i;
  std::printf("  %-46s %14s %14s  %s\n", "plan (* = the model's choice, + = fastest measured)",
              "predicted c/s", "measured c/s", opts.rounds > 1 ? "(median; min - max)" : "");
  for (std::size_t i = 0; i < runnable.size(); ++i) {
    std::printf("  %s%s %-44s %14.4g %14.4g", i == 0 ? "*" : " ", i == best_i ? "+" : " ",
                runnable[i].plan.key().c_str(), cells / runnable[i].seconds_per_step,
                measured[i]);
    if (opts.rounds > 1)
      std::printf("  %.4g - %.4g", rates[i].front(), rates[i].back());
    std::printf("\n");
  }
  std::printf("  the model's choice reaches %.1f%% of the best measured candidate (%s)\n",
              100.0 * measured[0] / best, runnable[best_i].plan.key().c_str());
  return 0;
}

int calibrate(const CalibrateOptions &opts) {
  TempDir tmp;
  const std::string src = tmp.path() + "/calibrate.cpp", exe = tmp.path() + "/calibrate";
  {
    std::ofstream out(src);
    out << template_text("calibrate/calibrate.cpp.mustache");
  }
  const char *env_cxx = std::getenv("CXX");
  std::vector<std::string> cmd = {opts.cxx.empty() ? (env_cxx && *env_cxx ? env_cxx : "c++")
                                                   : opts.cxx,
                                  "-std=c++17", "-O3", "-march=native", "-fopenmp", src, "-o",
                                  exe};
  if (opts.verbose)
    std::fprintf(stderr, "stencilc: %s\n", command_line(cmd).c_str());
  if (run_process(cmd) != 0)
    throw stencilc::Error("cannot compile the calibration program: " + command_line(cmd));
  // Caches from sysfs: a thread's rings live in its private L2 or its share of the L3.
  double l2 = 0, l3 = 0;
  for (int i = 0; i < 8; ++i) {
    const std::string dir = fmt::format("/sys/devices/system/cpu/cpu0/cache/index{}/", i);
    std::ifstream lv(dir + "level"), sz(dir + "size"), ty(dir + "type");
    int level = 0;
    std::string size, type;
    if (!(lv >> level) || !(sz >> size) || !(ty >> type) || type == "Instruction")
      continue;
    double bytes = std::atof(size.c_str());
    if (size.back() == 'K')
      bytes *= 1024;
    else if (size.back() == 'M')
      bytes *= 1024 * 1024;
    (level == 2 ? l2 : level == 3 ? l3 : bytes) = bytes;
  }
  const double cache = l2 > 0 ? l2 : 1 << 20;
  std::printf("measuring streaming bandwidth, the in-cache stencil rates and barriers...\n");
  std::fflush(stdout);
  if (run_process({exe, fmt::format("{:.0f}", cache), fmt::format("{:.0f}", l3),
                   fmt::format("{}", model::kSharedCacheShare)},
                  tmp.path() + "/out.json") != 0)
    throw stencilc::Error("the calibration program failed");
  auto j = read_json_line(tmp.path() + "/out.json", "cannot read the calibration output");

  model::Machine m;
  m.name = "calibrated";
  m.kind = "cpu";
  m.threads = j["threads"].get<int>();
  const auto stream = j["stream"].get<std::vector<double>>();
  m.bandwidth = *std::max_element(stream.begin(), stream.end());
  m.flops = j["stencil_flops"].get<double>();
  m.barrier_seconds = j["barrier_seconds"].get<double>();
  m.cache_bytes = cache;
  m.shared_cache_bytes = l3;
  // Data in the L3 is not faster than in the L2; a measurement that says so caught the L2 run
  // in a slow spell.
  m.shared_cache_flops = l3 > 0 ? std::min(m.flops, j["shared_cache_stencil_flops"].get<double>())
                                : 0.0;
  m.net_latency = 1e-6;
  m.net_bandwidth = 1e10;
  std::string stream_list;
  for (std::size_t t = 0; t < stream.size(); ++t)
    stream_list += fmt::format("{}{} thread{}: {}", t ? ", " : "", t + 1, t ? "s" : "",
                               si(stream[t], "B/s"));
  std::printf("  streaming bandwidth: %s\n", stream_list.c_str());
  std::printf("  caches: L2 %s per core, L3 %s\n", si(l2, "B").c_str(), si(l3, "B").c_str());
  std::printf("  7-point stencil, 512-cell rows, data in L2: %s (%s cells/s)\n",
              si(m.flops, "flop/s").c_str(), si(m.flops / 8, "").c_str());
  if (l3 > 0)
    std::printf("  7-point stencil, 512-cell rows, a thread's share of L3 full: %s (%s cells/s)\n",
                si(m.shared_cache_flops, "flop/s").c_str(), si(m.shared_cache_flops / 8, "").c_str());
  std::printf("  OpenMP barrier: %.3g us\n", m.barrier_seconds * 1e6);
  std::printf("  MPI: not measured (no mpirun on this machine); network figures are defaults\n");
  const std::string path = opts.output.empty() ? model::calibrated_machine_path() : opts.output;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::ofstream out(path);
  out << model::machine_to_json(
      m, "this machine, measured by stencilc calibrate",
      "bandwidth: best scale-kernel pass of a second's over 128 MiB arrays; flops: 7-point stencil on 512-cell "
      "rows, per thread two grids in half its L2; shared_cache_flops: the same filling a thread's "
      "share of the L3 (half of it / threads); caches: sysfs (cpu0); barrier: averaged over 20000");
  if (!out.good())
    throw stencilc::Error("cannot write '" + path + "'");
  std::printf("wrote %s\n", path.c_str());
  return 0;
}

} // namespace stc
