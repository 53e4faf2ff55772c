// Summaries of repeated measurements (tune's rounds, calibrate's).
#pragma once
#include <algorithm>
#include <vector>

namespace stc {

// The middle value; of an even count, the mean of the two middle ones. 0 for none.
inline double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Whether the largest of the positive values is more than `factor` times the smallest (false
// with fewer than two): where the host moved the threads, by their round trips (calibrate's and
// tune's notes).
inline bool spread_beyond(const std::vector<double> &v, double factor) {
  std::vector<double> pos;
  for (double x : v)
    if (x > 0)
      pos.push_back(x);
  if (pos.size() < 2)
    return false;
  const auto [lo, hi] = std::minmax_element(pos.begin(), pos.end());
  return *hi > factor * *lo;
}

} // namespace stc
