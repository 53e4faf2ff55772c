// Hand-written reference for benchmarks: 2D 5-point heat stencil (FTCS), fp32, Dirichlet-0
// edges, OpenMP over y, vectorised x; in the style of ../shared/bench/heat3d_naive.cpp. The
// update is samples/heat2d.stn's, with its operations in its order (all in float):
//   v = u + alpha * ((((u[x-1] + u[x+1]) + u[y-1]) + u[y+1]) - 4 u)
// It also measures the machine's streaming bandwidth the same way as heat3d_naive.cpp (scale
// kernel over the two grids: one read + one write per element, best of 5).
//
// Build: c++ -O3 -march=native -fopenmp heat2d.cpp -o heat2d
// Run:   ./heat2d NX NY STEPS      (NX x NY includes the boundary edges; prints one JSON line;
//        checksum is the sum of the final grid, edges included, which are 0)
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <utility>

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s NX NY STEPS\n", argv[0]);
    return 2;
  }
  const long nx = std::atol(argv[1]), ny = std::atol(argv[2]);
  const int steps = std::atoi(argv[3]);
  if (nx < 3 || ny < 3 || steps < 1) {
    std::fprintf(stderr, "%s: sizes must be at least 3, STEPS at least 1\n", argv[0]);
    return 2;
  }
  const long n = nx * ny;
  const std::size_t bytes = ((n * sizeof(float) + 63) / 64) * 64;
  float *a = static_cast<float *>(std::aligned_alloc(64, bytes));
  float *b = static_cast<float *>(std::aligned_alloc(64, bytes));
#pragma omp parallel for schedule(static)
  for (long y = 0; y < ny; ++y)
    for (long x = 0; x < nx; ++x) {
      const long i = y * nx + x;
      const bool edge = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
      a[i] = edge ? 0.0f : 1.0f + static_cast<float>((x * 7 + y * 13) % 97) / 97.0f;
      b[i] = a[i];
    }

  // Streaming bandwidth: best of 5 scale passes.
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) b[i] = 1.0001f * a[i];
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  const double stream_gbs = 2.0 * n * sizeof(float) / best / 1e9;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) b[i] = a[i];

  const float alpha = 0.2f;
  auto t0 = std::chrono::steady_clock::now();
  for (int t = 0; t < steps; ++t) {
#pragma omp parallel for schedule(static)
    for (long y = 1; y < ny - 1; ++y) {
      const float *c = a + y * nx;
      float *o = b + y * nx;
#pragma omp simd
      for (long x = 1; x < nx - 1; ++x)
        o[x] = c[x] + alpha * (c[x - 1] + c[x + 1] + c[x - nx] + c[x + nx] - 4.0f * c[x]);
    }
    std::swap(a, b);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cells = double(nx - 2) * (ny - 2) * steps;
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (long i = 0; i < n; ++i) sum += a[i];
  // Bandwidth bound: 8 bytes per cell update (one float read, one written).
  std::printf("{\"kernel\":\"heat2d_naive\",\"threads\":%d,\"nx\":%ld,\"ny\":%ld,\"steps\":%d,"
              "\"seconds\":%.6f,\"cells_per_second\":%.6e,\"stream_gbs\":%.3f,"
              "\"bandwidth_bound_cells_per_second\":%.6e,\"checksum\":%.17e}\n",
              omp_get_max_threads(), nx, ny, steps, secs, cells / secs, stream_gbs,
              stream_gbs * 1e9 / 8.0, sum);
  std::free(a);
  std::free(b);
  return 0;
}
