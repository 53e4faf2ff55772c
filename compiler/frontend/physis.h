// Physis programs in: a C file written against the Physis API (runtime/include/physis/physis.h),
// parsed by Clang (libTooling: the real C front end, with macros, includes and types) and
// translated into the same ast::Program a .stn file gives, so one sema checks both (docs/PHYSIS.md).
//
// Two steps, one file each: physis_clang.cpp runs Clang and forwards its diagnostics;
// physis_translate.cpp turns the kernels and the PSStencilMap / PSStencilRun / PSReduce calls of
// main() into the AST; physis_host.cpp rewrites the host code around them for `stencilc build`.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "support/diagnostics.h"

namespace stc {

/// Whether a path names a Physis C program (by its extension, .c) rather than a .stn one.
bool is_physis_path(const std::string &path);

/// Parses `file` (file 0 of `diags`) with Clang, looking for physis/physis.h in `include_dirs`,
/// and translates it. Returns nullopt after reporting every error through `diags` (Clang's own,
/// located in the C file or a header, and what stencilc does not support, located too). The
/// headers a diagnostic points into (file ids 1.. of `diags`) are added to `headers`, which
/// must outlive `diags`. With `host_text`, the host code is also rewritten into it
/// (rewrite_physis_host, physis_host.h), or an error reported.
std::optional<ast::Program> parse_physis(const SourceFile &file, DiagEngine &diags,
                                         const std::vector<std::string> &include_dirs,
                                         std::vector<std::unique_ptr<SourceFile>> &headers,
                                         std::string *host_text = nullptr);

} // namespace stc
