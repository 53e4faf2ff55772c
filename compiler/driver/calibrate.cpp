#include "driver/calibrate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>

#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "codegen/codegen.h"
#include "driver/build.h"
#include "driver/pipeline.h"
#include "driver/process.h"
#include "driver/share_curves.h"
#include "model/machine.h"
#include "optimizer/planner.h"
#include "sema/params.h"
#include "stencilc/error.h"
#include "support/stats.h"
#include "support/units.h"
#include "target/target.h"

namespace stc {

namespace {

// Latency and bandwidth of a halo message between two ranks, measured by a small MPI program
// built with the mpi-openmp target's flags and started by its launch step (mpirun). Returns
// false (and says why) when it cannot run here: the CPU figures are still worth writing.
bool measure_mpi(const CalibrateOptions &opts, const TempDir &tmp, model::Machine &m) {
  const std::string src = tmp.path() + "/mpi.cpp", exe = tmp.path() + "/mpi";
  {
    std::ofstream out(src);
    out << template_text("calibrate/mpi.cpp.mustache");
  }
  const Target &t = code_target("mpi-openmp");
  CompileRequest req;
  req.sources = {src};
  req.exe = exe;
  req.cxx = opts.cxx;
  req.link_runtime = false;
  const std::vector<std::string> cmd = t.compile_command(req);
  if (opts.verbose)
    std::fprintf(stderr, "stencilc: %s\n", command_line(cmd).c_str());
  if (run_process(cmd) != 0) {
    std::printf("  MPI: not measured (the measuring program did not compile: %s)\n",
                command_line(cmd).c_str());
    return false;
  }
  const std::vector<std::string> run = t.launch(exe, 2);
  if (opts.verbose)
    std::fprintf(stderr, "stencilc: %s\n", command_line(run).c_str());
  if (run_process(run, tmp.path() + "/mpi.json") != 0) {
    std::printf("  MPI: not measured (%s failed)\n", command_line(run).c_str());
    return false;
  }
  const auto j = read_json_line(tmp.path() + "/mpi.json", "cannot read the MPI calibration output");
  const double latency = j["net_latency"].get<double>(), bandwidth = j["net_bandwidth"].get<double>();
  if (!(latency > 0) || !(bandwidth > 0)) {
    std::printf("  MPI: not measured (the measurement gave latency %g s, bandwidth %g B/s)\n",
                latency, bandwidth);
    return false;
  }
  m.net_latency = latency;
  m.net_bandwidth = bandwidth;
  std::printf("  MPI, 2 ranks under %s: %.3g us per message, %s\n", run.front().c_str(),
              latency * 1e6, si(bandwidth, "B/s").c_str());
  return true;
}

// Medians of a program's plans run alternately through the openmp target, so a slow spell of
// the machine's memory hits all: the model chooses between plans by their ratios.
using Sets = std::vector<std::pair<std::string, std::string>>;
struct EngineRuns {
  std::optional<Compiled> c;
  std::vector<model::Cost> costs;          // per plan (its sets)
  std::vector<double> seconds;             // per step, one per plan: the median
  std::vector<std::vector<double>> rounds; // per step, per plan, in the order run
  // The cores' speed before, between and after the rounds (one more than the rounds): the
  // in-L2 stencil probe over its rate before the engine's first round, 0 where not measured. The
  // fits price each round on the machine scaled by the mean of the two either side of it
  // (plain_in_round), as tune prices its rounds by its probes, and leave out the rounds whose two
  // differ (the speed changed during the round) while three or more are left. On the AMD EPYC VM
  // the host put both vCPUs on one core for minutes at a time (a cache line's round trip 0.07 us
  // against 0.45): fp64's and himeno's plans ran at half speed in three rounds of five, and their
  // etas' medians came out 0.78 and 0.77 against 1.44-1.67 and 1.69-2.08 (2026-12-07 17:14).
  std::vector<double> probes;
  std::vector<double> speeds; // per round: the geometric mean of its two probes, 0 if unknown
  std::vector<bool> used;     // per round: whether the fits take it
};

// The cores' speed now against the calibration's (the in-L2 stencil probe), 0 where unknown.
using SpeedProbe = std::function<double()>;
// A round whose two probes differ by more than this changed speed while it ran.
constexpr double kSpeedSpread = 1.15;
// The fits leave such rounds out only while at least this many are left.
constexpr std::size_t kSteadyRounds = 3;

// EngineRuns::speeds and used from its probes; says what the probes saw.
void round_speeds(EngineRuns &r, const std::string &name, std::size_t rounds) {
  r.speeds.assign(rounds, 0.0);
  // A round without both probes is taken at the calibration's speed, as if steady.
  std::vector<bool> steady(rounds, true);
  for (std::size_t i = 0; i < rounds && i + 1 < r.probes.size(); ++i) {
    const double a = r.probes[i], b = r.probes[i + 1];
    if (a > 0 && b > 0) {
      r.speeds[i] = std::sqrt(a * b);
      steady[i] = !spread_beyond({a, b}, kSpeedSpread);
    }
  }
  const auto n_steady = static_cast<std::size_t>(std::count(steady.begin(), steady.end(), true));
  const bool drop = n_steady >= kSteadyRounds && n_steady < rounds;
  r.used.assign(rounds, true);
  std::string left_out;
  const std::size_t n_out = drop ? rounds - n_steady : 0;
  for (std::size_t i = 0; i < rounds; ++i)
    if (drop && !steady[i]) {
      r.used[i] = false;
      left_out += fmt::format("{}{}", left_out.empty() ? "" : ", ", i + 1);
    }
  if (std::none_of(r.probes.begin(), r.probes.end(), [](double v) { return v > 0; }))
    return;
  std::string list;
  for (double v : r.probes)
    list += fmt::format("{}{:.2f}", list.empty() ? "" : ", ", v);
  std::string what = "each round priced at the cores' speed either side of it";
  if (drop)
    what += fmt::format("; round{} {} left out of the fits: the speed changed while {} ran",
                        n_out > 1 ? "s" : "", left_out, n_out > 1 ? "they" : "it");
  else if (n_steady < rounds && n_steady < kSteadyRounds)
    what += fmt::format("; the speed changed during {} of the {} rounds, too many to leave out: "
                        "this workload's figures are less sure than usual",
                        rounds - n_steady, rounds);
  std::printf("  CPU engine, %s: the cores at %s of their speed at the engine's start, before, "
              "between and after its rounds (the in-L2 stencil); %s\n",
              name.c_str(), list.c_str(), what.c_str());
}

// How many of the alternated rounds plan `a` ran faster than plan `b` (the same round: the same
// spell of the machine).
int rounds_won(const EngineRuns &r, std::size_t a, std::size_t b) {
  int won = 0;
  for (std::size_t i = 0; i < r.rounds[a].size() && i < r.rounds[b].size(); ++i)
    won += r.rounds[a][i] < r.rounds[b][i];
  return won;
}

// Builds templates/calibrate/<name>.stn.mustache and runs each plan 5 times, alternately, with
// `sets` (plan i with sets_of[i] where given); nullopt (and says why) where it cannot.
std::optional<EngineRuns> run_engine(const CalibrateOptions &opts, const TempDir &tmp,
                                     const SpeedProbe &speed, const std::string &name,
                                     const Sets &sets, const std::vector<std::string> &plans,
                                     const std::vector<Sets> &sets_of = {}) {
  const std::string src = tmp.path() + "/" + name + ".stn", exe = tmp.path() + "/" + name;
  {
    std::ofstream out(src);
    out << template_text("calibrate/" + name + ".stn.mustache");
  }
  EngineRuns r;
  r.c = compile(src, PipelineOptions{});
  if (!r.c) {
    std::printf("  CPU engine: not measured (its program %s did not compile)\n", name.c_str());
    return std::nullopt;
  }
  BuildOptions b;
  b.target = "openmp";
  b.cxx = opts.cxx;
  b.verbose = opts.verbose;
  b.emit.plan = "scheme=naive";
  try {
    build_executable(*r.c, b, exe);
  } catch (const stencilc::Error &e) {
    std::printf("  CPU engine: not measured (%s)\n", e.what());
    return std::nullopt;
  }
#if STENCILC_SANITIZER_BUILD
  // Instrumented -O0 programs (target/registry.cpp) measure nothing worth writing: a sanitizer
  // build runs the same paths over fewer steps (the test suite's sanitized pass, ~4x faster).
  const std::int64_t steps = 8;
#else
  const std::int64_t steps = 64;
#endif
  auto sets_for = [&](std::size_t i) { return i < sets_of.size() ? sets_of[i] : sets; };
  auto command = [&](std::size_t i) {
    std::vector<std::string> cmd = {
        exe, "--json", "--steps", std::to_string(steps), "--init-random", "1", "--plan", plans[i]};
    for (const auto &[k, v] : sets_for(i))
      cmd.insert(cmd.end(), {"--set", k + "=" + v});
    return cmd;
  };
  std::vector<std::vector<double>> seconds(plans.size());
  for (int round = 0; round < 5; ++round) {
    r.probes.push_back(speed ? speed() : 0.0);
    for (std::size_t i = 0; i < plans.size(); ++i) {
      const std::vector<std::string> cmd = command(i);
      const std::string out = tmp.path() + "/engine.json";
      if (run_process(cmd, out) != 0) {
        std::printf("  CPU engine: not measured (%s failed)\n", command_line(cmd).c_str());
        return std::nullopt;
      }
      const auto j = read_json_line(out, "cannot read the engine measurement's summary");
      seconds[i].push_back(j.value("seconds", 0.0) / steps);
    }
  }
  r.probes.push_back(speed ? speed() : 0.0);
  r.rounds = seconds;
  round_speeds(r, name, seconds.empty() ? 0 : seconds[0].size());
  for (const auto &v : seconds)
    r.seconds.push_back(median(v));
  for (std::size_t i = 0; i < plans.size(); ++i) {
    stencilc::RunOptions run;
    run.sets = sets_for(i);
    r.costs.push_back(
        program_cost(r.c->program, r.c->analysis, param_values(r.c->program, run), steps));
  }
  return r;
}

// `m` without the engine's efficiencies: its stages at the row benchmark's rates.
model::Machine without_etas(const model::Machine &m) {
  model::Machine plain = m;
  plain.engine_efficiency = plain.wide_engine_efficiency = plain.engine_efficiency_2d = 0;
  plain.engine_efficiency_f64 = plain.engine_efficiency_coef = 0;
  plain.xreg_engine_efficiency = plain.xreg_engine_efficiency_2d = 0;
  plain.wide_xreg_engine_efficiency = 0;
  return plain;
}

// B_s of a naive sweep that took `seconds` per step: its grids do not stay in cache. A sweep of
// many grids at once ran slower by the model's streams_factor (himeno's 17 streams: its B_s
// without it 0.8 of heat3d's, and the fit of its stages' eta on that B_s came out 2.57-2.62;
// with it 2.42, PERFORMANCE.md 2026-12-06 12:21).
double sweep_bandwidth_of(const model::Cost &cost, double seconds, const model::Machine &m) {
  if (!(seconds > m.barrier_seconds))
    return 0.0;
  const double bytes =
      model::cpu_sweep_bytes(cost) + cost.fill_bytes_per_cell + cost.reduce_bytes_per_cell;
  return cost.cells() * bytes * model::streams_factor(cost, m) / (seconds - m.barrier_seconds);
}

// The cores' speed in round `round` of `r` (1 where not probed): the factor its fitted times
// (seconds per row, per call) are multiplied by to be the profile's.
double round_speed(const EngineRuns &r, std::size_t round) {
  return round < r.speeds.size() && r.speeds[round] > 0 ? r.speeds[round] : 1.0;
}

// Whether the fits take round `round` of `r` (EngineRuns::used).
bool round_used(const EngineRuns &r, std::size_t round) {
  return round >= r.used.size() || r.used[round];
}

// `m` without the engine's efficiencies, its cores at round `round`'s speed (round_speed), and
// with B_s from that round of the naive plan (plan 0 of `r`): the temporal plan's memory terms
// at the rate memory had in the same spell.
model::Machine plain_in_round(const EngineRuns &r, std::size_t round, const model::Machine &m) {
  model::Machine plain = without_etas(model::scaled_machine(m, 1.0, round_speed(r, round)));
  if (const double b = sweep_bandwidth_of(r.costs[0], r.rounds[0][round], m); b > 0) {
    plain.sweep_bandwidth = plain.sweep_bandwidth_2d = b;
    // A rank-2 program's naive sweep runs at B_s,2, its temporal blocks' state at B_s: the
    // round's rate scaled by the two medians.
    if (r.costs[0].rank == 2 && m.sweep_bandwidth_2d > 0 && m.sweep_bandwidth > 0)
      plain.sweep_bandwidth = b * m.sweep_bandwidth / m.sweep_bandwidth_2d;
  }
  return plain;
}

// eta of one temporal plan of `r`: the model's stages at eta = 1 over the measured step less the
// model's other terms (the state's trip through memory at B_s, the carried rows, the barrier, the
// last block's writes), per alternated round with B_s from that round's naive run, the median
// kept: the memory terms are most of a k = 4 step, so B_s from another spell moved heat2d's eta
// from 0.92 to 1.85 between two calibrations a minute apart (2026-12-04). 0 (and says why) where
// those terms alone take most of the step.
double engine_eta(const EngineRuns &r, std::size_t i, const std::string &plan_text,
                  const std::string &what, const model::Machine &m) {
  const stencilc::Plan plan = stencilc::parse_plan(plan_text, code_target("openmp").plan_rules());
  std::vector<double> etas, others;
  double cells_time = 0;
  std::size_t used = 0;
  for (std::size_t j = 0; j < r.rounds[i].size() && j < r.rounds[0].size(); ++j) {
    if (!round_used(r, j))
      continue;
    ++used;
    const model::Prediction p = model::predict(r.costs[i], plain_in_round(r, j, m), plan);
    // The rows' costs (Machine::row_seconds, fitted before) are not the stages' rate.
    const double stages = r.rounds[i][j] - (p.seconds_per_step - p.t_compute) - p.t_rows;
    cells_time = p.t_compute - p.t_rows;
    others.push_back(p.seconds_per_step - p.t_compute);
    if (stages > 0.2 * cells_time)
      etas.push_back(cells_time / stages);
  }
  const double measured = r.seconds[i];
  if (!(measured > 0) || 2 * etas.size() <= used) {
    std::printf("  CPU engine: %s %s not measured (it ran %.3g s per step, the model's memory "
                "terms alone %.3g s)\n",
                what.c_str(), plan_text.c_str(), measured, others.empty() ? 0.0 : median(others));
    return 0.0;
  }
  const double eta = std::clamp(median(etas), 0.1, 2.0);
  std::printf("  CPU engine, %s %s: %s cells/s; its stages at %.2f of the row benchmark's rate "
              "(rounds %.2f to %.2f)\n",
              what.c_str(), plan_text.c_str(), si(r.costs[i].cells() / measured, "").c_str(), eta,
              *std::min_element(etas.begin(), etas.end()),
              *std::max_element(etas.begin(), etas.end()));
  return eta;
}

// Whether plan `x` of `r` ran faster than plan `base` in at least 4 of the 5 alternated rounds
// (and says how many): a variant's gain over its plain twin (x-shifts in registers 2-15%, 512-bit
// vectors -10 to +5% on the AMD EPYC VM, 2026-12-01/02) is the size of this VM's round-to-round
// swings, and a median from a lucky spell made the model offer variants that lost with them
// (himeno M -6% with x-shifts, tune 22:31 UTC; heat3d's vec=512 plans about 10% under their
// 256-bit twins, tune after the calibration of 2026-12-02 05:56).
bool wins_most_rounds(const EngineRuns &r, std::size_t x, std::size_t base, const std::string &what,
                      const std::string &against, const std::string &on_loss) {
  constexpr int kRoundsToWin = 4;
  const int won = rounds_won(r, x, base);
  const bool counts = won >= kRoundsToWin;
  std::printf("  CPU engine, %s: faster than %s in %d of %zu alternated rounds%s\n", what.c_str(),
              against.c_str(), won, r.rounds[x].size(),
              counts ? ""
                     : fmt::format(", fewer than {}: no gain the model counts on ({})",
                                   kRoundsToWin, on_loss)
                           .c_str());
  return counts;
}

// eta of the x-shift plan `x` of `r` (engine_eta) if it won most rounds against the plain plan
// `plain` (wins_most_rounds), else 0: the plain rows' rate.
double xreg_eta(const EngineRuns &r, std::size_t x, std::size_t plain, const std::string &plan_text,
                const std::string &what, const model::Machine &m) {
  const double eta = engine_eta(r, x, plan_text, what, m);
  if (eta <= 0)
    return 0.0;
  return wins_most_rounds(r, x, plain, what + " x-shifts in registers", "the plain rows",
                          "not written")
             ? eta
             : 0.0;
}

// eta_w of the 512-bit plan `w` of `r` (engine_eta) if it won most rounds against the 256-bit
// plan `narrow`, else at most the figure that prices its stages as fast as the 256-bit ones
// (F_w eta_w = F eta): the candidates offer 512-bit plans only where they are priced faster, and
// 0 would mean "as eta", 512-bit stages at the row benchmark's lead.
double wide_eta(const EngineRuns &r, std::size_t w, std::size_t narrow, double eta,
                const std::string &plan_text, const model::Machine &m) {
  const double eta_w = engine_eta(r, w, plan_text, "heat3d", m);
  if (eta_w <= 0 || !(m.wide_flops > 0) || !(eta > 0))
    return eta_w;
  const double capped = std::min(eta_w, eta * m.flops / m.wide_flops);
  return wins_most_rounds(r, w, narrow, "heat3d 512-bit vectors", "the 256-bit ones",
                          fmt::format("written as {:.2f}, its stages priced no faster than the "
                                      "256-bit ones",
                                      capped))
             ? eta_w
             : capped;
}

// The rows' and calls' costs of one plan fitted from its runs (row_costs).
struct RowCosts {
  double t_row = 0, t_call = 0;
};

// Machine::row_seconds (or wide_row_seconds: `field`, for the messages) from runs `i_long` and
// `i_short` of `r` (plans `texts[0]` and `texts[1]`): the same cells on rows of different
// lengths in tiles of the same cells per plane (as many calls). Each measured step less the
// model's other terms is its stages' cells at F/eta plus its rows at t_row plus its (tile, plane,
// stage) calls at t_call (heat3d's: call_weight 1), solved per alternated round (all runs in the
// same spell of the machine) and the median kept. With `i_calls` (`texts[2]`: the short rows in
// tiles of fewer rows, more calls for the same cells and rows) the three equations give
// Machine::call_seconds too; without it `m.call_seconds` is taken as known. Zero (and says so)
// for a cost the runs do not show.
RowCosts row_costs(const EngineRuns &r, std::size_t i_long, std::size_t i_short,
                   std::optional<std::size_t> i_calls, const std::vector<std::string> &texts,
                   const model::Machine &m, const char *field) {
  std::vector<stencilc::Plan> plans;
  for (const std::string &text : texts)
    plans.push_back(stencilc::parse_plan(text, code_target("openmp").plan_rules()));
  std::vector<std::size_t> at = {i_long, i_short};
  if (i_calls)
    at.push_back(*i_calls);
  const std::string &plan_text = texts[0], &short_text = texts[1];
  std::vector<double> rows_fits, call_fits, rows_alone;
  for (std::size_t i = 0;; ++i) {
    bool all = true;
    for (std::size_t j : at)
      all = all && i < r.rounds[j].size();
    if (!all || i >= r.rounds[0].size())
      break;
    if (!round_used(r, i))
      continue;
    // Per plan: its cells' time at eta = 1 (a), rows per thread (b), calls per thread (d), and
    // the measured step less the model's other terms (y).
    double a[3] = {}, b[3] = {}, d[3] = {}, y[3] = {};
    for (std::size_t j = 0; j < at.size(); ++j) {
      model::Machine plain = plain_in_round(r, i, m);
      const stencilc::Plan &pj = plans[j];
      plain.row_seconds = plain.wide_row_seconds = 1;
      plain.call_seconds = 0;
      const model::Prediction p = model::predict(r.costs[at[j]], plain, pj);
      plain.row_seconds = plain.wide_row_seconds = 0;
      plain.call_seconds = 1;
      b[j] = p.t_rows;
      d[j] = model::predict(r.costs[at[j]], plain, pj).t_rows;
      a[j] = p.t_compute - p.t_rows;
      y[j] = r.rounds[at[j]][i] - (p.seconds_per_step - p.t_compute);
    }
    // Two plans, t_call known: a u + b t_row = y - d t_call. Times at the round's speed, kept
    // at the profile's.
    const double speed = round_speed(r, i), t_call = m.call_seconds / speed;
    const double y0 = y[0] - d[0] * t_call, y1 = y[1] - d[1] * t_call;
    const double det2 = a[0] * b[1] - a[1] * b[0];
    rows_alone.push_back(det2 != 0 ? speed * (a[0] * y1 - a[1] * y0) / det2 : 0);
    if (at.size() == 3) {
      // Cramer's rule on the columns a, b, d (unknowns 1/eta, t_row, t_call).
      const auto det3 = [](const double *c0, const double *c1, const double *c2) {
        return c0[0] * (c1[1] * c2[2] - c1[2] * c2[1]) - c1[0] * (c0[1] * c2[2] - c0[2] * c2[1]) +
               c2[0] * (c0[1] * c1[2] - c0[2] * c1[1]);
      };
      const double det = det3(a, b, d);
      rows_fits.push_back(det != 0 ? speed * det3(a, y, d) / det : 0);
      call_fits.push_back(det != 0 ? speed * det3(a, b, y) / det : 0);
    }
  }
  RowCosts out;
  const auto rate = [&](std::size_t i) { return si(r.costs[i].cells() / r.seconds[i], ""); };
  const auto row = [&](std::size_t i) { return r.costs[i].extent[0]; };
  if (i_calls) {
    const std::string &calls_text = texts[2];
    const double t_call = call_fits.empty() ? 0 : median(call_fits);
    const std::string against =
        fmt::format("{} cells/s against {} with {}", rate(*i_calls), rate(i_short), short_text);
    if (t_call > 0 && std::isfinite(t_call)) {
      out.t_call = t_call;
      std::printf("  CPU engine, heat3d %s on %lld-cell rows: %s: %.3g us per (tile, plane, "
                  "stage) call (call_seconds)\n",
                  calls_text.c_str(), static_cast<long long>(row(*i_calls)), against.c_str(),
                  t_call * 1e6);
    } else {
      std::printf("  CPU engine, heat3d %s on %lld-cell rows: %s, the calls no dearer than the "
                  "model's other terms explain: no cost per call (call_seconds not written)\n",
                  calls_text.c_str(), static_cast<long long>(row(*i_calls)), against.c_str());
    }
  }
  const double t_row = out.t_call > 0 ? median(rows_fits) : median(rows_alone);
  if (!(t_row > 0) || !std::isfinite(t_row)) {
    std::printf("  CPU engine, heat3d %s on %lld-cell rows: %s cells/s against %s with %s on "
                "%lld-cell rows, no slower per cell than its rings explain: no cost per row (%s "
                "not written)\n",
                short_text.c_str(), static_cast<long long>(row(i_short)), rate(i_short).c_str(),
                rate(i_long).c_str(), plan_text.c_str(), static_cast<long long>(row(i_long)),
                field);
    return out;
  }
  out.t_row = t_row;
  std::printf("  CPU engine, heat3d %s on %lld-cell rows: %s cells/s against %s with %s on "
              "%lld-cell rows: %.3g ns per row a stage computes (%s)\n",
              short_text.c_str(), static_cast<long long>(row(i_short)), rate(i_short).c_str(),
              rate(i_long).c_str(), plan_text.c_str(), static_cast<long long>(row(i_long)),
              t_row * 1e9, field);
  return out;
}

// Machine::stream_call_seconds and engine_efficiency_coef: himeno M's stage
// (templates/calibrate/engine_himeno.stn.mustache, 17 plane streams a call, twelve coefficients)
// naive and with k=8 on 8- and 32-row tiles (four times the calls for the same cells), 5
// alternated rounds. Each measured step less the model's other terms (the rows and heat3d's
// t_call known) is its stages' cells at F/eta_c plus its calls' streams beyond heat3d's at
// t_stream: two equations per round (the unknowns 1/eta_c and t_stream), the medians kept. Zeros
// (and says so) where the 8-row tiles were no slower than the other terms explain.
struct StreamCalls {
  double t_stream = 0, eta = 0;
};

StreamCalls stream_calls(const CalibrateOptions &opts, const TempDir &tmp, const SpeedProbe &speed,
                         const model::Machine &m) {
  const std::vector<std::string> plans = {"scheme=naive", "scheme=temporal,k=8,rows=8",
                                          "scheme=temporal,k=8,rows=32"};
  const auto r = run_engine(opts, tmp, speed, "engine_himeno",
                            {{"NX", "254"}, {"NY", "126"}, {"NZ", "126"}}, plans);
  if (!r)
    return {};
  std::vector<stencilc::Plan> parsed;
  for (std::size_t j = 1; j < plans.size(); ++j)
    parsed.push_back(stencilc::parse_plan(plans[j], code_target("openmp").plan_rules()));
  std::vector<double> fits, etas; // t_stream and 1/eta per round
  for (std::size_t i = 0; i < r->rounds[1].size() && i < r->rounds[2].size(); ++i) {
    if (!round_used(*r, i))
      continue;
    double a[2] = {}, e[2] = {}, y[2] = {};
    for (std::size_t j = 0; j < 2; ++j) {
      model::Machine plain = plain_in_round(*r, i, m);
      const double t_call = plain.call_seconds; // at the round's speed
      plain.stream_call_seconds = 0;
      plain.call_seconds = 0;
      const model::Prediction p = model::predict(r->costs[j + 1], plain, parsed[j]);
      plain.call_seconds = t_call;
      const model::Prediction known = model::predict(r->costs[j + 1], plain, parsed[j]);
      model::Machine unit = plain;
      unit.row_seconds = unit.wide_row_seconds = unit.call_seconds = 0;
      unit.stream_call_seconds = 1;
      e[j] = model::predict(r->costs[j + 1], unit, parsed[j]).t_calls;
      a[j] = p.t_compute - p.t_rows;
      y[j] = r->rounds[j + 1][i] - (known.seconds_per_step - known.t_compute) - known.t_rows;
    }
    const double det = a[0] * e[1] - a[1] * e[0];
    if (det != 0) {
      fits.push_back(round_speed(*r, i) * (a[0] * y[1] - a[1] * y[0]) / det);
      etas.push_back((y[0] * e[1] - y[1] * e[0]) / det);
    }
  }
  const double t = fits.empty() ? 0 : median(fits);
  const double u = etas.empty() ? 0 : median(etas);
  const auto rate = [&](std::size_t i) { return si(r->costs[i].cells() / r->seconds[i], ""); };
  const std::string against =
      fmt::format("{} cells/s on 8-row tiles against {} on 32-row ones", rate(1), rate(2));
  if (!(t > 0) || !std::isfinite(t) || !(u > 0) || !std::isfinite(u)) {
    std::printf("  CPU engine, himeno M k=8: %s, no slower per call than t_call and the model's "
                "other terms explain (stream_call_seconds and engine_efficiency_coef not "
                "written)\n",
                against.c_str());
    return {};
  }
  const double eta = std::clamp(1 / u, 0.1, 4.0);
  std::vector<double> round_etas; // the rounds' etas, where positive
  for (double e : etas)
    if (e > 0)
      round_etas.push_back(1 / e);
  std::printf("  CPU engine, himeno M k=8: %s: %.3g us per plane stream a call starts beyond "
              "heat3d's %g (stream_call_seconds); its stages at %.2f of the row benchmark's rate "
              "(engine_efficiency_coef; rounds %.2f to %.2f)\n",
              against.c_str(), t * 1e6, model::kCallStreams, eta,
              *std::min_element(round_etas.begin(), round_etas.end()),
              *std::max_element(round_etas.begin(), round_etas.end()));
  return {t, eta};
}

// How fast the CPU engine's stages run against the row benchmark the model prices them with
// (F for 256-bit row functions, F_w for vec=512): the engine fills x ghosts, streams results,
// copies carried and ghost rows and walks its rings besides the row functions (perf on the AMD
// EPYC VM: a third to a half of their time), and the row benchmark cannot say how the vectors'
// width or the grid's rank changes that (there 512-bit rows ran 1.24x the 256-bit ones; through
// the engine they ran slower in six of six rounds; heat2d's stages ran 1.2x what heat3d's eta
// gave them: PERFORMANCE.md). heat3d (templates/calibrate/engine.stn.mustache) 510 x 256 x 256
// is built by the openmp target and run 5 times naive and 5 times with k=12 and 64-row tiles
// (rings in the L3, grids not in cache: eta) on each vector width, alternately, 64 steps, and
// with k=4 on 16-row tiles and on 126 x 1036 x 256 in 64-row tiles (the same cells per call on
// rows a quarter as long: row_seconds, and on 512 bits wide_row_seconds) and the 256-bit one
// there in 16-row tiles (four times the calls: call_seconds, fitted with row_seconds in
// row_costs); heat2d
// (engine2d.stn.mustache) 4094 x 8190 naive and with k=8, 1024-row tiles the same way: its two
// grids (268 MB) past the L3 as heat3d's are (4094 x 4094, 134 MB, sat where this VM's L3 share
// is found at 67 MB in one calibration and 134 MB in the next, and its eta followed, 0.9 or 1.8),
// and k = 8 so that the stages are more of the step than the memory terms; heat3d in double
// (engine_f64.stn.mustache) 510 x 256 x 256 naive and with the 256-bit k=10, 48-row plan. The
// heat3d naive median sets B_s; each temporal plan gives its eta (engine_eta), B_s per round
// from its own program's naive run: engine_efficiency (heat3d, 256 bits),
// wide_engine_efficiency (512), engine_efficiency_2d, engine_efficiency_f64, and with x-shifts
// in registers (xshift=reg) xreg_engine_efficiency(_2d), on 512 bits wide_xreg_engine_efficiency.
// Returns false (and says why) when it cannot be measured: the other figures still stand.
// between: called after each workload's runs (calibrate samples the L3 share curves there).
bool measure_engine(const CalibrateOptions &opts, const TempDir &tmp, model::Machine &m,
                    const std::function<void()> &between, const SpeedProbe &speed) {
  // eta from a deep plan with its rings in the L3, as the plans the model chooses on grids past
  // the L3 are: fitted on k=4 with 16-row tiles (rings in the L2) it priced heat3d 510^3's
  // candidates (k=2-16 on 48-256 rows) 10-20% fast in three tunes of five, and memory was half of
  // that plan's step, so a spell between a round's runs moved eta far (1.61-1.91 in five
  // calibrations of 2026-12-06); k=12 on 64 rows is three quarters stages.
  const std::string deep = "scheme=temporal,k=12,rows=64", base = "scheme=temporal,k=4,rows=16";
  std::vector<std::string> plans = {"scheme=naive", deep, deep + ",xshift=reg"};
  if (m.wide_flops > 0) {
    plans.push_back(deep + ",vec=512");
    plans.push_back(deep + ",vec=512,xshift=reg");
  }
  const Sets sets = {{"NX", "510"}, {"NY", "256"}, {"NZ", "256"}};
  std::vector<Sets> sets_of(plans.size(), sets);
  // The rows' and calls' costs from k=4 plans with the same cells per (tile, plane) call on rows
  // of two lengths: 510 x 16 ...
  const std::size_t long_rows = plans.size();
  plans.push_back(base);
  sets_of.push_back(sets);
  // ... and 126 x 64 (the same rings, four times the rows: row_seconds) ...
  const Sets short_sets = {{"NX", "126"}, {"NY", "1036"}, {"NZ", "256"}};
  const auto on_short_rows = [](std::string plan) {
    return plan.replace(plan.find("rows=16"), 7, "rows=64");
  };
  const std::size_t short_rows = plans.size();
  plans.push_back(on_short_rows(base));
  sets_of.push_back(short_sets);
  // ... and in 16-row tiles there: the same cells and rows in four times the calls (call_seconds).
  const std::size_t short_calls = plans.size();
  plans.push_back(base);
  sets_of.push_back(short_sets);
  // The 512-bit plan on both row lengths too: its rows' cost is its own (wide_row_seconds).
  const std::size_t long_wide = plans.size(), short_wide = long_wide + 1;
  if (m.wide_flops > 0) {
    plans.push_back(base + ",vec=512");
    sets_of.push_back(sets);
    plans.push_back(on_short_rows(base + ",vec=512"));
    sets_of.push_back(short_sets);
  }
  const auto r = run_engine(opts, tmp, speed, "engine", sets, plans, sets_of);
  if (!r)
    return false;
  between();
  // The generated naive sweep's memory rate (its grids do not stay in cache) is B_s: what the
  // sweeps of generated programs get, measured beside the temporal plans.
  const double naive = r->seconds[0];
  if (const double b = sweep_bandwidth_of(r->costs[0], naive, m); b > 0) {
    m.sweep_bandwidth = b;
    std::printf("  generated naive sweep, heat3d 510x256x256: %s cells/s, so %s (B_s)\n",
                si(r->costs[0].cells() / naive, "").c_str(), si(m.sweep_bandwidth, "B/s").c_str());
  }
  const RowCosts costs =
      row_costs(*r, long_rows, short_rows, short_calls,
                {plans[long_rows], plans[short_rows], plans[short_calls]}, m, "row_seconds");
  m.row_seconds = costs.t_row;
  m.call_seconds = costs.t_call;
  if (m.wide_flops > 0)
    m.wide_row_seconds = row_costs(*r, long_wide, short_wide, std::nullopt,
                                   {plans[long_wide], plans[short_wide]}, m, "wide_row_seconds")
                             .t_row;
  m.engine_efficiency = engine_eta(*r, 1, plans[1], "heat3d", m);
  m.xreg_engine_efficiency = xreg_eta(*r, 2, 1, plans[2], "heat3d", m);
  if (m.wide_flops > 0) {
    m.wide_engine_efficiency = wide_eta(*r, 3, 1, m.engine_efficiency, plans[3], m);
    m.wide_xreg_engine_efficiency = xreg_eta(*r, 4, 3, plans[4], "heat3d 512-bit", m);
  }
  const std::string plan2d = "scheme=temporal,k=8,rows=1024";
  if (const auto r2 = run_engine(opts, tmp, speed, "engine2d", {{"NX", "4094"}, {"NY", "8190"}},
                                 {"scheme=naive", plan2d, plan2d + ",xshift=reg"})) {
    // Its naive sweep streams faster than heat3d's (longer rows): B_s,2 for rank-2 programs'
    // naive sweeps; eta_2's fit prices its blocks' state at B_s (plain_in_round).
    if (const double b = sweep_bandwidth_of(r2->costs[0], r2->seconds[0], m); b > 0) {
      m.sweep_bandwidth_2d = b;
      std::printf("  generated naive sweep, heat2d 4094x8190: %s cells/s, so %s (B_s,2; %.2f of "
                  "B_s)\n",
                  si(r2->costs[0].cells() / r2->seconds[0], "").c_str(), si(b, "B/s").c_str(),
                  m.sweep_bandwidth > 0 ? b / m.sweep_bandwidth : 0.0);
    }
    m.engine_efficiency_2d = engine_eta(*r2, 1, plan2d, "heat2d", m);
    m.xreg_engine_efficiency_2d = xreg_eta(*r2, 2, 1, plan2d + ",xshift=reg", "heat2d", m);
  }
  between();
  // 8-byte cells: the model halves F for them (cpu_lanes), and their stages lost more than that
  // to the engine on the AMD EPYC VM (model.cpp, cell_size_factor).
  // Its deep plan on rings about the fp32 one's (8-byte cells, 48-row tiles, k=10: its tunes'
  // choices).
  const std::string deep64 = "scheme=temporal,k=10,rows=48";
  if (const auto r8 = run_engine(opts, tmp, speed, "engine_f64", sets, {"scheme=naive", deep64}))
    m.engine_efficiency_f64 = engine_eta(*r8, 1, deep64, "heat3d fp64", m);
  between();
  // Calls with more plane streams than heat3d's, and stages that read coefficients: himeno's.
  const StreamCalls streams = stream_calls(opts, tmp, speed, m);
  m.stream_call_seconds = streams.t_stream;
  m.engine_efficiency_coef = streams.eta;
  return m.engine_efficiency > 0;
}

} // namespace

int calibrate(const CalibrateOptions &opts) {
  TempDir tmp;
  const std::string src = tmp.path() + "/calibrate.cpp", exe = tmp.path() + "/calibrate";
  {
    std::ofstream out(src);
    out << template_text("calibrate/calibrate.cpp.mustache");
  }
  // The CPU target's compiler and flags, without the runtime: a standalone program.
  CompileRequest req;
  req.sources = {src};
  req.exe = exe;
  req.cxx = opts.cxx;
  req.link_runtime = false;
  const std::vector<std::string> cmd = code_target(opts.target).compile_command(req);
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
  // Some virtual machines have no cache directory in sysfs: glibc's figures (from cpuid).
  const bool from_sysfs = l2 > 0 || l3 > 0;
  if (l2 <= 0)
    l2 = std::max(0L, ::sysconf(_SC_LEVEL2_CACHE_SIZE));
  if (l3 <= 0)
    l3 = std::max(0L, ::sysconf(_SC_LEVEL3_CACHE_SIZE));
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
  m.handoff_seconds = j.value("handoff_seconds", 0.0);
  m.sweep_bandwidth = j.value("sweep_bandwidth", 0.0);
  m.flops = j["stencil_flops"].get<double>();
  m.barrier_seconds = j["barrier_seconds"].get<double>();
  m.cache_bytes = cache;
  // The L3 the calibration program found this process gets (a VM's cpuid may report the
  // socket's): at most the reported size.
  const double l3_reported = l3;
  if (j.contains("l3_bytes") && j["l3_bytes"].get<double>() > 0)
    l3 = std::min(l3, j["l3_bytes"].get<double>());
  m.shared_cache_bytes = l3;
  // Past the L3 found at speed, the rest of the probe's curve: how sweeps a little larger than
  // it still gain from it (the model's l3_spill_gain).
  if (j.contains("l3_probe") && l3 < l3_reported)
    for (const auto &pt : j["l3_probe"])
      if (pt[0].get<double>() >= l3)
        m.l3_load_curve.push_back({pt[0].get<double>(), pt[1].get<double>()});
  // The naive sweep over grids of 1, 2 and 4 times that L3 and far past it: how much of a sweep
  // a little past the L3 it serves (l3_spill_gain reads this curve before the load sums').
  if (j.contains("l3_sweep_probe"))
    for (const auto &pt : j["l3_sweep_probe"])
      if (pt[1].get<double>() > 0) // a sweep that could not allocate its grids adds no point
        m.l3_sweep_curve.push_back({pt[0].get<double>(), pt[1].get<double>()});
  // What the threads' shares of the L3 keep of data read again (the model's coefficient
  // re-reads).
  if (j.contains("l3_reuse"))
    m.l3_reuse_curve = model::reuse_shares(j["l3_reuse"].get<std::vector<std::array<double, 2>>>());
  // And how ring-like traffic slows past the share (the model's ring_slowdown).
  if (j.contains("l3_ring"))
    m.l3_ring_curve = model::relative_rates(j["l3_ring"].get<std::vector<std::array<double, 2>>>());
  // Data in the L3 is not faster than in the L2; a measurement that says so caught the L2 run
  // in a slow spell.
  m.shared_cache_flops = l3 > 0 ? std::min(m.flops, j["shared_cache_stencil_flops"].get<double>())
                                : 0.0;
  m.peak_flops = j["peak_flops"].get<double>();
  m.wide_flops = j.value("wide_stencil_flops", 0.0);
  m.l1_bandwidth = j["l1_bandwidth"].get<double>();
  m.l2_bandwidth = j["l2_bandwidth"].get<double>();
  m.l3_bandwidth = j["l3_bandwidth"].get<double>();
  // Many grids at once: per-byte time grows linearly from 9 streams to 17 (and on beyond).
  double few_streams = 0, many_streams = 0;
  if (j.contains("streams") && j["streams"].size() == 2) {
    few_streams = j["streams"][0][1].get<double>();
    many_streams = j["streams"][1][1].get<double>();
    if (few_streams > 0 && many_streams > 0) {
      m.stream_slowdown =
          std::max(0.0, (few_streams / many_streams - 1) / (17 - model::kFewStreams));
      m.few_streams_bandwidth = few_streams;
    }
  }
  m.net_latency = 1e-6;
  m.net_bandwidth = 1e10;
  std::string stream_list;
  for (std::size_t t = 0; t < stream.size(); ++t)
    stream_list += fmt::format("{}{} thread{}: {}", t ? ", " : "", t + 1, t ? "s" : "",
                               si(stream[t], "B/s"));
  std::printf("  streaming bandwidth: %s\n", stream_list.c_str());
  if (m.handoff_seconds > 0)
    std::printf("  a cache line's round trip between two threads, right after: %.2f us (where "
                "the host put them: tune compares its rounds' with it)\n",
                m.handoff_seconds * 1e6);
  if (m.sweep_bandwidth > 0)
    std::printf("  naive 7-point sweep from memory: %s (%.2f of the best streaming; %s cells/s)\n",
                si(m.sweep_bandwidth, "B/s").c_str(), m.sweep_bandwidth / m.bandwidth,
                si(m.sweep_bandwidth / 12, "").c_str());
  if (many_streams > 0)
    std::printf("  %d grids streamed at once: %s; 17: %s (memory time %.3f longer per grid past "
                "%d: stream_slowdown)\n",
                model::kFewStreams, si(few_streams, "B/s").c_str(), si(many_streams, "B/s").c_str(),
                m.stream_slowdown, model::kFewStreams);
  std::string probe;
  if (j.contains("l3_probe"))
    for (const auto &pt : j["l3_probe"])
      probe += fmt::format("{}{} {}", probe.empty() ? "" : ", ", si(pt[0].get<double>(), "B"),
                           si(pt[1].get<double>(), "B/s"));
  if (l3 < l3_reported)
    std::printf("  caches: L2 %s per core, L3 %s (%s reported; loads over all threads' buffers: "
                "%s)\n",
                si(l2, "B").c_str(), si(l3, "B").c_str(), si(l3_reported, "B").c_str(),
                probe.c_str());
  else
    std::printf("  caches: L2 %s per core, L3 %s\n", si(l2, "B").c_str(), si(l3, "B").c_str());
  if (m.l3_sweep_curve.size() > 1) {
    std::string points;
    double fastest = 0, slowest = m.l3_sweep_curve.front()[1];
    for (const auto &pt : m.l3_sweep_curve) {
      points +=
          fmt::format("{}{} {}", points.empty() ? "" : ", ", si(pt[0], "B"), si(pt[1], "B/s"));
      fastest = std::max(fastest, pt[1]);
      slowest = std::min(slowest, pt[1]);
    }
    std::printf("  naive sweeps by the bytes of their grids: %s (l3_sweep_curve: a sweep a little "
                "past the L3 at up to %.2f times the slowest)\n",
                points.c_str(), fastest / slowest);
  }
  std::printf("  7-point stencil, 512-cell rows, data in L2: %s (%s cells/s)\n",
              si(m.flops, "flop/s").c_str(), si(m.flops / 8, "").c_str());
  if (m.wide_flops > 0)
    std::printf("  the same on 512-bit vectors (vec=512): %s (%s cells/s)\n",
                si(m.wide_flops, "flop/s").c_str(), si(m.wide_flops / 8, "").c_str());
  else
    std::printf(
        "  512-bit vectors: not to be had with this compiler and CPU (plans use vec=256)\n");
  if (l3 > 0)
    std::printf("  7-point stencil, 512-cell rows, planes in L3: %s (%s cells/s)\n",
                si(m.shared_cache_flops, "flop/s").c_str(), si(m.shared_cache_flops / 8, "").c_str());
  std::printf("  roofline: vector peak %s (%d-byte vectors, FMA); loads from L1 %s, L2 %s, L3 %s, "
              "memory %s\n",
              si(m.peak_flops, "flop/s").c_str(), j["vector_bytes"].get<int>(),
              si(m.l1_bandwidth, "B/s").c_str(), si(m.l2_bandwidth, "B/s").c_str(),
              si(m.l3_bandwidth, "B/s").c_str(), si(m.bandwidth, "B/s").c_str());
  std::printf("  OpenMP barrier: %.3g us\n", m.barrier_seconds * 1e6);
  // tune's probes (Machine::probe_*), each taken where its figure was: the stencil's is F's own
  // run; the sweep's is the run above unless the engine's naive plan sets B_s, then a probe
  // right after that measurement (the machine's memory drifts within minutes on shared hosts).
  m.probe_stencil_rate = j.value("stencil_cells_per_second", 0.0);
  m.probe_sweep_bandwidth = j.value("sweep_bandwidth", 0.0);
  // The L3 share curves: the calibration program's, and again after each of the engine's
  // workloads and at the end, each size's median (ShareCurve). On the AMD EPYC VM one run's
  // ring curve read 0.91 of the small rings' rate at 16.8 MB a thread where the other five
  // calibrations and tune's probes of the same day read 0.55-0.77, and heat3d's and fp64's plans
  // with rings past the share ran 0.65-0.85 of the prices it gave (PERFORMANCE.md, 2026-12-06).
  ShareCurve reuse, ring;
  reuse.add(j, "l3_reuse");
  ring.add(j, "l3_ring");
  // Where the host had the threads at each curves' run (and the streams'): on a VM it may move
  // them between cores, which moves the curves (MODEL.md §6).
  std::vector<double> places;
  for (const char *key : {"handoff_seconds", "curves_handoff_seconds"})
    if (j.value(key, 0.0) > 0)
      places.push_back(j.value(key, 0.0));
  const double l3_share = m.threads > 0 ? m.shared_cache_bytes / m.threads : 0;
  const auto more_curves = [&] {
    const std::string curves_out = tmp.path() + "/curves.json";
    if (l3_share <= 0 || reuse.empty() ||
        run_process({exe, "curves", fmt::format("{:.0f}", l3_share)}, curves_out) != 0)
      return;
    try {
      const auto c = read_json_line(curves_out, "cannot read the curves' output");
      reuse.add(c, "l3_reuse");
      ring.add(c, "l3_ring");
      if (c.value("handoff_seconds", 0.0) > 0)
        places.push_back(c.value("handoff_seconds", 0.0));
    } catch (const stencilc::Error &) {
      // A run that printed no curve adds none.
    }
  };
  // The cores' speed around each engine round (run_engine): the calibration program's in-L2
  // stencil alone over its median in three runs before the first round. Not over
  // probe_stencil_rate: that run alternates with the 512-bit and L3 stencils, and the probe
  // alone read 1.04-1.13 of it in every round of a quiet calibration (2026-12-07 18:59), which
  // would have priced every round's cores that much faster and the etas that much lower.
  const auto rate_now = [&]() -> double {
    const std::string rate_out = tmp.path() + "/rate.json";
    if (run_process({exe, "rate", fmt::format("{:.0f}", cache)}, rate_out) != 0)
      return 0.0;
    try {
      return read_json_line(rate_out, "cannot read the speed probe's output")
          .value("stencil_cells_per_second", 0.0);
    } catch (const stencilc::Error &) {
      return 0.0; // a probe that printed nothing: that round at the calibration's speed
    }
  };
  std::optional<double> start_rate;
  const SpeedProbe speed = [&]() -> double {
    if (!start_rate) {
      std::vector<double> rates;
      for (int run = 0; run < 3; ++run)
        if (const double v = rate_now(); v > 0)
          rates.push_back(v);
      start_rate = rates.size() == 3 ? median(rates) : 0.0;
    }
    const double v = *start_rate > 0 ? rate_now() : 0.0;
    return v > 0 ? v / *start_rate : 0.0;
  };
  const bool engine = opts.engine && measure_engine(opts, tmp, m, more_curves, speed);
  if (!opts.engine)
    std::printf("  CPU engine: not measured (--no-engine); B_s is %s, the engine's efficiency 1\n",
                m.sweep_bandwidth > 0 ? "the naive sweep's above" : "B (the sweep gave none)");
  if (engine) {
    // The median of three, as tune takes the median of its rounds' probes: one probe of a
    // second read 0.86 of tune's a few minutes later on the AMD EPYC VM (2026-12-06 09:09),
    // which priced every candidate "for now" 13-16% faster.
    const std::string probe_out = tmp.path() + "/probe.json";
    std::vector<double> sweeps;
    for (int run = 0; run < 3; ++run)
      if (run_process({exe, "probe", fmt::format("{:.0f}", cache)}, probe_out) == 0)
        sweeps.push_back(read_json_line(probe_out, "cannot read the probe's output")
                             .value("sweep_bandwidth", 0.0));
    m.probe_sweep_bandwidth = sweeps.size() == 3 ? median(sweeps) : 0;
  }
  more_curves();
  if (reuse.runs() > 1)
    m.l3_reuse_curve = model::reuse_shares(reuse.medians());
  if (ring.runs() > 1)
    m.l3_ring_curve = model::relative_rates(ring.medians());
  if (!m.l3_reuse_curve.empty()) {
    std::string shares;
    for (const auto &pt : m.l3_reuse_curve)
      shares +=
          fmt::format("{}{} {:.0f}%", shares.empty() ? "" : ", ", si(pt[0], "B"), 100 * pt[1]);
    std::printf("  data read again after a thread touched (per thread), from memory: %s (medians "
                "of %d runs)\n",
                shares.c_str(), reuse.runs());
  }
  if (!m.l3_ring_curve.empty()) {
    std::string rel;
    for (const auto &pt : m.l3_ring_curve)
      rel += fmt::format("{}{} {:.2f}", rel.empty() ? "" : ", ", si(pt[0], "B"), pt[1]);
    std::printf(
        "  rings cycled (per thread), their rate relative to small ones: %s (medians of %d runs)\n",
        rel.c_str(), ring.runs());
  }
  if (places.size() > 1) {
    std::string trips;
    for (double h : places)
      trips += fmt::format("{}{:.2f}", trips.empty() ? "" : ", ", h * 1e6);
    std::printf("  a cache line's round trip between two threads, after the streams and at each "
                "curves' run: %s us%s\n",
                trips.c_str(),
                spread_beyond(places, 2) ? " (the host moved the threads during the calibration: "
                                           "its memory rates and curves mix places, docs/MODEL.md)"
                                         : "");
  }
  if (m.probe_sweep_bandwidth > 0 && m.probe_stencil_rate > 0)
    std::printf("  probes for tune: naive sweep %s, stencil in L2 %s cells/s\n",
                si(m.probe_sweep_bandwidth, "B/s").c_str(), si(m.probe_stencil_rate, "").c_str());
  else
    std::printf("  probes for tune: not measured (tune will price its candidates with the profile "
                "as it is)\n");
  const bool mpi = opts.mpi && measure_mpi(opts, tmp, m);
  if (!opts.mpi)
    std::printf("  MPI: not measured (--no-mpi); network figures are defaults\n");
  const std::string path = opts.output.empty() ? model::calibrated_machine_path() : opts.output;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::ofstream out(path);
  out << model::machine_to_json(
      m, "this machine, measured by stencilc calibrate",
      "bandwidth: best scale-kernel pass of a second's over 128 MiB arrays; sweep_bandwidth: "
      "best naive 7-point sweep pass of a second's over two 257 MiB grids, 12 bytes per cell; "
      "flops: 7-point stencil "
      "on 512-cell rows, per thread two grids of four planes in half its L2 (wide_flops: the same "
      "on 512-bit vectors); shared_cache_flops: "
      "the same with 8 times its L2 of planes per thread (at most its share of the L3, half of it "
      "/ threads); caches: " +
          std::string(from_sysfs ? "sysfs (cpu0)"
                                 : "sysconf (glibc, cpuid: no sysfs cache directory)") +
          (l3 < l3_reported
               ? fmt::format(", the L3 measured ({} reported): the largest of each thread's "
                             "load-summed buffers, doubling from twice its L2, whose rate stays "
                             "above halfway between the first's and the slowest's, times the "
                             "threads (l3_load_curve: the sums' rates from that size on)",
                             si(l3_reported, "B"))
               : std::string()) +
          (m.l3_sweep_curve.empty()
               ? std::string()
               : std::string(
                     "; l3_sweep_curve: the naive sweep above over grids of 1, 2 and 4 "
                     "times the L3 in all and of 2 x 257 MiB, the medians of 3 runs of 0.3 s, the "
                     "sizes in turn")) +
          "; peak_flops: 12 FMA chains of native vectors per "
          "thread in registers, best of 3; l1/l2/l3_bandwidth: vector-load sums over 16 KiB, half "
          "the L2, "
          "8 L2s (at most the L3 share) per thread, best of 3 passes of 50 ms; l3_reuse_curve: "
          "vector-load sums over 0.25-1.5 and 4 times a thread's share of the L3 per thread, the "
          "medians of 3 alternated passes of 30 ms in the calibration program, then of that and " +
          // As many as ran: the engine's workloads stop at the first that cannot be measured.
          (reuse.runs() > 2 ? fmt::format("{} passes after the engine's workloads and one at "
                                          "the end",
                                          reuse.runs() - 2)
                            : std::string("one pass at the end")) +
          ", as the share of loads from memory that gives "
          "each rate between the first sizes' and the last's; l3_ring_curve: the same sizes cycled "
          "as 64 KiB planes, three read and the next written, each median over the faster of "
          "the first two; barrier: averaged "
          "over 20000; stream_slowdown and "
          "few_streams_bandwidth: the sum of "
          "8 and of 16 grids of 32 MiB into one (9 and 17 streams, each grid 65 lines after the "
          "last), all threads, best passes of 3 alternated turns (the 9-stream rate as "
          "few_streams_bandwidth)" +
          std::string(
              engine ? "; sweep_bandwidth and (wide_, xreg_, wide_xreg_)engine_efficiency: "
                       "heat3d 510x256x256 fp32, 64 steps, built by the openmp target, "
                       "naive and k=12, 64 rows on 256- (and 512-)bit vectors, each also "
                       "with xshift=reg, and k=4, 16 rows, alternately, and the 256- (and "
                       "512-)bit k=4 plan on 126x1036x256 in 64-row tiles (the 256-bit one "
                       "in 16-row tiles too), medians of 5: B_s from the naive one (model "
                       "bytes); "
                       "row_seconds and call_seconds fitted to the three 256-bit plans' "
                       "runs (wide_row_seconds to the two 512-bit ones) less the rest of "
                       "the model (per round, the median), "
                       "the etas each "
                       "temporal plan's predicted stages over what the rest of the "
                       "model leaves of the measured; sweep_bandwidth_2d and "
                       "(xreg_)engine_efficiency_2d: the same with heat2d 4094x8190, k=8, "
                       "1024 rows (B_s,2 from its naive one); engine_efficiency_f64: "
                       "heat3d in double, naive and the 256-bit k=10, 48-row plan; "
                       "stream_call_seconds "
                       "and engine_efficiency_coef: himeno 254x126x126 naive and k=8 on 8- and "
                       "32-row tiles, fitted together to the two temporal plans' runs less "
                       "the rest of the model (per round, the medians); xreg_ ones only "
                       "where the x-shifts beat the plain rows in 4 of the 5 rounds; "
                       "each round priced at the cores' speed either side of it (the "
                       "in-L2 stencil probe before, between and after the rounds over "
                       "its median in 3 runs before the first), a round whose two differ by "
                       "more than "
                       "1.15x left out while 3 are left"
                     : "; engine_efficiency: not measured") +
          "; probe_stencil_rate: the flops' run (cells/s); probe_sweep_bandwidth: the naive "
          "sweep's pass " +
          std::string(engine ? "repeated three times right after the engine's runs (the median)"
                             : "above") +
          " (tune repeats both beside its candidates)" +
          std::string(mpi ? "; net: MPI_Sendrecv between 2 ranks under mpirun, 8 B (latency) and "
                            "16 MiB messages, best of batches"
                          : "; net: defaults, not measured"));
  if (!out.good())
    throw stencilc::Error("cannot write '" + path + "'");
  std::printf("wrote %s\n", path.c_str());
  return 0;
}

} // namespace stc
