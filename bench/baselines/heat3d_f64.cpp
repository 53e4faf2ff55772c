// Hand-written reference for benchmarks: 3D 7-point heat stencil, fp64, Dirichlet-0 faces,
// OpenMP over (z, y), vectorised x. ../shared/bench/heat3d_naive.cpp (the fp32 baseline) in
// double, line for line: the same initial values, the same update in the same order, the same
// streaming-bandwidth measurement (scale kernel: one read + one write per element, best of 5).
// Compared with bench/heat3d_f64.stn by bench/temporal.sh.
//
// Build: c++ -O3 -march=native -fopenmp heat3d_f64.cpp -o heat3d_f64
// Run:   ./heat3d_f64 NX NY NZ STEPS      (NX x NY x NZ includes the boundary faces; prints one
//        JSON line; checksum is the sum of the final grid, faces included, which are 0)
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <utility>

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s NX NY NZ STEPS\n", argv[0]);
    return 2;
  }
  const long nx = std::atol(argv[1]), ny = std::atol(argv[2]), nz = std::atol(argv[3]);
  const int steps = std::atoi(argv[4]);
  if (nx < 3 || ny < 3 || nz < 3 || steps < 1) {
    std::fprintf(stderr, "%s: sizes must be at least 3, STEPS at least 1\n", argv[0]);
    return 2;
  }
  const long n = nx * ny * nz, sxy = nx * ny;
  const std::size_t bytes = ((n * sizeof(double) + 63) / 64) * 64;
  double *a = static_cast<double *>(std::aligned_alloc(64, bytes));
  double *b = static_cast<double *>(std::aligned_alloc(64, bytes));
#pragma omp parallel for schedule(static)
  for (long z = 0; z < nz; ++z)
    for (long i = z * sxy; i < (z + 1) * sxy; ++i) {
      const long x = i % nx, y = (i / nx) % ny;
      const bool face = x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1;
      a[i] = face ? 0.0 : 1.0 + static_cast<double>((x * 7 + y * 13 + z * 29) % 97) / 97.0;
      b[i] = a[i];
    }

  // Streaming bandwidth: best of 5 scale passes.
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) b[i] = 1.0001 * a[i];
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  const double stream_gbs = 2.0 * n * sizeof(double) / best / 1e9;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) b[i] = a[i];

  const double c0 = 0.4, c1 = 0.1;
  auto t0 = std::chrono::steady_clock::now();
  for (int t = 0; t < steps; ++t) {
#pragma omp parallel for collapse(2) schedule(static)
    for (long z = 1; z < nz - 1; ++z)
      for (long y = 1; y < ny - 1; ++y) {
        const double *c = a + z * sxy + y * nx;
        double *o = b + z * sxy + y * nx;
#pragma omp simd
        for (long x = 1; x < nx - 1; ++x)
          o[x] = c0 * c[x] + c1 * (c[x - 1] + c[x + 1] + c[x - nx] + c[x + nx] + c[x - sxy] + c[x + sxy]);
      }
    std::swap(a, b);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cells = double(nx - 2) * (ny - 2) * (nz - 2) * steps;
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (long i = 0; i < n; ++i) sum += a[i];
  // Bandwidth bound: 16 bytes per cell update (one double read, one written).
  std::printf("{\"kernel\":\"heat3d_f64_naive\",\"threads\":%d,\"nx\":%ld,\"ny\":%ld,\"nz\":%ld,\"steps\":%d,"
              "\"seconds\":%.6f,\"cells_per_second\":%.6e,\"stream_gbs\":%.3f,"
              "\"bandwidth_bound_cells_per_second\":%.6e,\"checksum\":%.17e}\n",
              omp_get_max_threads(), nx, ny, nz, steps, secs, cells / secs, stream_gbs,
              stream_gbs * 1e9 / 16.0, sum);
  std::free(a);
  std::free(b);
  return 0;
}
