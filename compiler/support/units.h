// Numbers for people: 3 significant digits and an SI prefix ("1.23 Gflop/s", "512 kB").
#pragma once
#include <cmath>
#include <string>

#include <fmt/format.h>

namespace stc {

inline std::string si(double v, const char *unit) {
  static const char *const prefixes[] = {"", "k", "M", "G", "T", "P"};
  int i = 0;
  while (std::fabs(v) >= 1000 && i < 5) {
    v /= 1000;
    ++i;
  }
  return fmt::format("{:.3g} {}{}", v, prefixes[i], unit);
}

} // namespace stc
