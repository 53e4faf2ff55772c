// One stage of the CPU temporal plan in isolation: heat3d's row function (the expression and
// the `omp simd simdlen(8)` loop the generated code has) over planes of 510-cell rows laid out
// as the engine's rings (x = 0 on a 64-byte line, 528-cell pitch), three input planes and one
// output plane of R rows, swept again and again. As R grows the four planes leave the L2 for the
// L3 and then memory: the rate a stage reaches at each level of the hierarchy, on one core.
// Built and run by bench/row_cache.sh.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr std::int64_t kCells = 510, kPitch = 528, kLead = 16;

__attribute__((noinline)) void row(float *__restrict v, const float *__restrict u0,
                                   const float *__restrict u1, const float *__restrict u2,
                                   const float *__restrict u3, const float *__restrict u4,
                                   std::int64_t n, float c0, float c1) {
#pragma omp simd simdlen(8)
  for (std::int64_t x = 0; x < n; ++x)
    v[x] = c0 * u0[x] + c1 * (u0[x - 1] + u0[x + 1] + u1[x] + u2[x] + u3[x] + u4[x]);
}

} // namespace

int main(int argc, char **argv) {
  std::vector<int> rows;
  for (int i = 1; i < argc; ++i)
    rows.push_back(std::atoi(argv[i]));
  if (rows.empty())
    rows = {8, 16, 32, 64, 96, 128, 192, 256, 512, 1024};
  std::printf("%8s %12s %12s\n", "rows", "planes (KiB)", "cells/s");
  for (int r : rows) {
    if (r < 3) {
      std::fprintf(stderr, "error: at least 3 rows per plane (got %d)\n", r);
      return 2;
    }
    const std::int64_t plane = kPitch * r;
    float *buf = static_cast<float *>(std::aligned_alloc(64, sizeof(float) * (plane * 4 + kPitch)));
    if (!buf) {
      std::fprintf(stderr, "error: cannot allocate %d rows\n", r);
      return 1;
    }
    for (std::int64_t i = 0; i < plane * 4 + kPitch; ++i)
      buf[i] = static_cast<float>(i % 17) * 0.1f;
    float *p0 = buf + kLead, *p1 = p0 + plane, *p2 = p1 + plane, *out = p2 + plane;
    // About 4e9 cell updates per size: a second or so.
    const std::int64_t reps = 4000000000LL / (kCells * (r - 2));
    double sum = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (std::int64_t k = 0; k < reps; ++k)
      for (int y = 1; y < r - 1; ++y)
        row(out + y * kPitch, p1 + y * kPitch, p1 + (y - 1) * kPitch, p1 + (y + 1) * kPitch,
            p0 + y * kPitch, p2 + y * kPitch, kCells, 0.4f, 0.1f);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (int y = 1; y < r - 1; ++y)
      sum += out[y * kPitch + 7];
    std::printf("%8d %12.0f %12.3g   (check %.6g)\n", r, 4.0 * plane * 4 / 1024.0,
                static_cast<double>(reps) * kCells * (r - 2) / s, sum);
    std::free(buf);
  }
  return 0;
}
