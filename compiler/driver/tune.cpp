#include "driver/tune.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include <nlohmann/json.hpp>

#include "driver/process.h"
#include "model/machine.h"
#include "optimizer/planner.h"
#include "stencilc/error.h"
#include "target/target.h"

namespace stc {

// What to measure: the model's best few, the best it predicts for every k and for every tile
// height (so a mistake of the model in any of them shows), and naive; at most `max`, in that
// order (the model's choice first).
std::vector<model::Prediction> tune_selection(const std::vector<model::Prediction> &cands,
                                              int max) {
  std::vector<model::Prediction> out;
  auto take = [&](const model::Prediction &p) {
    for (const auto &q : out)
      if (q.plan == p.plan)
        return;
    if (static_cast<int>(out.size()) < max)
      out.push_back(p);
  };
  for (std::size_t i = 0; i < cands.size() && i < 4; ++i)
    take(cands[i]);
  std::set<int> ks, rows;
  for (const auto &p : cands)
    if (ks.insert(p.plan.k()).second)
      take(p);
  for (const auto &p : cands)
    if (const auto *t = p.plan.get<stencilc::scheme::CpuTemporal>())
      if (rows.insert(t->rows).second)
        take(p);
  for (const auto &p : cands)
    if (p.plan.naive())
      take(p);
  return out;
}

int tune(const Compiled &c, const TuneOptions &opts) {
  const Target &target = code_target(opts.explain.target);
  const auto params = param_values(c.program, opts.explain.run);
  // The model predicts runs of the steps measured (blocks of at most k share them out).
  const model::Cost cost = program_cost(c.program, c.analysis, params, opts.steps);
  std::string from;
  const model::Machine m =
      model::load_machine(opts.explain.machine, target.plan_rules().platform, from);
  const auto cands = plan_candidates(c.program, c.analysis, target, m, params, 1, opts.steps);
  const auto runnable = tune_selection(cands, opts.max_candidates);
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
      std::vector<std::string> cmd = target.launch(exe, 1);
      cmd.insert(cmd.end(), {"--json", "--steps", std::to_string(opts.steps),
                                      "--init-random", "1", "--plan", stencilc::to_string(runnable[i].plan)});
      for (const auto &[k, v] : opts.explain.run.sets) {
        cmd.push_back("--set");
        cmd.push_back(k + "=" + v);
      }
      const std::string out = tmp.path() + "/out.json";
      if (run_process(cmd, out) != 0)
        throw stencilc::Error("candidate " + stencilc::to_string(runnable[i].plan) +
                              " failed: " + command_line(cmd));
      const std::string what =
          "cannot read the summary of candidate " + stencilc::to_string(runnable[i].plan);
      auto j = read_json_line(out, what);
      if (!j.contains("steps") || !j.contains("seconds") || j["seconds"].get<double>() <= 0)
        throw stencilc::Error(what);
      // In the model's cells (the domain's, per step): a program whose step updates cells
      // more than once (red/black after a residual) counts its updates otherwise.
      rates[i].push_back(cells * j["steps"].get<double>() / j["seconds"].get<double>());
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
  std::printf("  cells/s: the domain's %.4g cells times the steps per second\n", cells);
  std::printf("  %-46s %14s %14s  %s\n", "plan (* = the model's choice, + = fastest measured)",
              "predicted c/s", "measured c/s", opts.rounds > 1 ? "(median; min - max)" : "");
  for (std::size_t i = 0; i < runnable.size(); ++i) {
    std::printf("  %s%s %-44s %14.4g %14.4g", i == 0 ? "*" : " ", i == best_i ? "+" : " ",
                stencilc::to_string(runnable[i].plan).c_str(), cells / runnable[i].seconds_per_step,
                measured[i]);
    if (opts.rounds > 1)
      std::printf("  %.4g - %.4g", rates[i].front(), rates[i].back());
    std::printf("\n");
  }
  std::printf("  the model's choice reaches %.1f%% of the best measured candidate (%s)\n",
              100.0 * measured[0] / best, stencilc::to_string(runnable[best_i].plan).c_str());
  return 0;
}

} // namespace stc
