#include "stencilc/options.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

#include "stencilc/error.h"

namespace stencilc {

namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

// Rejects a missing '=' or an empty side; `shape` is the placeholder shown in the message.
CLI::Validator name_value(const std::string &shape) {
  return CLI::Validator(
      [shape](std::string &s) -> std::string {
        auto eq = s.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == s.size())
          return "expected " + shape + ", got '" + s + "'";
        return "";
      },
      "");
}

// A repeatable NAME=VALUE option, one value per occurrence, so that it never swallows the
// positional arguments of a host app that follow it.
CLI::Option *add_pairs(CLI::App &app, const std::string &name, const std::string &shape, Pairs &out,
                       const std::string &help) {
  return app
      .add_option_function<std::vector<std::string>>(
          name,
          [&out](const std::vector<std::string> &values) {
            for (const std::string &v : values) {
              auto eq = v.find('=');
              out.emplace_back(v.substr(0, eq), v.substr(eq + 1));
            }
          },
          help)
      ->type_name(shape)
      ->allow_extra_args(false)
      ->check(name_value(shape));
}

// An integer option's lower bound (CLI11 reports a non-integer itself).
CLI::Validator at_least(std::int64_t min) {
  return CLI::Validator(
      [min](std::string &s) -> std::string {
        std::int64_t v = 0;
        if (CLI::detail::lexical_cast(s, v) && v < min)
          return "must be >= " + std::to_string(min) + ", got " + s;
        return "";
      },
      "");
}

std::string set_str(const std::pair<std::string, std::string> &s) {
  return "--set " + s.first + "=" + s.second;
}

} // namespace

void add_run_options(CLI::App &app, RunOptions &opts) {
  add_pairs(app, "--set", "NAME=VALUE", opts.sets, "override a param (repeatable)");
  app.add_option_function<std::int64_t>(
         "--steps", [&opts](const std::int64_t &n) { opts.steps = n; },
         "number of time steps to run (overrides the program's default)")
      ->type_name("N")
      ->check(at_least(0));
  add_pairs(app, "--load", "GRID=FILE", opts.loads,
            "read a grid's interior from a .npy file (indexed [x, y, z] in Fortran order as --save "
            "writes it, or [z, y, x] in C order unless the grid is a cube), or from the dataset "
            "GRID of an HDF5 file (.h5, .hdf5) (repeatable)");
  CLI::Option *save =
      add_pairs(app, "--save", "GRID=FILE", opts.saves,
                "write a grid's interior after the run to a .npy file, or to an HDF5 file (.h5, "
                ".hdf5) with an XDMF file for ParaView and VisIt (repeatable)");
  CLI::Option *save_every =
      app.add_option(
             "--save-every", opts.save_every,
             "write every --save grid after every N steps and at the end, as a time series: "
             "FILE_000040.npy, or datasets /GRID/000040 of one HDF5 file")
          ->type_name("N")
          ->needs(save)
          ->check(at_least(1));
  CLI::Option *history =
      app.add_option("--history", opts.history,
                     "write every reduction's value after every step to a CSV file (the run then "
                     "goes one step at a time: temporal plans run unblocked)")
          ->type_name("FILE.csv");
  CLI::Option *checkpoint =
      app.add_option("--checkpoint", opts.checkpoint,
                     "write a checkpoint of the run (every grid, the step, the reductions) to "
                     "FILE at the end, and after every N steps with --every; written to FILE.tmp "
                     "then renamed, so an interrupted write leaves the previous one")
          ->type_name("FILE");
  app.add_option("--every", opts.checkpoint_every,
                 "write the --checkpoint after every N steps (and at the end)")
      ->type_name("N")
      ->needs(checkpoint)
      ->check(at_least(1));
  CLI::Option *restart =
      app.add_option("--restart", opts.restart,
                     "continue from a checkpoint of the same program and params: --steps still "
                     "counts the whole run, so it ends as a run that never stopped")
          ->type_name("FILE");
  app.add_option("--plan", opts.plan, "override the optimizer's plan")->type_name("KEY=VALUE,...");
  // Several plans in one job: what a comparison of plans under mpirun would otherwise pay in
  // starts of the job (0.2-0.4 s each on a small machine, more than a small run takes).
  app.add_option("--also-plan", opts.also_plans,
                 "after the run, run again from the same start with this plan (repeatable: one "
                 "run per --also-plan, in order); the n-th writes its --save files with \".n\" "
                 "before the extension (u.npy: u.1.npy) and prints its own summary")
      ->type_name("KEY=VALUE,...")
      ->allow_extra_args(false)
      ->excludes(save_every)
      ->excludes(history)
      ->excludes(checkpoint)
      ->excludes(restart);
  app.add_flag("--json", opts.json, "print a one-line JSON summary");
  app.add_option_function<std::uint64_t>(
         "--init-random", [&opts](const std::uint64_t &seed) { opts.init_random = seed; },
         "fill every grid that is not loaded with deterministic pseudo-random values")
      ->type_name("SEED")
      ->check(CLI::Validator(
          [](std::string &s) -> std::string {
            // CLI11 would wrap "-3" around to 2^64 - 3.
            return s.find('-') == std::string::npos ? "" : "must be >= 0, got " + s;
          },
          ""));
}

