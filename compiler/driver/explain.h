// `stencilc explain`, `tune` and `calibrate`: the performance model's view of a program,
// measured against reality, and the measurement of this machine.
#pragma once
#include <string>
#include <vector>

#include "driver/build.h"
#include "driver/pipeline.h"
#include "ir/eval.h"
#include "model/model.h"
#include "stencilc/options.h"

namespace stc {

/// The model's cost of one step of the program with these param values; `steps` is the run's
/// step count (0: the program's default).
model::Cost program_cost(const ir::Program &p, const Analysis &a,
                         const std::vector<ir::Scalar> &params, std::int64_t steps = 0);

/// The candidates of the model for the target, fastest first, with the plans that cannot run
/// this program left out (openmp: temporal where temporal_unsupported says so).
std::vector<model::Prediction> program_candidates(const Compiled &c, const std::string &target,
                                                  const model::Machine &m,
                                                  const std::vector<ir::Scalar> &params,
                                                  int ranks = 1, std::int64_t steps = 0);

/// The plan the model chooses for the program on the target with the default (or calibrated)
/// machine profile `machine` ("" = default) and these --set (and --steps) values.
model::Prediction chosen_plan(const Compiled &c, const std::string &target,
                              const std::string &machine, const stencilc::RunOptions &run);

/// Where the plan compiled into generated code came from.
enum class PlanSource { Model, Given, Fallback /* naive: the model chose none */ };

/// What the generated files say about their plan (a key): where it came from and the model's
/// prediction for it on `machine` ("" = the default profile) at the program's default sizes,
/// or why there is none (a param without a default). Lines of text; codegen makes them a
/// comment.
std::string plan_comment(const Compiled &c, const std::string &target, const std::string &machine,
                         const std::string &plan, PlanSource source);

struct ExplainOptions {
  std::string target = "openmp";
  std::string machine;
  std::string plan; // override
  int ranks = 1;
  bool json = false;
  stencilc::RunOptions run; // --set, --steps
};

int explain(const Compiled &c, const ExplainOptions &opts);

struct TuneOptions {
  ExplainOptions explain;
  BuildOptions build;
  std::int64_t steps = 10;
  int rounds = 3;          // measure every candidate this often, keep its median
  int max_candidates = 12; // measured at most
};

int tune(const Compiled &c, const TuneOptions &opts);

struct CalibrateOptions {
  std::string output; // default: model::calibrated_machine_path()
  std::string cxx;
  bool verbose = false;
};

int calibrate(const CalibrateOptions &opts);

} // namespace stc
