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
  EXPECT_EQ(in->run(1), 1); // steps done
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
  EXPECT_EQ(in->run(2), 2);
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
  EXPECT_EQ(in->run(0), 0);
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

// Writes the array --save writes, Fortran order with shape (nx, ny): element (x, y) at y*nx + x.
std::string write_grid(const TempDir &t, const std::string &name, int nx, int ny,
                       const std::map<std::pair<int, int>, double> &cells) {
  std::vector<double> data(static_cast<std::size_t>(nx * ny), 0.0);
  for (const auto &[xy, v] : cells)
    data[static_cast<std::size_t>(xy.second * nx + xy.first)] = v;
  const std::string p = t.path(name);
  stencilc::npy_write(p, "<f8", true, {nx, ny}, data.data(), data.size() * sizeof(double));
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


// ---------------------------------------------------------------- v2: ghost cells per face

// Ghost cells are filled when the interpreter is built, so they can be read before any step.
TEST(CompilerInterp, DirichletGhostsAreAnExpressionOfTheGhostIndices) {
  Compiled c("stencil gd;\n"
             "param double h = 1.0;\n"
             "grid double u[3, 3] boundary dirichlet(10.0 * x + y * h);\n"
             "grid double v like u;\n"
             "kernel k(x, y) { v[x,y] = u[x-1,y] + u[x+1,y] + u[x,y-1] + u[x,y+1]; }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_EQ(at(c, *in, "u", {-1, 0, 0, 0}), -10.0);
  EXPECT_EQ(at(c, *in, "u", {-1, 1, 0, 0}), -9.0);
  EXPECT_EQ(at(c, *in, "u", {3, 0, 0, 0}), 30.0);
  EXPECT_EQ(at(c, *in, "u", {3, 1, 0, 0}), 31.0);
  EXPECT_EQ(at(c, *in, "u", {0, -1, 0, 0}), -1.0);
  EXPECT_EQ(at(c, *in, "u", {2, -1, 0, 0}), 19.0);
  EXPECT_EQ(at(c, *in, "u", {1, 3, 0, 0}), 13.0);
  // Corners too: every dirichlet face evaluates the value at the ghost's own indices.
  EXPECT_EQ(at(c, *in, "u", {-1, -1, 0, 0}), -11.0);
  EXPECT_EQ(at(c, *in, "u", {3, 3, 0, 0}), 33.0);
  EXPECT_EQ(at(c, *in, "u", {-1, 3, 0, 0}), -7.0);
  EXPECT_EQ(at(c, *in, "u", {3, -1, 0, 0}), 29.0);
  // The interior starts at 0.
  EXPECT_EQ(in->checksum("u"), 0.0);
  EXPECT_EQ(in->run(1), 1);
  // v(0,0) = u(-1,0) + u(1,0) + u(0,-1) + u(0,1) = -10 + 0 - 1 + 0;
  // v(2,2) = u(1,2) + u(3,2) + u(2,1) + u(2,3) = 0 + 32 + 0 + 23.
  EXPECT_EQ(at(c, *in, "v", {0, 0, 0, 0}), -11.0);
  EXPECT_EQ(at(c, *in, "v", {2, 2, 0, 0}), 55.0);

  // Params in the value take their --set values.
  auto in2 = c.interp({{"h", 2.0}});
  EXPECT_EQ(at(c, *in2, "u", {0, -1, 0, 0}), -2.0);
  EXPECT_EQ(at(c, *in2, "u", {-1, 1, 0, 0}), -8.0);
}

const char *kHalo2 = "grid double v like u;\n"
                     "init u[i] = i + 1.0;\n" // 1 2 3 4 5
                     "kernel k(x) { v[x] = u[x-2] + u[x+2]; }\n"
                     "run steps { k; }\n";

TEST(CompilerInterp, NeumannGhostsMirrorTheInteriorWithHaloTwo) {
  // u[-k] = u[k-1] and u[n-1+k] = u[n-k]: u[-1] = u[0], u[-2] = u[1], u[5] = u[4], u[6] = u[3].
  Compiled c(std::string("stencil nm;\ngrid double u[5] boundary neumann;\n") + kHalo2);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c.program().grids[0].halo[0], 2);
  auto in = c.interp();
  EXPECT_EQ(at(c, *in, "u", {-1, 0, 0, 0}), 1.0);
  EXPECT_EQ(at(c, *in, "u", {-2, 0, 0, 0}), 2.0);
  EXPECT_EQ(at(c, *in, "u", {5, 0, 0, 0}), 5.0);
  EXPECT_EQ(at(c, *in, "u", {6, 0, 0, 0}), 4.0);
  in->run(1);
  // v[x] = u[x-2] + u[x+2]: 2+3, 1+4, 1+5, 2+5, 3+4.
  const double want[5] = {5, 5, 6, 7, 7};
  for (int x = 0; x < 5; ++x)
    EXPECT_EQ(at(c, *in, "v", {x, 0, 0, 0}), want[x]) << "x=" << x;
}

TEST(CompilerInterp, PeriodicGhostsWrapWithHaloTwo) {
  // u[-k] = u[n-k] and u[n-1+k] = u[k-1]: u[-1] = u[4], u[-2] = u[3], u[5] = u[0], u[6] = u[1].
  Compiled c(std::string("stencil pd;\ngrid double u[5] boundary periodic;\n") + kHalo2);
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_EQ(at(c, *in, "u", {-1, 0, 0, 0}), 5.0);
  EXPECT_EQ(at(c, *in, "u", {-2, 0, 0, 0}), 4.0);
  EXPECT_EQ(at(c, *in, "u", {5, 0, 0, 0}), 1.0);
  EXPECT_EQ(at(c, *in, "u", {6, 0, 0, 0}), 2.0);
  in->run(1);
  // v[x] = u[x-2] + u[x+2]: 4+3, 5+4, 1+5, 2+1, 3+2; the total doubles (30 = 2 * 15).
  const double want[5] = {7, 9, 6, 3, 5};
  for (int x = 0; x < 5; ++x)
    EXPECT_EQ(at(c, *in, "v", {x, 0, 0, 0}), want[x]) << "x=" << x;
  EXPECT_EQ(in->checksum("v"), 30.0);
}

TEST(CompilerInterp, DefaultFaceAndOverride) {
  Compiled c("stencil mx;\n"
             "grid double u[3] boundary(neumann, x-: dirichlet(-1.0));\n"
             "grid double v like u;\n"
             "init u[i] = i + 1.0;\n" // 1 2 3
             "kernel k(x) { v[x] = u[x-1] * 10.0 + u[x+1]; }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_EQ(at(c, *in, "u", {-1, 0, 0, 0}), -1.0); // x-: dirichlet
  EXPECT_EQ(at(c, *in, "u", {3, 0, 0, 0}), 3.0);   // x+: the default, neumann
  in->run(1);
  // -10 + 2, 10 + 3, 20 + 3
  EXPECT_EQ(at(c, *in, "v", {0, 0, 0, 0}), -8.0);
  EXPECT_EQ(at(c, *in, "v", {1, 0, 0, 0}), 13.0);
  EXPECT_EQ(at(c, *in, "v", {2, 0, 0, 0}), 23.0);
}

// Faces are filled in dimension order and the y faces span the x ghosts, so a corner ghost
// gets the y face's rule applied to the x ghosts (runtime/boundary.h).
std::string corner_program(const std::string &boundary) {
  return "stencil cr;\n"
         "grid double u[3, 3] boundary(" + boundary + ");\n"
         "grid double v like u;\n"
         "init u[i, j] = 10 * i + j;\n"
         "kernel k(x, y) { v[x,y] = u[x-1,y-1] + u[x+1,y+1]; }\n"
         "run steps { k; }\n";
}

TEST(CompilerInterp, CornerGhostsTakeTheLastDimensionsRule) {
  {
    // x ghosts: u[-1, j] = u[3, j] = 100 + j. y periodic over them: u[x, -1] = u[x, 2] and
    // u[x, 3] = u[x, 0], so u[-1, -1] = u[-1, 2] = 102 (not the dirichlet value 99).
    Compiled c(corner_program("x: dirichlet(100.0 + y), y: periodic"));
    ASSERT_TRUE(c.ok());
    auto in = c.interp();
    EXPECT_EQ(at(c, *in, "u", {-1, 1, 0, 0}), 101.0);
    EXPECT_EQ(at(c, *in, "u", {1, -1, 0, 0}), 12.0);
    EXPECT_EQ(at(c, *in, "u", {2, 3, 0, 0}), 20.0);
    EXPECT_EQ(at(c, *in, "u", {-1, -1, 0, 0}), 102.0);
    EXPECT_EQ(at(c, *in, "u", {-1, 3, 0, 0}), 100.0);
    EXPECT_EQ(at(c, *in, "u", {3, -1, 0, 0}), 102.0);
    EXPECT_EQ(at(c, *in, "u", {3, 3, 0, 0}), 100.0);
    in->run(1);
    // v(0,0) = u(-1,-1) + u(1,1) = 102 + 11;  v(2,2) = u(1,1) + u(3,3) = 11 + 100.
    EXPECT_EQ(at(c, *in, "v", {0, 0, 0, 0}), 113.0);
    EXPECT_EQ(at(c, *in, "v", {2, 2, 0, 0}), 111.0);
  }
  {
    // y neumann over the x ghosts: u[-1, -1] = u[-1, 0] = 100, u[-1, 3] = u[-1, 2] = 102.
    Compiled c(corner_program("x: dirichlet(100.0 + y), y: neumann"));
    ASSERT_TRUE(c.ok());
    auto in = c.interp();
    EXPECT_EQ(at(c, *in, "u", {1, -1, 0, 0}), 10.0);
    EXPECT_EQ(at(c, *in, "u", {-1, -1, 0, 0}), 100.0);
    EXPECT_EQ(at(c, *in, "u", {-1, 3, 0, 0}), 102.0);
    EXPECT_EQ(at(c, *in, "u", {3, -1, 0, 0}), 100.0);
  }
  {
    // x periodic first (u[-1, j] = u[2, j] = 20 + j), then y dirichlet everywhere along x,
    // ghosts included: u[-1, -1] = 50 + (-1).
    Compiled c(corner_program("x: periodic, y: dirichlet(50.0 + x)"));
    ASSERT_TRUE(c.ok());
    auto in = c.interp();
    EXPECT_EQ(at(c, *in, "u", {-1, 1, 0, 0}), 21.0);
    EXPECT_EQ(at(c, *in, "u", {3, 2, 0, 0}), 2.0);
    EXPECT_EQ(at(c, *in, "u", {-1, -1, 0, 0}), 49.0);
    EXPECT_EQ(at(c, *in, "u", {3, 3, 0, 0}), 53.0);
    EXPECT_EQ(at(c, *in, "u", {1, 3, 0, 0}), 51.0);
  }
}

TEST(CompilerInterp, NeumannAndPeriodicGhostsFollowTheDataEveryStep) {
  // v[x] = u[x-1] + u[x+1], then swap, on u = [0, 1, 2].
  //   neumann:  [0+1, 0+2, 1+2] = [1, 2, 3];  then [1+2, 1+3, 2+3] = [3, 4, 5].
  //   periodic: [2+1, 0+2, 1+0] = [3, 2, 1];  then [1+2, 3+1, 2+3] = [3, 4, 5].
  for (const char *bc : {"neumann", "periodic"}) {
    Compiled c(std::string("stencil td;\ngrid double u[3] boundary ") + bc +
               ";\ngrid double v like u;\ninit u[i] = 1.0 * i;\n"
               "kernel k(x) { v[x] = u[x-1] + u[x+1]; }\nrun steps { k; swap u, v; }\n");
    ASSERT_TRUE(c.ok()) << bc;
    auto in = c.interp();
    in->run(1);
    const bool neu = std::string(bc) == "neumann";
    EXPECT_EQ(at(c, *in, "u", {0, 0, 0, 0}), neu ? 1.0 : 3.0) << bc;
    EXPECT_EQ(at(c, *in, "u", {1, 0, 0, 0}), 2.0) << bc;
    EXPECT_EQ(at(c, *in, "u", {2, 0, 0, 0}), neu ? 3.0 : 1.0) << bc;
    in->run(1);
    for (int x = 0; x < 3; ++x)
      EXPECT_EQ(at(c, *in, "u", {x, 0, 0, 0}), 3.0 + x) << bc << " x=" << x;
  }
}

TEST(CompilerInterp, IntGridGhosts) {
  Compiled c("stencil ig;\n"
             "grid int a[3] boundary(x-: dirichlet(7 * x), x+: neumann);\n"
             "grid int b like a;\n"
             "init a[i] = i * i;\n"
             "kernel k(x) { b[x] = a[x-1] + a[x+1]; }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_EQ(at_int(c, *in, "a", {-1, 0, 0, 0}), -7);
  EXPECT_EQ(at_int(c, *in, "a", {3, 0, 0, 0}), 4);
  in->run(1);
  // -7 + 1, 0 + 4, 1 + 4
  EXPECT_EQ(at_int(c, *in, "b", {0, 0, 0, 0}), -6);
  EXPECT_EQ(at_int(c, *in, "b", {1, 0, 0, 0}), 4);
  EXPECT_EQ(at_int(c, *in, "b", {2, 0, 0, 0}), 5);
}

// ---------------------------------------------------------------- v2: init

TEST(CompilerInterp, InitValues) {
  Compiled c("stencil iv;\n"
             "param double h = 0.5;\n"
             "grid int m[3, 2];\n"
             "grid float f[4];\n"
             "grid double d like f;\n"
             "grid double z like f;\n"
             "init m[i, j] = i * 10 + j;\n"
             "init f[i] = i * 0.1;\n"
             "init d[i] = h * i + pow(2.0, i);\n"
             "kernel k(x) { z[x] = z[x] + d[x]; }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_EQ(at_int(c, *in, "m", {0, 0, 0, 0}), 0);
  EXPECT_EQ(at_int(c, *in, "m", {2, 0, 0, 0}), 20);
  EXPECT_EQ(at_int(c, *in, "m", {0, 1, 0, 0}), 1);
  EXPECT_EQ(at_int(c, *in, "m", {2, 1, 0, 0}), 21);
  EXPECT_EQ(in->checksum("m"), 63.0); // (0 + 10 + 20) * 2 + 3
  // Computed in double (i * 0.1), then stored as float.
  for (int x = 0; x < 4; ++x)
    EXPECT_EQ(at(c, *in, "f", {x, 0, 0, 0}), static_cast<double>(static_cast<float>(x * 0.1)))
        << x;
  // 0.5 i + 2^i: 1, 2.5, 5, 9.5.
  const double want[4] = {1.0, 2.5, 5.0, 9.5};
  for (int x = 0; x < 4; ++x)
    EXPECT_EQ(at(c, *in, "d", {x, 0, 0, 0}), want[x]) << x;
  EXPECT_EQ(in->checksum("z"), 0.0); // no init: zero
  in->run(2);
  EXPECT_EQ(in->checksum("z"), 2 * (1.0 + 2.5 + 5.0 + 9.5));

  // Inits see the params' --set values: 2 i + 2^i = 1, 4, 8, 14.
  auto in2 = c.interp({{"h", 2.0}});
  EXPECT_EQ(in2->checksum("d"), 27.0);

  // init_random leaves grids with an init alone (they define the problem).
  auto in3 = c.interp();
  in3->init_random(7);
  EXPECT_EQ(in3->checksum("m"), 63.0);
  EXPECT_EQ(in3->checksum("d"), 18.0);
  EXPECT_NE(in3->checksum("z"), 0.0);
}

TEST(CompilerInterp, InitDividingByZeroIsAUserError) {
  Compiled c("stencil iz;\ngrid int a[3];\ninit a[i] = 10 / i;\n"
             "kernel k(x) { a[x] = a[x] + 1; }\nrun steps { k; }\n");
  ASSERT_TRUE(c.ok());
  const std::string e = error_of([&] { c.interp(); });
  EXPECT_NE(e.find("init of grid 'a'"), std::string::npos) << e;
  EXPECT_NE(e.find("integer division by zero"), std::string::npos) << e;
}

// ---------------------------------------------------------------- v2: statements, operators

TEST(CompilerInterp, LetIfElsePerPoint) {
  // t = 2x = 0, 2, 4, 6, 8:  v = 1 (t < 3), 1, 2 (t < 6), 3 + 6, 3 + 8.
  // w gets 5 more at even x only; the odd points keep their value.
  // a: x != 0 && 10 / x >= 5 -- short-circuit: no division by zero at x = 0.
  // b: 12 / x only where x != 0 (only the chosen branch is evaluated).
  Compiled c("stencil li;\n"
             "grid double v[5];\n"
             "grid double w like v;\n"
             "grid int a like v;\n"
             "grid int b like v;\n"
             "kernel k(x) {\n"
             "  let t = x * 2;\n"
             "  if (t < 3) { v[x] = 1.0; }\n"
             "  else if (t < 6) { v[x] = 2.0; }\n"
             "  else { v[x] = 3.0 + t; }\n"
             "  if (x % 2 == 0) { let five = 5.0; w[x] = w[x] + five; }\n"
             "  a[x] = x != 0 && 10 / x >= 5 ? 1 : 0;\n"
             "  b[x] = x == 0 ? 0 : 12 / x;\n"
             "}\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_EQ(in->run(1), 1);
  const double v[5] = {1, 1, 2, 9, 11};
  const double w[5] = {5, 0, 5, 0, 5};
  const std::int64_t a[5] = {0, 1, 1, 0, 0};
  const std::int64_t b[5] = {0, 12, 6, 4, 3};
  for (int x = 0; x < 5; ++x) {
    EXPECT_EQ(at(c, *in, "v", {x, 0, 0, 0}), v[x]) << x;
    EXPECT_EQ(at(c, *in, "w", {x, 0, 0, 0}), w[x]) << x;
    EXPECT_EQ(at_int(c, *in, "a", {x, 0, 0, 0}), a[x]) << x;
    EXPECT_EQ(at_int(c, *in, "b", {x, 0, 0, 0}), b[x]) << x;
  }
  in->run(1);
  EXPECT_EQ(in->checksum("w"), 30.0);
  EXPECT_EQ(in->checksum("v"), 24.0);
}

TEST(CompilerInterp, GridReadsInConditionsAndLetsSeeTheGhosts) {
  // u = 0 inside, 1 in the ghosts (halo 2, from the read in the condition).
  //   v[x] = 1 where u[x+2] > 0.5 (x = 3, 4), else 2 u[x-2] (2 at x = 0, 1; 0 at x = 2).
  Compiled c("stencil gc;\n"
             "grid double u[5] boundary dirichlet(1.0);\n"
             "grid double v like u;\n"
             "kernel k(x) {\n"
             "  if (u[x+2] > 0.5) { v[x] = 1.0; } else { let t = u[x-2]; v[x] = 2.0 * t; }\n"
             "}\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c.program().grids[0].halo[0], 2);
  auto in = c.interp();
  in->run(1);
  const double want[5] = {2, 2, 0, 1, 1};
  for (int x = 0; x < 5; ++x)
    EXPECT_EQ(at(c, *in, "v", {x, 0, 0, 0}), want[x]) << x;
}

TEST(CompilerInterp, IntOperatorsMathAndConversions) {
  Compiled c("stencil op;\n"
             "grid int a[5];\n"
             "grid int b like a;\n"
             "grid int t like a;\n"
             "grid double d like a;\n"
             "grid float f like a;\n"
             "kernel k(x) {\n"
             "  a[x] = (x - 4) % 3;\n"
             "  b[x] = abs(x - 2) + min(x, 3) * max(x, 1) + int(x * 0.75);\n"
             "  t[x] = int(x - 2.7);\n"
             "  d[x] = floor(x * 0.5) + pow(2.0, x) + sqrt(x * x);\n"
             "  f[x] = float(x) / 4.0 - abs(-0.5);\n"
             "}\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  in->run(1);
  // % truncates towards zero like C++: -4 % 3 = -1, -2 % 3 = -2.
  const std::int64_t a[5] = {-1, 0, -2, -1, 0};
  // |x-2| + min(x,3) * max(x,1) + int(0.75 x): 2+0+0, 1+1+0, 0+4+1, 1+9+2, 2+12+3.
  const std::int64_t b[5] = {2, 2, 5, 12, 17};
  // int() truncates towards zero: -2.7 -> -2, -1.7 -> -1, -0.7 -> 0, 0.3 -> 0, 1.3 -> 1.
  const std::int64_t t[5] = {-2, -1, 0, 0, 1};
  // floor(x/2) + 2^x + sqrt(x^2): 0+1+0, 0+2+1, 1+4+2, 1+8+3, 2+16+4.
  const double d[5] = {1, 3, 7, 12, 22};
  // x/4 - 0.5 in float: -0.5, -0.25, 0, 0.25, 0.5.
  const double f[5] = {-0.5, -0.25, 0, 0.25, 0.5};
  for (int x = 0; x < 5; ++x) {
    EXPECT_EQ(at_int(c, *in, "a", {x, 0, 0, 0}), a[x]) << x;
    EXPECT_EQ(at_int(c, *in, "b", {x, 0, 0, 0}), b[x]) << x;
    EXPECT_EQ(at_int(c, *in, "t", {x, 0, 0, 0}), t[x]) << x;
    EXPECT_EQ(at(c, *in, "d", {x, 0, 0, 0}), d[x]) << x;
    EXPECT_EQ(at(c, *in, "f", {x, 0, 0, 0}), f[x]) << x;
  }
}

// ---------------------------------------------------------------- v2: domains and colours

TEST(CompilerInterp, RangeDomainUpdatesOnlyItsBox) {
  Compiled c("stencil rd;\n"
             "param int N = 4;\n"
             "grid double u[N, 3];\n"
             "kernel k(x, y) on [1:N-1, 1:2] { u[x,y] = 1.0 + x + 10 * y; }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_EQ(in->cell_updates_per_step(), 2.0);
  in->run(1);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 4; ++x) {
      const double want = y == 1 && (x == 1 || x == 2) ? 1.0 + x + 10 * y : 0.0;
      EXPECT_EQ(at(c, *in, "u", {x, y, 0, 0}), want) << x << "," << y;
    }
  EXPECT_EQ(in->checksum("u"), 25.0); // 12 + 13
  // The box follows the params: x in [1, 5) for N = 6.
  auto in6 = c.interp({{"N", 6}});
  EXPECT_EQ(in6->cell_updates_per_step(), 4.0);
  in6->run(1);
  EXPECT_EQ(in6->checksum("u"), 12.0 + 13 + 14 + 15);
  EXPECT_EQ(at(c, *in6, "u", {5, 1, 0, 0}), 0.0);
}

TEST(CompilerInterp, RangeDomainOutsideTheGridIsAnError) {
  Compiled c("stencil ro;\n"
             "param int N = 4, LO = 0, HI = 4;\n"
             "grid double u[N];\n"
             "kernel k(x) on [LO:HI] { u[x] = 1.0; }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  EXPECT_NO_THROW(c.interp());
  std::string e = error_of([&] { c.interp({{"HI", 5}}); });
  EXPECT_NE(e.find("kernel 'k': domain [0:5] in dimension 1 is not inside [0:4]"),
            std::string::npos)
      << e;
  e = error_of([&] { c.interp({{"LO", 3}, {"HI", 2}}); });
  EXPECT_NE(e.find("domain [3:2]"), std::string::npos) << e;
  // An empty box is allowed and updates nothing.
  auto in = c.interp({{"LO", 2}, {"HI", 2}});
  EXPECT_EQ(in->cell_updates_per_step(), 0.0);
  in->run(1);
  EXPECT_EQ(in->checksum("u"), 0.0);
}

const char *kRedBlack1d = "stencil rb;\n"
                          "grid double u[4] boundary dirichlet(1.0);\n"
                          "kernel red(x) on red { u[x] = (u[x-1] + u[x+1]) * 0.5; }\n"
                          "kernel black(x) on black { u[x] = (u[x-1] + u[x+1]) * 0.5; }\n";

TEST(CompilerInterp, RedThenBlackSweeps1d) {
  // Ghosts 1, u = 0. Red (x = 0, 2): (1 + 0)/2 = 0.5, (0 + 0)/2 = 0.
  // Black (x = 1, 3) reads the new red values: (0.5 + 0)/2 = 0.25, (0 + 1)/2 = 0.5.
  // Step 2, red: (1 + 0.25)/2 = 0.625, (0.25 + 0.5)/2 = 0.375;
  //         black: (0.625 + 0.375)/2 = 0.5, (0.375 + 1)/2 = 0.6875.
  Compiled c(std::string(kRedBlack1d) + "run steps { red; black; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_EQ(in->cell_updates_per_step(), 4.0);
  in->run(1);
  const double s1[4] = {0.5, 0.25, 0.0, 0.5};
  for (int x = 0; x < 4; ++x)
    EXPECT_EQ(at(c, *in, "u", {x, 0, 0, 0}), s1[x]) << x;
  in->run(1);
  const double s2[4] = {0.625, 0.5, 0.375, 0.6875};
  for (int x = 0; x < 4; ++x)
    EXPECT_EQ(at(c, *in, "u", {x, 0, 0, 0}), s2[x]) << x;

  // A red sweep alone leaves the black points untouched.
  Compiled r(std::string(kRedBlack1d) + "run steps { red; }\n");
  ASSERT_TRUE(r.ok());
  auto inr = r.interp();
  EXPECT_EQ(inr->cell_updates_per_step(), 2.0);
  inr->run(1);
  const double red_only[4] = {0.5, 0.0, 0.0, 0.0};
  for (int x = 0; x < 4; ++x)
    EXPECT_EQ(at(r, *inr, "u", {x, 0, 0, 0}), red_only[x]) << x;
}

TEST(CompilerInterp, RedThenBlackSweeps2d) {
  // u = (b + 4 neighbours) / 4 with b = 1, ghosts 0, on 3x3. Red = even x+y: the 4 corners and
  // the centre; black = the 4 edge midpoints.
  //   step 1: red 1/4 each (their neighbours are black or ghosts, all 0);
  //           black (1 + 3 * 1/4) / 4 = 0.4375 each (three red neighbours, one ghost).
  //   step 2: corners (1 + 2 * 0.4375) / 4 = 0.46875, centre (1 + 4 * 0.4375) / 4 = 0.6875;
  //           black (1 + 2 * 0.46875 + 0.6875) / 4 = 0.65625.
  Compiled c("stencil rb2;\n"
             "grid double u[3, 3];\n"
             "grid readonly double b like u;\n"
             "init b[i, j] = 1.0;\n"
             "kernel red(x, y) on red {\n"
             "  u[x,y] = (b[x,y] + u[x-1,y] + u[x+1,y] + u[x,y-1] + u[x,y+1]) / 4.0;\n"
             "}\n"
             "kernel black(x, y) on black {\n"
             "  u[x,y] = (b[x,y] + u[x-1,y] + u[x+1,y] + u[x,y-1] + u[x,y+1]) / 4.0;\n"
             "}\n"
             "run steps { red; black; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_EQ(in->cell_updates_per_step(), 9.0); // 5 red + 4 black
  in->run(1);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x)
      EXPECT_EQ(at(c, *in, "u", {x, y, 0, 0}), (x + y) % 2 == 0 ? 0.25 : 0.4375) << x << "," << y;
  EXPECT_EQ(in->checksum("u"), 3.0);
  in->run(1);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) {
      const double want = (x + y) % 2 ? 0.65625 : x == 1 && y == 1 ? 0.6875 : 0.46875;
      EXPECT_EQ(at(c, *in, "u", {x, y, 0, 0}), want) << x << "," << y;
    }
  EXPECT_EQ(in->checksum("u"), 5.1875);
}

TEST(CompilerInterp, ColoursIn4d) {
  // u = x + 2y + 4z + 8w on 2^4 cells: the total is 0 + ... + 15 = 120; the red cells (even
  // x+y+z+w) are 0, 3, 5, 6, 9, 10, 12, 15 = 60. Black cells are then set to -1.
  Compiled c("stencil four;\n"
             "grid double u[2, 2, 2, 2];\n"
             "init u[x, y, z, w] = x + 2 * y + 4 * z + 8 * w;\n"
             "reduce total(x, y, z, w) = sum(u[x,y,z,w]);\n"
             "reduce reds(x, y, z, w) on red = sum(u[x,y,z,w]);\n"
             "kernel k(x, y, z, w) on black { u[x,y,z,w] = -1.0; }\n"
             "run 1 { total; reds; k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_EQ(in->cell_updates_per_step(), 8.0);
  EXPECT_EQ(in->run(in->default_steps()), 1);
  const auto r = in->reductions();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].second, 120.0);
  EXPECT_EQ(r[1].second, 60.0);
  EXPECT_EQ(in->checksum("u"), 60.0 - 8.0);
  EXPECT_EQ(at(c, *in, "u", {1, 0, 1, 1}), -1.0);
  EXPECT_EQ(at(c, *in, "u", {1, 0, 1, 0}), 5.0);
}

// ---------------------------------------------------------------- v2: reductions

TEST(CompilerInterp, ReductionsSumMinMaxNorm2) {
  // u = i^2 = 0, 1, 4, 9; ghosts 100.
  Compiled c("stencil rs;\n"
             "grid double u[4] boundary dirichlet(100.0);\n"
             "init u[i] = i * i;\n"
             "reduce s(x) = sum(u[x]);\n"
             "reduce lo(x) = min(u[x]);\n"
             "reduce hi(x) = max(u[x]);\n"
             "reduce n2(x) = norm2(u[x]);\n"
             "reduce part(x) on [1:3] = sum(u[x]);\n"
             "reduce reds(x) on red = sum(u[x]);\n"
             "reduce blacks(x) on black = sum(u[x]);\n"
             "reduce diff(x) = sum(u[x+1] - u[x]);\n"
             "reduce neg(x) on [1:4] = max(-u[x]);\n"
             "run 1 { s; lo; hi; n2; part; reds; blacks; diff; neg; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  // Not computed yet: NaN.
  for (const auto &[name, v] : in->reductions())
    EXPECT_TRUE(std::isnan(v)) << name;
  EXPECT_EQ(in->run(1), 1);
  const auto r = in->reductions();
  const std::vector<std::pair<std::string, double>> want = {
      {"s", 14.0},     {"lo", 0.0},      {"hi", 9.0},
      {"n2", std::sqrt(98.0)},                        // sqrt(0 + 1 + 16 + 81)
      {"part", 5.0},                                  // 1 + 4
      {"reds", 4.0},   {"blacks", 10.0},              // x = 0, 2 and x = 1, 3
      {"diff", 100.0},                                // telescopes to u[4] - u[0], a ghost
      {"neg", -1.0}};                                 // max(-1, -4, -9)
  ASSERT_EQ(r.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r[i].first, want[i].first);
    EXPECT_EQ(r[i].second, want[i].second) << want[i].first;
  }
}

TEST(CompilerInterp, Reductions2dOverAnIntGrid) {
  // m = i + 3j: row y=0 is 0 1 2, row y=1 is 3 4 5.
  Compiled c("stencil r2;\n"
             "grid int m[3, 2];\n"
             "init m[i, j] = i + 3 * j;\n"
             "reduce t(x, y) = sum(m[x,y]);\n"
             "reduce mx(x, y) on [0:2, 1:2] = max(m[x,y] * 2);\n"
             "reduce nn(x, y) = norm2(m[x,y] - 2.5);\n"
             "reduce bl(x, y) on black = min(m[x,y]);\n"
             "run 1 { t; mx; nn; bl; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  in->run(1);
  const auto r = in->reductions();
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].second, 15.0);
  EXPECT_EQ(r[1].second, 8.0);             // cells (0,1) and (1,1): 3 and 4, doubled
  EXPECT_EQ(r[2].second, std::sqrt(17.5)); // 2 * (2.5^2 + 1.5^2 + 0.5^2)
  EXPECT_EQ(r[3].second, 1.0);             // black: (1,0) = 1, (0,1) = 3, (2,1) = 5
}

// ---------------------------------------------------------------- v2: run until

const char *kCounter = "stencil cnt;\n"
                       "grid double c[1];\n"
                       "kernel inc(x) { c[x] = c[x] + 1.0; }\n"
                       "reduce total(x) = sum(c[x]);\n";

TEST(CompilerInterp, RunUntilStopsAtTheFirstStepWhereTheConditionHolds) {
  Compiled c(std::string(kCounter) + "run until total >= 3.0 max 10 { inc; total; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_TRUE(in->has_condition());
  EXPECT_FALSE(in->converged());
  EXPECT_EQ(in->default_steps(), 10); // the `max`
  EXPECT_EQ(in->run(in->default_steps()), 3);
  EXPECT_TRUE(in->converged());
  EXPECT_EQ(at(c, *in, "c", {0, 0, 0, 0}), 3.0);
  ASSERT_EQ(in->reductions().size(), 1u);
  EXPECT_EQ(in->reductions()[0].second, 3.0);

  // Fewer steps than needed: all are done, and the loop has not converged.
  auto in2 = c.interp();
  EXPECT_EQ(in2->run(2), 2);
  EXPECT_FALSE(in2->converged());
  EXPECT_EQ(at(c, *in2, "c", {0, 0, 0, 0}), 2.0);
  // Going on: the condition holds after one more step.
  EXPECT_EQ(in2->run(10), 1);
  EXPECT_TRUE(in2->converged());
  // No steps: nothing done, not converged.
  auto in3 = c.interp();
  EXPECT_EQ(in3->run(0), 0);
  EXPECT_FALSE(in3->converged());
}

// Integer values reduce in 64-bit integers: sums and products modulo 2^64 (in double these
// would be 1.8e19 and 8.5e37), min and max exactly.
TEST(CompilerInterp, IntegerReductionsAreExactModulo2To64) {
  Compiled c("stencil t;\n"
             "grid long g[4];\n"
             "init g[x] = 4611686018427387904 + x;\n" // 2^62 + x
             "reduce total(x) = sum(g[x]);\n"
             "reduce product(x) = prod(g[x] - 4611686018427387900);\n" // 4 * 5 * 6 * 7
             // (2^32 + x) for x = 0..3: 6 * 2^32 modulo 2^64
             "reduce twice(x) = prod(g[x] - 4611686018427387904 + 4294967296);\n"
             "reduce least(x) = min(g[x] - 4611686018427387904);\n"
             "reduce real(x) = sum(double(g[x]));\n"
             "run 1 { total; product; twice; least; real; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  in->run(1);
  const auto r = in->reductions();
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].second, 6.0);
  EXPECT_EQ(r[1].second, 840.0);
  EXPECT_EQ(r[2].second, 25769803776.0);
  EXPECT_EQ(r[3].second, 0.0);
  EXPECT_EQ(r[4].second, 4 * 4611686018427387904.0); // a double sum: no wrap
}

TEST(CompilerInterp, RunUntilReachingTheLimit) {
  Compiled c(std::string(kCounter) + "run until total >= 100.0 max 4 { inc; total; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_EQ(in->default_steps(), 4);
  EXPECT_EQ(in->run(in->default_steps()), 4);
  EXPECT_FALSE(in->converged());
  EXPECT_EQ(in->reductions()[0].second, 4.0);
}

TEST(CompilerInterp, FirstIsTheFirstComputedValue) {
  // u starts at 8 (two cells); each step halves it, then r = sum(u). first(r) is r after the
  // first step, 8 (not the 16 before it). r / first(r) = 1, 1/2, 1/4, 1/8, 1/16 < 0.1: the
  // loop stops after step 5 (with first(r) = 16 it would stop after step 4).
  Compiled c("stencil fr;\n"
             "grid double u[2];\n"
             "init u[i] = 8.0;\n"
             "kernel half(x) { u[x] = u[x] * 0.5; }\n"
             "reduce r(x) = sum(u[x]);\n"
             "run until r / first(r) < 0.1 max 100 { half; r; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_EQ(in->run(in->default_steps()), 5);
  EXPECT_TRUE(in->converged());
  EXPECT_EQ(at(c, *in, "u", {0, 0, 0, 0}), 0.25);
  EXPECT_EQ(in->reductions()[0].second, 0.5);
  // first(r) stays the first value ever computed: one more step gives 1/32 < 0.1 at once.
  EXPECT_EQ(in->run(100), 1);
  EXPECT_TRUE(in->converged());
}

TEST(CompilerInterp, RunWithoutConditionDoesAllSteps) {
  Compiled c(kAvg1d);
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_FALSE(in->has_condition());
  EXPECT_EQ(in->run(3), 3);
  EXPECT_FALSE(in->converged());
  EXPECT_TRUE(in->reductions().empty());
}

// ---------------------------------------------------------------- v2: run-time errors

TEST(CompilerInterp, IntRemainderByZeroNamesTheKernelAndPoint) {
  // d = x - 1: 10 % -1 = 0 at x = 0, then a division by zero at x = 1.
  Compiled c("stencil mz;\n"
             "grid int a[3];\n"
             "kernel k(x) { let d = x - 1; a[x] = 10 % d; }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  const std::string e = error_of([&] { in->run(1); });
  EXPECT_NE(e.find("kernel 'k' at (1, 0, 0, 0)"), std::string::npos) << e;
  EXPECT_NE(e.find("integer division by zero"), std::string::npos) << e;
}

TEST(CompilerInterp, IntDivisionByZeroInAReductionNamesTheReduction) {
  Compiled c("stencil rz;\n"
             "grid int a[3];\n"
             "reduce r(x) = sum(10 / a[x]);\n"
             "run until r > 1.0 max 5 { r; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  const std::string e = error_of([&] { in->run(1); });
  EXPECT_NE(e.find("reduction 'r' at (0, 0, 0, 0)"), std::string::npos) << e;
  EXPECT_NE(e.find("integer division by zero"), std::string::npos) << e;
}

TEST(CompilerInterp, IntConversionOverflowIsAnError) {
  Compiled c("stencil co;\n"
             "grid int a[2];\n"
             "grid double w like a;\n"
             "kernel k(x) { a[x] = int(w[x] + 1e300 * 1e300); }\n"
             "run steps { k; }\n");
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  const std::string e = error_of([&] { in->run(1); });
  EXPECT_NE(e.find("kernel 'k' at (0, 0, 0, 0)"), std::string::npos) << e;
  EXPECT_NE(e.find("overflows"), std::string::npos) << e;
}

} // namespace

namespace {

// ---------------------------------------------------------------- named run blocks

const char *kBlocks = "stencil blocks;\n"
                      "param int N = 3, K = 2;\n"
                      "grid double u[N], v[N];\n"
                      "kernel add(x) { u[x] = u[x] + double(x + 1); }\n"
                      "kernel twice(x) { v[x] = 2.0 * u[x]; }\n"
                      "reduce total(x) = sum(u[x]);\n"
                      "run setup: K { add; total; }\n"
                      "run steps { twice; swap u, v; total; }\n"
                      "run tail: 0 { add; }\n";

TEST(CompilerInterp, NamedBlocksRunInOrderBeforeTheMainOne) {
  Compiled c(kBlocks);
  ASSERT_TRUE(c.ok());
  auto in = c.interp();
  EXPECT_EQ(in->blocks(), (std::vector<std::string>{"setup", "tail"}));
  EXPECT_EQ(in->block_steps("setup"), 2);
  EXPECT_EQ(in->block_steps("tail"), 0);
  // The prologue: setup twice (u = 2, 4, 6; total 12), tail not at all.
  in->prologue();
  EXPECT_DOUBLE_EQ(at(c, *in, "u", {2, 0, 0, 0}), 6.0);
  EXPECT_DOUBLE_EQ(in->reductions().front().second, 12.0);
  // Then the main block: u = 4, 8, 12 (total 24); a named block runs alone when asked.
  EXPECT_EQ(in->run(1), 1);
  EXPECT_DOUBLE_EQ(in->reductions().front().second, 24.0);
  in->run_block("tail", 3);
  EXPECT_DOUBLE_EQ(at(c, *in, "u", {0, 0, 0, 0}), 7.0);
  EXPECT_DOUBLE_EQ(at(c, *in, "u", {2, 0, 0, 0}), 21.0);
  // A count from params, checked when asked.
  auto neg = c.interp({{"K", -1}});
  EXPECT_EQ(error_of([&] { neg->block_steps("setup"); }),
            "run block 'setup': the step count is -1; it must be at least 0");
  EXPECT_EQ(error_of([&] { in->run_block("nope", 1); }), "no run block named 'nope'");
}

} // namespace
