#pragma once

#include <array>
#include <vector>

#include <nlohmann/json.hpp>

namespace stc {

/// One of the calibration program's L3 share curves ("l3_reuse", "l3_ring": {bytes per thread,
/// bytes/s} at fixed sizes) gathered over several runs, spread in time: the machine's other
/// tenants come and go within minutes, and one run's curve is that minute's.
class ShareCurve {
public:
  /// Adds the curve under `key` of one run's output (nothing where it has none).
  void add(const nlohmann::json &j, const char *key);
  /// Each size's median rate over the runs, in ascending bytes.
  std::vector<std::array<double, 2>> medians() const;
  bool empty() const { return bytes_.empty(); }
  /// How many runs gave a curve.
  int runs() const { return runs_; }

private:
  std::vector<double> bytes_;
  std::vector<std::vector<double>> rates_;
  int runs_ = 0;
};

} // namespace stc
