#include "stencilc/summary.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace stencilc {

namespace {

double cells_per_second(const Summary &s) {
  return s.seconds > 0 ? s.cell_updates / s.seconds : 0.0;
}

std::string printf_str(const char *fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// Shortest text that reads back as the same double, so checksums can be compared by eye.
std::string exact(double v) {
  if (std::isnan(v))
    return "nan";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

// JSON has no inf or NaN: write them as the strings "inf", "-inf", "nan".
nlohmann::ordered_json number(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  return v;
}

// An integer reduction's exact value, if `name` is one that has been computed.
const std::int64_t *integer_value(const Summary &s, const std::string &name) {
  for (const auto &[n, v] : s.integer_reductions)
    if (n == name)
      return &v;
  return nullptr;
}

std::string plural(std::int64_t n, const char *word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

} // namespace

std::string summary_json(const Summary &s) {
  nlohmann::ordered_json j;
  j["stencil"] = s.stencil;
  j["target"] = s.target;
  j["plan"] = s.plan;
  j["steps"] = s.steps;
  if (s.until)
    j["converged"] = s.converged;
  j["seconds"] = s.seconds;
  j["cell_updates"] = s.cell_updates;
  j["cells_per_second"] = cells_per_second(s);
  j["threads"] = s.threads;
  if (s.ranks > 0) {
    j["ranks"] = s.ranks;
    j["messages"] = s.messages;
    if (!s.phases.empty()) {
      j["phases"] = nlohmann::ordered_json::object();
      for (const auto &[name, seconds] : s.phases)
        j["phases"][name] = number(seconds);
    }
  }
  j["checksums"] = nlohmann::ordered_json::object();
  for (const auto &[name, value] : s.checksums)
    j["checksums"][name] = number(value);
  if (!s.reductions.empty()) {
    j["reductions"] = nlohmann::ordered_json::object();
    for (const auto &[name, value] : s.reductions) {
      const std::int64_t *i = integer_value(s, name);
      j["reductions"][name] = i ? nlohmann::ordered_json(*i) : number(value);
    }
  }
  // Names come from user files; never throw on bad UTF-8 while printing a summary.
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string summary_text(const Summary &s) {
  std::string plan = s.plan.empty() ? "" : "plan " + s.plan + ", ";
  std::string secs = printf_str(s.seconds >= 0.001 || s.seconds == 0 ? "%.3f" : "%.3g", s.seconds);
  std::string out = s.stencil + ": " + plural(s.steps, "step") + " on " + s.target + " (" + plan +
                    plural(s.threads, "thread") + ") in " + secs + " s\n";
  if (s.until)
    out += std::string("  ") + (s.converged ? "converged after " : "did not converge in ") +
           plural(s.steps, "iteration") + "\n";
  out += "  " + printf_str("%.3g", cells_per_second(s)) + " cell-updates/s\n";
  if (s.ranks > 0)
    out += "  " + plural(s.ranks, "rank") + ", at most " + plural(s.messages, "halo message") +
           " sent by one\n";
  if (s.ranks > 0 && !s.phases.empty()) {
    std::string sep = " ";
    out += "  halo refreshes (slowest rank):";
    for (const auto &[name, seconds] : s.phases) {
      out += sep + name + " " + printf_str("%.3g", seconds) + " s";
      sep = ", ";
    }
    out += "\n";
  }
  for (const auto &[name, value] : s.reductions) {
    const std::int64_t *i = integer_value(s, name);
    out += "  reduction " + name + " = " + (i ? std::to_string(*i) : exact(value)) + "\n";
  }
  for (const auto &[name, value] : s.checksums)
    out += "  checksum " + name + " = " + exact(value) + "\n";
  return out;
}

} // namespace stencilc
