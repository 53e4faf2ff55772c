// `stencilc explain`: the performance model's view of a program on a target, its candidates
// and the plan it chooses (compiler/optimizer does the planning; this is the report).
#pragma once
#include <string>

#include "driver/pipeline.h"
#include "stencilc/options.h"
#include "target/target.h"

namespace stc {

struct ExplainOptions {
  std::string target = kDefaultTarget;
  std::string machine;
  std::string plan; // override
  int ranks = 1;
  bool json = false;
  std::string ptxas; // a `nvcc -Xptxas -v` log of the program: the kernels' registers
  stencilc::RunOptions run; // --set, --steps
};

int explain(const Compiled &c, const ExplainOptions &opts);

} // namespace stc
