#include "driver/tune.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "codegen/codegen.h"
#include "driver/process.h"
#include "driver/share_curves.h"
#include "model/machine.h"
#include "optimizer/planner.h"
#include "stencilc/error.h"
#include "support/stats.h"
#include "support/units.h"
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

std::vector<model::Prediction> tune_plans(const std::vector<model::Prediction> &cands,
                                          const std::vector<stencilc::Plan> &plans,
                                          const model::Cost &cost, const model::Machine &m,
                                          int max) {
  if (plans.empty())
    return tune_selection(cands, max);
  std::vector<model::Prediction> out;
  if (!cands.empty())
    out.push_back(cands.front());
  for (const auto &p : plans)
    if (std::none_of(out.begin(), out.end(), [&](const auto &q) { return q.plan == p; }))
      out.push_back(model::predict(cost, m, p));
  return out;
}

namespace {

// Runs shorter than this are mostly their start (tune's note).
constexpr double kShortRunSeconds = 0.05;

// calibrate's probes (templates/calibrate/calibrate.cpp.mustache, `probe L2`), built by the
// openmp target's compiler: the machine's memory and in-cache rates now, beside the candidates.
class Probe {
public:
  // nullopt (and says why) where it cannot be built.
  static std::optional<Probe> build(const TempDir &tmp, const TuneOptions &opts, double l2,
                                    double l3_share) {
    Probe p;
    p.l3_share_ = l3_share;
    const std::string src = tmp.path() + "/probe.cpp";
    p.exe_ = tmp.path() + "/probe";
    p.out_ = tmp.path() + "/probe.json";
    p.l2_ = l2;
    std::ofstream(src) << template_text("calibrate/calibrate.cpp.mustache");
    CompileRequest req;
    req.sources = {src};
    req.exe = p.exe_;
    req.cxx = opts.build.cxx;
    req.link_runtime = false;
    const std::vector<std::string> cmd = code_target("openmp").compile_command(req);
    if (run_process(cmd) != 0) {
      std::printf("  the machine now: not probed (the probe did not compile: %s)\n",
                  command_line(cmd).c_str());
      return std::nullopt;
    }
    return p;
  }
  // One run: false where it failed or its output is not the summary (tune goes on unprobed).
  bool run() {
    if (run_process({exe_, "probe", fmt::format("{:.0f}", l2_), fmt::format("{:.0f}", l3_share_)},
                    out_) != 0)
      return false;
    nlohmann::json j;
    try {
      j = read_json_line(out_, "cannot read the probe's output");
    } catch (const stencilc::Error &) {
      return false;
    }
    if (!j.is_object())
      return false;
    const double sweep = j.value("sweep_bandwidth", 0.0),
                 rate = j.value("stencil_cells_per_second", 0.0);
    if (!(sweep > 0) || !(rate > 0))
      return false;
    sweeps.push_back(sweep);
    rates.push_back(rate);
    handoffs.push_back(j.value("handoff_seconds", 0.0));
    reuse.add(j, "l3_reuse");
    ring.add(j, "l3_ring");
    round_reuse.emplace_back().add(j, "l3_reuse");
    round_ring.emplace_back().add(j, "l3_ring");
    return true;
  }
  // The re-read probe's medians over the rounds as the model's l3_reuse_curve, the ring probe's
  // as its l3_ring_curve (empty: none).
  std::vector<std::array<double, 2>> reuse_curve() const {
    return model::reuse_shares(reuse.medians());
  }
  std::vector<std::array<double, 2>> ring_curve() const {
    return model::relative_rates(ring.medians());
  }
  // The machine during round r alone: the profile scaled by that round's probe, with its curves.
  model::Machine round_machine(const model::Machine &m, std::size_t r) const {
    return probed_machine(m, sweeps[r], rates[r], model::reuse_shares(round_reuse[r].medians()),
                          model::relative_rates(round_ring[r].medians()));
  }
  std::vector<double> sweeps, rates, handoffs;
  ShareCurve reuse, ring;                          // over the rounds
  std::vector<ShareCurve> round_reuse, round_ring; // each round's own

private:
  std::string exe_, out_;
  double l2_ = 0, l3_share_ = 0;
};

} // namespace

model::Machine probed_machine(const model::Machine &m, double sweep, double rate,
                              std::vector<std::array<double, 2>> reuse,
                              std::vector<std::array<double, 2>> ring) {
  model::Machine p =
      model::scaled_machine(m, sweep / m.probe_sweep_bandwidth, rate / m.probe_stencil_rate);
  if (!reuse.empty())
    p.l3_reuse_curve = std::move(reuse);
  if (ring.size() > 8)
    p.l3_ring_curve = std::move(ring);
  return p;
}

