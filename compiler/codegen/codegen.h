// Code generation entry points and what they share.
#pragma once
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "ir/ir.h"

namespace stc {

struct GeneratedFile {
  std::string name; // file name, no directory
  std::string text;
};

struct EmitOptions {
  std::string plan; // "" = the model's choice (build.cpp)
  std::string machine; // the model's machine profile for that choice ("" = the default)
  bool format = true; // run clang-format (libFormat) over the output
};

/// The openmp target: NAME.h (the documented API), NAME.cpp, NAME_main.cpp (the executable).
std::vector<GeneratedFile> emit_openmp(const ir::Program &p, const Analysis &a,
                                       const EmitOptions &opts);

/// Why the openmp temporal plan cannot run this program ("" if it can): rank, `run until`,
/// arithmetic that can fail per cell, ...
std::string temporal_unsupported(const ir::Program &p);

/// Template text by path under templates/ (embedded at build time).
const std::string &template_text(const std::string &path);

/// Formats C++ with clang's libFormat (LLVM style, 100 columns); returns the input on failure.
std::string format_cxx(const std::string &code, const std::string &file_name);

/// Version string of stencilc.
const char *version();

} // namespace stc
