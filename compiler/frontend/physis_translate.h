// The second step of the Physis front end (physis.h): Clang's AST of a Physis program -> ast::Program.
#pragma once
#include <optional>

#include <clang/AST/ASTContext.h>

#include "frontend/ast.h"
#include "frontend/physis_host.h"
#include "frontend/physis_locations.h"

namespace stc {

/// The kernels mapped by the program's PSStencilRun, its grids, domains, scalars and
/// reductions, as a stencilc AST; nullopt after reporting what cannot be translated. `host`
/// receives the calls of main() it translated (for rewrite_physis_host).
std::optional<ast::Program> translate_physis(clang::ASTContext &ctx, const SourceFile &file,
                                             DiagEngine &diags, const ClangLocations &locs,
                                             PhysisHostCalls &host);

} // namespace stc
