// Parsing: .stn text -> ast::Program, with lexer and parser errors reported through DiagEngine.
#pragma once
#include <optional>

#include "frontend/ast.h"
#include "support/diagnostics.h"

namespace stc {

/// Returns the AST, or nullopt after reporting every syntax error found.
std::optional<ast::Program> parse(const SourceFile &file, DiagEngine &diags);

} // namespace stc