std::string placement_note(const std::vector<double> &handoffs, double profile_handoff) {
  std::vector<double> seen;
  for (double h : handoffs)
    if (h > 0)
      seen.push_back(h);
  if (seen.empty())
    return "";
  if (profile_handoff > 0)
    seen.push_back(profile_handoff);
  if (!spread_beyond(seen, 2)) // one place (calibrate's rule too)
    return "";
  const auto [lo, hi] = std::minmax_element(seen.begin(), seen.end());
  const double mid = std::sqrt(*lo * *hi); // between the two ends, on a log scale
  int far = 0, rounds = 0;
  for (double h : handoffs)
    if (h > 0) {
      ++rounds;
      far += h > mid;
    }
  const std::string calibration =
      profile_handoff > 0 ? fmt::format("; calibrate's streams {:.2f} us", profile_handoff * 1e6)
                          : "";
  return fmt::format("note: the host moved the threads between cores: a cache line's round trip "
                     "between two of them went from {:.2f} to {:.2f} us ({} of {} rounds above "
                     "{:.2f} us{}); where they sit changes the memory rate and how much of the "
                     "L3 each has (docs/MODEL.md), and the medians mix the places",
                     *lo * 1e6, *hi * 1e6, far, rounds, mid * 1e6, calibration);
}

std::string spread_note(const std::vector<std::vector<double>> &rates) {
  std::size_t wide = 0;
  for (const auto &r : rates)
    if (r.size() > 1) {
      const auto [lo, hi] = std::minmax_element(r.begin(), r.end());
      wide += *hi > 1.15 * *lo;
    }
  if (wide == 0)
    return "";
  return fmt::format("note: the rounds of {} of {} candidates are more than 15% apart (min to "
                     "max): a median can then be that far from its price without a wrong term "
                     "(the machine's spells, or runs too short); more --rounds or --steps, or "
                     "tune again",
                     wide, rates.size());
}

double paired_ratio(const std::vector<double> &choice, const std::vector<double> &other) {
  if (choice.empty() || choice.size() != other.size())
    return 0;
  std::vector<double> r;
  for (std::size_t i = 0; i < choice.size(); ++i)
    r.push_back(other[i] > 0 ? choice[i] / other[i] : 0);
  return median(r);
}

std::int64_t tune_steps(double fastest_seconds_per_step, bool cpu) {
  if (!cpu || !(fastest_seconds_per_step > 0))
    return kTuneMinSteps;
  const double steps = std::ceil(kTuneRunSeconds / fastest_seconds_per_step);
  return std::clamp(static_cast<std::int64_t>(std::min(steps, 1e12)), kTuneMinSteps, kTuneMaxSteps);
}

