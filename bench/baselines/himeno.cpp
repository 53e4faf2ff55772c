// Hand-written reference for benchmarks: the Himeno benchmark's jacobi() (R. Himeno, RIKEN,
// himenoBMTxps.c, version 3.0), fp32, parallelised with OpenMP the way a competent user would:
// threads over (i, j), a vectorised k loop, gosa as an OpenMP reduction. In the style of
// ../shared/bench/heat3d_naive.cpp, and in the form of samples/himeno.stn:
//   - arrays p[i][j][k] with k contiguous (stencilc's x = k, y = j, z = i), IMAX x JMAX x KMAX
//     points including the boundary planes that jacobi() never updates (the original's imax,
//     jmax, kmax: size M is 128 x 128 x 256, i.e. stencilc's NX x NY x NZ = 254 x 126 x 126);
//   - the original's initial values (a0 = a1 = a2 = 1, a3 = 1/6, b = 0, c = 1, bnd = 1,
//     wrk1 = 0, p = i^2/(imax-1)^2), which are the sample's inits and boundary values;
//   - the 19-point update with the sample's (= the original's) terms in its order, all in float;
//   - gosa = sum of ss*ss, ss*ss in float summed in double (the sample's reduction; the
//     original sums in float);
//   - p and wrk2 swapped each iteration (the sample's `swap p, wrk2`) instead of copying wrk2
//     back into p, so wrk2 starts as a copy of p to carry the boundary planes.
// ss stays a local here, as in the original; the sample stores it in a grid for its reduction.
//
// Streaming bandwidth is measured as in heat3d_naive.cpp (scale kernel: one read + one write
// per element, best of 5) but over two scratch arrays of 7 x IMAX x JMAX x KMAX floats each:
// the footprint of the 14 arrays (a 16 MiB array of size M would stay in a large L3).
//
// Build: c++ -O3 -march=native -fopenmp himeno.cpp -o himeno
// Run:   ./himeno IMAX JMAX KMAX NITER    (prints one JSON line: cells_per_second counts the
//        (IMAX-2)(JMAX-2)(KMAX-2) points jacobi() updates per iteration; gosa of the last
//        iteration; checksum = sum of p over those points, in double)
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace {
float *alloc_floats(long n) {
  return static_cast<float *>(std::aligned_alloc(64, ((n * sizeof(float) + 63) / 64) * 64));
}
} // namespace

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s IMAX JMAX KMAX NITER\n", argv[0]);
    return 2;
  }
  const long imax = std::atol(argv[1]), jmax = std::atol(argv[2]), kmax = std::atol(argv[3]);
  const int nn = std::atoi(argv[4]);
  if (imax < 3 || jmax < 3 || kmax < 3 || nn < 1) {
    std::fprintf(stderr, "%s: sizes must be at least 3, NITER at least 1\n", argv[0]);
    return 2;
  }
  const long n = imax * jmax * kmax, sij = jmax * kmax;

  // Streaming bandwidth: best of 5 scale passes over the footprint of the 14 arrays.
  double stream_gbs;
  {
    const long m = 7 * n;
    float *a = alloc_floats(m), *b = alloc_floats(m);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < m; ++i) {
      a[i] = 1.0f + static_cast<float>(i % 97) / 97.0f;
      b[i] = 0.0f;
    }
    double best = 1e30;
    for (int r = 0; r < 5; ++r) {
      auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
      for (long i = 0; i < m; ++i) b[i] = 1.0001f * a[i];
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    stream_gbs = 2.0 * m * sizeof(float) / best / 1e9;
    std::free(a);
    std::free(b);
  }

  float *a0 = alloc_floats(n), *a1 = alloc_floats(n), *a2 = alloc_floats(n), *a3 = alloc_floats(n);
  float *b0 = alloc_floats(n), *b1 = alloc_floats(n), *b2 = alloc_floats(n);
  float *c0 = alloc_floats(n), *c1 = alloc_floats(n), *c2 = alloc_floats(n);
  float *bnd = alloc_floats(n), *wrk1 = alloc_floats(n);
  float *p = alloc_floats(n), *wrk2 = alloc_floats(n);
  // initmt(), first-touched by the threads that will use each plane.
