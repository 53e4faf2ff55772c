// Errors the runtime reports to users (bad files, bad options, bad sizes).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace stencilc {

/// A user-facing error: the message is complete and printed as "error: <what()>".
struct Error : std::runtime_error {
  explicit Error(const std::string &msg) : std::runtime_error(msg) {}
};

/// Integer division for values that come from the user (param defaults, sizes): a zero
/// divisor or an overflowing quotient is an Error instead of undefined behaviour.
inline std::int64_t checked_div(std::int64_t a, std::int64_t b) {
  if (b == 0)
    throw Error("integer division by zero in a param or size expression");
  if (b == -1 && a == INT64_MIN)
    throw Error("integer division overflows in a param or size expression");
  return a / b;
}

inline std::int64_t checked_mod(std::int64_t a, std::int64_t b) {
  if (b == 0)
    throw Error("integer division by zero in a param or size expression");
  if (b == -1)
    return 0;
  return a % b;
}

/// Integer division and remainder inside kernels, where throwing is not possible (OpenMP
/// regions): a zero divisor sets `err` and yields 0; the kernel reports it after the sweep.
inline std::int64_t kernel_div(std::int64_t a, std::int64_t b, int &err) {
  const bool bad = b == 0 || (b == -1 && a == INT64_MIN);
  err |= bad;
  return bad ? 0 : a / b;
}
inline std::int64_t kernel_mod(std::int64_t a, std::int64_t b, int &err) {
  const bool bad = b == 0;
  err |= bad;
  return bad || b == -1 ? 0 : a % b;
}

} // namespace stencilc
