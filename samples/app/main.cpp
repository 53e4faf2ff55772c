// heat3d_app: an application of its own on the C++ API stencilc generates for
// samples/heat3d.stn. It sets a Gaussian hot spot as the initial temperature, runs the
// stencil, saves the initial and final grids as .npy and prints what a user can check: the
// total heat (kept until heat reaches the faces, which are held at 0), the peak and where it
// is, and the spread, whose variance grows by exactly 2*c1 per step in each dimension.
//
//   heat3d_app [N [STEPS [OUTPUT_DIR]]]     an N^3 grid (default 64), 50 steps, into .
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "heat3d.h"
#include "stencilc/error.h"

namespace {

struct Moments {
  double total = 0, peak = -1;
  std::int64_t at[3] = {0, 0, 0};
  double variance[3] = {0, 0, 0}; // of the heat's distribution along x, y, z
};

Moments moments(const stencilc::Grid<float> &u) {
  Moments m;
  double first[3] = {0, 0, 0}, second[3] = {0, 0, 0};
  for (std::int64_t z = 0; z < u.extent(2); ++z)
    for (std::int64_t y = 0; y < u.extent(1); ++y)
      for (std::int64_t x = 0; x < u.extent(0); ++x) {
        const double v = u.at(x, y, z);
        const std::int64_t i[3] = {x, y, z};
        m.total += v;
        for (int d = 0; d < 3; ++d) {
          first[d] += v * i[d];
          second[d] += v * i[d] * i[d];
        }
        if (v > m.peak) {
          m.peak = v;
          m.at[0] = x, m.at[1] = y, m.at[2] = z;
        }
      }
  for (int d = 0; d < 3; ++d) {
    const double mean = first[d] / m.total;
    m.variance[d] = second[d] / m.total - mean * mean;
  }
  return m;
}

std::int64_t positive(const char *arg, const char *what) {
  char *end = nullptr;
  const long long v = std::strtoll(arg, &end, 10);
  if (*arg == '\0' || *end != '\0' || v < 1 || v > 100000) {
    std::fprintf(stderr,
                 "error: %s '%s' is not an integer from 1 to 100000\n"
                 "usage: heat3d_app [N [STEPS [OUTPUT_DIR]]]\n",
                 what, arg);
    std::exit(2);
  }
  return v;
}

} // namespace

int main(int argc, char **argv) {
  const std::int64_t n = argc > 1 ? positive(argv[1], "N") : 64;
  const std::int64_t steps = argc > 2 ? positive(argv[2], "STEPS") : 50;
  const std::string out = argc > 3 ? argv[3] : ".";
  try {
    const std::string size = std::to_string(n);
    heat3d::Stencil s(
        heat3d::Params::from(stencilc::ParamSet({{"NX", size}, {"NY", size}, {"NZ", size}})));

    // The hot spot: a Gaussian of width sigma, off the centre of the cube.
    const double sigma = std::max(1.0, n / 20.0);
    const std::int64_t c[3] = {n / 3, n / 2, 2 * n / 3};
    stencilc::Grid<float> &u = s.u();
    for (std::int64_t z = 0; z < n; ++z)
      for (std::int64_t y = 0; y < n; ++y)
        for (std::int64_t x = 0; x < n; ++x) {
          const double r2 = double(x - c[0]) * (x - c[0]) + double(y - c[1]) * (y - c[1]) +
                            double(z - c[2]) * (z - c[2]);
          u.at(x, y, z) = static_cast<float>(std::exp(-r2 / (2 * sigma * sigma)));
        }
    s.save("u", out + "/u0.npy");
    const heat3d::Stencil &view = s; // read through the const accessors: no ghost refill
    const Moments before = moments(view.u());

    const auto t0 = std::chrono::steady_clock::now();
    s.run(steps);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    s.save("u", out + "/u.npy");
    const Moments after = moments(view.u());

    std::printf("heat3d_app: %lld^3 grid, Gaussian hot spot at (%lld, %lld, %lld), sigma %g\n",
                static_cast<long long>(n), static_cast<long long>(c[0]),
                static_cast<long long>(c[1]), static_cast<long long>(c[2]), sigma);
    std::printf("  %lld steps in %.3f s (plan %s, %d threads)\n", static_cast<long long>(steps),
                seconds, s.plan().c_str(), s.threads());
    std::printf("  total heat: %.6f before, %.6f after (heat leaves only through the faces)\n",
                before.total, after.total);
    std::printf("  peak: %.6f before, %.6f after, at (%lld, %lld, %lld)\n", before.peak, after.peak,
                static_cast<long long>(after.at[0]), static_cast<long long>(after.at[1]),
                static_cast<long long>(after.at[2]));
    const double growth = 2 * s.params().c1 * steps;
    std::printf("  variance x %.4f y %.4f z %.4f, grown by %.4f %.4f %.4f (2*c1*steps = %.4f)\n",
                after.variance[0], after.variance[1], after.variance[2],
                after.variance[0] - before.variance[0], after.variance[1] - before.variance[1],
                after.variance[2] - before.variance[2], growth);
    std::printf("  wrote %s/u0.npy (initial) and %s/u.npy (after %lld steps)\n", out.c_str(),
                out.c_str(), static_cast<long long>(steps));
  } catch (const stencilc::Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
