#include "driver/build.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "driver/process.h"
#include "interp/interpreter.h"
#include "optimizer/planner.h"
#include "optimizer/ptxas_registers.h"
#include "sema/check.h"
#include "sema/params.h"
#include "stencilc/error.h"
#include "stencilc/execute.h"
#include "stencilc/npy.h"
#include "support/diagnostics.h"
#include "target/ptxas_usage.h"
#include "target/runtime_paths.h"
#include "target/target.h"

namespace stc {
namespace fs = std::filesystem;

namespace {

std::string env_or(const char *name, const std::string &fallback) {
  const char *v = std::getenv(name);
  return v && *v ? v : fallback;
}

// Test hook (tests/mutation): STENCILC_TEST_MUTATE=REGEX and STENCILC_TEST_MUTATE_TO=TEXT
// replace every match in the emitted sources (ECMAScript, $1 for groups), a deliberate bug that
// the end-to-end tests must catch. A line is added to STENCILC_TEST_MUTATE_SEEN (a file) for
// every source changed, so that a regex the emitted code no longer matches does not pass as a
// mutation that survived or, worse, as one that tests nothing.
std::string mutated_for_test(const std::string &text) {
  const char *pattern = std::getenv("STENCILC_TEST_MUTATE");
  if (!pattern || !*pattern)
    return text;
  try {
    std::string out =
        std::regex_replace(text, std::regex(pattern), env_or("STENCILC_TEST_MUTATE_TO", ""));
    const char *seen = std::getenv("STENCILC_TEST_MUTATE_SEEN");
    if (out != text && seen && *seen)
      std::ofstream(seen, std::ios::app) << "mutated\n";
    return out;
  } catch (const std::regex_error &e) {
    throw stencilc::Error(fmt::format("STENCILC_TEST_MUTATE={}: {}", pattern, e.what()));
  }
}

// A C source of the program (a Physis program's host code) compiled into an object beside it,
// with $CC (else cc), as C11 with GNU extensions (the Physis header uses _Generic), without
// contraction (the host code's arithmetic rounds as written).
std::string compile_c(const std::string &src, bool verbose) {
  const std::string obj = src.substr(0, src.size() - 2) + ".o";
  const std::vector<std::string> cmd = {env_or("CC", "cc"),
                                        "-std=gnu11",
                                        "-O2",
                                        "-ffp-contract=off",
                                        "-I" + runtime_include_dir(),
                                        "-c",
                                        src,
                                        "-o",
                                        obj};
  if (verbose)
    std::fprintf(stderr, "stencilc: %s\n", command_line(cmd).c_str());
  const int rc = run_process(cmd);
  if (rc == 127)
    throw stencilc::Error(fmt::format("cannot run the C compiler '{}' (set CC)", cmd[0]));
  if (rc != 0)
    throw stencilc::Error(fmt::format("the C compiler failed (exit {}) on {}; command: {}", rc, src,
                                      command_line(cmd)));
  return obj;
}

} // namespace

std::vector<std::string> emit_sources(const Compiled &c, const std::string &target_name,
                                      const std::string &dir, const EmitRequest &req) {
  const Target &target = code_target(target_name);
  if (c.lowered.distributed != target.plan_rules().distributed)
    internal_error(fmt::format("the program was lowered for a {} target, not for {}",
                               c.lowered.distributed ? "distributed" : "single-process",
                               target_name));
  PlanSource source = PlanSource::Model;
  EmitOptions opts;
  opts.plan = plan_to_emit(c.program, c.analysis, target, req.plan, req.machine, source);
  if (req.plan_from_ptxas)
    source = PlanSource::ModelRegisters;
  opts.plan_comment = plan_comment(c.program, c.analysis, target, req.machine, opts.plan, source);
  opts.format = req.format;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw stencilc::Error(fmt::format("cannot create output directory '{}'", dir));
  std::vector<std::string> paths;
  std::vector<GeneratedFile> files = target.emit(c.program, c.analysis, c.lowered, opts);
  if (c.physis_host) {
    // A Physis program: its host code, rewritten, and the Physis API it calls.
    files.push_back(emit_physis_shim(c.program, c.lowered, opts, target_name));
    files.push_back({c.program.name + "_host.c", *c.physis_host});
  }
  for (const auto &f : files) {
    const std::string path = (fs::path(dir) / f.name).string();
    std::ofstream out(path, std::ios::binary);
    out << mutated_for_test(f.text);
    if (!out.good())
      throw stencilc::Error(fmt::format("cannot write '{}'", path));
    paths.push_back(path);
  }
  return paths;
}

namespace {

// Emits the sources for `emit` into `dir` and compiles them into `exe` (stderr of the compiler
// into `log` if not empty, shown again if it fails).
void compile_sources(const Compiled &c, const BuildOptions &opts, const EmitRequest &emit,
                     const std::string &dir, const std::vector<std::string> &archs,
                     const std::vector<std::string> &extra_flags, const std::string &log,
                     const std::string &exe) {
  const Target &target = code_target(opts.target);
  CompileRequest req;
  const auto ends_with = [](const std::string &s, const std::string &end) {
    return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
  };
  for (const auto &s : emit_sources(c, opts.target, dir, emit)) {
    // A Physis program's main() is its own host code (NAME_host.c), not stencilc's driver.
    if (c.physis_host && ends_with(s, "_main.cpp"))
      continue;
    if (ends_with(s, ".cpp"))
      req.sources.push_back(s);
    else if (ends_with(s, ".c"))
      req.objects.push_back(compile_c(s, opts.verbose));
  }
  req.exe = exe;
  req.cxx = opts.cxx;
  req.cxxflags = opts.cxxflags;
  req.cxxflags.insert(req.cxxflags.end(), extra_flags.begin(), extra_flags.end());
  req.cpu_layer = opts.cpu_layer;
  req.archs = archs;
  // Runs one command; its stderr into `log` (if not empty) and shown again as the compiler
  // would have shown it, less the ptxas report stencilc asked for.
  auto run = [&](const std::vector<std::string> &cmd, const std::string &cwd) {
    if (opts.verbose)
      std::fprintf(stderr, "stencilc: %s%s\n", cwd.empty() ? "" : ("(in " + cwd + ") ").c_str(),
                   command_line(cmd).c_str());
    const int rc = run_process(cmd, "", log, cwd);
    if (rc == 127)
      throw stencilc::Error(fmt::format(
          "cannot run the C++ compiler '{}' (set CXX or --cxx{})", cmd[0],
          std::getenv("STENCILC_COMPILER_LAUNCHER") ? ", or STENCILC_COMPILER_LAUNCHER" : ""));
    if (!log.empty()) {
      bool asked = rc != 0;
      for (const auto &f : opts.cxxflags)
        asked = asked || f.find("ptxas") != std::string::npos;
      static const std::regex report(R"(^(ptxas info|\s+\d+ bytes stack frame))");
      std::ifstream in(log, std::ios::binary);
      for (std::string line; std::getline(in, line);)
        if (asked || !std::regex_search(line, report))
          std::fprintf(stderr, "%s\n", line.c_str());
    }
    if (rc != 0)
      throw stencilc::Error(fmt::format("the C++ compiler failed (exit {}) on the generated code; "
                                        "command: {}{}",
                                        rc, cwd.empty() ? "" : "cd " + cwd + " && ",
                                        command_line(cmd)));
  };
  const bool device = target.plan_rules().platform == stencilc::Platform::Gpu && !opts.cpu_layer;
  if (device) { // nvcc and hipcc: compiled and linked in one command
    run(target.compile_command(req), "");
    return;
  }
  // A host build compiles each source by itself, in its directory under its own name (so that
  // the command and what it reads are the same for the same program wherever the sources are:
  // STENCILC_COMPILER_LAUNCHER=ccache then finds earlier builds of it), then links.
  std::vector<std::string> launcher;
  if (const char *l = std::getenv("STENCILC_COMPILER_LAUNCHER")) {
    std::istringstream words(l);
    for (std::string w; words >> w;)
      launcher.push_back(w);
  }
  CompileRequest link = req;
  link.sources.clear();
  std::vector<std::string> objects;
  for (const auto &source : req.sources) {
    CompileRequest one = req;
    one.compile_only = true;
    const fs::path path(source);
    one.sources = {path.filename().string()};
    one.exe = path.stem().string() + ".o";
    std::vector<std::string> cmd = launcher;
    for (auto &word : target.compile_command(one)) {
      // A compiler named by a relative path (CXX=./bin/g++) from where stencilc was started.
      if (cmd.size() == launcher.size() && word.find('/') != std::string::npos)
        word = fs::absolute(word).string();
      cmd.push_back(word);
    }
    run(cmd, path.parent_path().empty() ? "." : path.parent_path().string());
    objects.push_back((path.parent_path() / one.exe).string());
  }
  link.objects.insert(link.objects.begin(), objects.begin(), objects.end());
  run(target.compile_command(link), "");
}

// The model's choice again with the registers ptxas reported in `log` for the profile's
// architecture (nullopt: none reported, or the program cannot be sized), and what to say.
std::optional<model::Prediction> choice_with_registers(const Compiled &c, const Target &target,
                                                       const model::Machine &m,
                                                       const std::string &log, std::string &note) {
  std::ifstream in(log, std::ios::binary);
  const auto usage =
      stencilc::target::parsePtxasUsage(std::string(std::istreambuf_iterator<char>(in), {}));
  try {
    model::Cost cost = program_cost(c.program, c.analysis, param_values(c.program, {}));
    std::set<std::string> archs;
    if (!add_ptxas_registers(c.program, usage, m.arch, cost, &archs)) {
      std::string built;
      for (const auto &a : archs)
        built += (built.empty() ? "" : ", ") + a;
      note = fmt::format("ptxas reported no kernel for {}, {}'s architecture (built for {}; "
                         "--machine {} or STENCILC_CUDA_ARCH={} builds for it): the model's "
                         "choice stands without registers",
                         m.arch, m.name, built.empty() ? "none" : built, m.name, m.arch);
      return std::nullopt;
    }
    return plan_candidates(c.program, target, m, cost).front();
  } catch (const stencilc::Error &e) {
    note = fmt::format("the model cannot use ptxas's registers: {}", e.what());
  } catch (const ir::EvalError &e) {
    note = fmt::format("the model cannot use ptxas's registers: {}", e.what());
  }
  return std::nullopt;
}

} // namespace

void build_executable(const Compiled &c, const BuildOptions &opts, const std::string &exe) {
  const Target &target = code_target(opts.target);
  TempDir tmp;
  const std::string dir = opts.keep_sources.empty() ? tmp.path() : opts.keep_sources;
  if (opts.cpu_layer && !target.has_cpu_layer())
    throw stencilc::Error(
        fmt::format("target '{}' has no CPU execution layer (GPU targets do)", opts.target));
  const bool device = target.plan_rules().platform == stencilc::Platform::Gpu && !opts.cpu_layer;
  if (!device) {
    compile_sources(c, opts, opts.emit, dir, {}, {}, "", exe);
    return;
  }
  // A device build for a profile named with --machine compiles for its architecture, unless
  // STENCILC_CUDA_ARCH / STENCILC_HIP_ARCH choose.
  std::string from;
  const model::Machine m = model::load_machine(opts.emit.machine, stencilc::Platform::Gpu, from);
  std::vector<std::string> archs;
  if (!opts.emit.machine.empty() && !m.arch.empty() &&
      env_or(target.arch_variable().c_str(), "").empty())
    archs = {m.arch};
  // cuda, the model's plan: ptxas's registers feed the model's occupancy (as explain --ptxas);
  // a plan they change is emitted and compiled again.
  if (!target.reports_ptxas() || !opts.emit.plan.empty()) {
    compile_sources(c, opts, opts.emit, dir, archs, {}, "", exe);
    return;
  }
  const std::string log = tmp.path() + "/ptxas.log";
  compile_sources(c, opts, opts.emit, dir, archs, {"-Xptxas=-v"}, log, exe);
  PlanSource source = PlanSource::Model;
  const stencilc::Plan built =
      plan_to_emit(c.program, c.analysis, target, "", opts.emit.machine, source);
  if (source != PlanSource::Model)
    return;
  std::string note;
  const auto best = choice_with_registers(c, target, m, log, note);
  if (best && best->plan == built)
    note = fmt::format("ptxas's registers ({}) keep the model's choice, {}", m.arch,
                       stencilc::to_string(built));
  if (!best || best->plan == built) {
    if (opts.verbose)
      std::fprintf(stderr, "stencilc: %s\n", note.c_str());
    return;
  }
  std::fprintf(stderr,
               "stencilc: ptxas's registers (%s) change the model's choice on %s: %s instead of "
               "%s; compiling it\n",
               m.arch.c_str(), m.name.c_str(), stencilc::to_string(best->plan).c_str(),
               stencilc::to_string(built).c_str());
  EmitRequest again = opts.emit;
  again.plan = stencilc::to_string(best->plan);
  again.plan_from_ptxas = true;
  compile_sources(c, opts, again, dir, archs, {}, "", exe);
}

namespace {

// One line about a grid compared: "bit for bit equal  ok", or how many cells differ and the
// first of them (its [x, y, ...] index and both values).
std::string grid_verdict(const stencilc::NpyDiff &d, const char *a, const char *b, double tol) {
  if (d.differing == 0)
    return tol == 0 ? "bit for bit equal  ok"
                    : fmt::format("within {:.1e} relative, cell by cell (largest {:.3e})  ok", tol,
                                  d.max_rel);
  std::string at;
  for (std::size_t k = 0; k < d.first_index.size(); ++k)
    at += (k ? ", " : "") + std::to_string(d.first_index[k]);
  return fmt::format("{} cell{} differ{}{}, the first at [{}]: {:.17g} {}, {:.17g} {}  MISMATCH",
                     d.differing, d.differing == 1 ? "" : "s", d.differing == 1 ? "s" : "",
                     tol == 0 ? "" : fmt::format(" by more than {:.1e} relative", tol), at,
                     d.first_a, a, d.first_b, b);
}

// A reduction in a --json summary: a number, or "inf", "-inf", "nan" (JSON has no such
// numbers; "nan" also stands for a reduction never computed).
double summary_number(const nlohmann::json &v) {
  if (v.is_number())
    return v.get<double>();
  const std::string s = v.is_string() ? v.get<std::string>() : "nan";
  return s == "inf" ? HUGE_VAL : s == "-inf" ? -HUGE_VAL : std::nan("");
}

// The relative difference allowed between the generated code's reduction and the
// interpreter's, whose grids agree: min and max are exact whatever the order; sum and norm2 are
// accumulated in double, in another order by the threads, which recursive summation bounds by
// (n - 1) ulp relative for terms of one sign; a product of n terms in any order is within
// (n - 1) ulp relative too (each multiplication rounds by at most one). `given` is --tolerance
// (0 if not given).
// Floating sums and products depend on the order of combination; integer ones
// (ir::integer_reduction) are exact in any order, as min and max are.
double reduction_tolerance(const ir::Reduction &r, std::int64_t terms, double given) {
  const ir::ReduceOp op = r.op;
  const bool ordered =
      !ir::integer_reduction(r) &&
      (op == ir::ReduceOp::Sum || op == ir::ReduceOp::Norm2 || op == ir::ReduceOp::Prod);
  const double order = ordered ? std::max<double>(1, static_cast<double>(terms)) * DBL_EPSILON : 0;
  return std::max(order, given);
}

// NaN equals only NaN and an infinity only itself, whatever the tolerance.
bool reductions_agree(double a, double b, double rel_tol) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  if (a == b)
    return true;
  if (std::isinf(a) || std::isinf(b))
    return false;
  return std::fabs(a - b) <= rel_tol * std::max(std::fabs(a), std::fabs(b));
}

// Small sizes for a quick comparison: size params with a literal default are capped at 24,
// but never below what the stencil needs.
std::vector<std::pair<std::string, std::string>> small_sizes(const ir::Program &p,
                                                             const stencilc::ParamSet &given) {
  std::map<int, int> need; // param index -> smallest extent the stencils allow
  for (const auto &g : p.grids)
    for (int d = 0; d < g.rank; ++d)
      if (g.extents[d]->op == ir::Op::Param) {
        int &n = need[g.extents[d]->id];
        n = std::max(n, 2 * g.halo[d] + 1);
      }
  std::vector<std::pair<std::string, std::string>> sets;
  for (const auto &[pi, n] : need) {
    const auto &q = p.params[pi];
    if (given.has(q.name) || !q.init || q.init->op != ir::Op::IntConst)
      continue;
    const std::int64_t v = std::min<std::int64_t>(q.init->ival, std::max(24, n));
    if (v != q.init->ival)
      sets.emplace_back(q.name, std::to_string(v));
  }
  return sets;
}

} // namespace

