// An independent plain-loop Himeno benchmark, transcribed from jacobi() of himenoBMTxps.c /
// himenoBMTxpa.c (R. Himeno, RIKEN, version 3.0), to check `stencilc run samples/himeno.stn`.
// It shares no code with stencilc: arrays p[i][j][k] with k contiguous and the boundary
// planes i = 0, imax-1 (and likewise j, k) stored, as in the original.
//
//   himeno_reference IMAX JMAX KMAX NITER [--pattern]
//
// IMAX x JMAX x KMAX are the points including the boundary planes (the original's imax, jmax,
// kmax in jacobi(): XS is 32 x 32 x 64). Without --pattern the arrays have the original's
// initial values; with it every coefficient array and the interior of p get the integer
// pattern below (dyadic rationals, exact in float), which tests/reference/himeno_check.py
// writes to .npy files for the interpreter.
//
// Prints one line: gosa (summed in double, the sample's reduction; see below), gosa_float (the
// original's float accumulation, for information), and checksum (the sum of p over the points
// jacobi() updates, in double, k fastest: the interpreter's checksum of grid p).
//
// Compile without FMA contraction (-ffp-contract=off): each float operation must round as the
// interpreter's does.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

int imax, jmax, kmax;

struct Array {
  std::vector<float> v;
  Array() : v(static_cast<std::size_t>(imax) * jmax * kmax, 0.0f) {}
  float &operator()(int i, int j, int k) {
    return v[(static_cast<std::size_t>(i) * jmax + j) * kmax + k];
  }
};

// Array n of the pattern at point (i, j, k); n = 0..12 are a0 a1 a2 a3 b0 b1 b2 c0 c1 c2 bnd
// wrk1, 13 is p. Keep in sync with pattern() in himeno_check.py.
float pattern(int n, int i, int j, int k) {
  const int h = (i * 73 + j * 37 + k * 19 + n * 101) % 32;
  switch (n) {
  case 0: case 1: case 2: case 7: case 8: case 9: return static_cast<float>(16 + h) / 32.0f;
  case 3: return static_cast<float>(128 + h) / 1024.0f;
  case 4: case 5: case 6: return static_cast<float>(h - 16) / 128.0f;
  case 10: return h % 5 == 0 ? 0.0f : 1.0f;
  case 11: return static_cast<float>(h - 16) / 256.0f;
  default: return static_cast<float>(h) / 32.0f;
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 5 || argc > 6 || (argc == 6 && std::strcmp(argv[5], "--pattern") != 0)) {
    std::fprintf(stderr, "usage: himeno_reference IMAX JMAX KMAX NITER [--pattern]\n");
    return 2;
  }
  imax = std::atoi(argv[1]);
  jmax = std::atoi(argv[2]);
  kmax = std::atoi(argv[3]);
  const int nn = std::atoi(argv[4]);
  const bool use_pattern = argc == 6;
  if (imax < 3 || jmax < 3 || kmax < 3 || nn < 1) {
    std::fprintf(stderr, "himeno_reference: sizes must be at least 3, NITER at least 1\n");
    return 2;
  }

  Array a[4], b[3], c[3], p, bnd, wrk1, wrk2;
  const float omega = 0.8f;

  // initmt() / mat_set_init()
  for (int i = 0; i < imax; ++i)
    for (int j = 0; j < jmax; ++j)
      for (int k = 0; k < kmax; ++k) {
        a[0](i, j, k) = 1.0f;
        a[1](i, j, k) = 1.0f;
        a[2](i, j, k) = 1.0f;
        a[3](i, j, k) = static_cast<float>(1.0 / 6.0);
        b[0](i, j, k) = 0.0f;
        b[1](i, j, k) = 0.0f;
        b[2](i, j, k) = 0.0f;
        c[0](i, j, k) = 1.0f;
        c[1](i, j, k) = 1.0f;
        c[2](i, j, k) = 1.0f;
        p(i, j, k) = static_cast<float>(i * i) / static_cast<float>((imax - 1) * (imax - 1));
        wrk1(i, j, k) = 0.0f;
        bnd(i, j, k) = 1.0f;
      }
  if (use_pattern) {
    Array *arrays[13] = {&a[0], &a[1], &a[2], &a[3], &b[0], &b[1], &b[2],
                         &c[0], &c[1], &c[2], &bnd,  &wrk1, &p};
    for (int n = 0; n < 13; ++n)
      for (int i = 1; i < imax - 1; ++i)
        for (int j = 1; j < jmax - 1; ++j)
          for (int k = 1; k < kmax - 1; ++k)
            (*arrays[n])(i, j, k) = pattern(n < 12 ? n : 13, i, j, k);
  }

  // jacobi(nn)
  double gosa = 0.0;
  float gosa_float = 0.0f;
  for (int n = 0; n < nn; ++n) {
    gosa = 0.0;
    gosa_float = 0.0f;
    for (int i = 1; i < imax - 1; ++i)
      for (int j = 1; j < jmax - 1; ++j)
        for (int k = 1; k < kmax - 1; ++k) {
          const float s0 = a[0](i, j, k) * p(i + 1, j, k)
                         + a[1](i, j, k) * p(i, j + 1, k)
                         + a[2](i, j, k) * p(i, j, k + 1)
                         + b[0](i, j, k) * (p(i + 1, j + 1, k) - p(i + 1, j - 1, k)
                                            - p(i - 1, j + 1, k) + p(i - 1, j - 1, k))
                         + b[1](i, j, k) * (p(i, j + 1, k + 1) - p(i, j - 1, k + 1)
                                            - p(i, j + 1, k - 1) + p(i, j - 1, k - 1))
                         + b[2](i, j, k) * (p(i + 1, j, k + 1) - p(i - 1, j, k + 1)
                                            - p(i + 1, j, k - 1) + p(i - 1, j, k - 1))
                         + c[0](i, j, k) * p(i - 1, j, k)
                         + c[1](i, j, k) * p(i, j - 1, k)
                         + c[2](i, j, k) * p(i, j, k - 1)
                         + wrk1(i, j, k);
          const float ss = (s0 * a[3](i, j, k) - p(i, j, k)) * bnd(i, j, k);
          // The original accumulates in float; stencilc's reductions sum in double.
          gosa += static_cast<double>(ss * ss);
          gosa_float += ss * ss;
          wrk2(i, j, k) = p(i, j, k) + omega * ss;
        }
    for (int i = 1; i < imax - 1; ++i)
      for (int j = 1; j < jmax - 1; ++j)
        for (int k = 1; k < kmax - 1; ++k)
          p(i, j, k) = wrk2(i, j, k);
  }

  double checksum = 0.0;
  for (int i = 1; i < imax - 1; ++i)
    for (int j = 1; j < jmax - 1; ++j)
      for (int k = 1; k < kmax - 1; ++k)
        checksum += static_cast<double>(p(i, j, k));
  std::printf("gosa %.17g gosa_float %.9g checksum %.17g\n", gosa, static_cast<double>(gosa_float),
              checksum);
  return 0;
}
