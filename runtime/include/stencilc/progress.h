// The progress line of a long run on a terminal, and the chunks a run is cut into for it.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

#include "stencilc/summary.h"

namespace stencilc {

/// The line: "heat3d: 1200/5000 steps (24%), 412 steps/s, ETA 9 s". For a `run until` program
/// `total` is the iteration limit, so the ETA is an upper bound: "ETA <= 9 s".
std::string progress_text(const std::string &name, std::int64_t done, std::int64_t total,
                          bool until, double seconds);

/// Where the progress line and the chunk sizes read the time, in seconds. A fake clock advances
/// only by `tick` at every reading and by advance(): with it what depends on time is the same on
/// every machine. execute() uses a fake one when STENCILC_TEST_CLOCK_TICK=S is in the
/// environment (a test hook: the progress line then redraws at every chunk of one step).
class Clock {
public:
  static Clock real() { return Clock(false, 0); }
  static Clock fake(double tick) { return Clock(true, tick); }
  /// The real clock, or a fake one ticking STENCILC_TEST_CLOCK_TICK seconds if that is set.
  static Clock from_environment();
  double seconds() { return fake_ ? (now_ += tick_) : timer_.seconds(); }
  void advance(double s) { now_ += s; }

private:
  Clock(bool fake, double tick) : fake_(fake), tick_(tick) {}
  bool fake_;
  double tick_;
  double now_ = 0;
  Timer timer_;
};

/// One line on `out` (stderr), rewritten in place with '\r' at most five times a second and
/// erased by finish(), so that what follows starts on a clean line. Draws nothing unless
/// enabled (execute() enables it when stderr is a terminal and --json is not given), nor
/// during the first 0.2 s: short runs stay quiet.
class Progress {
public:
  Progress(std::string name, std::int64_t total, bool until, bool enabled, Clock &clock,
           std::FILE *out = stderr);
  ~Progress() { finish(); }
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

  bool enabled() const { return enabled_; }
  /// After `done` steps in all.
  void update(std::int64_t done);
  /// Erases the line, if one was drawn.
  void finish();

private:
  std::string name_;
  std::int64_t total_;
  bool until_;
  bool enabled_;
  std::FILE *out_;
  Clock &clock_;
  double drawn_at_ = 0;
  std::size_t width_ = 0; // of the line on screen (0: none)
};

/// Step counts of the chunks of a run with a progress line: from 1, then scaled by how long
/// the last chunk took (at most eightfold up, half down) so that one takes about `target`
/// seconds. Long enough that a temporal plan runs many blocks of k steps per chunk (a chunk's
/// end costs it about one block), short enough for the line to move.
class ChunkSizer {
public:
  explicit ChunkSizer(double target = 0.25) : target_(target) {}
  std::int64_t next() const { return next_; }
  /// A chunk of `steps` took `seconds`.
  void observe(std::int64_t steps, double seconds);

private:
  double target_;
  std::int64_t next_ = 1;
};

} // namespace stencilc
