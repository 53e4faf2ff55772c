// The third step of the Physis front end (physis.h): the host code of a Physis program kept and
// rewritten with Clang's Rewriter, so `stencilc build prog.c` makes the program the user wrote.
// The translator (physis_translate.cpp) records which calls of main() it turned into what; this
// file rewrites those calls into calls of the shim that stencilc generates next to the target's
// code (templates/physis/host.cpp.mustache: the Physis API over the generated C++ API), drops
// the kernel functions (they are in the generated code), and leaves everything else as written.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

#include "frontend/physis_locations.h"

namespace stc {

/// The calls of main() the translator turned into parts of the stencil program.
struct PhysisHostCalls {
  /// PSGrid*New(...) and the stencilc grid it became; for a grid of a user-defined type (a
  /// struct), the struct's C type and, per scalar of it, the stencilc grid that holds it
  /// (sema/structs.h) and its member designator in C (r[1][0]).
  struct GridNew {
    const clang::CallExpr *call;
    std::string name;
    std::string c_type;
    std::vector<std::pair<std::string, std::string>> members;
  };
  std::vector<GridNew> grids;
  /// PSStencilMap(...) held in a variable (a map written inside PSStencilRun goes with it).
  std::vector<const clang::CallExpr *> maps;
  /// The PSStencilRun calls and the run block each runs (an index in the translator's order,
  /// until finished); run_blocks: per call, the block's name ("" for the main block).
  std::vector<std::pair<const clang::CallExpr *, std::size_t>> runs;
  std::vector<std::string> run_blocks;
  /// PSReduce(&v, op, g) and the stencilc reduction it became.
  std::vector<std::pair<const clang::CallExpr *, std::string>> reduces;
  /// The kernel functions the maps apply.
  std::set<const clang::FunctionDecl *> kernels;
};

/// The main file of the program, rewritten: the text of a C file that calls the shim (declared
/// by physis/physis.h) where it called PSGrid*New, PSStencilMap, PSStencilRun and PSReduce, with
/// the kernels and the functions that read grids replaced by comments of as many lines (a
/// `#line` at the top keeps the compiler's messages in the user's file). nullopt after
/// reporting, located, what cannot be rewritten (a call written through a macro whose text is
/// not in the main file).
std::optional<std::string> rewrite_physis_host(clang::ASTContext &ctx, const PhysisHostCalls &calls,
                                               const std::string &path, DiagEngine &diags,
                                               const ClangLocations &locs);

} // namespace stc
