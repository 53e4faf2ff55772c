// Parsing: .stn text -> ast::Program, with lexer and parser errors reported through DiagEngine.
#pragma once
#include <optional>

#include "frontend/ast.h"
#include "support/diagnostics.h"

namespace stc {

/// Returns the AST, or nullopt after reporting every syntax error found. `file` is file 0 of
/// `diags` (a .stn program is one file): every location carries FileId 0.
std::optional<ast::Program> parse(const SourceFile &file, DiagEngine &diags);

} // namespace stc
