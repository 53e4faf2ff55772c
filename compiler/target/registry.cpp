#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "stencilc/error.h"
#include "target/runtime_paths.h"
#include "target/target.h"

namespace stc {

namespace {

std::string compiler_of(const CompileRequest &r) {
  if (!r.cxx.empty())
    return r.cxx;
  const char *v = std::getenv("CXX");
  return v && *v ? v : "c++";
}

// A sanitizer build of stencilc instruments what it compiles too (the runtime's link flags carry
// -fsanitize, on the same command line). It compiles without optimisation: instrumented code
// builds 2-4 times faster at -O0 than at -O1 (himeno: 8 s against 35 s), its test pass builds
// hundreds of small programs that run for milliseconds, and no access is optimised away before
// AddressSanitizer sees it. Results are the same bits at any level (no contraction, no
// reassociation); the Release pass checks the -O3 build users get.
// The CPU execution layer's builds (cuda and hip --cpu-layer) are checks, not speed: at -Og
// himeno's kernels compile in 11 s against 27 s at -O2 and run as fast (the time goes to the
// layer's library, built with the project, and its fibers), and verify and the suite build
// hundreds of them.
#if STENCILC_SANITIZER_BUILD
constexpr const char *kHostOpt = "-O0", *kCpuLayerOpt = "-O0";
#else
constexpr const char *kHostOpt = "-O3", *kCpuLayerOpt = "-Og";
#endif

// The C++ compiler with OpenMP and, for generated code, its flags.
std::vector<std::string> cpu_compiler(const CompileRequest &r) {
  std::vector<std::string> cmd = {compiler_of(r), "-std=c++17", kHostOpt, "-march=native",
                                  "-fopenmp"};
  if (r.link_runtime)
    // No contraction into fused multiply-adds: the generated code then rounds exactly as the
    // interpreter does (and as other plans of the same program do); --cxxflag can turn it on.
    cmd.insert(cmd.end(), {"-ffp-contract=off", "-Wall", "-Wextra", "-I" + runtime_include_dir()});
  return cmd;
}

// A host build's compile step (CompileRequest::compile_only): `cmd` (the compiler and its
// flags) with the user's flags, then -c SOURCE -o OBJECT.
std::vector<std::string> compile_step(std::vector<std::string> cmd, const CompileRequest &r) {
  cmd.insert(cmd.end(), r.cxxflags.begin(), r.cxxflags.end());
  cmd.push_back("-c");
  cmd.insert(cmd.end(), r.sources.begin(), r.sources.end());
  cmd.insert(cmd.end(), {"-o", r.exe});
  return cmd;
}

// What links the runtime core after the sources: the core, then what it links (libhdf5, the
// paths separated by spaces: the serial library, or for the MPI targets the Open MPI flavour,
// never both), then the runtime's link flags (sanitizers).
void add_core_libraries(std::vector<std::string> &cmd, bool mpi = false) {
  cmd.push_back(runtime_library("core"));
  const char *var = mpi ? "STENCILC_RT_MPI_LINK_LIBRARIES" : "STENCILC_RT_LINK_LIBRARIES";
  const char *env = std::getenv(var);
  std::istringstream libs(env && *env ? env
                          : mpi       ? STENCILC_RT_MPI_LINK_LIBRARIES
                                      : STENCILC_RT_LINK_LIBRARIES);
  for (std::string lib; libs >> lib;)
    cmd.push_back(lib);
  for (const char *f : {STENCILC_RT_LINK_FLAGS})
    if (*f)
      cmd.push_back(f);
}

// Words of an environment variable, else of the configured default (flags of mpicxx --showme).
void add_words(std::vector<std::string> &cmd, const char *var, const char *fallback) {
  const char *env = std::getenv(var);
  std::istringstream words(env && *env ? env : fallback);
  for (std::string w; words >> w;)
    cmd.push_back(w);
}

// How the MPI targets start: as root (containers, CI) mpirun wants --allow-run-as-root; more
// ranks than cores need --oversubscribe.
std::vector<std::string> mpirun(const std::string &exe, int ranks) {
  return {"mpirun", "--allow-run-as-root", "--oversubscribe", "-np", std::to_string(ranks), exe};
}

// C++ with OpenMP on the CPU: naive sweeps and the CPU engine's temporal blocking.
class OpenmpTarget final : public Target {
public:
  const std::string &name() const override { return name_; }
  bool generates_code() const override { return true; }
  stencilc::PlanRules plan_rules() const override {
    return {stencilc::Platform::Cpu, false, name_};
  }
  std::vector<std::string> reserved_names() const override {
    return {"_OPENMP", "omp_get_max_threads", "omp_get_num_threads", "omp_get_thread_num",
            "omp_get_wtime"};
  }
  std::string why_not_blocked(const ir::Program &p) const override {
    const std::string why = temporal_unsupported(p);
    return why.empty() ? why
                       : fmt::format("temporal blocking does not apply to {}: {}", p.name, why);
  }
  std::string why_not(const stencilc::Plan &plan, const ir::Program &p) const override {
    return plan.naive() ? "" : why_not_blocked(p);
  }
  std::vector<GeneratedFile> emit(const ir::Program &p, const Analysis &a, const lower::Lowered &l,
                                  const EmitOptions &opts) const override {
    return emit_openmp(p, a, l, opts);
  }
  std::vector<std::string> compile_command(const CompileRequest &r) const override {
    std::vector<std::string> cmd = cpu_compiler(r);
    if (r.compile_only)
      return compile_step(cmd, r);
    cmd.insert(cmd.end(), r.cxxflags.begin(), r.cxxflags.end());
    cmd.insert(cmd.end(), r.sources.begin(), r.sources.end());
    cmd.insert(cmd.end(), r.objects.begin(), r.objects.end());
    if (r.link_runtime) {
      // The CPU engine, then the core it uses (a static archive must come before what it uses).
      cmd.push_back(runtime_library("cpu"));
      add_core_libraries(cmd);
    }
    cmd.insert(cmd.end(), {"-o", r.exe});
    return cmd;
  }

private:
  std::string name_ = "openmp";
};

// MPI ranks with OpenMP threads inside each: the naive plan, and the CPU engine's temporal plan
// on halos k steps deep exchanged every k steps (docs/MPI.md), over
// the distributed runtime (stencilc_rt_mpi), built with Open MPI's wrapper flags and started
// under mpirun.
class MpiOpenmpTarget final : public Target {
public:
  const std::string &name() const override { return name_; }
  bool generates_code() const override { return true; }
  stencilc::PlanRules plan_rules() const override { return {stencilc::Platform::Cpu, true, name_}; }
  std::vector<std::string> reserved_names() const override {
    return {"_OPENMP",       "omp_get_max_threads", "omp_get_num_threads", "omp_get_thread_num",
            "omp_get_wtime", "MPI_COMM_WORLD"};
  }
  std::string why_not_blocked(const ir::Program &p) const override {
    const std::string why = temporal_unsupported(p);
    return why.empty() ? why
                       : fmt::format("temporal blocking does not apply to {}: {}", p.name, why);
  }
  std::string why_not(const stencilc::Plan &plan, const ir::Program &p) const override {
    if (!plan.naive() && plan.distribution && plan.distribution->overlap)
      return fmt::format("{} overlaps the exchange with the interior under scheme=naive only "
                         "(the temporal plan exchanges once per k steps, before its block)",
                         name_);
    if (plan.naive() && plan.distribution && plan.distribution->k != 1)
      return fmt::format("{} exchanges halos every k steps under scheme=temporal only (naive "
                         "takes k=1)",
                         name_);
    return plan.naive() ? "" : why_not_blocked(p);
  }
  std::vector<GeneratedFile> emit(const ir::Program &p, const Analysis &a, const lower::Lowered &l,
                                  const EmitOptions &opts) const override {
    return emit_mpi_openmp(p, a, l, opts);
  }
  std::vector<std::string> compile_command(const CompileRequest &r) const override {
    std::vector<std::string> cmd = cpu_compiler(r);
    add_words(cmd, "STENCILC_MPI_COMPILE_FLAGS", STENCILC_MPI_COMPILE_FLAGS);
    if (r.compile_only)
      return compile_step(cmd, r);
    cmd.insert(cmd.end(), r.cxxflags.begin(), r.cxxflags.end());
    cmd.insert(cmd.end(), r.sources.begin(), r.sources.end());
    cmd.insert(cmd.end(), r.objects.begin(), r.objects.end());
    if (r.link_runtime) {
      // The CPU engine (the temporal plan) and the distributed runtime, before the core they use.
      cmd.push_back(runtime_library("cpu"));
      cmd.push_back(runtime_library("mpi"));
      add_core_libraries(cmd, true);
    }
    add_words(cmd, "STENCILC_MPI_LINK_FLAGS", STENCILC_MPI_LINK_FLAGS);
    cmd.insert(cmd.end(), {"-o", r.exe});
    return cmd;
  }
  std::vector<std::string> launch(const std::string &exe, int ranks) const override {
    return mpirun(exe, ranks);
  }

private:
  std::string name_ = "mpi-openmp";
};

// CUDA and HIP: one generator (codegen/gpu.cpp), the output differing only through
// stencilc/gpu/device.h. A build for the device uses nvcc or hipcc; a build for the CPU
// execution layer (verify without a GPU, tests) the host C++ compiler. `distributed`: mpi-cuda
// and mpi-hip, the same generator over a distributed lowering (each rank's block on its device,
// the distributed runtime stencilc_rt_mpi on the host), Open MPI's wrapper flags, mpirun.
class GpuTarget final : public Target {
public:
  enum class Api { Cuda, Hip };
  explicit GpuTarget(Api api, bool distributed = false)
      : api_(api), distributed_(distributed),
        name_(std::string(distributed ? "mpi-" : "") + (api == Api::Cuda ? "cuda" : "hip")) {}
  const std::string &name() const override { return name_; }
  bool generates_code() const override { return true; }
  stencilc::PlanRules plan_rules() const override {
    return {stencilc::Platform::Gpu, distributed_, name_};
  }
  std::vector<std::string> reserved_names() const override {
    // What device.h and the CUDA/HIP headers declare that generated code may meet.
    return {"threadIdx", "blockIdx", "blockDim",      "gridDim",       "dim3",
            "warpSize",  "atomicOr", "__syncthreads", "MPI_COMM_WORLD"};
  }
  std::string why_not_blocked(const ir::Program &p) const override {
    if (distributed_) {
      // Across ranks: the temporal plan with halos k steps deep; no streaming plan.
      const std::string temporal = gpu_temporal_unsupported(p);
      return temporal.empty() ? ""
                              : "the temporal plan does not apply to " + p.name + ": " + temporal;
    }
    const std::string stream = gpu_streaming_unsupported(p), temporal = gpu_temporal_unsupported(p);
    if (!stream.empty() && !temporal.empty())
      return fmt::format("no blocked plan applies to {}: streaming, {}; temporal, {}", p.name,
                         stream, temporal);
    if (!stream.empty())
      return "the streaming plan does not apply to " + p.name + ": " + stream;
    return temporal.empty() ? ""
                            : "the temporal plan does not apply to " + p.name + ": " + temporal;
  }
  std::string why_not(const stencilc::Plan &plan, const ir::Program &p) const override {
    if (distributed_ && plan.layout == stencilc::Layout::Aosoa)
      return fmt::format("{} copies each dimension's faces between the device and the host in "
                         "one pitched copy per face, which the interleaved rows of layout=aosoa "
                         "would break: it keeps layout=soa (aosoa: openmp, mpi-openmp, cuda, hip)",
                         name_);
    if (distributed_ && plan.naive() && plan.distribution && plan.distribution->k != 1)
      return fmt::format("{} exchanges halos every step under scheme=naive (k=1); halos k steps "
                         "deep come with scheme=temporal",
                         name_);
    if (distributed_ && plan.get<stencilc::scheme::GpuStreaming>())
      return fmt::format("{} does not generate the streaming plan across ranks (naive and "
                         "temporal: docs/MPI.md)",
                         name_);
    if (plan.naive())
      return "";
    if (plan.get<stencilc::scheme::GpuStreaming>()) {
      const std::string why = gpu_streaming_unsupported(p);
      return why.empty() ? "" : "the streaming plan does not apply to " + p.name + ": " + why;
    }
    const std::string why = gpu_temporal_unsupported(p, plan.get<stencilc::scheme::GpuTemporal>());
    return why.empty() ? "" : "the temporal plan does not apply to " + p.name + ": " + why;
  }
  std::vector<GeneratedFile> emit(const ir::Program &p, const Analysis &a,
                                  const lower::Lowered &l, const EmitOptions &opts) const override {
    return emit_gpu(p, a, l, opts, name_);
  }
  bool has_cpu_layer() const override { return true; }
  std::string arch_variable() const override {
    return api_ == Api::Cuda ? "STENCILC_CUDA_ARCH" : "STENCILC_HIP_ARCH";
  }
  bool reports_ptxas() const override { return api_ == Api::Cuda; }
  std::string no_device() const override {
    // The device files the drivers create: without them no kernel can run here.
    const char *dev = api_ == Api::Cuda ? "/dev/nvidia0" : "/dev/kfd";
    std::error_code ec;
    if (std::filesystem::exists(dev, ec))
      return "";
    return fmt::format("no {} device here ({} is absent)", api_ == Api::Cuda ? "CUDA" : "HIP",
                       dev);
  }
  std::vector<std::string> compile_command(const CompileRequest &r) const override {
    std::vector<std::string> cmd;
    if (r.cpu_layer) {
      // The host compiler, no contraction (rounds exactly as the interpreter), the layer's
      // blocks on OpenMP threads, its checking mode (shared memory bounds and races).
      cmd = {compiler_of(r), "-std=c++17",           kCpuLayerOpt,
             "-fopenmp",     "-ffp-contract=off",    "-Wall",
             "-Wextra",      "-DSTENCILC_GPU_CHECK", "-I" + runtime_include_dir()};
    } else if (api_ == Api::Cuda) {
      // No fused multiply-adds, as on the host: results round as the interpreter's.
      cmd = {device_compiler(), "-std=c++17", "-O3", "-x", "cu", "--expt-relaxed-constexpr",
             "-fmad=false", "-I" + runtime_include_dir()};
      const auto list = r.archs.empty() ? archs(arch_variable().c_str(), "sm_80") : r.archs;
      for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string &arch = list[i];
        const std::string n = arch.rfind("sm_", 0) == 0 ? arch.substr(3) : arch;
        // The last one's PTX too: a newer GPU's driver compiles it (sm_80 code runs on an H100).
        cmd.push_back(fmt::format(i + 1 < list.size()
                                      ? "-gencode=arch=compute_{0},code=sm_{0}"
                                      : "-gencode=arch=compute_{0},code=[sm_{0},compute_{0}]",
                                  n));
      }
    } else {
      cmd = {device_compiler(), "-std=c++17", "-O3", "-x", "hip", "-ffp-contract=off",
             "-I" + runtime_include_dir()};
      for (const auto &arch : r.archs.empty() ? archs(arch_variable().c_str(), "gfx90a") : r.archs)
        cmd.push_back("--offload-arch=" + arch);
    }
    if (distributed_) // Open MPI's include directories (mpicxx --showme:compile)
      add_words(cmd, "STENCILC_MPI_COMPILE_FLAGS", STENCILC_MPI_COMPILE_FLAGS);
    // overlap=host: the block's boundary on the host's cores, OpenMP threads (host code only).
    // (Not hipcc's: its clang 15 needs libomp-15-dev, which Debian will not install beside the
    // libomp-14-dev of clang 14; mpi-hip's host part runs on one thread.)
    if (distributed_ && !r.cpu_layer && api_ == Api::Cuda)
      cmd.push_back("-Xcompiler=-fopenmp");
    if (r.compile_only) {
      if (!r.cpu_layer)
        throw stencilc::Error("internal: a device build compiles and links in one command");
      return compile_step(cmd, r);
    }
    cmd.insert(cmd.end(), r.cxxflags.begin(), r.cxxflags.end());
    cmd.insert(cmd.end(), r.sources.begin(), r.sources.end());
    if (r.cpu_layer || api_ == Api::Hip) {
      if (!r.cpu_layer)
        cmd.insert(cmd.end(), {"-x", "none"}); // clang (hipcc): objects and libraries
      cmd.insert(cmd.end(), r.objects.begin(), r.objects.end());
    } else {
      for (const auto &o : r.objects) // -x cu: nvcc would read an object as CUDA
        cmd.insert(cmd.end(), {"-Xlinker", o});
    }
    if (r.cpu_layer) {
      cmd.push_back(runtime_library("gpucpu"));
      cmd.push_back(STENCILC_BOOST_CONTEXT_LIBRARY);
    }
    if (!r.cpu_layer && api_ == Api::Cuda) {
      // -x cu makes nvcc read every input as CUDA: the libraries go to the linker directly.
      std::vector<std::string> libs;
      if (distributed_)
        libs.push_back(runtime_library("mpi"));
      add_core_libraries(libs, distributed_);
      for (const auto &lib : libs)
        if (lib.rfind("-f", 0) == 0) {
          // A compiler-driver flag (the sanitizers of a sanitizer build): to the host compiler,
          // which also links; nvcc splits -Xcompiler at commas, so one option per value.
          const auto eq = lib.find('=');
          std::istringstream values(eq == std::string::npos ? "" : lib.substr(eq + 1));
          if (eq == std::string::npos)
            cmd.push_back("-Xcompiler=" + lib);
          for (std::string v; std::getline(values, v, ',');)
            cmd.push_back("-Xcompiler=" + lib.substr(0, eq + 1) + v);
        } else {
          cmd.insert(cmd.end(), {"-Xlinker", lib});
        }
    } else {
      if (distributed_) // the distributed runtime, before the core it uses
        cmd.push_back(runtime_library("mpi"));
      add_core_libraries(cmd, distributed_); // hipcc: after its -x none above
    }
    if (distributed_) // -L and -l of Open MPI (mpicxx --showme:link): nvcc and hipcc take them too
      add_words(cmd, "STENCILC_MPI_LINK_FLAGS", STENCILC_MPI_LINK_FLAGS);
    if (distributed_ && !r.cpu_layer && api_ == Api::Cuda)
      cmd.push_back("-lgomp"); // (nvcc links with the host compiler, without its -fopenmp)
    cmd.insert(cmd.end(), {"-o", r.exe});
    return cmd;
  }
  std::vector<std::string> launch(const std::string &exe, int ranks) const override {
    if (!distributed_)
      return Target::launch(exe, ranks);
    return mpirun(exe, ranks);
  }

private:
  static std::string env_or(const char *name, const std::string &fallback) {
    const char *v = std::getenv(name);
    return v && *v ? v : fallback;
  }
  // The architectures to compile for: $NAME as a comma-separated list, else `fallback`.
  static std::vector<std::string> archs(const char *name, const std::string &fallback) {
    std::vector<std::string> v;
    std::istringstream in(env_or(name, fallback));
    for (std::string a; std::getline(in, a, ',');)
      if (!a.empty())
        v.push_back(a);
    return v;
  }
  // $CUDACXX, else /usr/local/cuda/bin/nvcc if present, else nvcc on the PATH; $HIPCXX or hipcc.
  std::string device_compiler() const {
    if (api_ == Api::Hip)
      return env_or("HIPCXX", "hipcc");
    const std::string cuda = env_or("CUDACXX", "");
    if (!cuda.empty())
      return cuda;
    std::error_code ec;
    return std::filesystem::exists("/usr/local/cuda/bin/nvcc", ec) ? "/usr/local/cuda/bin/nvcc"
                                                                   : "nvcc";
  }
  Api api_;
  bool distributed_;
  std::string name_;
};

} // namespace

