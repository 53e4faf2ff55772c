// One stage of the CPU temporal plan in isolation: heat3d's row function (the expression and
// the `omp simd simdlen(8)` loop the generated code has) over planes of 510-cell rows laid out
// as the engine's rings (x = 0 on a 64-byte line, 528-cell pitch), three input planes and one
// output plane of R rows, swept again and again. As R grows the four planes leave the L2 for the
// L3 and then memory: the rate a stage reaches at each level of the hierarchy, on one core, or
// on THREADS cores at once (each its own planes; the rate printed is theirs together).
// Two in-core variants run beside it, on the same planes, after a check that they give the
// same bits: `jam2`, two rows per x loop (unroll-and-jam over y: the compiler may share the
// loads of the rows both read), and `xreg`, the x +- 1 neighbours shifted out of the centre
// row's vectors in registers (AVX-512VL valignd on 256-bit vectors: 5 loads per 8 cells
// instead of 7; stencilc generates it as xshift=reg), and `xreg2`, both at once: rows y and
// y + 1 in one x loop with their x-shifts in registers, each row the other's y neighbour (8
// loads per 16 cells instead of 10). jam2 and xreg2 are not generated; this is the measurement
// that decides whether they pay. Built and run by bench/row_cache.sh.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <omp.h>

#if defined(__AVX512VL__)
#include <immintrin.h>
#endif

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

// Rows y and y + 1 in one x loop: u0 is row y's centre row, pitch apart from its neighbours.
__attribute__((noinline)) void row_jam2(float *__restrict v, const float *__restrict u0,
                                        const float *__restrict u3, const float *__restrict u4,
                                        std::int64_t pitch, std::int64_t n, float c0, float c1) {
  const float *__restrict a = u0 - pitch, *__restrict b = u0, *__restrict c = u0 + pitch,
                          *__restrict d = u0 + 2 * pitch;
  float *__restrict v1 = v + pitch;
  const float *__restrict u3b = u3 + pitch, *__restrict u4b = u4 + pitch;
#pragma omp simd simdlen(8)
  for (std::int64_t x = 0; x < n; ++x) {
    v[x] = c0 * b[x] + c1 * (b[x - 1] + b[x + 1] + a[x] + c[x] + u3[x] + u4[x]);
    v1[x] = c0 * c[x] + c1 * (c[x - 1] + c[x + 1] + b[x] + d[x] + u3b[x] + u4b[x]);
  }
}

#if defined(__AVX512VL__)
// Lanes IMM.. of lo then hi: x - 1 (IMM 7 of the vectors at x - 8 and x), x + 1 (IMM 1 of x and
// x + 8).
template <int IMM> __m256 align(__m256 hi, __m256 lo) {
  return _mm256_castsi256_ps(
      _mm256_alignr_epi32(_mm256_castps_si256(hi), _mm256_castps_si256(lo), IMM));
}

// x - 1 and x + 1 from the vectors at x - 8, x and x + 8 (valignd), the sum in the same order.
__attribute__((noinline)) void row_xreg(float *__restrict v, const float *__restrict u0,
                                        const float *__restrict u1, const float *__restrict u2,
                                        const float *__restrict u3, const float *__restrict u4,
                                        std::int64_t n, float c0, float c1) {
  const __m256 k0 = _mm256_set1_ps(c0), k1 = _mm256_set1_ps(c1);
  std::int64_t x = 0;
  // Lane 7 of p is u0[-1]: a load at x - 1 put in place, which stays inside the row's ghosts.
  __m256 p = _mm256_permutexvar_ps(_mm256_set1_epi32(0), _mm256_loadu_ps(u0 - 1));
  __m256 c = _mm256_loadu_ps(u0);
  for (; x + 16 <= n + 1; x += 8) { // the load at x + 8 reads at most u0[n] (a ghost)
    const __m256 nx = _mm256_loadu_ps(u0 + x + 8);
    __m256 s = _mm256_add_ps(align<7>(c, p), align<1>(nx, c));
    s = _mm256_add_ps(s, _mm256_loadu_ps(u1 + x));
    s = _mm256_add_ps(s, _mm256_loadu_ps(u2 + x));
    s = _mm256_add_ps(s, _mm256_loadu_ps(u3 + x));
    s = _mm256_add_ps(s, _mm256_loadu_ps(u4 + x));
    _mm256_storeu_ps(v + x, _mm256_add_ps(_mm256_mul_ps(k0, c), _mm256_mul_ps(k1, s)));
    p = c;
    c = nx;
  }
  row(v + x, u0 + x, u1 + x, u2 + x, u3 + x, u4 + x, n - x, c0, c1);
}

