// Errors the runtime reports to users (bad files, bad options, bad sizes).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

// The arithmetic helpers kernels call are device functions too under nvcc and hipcc (the cuda
// and hip targets' kernels use them as openmp's do).
#if defined(__CUDACC__) || defined(__HIPCC__)
#define STENCILC_HOST_DEVICE __host__ __device__
#else
#define STENCILC_HOST_DEVICE
#endif

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
  if (b == -1 && a == INT64_MIN)
    throw Error("integer division overflows in a param or size expression");
  return a % b;
}

/// int(x) of a value that may be NaN, infinite or beyond 64 bits (undefined behaviour in C++).
inline std::int64_t checked_to_int(double x) {
  if (!(x > -9.2e18 && x < 9.2e18))
    throw Error("conversion of " + std::to_string(x) + " to int overflows");
  return static_cast<std::int64_t>(x);
}

/// Error bits of kernel arithmetic, reported after a sweep (exceptions cannot leave an OpenMP
/// region): 1 division by zero, 2 division overflow, 4 out-of-range conversion to int.
enum : int { kDivByZero = 1, kDivOverflow = 2, kBadToInt = 4 };

/// Integer division, remainder and int() inside kernels: a bad operand sets a bit of `err` and
/// yields 0; the kernel reports it after the sweep (kernel_error).
STENCILC_HOST_DEVICE inline std::int64_t kernel_div(std::int64_t a, std::int64_t b, int &err) {
  const int bad = b == 0 ? kDivByZero : (b == -1 && a == INT64_MIN) ? kDivOverflow : 0;
  err |= bad;
  return bad ? 0 : a / b;
}
STENCILC_HOST_DEVICE inline std::int64_t kernel_mod(std::int64_t a, std::int64_t b, int &err) {
  const int bad = b == 0 ? kDivByZero : (b == -1 && a == INT64_MIN) ? kDivOverflow : 0;
  err |= bad;
  return bad ? 0 : a % b;
}
STENCILC_HOST_DEVICE inline std::int64_t kernel_to_int(double x, int &err) {
  const bool ok = x > -9.2e18 && x < 9.2e18;
  err |= ok ? 0 : kBadToInt;
  return ok ? static_cast<std::int64_t>(x) : 0;
}
/// The error of a sweep whose arithmetic set `err` (what: "kernel 'k'", "init of grid 'g'").
[[noreturn]] inline void kernel_error(const std::string &what, int err) {
  throw Error(what + ": " +
              ((err & kDivByZero)    ? "integer division by zero"
               : (err & kDivOverflow) ? "integer division overflows"
                                      : "conversion to int overflows"));
}

} // namespace stencilc
