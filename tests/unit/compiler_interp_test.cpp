// Unit tests of the reference interpreter on tiny programs whose results are computed by hand.
#include "interp/interpreter.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <functional>
#include <optional>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

#include "frontend/parse.h"
#include "sema/check.h"
#include "stencilc/error.h"
#include "stencilc/npy.h"

namespace {

namespace ir = stc::ir;
using Overrides = std::map<std::string, double>;
using Point = std::array<std::int64_t, 4>;

// A checked program and interpreters over it (an Interpreter keeps a reference to the program,
// so the program lives here, as long as the interpreters).
class Compiled {
public:
  explicit Compiled(const std::string &text) {
    stc::SourceFile file("t.stn", text);
    stc::DiagEngine diags(&file);
    auto ast = stc::parse(file, diags); // parse, then check, as driver/pipeline.cpp does
    if (ast)
      prog_ = stc::check(*ast, diags);
    if (!prog_)
      ADD_FAILURE() << "the test program does not compile:\n" << diags.render();
  }
  bool ok() const { return prog_.has_value(); }
  const ir::Program &program() const { return *prog_; }

  std::vector<ir::Scalar> params(const Overrides &o = {}) const {
    return stc::resolve_params(*prog_, [&](const std::string &n, ir::Type t, ir::Scalar &v) {
      auto it = o.find(n);
      if (it == o.end())
        return false;
      v = ir::Scalar::of(t, it->second);
      return true;
    });
  }
  std::unique_ptr<stc::Interpreter> interp(const Overrides &o = {}) const {
    return std::make_unique<stc::Interpreter>(*prog_, params(o));
  }

private:
  std::optional<ir::Program> prog_;
};

int index_of(const ir::Program &p, const std::string &grid) {
  for (std::size_t i = 0; i < p.grids.size(); ++i)
    if (p.grids[i].name == grid)
      return static_cast<int>(i);
  ADD_FAILURE() << "no grid " << grid;
  return 0;
}

double at(const Compiled &c, const stc::Interpreter &in, const std::string &grid, Point p) {
  return in.at(index_of(c.program(), grid), p).d;
}
std::int64_t at_int(const Compiled &c, const stc::Interpreter &in, const std::string &grid,
                    Point p) {
  return in.at(index_of(c.program(), grid), p).i;
}

std::string error_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const stencilc::Error &e) {
    return e.what();
  }
  return "<no stencilc::Error>";
}

class TempDir {
public:
  TempDir() {
    std::string tmpl = ::testing::TempDir() + "stencilc_interp_XXXXXX";
    if (::mkdtemp(tmpl.data()))
      dir_ = tmpl;
  }
  ~TempDir() {
    if (!dir_.empty())
      std::filesystem::remove_all(dir_);
  }
  std::string path(const std::string &name) const { return dir_ + "/" + name; }

private:
  std::string dir_;
};

// ---------------------------------------------------------------- 1D average, Dirichlet 1.0

const char *kAvg1d = "stencil avg;\n"
                     "param int N = 5;\n"
                     "grid double u[N] boundary dirichlet(1.0);\n"
                     "grid double v like u;\n"
                     "kernel avg3(x) { v[x] = (u[x-1] + u[x] + u[x+1]) / 3.0; }\n"
                     "run steps { avg3; swap u, v; }\n";

TEST(CompilerInterp, Average1dOneStep) {
  // u starts at 0 inside, 1 in the ghost cells. One step:
  //   x=0: (1 + 0 + 0)/3 = 1/3;  x=1..3: 0;  x=4: (0 + 0 + 1)/3 = 1/3.
  Compiled c(kAvg1d);
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  in->run(1);
  const double want[5] = {1.0 / 3.0, 0.0, 0.0, 0.0, 1.0 / 3.0};
  for (int x = 0; x < 5; ++x)
    EXPECT_DOUBLE_EQ(at(c, *in, "u", {x, 0, 0, 0}), want[x]) << "x=" << x;
  // v holds the data u had before the swap: all zero.
  for (int x = 0; x < 5; ++x)
    EXPECT_EQ(at(c, *in, "v", {x, 0, 0, 0}), 0.0) << "x=" << x;
  EXPECT_DOUBLE_EQ(in->checksum("u"), 2.0 / 3.0);
  EXPECT_EQ(in->checksum("v"), 0.0);
}