// Rows y and y + 1 as row_xreg does each (u0 row y's centre row, pitch apart from its
// neighbours); row y + 1's centre vectors are row y's y + 1 neighbour and the other way round.
__attribute__((noinline)) void row_xreg2(float *__restrict v, const float *__restrict u0,
                                         const float *__restrict u3, const float *__restrict u4,
                                         std::int64_t pitch, std::int64_t n, float c0, float c1) {
  const __m256 k0 = _mm256_set1_ps(c0), k1 = _mm256_set1_ps(c1);
  const float *b = u0, *c = u0 + pitch;
  std::int64_t x = 0;
  __m256 pb = _mm256_permutexvar_ps(_mm256_set1_epi32(0), _mm256_loadu_ps(b - 1));
  __m256 pc = _mm256_permutexvar_ps(_mm256_set1_epi32(0), _mm256_loadu_ps(c - 1));
  __m256 cb = _mm256_loadu_ps(b), cc = _mm256_loadu_ps(c);
  for (; x + 16 <= n + 1; x += 8) {
    const __m256 nb = _mm256_loadu_ps(b + x + 8), nc = _mm256_loadu_ps(c + x + 8);
    __m256 s = _mm256_add_ps(align<7>(cb, pb), align<1>(nb, cb));
    s = _mm256_add_ps(s, _mm256_loadu_ps(b + x - pitch));
    s = _mm256_add_ps(s, cc);
    s = _mm256_add_ps(s, _mm256_loadu_ps(u3 + x));
    s = _mm256_add_ps(s, _mm256_loadu_ps(u4 + x));
    _mm256_storeu_ps(v + x, _mm256_add_ps(_mm256_mul_ps(k0, cb), _mm256_mul_ps(k1, s)));
    __m256 t = _mm256_add_ps(align<7>(cc, pc), align<1>(nc, cc));
    t = _mm256_add_ps(t, cb);
    t = _mm256_add_ps(t, _mm256_loadu_ps(c + x + pitch));
    t = _mm256_add_ps(t, _mm256_loadu_ps(u3 + pitch + x));
    t = _mm256_add_ps(t, _mm256_loadu_ps(u4 + pitch + x));
    _mm256_storeu_ps(v + pitch + x, _mm256_add_ps(_mm256_mul_ps(k0, cc), _mm256_mul_ps(k1, t)));
    pb = cb;
    cb = nb;
    pc = cc;
    cc = nc;
  }
  row(v + x, b + x, b + x - pitch, b + x + pitch, u3 + x, u4 + x, n - x, c0, c1);
  row(v + pitch + x, c + x, c + x - pitch, c + x + pitch, u3 + pitch + x, u4 + pitch + x, n - x, c0,
      c1);
}
#endif

enum Variant { kPlain, kJam2, kXreg, kXreg2 };

// One sweep of the output plane's interior rows (y = 1 .. r - 2) with a variant.
void sweep(Variant w, float *out, const float *p0, const float *p1, const float *p2, int r) {
  for (int y = 1; y < r - 1; ++y) {
    const std::int64_t o = y * kPitch;
    if (w == kJam2 && y + 1 < r - 1) {
      row_jam2(out + o, p1 + o, p0 + o, p2 + o, kPitch, kCells, 0.4f, 0.1f);
      ++y;
      continue;
    }
#if defined(__AVX512VL__)
    if (w == kXreg2 && y + 1 < r - 1) {
      row_xreg2(out + o, p1 + o, p0 + o, p2 + o, kPitch, kCells, 0.4f, 0.1f);
      ++y;
      continue;
    }
    if (w == kXreg || w == kXreg2) {
      row_xreg(out + o, p1 + o, p1 + o - kPitch, p1 + o + kPitch, p0 + o, p2 + o, kCells, 0.4f,
               0.1f);
      continue;
    }
#endif
    row(out + o, p1 + o, p1 + o - kPitch, p1 + o + kPitch, p0 + o, p2 + o, kCells, 0.4f, 0.1f);
  }
}

} // namespace

