#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"
#include "codegen/codegen.h"

namespace stc {

std::string format_cxx(const std::string &code, const std::string &file_name) {
  clang::format::FormatStyle style = clang::format::getLLVMStyle();
  style.ColumnLimit = 100;
  // Comments are laid out by the generator: a long path in the opening comment must not pull the
  // lines after it (plan, prediction) into one paragraph.
  style.ReflowComments = false;
  const clang::tooling::Range all(0, static_cast<unsigned>(code.size()));
  const auto repl = clang::format::reformat(style, code, {all}, file_name);
  auto out = clang::tooling::applyAllReplacements(code, repl);
  if (!out) {
    llvm::consumeError(out.takeError());
    return code;
  }
  return *out;
}

} // namespace stc
