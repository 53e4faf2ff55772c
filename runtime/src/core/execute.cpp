#include "stencilc/execute.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <set>

#include "stencilc/checkpoint.h"
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
  std::vector<std::pair<std::string, double>> phases; // the slowest rank's, in the steps
};

// Runs from step `r.done` to `steps` in chunks, for what has to happen between them: a series
// entry after every `every` steps, a checkpoint after every `ckpt_every` steps, a history line
// after every step, the progress line. Steps count from the start of the run (a restart's too),
// so a restarted run writes the same entries. run(n) composes (n steps in two calls compute
// what one call does), so the chunks change no result.
void run_in_chunks(Program &program, std::int64_t steps, std::int64_t every,
                   std::int64_t ckpt_every, RunOutputs &outputs,
                   const std::function<void(std::int64_t)> &checkpoint, History *history,
                   Progress &progress, Clock &clock, RunResult &r) {
  ChunkSizer sizer;
  while (r.done < steps) {
    std::int64_t n = steps - r.done;
    if (history)
      n = 1; // every step's reductions
    if (progress.enabled())
      n = std::min(n, sizer.next());
    if (every)
      n = std::min(n, every - r.done % every);
    if (ckpt_every)
      n = std::min(n, ckpt_every - r.done % ckpt_every);
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
    if (ckpt_every && got > 0 && r.done % ckpt_every == 0)
      checkpoint(r.done);
    progress.update(r.done);
    // A `run until` program whose condition held stops here, as one run(steps) would.
    if (got < n || (program.has_condition() && program.converged()))
      break;
  }
}

// A file only rank 0 touches: its error, if any, becomes every rank's (Program::agree).
template <typename F> void on_root(const Program &program, F &&f) {
  std::string error;
  if (program.writes_files()) {
    try {
      f();
    } catch (const Error &e) {
      error = e.what();
    }
  }
  program.agree(error);
}

// Writes the checkpoint after `step` steps (collective: the grids are gathered to rank 0).
void write_checkpoint_of(const Program &program, const std::string &path, std::int64_t step) {
  std::vector<GridRef> grids;
  for (const auto &n : program.grid_names())
    grids.push_back(program.grid(n));
  on_root(program, [&] {
    write_checkpoint(path, {program.name(), program.fingerprint(), step, program.run_state()},
                     grids);
  });
}

