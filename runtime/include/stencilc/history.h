// --history FILE.csv: the value of every reduction after every step (a convergence loop's
// residual history), for scripts/plot.py and spreadsheets.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace stencilc {

/// The file is CSV: a header "step,NAME,..." (the reductions in declaration order), then one
/// line per step "1,VALUE,..." with every value printed "%.17g" (it reads back to the same
/// double; "nan" for a reduction not computed yet, "inf"/"-inf").
class History {
public:
  /// Creates `path` and writes the header. Throws stencilc::Error naming the path.
  History(const std::string &path, const std::vector<std::string> &names);
  ~History();
  History(const History &) = delete;
  History &operator=(const History &) = delete;

  /// The values after step `step` (the reductions of Program::reductions()).
  void record(std::int64_t step, const std::vector<std::pair<std::string, double>> &values);
  /// Closes the file; throws stencilc::Error if anything could not be written.
  void close();

private:
  std::string path_;
  std::FILE *f_;
};

} // namespace stencilc
