// execute(): what an executable does with a Program once its params are known. Above the
// Program interface (program.h) and the writers of a run's files (output.h).
#pragma once
#include <cstdio>

#include "stencilc/options.h"
#include "stencilc/program.h"

namespace stencilc {

/// Does what an executable does after its params are known: init, load, run (timed), save,
/// and print the summary (text, or one JSON line under --json) to `out`.
/// The run goes in chunks of program.run(n) only when something happens between them: a
/// progress line (stderr is a terminal and not --json), --save-every, --history (one step
/// at a time). The summary's time counts program.run() alone, never the I/O.
/// Throws stencilc::Error on bad input.
void execute(Program &program, const RunOptions &opts, std::FILE *out = stdout);

/// The checks execute() makes of the options before doing anything (grid names of --load and
/// --save, --save-every, --history of a program without reductions); throws stencilc::Error.
/// They depend on the options and the program only, so every MPI rank finds the same.
void check_run_options(const Program &program, const RunOptions &opts);

} // namespace stencilc