int tune(const Compiled &c, const TuneOptions &opts) {
  const Target &target = code_target(opts.explain.target);
  const auto params = param_values(c.program, opts.explain.run);
  std::string from;
  const model::Machine m =
      model::load_machine(opts.explain.machine, target.plan_rules().platform, from);
  std::int64_t steps = opts.steps;
  if (steps <= 0) {
    const auto first = plan_candidates(c.program, c.analysis, target, m, params, 1, kTuneMinSteps);
    steps = tune_steps(first.empty() ? 0 : first.front().seconds_per_step,
                       target.plan_rules().platform == stencilc::Platform::Cpu);
  }
  // The model predicts runs of the steps measured (blocks of at most k share them out).
  const model::Cost cost = program_cost(c.program, c.analysis, params, steps);
  const auto cands = plan_candidates(c.program, c.analysis, target, m, params, 1, steps);
  // Plans the user names are checked like build's --plan before anything is built.
  std::vector<stencilc::Plan> given;
  for (const auto &text : opts.plans) {
    const stencilc::Plan p = stencilc::parse_plan(text, target.plan_rules());
    if (const std::string why = target.why_not(p, c.program); !why.empty())
      throw stencilc::Error(fmt::format("--plan {}: {}", text, why));
    given.push_back(p);
  }
  const auto runnable = tune_plans(cands, given, cost, m, opts.max_candidates);
  std::printf("tune %s on %s, machine %s: %zu candidate plans, measuring %zu (%d round%s)\n",
              c.program.name.c_str(), opts.explain.target.c_str(), m.name.c_str(), cands.size(),
              runnable.size(), opts.rounds, opts.rounds == 1 ? "" : "s");
  if (opts.steps <= 0)
    std::printf("  steps per run: %lld (%s; --steps sets them)\n", static_cast<long long>(steps),
                target.plan_rules().platform == stencilc::Platform::Cpu
                    ? fmt::format("about {:g} s of the model's fastest candidate, at least {}",
                                  kTuneRunSeconds, kTuneMinSteps)
                          .c_str()
                    : fmt::format("{} on a GPU target", kTuneMinSteps).c_str());
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
  // The machine as it is during the rounds: calibrate's probes before each one, where the
  // profile has the calibration's (a CPU target), so that a spell of the machine (memory that
  // runs at half speed for minutes on a shared host) is told apart from a wrong formula.
  std::optional<Probe> probe;
  const bool probes = opts.probe && target.plan_rules().platform == stencilc::Platform::Cpu &&
                      m.probe_sweep_bandwidth > 0 && m.probe_stencil_rate > 0;
  if (probes)
    probe = Probe::build(tmp, opts, m.cache_bytes, m.shared_cache_bytes / std::max(1, m.threads));
  // Every round measures every candidate once, so a slow spell of the machine (other tenants,
  // bandwidth that drifts) hits all of them alike; a candidate's figure is its median.
  std::vector<std::vector<double>> rates(runnable.size());
  double shortest = INFINITY; // the shortest run's seconds
  // Each round starts one candidate later (round r runs candidate r first), so no candidate
  // always runs first, right after the probes. The place was suspected on the AMD EPYC VM (the
  // first candidate 10-14% behind its twin with probes, 1% without); with the rotation the twin
  // still led by 6%, so its own lead, not the place, was most of it (PERFORMANCE.md 2026-12-06).
  for (int round = 0; round < opts.rounds; ++round)
    for (std::size_t turn = 0; turn < runnable.size(); ++turn) {
      const std::size_t i = (turn + static_cast<std::size_t>(round)) % runnable.size();
      if (turn == 0 && probe && !probe->run()) {
        std::printf("  the machine now: not probed (the probe failed)\n");
        probe.reset();
      }
      std::vector<std::string> cmd = target.launch(exe, 1);
      cmd.insert(cmd.end(), {"--json", "--steps", std::to_string(steps), "--init-random", "1",
                             "--plan", stencilc::to_string(runnable[i].plan)});
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
      shortest = std::min(shortest, j["seconds"].get<double>());
    }
  const std::vector<std::vector<double>> by_round = rates; // in the rounds' order
  std::vector<double> measured;
  for (auto &r : rates) {
    std::sort(r.begin(), r.end()); // min and max are printed from the ends
    measured.push_back(median(r));
  }
  // The predictions for the machine now: the profile's memory rates and its cores' rates scaled
  // by the probes' medians over the calibration's.
  // And round by round: each candidate's rate in a round over its price for that round's probe
  // (the host moves the threads within seconds, a median probe mixes the places: MODEL.md §6).
  std::vector<double> now, own;
  if (probe) {
    const double mem = median(probe->sweeps) / m.probe_sweep_bandwidth,
                 cpu = median(probe->rates) / m.probe_stencil_rate;
    auto reuse_curve = probe->reuse_curve();
    auto ring_curve = probe->ring_curve();
    std::string reuse;
    if (reuse_curve.size() > 6) {
      // At the half and the whole of a thread's share of the L3 (the probe's third and seventh
      // sizes).
      reuse = fmt::format(", data read again from memory {:.0f}% after {} and {:.0f}% after "
                          "{} a thread",
                          100 * reuse_curve[2][1], si(reuse_curve[2][0], "B"),
                          100 * reuse_curve[6][1], si(reuse_curve[6][0], "B"));
    } else if (reuse_curve.empty() && !probe->reuse.empty()) {
      reuse = ", data read again: no drop to memory's rate seen (the profile's curve kept)";
    }
    if (ring_curve.size() > 8) {
      // At the whole of a thread's share of the L3 and past it (the seventh and ninth sizes).
      reuse += fmt::format(", rings at {:.2f} of their rate at {} and {:.2f} at {} a thread",
                           ring_curve[6][1], si(ring_curve[6][0], "B"), ring_curve[8][1],
                           si(ring_curve[8][0], "B"));
    }
    const model::Machine m_now = probed_machine(m, median(probe->sweeps), median(probe->rates),
                                                std::move(reuse_curve), std::move(ring_curve));
    std::vector<model::Machine> rounds_m;
    for (std::size_t r = 0; r < probe->sweeps.size(); ++r)
      rounds_m.push_back(probe->round_machine(m, r));
    for (std::size_t i = 0; i < runnable.size(); ++i) {
      now.push_back(cells / model::predict(cost, m_now, runnable[i].plan).seconds_per_step);
      std::vector<double> prices;
      for (const auto &mr : rounds_m)
        prices.push_back(cells / model::predict(cost, mr, runnable[i].plan).seconds_per_step);
      own.push_back(paired_ratio(by_round[i], prices));
    }
    std::printf("  the machine now (probes before each round, medians): naive sweep %s (%.2f of "
                "the profile's), stencil in L2 %s cells/s (%.2f)%s\n",
                si(median(probe->sweeps), "B/s").c_str(), mem, si(median(probe->rates), "").c_str(),
                cpu, reuse.c_str());
    // Round by round: the memory rate beside where the host had the threads.
    std::string rounds;
    for (std::size_t r = 0; r < probe->sweeps.size(); ++r)
      rounds += fmt::format(
          "{}{}, {}", r ? "; " : "", si(probe->sweeps[r], "B/s"),
          probe->handoffs[r] > 0 ? fmt::format("{:.2f} us", probe->handoffs[r] * 1e6) : "-");
    std::printf("  the rounds' probes (naive sweep, a cache line's round trip between two "
                "threads): %s\n",
                rounds.c_str());
  }
  const double best = *std::max_element(measured.begin(), measured.end());
  std::size_t best_i = 0;
  for (std::size_t i = 0; i < measured.size(); ++i)
    if (measured[i] == best)
      best_i = i;
  std::printf("  cells/s: the domain's %.4g cells times the steps per second\n", cells);
  // The plan column as wide as the longest plan (at least the header's).
  int width = 44;
  for (const auto &r : runnable)
    width = std::max(width, static_cast<int>(stencilc::to_string(r.plan).size()));
  std::string tail = opts.rounds > 1 ? "(median; min - max)" : "";
  if (!own.empty())
    tail += (tail.empty() ? "" : "; ") + std::string("measured/predicted round by round");
  std::printf("  %-*s %14s%s %14s  %s\n", width + 2,
              "plan (* = the model's choice, + = fastest measured)", "predicted c/s",
              now.empty() ? "" : fmt::format(" {:>14}", "for now c/s").c_str(), "measured c/s",
              tail.c_str());
  // Within +-15% of a prediction (the yardstick for the model): measured/predicted in
  // [0.85, 1.15].
  auto within = [](double measured, double predicted) {
    return std::fabs(measured / predicted - 1) <= 0.15;
  };
  int close = 0, close_now = 0, close_own = 0;
  for (std::size_t i = 0; i < runnable.size(); ++i) {
    const double predicted = cells / runnable[i].seconds_per_step;
    std::printf("  %s%s %-*s %14.4g", i == 0 ? "*" : " ", i == best_i ? "+" : " ", width,
                stencilc::to_string(runnable[i].plan).c_str(), predicted);
    if (!now.empty())
      std::printf(" %14.4g", now[i]);
    std::printf(" %14.4g", measured[i]);
    if (opts.rounds > 1)
      std::printf("  %.4g - %.4g", rates[i].front(), rates[i].back());
    if (!own.empty())
      std::printf("%s%.2f", opts.rounds > 1 ? "; " : "  ", own[i]);
    std::printf("\n");
    close += within(measured[i], predicted);
    close_now += !now.empty() && within(measured[i], now[i]);
    close_own += !own.empty() && std::fabs(own[i] - 1) <= 0.15;
  }
  std::printf("  within 15%% of the prediction: %d of %zu%s%s\n", close, runnable.size(),
              now.empty() ? ""
                          : fmt::format("; of the prediction for the machine now: {} of {}",
                                        close_now, runnable.size())
                                .c_str(),
              own.empty() ? ""
                          : fmt::format("; of each round's own (the median of the rounds' "
                                        "measured/predicted): {} of {}",
                                        close_own, runnable.size())
                                .c_str());
  // A run's first block faults in the pages of its rings and result grids, and its threads
  // start: costs the model's steady steps leave out, which a short run does not hide (heat3d
  // 510 x 60 x 60, 4 steps: temporal plans at a quarter of their price).
  if (shortest < kShortRunSeconds)
    std::printf("  note: the shortest run took %.3g ms; a run's start (its first block's pages, "
                "its threads) is in it and not in the model's steady steps: more --steps "
                "measure what the model prices\n",
                shortest * 1e3);
  // Rounds that disagree by more than the yardstick: the machine's spells, not the model.
  if (const std::string note = spread_note(rates); !note.empty())
    std::printf("  %s\n", note.c_str());
  // Where the host had the threads, if it moved them: the spells' cause on the AMD EPYC VM.
  if (probe)
    if (const std::string note = placement_note(probe->handoffs, m.handoff_seconds); !note.empty())
      std::printf("  %s\n", note.c_str());
  std::printf("  the model's choice reaches %.1f%% of the best measured candidate (%s)\n",
              100.0 * measured[0] / best, stencilc::to_string(runnable[best_i].plan).c_str());
  // Near ties are decided by the machine's spells as much as by the plans: the same two
  // candidates paired within each round say how far apart they are without the spells.
  if (best_i != 0 && opts.rounds > 1)
    std::printf("  round by round, the choice ran at %.1f%% of that candidate's rate (the median "
                "of the %d rounds' ratios)\n",
                100.0 * paired_ratio(by_round[0], by_round[best_i]), opts.rounds);
  return 0;
}

} // namespace stc