// Rank 0 reads and checks the checkpoint, every rank gets its verdict, step, state and (by
// scatter) grids. Returns the step it was written at.
std::int64_t restart_from(Program &program, const std::string &path) {
  Checkpoint c;
  const std::vector<std::string> names = program.grid_names();
  std::vector<double> carried;
  on_root(program, [&] {
    c = read_checkpoint(path);
    const CheckpointHeader &h = c.header;
    check_identity(path, h, program.name(), program.fingerprint());
    bool same = c.grids.size() == names.size();
    for (std::size_t i = 0; same && i < names.size(); ++i)
      same = grid_name(c.grid(i)) == names[i];
    if (!same || h.state.size() != program.run_state().size() || h.step < 0)
      throw Error("--restart " + path + ": corrupt: its grids or state do not match " + h.stencil);
    carried = h.state;
    carried.insert(carried.begin(), static_cast<double>(h.step));
  });
  carried = program.broadcast(carried);
  for (std::size_t i = 0; i < names.size(); ++i)
    program.restore(names[i], c.grids.empty() ? GridRef(static_cast<const Grid<float> *>(nullptr))
                                              : c.grid(i));
  program.set_run_state(std::vector<double>(carried.begin() + 1, carried.end()));
  return static_cast<std::int64_t>(carried.front());
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
  if (opts.checkpoint_every < 0 || (opts.checkpoint_every > 0 && opts.checkpoint.empty()))
    throw Error("--every " + std::to_string(opts.checkpoint_every) +
                ": needs N >= 1 and --checkpoint");
  if ((!opts.checkpoint.empty() || !opts.restart.empty()) && program.fingerprint().empty())
    throw Error(std::string(opts.restart.empty() ? "--checkpoint" : "--restart") + ": target " +
                program.target() + " does not write checkpoints");
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
  if (!opts.checkpoint.empty())
    on_root(program, [&] { check_checkpoint_path(opts.checkpoint); });

  if (opts.init_random)
    program.init_random(*opts.init_random);
  for (const auto &[g, f] : opts.loads)
    program.load(g, f);
  // The named run blocks run before the main one; a restart's checkpoint is after them.
  if (opts.restart.empty())
    program.prologue();

  const std::int64_t steps = opts.steps ? *opts.steps : program.default_steps();
  if (steps < 0)
    throw Error("the step count is " + std::to_string(steps) + "; it must be at least 0");
  // A restart replaces every grid and the carried state; --steps still counts from step 0.
  RunResult r;
  if (!opts.restart.empty()) {
    r.done = restart_from(program, opts.restart);
    if (r.done > steps)
      program.agree("--restart " + opts.restart + ": the checkpoint is at step " +
                    std::to_string(r.done) + ", beyond the run's " + std::to_string(steps) +
                    " steps (--steps counts the whole run, the steps before the checkpoint too)");
  }
  const std::int64_t start = r.done;
  // A `run until` checkpointed after its condition held has nothing left to do.
  const bool finished = start > 0 && program.has_condition() && program.converged();
  Clock clock = Clock::from_environment();
  Progress progress(program.name(), steps, program.has_condition(),
                    !opts.json && program.writes_files() && ::isatty(STDERR_FILENO), clock);
  std::int64_t checkpointed = -1; // the step of the latest checkpoint written
  const auto checkpoint = [&](std::int64_t step) {
    write_checkpoint_of(program, opts.checkpoint, step);
    checkpointed = step;
  };
  // Every rank of an MPI program takes the same chunks (its reductions agree on every rank).
  const bool chunked =
      progress.enabled() || opts.save_every || opts.checkpoint_every || !opts.history.empty();
  // The first block's workspace, outside the run's time (a run in chunks, whose time is the
  // chunks', allocates it in its first block as before).
  if (!finished && !chunked)
    program.prepare(steps - start);
  // MPI: the clocks start together, after the slowest rank's setup, and the run's time is the
  // slowest rank's (rank 0 alone may be early or late by its share of the setup).
  if (!finished)
    program.synchronize();
  const auto phases_before = program.phase_seconds();
  if (!finished && chunked) {
    run_in_chunks(program, steps, opts.save_every, opts.checkpoint_every, outputs, checkpoint,
                  history.get(), progress, clock, r);
  } else if (!finished) {
    Timer timer;
    r.done += program.run(steps - start);
    r.seconds = timer.seconds();
  }
  if (!finished)
    r.seconds = program.slowest(r.seconds);
  // (Saves and checkpoints between chunks refresh no halo.)
  const auto phases_after = program.phase_seconds();
  for (std::size_t i = 0; i < phases_after.size() && i < phases_before.size(); ++i)
    r.phases.emplace_back(phases_after[i].first,
                          program.slowest(phases_after[i].second - phases_before[i].second));
  progress.finish();
  if (!opts.checkpoint.empty() && checkpointed != r.done)
    checkpoint(r.done);

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
  s.cell_updates = program.cell_updates_per_step() * static_cast<double>(r.done - start);
  s.until = program.has_condition();
  s.converged = program.converged();
  s.reductions = program.reductions();
  s.integer_reductions = program.integer_reductions();
  s.threads = program.threads();
  s.ranks = program.ranks();
  s.messages = program.messages();
  s.phases = r.phases;
  for (const auto &n : names)
    s.checksums.emplace_back(n, program.checksum(n));
  if (!program.writes_files())
    return;
  const std::string text = opts.json ? summary_json(s) + "\n" : summary_text(s);
  std::fputs(text.c_str(), out);
  std::fflush(out);
}

} // namespace stencilc
