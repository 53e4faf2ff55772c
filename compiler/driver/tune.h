// `stencilc tune`: measures the model's candidate plans on this machine and compares.
#pragma once
#include <cstdint>

#include "driver/build.h"
#include "driver/explain.h"
#include "driver/pipeline.h"

namespace stc {

struct TuneOptions {
  ExplainOptions explain;
  BuildOptions build;
  std::int64_t steps = 10;
  int rounds = 3;          // measure every candidate this often, keep its median
  int max_candidates = 12; // measured at most
};

int tune(const Compiled &c, const TuneOptions &opts);

} // namespace stc
