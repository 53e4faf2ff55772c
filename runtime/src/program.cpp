#include "stencilc/program.h"

#include <cstdio>
#include <set>

#include "stencilc/error.h"
#include "stencilc/summary.h"

namespace stencilc {

void execute(Program &program, const RunOptions &opts, std::FILE *out) {
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
  // Check every name before doing any work, so a typo fails fast.
  for (const auto &[g, f] : opts.loads)
    check_grid(g, "--load");
  for (const auto &[g, f] : opts.saves)
    check_grid(g, "--save");

  if (opts.init_random)
    program.init_random(*opts.init_random);
  for (const auto &[g, f] : opts.loads)
    program.load(g, f);

  const std::int64_t steps = opts.steps ? *opts.steps : program.default_steps();
  if (steps < 0)
    throw Error("the step count is " + std::to_string(steps) + "; it must be at least 0");
  Timer timer;
  const std::int64_t done = program.run(steps);
  const double seconds = timer.seconds();

  for (const auto &[g, f] : opts.saves)
    program.save(g, f);

  Summary s;
  s.stencil = program.name();
  s.target = program.target();
  s.plan = program.plan();
  s.steps = done;
  s.seconds = seconds;
  s.cell_updates = program.cell_updates_per_step() * static_cast<double>(done);
  s.until = program.has_condition();
  s.converged = program.converged();
  s.reductions = program.reductions();
  s.threads = program.threads();
  for (const auto &n : names)
    s.checksums.emplace_back(n, program.checksum(n));
  const std::string text = opts.json ? summary_json(s) + "\n" : summary_text(s);
  std::fputs(text.c_str(), out);
  std::fflush(out);
}

} // namespace stencilc