TEST(CompilerInterp, Average1dTwoSteps) {
  // From [1/3, 0, 0, 0, 1/3] with ghosts 1:
  //   x=0: (1 + 1/3 + 0)/3 = 4/9;  x=1: (1/3 + 0 + 0)/3 = 1/9;  x=2: 0;
  //   x=3: 1/9;  x=4: 4/9.
  Compiled c(kAvg1d);
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  in->run(2);
  const double want[5] = {4.0 / 9.0, 1.0 / 9.0, 0.0, 1.0 / 9.0, 4.0 / 9.0};
  for (int x = 0; x < 5; ++x)
    EXPECT_DOUBLE_EQ(at(c, *in, "u", {x, 0, 0, 0}), want[x]) << "x=" << x;
  EXPECT_DOUBLE_EQ(in->checksum("u"), 10.0 / 9.0);
  EXPECT_DOUBLE_EQ(in->checksum("v"), 2.0 / 3.0); // the first step's result

  // Two calls of one step are the same as one call of two.
  auto in2 = c.interp();
  in2->run(1);
  in2->run(1);
  EXPECT_EQ(in2->checksum("u"), in->checksum("u"));
  EXPECT_EQ(in2->checksum("v"), in->checksum("v"));
}

TEST(CompilerInterp, ZeroStepsChangesNothing) {
  Compiled c(kAvg1d);
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  in->run(0);
  EXPECT_EQ(in->checksum("u"), 0.0);
}

// ---------------------------------------------------------------- 2D 5-point, hot cell

const char *kHot2d =
    "stencil hot;\n"
    "param int NX = 3, NY = 3;\n"
    "grid double u[NX, NY];\n" // Dirichlet 0 by default
    "grid double v like u;\n"
    "kernel k(x, y) {\n"
    "  v[x,y] = 0.5*u[x,y] + 0.125*(u[x-1,y] + u[x+1,y] + u[x,y-1] + u[x,y+1]);\n"
    "}\n"
    "run steps { k; swap u, v; }\n";

// Writes a C-order array of shape (ny, nx): element (x, y) at y*nx + x.
std::string write_grid(const TempDir &t, const std::string &name, int nx, int ny,
                       const std::map<std::pair<int, int>, double> &cells) {
  std::vector<double> data(static_cast<std::size_t>(nx * ny), 0.0);
  for (const auto &[xy, v] : cells)
    data[static_cast<std::size_t>(xy.second * nx + xy.first)] = v;
  const std::string p = t.path(name);
  stencilc::npy_write(p, "<f8", false, {ny, nx}, data.data(), data.size() * sizeof(double));
  return p;
}

TEST(CompilerInterp, FivePointHotCellInTheCentre) {
  Compiled c(kHot2d);
  ASSERT_TRUE(c.ok());
  TempDir t;
  auto in = c.interp();
  in->load("u", write_grid(t, "u.npy", 3, 3, {{{1, 1}, 1.0}}));
  EXPECT_EQ(in->checksum("u"), 1.0);
  in->run(1);
  // Centre 0.5*1; its four neighbours 0.125*1; the corners see no hot neighbour.
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) {
      const bool centre = x == 1 && y == 1, edge = (x == 1) != (y == 1);
      const double want = centre ? 0.5 : edge ? 0.125 : 0.0;
      EXPECT_EQ(at(c, *in, "u", {x, y, 0, 0}), want) << x << "," << y;
    }
  in->run(1);
  // Step 2: centre 0.5*0.5 + 0.125*4*0.125 = 0.3125;
  //         edge   0.5*0.125 + 0.125*(0.5 + 0 + 0 + 0) = 0.125;
  //         corner 0.125*(0.125 + 0.125) = 0.03125.
  EXPECT_EQ(at(c, *in, "u", {1, 1, 0, 0}), 0.3125);
  EXPECT_EQ(at(c, *in, "u", {1, 0, 0, 0}), 0.125);
  EXPECT_EQ(at(c, *in, "u", {0, 1, 0, 0}), 0.125);
  EXPECT_EQ(at(c, *in, "u", {2, 1, 0, 0}), 0.125);
  EXPECT_EQ(at(c, *in, "u", {1, 2, 0, 0}), 0.125);
  EXPECT_EQ(at(c, *in, "u", {0, 0, 0, 0}), 0.03125);
  EXPECT_EQ(at(c, *in, "u", {2, 2, 0, 0}), 0.03125);
  EXPECT_EQ(in->checksum("u"), 0.3125 + 4 * 0.125 + 4 * 0.03125);
}

