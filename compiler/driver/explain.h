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

/// The model's cost of one step of the program with these param values.
model::Cost program_cost(const ir::Program &p, const Analysis &a,
                         const std::vector<ir::Scalar> &params);

struct ExplainOptions {
  std::string target = "openmp";
  std::string machine;
  std::string plan; // override
  int ranks = 1;
  bool json = false;
  stencilc::RunOptions run; // --set
};

int explain(const Compiled &c, const ExplainOptions &opts);

struct TuneOptions {
  ExplainOptions explain;
  BuildOptions build;
  std::int64_t steps = 10;
};

int tune(const Compiled &c, const TuneOptions &opts);

struct CalibrateOptions {
  std::string output; // default: model::calibrated_machine_path()
  std::string cxx;
  bool verbose = false;
};

int calibrate(const CalibrateOptions &opts);

} // namespace stc
