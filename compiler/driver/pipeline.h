// The flat pipeline: read -> parse -> check -> analyze -> lower. Each step can log and print its
// IR.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "frontend/ast.h"
#include "ir/ir.h"
#include "lower/lowered.h"
#include "support/diagnostics.h"

namespace stc {

struct PipelineOptions {
  bool verbose = false;       // log each step to stderr
  bool print_ir = false;      // print the checked IR to stdout
  bool print_lowered = false; // print the lowered program to stdout
  bool distributed = false;   // lower for a distributed target (halo exchanges)
  bool physis_host = false;   // a Physis program: also rewrite its host code (build)
};

struct Compiled {
  std::unique_ptr<SourceFile> file;
  std::vector<std::unique_ptr<SourceFile>> headers; // a C program's, for its diagnostics
  ast::Program ast;                                 // as parsed (stencilc import prints it)
  ir::Program program;
  Analysis analysis;
  lower::Lowered lowered;
  /// A Physis program's host code, rewritten to call the generated code (physis_host.h), when
  /// PipelineOptions::physis_host asked for it.
  std::optional<std::string> physis_host;
};

/// Runs the front half of the compiler. On failure prints the diagnostics to stderr and
/// returns nullopt; warnings are printed either way.
std::optional<Compiled> compile(const std::string &path, const PipelineOptions &opts);

} // namespace stc