#pragma omp parallel for schedule(static)
  for (long i = 0; i < imax; ++i)
    for (long jk = 0; jk < sij; ++jk) {
      const long x = i * sij + jk;
      a0[x] = a1[x] = a2[x] = 1.0f;
      a3[x] = static_cast<float>(1.0 / 6.0);
      b0[x] = b1[x] = b2[x] = 0.0f;
      c0[x] = c1[x] = c2[x] = 1.0f;
      bnd[x] = 1.0f;
      wrk1[x] = 0.0f;
      p[x] = static_cast<float>(i * i) / static_cast<float>((imax - 1) * (imax - 1));
      wrk2[x] = p[x];
    }

  const float omega = 0.8f;
  double gosa = 0.0;
  auto t0 = std::chrono::steady_clock::now();
  for (int it = 0; it < nn; ++it) {
    gosa = 0.0;
#pragma omp parallel for collapse(2) schedule(static) reduction(+ : gosa)
    for (long i = 1; i < imax - 1; ++i)
      for (long j = 1; j < jmax - 1; ++j) {
        const long r = i * sij + j * kmax;  // row (i, j); p[r + k] is p[i][j][k]
        const float *pr = p + r;
        float *out = wrk2 + r;
        double g = 0.0;
#pragma omp simd reduction(+ : g)
        for (long k = 1; k < kmax - 1; ++k) {
          const long x = r + k;
          const float s0 = a0[x] * pr[k + sij]
                         + a1[x] * pr[k + kmax]
                         + a2[x] * pr[k + 1]
                         + b0[x] * (pr[k + sij + kmax] - pr[k + sij - kmax]
                                    - pr[k - sij + kmax] + pr[k - sij - kmax])
                         + b1[x] * (pr[k + kmax + 1] - pr[k - kmax + 1]
                                    - pr[k + kmax - 1] + pr[k - kmax - 1])
                         + b2[x] * (pr[k + sij + 1] - pr[k - sij + 1]
                                    - pr[k + sij - 1] + pr[k - sij - 1])
                         + c0[x] * pr[k - sij]
                         + c1[x] * pr[k - kmax]
                         + c2[x] * pr[k - 1]
                         + wrk1[x];
          const float ss = (s0 * a3[x] - pr[k]) * bnd[x];
          g += static_cast<double>(ss * ss);
          out[k] = pr[k] + omega * ss;
        }
        gosa += g;
      }
    std::swap(p, wrk2);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cells = double(imax - 2) * (jmax - 2) * (kmax - 2) * nn;
  double sum = 0;
#pragma omp parallel for collapse(2) reduction(+ : sum)
  for (long i = 1; i < imax - 1; ++i)
    for (long j = 1; j < jmax - 1; ++j)
      for (long k = 1; k < kmax - 1; ++k) sum += static_cast<double>(p[i * sij + j * kmax + k]);
  // Bandwidth bound: 56 bytes per cell update (12 coefficient arrays and p read, wrk2 written).
  // mflops: the benchmark's count, 34 flops per point.
  std::printf("{\"kernel\":\"himeno_naive\",\"threads\":%d,\"imax\":%ld,\"jmax\":%ld,\"kmax\":%ld,"
              "\"steps\":%d,\"seconds\":%.6f,\"cells_per_second\":%.6e,\"mflops\":%.1f,"
              "\"stream_gbs\":%.3f,\"bandwidth_bound_cells_per_second\":%.6e,\"gosa\":%.17e,"
              "\"checksum\":%.17e}\n",
              omp_get_max_threads(), imax, jmax, kmax, nn, secs, cells / secs,
              34.0 * cells / secs / 1e6, stream_gbs, stream_gbs * 1e9 / 56.0, gosa, sum);
  for (float *q : {a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, bnd, wrk1, p, wrk2}) std::free(q);
  return 0;
}
