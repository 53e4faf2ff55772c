// Reading a .stn file, refusing what is not one (missing, a directory, empty, binary).
#pragma once
#include <optional>
#include <string>

#include "support/diagnostics.h"

namespace stc {

/// Returns the file, or nullopt with `error` set to a one-line message (without "error: ").
std::optional<SourceFile> read_source(const std::string &path, std::string &error);

} // namespace stc
