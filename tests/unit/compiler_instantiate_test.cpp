// Unit tests of kernel parameters (sema/instantiate): the copies a program's calls make mean
// what the same kernels written out by hand mean (the same checked IR), calls with the same
// arguments share a copy, and the .stn printer writes parameters and arguments back.
#include "sema/instantiate.h"

#include <gtest/gtest.h>

#include <string>

#include "checked_ir.h"
#include "frontend/parse.h"
#include "frontend/stn_print.h"
#include "ir/ir.h"
#include "sema/check.h"

namespace {

using stc::DiagEngine;
using stc::SourceFile;

using stc::test::checked_ir;
using stc::test::printed_stn;

const char *kHead = R"(stencil t;
param int N = 12;
param double nu = 0.1;
grid double u[N] boundary dirichlet(0.0);
grid double v like u boundary dirichlet(0.0);
grid float p like u boundary periodic;
grid float q like u boundary periodic;
)";

TEST(CompilerInstantiate, CopiesMeanTheKernelsWrittenOut) {
  const std::string with_params = std::string(kHead) + R"(
kernel smooth(x; grid a, grid b, double c) { b[x] = a[x] + c * (a[x-1] - 2.0 * a[x] + a[x+1]); }
kernel lift(x; grid a, grid b, int lo, float by) on [lo:N-1] { b[x] = a[x] + by * lo; }
run steps { smooth(u, v, nu); smooth(p, q, 2.0 * nu); lift(v, u, 2, 0.5); smooth(u, v, nu);
            swap p, q; }
)";
  const std::string written_out = std::string(kHead) + R"(
kernel smooth(x) { v[x] = u[x] + double(nu) * (u[x-1] - 2.0 * u[x] + u[x+1]); }
kernel smooth_2(x) { q[x] = p[x] + double(2.0 * nu) * (p[x-1] - 2.0 * p[x] + p[x+1]); }
kernel lift(x) on [int(2):N-1] { u[x] = v[x] + float(0.5) * int(2); }
run steps { smooth; smooth_2; lift; smooth; swap p, q; }
)";
  const std::string a = checked_ir(with_params), b = checked_ir(written_out);
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
}

TEST(CompilerInstantiate, CopyNamesAvoidTheProgramsNames) {
  const std::string text = std::string(kHead) + R"(
kernel k(x; grid a) { a[x] = 1.0; }
kernel k_2(x) { u[x] = 2.0; }
run steps { k(u); k(v); k_2; }
)";
  const std::string ir = checked_ir(text);
  EXPECT_NE(ir.find("kernel k(x)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("kernel k_2_2(x)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("kernel k_2(x)"), std::string::npos) << ir;
}

TEST(CompilerInstantiate, PrinterWritesParametersAndArguments) {
  const std::string text = std::string(kHead) + R"(
kernel smooth(x; grid a, grid b, double c, long n) { b[x] = a[x] * c + n; }
run steps { smooth(u, v, nu * 2.0, N - 1); swap u, v; }
)";
  const std::string printed = printed_stn(text);
  EXPECT_NE(printed.find("kernel smooth(x; grid a, grid b, double c, long n) {"), std::string::npos)
      << printed;
  EXPECT_NE(printed.find("smooth(u, v, nu * 2.0, N - 1);"), std::string::npos) << printed;
  // ... and the printed text means the same program.
  EXPECT_EQ(checked_ir(printed), checked_ir(text));
}

TEST(CompilerPrint, PrinterWritesNamedRunBlocks) {
  const std::string text = std::string(kHead) + R"(
kernel smooth(x; grid a, grid b, double c, long n) { b[x] = a[x] * c + n; }
run setup: N - 2 { smooth(u, v, nu, 1); }
run steps { smooth(u, v, nu * 2.0, N - 1); swap u, v; }
)";
  const std::string printed = printed_stn(text);
  EXPECT_NE(printed.find("run setup: N - 2 { smooth(u, v, nu, 1); }"), std::string::npos)
      << printed;
  EXPECT_EQ(checked_ir(printed), checked_ir(text));
}

} // namespace