const std::vector<const Target *> &all_targets() {
  static const std::vector<std::unique_ptr<Target>> owned = [] {
    std::vector<std::unique_ptr<Target>> v;
    v.push_back(std::make_unique<OpenmpTarget>());
    v.push_back(std::make_unique<GpuTarget>(GpuTarget::Api::Cuda));
    v.push_back(std::make_unique<GpuTarget>(GpuTarget::Api::Hip));
    v.push_back(std::make_unique<MpiOpenmpTarget>());
    v.push_back(std::make_unique<GpuTarget>(GpuTarget::Api::Cuda, true));
    v.push_back(std::make_unique<GpuTarget>(GpuTarget::Api::Hip, true));
    return v;
  }();
  static const std::vector<const Target *> list = [] {
    std::vector<const Target *> v;
    for (const auto &t : owned)
      v.push_back(t.get());
    return v;
  }();
  return list;
}

std::string target_names(bool generating_only) {
  std::string s;
  for (const Target *t : all_targets())
    if (!generating_only || t->generates_code())
      s += (s.empty() ? "" : ", ") + t->name();
  return s;
}

const Target &find_target(const std::string &name) {
  for (const Target *t : all_targets())
    if (t->name() == name)
      return *t;
  throw stencilc::Error(fmt::format("unknown target '{}' (targets: {})", name, target_names()));
}

const Target &code_target(const std::string &name) {
  const Target &t = find_target(name);
  if (!t.generates_code())
    throw stencilc::Error(fmt::format("target '{}' is not implemented yet; this version "
                                      "generates code for: {}",
                                      name, target_names(true)));
  return t;
}

const std::vector<std::string> &reserved_by_targets() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const Target *t : all_targets())
      for (auto &n : t->reserved_names())
        v.push_back(n);
    return v;
  }();
  return names;
}

} // namespace stc
