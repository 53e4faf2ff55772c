// stencilc: the command-line driver. Each subcommand is a few lines over the pipeline.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <new>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "analysis/analyze.h"
#include "codegen/codegen.h"
#include "driver/build.h"
#include "driver/calibrate.h"
#include "driver/explain.h"
#include "driver/import.h"
#include "driver/tune.h"
#include "driver/process.h"
#include "model/machine.h"
#include "driver/pipeline.h"
#include "frontend/physis.h"
#include "interp/interpreter.h"
#include "sema/check.h"
#include "sema/params.h"
#include "stencilc/error.h"
#include "stencilc/execute.h"
#include "target/ptxas_usage.h"

using namespace stc;

namespace {

// `stencilc ptxas-usage LOG`: the toolchain test's spill check (tests/e2e/gpu_toolchains.sh).
int ptxas_usage_command(const std::string &path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "error: %s: cannot read\n", path.c_str());
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  const auto usage = stencilc::target::parsePtxasUsage(text.str());
  if (usage.empty()) {
    std::fprintf(stderr, "error: %s: no ptxas resource usage (was -Xptxas -v passed?)\n",
                 path.c_str());
    return 1;
  }
  int max_regs = 0;
  for (const auto &k : usage)
    max_regs = std::max(max_regs, k.registers);
  const auto spills = stencilc::target::spillReport(usage);
  for (const auto &line : spills)
    std::printf("spill: %s\n", line.c_str());
  std::printf("%zu kernel compilations, at most %d registers, %zu spilling\n", usage.size(),
              max_regs, spills.size());
  return spills.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char **argv) {
  CLI::App app{"stencilc: a compiler for stencil programs (.stn, or Physis programs in C) to C++ "
               "with OpenMP, CUDA or HIP, alone or under MPI"};
  app.set_version_flag("--version", std::string("stencilc ") + stc::version());
  app.require_subcommand(1);

  std::string file;
  PipelineOptions popts;
  auto add_common = [&](CLI::App *sub) {
    sub->add_option("file", file,
                    "the program: a .stn file, or a Physis program in C (.c, docs/PHYSIS.md)")
        ->required();
    sub->add_flag("-v,--verbose", popts.verbose, "log each compiler step");
    sub->add_flag("--print-ir", popts.print_ir, "print the checked IR");
    sub->add_flag("--print-lowered", popts.print_lowered,
                  "print the lowered program: the run block as actions, the size checks, the "
                  "step's schedule");
  };

  bool stats = false;
  auto *check = app.add_subcommand("check", "parse and check a program; print diagnostics only");
  add_common(check);
  check->add_flag("--stats", stats, "print the analysis: radii, flops and loads per point");

  std::string import_out;
  auto *importc = app.add_subcommand(
      "import", "write a Physis program (.c) as a .stn program (docs/PHYSIS.md)");
  add_common(importc);
  importc->add_option("-o,--output", import_out, "the .stn file to write (default: stdout)");

  stencilc::RunOptions run;
  auto *runc = app.add_subcommand("run", "run a program with the reference interpreter");
  add_common(runc);
  stencilc::add_run_options(*runc, run);

  std::string planned_targets;
  for (const stc::Target *t : stc::all_targets())
    if (!t->generates_code())
      planned_targets += (planned_targets.empty() ? "" : ", ") + t->name();
  BuildOptions bopts;
  std::string out_dir, exe;
  auto add_build = [&](CLI::App *sub) {
    sub->add_option("--target,-t", bopts.target,
                    stc::target_names(true) +
                        (planned_targets.empty() ? "" : " (" + planned_targets + " are planned)"))
        ->capture_default_str();
    sub->add_option("--plan", bopts.emit.plan,
                    "KEY=VALUE,... the plan to compile in instead of the model's choice: "
                    "scheme=naive or scheme=temporal,k=K,rows=R");
    sub->add_option("--machine,-m", bopts.emit.machine,
                    "machine profile the model chooses the plan for: a built-in name or a JSON "
                    "file; default: the calibrated profile if present, else generic-cpu");
    sub->add_flag("--no-format", [&](std::int64_t) { bopts.emit.format = false; },
                  "do not run clang-format over the generated code");
  };
  auto *emit = app.add_subcommand("emit", "write the generated sources and header");
  add_common(emit);
  add_build(emit);
  emit->add_option("-o,--output", out_dir, "output directory")->required();
  bool list_outputs = false;
  emit->add_flag("--list-outputs", list_outputs,
                 "print the paths emit would write, one per line, and write nothing");

  auto add_cxx = [&](CLI::App *sub) {
    sub->add_option("--cxx", bopts.cxx, "C++ compiler (default: $CXX or c++)");
    sub->add_option("--cxxflag", bopts.cxxflags, "extra compiler flag (repeatable)");
    sub->add_option("--keep-sources", bopts.keep_sources, "write the generated sources here");
    sub->add_flag("--cpu-layer", bopts.cpu_layer,
                  "cuda, hip: build for the CPU execution layer (the host compiler; kernels run "
                  "on the CPU) instead of the device; verify does so when no GPU is present");
  };
  auto *build = app.add_subcommand("build", "emit and compile an executable");
  add_common(build);
  add_build(build);
  add_cxx(build);
  build->add_option("-o,--output", exe, "the executable to write")->required();

  VerifyOptions vopts;
  auto *verify = app.add_subcommand(
      "verify", "build the target, run it and the interpreter on the same small random inputs, "
                "compare every grid bit for bit, the step count and the reductions; exit 1 on "
                "any difference");
  add_common(verify);
  add_build(verify);
  add_cxx(verify);
  std::vector<std::string> vset_raw, eopts_sets;
  verify->add_option("--set", vset_raw, "NAME=VALUE override a param (default: small sizes)")
      ->check([](const std::string &s) {
        const auto eq = s.find('=');
        return eq == std::string::npos || eq == 0 ? std::string("expected NAME=VALUE") : "";
      });
  std::int64_t vsteps = -1;
  verify->add_option("--steps", vsteps, "steps to run (default: min(program default, 5))")
      ->check(CLI::NonNegativeNumber);
  verify->add_option("--seed", vopts.seed, "seed of the random inputs")->capture_default_str();
  verify->add_option("--np", vopts.np,
                     "N[,N...] MPI processes a distributed target runs with (under mpirun), "
                     "each compared with the interpreter; default 1")
      ->delimiter(',');
  verify->add_option("--procs", vopts.procs,
                     "AxBxC the process grid of every run (x first; its product must be the --np)");
  verify->add_option("--bitwise", vopts.bitwise,
                     "PLAN: also run with this plan; every grid must equal the naive plan's bit "
                     "for bit (repeatable)")
      ->type_name("PLAN");
  verify->add_option("--tolerance", vopts.tolerance,
                     "REL: grids agree cell by cell within this relative difference instead of "
                     "bit for bit (for a target whose math library rounds differently)")
      ->check(CLI::Range(0.0, 1.0))
      ->type_name("REL");

  ExplainOptions eopts;
  auto add_model = [&](CLI::App *sub) {
    sub->add_option("--machine,-m", eopts.machine,
                    "machine profile: a built-in name (h100-sxm, h200, a100-40gb, mi250x-gcd, "
                    "generic-cpu) or a JSON file; default: the calibrated profile if present");
    sub->add_option("--set", eopts_sets, "NAME=VALUE override a param (sizes change the choice)")
        ->check([](const std::string &s) {
          const auto eq = s.find('=');
          return eq == std::string::npos || eq == 0 ? std::string("expected NAME=VALUE") : "";
        });
  };
  auto *explainc = app.add_subcommand(
      "explain", "show the performance model's candidate plans and the one it chooses");
  add_common(explainc);
  explainc
      ->add_option("--target,-t", eopts.target,
                   stc::target_names(true) +
                       (planned_targets.empty()
                            ? std::string()
                            : "; the model also predicts the planned targets " + planned_targets +
                                  " (no code generation for them yet)"))
      ->capture_default_str();
  add_model(explainc);
  explainc->add_option("--ranks,-n", eopts.ranks, "MPI processes (mpi-* targets)")
      ->check(CLI::Range(1, 1 << 20));
  explainc->add_option("--plan", eopts.plan, "KEY=VALUE,... predict this plan instead");
  std::int64_t esteps = 0;
  explainc->add_option("--steps", esteps, "steps of the run to predict (default: the program's)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1000000000}));
  explainc->add_flag("--json", eopts.json, "print one JSON line");
  explainc->add_option("--ptxas", eopts.ptxas,
                       "a `nvcc -Xptxas -v` log of this program (cuda): the model's occupancy "
                       "term from the kernels' registers");

  TuneOptions topts;
  auto *tunec = app.add_subcommand(
      "tune", "build the candidate plans that run here, measure them, compare with the model");
  add_common(tunec);
  tunec->add_option("--target,-t", eopts.target, stc::target_names(true))->capture_default_str();
  add_model(tunec);
  add_cxx(tunec);
  tunec
      ->add_option("--steps", topts.steps,
                   "steps per measurement (default: CPU targets enough for about 0.5 s of the "
                   "model's fastest candidate, at least 10; GPU targets 10)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1000000000}));
  tunec->add_option("--rounds", topts.rounds, "measure every candidate N times (in turn), keep the median")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  tunec->add_option("--max-candidates", topts.max_candidates, "measure at most N plans")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  tunec->add_option("--plan", topts.plans,
                    "KEY=VALUE,... measure this plan beside the model's choice (repeatable), "
                    "instead of the model's best candidates");
  tunec->add_flag("!--no-probe", topts.probe,
                  "do not run calibrate's probes before each round (CPU targets, a calibrated "
                  "profile): price the candidates with the profile only");

  CalibrateOptions copts;
  auto *calib = app.add_subcommand("calibrate", "measure this machine for the performance model");
  calib->add_option("-o,--output", copts.output,
                    "profile to write (default: " + model::calibrated_machine_path() + ")");
  calib->add_option("--cxx", copts.cxx, "C++ compiler (default: $CXX or c++)");
  calib->add_flag("-v,--verbose", copts.verbose, "print the compiler command");
  calib->add_flag("!--no-mpi", copts.mpi,
                  "do not measure the latency and bandwidth between MPI ranks (2 processes under "
                  "mpirun; the network figures stay the defaults)");
  calib->add_flag("!--no-engine", copts.engine,
                  "do not time a generated heat3d program (~15 s): the sweeps' memory rate stays "
                  "the calibration loop's naive sweep and the engine's efficiency stays 1");

  std::string ptxas_log;
  auto *ptxasc = app.add_subcommand(
      "ptxas-usage", "summarise `nvcc -Xptxas -v` output per kernel; exit 1 if any kernel spills");
  ptxasc->add_option("log", ptxas_log, "file holding the ptxas output")->required();

  // CLI11 would only say "a subcommand is required" for a misspelt one.
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    std::string list;
    for (const auto *sub : app.get_subcommands({})) {
      known |= sub->get_name() == argv[1];
      list += (list.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      std::fprintf(stderr, "error: unknown command '%s' (commands: %s; see stencilc --help)\n",
                   argv[1], list.c_str());
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    // --help and --version exit 0; every usage error exits 2, like the generated programs.
    return app.exit(e) == 0 ? 0 : 2;
  }

  for (const auto &s : vset_raw) {
    const auto eq = s.find('=');
    vopts.run.sets.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  for (const auto &s : eopts_sets) {
    const auto eq = s.find('=');
    eopts.run.sets.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  if (ptxasc->parsed())
    return ptxas_usage_command(ptxas_log);
  if (calib->parsed()) {
    try {
      return calibrate(copts);
    } catch (const stencilc::Error &e) {
      std::fprintf(stderr, "error: %s\n", e.what());
      return 1;
    }
  }
  try {
    // A distributed target's lowering has halo exchanges (--print-lowered shows them).
    if (emit->parsed() || build->parsed() || verify->parsed())
      popts.distributed = find_target(bopts.target).plan_rules().distributed;
    if (explainc->parsed() || tunec->parsed())
      popts.distributed = find_target(eopts.target).plan_rules().distributed;
    // A Physis program's own host code is kept: emit writes it rewritten, build links it.
    if ((emit->parsed() || build->parsed()) && is_physis_path(file))
      popts.physis_host = true;
    auto compiled = compile(file, popts);
    if (!compiled)
      return 1;
    if (check->parsed()) {
      if (stats)
        std::fputs(report(compiled->program, compiled->analysis).c_str(), stdout);
      return 0;
    }
    if (importc->parsed())
      return import_program(*compiled, file, import_out);
    if (runc->parsed()) {
      if (!run.plan.empty())
        throw stencilc::Error("--plan " + run.plan + ": the interpreter has no plans; --plan "
                                                     "applies to emit, build and verify");
      if (!run.also_plans.empty())
        throw stencilc::Error("--also-plan " + run.also_plans.front() +
                              ": the interpreter has no plans; --also-plan is for the "
                              "executables stencilc build makes");
      Interpreter interp(compiled->program, param_values(compiled->program, run));
      stencilc::execute(interp, run);
      return 0;
    }
    bopts.verbose = popts.verbose;
    if (emit->parsed() && list_outputs) {
      // The same emission into a scratch directory: the list is exactly what emit writes.
      TempDir scratch;
      for (const auto &p : emit_sources(*compiled, bopts.target, scratch.path(), bopts.emit))
        std::printf("%s\n", (std::filesystem::path(out_dir) / std::filesystem::path(p).filename())
                                .string()
                                .c_str());
      return 0;
    }
    if (emit->parsed()) {
      for (const auto &p : emit_sources(*compiled, bopts.target, out_dir, bopts.emit))
        std::printf("wrote %s\n", p.c_str());
      return 0;
    }
    if (build->parsed()) {
      build_executable(*compiled, bopts, exe);
      std::printf("built %s\n", exe.c_str());
      return 0;
    }
    if (explainc->parsed()) {
      if (esteps > 0)
        eopts.run.steps = esteps;
      return explain(*compiled, eopts);
    }
    if (tunec->parsed()) {
      topts.explain = eopts;
      topts.build = bopts;
      return tune(*compiled, topts);
    }
    if (verify->parsed()) {
      vopts.build = bopts;
      if (vsteps >= 0)
        vopts.run.steps = vsteps;
      return stc::verify(*compiled, vopts);
    }
  } catch (const stencilc::Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "error: out of memory\n");
    return 1;
  }
  return 0;
}
