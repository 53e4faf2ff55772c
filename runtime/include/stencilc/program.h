// The interface every runnable program implements: generated classes and the reference
// interpreter alike, so that both are driven by the same code (execute.h: same options, same
// summary). An interface only: what runs a Program (execute.h) and what it writes (output.h)
// build on it, never the other way round.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "stencilc/error.h"
#include "stencilc/grid.h"

namespace stencilc {

/// A 64-bit integer carried bit for bit in a run state's double, and back (checkpoints keep
/// the bits of a state: an integer reduction's exact value past 2^53 survives a restart).
inline double int_bits(std::int64_t v) {
  double d;
  std::memcpy(&d, &v, sizeof d);
  return d;
}
inline std::int64_t bits_int(double d) {
  std::int64_t v;
  std::memcpy(&v, &d, sizeof v);
  return v;
}

class Program {
public:
  virtual ~Program() = default;
  virtual std::string name() const = 0;
  virtual std::string target() const = 0;
  virtual std::string plan() const = 0;
  /// Grid names in declaration order.
  virtual std::vector<std::string> grid_names() const = 0;
  /// These throw stencilc::Error for an unknown grid name or a bad file.
  virtual void load(const std::string &grid, const std::string &path) = 0;
  virtual void save(const std::string &grid, const std::string &path) const = 0;
  virtual double checksum(const std::string &grid) const = 0;
  /// The grid itself, for writers of every element type (time series). Throws
  /// stencilc::Error for an unknown name.
  virtual GridRef grid(const std::string &grid) const = 0;
  /// Fills every grid's interior with fill_random(seed, index of the grid).
  virtual void init_random(std::uint64_t seed) = 0;
  /// Steps the run block executes when --steps is not given (for `run until`, the limit).
  virtual std::int64_t default_steps() const = 0;
  /// Interior cells updated by one step (all kernel calls of the run block).
  virtual double cell_updates_per_step() const = 0;
  /// Runs the run block `steps` times, or for `run until` until the condition holds but at
  /// most `steps` times. Returns the number of steps done.
  virtual std::int64_t run(std::int64_t steps) = 0;
  /// Readies what the next run(steps) would otherwise allocate in its first steps (the CPU
  /// temporal engine's workspace), so that a run's time is its steps': execute() calls it
  /// before the clock starts.
  virtual void prepare(std::int64_t steps) { (void)steps; }
  /// The named run blocks (`run NAME: N { ... }`), in declaration order; none for most programs.
  virtual std::vector<std::string> blocks() const { return {}; }
  /// A named block's own count of steps (its `run NAME: N`, with this run's params).
  virtual std::int64_t block_steps(const std::string &block) const {
    throw Error("no run block named '" + block + "'");
  }
  /// Runs the named block `steps` times. Throws stencilc::Error for an unknown name.
  virtual void run_block(const std::string &block, std::int64_t steps) {
    (void)steps;
    throw Error("no run block named '" + block + "'");
  }
  /// Every named block its own count of steps, in declaration order: what a run does before
  /// the main block (execute(), verify), not timed.
  void prologue() {
    for (const auto &b : blocks())
      run_block(b, block_steps(b));
  }
  /// True for a `run until` program.
  virtual bool has_condition() const { return false; }
  /// For `run until`: whether the last run stopped because the condition held.
  virtual bool converged() const { return false; }
  /// The latest value of every reduction, in declaration order (NaN if never computed).
  virtual std::vector<std::pair<std::string, double>> reductions() const { return {}; }
  /// The integer reductions (a sum, min, max or product of int values) among them that have
  /// been computed, with their exact 64-bit values (reductions() rounds them past 2^53).
  virtual std::vector<std::pair<std::string, std::int64_t>> integer_reductions() const {
    return {};
  }
  /// Threads the program computes with (1 for the interpreter; per process for MPI).
  virtual int threads() const = 0;
  /// false on the MPI ranks other than 0: they take part in every gather behind grid(),
  /// save() and checksum() but write no file and print nothing (execute()).
  virtual bool writes_files() const { return true; }
  /// MPI: the processes (0 when not distributed) and the most halo messages one of them has
  /// sent (collective: every rank calls it).
  virtual int ranks() const { return 0; }
  virtual std::int64_t messages() const { return 0; }
  /// MPI: the seconds this rank has spent so far in each phase of its halo refreshes (not
  /// collective; execute() reports the slowest rank's share of the steps): "exchange" (the
  /// distributed runtime's packing, messages and unpacking), for the GPU targets' refreshes
  /// through the host also "d2h" and "h2d" (the faces' copies; timed where they block).
  virtual std::vector<std::pair<std::string, double>> phase_seconds() const { return {}; }

  // Checkpoints (checkpoint.h, execute()). A program without a fingerprint has none.
  /// The program's identity for checkpoints: stencilc::fingerprint() of its IR and param values.
  virtual std::string fingerprint() const { return {}; }
  /// The scalars a run carries from one step to the next besides its grids: for every
  /// reduction its latest value, its first value (first(r)) and whether it was computed (1 or
  /// 0), then whether the last run converged, then each integer reduction's exact value
  /// (int_bits).
  virtual std::vector<double> run_state() const { return {}; }
  virtual void set_run_state(const std::vector<double> &state) { (void)state; }
  /// Replaces a grid's interior with `whole`'s (the whole grid, no halo; MPI: rank 0's is
  /// scattered, the others pass a null pointer). Collective. Throws stencilc::Error for an
  /// unknown grid or a `whole` of another type or shape.
  virtual void restore(const std::string &grid, const GridRef &whole) { (void)grid, (void)whole; }
  /// MPI: rank 0's `values` on every rank; elsewhere `values`. Collective.
  virtual std::vector<double> broadcast(std::vector<double> values) const { return values; }
  /// MPI: returns once every rank has called it (so that their clocks start together); elsewhere
  /// at once. Collective.
  virtual void synchronize() const {}
  /// MPI: the largest of the ranks' `seconds` (a run takes as long as its slowest rank);
  /// elsewhere `seconds`. Collective.
  virtual double slowest(double seconds) const { return seconds; }
  /// Throws on every rank if rank 0's `message` is not empty: a file only rank 0 reads or
  /// writes gives every rank the same verdict (MPI: CollectiveError). Collective.
  virtual void agree(const std::string &message) const {
    if (!message.empty())
      throw Error(message);
  }
};

} // namespace stencilc
