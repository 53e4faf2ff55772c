#include "driver/share_curves.h"

#include "support/stats.h"

namespace stc {

void ShareCurve::add(const nlohmann::json &j, const char *key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_array())
    return;
  const auto &pts = j[key];
  if (bytes_.empty()) {
    bytes_.resize(pts.size());
    rates_.resize(pts.size());
  }
  bool any = false;
  for (std::size_t i = 0; i < pts.size() && i < bytes_.size(); ++i)
    if (pts[i].is_array() && pts[i].size() == 2 && pts[i][0].is_number() && pts[i][1].is_number()) {
      bytes_[i] = pts[i][0].get<double>();
      rates_[i].push_back(pts[i][1].get<double>());
      any = true;
    }
  runs_ += any;
}

std::vector<std::array<double, 2>> ShareCurve::medians() const {
  std::vector<std::array<double, 2>> pts;
  for (std::size_t i = 0; i < bytes_.size(); ++i)
    if (!rates_[i].empty())
      pts.push_back({bytes_[i], median(rates_[i])});
  return pts;
}

} // namespace stc
