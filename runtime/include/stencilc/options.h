// Run options shared by `stencilc run` and every generated executable.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

namespace stencilc {

struct RunOptions {
  std::vector<std::pair<std::string, std::string>> sets;  // --set NAME=VALUE (repeatable)
  std::optional<std::int64_t> steps;                      // --steps N (N >= 0)
  std::vector<std::pair<std::string, std::string>> loads; // --load GRID=FILE (.npy .h5 .hdf5)
  std::vector<std::pair<std::string, std::string>> saves; // --save GRID=FILE (.npy .h5 .hdf5)
  std::int64_t save_every = 0;                            // --save-every N (N >= 1; 0: off)
  std::string history;                                    // --history FILE.csv
  std::string plan;                                       // --plan KEY=VALUE,... (raw)
  std::vector<std::string> also_plans;                    // --also-plan KEY=VALUE,... (repeatable)
  bool json = false;                                      // --json
  std::optional<std::uint64_t> init_random;               // --init-random SEED
  std::string checkpoint;                                 // --checkpoint FILE
  std::int64_t checkpoint_every = 0;                      // --every N (N >= 1; 0: at the end)
  std::string restart;                                    // --restart FILE
};

/// Adds the run options to a CLI11 app (used by the stencilc driver and by parse_run_options).
/// NAME=VALUE arguments are validated by CLI11 (missing '=' or empty parts are rejected).
void add_run_options(CLI::App &app, RunOptions &opts);

/// The options of run `n` of an executable (0 <= n <= opts.also_plans.size()): run 0 is the run
/// `opts` asks for; run n >= 1 runs the plan of the n-th --also-plan from the same start (the
/// same params, --load, --init-random and --steps), its --save files named with ".n" before
/// their extension (u.npy: u.1.npy). The returned options name no --also-plan.
RunOptions nth_run(const RunOptions &opts, std::size_t n);

/// What an error of run `n` is prefixed with, so that a bad --also-plan (or a failure in its
/// run) names the option and says the runs before it completed: "" for run 0.
std::string nth_run_context(const RunOptions &opts, std::size_t n);

/// Parses argv of a generated executable. Returns -1 when the program should go on, or the
/// exit code to return right away (0 after --help, 2 after a usage error, with the message
/// already printed to stderr).
int parse_run_options(int argc, char **argv, const std::string &description, RunOptions &out);

/// Parameter overrides from --set, with typed lookups and clear errors.
class ParamSet {
public:
  ParamSet() = default;
  explicit ParamSet(const std::vector<std::pair<std::string, std::string>> &sets);
  bool has(const std::string &name) const;
  /// Throws stencilc::Error("--set NAME=VALUE: 'VALUE' is not an integer") etc.
  std::int64_t get_int(const std::string &name) const;
  double get_double(const std::string &name) const;
  /// Throws stencilc::Error naming the first --set whose name is not in `known`, and listing
  /// the known names.
  void check_known(const std::vector<std::string> &known) const;

private:
  std::vector<std::pair<std::string, std::string>> sets_; // last one wins on repeats
};

} // namespace stencilc
