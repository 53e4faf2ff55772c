// `stencilc import prog.c [-o prog.stn]`: a Physis program written as a .stn program.
#pragma once
#include <string>

#include "driver/pipeline.h"

namespace stc {

/// Writes the program `path` (a checked Physis program) as .stn to `out` ("" = stdout), after
/// checking that the text parses and checks to the same program. Returns the exit code;
/// throws stencilc::Error for a .stn input or a file that cannot be written.
int import_program(const Compiled &c, const std::string &path, const std::string &out);

} // namespace stc
