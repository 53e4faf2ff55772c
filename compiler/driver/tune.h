// `stencilc tune`: measures the model's candidate plans on this machine and compares.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "driver/build.h"
#include "driver/explain.h"
#include "driver/pipeline.h"
#include "model/model.h"

namespace stc {

struct TuneOptions {
  ExplainOptions explain;
  BuildOptions build;
  std::int64_t steps = 0;  // per measurement; 0: tune_steps chooses
  int rounds = 3;          // measure every candidate this often, keep its median
  int max_candidates = 12; // measured at most
  // Plans (KEY=VALUE,...) to measure beside the model's choice instead of tune_selection's.
  std::vector<std::string> plans;
  // CPU targets: run calibrate's probes before every round and price the candidates for the
  // machine as it is then too (a profile with probes only).
  bool probe = true;
};

// How long tune wants the model's fastest candidate to run when --steps is not given, and the
// steps it then runs (CPU targets): a run's start (its first pages, its threads, a hiccup of the
// host) is not in the model's steady steps and must weigh little. On the AMD EPYC VM (2026-12-06)
// 10 steps of heat3d 510^3 (0.16 s) ran at 0.65-1.0 of the rate of 30 steps' runs, and tune's
// six workloads at 40-200 steps (0.3-0.6 s) came within 15% for 41 of 49 candidates against
// 4 of 49 at 10 steps an hour before (28 of 49 the night before, another profile).
constexpr double kTuneRunSeconds = 0.5;
constexpr std::int64_t kTuneMinSteps = 10, kTuneMaxSteps = 100000;
// Steps for runs of about kTuneRunSeconds when the fastest candidate takes
// `fastest_seconds_per_step` (at least kTuneMinSteps, at most kTuneMaxSteps); kTuneMinSteps
// for GPU targets (the model prices the device, while here the CPU execution layer runs them)
// and without a price.
std::int64_t tune_steps(double fastest_seconds_per_step, bool cpu);

// The candidates `tune` measures, from the model's sorted list: the best four, then the best
// for every k, for every CPU tile height, and naive, without repeats, at most `max`.
std::vector<model::Prediction> tune_selection(const std::vector<model::Prediction> &cands, int max);

// tune's note on rounds that disagree: how many candidates' rounds (cells/s, any order) are
// more than 15% apart, min to max, and what that means for the within-15% count; "" if none
// are or there is one round.
std::string spread_note(const std::vector<std::vector<double>> &rates);

// tune's note on where the host had the threads: the rounds' probes' round trips of a cache
// line between two threads (seconds, in the rounds' order; 0: not measured) and calibrate's
// (the profile's; 0: none). A VM's host may move its vCPUs between cores every few seconds (AMD
// EPYC VM: ~0.1 us with the L3 shared, ~0.4 us with rings of twice the share still at 0.8-0.9
// of their rate, ~0.65 us with memory at twice the rate; docs/MODEL.md); "" where no two
// differ by more than twice, else the range, how many rounds were above the two ends'
// geometric mean, and calibrate's.
std::string placement_note(const std::vector<double> &handoffs, double profile_handoff);

// The profile `m` as tune's probe found the machine: its memory and its cores scaled by the
// probe's naive sweep (bytes/s) and in-L2 stencil rate (cells/s) over the calibration's
// (scaled_machine), and the probe's L3 curves (reuse_shares, relative_rates of its output) where
// it measured them (a ring curve needs the nine sizes the model reads); the profile's otherwise.
// tune prices every candidate on the rounds' medians ("for now") and on each round's alone.
model::Machine probed_machine(const model::Machine &m, double sweep, double rate,
                              std::vector<std::array<double, 2>> reuse,
                              std::vector<std::array<double, 2>> ring);

// The model's choice against another candidate, round by round: the median over the rounds of
// choice[r] / other[r] (cells/s, in the order the rounds ran; 0 if either has no round or they
// differ in rounds). A round measures every candidate within seconds, so a spell of the machine
// that lasts minutes scales both runs of a round and cancels in their ratio, where the ratio of
// the two medians keeps it.
double paired_ratio(const std::vector<double> &choice, const std::vector<double> &other);

// The plans tune measures: with --plan, the model's choice (cands' first) and then `plans`
// priced on `cost` and `m`, repeats dropped, all of them whatever `max`; without, tune_selection's.
std::vector<model::Prediction> tune_plans(const std::vector<model::Prediction> &cands,
                                          const std::vector<stencilc::Plan> &plans,
                                          const model::Cost &cost, const model::Machine &m,
                                          int max);

int tune(const Compiled &c, const TuneOptions &opts);

} // namespace stc
