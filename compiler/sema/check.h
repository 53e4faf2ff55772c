// Semantic checks: ast::Program -> checked ir::Program, reporting every error found.
#pragma once
#include <optional>

#include "frontend/ast.h"
#include "ir/eval.h"
#include "ir/ir.h"
#include "support/diagnostics.h"

namespace stc {

/// Resolves names, types every expression (inserting casts), reduces grid subscripts to
/// constant offsets, and enforces the language rules (docs/LANGUAGE.md, "Rules"). Computes
/// the grids' halo widths. Returns nullopt if any error was reported.
/// `target_reserved`: names the targets' generated code declares (target/target.h
/// reserved_by_targets()), refused like C++ keywords.
std::optional<ir::Program> check(const ast::Program &prog, DiagEngine &diags,
                                 const std::vector<std::string> &target_reserved = {});

/// Values of the params from their defaults (and `overrides` by name, already typed).
/// Throws stencilc::Error naming the param for a missing value or a bad default.
std::vector<ir::Scalar> resolve_params(
    const ir::Program &p, const std::function<bool(const std::string &, ir::Type, ir::Scalar &)>
                              &override_of);

} // namespace stc
