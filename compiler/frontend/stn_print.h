// An ast::Program as .stn text (`stencilc import`): what the Physis front end translated,
// written as a readable program a user can keep editing. Names that are keywords of .stn get
// the suffix _c (from C); the program's first comment lists them.
#pragma once
#include <map>
#include <string>

#include "frontend/ast.h"

namespace stc {

/// The program as .stn source; `origin` names the file it came from (a comment at the top).
/// `renamed` (if given) receives the names it changed, old -> new.
std::string print_stn(const ast::Program &p, const std::string &origin,
                      std::map<std::string, std::string> *renamed = nullptr);

/// An expression as .stn text (names as written).
std::string print_stn_expr(const ast::ExprPtr &e);

} // namespace stc
