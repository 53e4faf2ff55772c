// The flat pipeline: read -> parse -> check -> analyze. Each step can log and print its IR.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "analysis/analyze.h"
#include "ir/eval.h"
#include "ir/ir.h"
#include "stencilc/options.h"
#include "support/diagnostics.h"

namespace stc {

struct PipelineOptions {
  bool verbose = false;  // log each step to stderr
  bool print_ir = false; // print the checked IR to stdout
};

struct Compiled {
  std::unique_ptr<SourceFile> file;
  ir::Program program;
  Analysis analysis;
};

/// Runs the front half of the compiler. On failure prints the diagnostics to stderr and
/// returns nullopt; warnings are printed either way.
std::optional<Compiled> compile(const std::string &path, const PipelineOptions &opts);

/// The value of every param of the program: given with --set NAME=VALUE in `run.sets` (read
/// by stencilc::ParamSet, as a generated executable reads them) or its default. Throws
/// stencilc::Error for a --set of no param, a value that is not of the param's type, or a
/// param without a value.
std::vector<ir::Scalar> param_values(const ir::Program &p, const stencilc::RunOptions &run);

} // namespace stc
