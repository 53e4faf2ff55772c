#include "stencilc/progress.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdlib>

#include "stencilc/error.h"

namespace stencilc {

namespace {

constexpr double kRedraw = 0.2; // seconds between two drawings, and before the first

std::string duration(double s) {
  char buf[32];
  const long long t = std::llround(s);
  if (t < 60)
    std::snprintf(buf, sizeof buf, "%lld s", t);
  else if (t < 3600)
    std::snprintf(buf, sizeof buf, "%lldm%02llds", t / 60, t % 60);
  else
    std::snprintf(buf, sizeof buf, "%lldh%02lldm", t / 3600, t / 60 % 60);
  return buf;
}

} // namespace

std::string progress_text(const std::string &name, std::int64_t done, std::int64_t total,
                          bool until, double seconds) {
  char buf[160];
  const int pct = total > 0 ? static_cast<int>(100.0 * double(done) / double(total)) : 100;
  std::string s = name + ": ";
  std::snprintf(buf, sizeof buf, "%" PRId64 "/%" PRId64 " steps (%d%%)", done, total, pct);
  s += buf;
  if (done > 0 && seconds > 0) {
    const double rate = double(done) / seconds;
    std::snprintf(buf, sizeof buf, rate >= 100 ? ", %.0f steps/s" : ", %.3g steps/s", rate);
    s += buf;
    s += (until ? ", ETA <= " : ", ETA ") + duration(double(total - done) / rate);
  }
  return s;
}

Clock Clock::from_environment() {
  const char *tick = std::getenv("STENCILC_TEST_CLOCK_TICK");
  if (!tick || !*tick)
    return real();
  char *end = nullptr;
  const double s = std::strtod(tick, &end);
  if (*end || !(s > 0 && s < 1e6))
    throw Error(std::string("STENCILC_TEST_CLOCK_TICK=") + tick +
                ": expected a number of seconds above 0");
  return fake(s);
}

Progress::Progress(std::string name, std::int64_t total, bool until, bool enabled, Clock &clock,
                   std::FILE *out)
    : name_(std::move(name)), total_(total), until_(until), enabled_(enabled), out_(out),
      clock_(clock) {}

void Progress::update(std::int64_t done) {
  if (!enabled_)
    return;
  const double now = clock_.seconds();
  if (now - drawn_at_ < kRedraw)
    return;
  drawn_at_ = now;
  const std::string text = progress_text(name_, done, total_, until_, now);
  // Spaces cover the end of a longer previous line.
  std::fprintf(out_, "\r%s%*s", text.c_str(),
               static_cast<int>(width_ > text.size() ? width_ - text.size() : 0), "");
  std::fflush(out_);
  width_ = std::max(width_, text.size());
}

void Progress::finish() {
  if (enabled_ && width_ > 0) {
    std::fprintf(out_, "\r%*s\r", static_cast<int>(width_), "");
    std::fflush(out_);
  }
  enabled_ = false;
}

void ChunkSizer::observe(std::int64_t steps, double seconds) {
  const double factor = seconds > 0 ? std::clamp(target_ / seconds, 0.5, 8.0) : 8.0;
  next_ = std::llround(std::clamp(double(steps) * factor, 1.0, 1e15));
}

} // namespace stencilc
