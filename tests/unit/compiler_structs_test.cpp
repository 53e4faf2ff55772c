// Unit tests of struct element types (sema/structs): a program with struct grids means what the
// same program written with one grid per member means (the same checked IR), member grids are
// named grid_member_i_j in the order of the struct's scalars, and the .stn printer writes
// structs, struct grids and member accesses back.
#include "sema/structs.h"

#include <gtest/gtest.h>

#include <string>

#include "checked_ir.h"
#include "frontend/parse.h"
#include "frontend/stn_print.h"
#include "ir/ir.h"
#include "sema/check.h"
#include "sema/instantiate.h"

namespace {

using stc::DiagEngine;
using stc::SourceFile;

using stc::test::checked_ir;
using stc::test::printed_stn;

TEST(CompilerStructs, MemberGridNames) {
  EXPECT_EQ(stc::ast::member_grid_name("g", "p", {}), "g_p");
  EXPECT_EQ(stc::ast::member_grid_name("g", "r", {1, 0}), "g_r_1_0");
}

TEST(CompilerStructs, StructGridsMeanTheGridsWrittenOut) {
  const std::string with_structs = R"(stencil t;
param int N = 10;
struct P { double a; float r[2][2]; }
grid P g[N, N] boundary dirichlet(1.0);
grid readonly P c like g;
grid P h like g;
grid double w like g;
init g[i, j].r[1][0] = float(i + j);
kernel k(x, y; grid s, grid d) {
  d[x, y].a = s[x + 1, y].a + double(s[x, y].r[1][0]) * c[x, y].a;
  d[x, y].r[0][1] = s[x, y - 1].r[0][1] + c[x, y].r[1][1];
}
kernel keep(x, y) on [1:N-1, 1:N-1] { g[x, y] = h[x, y]; }
kernel mix(x, y) { w[x, y] = h[x, y].a; }
reduce total(x, y) = sum(h[x, y].r[0][0]);
run steps { k(g, h); swap g, h; keep; mix; total; }
)";
  // The member grids in the order of the struct's scalars, each with the struct grid's shape,
  // boundary and readonly (`like` a grid of the same struct: member from member, boundary
  // included; a grid of numbers like a struct grid: like its first member); a whole-element
  // copy and a swap one per member.
  const std::string written_out = R"(stencil t;
param int N = 10;
grid double g_a[N, N] boundary dirichlet(1.0);
grid float g_r_0_0[N, N] boundary dirichlet(1.0);
grid float g_r_0_1[N, N] boundary dirichlet(1.0);
grid float g_r_1_0[N, N] boundary dirichlet(1.0);
grid float g_r_1_1[N, N] boundary dirichlet(1.0);
grid readonly double c_a like g_a;
grid readonly float c_r_0_0 like g_r_0_0;
grid readonly float c_r_0_1 like g_r_0_1;
grid readonly float c_r_1_0 like g_r_1_0;
grid readonly float c_r_1_1 like g_r_1_1;
grid double h_a like g_a;
grid float h_r_0_0 like g_r_0_0;
grid float h_r_0_1 like g_r_0_1;
grid float h_r_1_0 like g_r_1_0;
grid float h_r_1_1 like g_r_1_1;
grid double w like g_a;
init g_r_1_0[i, j] = float(i + j);
kernel k(x, y) {
  h_a[x, y] = g_a[x + 1, y] + double(g_r_1_0[x, y]) * c_a[x, y];
  h_r_0_1[x, y] = g_r_0_1[x, y - 1] + c_r_1_1[x, y];
}
kernel keep(x, y) on [1:N-1, 1:N-1] {
  g_a[x, y] = h_a[x, y];
  g_r_0_0[x, y] = h_r_0_0[x, y];
  g_r_0_1[x, y] = h_r_0_1[x, y];
  g_r_1_0[x, y] = h_r_1_0[x, y];
  g_r_1_1[x, y] = h_r_1_1[x, y];
}
kernel mix(x, y) { w[x, y] = h_a[x, y]; }
reduce total(x, y) = sum(h_r_0_0[x, y]);
run steps {
  k; swap g_a, h_a; swap g_r_0_0, h_r_0_0; swap g_r_0_1, h_r_0_1; swap g_r_1_0, h_r_1_0;
  swap g_r_1_1, h_r_1_1; keep; mix; total;
}
)";
  const std::string a = checked_ir(with_structs), b = checked_ir(written_out);
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
}

TEST(CompilerStructs, PrinterWritesStructsAndMembers) {
  const std::string text = R"(stencil t;
param int N = 8;
struct Cell { double u; int n[3]; }
grid Cell c[N];
grid Cell d like c;
init c[i].n[2] = i;
kernel k(x) { d[x].u = c[x - 1].u + double(c[x].n[2]); d[x].n[0] = c[x].n[1]; }
kernel copy(x) { c[x] = d[x]; }
run steps { k; copy; }
)";
  const std::string printed = printed_stn(text);
  for (const char *want :
       {"struct Cell {\n  double u;\n  int n[3];\n}\n", "grid Cell c[N];", "grid Cell d like c;",
        "init c[i].n[2] = i;", "d[x].u = c[x - 1].u + double(c[x].n[2]);", "c[x] = d[x];"})
    EXPECT_NE(printed.find(want), std::string::npos) << want << "\n" << printed;
  EXPECT_EQ(checked_ir(printed), checked_ir(text));
}

} // namespace
