// `stencilc emit`, `build` and `verify`: generated sources, the executable, and the check of
// the executable against the reference interpreter.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "codegen/codegen.h"
#include "driver/pipeline.h"
#include "model/model.h"
#include "stencilc/options.h"

namespace stc {

/// Throws stencilc::Error for an unknown target, or (unless `model_only`: explain models every
/// target) one whose code generation is not implemented yet.
void check_target(const std::string &target, bool model_only = false);

/// Whether the code generator implements this plan for the target and program (the openmp
/// temporal plan does not apply to every program: codegen's temporal_unsupported says why).
bool implemented_plan(const std::string &target, const model::Plan &plan, const ir::Program &p);

/// Writes the target's sources into `dir` (created if missing); returns their paths.
std::vector<std::string> emit_sources(const Compiled &c, const std::string &target,
                                      const std::string &dir, const EmitOptions &opts);

struct BuildOptions {
  std::string target = "openmp";
  std::string cxx;                    // C++ compiler; default $CXX or c++
  std::vector<std::string> cxxflags;  // extra flags
  std::string keep_sources;           // write sources here instead of a temporary directory
  bool verbose = false;
  EmitOptions emit;
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
};

/// Builds, runs the executable and the interpreter on the same small random inputs, compares
/// every grid. Returns the exit code (0: all grids agree).
int verify(const Compiled &c, const VerifyOptions &opts);

} // namespace stc
