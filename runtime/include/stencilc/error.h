// Errors the runtime reports to users (bad files, bad options, bad sizes).
#pragma once
#include <stdexcept>
#include <string>

namespace stencilc {

/// A user-facing error: the message is complete and printed as "error: <what()>".
struct Error : std::runtime_error {
  explicit Error(const std::string &msg) : std::runtime_error(msg) {}
};

} // namespace stencilc