int main(int argc, char **argv) {
  std::vector<int> rows;
  for (int i = 1; i < argc; ++i)
    rows.push_back(std::atoi(argv[i]));
  if (rows.empty())
    rows = {8, 16, 32, 64, 96, 128, 192, 256, 512, 1024};
  std::vector<Variant> variants = {kPlain, kJam2};
#if defined(__AVX512VL__)
  variants.push_back(kXreg);
  variants.push_back(kXreg2);
#else
  std::printf("(no AVX-512VL here: the xreg and xreg2 variants are not built)\n");
#endif
  const char *const names[] = {"plain", "jam2", "xreg", "xreg2"};
  std::printf("%8s %12s", "rows", "planes (KiB)");
  for (Variant w : variants)
    std::printf(" %12s", (std::string(names[w]) + " cells/s").c_str());
  std::printf("\n");
  for (int r : rows)
    if (r < 3) {
      std::fprintf(stderr, "error: at least 3 rows per plane (got %d)\n", r);
      return 2;
    }
  // Each thread sweeps planes of its own, all at once (OMP_NUM_THREADS), and the rate printed
  // is all threads' together: what a plan's stages on that many threads can reach. It need not
  // be one core's times the threads (a shared clock budget, where the host put the vCPUs).
  const int threads = omp_get_max_threads();
  for (int r : rows) {
    const std::int64_t plane = kPitch * r;
    // About 2e9 cell updates per size and variant, the variants in turn, 3 rounds: the best.
    const std::int64_t reps = 2000000000LL / (kCells * (r - 2)) / 3 + 1;
    std::vector<double> rate(3 * threads * 4, 0.0); // [round][thread][variant]
    // Each thread's planes, allocated before the threads start so that no barrier below can
    // be missed.
    std::vector<float *> bufs(threads);
    for (float *&buf : bufs)
      if (!(buf = static_cast<float *>(
                std::aligned_alloc(64, sizeof(float) * (plane * 4 + kPitch))))) {
        std::fprintf(stderr, "error: cannot allocate %d rows for %d threads\n", r, threads);
        return 1;
      }
    std::vector<int> differs(threads, -1); // per thread: the first variant whose bits differ
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      float *buf = bufs[t];
      for (std::int64_t i = 0; i < plane * 4 + kPitch; ++i)
        buf[i] = static_cast<float>(i % 17) * 0.1f;
      float *p0 = buf + kLead, *p1 = p0 + plane, *p2 = p1 + plane, *out = p2 + plane;
      // The variants' bits against the plain loop's, on this size, before any timing.
      std::vector<float> ref(plane);
      sweep(kPlain, out, p0, p1, p2, r);
      std::memcpy(ref.data(), out, sizeof(float) * plane);
      for (Variant w : variants) {
        std::memset(out, 0, sizeof(float) * plane);
        sweep(w, out, p0, p1, p2, r);
        for (int y = 1; y < r - 1 && differs[t] < 0; ++y)
          if (std::memcmp(out + y * kPitch, ref.data() + y * kPitch, sizeof(float) * kCells))
            differs[t] = w;
      }
      // A variant with other bits on any thread stops the run before timing: every thread waits
      // for all the checks, then all skip the rounds together (no barrier is left unmatched).
#pragma omp barrier
      const bool any_differs =
          std::any_of(differs.begin(), differs.end(), [](int w) { return w >= 0; });
      for (int round = 0; round < 3 && !any_differs; ++round)
        for (Variant w : variants) {
#pragma omp barrier
          const auto t0 = std::chrono::steady_clock::now();
          for (std::int64_t k = 0; k < reps; ++k)
            sweep(w, out, p0, p1, p2, r);
          const double s =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          rate[(round * threads + t) * 4 + w] = static_cast<double>(reps) * kCells * (r - 2) / s;
        }
    }
    for (float *buf : bufs)
      std::free(buf);
    for (int w : differs)
      if (w >= 0) {
        std::fprintf(stderr, "error: variant %s differs from the plain loop (rows %d)\n", names[w],
                     r);
        return 1;
      }
    std::printf("%8d %12.0f", r, 4.0 * plane * 4 / 1024.0);
    for (Variant w : variants) { // the best round's rate, all threads together
      double best = 0;
      for (int round = 0; round < 3; ++round) {
        double sum = 0;
        for (int t = 0; t < threads; ++t)
          sum += rate[(round * threads + t) * 4 + w];
        best = std::max(best, sum);
      }
      std::printf(" %12.3g", best);
    }
    std::printf("\n");
  }
  return 0;
}