RunOptions nth_run(const RunOptions &opts, std::size_t n) {
  RunOptions r = opts;
  r.also_plans.clear();
  if (n == 0)
    return r;
  if (n > opts.also_plans.size())
    throw Error("run " + std::to_string(n) + ": only " + std::to_string(opts.also_plans.size()) +
                " --also-plan given");
  r.plan = opts.also_plans[n - 1];
  for (auto &[grid, file] : r.saves) {
    // The extension is the last '.' of the file's own name (not of a directory's).
    const std::size_t slash = file.find_last_of('/');
    const std::size_t dot = file.find_last_of('.');
    const bool has_ext =
        dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
    const std::size_t at = has_ext ? dot : file.size();
    file.insert(at, "." + std::to_string(n));
  }
  return r;
}

std::string nth_run_context(const RunOptions &opts, std::size_t n) {
  if (n == 0 || n > opts.also_plans.size())
    return "";
  return "--also-plan " + opts.also_plans[n - 1] + " (run " + std::to_string(n + 1) + " of " +
         std::to_string(opts.also_plans.size() + 1) + "; the runs before it completed): ";
}

int parse_run_options(int argc, char **argv, const std::string &description, RunOptions &out) {
  CLI::App app{description};
  add_run_options(app, out);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return -1;
}

ParamSet::ParamSet(const std::vector<std::pair<std::string, std::string>> &sets) : sets_(sets) {}

bool ParamSet::has(const std::string &name) const {
  return std::any_of(sets_.begin(), sets_.end(), [&](const auto &s) { return s.first == name; });
}

namespace {

const std::pair<std::string, std::string> &find_set(const Pairs &sets, const std::string &name) {
  auto it =
      std::find_if(sets.rbegin(), sets.rend(), [&](const auto &s) { return s.first == name; });
  if (it == sets.rend())
    throw Error("no --set for param '" + name + "'");
  return *it;
}

// from_chars rejects a leading '+', which users reasonably type.
std::string_view strip_plus(const std::string &v) {
  std::string_view s = v;
  if (s.size() > 1 && s[0] == '+' && s[1] != '-' && s[1] != '+')
    s.remove_prefix(1);
  return s;
}

} // namespace

std::int64_t ParamSet::get_int(const std::string &name) const {
  const auto &s = find_set(sets_, name);
  std::string_view v = strip_plus(s.second);
  std::int64_t out = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec == std::errc::result_out_of_range && end == v.data() + v.size())
    throw Error(set_str(s) + ": '" + s.second + "' is out of range for a 64-bit integer");
  if (ec != std::errc() || end != v.data() + v.size() || v.empty())
    throw Error(set_str(s) + ": '" + s.second + "' is not an integer");
  return out;
}

double ParamSet::get_double(const std::string &name) const {
  const auto &s = find_set(sets_, name);
  std::string_view v = strip_plus(s.second);
  double out = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec == std::errc::result_out_of_range && end == v.data() + v.size())
    throw Error(set_str(s) + ": '" + s.second + "' is out of range for a double");
  if (ec != std::errc() || end != v.data() + v.size() || v.empty())
    throw Error(set_str(s) + ": '" + s.second + "' is not a number");
  if (!std::isfinite(out))
    throw Error(set_str(s) + ": '" + s.second + "' is not a finite number");
  return out;
}

void ParamSet::check_known(const std::vector<std::string> &known) const {
  for (const auto &s : sets_) {
    if (std::find(known.begin(), known.end(), s.first) != known.end())
      continue;
    std::string list;
    for (const auto &k : known)
      list += (list.empty() ? "" : ", ") + k;
    throw Error(set_str(s) + ": no param named '" + s.first + "' (" +
                (known.empty() ? std::string("the program has no params") : "params: " + list) +
                ")");
  }
}

} // namespace stencilc
