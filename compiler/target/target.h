// Where a target plugs in: what it is called, which plans it has and why one does not apply to
// a program, the code it emits, the compiler that builds that code and how the result is
// started. Every target is one entry of the registry (registry.cpp); no other place compares a
// target's name.
#pragma once
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "codegen/codegen.h"
#include "ir/ir.h"
#include "lower/lowered.h"
#include "stencilc/plan.h"

namespace stc {

/// What a build asks of a target's toolchain.
struct CompileRequest {
  std::vector<std::string> sources; // .cpp files (headers beside them)
  std::vector<std::string> objects; // compiled objects linked with them (a Physis host program)
  std::string exe;                  // the executable to write
  std::string cxx;                  // the C++ compiler ("" = $CXX, else c++)
  std::vector<std::string> cxxflags; // the user's extra flags, after the target's
  bool link_runtime = true;         // false: a standalone program (calibrate)
  bool cpu_layer = false;           // GPU targets: build for the CPU execution layer
  // Host builds (the CPU targets, the CPU layer) only: compile the one source into the object
  // `exe` (-c), no libraries; the link is a second request with the objects and no sources.
  bool compile_only = false;
  // GPU targets: the device architectures (empty: $STENCILC_CUDA_ARCH or $STENCILC_HIP_ARCH,
  // else sm_80 or gfx90a).
  std::vector<std::string> archs;
};

class Target {
public:
  virtual ~Target() = default;
  /// The name of --target.
  virtual const std::string &name() const = 0;
  /// false: the model knows its plans (explain) but no code generator exists for it yet.
  virtual bool generates_code() const = 0;
  /// The plans it has: its platform, and whether it is distributed (MPI).
  virtual stencilc::PlanRules plan_rules() const = 0;
  /// Names its generated code declares, which a program may not use.
  virtual std::vector<std::string> reserved_names() const { return {}; }
  /// Why none of its blocked (temporal, streaming) plans can run `p` ("" if they can).
  virtual std::string why_not_blocked(const ir::Program &) const { return ""; }
  /// Why `plan` cannot run `p` on this target ("" if it can).
  virtual std::string why_not(const stencilc::Plan &plan, const ir::Program &p) const = 0;
  /// The generated files (opts.plan is a plan of this target that applies to `p`).
  virtual std::vector<GeneratedFile> emit(const ir::Program &p, const Analysis &a,
                                          const lower::Lowered &l,
                                          const EmitOptions &opts) const = 0;
  /// The command that compiles the generated sources into an executable.
  virtual std::vector<std::string> compile_command(const CompileRequest &r) const = 0;
  /// GPU targets: whether compile_command can build for the CPU execution layer instead of a
  /// device (CompileRequest::cpu_layer), and why no device of the target is here ("" if one
  /// seems to be); verify then runs the code through the layer.
  virtual bool has_cpu_layer() const { return false; }
  /// GPU targets: the variable that lists the device architectures to compile for.
  virtual std::string arch_variable() const { return ""; }
  /// Its device compiler reports registers per kernel as nvcc's `-Xptxas -v` does.
  virtual bool reports_ptxas() const { return false; }
  virtual std::string no_device() const { return ""; }
  /// The command that starts an executable of this target on `ranks` processes (MPI: under
  /// mpirun; a target that is not distributed runs one process and ignores it).
  virtual std::vector<std::string> launch(const std::string &exe, int ranks = 1) const {
    (void)ranks;
    return {exe};
  }
};

/// The target of emit, build, verify, explain and tune when none is given.
constexpr const char *kDefaultTarget = "openmp";

/// The target of that name; throws stencilc::Error naming the known ones.
const Target &find_target(const std::string &name);
/// find_target, and an error if it only exists in the model (explain) yet.
const Target &code_target(const std::string &name);
/// Every target, in the order of --help.
const std::vector<const Target *> &all_targets();
/// "openmp, cuda, ..." (with `generating_only`: those that generate code).
std::string target_names(bool generating_only = false);
/// The names any target reserves (sema refuses them in every program).
const std::vector<std::string> &reserved_by_targets();

} // namespace stc
