// `stencilc emit`, `build` and `verify`: generated sources, the executable, and the check of
// the executable against the reference interpreter.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "driver/pipeline.h"
#include "stencilc/options.h"
#include "target/target.h"

namespace stc {

/// What emit and build are asked for, from the command line.
struct EmitRequest {
  std::string plan;    // --plan KEY=VALUE,... ("" = the model's choice)
  std::string machine; // --machine: the profile the model chooses for ("" = the default)
  bool format = true;  // --no-format turns libFormat off
  // `plan` is the model's choice with ptxas's registers (build), not the user's --plan.
  bool plan_from_ptxas = false;
};

/// Writes the target's sources into `dir` (created if missing); returns their paths.
std::vector<std::string> emit_sources(const Compiled &c, const std::string &target,
                                      const std::string &dir, const EmitRequest &req);

struct BuildOptions {
  std::string target = kDefaultTarget;
  std::string cxx;                    // C++ compiler; default $CXX or c++
  std::vector<std::string> cxxflags;  // extra flags
  std::string keep_sources;           // write sources here instead of a temporary directory
  bool verbose = false;
  /// GPU targets: build for the CPU execution layer (host compiler) instead of the device.
  bool cpu_layer = false;
  EmitRequest emit;
};

/// Emits and compiles an executable at `exe`. Throws stencilc::Error on failure.
void build_executable(const Compiled &c, const BuildOptions &opts, const std::string &exe);

struct VerifyOptions {
  BuildOptions build;
  stencilc::RunOptions run; // --set and --steps are honoured; sizes default to small ones
  std::uint64_t seed = 1;
  /// Plans to run the same executable with too: each must give every grid, reduction and the
  /// step count bit for bit as the naive plan does.
  std::vector<std::string> bitwise;
  /// --tolerance: grids agree cell by cell within this relative difference instead of bit for
  /// bit (for a target whose math library rounds differently); 0 = bit for bit.
  double tolerance = 0;
  /// --np: the process counts a distributed target runs with, each compared with the
  /// interpreter (empty: 1); refused for other targets.
  std::vector<int> np;
  /// --procs AxBxC: the process grid every run of a distributed target uses ("" = its choice).
  std::string procs;
};

/// Builds, runs the executable and the interpreter on the same small random inputs, compares
/// every grid. Returns the exit code (0: all grids agree).
int verify(const Compiled &c, const VerifyOptions &opts);

} // namespace stc
