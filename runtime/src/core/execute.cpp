#include "stencilc/execute.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <set>

#include "stencilc/error.h"
#include "stencilc/history.h"
#include "stencilc/output.h"
#include "stencilc/progress.h"
#include "stencilc/summary.h"

namespace stencilc {

namespace {

struct RunResult {
  std::int64_t done = 0;
  double seconds = 0; // in program.run() only
};

// Runs `steps` steps in chunks, for what has to happen between them: a series entry after
// every `every` steps, a history line after every step, the progress line. run(n) composes
// (n steps in two calls compute what one call does), so the chunks change no result.
RunResult run_in_chunks(Program &program, std::int64_t steps, std::int64_t every,
                        RunOutputs &outputs, History *history, Progress &progress, Clock &clock) {
  RunResult r;
  ChunkSizer sizer;
  while (r.done < steps) {
    std::int64_t n = steps - r.done;
    if (history)
      n = 1; // every step's reductions
    if (progress.enabled())
      n = std::min(n, sizer.next());
    if (every)
      n = std::min(n, every - r.done % every);
    Timer timer; // the summary's time is real even under the test clock
    const double start = clock.seconds();
    const std::int64_t got = program.run(n);
    sizer.observe(n, clock.seconds() - start);
    r.seconds += timer.seconds();
    if (history && got > 0)
      history->record(r.done + got, program.reductions());
    r.done += got;
    if (every && got > 0 && r.done % every == 0)
      outputs.write(program, r.done);
    progress.update(r.done);
    // A `run until` program whose condition held stops here, as one run(steps) would.
    if (got < n || (program.has_condition() && program.converged()))
      break;
  }
  return r;
}

} // namespace

void check_run_options(const Program &program, const RunOptions &opts) {
  const std::vector<std::string> names = program.grid_names();
  auto check_grid = [&](const std::string &g, const char *option) {
    for (const auto &n : names)
      if (n == g)
        return;
    std::string list;
    for (const auto &n : names)
      list += (list.empty() ? "" : ", ") + n;
    throw Error(std::string(option) + " " + g + "=...: no grid named '" + g + "' (grids: " + list +
                ")");
  };
  for (const auto &[g, f] : opts.loads)
    check_grid(g, "--load");
  for (const auto &[g, f] : opts.saves)
    check_grid(g, "--save");
  if (opts.save_every < 0 || (opts.save_every > 0 && opts.saves.empty()))
    throw Error("--save-every " + std::to_string(opts.save_every) +
                ": needs N >= 1 and at least one --save");
  if (!opts.history.empty() && program.reductions().empty())
    throw Error("--history " + opts.history + ": " + program.name() +
                " has no reductions to record (declare one with `reduce`)");
}

void execute(Program &program, const RunOptions &opts, std::FILE *out) {
  const std::vector<std::string> names = program.grid_names();
  // Check every name and output file before doing any work, so a typo fails fast.
  check_run_options(program, opts);
  std::unique_ptr<History> history;
  if (!opts.history.empty() && program.writes_files()) {
    std::vector<std::string> reductions;
    for (const auto &[name, value] : program.reductions())
      reductions.push_back(name);
    history = std::make_unique<History>(opts.history, reductions);
  }
  RunOutputs outputs(program, opts.saves, opts.save_every);

  if (opts.init_random)
    program.init_random(*opts.init_random);
  for (const auto &[g, f] : opts.loads)
    program.load(g, f);

  const std::int64_t steps = opts.steps ? *opts.steps : program.default_steps();
  if (steps < 0)
    throw Error("the step count is " + std::to_string(steps) + "; it must be at least 0");
  Clock clock = Clock::from_environment();
  Progress progress(program.name(), steps, program.has_condition(),
                    !opts.json && program.writes_files() && ::isatty(STDERR_FILENO), clock);
  RunResult r;
  // Every rank of an MPI program takes the same chunks (its reductions agree on every rank).
  if (progress.enabled() || opts.save_every || !opts.history.empty()) {
    r = run_in_chunks(program, steps, opts.save_every, outputs, history.get(), progress, clock);
  } else {
    Timer timer;
    r.done = program.run(steps);
    r.seconds = timer.seconds();
  }
  progress.finish();

  if (outputs.last_step() != r.done) // the final state (a series' last entry)
    outputs.write(program, r.done);
  outputs.close();
  if (history)
    history->close();

  Summary s;
  s.stencil = program.name();
  s.target = program.target();
  s.plan = program.plan();
  s.steps = r.done;
  s.seconds = r.seconds;
  s.cell_updates = program.cell_updates_per_step() * static_cast<double>(r.done);
  s.until = program.has_condition();
  s.converged = program.converged();
  s.reductions = program.reductions();
  s.threads = program.threads();
  s.ranks = program.ranks();
  s.messages = program.messages();
  for (const auto &n : names)
    s.checksums.emplace_back(n, program.checksum(n));
  if (!program.writes_files())
    return;
  const std::string text = opts.json ? summary_json(s) + "\n" : summary_text(s);
  std::fputs(text.c_str(), out);
  std::fflush(out);
}

} // namespace stencilc
