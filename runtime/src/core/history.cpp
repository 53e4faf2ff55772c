#include "stencilc/history.h"

#include <cerrno>
#include <cinttypes>
#include <cstring>

#include "stencilc/error.h"

namespace stencilc {

History::History(const std::string &path, const std::vector<std::string> &names)
    : path_(path), f_(std::fopen(path.c_str(), "w")) {
  if (!f_)
    throw Error(path + ": cannot open for writing: " + std::strerror(errno));
  std::fputs("step", f_);
  for (const auto &n : names)
    std::fprintf(f_, ",%s", n.c_str());
  std::fputc('\n', f_);
}

History::~History() {
  if (f_)
    std::fclose(f_);
}

void History::record(std::int64_t step, const std::vector<std::pair<std::string, double>> &values) {
  std::fprintf(f_, "%" PRId64, step);
  for (const auto &v : values)
    std::fprintf(f_, ",%.17g", v.second);
  std::fputc('\n', f_);
}

void History::close() {
  std::FILE *f = f_;
  f_ = nullptr;
  if (!f)
    return;
  const bool failed = std::ferror(f) != 0;
  if (std::fclose(f) != 0 || failed)
    throw Error(path_ + ": cannot write: " + std::strerror(errno));
}

} // namespace stencilc
