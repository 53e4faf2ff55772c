// Clang's source locations as stencilc's (file, line, column): the main file is file 0 of the
// DiagEngine; a header gets an id (and a SourceFile for the caret line) the first time a
// diagnostic points into it. A location inside a macro expansion is the expansion's place in
// the file the user wrote (PSGridGet(...) rather than the header's _Generic).
#pragma once
#include <memory>
#include <vector>

#include <clang/Basic/SourceManager.h>

#include "support/diagnostics.h"

namespace stc {

class ClangLocations {
public:
  ClangLocations(const clang::SourceManager &sm, DiagEngine &diags,
                 std::vector<std::unique_ptr<SourceFile>> &headers)
      : sm_(sm), diags_(diags), headers_(headers) {}
  SourceLoc operator()(clang::SourceLocation loc) const;

private:
  const clang::SourceManager &sm_;
  DiagEngine &diags_;
  std::vector<std::unique_ptr<SourceFile>> &headers_;
};

} // namespace stc