int verify(const Compiled &c, const VerifyOptions &opts) {
  const ir::Program &p = c.program;
  const Target &target = code_target(opts.build.target);
  const bool distributed = target.plan_rules().distributed;
  if (!opts.procs.empty() && !distributed)
    throw stencilc::Error(fmt::format("--procs: target '{}' runs one process", target.name()));
  if (!opts.np.empty() && !distributed)
    throw stencilc::Error(fmt::format("--np: target '{}' runs one process (--np is for the "
                                      "distributed targets)",
                                      target.name()));
  for (int n : opts.np)
    if (n < 1 || n > 64)
      throw stencilc::Error(fmt::format("--np {}: expected process counts from 1 to 64", n));
  const std::vector<int> nps = opts.np.empty() ? std::vector<int>{1} : opts.np;
  TempDir tmp;
  const std::string exe = tmp.path() + "/" + p.name;
  // A GPU target runs on its device if there is one here, else through the CPU layer.
  BuildOptions build = opts.build;
  std::string where;
  if (target.has_cpu_layer()) {
    const std::string why = target.no_device();
    build.cpu_layer = build.cpu_layer || !why.empty();
    where = build.cpu_layer ? "  ran through the CPU execution layer: " +
                                  (why.empty() ? std::string("--cpu-layer") : why) + "\n"
                            : "  ran on the " + opts.build.target + " device\n";
  }
  build_executable(c, build, exe);

  stencilc::RunOptions run = opts.run;
  for (auto &s : small_sizes(p, stencilc::ParamSet(run.sets)))
    run.sets.push_back(s);
  Interpreter interp(p, param_values(p, run));
  if (!run.steps)
    run.steps = std::min<std::int64_t>(interp.default_steps(), 5);
  run.init_random = opts.seed;
  run.json = true;

  std::string sizes;
  for (const auto &[k, v] : run.sets)
    sizes += fmt::format(" {}={}", k, v);
  const std::string how = opts.tolerance == 0
                              ? std::string("grids compared bit for bit")
                              : fmt::format("grids compared within --tolerance {:g} (relative, "
                                            "cell by cell)",
                                            opts.tolerance);
  std::printf("verify %s --target %s:%s%s %lld steps, seed %llu; %s\n", p.name.c_str(),
              opts.build.target.c_str(), sizes.c_str(), sizes.empty() ? "" : ",",
              static_cast<long long>(*run.steps), static_cast<unsigned long long>(opts.seed),
              how.c_str());
  std::fputs(where.c_str(), stdout);
  std::fflush(stdout);

  stencilc::RunOptions ref = run;
  ref.saves.clear();
  for (const auto &g : p.grids)
    ref.saves.emplace_back(g.name, tmp.path() + "/ref_" + g.name + ".npy");
  // One job of the executable: the compiled-in plan, then (--also-plan) each of `plans`, the
  // run n's grids saved as PREFIX_G.n.npy (n >= 1) and its summary the n-th line of
  // PREFIX.json. One start of the job on each process count, whatever the number of plans.
  auto run_exe = [&](const std::vector<std::string> &plans, const std::string &prefix, int ranks) {
    std::vector<std::string> cmd = target.launch(exe, ranks);
    cmd.insert(cmd.end(), {"--json", "--steps", std::to_string(*run.steps), "--init-random",
                           std::to_string(opts.seed)});
    if (!opts.procs.empty()) {
      cmd.push_back("--procs");
      cmd.push_back(opts.procs);
    }
    for (const auto &plan : plans) {
      cmd.push_back("--also-plan");
      cmd.push_back(plan);
    }
    for (const auto &[k, v] : run.sets) {
      cmd.push_back("--set");
      cmd.push_back(k + "=" + v);
    }
    for (const auto &[k, v] : run.loads) {
      cmd.push_back("--load");
      cmd.push_back(k + "=" + v);
    }
    for (const auto &g : p.grids) {
      cmd.push_back("--save");
      cmd.push_back(g.name + "=" + tmp.path() + "/" + prefix + "_" + g.name + ".npy");
    }
    if (opts.build.verbose)
      std::fprintf(stderr, "stencilc: %s\n", command_line(cmd).c_str());
    const int rc = run_process(cmd, tmp.path() + "/" + prefix + ".json");
    if (rc != 0)
      throw stencilc::Error(
          fmt::format("the generated executable failed (exit {}): {}", rc, command_line(cmd)));
  };
  // The interpreter's summary goes to a file too: only the comparison is printed.
  {
    std::FILE *f = std::fopen((tmp.path() + "/ref.json").c_str(), "w");
    if (!f)
      throw stencilc::Error("cannot write in " + tmp.path());
    try {
      stencilc::execute(interp, ref, f);
    } catch (...) {
      std::fclose(f);
      throw;
    }
    std::fclose(f);
  }

  bool ok = true;
  auto summary = [&](const std::string &file, std::size_t line = 0) {
    return read_json_line(tmp.path() + "/" + file, "verify: cannot read the summary in " + file,
                          line);
  };
  const auto ref_sum = summary("ref.json");
  // --bitwise: on the process count the plans run on (every one for a distributed target), the
  // same job runs scheme=naive and then each plan after the compiled-in plan.
  std::vector<std::string> plans;
  if (!opts.bitwise.empty()) {
    plans.push_back("scheme=naive");
    plans.insert(plans.end(), opts.bitwise.begin(), opts.bitwise.end());
  }
  auto gen_prefix = [&](int ranks) {
    return distributed ? fmt::format("gen{}", ranks) : std::string("gen");
  };
  // The executable on each process count, compared with the interpreter's one run.
  for (const int ranks : nps) {
    const std::string gen = gen_prefix(ranks);
    if (distributed)
      std::printf("  on %d process%s (%s)\n", ranks, ranks == 1 ? "" : "es",
                  command_line(target.launch(p.name, ranks)).c_str());
    run_exe(distributed || ranks == nps.front() ? plans : std::vector<std::string>{}, gen, ranks);
    // Grids: bit for bit unless --tolerance (element by element, relative).
    std::int64_t cells = 0; // the largest grid's: the most terms a reduction adds
    for (const auto &g : p.grids) {
      const auto diff =
          stencilc::npy_compare(tmp.path() + "/" + gen + "_" + g.name + ".npy",
                                tmp.path() + "/ref_" + g.name + ".npy", opts.tolerance);
      cells = std::max(cells, diff.count);
      ok &= diff.differing == 0;
      std::printf("  grid %-12s %-6s %10lld cells  %s\n", g.name.c_str(),
                  g.wide ? "long" : ir::type_name(g.type), static_cast<long long>(diff.count),
                  grid_verdict(diff, "generated", "interpreter", opts.tolerance).c_str());
    }
    // Iterations and reductions, from the two summaries.
    const auto gen_sum = summary(gen + ".json");
    const std::int64_t gen_steps = gen_sum["steps"], ref_steps = ref_sum["steps"];
    const bool steps_ok = gen_steps == ref_steps;
    ok &= steps_ok;
    std::printf("  steps        %lld generated, %lld interpreter  %s\n",
                static_cast<long long>(gen_steps), static_cast<long long>(ref_steps),
                steps_ok ? "ok" : "MISMATCH");
    for (const auto &r : p.reductions) {
      const auto &ga = gen_sum["reductions"][r.name], &rb = ref_sum["reductions"][r.name];
      if (ir::integer_reduction(r) && ga.is_number_integer() && rb.is_number_integer()) {
        // Exact 64-bit values on both sides (the summary prints them as integers).
        const std::int64_t a = ga.get<std::int64_t>(), b = rb.get<std::int64_t>();
        ok &= a == b;
        std::printf("  reduction %-12s %lld generated, %lld interpreter  (exact, 64-bit)  %s\n",
                    r.name.c_str(), static_cast<long long>(a), static_cast<long long>(b),
                    a == b ? "ok" : "MISMATCH");
        continue;
      }
      const double a = summary_number(gen_sum["reductions"][r.name]);
      const double b = summary_number(ref_sum["reductions"][r.name]);
      const double tol = reduction_tolerance(r, cells, opts.tolerance);
      const bool agree = reductions_agree(a, b, tol);
      ok &= agree;
      std::printf("  reduction %-12s %.17g generated, %.17g interpreter  (%s)  %s\n",
                  r.name.c_str(), a, b,
                  tol == 0 ? "exact" : fmt::format("within {:.1e} relative", tol).c_str(),
                  agree ? "ok" : "MISMATCH");
    }
  }
  std::printf("%s: %s\n", p.name.c_str(),
              ok ? "the generated code agrees with the interpreter"
                 : "the generated code DIFFERS from the interpreter");
  // Other plans of the same build: the same bits as naive, grid by grid.
  // A distributed target: on every process count, against its own naive run.
  if (!opts.bitwise.empty()) {
    bool all = true;
    for (const int ranks : distributed ? nps : std::vector<int>{nps.front()}) {
      const std::string gen = gen_prefix(ranks);
      const std::string where =
          distributed ? fmt::format(" on {} process{}", ranks, ranks == 1 ? "" : "es") : "";
      const auto naive = summary(gen + ".json", 1);
      for (std::size_t i = 0; i < opts.bitwise.size(); ++i) {
        const auto sum = summary(gen + ".json", i + 2);
        std::string differs;
        for (const auto &g : p.grids) {
          const auto diff = stencilc::npy_compare(
              tmp.path() + "/" + fmt::format("{}_{}.{}.npy", gen, g.name, i + 2),
              tmp.path() + "/" + fmt::format("{}_{}.1.npy", gen, g.name));
          if (diff.differing)
            differs += fmt::format("{}grid {}: {}", differs.empty() ? "" : "; ", g.name,
                                   grid_verdict(diff, "this plan", "naive", 0));
        }
        if (sum["steps"] != naive["steps"])
          differs += (differs.empty() ? "" : "; ") + std::string("the step count");
        auto reductions = [](const nlohmann::json &j) {
          return j.contains("reductions") ? j["reductions"].dump() : std::string();
        };
        if (reductions(sum) != reductions(naive))
          differs += (differs.empty() ? "" : "; ") + std::string("the reductions");
        all &= differs.empty();
        std::printf("  plan %-40s%s %s\n", sum["plan"].get<std::string>().c_str(), where.c_str(),
                    differs.empty() ? "bitwise equal to scheme=naive  ok"
                                    : ("DIFFERS from scheme=naive: " + differs).c_str());
      }
    }
    std::printf("%s: %s\n", p.name.c_str(),
                all ? "every plan gives the naive plan's bits"
                    : "a plan DIFFERS from the naive plan");
    ok &= all;
  }
  return ok ? 0 : 1;
}

} // namespace stc