TEST(CompilerInterp, FivePointHotCellNextToTheBoundaryKeepsOrientation) {
  // 4 x 3 grid, x contiguous; a hot cell 8 at (x=3, y=0), in a corner. One step:
  //   (3,0): 0.5*8 = 4;  (2,0) and (3,1): 0.125*8 = 1;  the rest 0 (1+1 leaks into ghosts).
  Compiled c(kHot2d);
  ASSERT_TRUE(c.ok());
  TempDir t;
  auto in = c.interp({{"NX", 4}, {"NY", 3}});
  in->load("u", write_grid(t, "u.npy", 4, 3, {{{3, 0}, 8.0}}));
  EXPECT_EQ(at(c, *in, "u", {3, 0, 0, 0}), 8.0);
  in->run(1);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 4; ++x) {
      double want = 0;
      if (x == 3 && y == 0)
        want = 4;
      else if ((x == 2 && y == 0) || (x == 3 && y == 1))
        want = 1;
      EXPECT_EQ(at(c, *in, "u", {x, y, 0, 0}), want) << x << "," << y;
    }
  EXPECT_EQ(in->checksum("u"), 6.0);
}

// ---------------------------------------------------------------- swaps

TEST(CompilerInterp, SwapExchangesTheDataBehindTheNames) {
  // Per step: inc (v = u + 1), swap, inc again.
  //   step 1: v=1; swap -> u=1, v=0; v = u+1 = 2.       => u=1, v=2
  //   step 2: v = u+1 = 2; swap -> u=2, v=1; v = 3.     => u=2, v=3
  Compiled c("stencil sw;\n"
             "grid double u[4];\n"
             "grid double v like u;\n"
             "kernel inc(x) { v[x] = u[x] + 1.0; }\n"
             "run steps { inc; swap u, v; inc; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  in->run(1);
  EXPECT_EQ(at(c, *in, "u", {0, 0, 0, 0}), 1.0);
  EXPECT_EQ(at(c, *in, "v", {0, 0, 0, 0}), 2.0);
  EXPECT_EQ(in->checksum("u"), 4.0);
  EXPECT_EQ(in->checksum("v"), 8.0);
  in->run(1);
  EXPECT_EQ(at(c, *in, "u", {3, 0, 0, 0}), 2.0);
  EXPECT_EQ(at(c, *in, "v", {3, 0, 0, 0}), 3.0);
}

TEST(CompilerInterp, GhostCellsBelongToTheNameNotTheStorage) {
  // u's boundary is 1, v's is 5; the kernel reads u's left ghost at x=0. After a swap the
  // name u still has boundary 1:  step 1: v=[1,0,0] -> u=[1,0,0];  step 2: v=[1,1,0] -> u;
  // step 3: u=[1,1,1]. (Were v's ghost value 5 used, a 5 would appear.)
  Compiled c("stencil gh;\n"
             "grid double u[3] boundary dirichlet(1.0);\n"
             "grid double v like u boundary dirichlet(5.0);\n"
             "kernel shift(x) { v[x] = u[x-1]; }\n"
             "run steps { shift; swap u, v; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  in->run(2);
  EXPECT_EQ(at(c, *in, "u", {0, 0, 0, 0}), 1.0);
  EXPECT_EQ(at(c, *in, "u", {1, 0, 0, 0}), 1.0);
  EXPECT_EQ(at(c, *in, "u", {2, 0, 0, 0}), 0.0);
  in->run(1);
  EXPECT_EQ(in->checksum("u"), 3.0);
}

// ---------------------------------------------------------------- statements in a kernel

TEST(CompilerInterp, LaterStatementSeesEarlierWriteAtTheSamePoint) {
  // Per point: a = b + 1, then b = a * 2 reads the a just written.
  //   step 1: a = 0 + 1 = 1, b = 2;   step 2: a = 3, b = 6.
  Compiled c("stencil two;\n"
             "grid double a[4];\n"
             "grid double b like a;\n"
             "kernel k(x) { a[x] = b[x] + 1.0; b[x] = a[x] * 2.0; }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  in->run(1);
  EXPECT_EQ(at(c, *in, "a", {2, 0, 0, 0}), 1.0);
  EXPECT_EQ(at(c, *in, "b", {2, 0, 0, 0}), 2.0);
  in->run(1);
  EXPECT_EQ(at(c, *in, "a", {0, 0, 0, 0}), 3.0);
  EXPECT_EQ(at(c, *in, "b", {3, 0, 0, 0}), 6.0);
}

TEST(CompilerInterp, IndicesAreValues) {
  // a = 2x, b = a + 1 = 2x + 1 at every x; in 2D c = 10y + x.
  Compiled c("stencil idx;\n"
             "grid double a[5];\n"
             "grid double b like a;\n"
             "grid double m[3, 2];\n"
             "kernel k(x) { a[x] = x * 2.0; b[x] = a[x] + 1.0; }\n"
             "kernel k2(x, y) { m[x,y] = 10 * y + x; }\n"
             "run steps { k; k2; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  in->run(1);
  for (int x = 0; x < 5; ++x) {
    EXPECT_EQ(at(c, *in, "a", {x, 0, 0, 0}), 2.0 * x);
    EXPECT_EQ(at(c, *in, "b", {x, 0, 0, 0}), 2.0 * x + 1);
  }
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x)
      EXPECT_EQ(at(c, *in, "m", {x, y, 0, 0}), 10.0 * y + x);
}

// ---------------------------------------------------------------- arithmetic types

TEST(CompilerInterp, IntGridArithmeticTruncates) {
  // b = (7x - 10)/3 + a[x-1]/2, with a = 0 inside and 7 in the ghost cells:
  //   x=0: -10/3 = -3 (not -4) and 7/2 = 3  ->  0
  //   x=1:  -3/3 = -1, a[0]/2 = 0           -> -1
  //   x=2:   4/3 = 1                         ->  1
  //   x=3:  11/3 = 3                         ->  3
  //   x=4:  18/3 = 6                         ->  6
  Compiled c("stencil ints;\n"
             "grid int a[5] boundary dirichlet(7);\n"
             "grid int b like a;\n"
             "kernel k(x) { b[x] = (x * 7 - 10) / 3 + a[x-1] / 2; }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  in->run(1);
  const std::int64_t want[5] = {0, -1, 1, 3, 6};
  for (int x = 0; x < 5; ++x)
    EXPECT_EQ(at_int(c, *in, "b", {x, 0, 0, 0}), want[x]) << "x=" << x;
  EXPECT_EQ(in->checksum("b"), 9.0);
}

TEST(CompilerInterp, IntegerDivisionByZeroInAKernelIsAnError) {
  Compiled c("stencil dz;\n"
             "grid int a[3];\n"
             "grid int b like a;\n"
             "kernel k(x) { b[x] = 10 / a[x]; }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  const std::string e = error_of([&] { in->run(1); });
  EXPECT_NE(e.find("kernel 'k' at (0, 0, 0, 0)"), std::string::npos) << e;
  EXPECT_NE(e.find("integer division by zero"), std::string::npos) << e;
}

TEST(CompilerInterp, FloatProgramComputesInFloat) {
  // x=0 reads the ghost 1: in float 1 + 1e-8 rounds to 1, so the result is exactly 0
  // (in double it would be about 1e-8). x=1 reads 0: the result is 1e-8 as a float.
  Compiled c("stencil fl;\n"
             "grid float u[3] boundary dirichlet(1.0);\n"
             "grid float v like u;\n"
             "kernel k(x) { v[x] = (u[x-1] + 0.00000001) - u[x-1]; }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  in->run(1);
  volatile float one = 1.0f, tiny = 1e-8f, zero = 0.0f;
  const float f0 = (one + tiny) - one, f1 = (zero + tiny) - zero;
  ASSERT_EQ(f0, 0.0f);
  ASSERT_NE((1.0 + 1e-8) - 1.0, 0.0);
  EXPECT_EQ(static_cast<float>(at(c, *in, "v", {0, 0, 0, 0})), f0);
  EXPECT_EQ(static_cast<float>(at(c, *in, "v", {1, 0, 0, 0})), f1);

  // The same program in double keeps the small difference.
  Compiled d("stencil db;\n"
             "grid double u[3] boundary dirichlet(1.0);\n"
             "grid double v like u;\n"
             "kernel k(x) { v[x] = (u[x-1] + 0.00000001) - u[x-1]; }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(d.ok());
  auto ind = d.interp();
  ind->run(1);
  volatile double done = 1.0, dtiny = 1e-8;
  EXPECT_EQ(at(d, *ind, "v", {0, 0, 0, 0}), (done + dtiny) - done);
}

TEST(CompilerInterp, FloatParamsAndLiteralsAreRoundedToFloat) {
  // v = c0*u[x-1] + c1/3.0 with u's ghost 0.7: every operand and result is a float.
  Compiled c("stencil fp;\n"
             "param float c0 = 0.4, c1 = 0.1;\n"
             "grid float u[3] boundary dirichlet(0.7);\n"
             "grid float v like u;\n"
             "kernel k(x) { v[x] = c0 * u[x-1] + c1 / 3.0; }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  in->run(1);
  volatile float c0 = 0.4f, c1 = 0.1f, g = 0.7f, three = 3.0f;
  const float prod = c0 * g, quot = c1 / three;
  volatile float sum = prod + quot;
  EXPECT_EQ(static_cast<float>(at(c, *in, "v", {0, 0, 0, 0})), sum);
  // A value with no float rounding at all: the interpreter result is a float.
  const double got = at(c, *in, "v", {0, 0, 0, 0});
  EXPECT_EQ(got, static_cast<double>(static_cast<float>(got)));
}

// ---------------------------------------------------------------- params and sizes

const char *kParams = "stencil pr;\n"
                      "param int N = 4;\n"
                      "param int M = N + 1;\n"
                      "param double c = 2.0;\n"
                      "grid double u[M];\n"
                      "kernel k(x) { u[x] = c * x; }\n"
                      "run steps { k; }\n";

TEST(CompilerInterp, ParamDefaults) {
  Compiled c(kParams);
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_EQ(in->cell_updates_per_step(), 5.0);
  in->run(1);
  EXPECT_EQ(at(c, *in, "u", {4, 0, 0, 0}), 8.0);
}

TEST(CompilerInterp, ParamsOverridden) {
  Compiled c(kParams);
  ASSERT_TRUE(c.ok());
  auto in = c.interp({{"N", 6}, {"c", 0.5}});
  EXPECT_EQ(in->cell_updates_per_step(), 7.0); // M = N + 1 = 7
  in->run(1);
  EXPECT_EQ(at(c, *in, "u", {6, 0, 0, 0}), 3.0);
  EXPECT_EQ(in->checksum("u"), 0.5 * (0 + 1 + 2 + 3 + 4 + 5 + 6));
}

TEST(CompilerInterp, InitRandomIsReproducible) {
  Compiled c(kAvg1d);
  ASSERT_TRUE(c.ok());
  auto a = c.interp({{"N", 32}}), b = c.interp({{"N", 32}}), d = c.interp({{"N", 32}});
  a->init_random(42);
  b->init_random(42);
  d->init_random(43);
  EXPECT_GT(a->checksum("u"), 0.0);
  EXPECT_EQ(a->checksum("u"), b->checksum("u"));
  EXPECT_EQ(a->checksum("v"), b->checksum("v"));
  EXPECT_NE(a->checksum("u"), d->checksum("u"));
  EXPECT_NE(a->checksum("u"), a->checksum("v")); // grids get different streams
  a->run(3);
  b->run(3);
  EXPECT_EQ(a->checksum("u"), b->checksum("u"));
}

TEST(CompilerInterp, CellUpdatesPerStepCountsEveryCall) {
  // k1 runs over 4x3 = 12 cells (twice), k2 over 2x2 = 4: 12 + 12 + 4 = 28.
  Compiled c("stencil cu;\n"
             "grid double u[4, 3];\n"
             "grid double v like u;\n"
             "grid double p[2, 2];\n"
             "grid double q like p;\n"
             "kernel k1(x, y) { v[x,y] = u[x,y]; }\n"
             "kernel k2(x, y) { q[x,y] = p[x,y]; }\n"
             "run steps { k1; swap u, v; k1; k2; }\n");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c.interp()->cell_updates_per_step(), 28.0);

  Compiled none("stencil none;\ngrid double u[4];\nkernel k(x) { u[x] = 1.0; }\nrun steps { }\n");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none.interp()->cell_updates_per_step(), 0.0);
}

TEST(CompilerInterp, DefaultSteps) {
  Compiled s(kAvg1d); // run steps
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s.interp()->default_steps(), 10);

  Compiled c("stencil nt;\nparam int NT = 7;\ngrid double u[4];\n"
             "kernel k(x) { u[x] = 1.0; }\nrun NT { k; }\n");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c.interp()->default_steps(), 7);
  EXPECT_EQ(c.interp({{"NT", 3}})->default_steps(), 3);

  Compiled e("stencil nt2;\nparam int NT = 7;\ngrid double u[4];\n"
             "kernel k(x) { u[x] = 1.0; }\nrun 2 * NT + 1 { k; }\n");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e.interp()->default_steps(), 15);
}

TEST(CompilerInterp, ProgramInterface) {
  Compiled c(kAvg1d);
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_EQ(in->name(), "avg");
  EXPECT_EQ(in->target(), "interp");
  EXPECT_EQ(in->threads(), 1);
  EXPECT_EQ(in->grid_names(), (std::vector<std::string>{"u", "v"}));
  EXPECT_EQ(error_of([&] { in->checksum("w"); }), "no grid named 'w' (grids: u, v)");
}

// ---------------------------------------------------------------- size errors

TEST(CompilerInterp, ExtentZeroViaOverride) {
  Compiled c(kAvg1d);
  ASSERT_TRUE(c.ok());
  const std::string e = error_of([&] { c.interp({{"N", 0}}); });
  EXPECT_NE(e.find("grid 'u'"), std::string::npos) << e;
  EXPECT_NE(e.find("extent 1 is 0"), std::string::npos) << e;
  EXPECT_NE(e.find("at least 1"), std::string::npos) << e;
}

TEST(CompilerInterp, StencilWiderThanGridViaOverride) {
  Compiled c("stencil wide;\n"
             "param int N = 8;\n"
             "grid double u[N];\n"
             "grid double v like u;\n"
             "kernel k(x) { v[x] = u[x-2] + u[x+2]; }\n"
             "run steps { k; swap u, v; }\n");
  ASSERT_TRUE(c.ok());
  EXPECT_NO_THROW(c.interp({{"N", 5}})); // width 5 fits exactly
  const std::string e = error_of([&] { c.interp({{"N", 4}}); });
  EXPECT_NE(e.find("grid 'u'"), std::string::npos) << e;
  EXPECT_NE(e.find("extent 4 in dimension 1 is smaller than the stencil width 5"),
            std::string::npos)
      << e;
}

TEST(CompilerInterp, DifferentShapesViaOverride) {
  Compiled c("stencil sh;\n"
             "param int N = 8, M = 8;\n"
             "grid double u[N];\n"
             "grid double w[M];\n"
             "grid double v like u;\n"
             "kernel k(x) { v[x] = u[x] + w[x]; }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  const std::string e = error_of([&] { c.interp({{"M", 6}}); });
  EXPECT_NE(e.find("kernel 'k'"), std::string::npos) << e;
  EXPECT_NE(e.find("different shapes"), std::string::npos) << e;
}

// The constructor documents stencilc::Error for sizes the program cannot run with; an extent
// that divides by an overridden zero must not escape as another exception type.
TEST(CompilerInterp, ExtentDividingByZeroViaOverrideIsAUserError) {
  Compiled c("stencil dv;\n"
             "param int N = 8, D = 1;\n"
             "grid double u[N / D];\n"
             "kernel k(x) { u[x] = 1.0; }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  EXPECT_THROW(c.interp({{"D", 0}}), stencilc::Error);
}

TEST(CompilerInterp, StepCountDividingByZeroViaOverrideIsAUserError) {
  Compiled c("stencil dv;\n"
             "param int NT = 8, D = 1;\n"
             "grid double u[4];\n"
             "kernel k(x) { u[x] = 1.0; }\n"
             "run NT / D { k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp({{"D", 0}});
  EXPECT_THROW(in->default_steps(), stencilc::Error);
}

} // namespace
