// The run summary: one JSON line under --json, a short human-readable block otherwise.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stencilc {

struct Summary {
  std::string stencil; // program name
  std::string target;  // "interp", "openmp", ...
  std::string plan;    // e.g. "naive"
  std::int64_t steps = 0;
  double seconds = 0;      // time spent in the steps only
  double cell_updates = 0; // interior cells updated by all kernels over all steps
  int threads = 1;
  int ranks = 0;              // MPI processes (0: not distributed)
  std::int64_t messages = 0;  // MPI: halo messages sent by the rank that sent the most
  /// MPI: the seconds the slowest rank spent in each phase of its halo refreshes during the
  /// steps (Program::phase_seconds), in the program's order.
  std::vector<std::pair<std::string, double>> phases;
  std::vector<std::pair<std::string, double>> checksums; // per grid, declaration order
  std::vector<std::pair<std::string, double>> reductions; // latest values, declaration order
  /// The integer reductions' exact values (Program::integer_reductions), printed instead.
  std::vector<std::pair<std::string, std::int64_t>> integer_reductions;
  bool until = false;     // a `run until` program: `steps` counts iterations
  bool converged = false; // ... and whether its condition held
};

/// One line of JSON (no newline): {"stencil":..,"target":..,"plan":..,"steps":..,
/// "seconds":..,"cell_updates":..,"cells_per_second":..,"threads":..,"checksums":{"u":..},
/// "reductions":{"r":..}} with "converged":true|false after "steps" for `run until` programs,
/// and for MPI programs "ranks", "messages" and "phases":{"exchange":..} after "threads".
/// Doubles are printed with 17 significant digits so they round-trip.
std::string summary_json(const Summary &s);
/// Several human-readable lines ending in a newline.
std::string summary_text(const Summary &s);

class Timer {
public:
  Timer() : t0_(std::chrono::steady_clock::now()) {}
  void reset() { t0_ = std::chrono::steady_clock::now(); }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

private:
  std::chrono::steady_clock::time_point t0_;
};

} // namespace stencilc
