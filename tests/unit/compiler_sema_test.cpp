// Unit tests of semantic checking: check() into ir::Program, its diagnostics, resolve_params().
#include "sema/check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "frontend/parse.h"
#include "stencilc/error.h"

namespace {

using stc::DiagEngine;
using stc::SourceFile;
namespace ir = stc::ir;

struct Checked {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<DiagEngine> diags;
  std::optional<ir::Program> prog;
  bool parsed = false;
  std::string render() const { return diags->render(); }
};

Checked check_text(const std::string &text) {
  Checked c;
  c.file = std::make_unique<SourceFile>("t.stn", text);
  c.diags = std::make_unique<DiagEngine>(c.file.get());
  auto ast = stc::parse(*c.file, *c.diags);
  c.parsed = ast.has_value();
  if (!ast) {
    ADD_FAILURE() << "syntax error in test input:\n" << c.diags->render();
    return c;
  }
  c.prog = stc::check(*ast, *c.diags);
  return c;
}

// Checks a program expected to be valid.
ir::Program valid(const std::string &text) {
  Checked c = check_text(text);
  if (!c.prog) {
    ADD_FAILURE() << "unexpected errors:\n" << c.render();
    return {};
  }
  EXPECT_EQ(c.diags->error_count(), 0);
  return std::move(*c.prog);
}

struct Expected {
  int line, col;
  std::string message; // a substring of the message
};

// Exactly these errors, in this order (notes and warnings are ignored).
void expect_errors(const std::string &text, const std::vector<Expected> &want) {
  Checked c = check_text(text);
  if (!c.parsed)
    return;
  EXPECT_FALSE(c.prog) << "the program was accepted";
  std::vector<stc::Diagnostic> errs;
  for (const auto &d : c.diags->diagnostics())
    if (d.severity == stc::Severity::Error)
      errs.push_back(d);
  EXPECT_EQ(c.diags->error_count(), static_cast<int>(want.size())) << c.render();
  ASSERT_EQ(errs.size(), want.size()) << c.render();
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(errs[i].loc.line, want[i].line) << "error " << i << ": " << errs[i].message;
    EXPECT_EQ(errs[i].loc.col, want[i].col) << "error " << i << ": " << errs[i].message;
    EXPECT_NE(errs[i].message.find(want[i].message), std::string::npos)
        << "error " << i << " is '" << errs[i].message << "', expected it to contain '"
        << want[i].message << "'";
  }
}

int grid_named(const ir::Program &p, const std::string &name) {
  for (std::size_t i = 0; i < p.grids.size(); ++i)
    if (p.grids[i].name == name)
      return static_cast<int>(i);
  ADD_FAILURE() << "no grid " << name;
  return 0;
}

// The value of the i-th assignment of kernel k, printed.
std::string value_of(const ir::Program &p, int k, int i) {
  if (k >= static_cast<int>(p.kernels.size()) ||
      i >= static_cast<int>(p.kernels[k].body.size()))
    return "<missing>";
  return ir::print(p, p.kernels[k].body[i].value);
}

std::vector<ir::Offsets> reads_of(const ir::ExprPtr &e) {
  std::vector<ir::Offsets> out;
  ir::walk(e, [&](const ir::Expr &x) {
    if (x.op == ir::Op::GridRead)
      out.push_back(x.offset);
  });
  return out;
}

// Every face of a grid, low before high, dimension by dimension, as "x-:KIND(VALUE)".
std::string faces_of(const ir::Program &p, const ir::Grid &g) {
  std::string s;
  for (int f = 0; f < 2 * g.rank; ++f) {
    const ir::Face &face = g.faces[f];
    s += (f ? " " : "") + std::string(1, "xyzw"[f / 2]) + (f % 2 ? "+:" : "-:") +
         ir::boundary_name(face.kind);
    if (face.kind == ir::BoundaryKind::Dirichlet)
      s += "(" + ir::print(p, face.value) + ")";
  }
  return s;
}

const char *kFloatHeader = "stencil s;\n"
                           "param int N = 8;\n"
                           "param float c = 0.25;\n"
                           "param double d = 2.0;\n"
                           "grid float u[N] boundary dirichlet(1.0);\n"
                           "grid float v like u;\n"
                           "grid double w[N];\n"
                           "grid int a[N];\n";

ir::Program float_kernel(const std::string &stmts) {
  return valid(std::string(kFloatHeader) + "kernel k(x) { " + stmts + " }\nrun steps { k; }\n");
}

// ---------------------------------------------------------------- types

TEST(CompilerSema, WeakLiteralBecomesFloatNextToAFloat) {
  auto p = float_kernel("v[x] = 0.5 * u[x] + c;");
  const auto &e = p.kernels[0].body[0].value;
  EXPECT_EQ(ir::print(p, e), "((0.5:float * u[+0]) + c)");
  EXPECT_EQ(e->type, ir::Type::Float);
  ASSERT_EQ(e->a->a->op, ir::Op::FloatConst);
  EXPECT_EQ(e->a->a->type, ir::Type::Float);
  EXPECT_EQ(e->a->a->spelling, "0.5");
  // 0.1 is not a float: the value must be rounded to float.
  auto q = float_kernel("v[x] = u[x] * 0.1;");
  const auto &lit = q.kernels[0].body[0].value->b;
  ASSERT_EQ(lit->op, ir::Op::FloatConst);
  EXPECT_EQ(lit->type, ir::Type::Float);
  EXPECT_EQ(lit->fval, static_cast<double>(0.1f));
}

// The generated code spells the literal with an 'f' suffix, which C++ rounds once, from the
// decimal, to float. The value the interpreter uses must be that same float. This decimal lies
// just above the midpoint 1 + 2^-24 of two floats: rounded once it is 1 + 2^-23, but rounded
// first to double it becomes exactly the midpoint, which then rounds (to even) down to 1.
TEST(CompilerSema, FloatLiteralValueIsRoundedOnceLikeCxx) {
  const char *lit = "1.0000000596046447753906250001";
  auto p = valid(std::string("stencil s;\nparam float c = ") + lit + ";\nrun steps { }\n");
  ASSERT_EQ(p.params.size(), 1u);
  ASSERT_TRUE(p.params[0].init);
  ASSERT_EQ(p.params[0].init->op, ir::Op::FloatConst);
  ASSERT_NE(std::strtof(lit, nullptr), static_cast<float>(std::strtod(lit, nullptr)));
  EXPECT_EQ(p.params[0].init->fval, static_cast<double>(std::strtof(lit, nullptr)));
  EXPECT_EQ(p.params[0].init->fval, static_cast<double>(1.0000000596046447753906250001f));
}

TEST(CompilerSema, WeakLiteralIsDoubleOtherwise) {
  auto p = float_kernel("w[x] = 0.5 * w[x]; w[x] = d * 0.5; w[x] = 0.5 * 2 + w[x];");
  EXPECT_EQ(value_of(p, 0, 0), "(0.5:double * w[+0])");
  EXPECT_EQ(value_of(p, 0, 1), "(d * 0.5:double)");
  // Next to an int the literal stays double and the int is converted.
  EXPECT_EQ(value_of(p, 0, 2), "((0.5:double * double(2)) + w[+0])");
  EXPECT_EQ(p.kernels[0].body[2].value->type, ir::Type::Double);
  // A double literal written into a double param keeps its exact value.
  EXPECT_EQ(ir::print(p, p.params[2].init), "2.0:double");
  EXPECT_EQ(p.params[2].init->fval, 2.0);
  // ...and into a float param becomes a float literal.
  EXPECT_EQ(ir::print(p, p.params[1].init), "0.25:float");
}

TEST(CompilerSema, NegatedWeakLiteralFollowsItsPartner) {
  auto p = float_kernel("v[x] = -0.5 * u[x]; v[x] = u[x] - -2.5;");
  EXPECT_EQ(value_of(p, 0, 0), "(-(0.5:float) * u[+0])");
  EXPECT_EQ(value_of(p, 0, 1), "(u[+0] - -(2.5:float))");
}

// `long` widens a grid's storage only: it reads as an int, its elements are 64-bit, and as a
// param or a conversion it is int.
TEST(CompilerSema, LongGridsAreWideIntGrids) {
  auto p = valid("stencil s;\nparam long N = 8;\ngrid long a[N] boundary dirichlet(5000000000);\n"
                 "grid int n[N];\nkernel k(x) { n[x] = a[x-1] + long(2.0); }\nrun steps { k; }\n");
  EXPECT_EQ(p.params[0].type, ir::Type::Int);
  EXPECT_EQ(p.grids[0].type, ir::Type::Int);
  EXPECT_TRUE(p.grids[0].wide);
  EXPECT_FALSE(p.grids[1].wide);
  EXPECT_STREQ(ir::elem_name(p.grids[0]), "std::int64_t");
  EXPECT_STREQ(ir::elem_name(p.grids[1]), "std::int32_t");
  EXPECT_EQ(ir::elem_bytes(p.grids[0]), 8u);
  EXPECT_EQ(ir::elem_bytes(p.grids[1]), 4u);
  EXPECT_EQ(faces_of(p, p.grids[0]), "x-:dirichlet(5000000000) x+:dirichlet(5000000000)");
  EXPECT_EQ(ir::print(p, p.kernels[0].body[0].value), "(a[-1] + int(2.0:double))");
}

TEST(CompilerSema, IntsArePromotedWithCasts) {
  auto p = float_kernel("v[x] = u[x] * N; v[x] = 2 * u[x]; w[x] = u[x] + d; v[x] = a[x] / 2;"
                        " a[x] = a[x] * 3 - N;");
  EXPECT_EQ(value_of(p, 0, 0), "(u[+0] * float(N))");
  EXPECT_EQ(value_of(p, 0, 1), "(float(2) * u[+0])");
  EXPECT_EQ(value_of(p, 0, 2), "(double(u[+0]) + d)");
  // Int arithmetic stays int; the assignment converts the result.
  EXPECT_EQ(value_of(p, 0, 3), "float((a[+0] / 2))");
  EXPECT_EQ(value_of(p, 0, 4), "((a[+0] * 3) - N)");
  EXPECT_EQ(p.kernels[0].body[4].value->type, ir::Type::Int);
}

TEST(CompilerSema, AssignmentConvertsBetweenFloatAndDouble) {
  auto p = float_kernel("v[x] = d; w[x] = c; v[x] = w[x];");
  EXPECT_EQ(value_of(p, 0, 0), "float(d)");
  EXPECT_EQ(value_of(p, 0, 1), "double(c)");
  EXPECT_EQ(value_of(p, 0, 2), "float(w[+0])");
  for (const auto &a : p.kernels[0].body)
    EXPECT_EQ(a.value->type, p.grids[a.grid].type);
}

TEST(CompilerSema, KernelIndicesAreIntValues) {
  auto p = float_kernel("a[x] = x + 1; w[x] = x * 0.5;");
  EXPECT_EQ(value_of(p, 0, 0), "(i0 + 1)");
  EXPECT_EQ(value_of(p, 0, 1), "(double(i0) * 0.5:double)");
}

TEST(CompilerSema, UnaryPlusLeavesNoNode) {
  auto p = float_kernel("v[x] = +u[x];");
  EXPECT_EQ(value_of(p, 0, 0), "u[+0]");
}

// ---------------------------------------------------------------- offsets, halos, domains

TEST(CompilerSema, GridReadOffsets) {
  auto p = valid("stencil s;\n"
                 "grid double u[9, 9, 9];\n"
                 "grid double v like u;\n"
                 "kernel k(x, y, z) {\n"
                 "  v[x,y,z] = u[x-1, y+2, z] + u[1+x, y, z-3] + u[x - -1, y, -2+z] + u[x,y,z];\n"
                 "}\n"
                 "run steps { k; }\n");
  auto r = reads_of(p.kernels[0].body[0].value);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0], (ir::Offsets{-1, 2, 0, 0}));
  EXPECT_EQ(r[1], (ir::Offsets{1, 0, -3, 0}));
  EXPECT_EQ(r[2], (ir::Offsets{1, 0, -2, 0}));
  EXPECT_EQ(r[3], (ir::Offsets{0, 0, 0, 0}));
  EXPECT_EQ(value_of(p, 0, 0),
            "(((u[-1,+2,+0] + u[+1,+0,-3]) + u[+1,+0,-2]) + u[+0,+0,+0])");
}

TEST(CompilerSema, OffsetsMayBeConstantExpressions) {
  auto p = valid("stencil s;\n"
                 "grid double u[20];\n"
                 "grid double v like u;\n"
                 "kernel k(i) { v[i] = u[i + 2*3] + u[i - (1+1)] + u[i + -4]; }\n"
                 "run steps { k; }\n");
  auto r = reads_of(p.kernels[0].body[0].value);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0][0], 6);
  EXPECT_EQ(r[1][0], -2);
  EXPECT_EQ(r[2][0], -4);
}

// A for loop is unrolled: its variable becomes each value (negative ones too) in offsets and
// values, nested bounds may use it, a let of the body is one local per iteration, and a var is
// one mutable local assigned again (a float value into a double var converted).
TEST(CompilerSema, ForLoopsAreUnrolledAndVarsReassigned) {
  auto p = valid("stencil s;\n"
                 "grid double u[20];\n"
                 "grid double v like u;\n"
                 "kernel k(x) {\n"
                 "  var a = 0.0;\n"
                 "  for i in [-1:1] {\n"
                 "    for j in [0:i + 2] {\n"
                 "      let t = u[x + i + j];\n"
                 "      a = a + t * float(j);\n"
                 "    }\n"
                 "  }\n"
                 "  v[x] = a;\n"
                 "}\n"
                 "run steps { k; }\n");
  const auto &k = p.kernels[0];
  // var a; (i=-1: j=0) let, set; (i=0: j=0, j=1) let, set, let, set; the store.
  ASSERT_EQ(k.body.size(), 8u);
  ASSERT_EQ(k.locals.size(), 4u);
  EXPECT_TRUE(k.locals[0].mut);
  EXPECT_EQ(k.locals[0].name, "a");
  EXPECT_EQ(k.locals[1].name, "t__im1__j0");
  EXPECT_EQ(k.locals[2].name, "t__i0__j0");
  EXPECT_EQ(k.locals[3].name, "t__i0__j1");
  EXPECT_FALSE(k.locals[1].mut);
  std::vector<int> offsets;
  for (const auto &st : k.body)
    for (const auto &o : reads_of(st.value))
      offsets.push_back(o[0]);
  EXPECT_EQ(offsets, (std::vector<int>{-1, 0, 1}));
  EXPECT_FALSE(k.body[0].reassign);
  EXPECT_TRUE(k.body[2].reassign);
  EXPECT_EQ(k.body[2].local, 0);
  EXPECT_EQ(value_of(p, 0, 2), "(local0 + (local1 * double(float(0))))");
  EXPECT_EQ(value_of(p, 0, 6), "(local0 + (local3 * double(float(1))))");
}

TEST(CompilerSema, HaloIsTheWidestReadOffset) {
  auto p = valid("stencil s;\n"
                 "grid float u[16, 16];\n"
                 "grid float v like u;\n"
                 "grid readonly float k[16, 16];\n"
                 "kernel a(x, y) { v[x,y] = u[x-2,y] + u[x+1,y+1] + k[x,y]; }\n"
                 "kernel b(x, y) { v[x,y] = u[x,y-3]; }\n"
                 "run steps { a; b; }\n");
  EXPECT_EQ(p.grids[grid_named(p, "u")].halo, (ir::Offsets{2, 3, 0, 0}));
  EXPECT_EQ(p.grids[grid_named(p, "v")].halo, (ir::Offsets{0, 0, 0, 0}));
  EXPECT_EQ(p.grids[grid_named(p, "k")].halo, (ir::Offsets{0, 0, 0, 0}));
}

TEST(CompilerSema, HaloIsJoinedOverSwappedGrids) {
  // u is read at radius (1, 0), w at (0, 2); c swaps with b which swaps with a: one class.
  auto p = valid("stencil s;\n"
                 "grid double u[8, 8];\n"
                 "grid double v like u;\n"
                 "grid double w like u;\n"
                 "grid double a like u;\n"
                 "grid double b like u;\n"
                 "grid double c like u;\n"
                 "kernel k(x, y) { v[x,y] = u[x+1,y] + w[x,y-2]; a[x,y] = u[x-1,y]; }\n"
                 "kernel m(x, y) { c[x,y] = a[x,y+1]; }\n"
                 "run steps { k; m; swap u, v; swap c, b; swap b, a; }\n");
  EXPECT_EQ(p.grids[grid_named(p, "u")].halo, (ir::Offsets{1, 0, 0, 0}));
  EXPECT_EQ(p.grids[grid_named(p, "v")].halo, (ir::Offsets{1, 0, 0, 0}));
  EXPECT_EQ(p.grids[grid_named(p, "w")].halo, (ir::Offsets{0, 2, 0, 0}));
  EXPECT_EQ(p.grids[grid_named(p, "a")].halo, (ir::Offsets{0, 1, 0, 0}));
  EXPECT_EQ(p.grids[grid_named(p, "b")].halo, (ir::Offsets{0, 1, 0, 0}));
  EXPECT_EQ(p.grids[grid_named(p, "c")].halo, (ir::Offsets{0, 1, 0, 0}));
}

TEST(CompilerSema, DomainGridIsTheFirstWrittenGrid) {
  auto p = valid("stencil s;\n"
                 "grid double a[6];\n"
                 "grid double b like a;\n"
                 "grid double c like a;\n"
                 "kernel k(x) { c[x] = a[x]; b[x] = c[x]; }\n"
                 "kernel m(x) { b[x] = a[x]; c[x] = 1.0; b[x] = 2.0; }\n"
                 "run steps { k; m; }\n");
  EXPECT_EQ(p.kernels[0].domain_grid, grid_named(p, "c"));
  EXPECT_EQ(p.kernels[1].domain_grid, grid_named(p, "b"));
  ASSERT_EQ(p.kernels[1].body.size(), 3u);
  EXPECT_EQ(p.kernels[1].body[0].grid, grid_named(p, "b"));
  EXPECT_EQ(p.kernels[1].body[1].grid, grid_named(p, "c"));
  EXPECT_EQ(p.kernels[1].rank, 1);
  EXPECT_EQ(p.kernels[1].indices, std::vector<std::string>{"x"});
}

TEST(CompilerSema, RunBlock) {
  auto p = valid("stencil s;\n"
                 "param int NT = 7;\n"
                 "grid double u[4];\n"
                 "grid double v like u;\n"
                 "kernel k(x) { v[x] = u[x]; }\n"
                 "run steps { k; swap u, v; k; }\n");
  EXPECT_EQ(p.steps, nullptr);
  EXPECT_EQ(p.run_loc.line, 6);
  EXPECT_EQ(p.run_loc.col, 1);
  ASSERT_EQ(p.run.size(), 3u);
  EXPECT_EQ(p.run[0].kind, ir::RunStmt::Kind::Call);
  EXPECT_EQ(p.run[0].a, 0);
  EXPECT_EQ(p.run[1].kind, ir::RunStmt::Kind::Swap);
  EXPECT_EQ(p.run[1].a, grid_named(p, "u"));
  EXPECT_EQ(p.run[1].b, grid_named(p, "v"));
  EXPECT_EQ(p.run[2].kind, ir::RunStmt::Kind::Call);

  auto q = valid("stencil s;\nparam int NT = 7;\ngrid double u[4];\nkernel k(x) { u[x] = 1.0; }\n"
                 "run 2 * NT { k; }\n");
  ASSERT_TRUE(q.steps);
  EXPECT_EQ(ir::print(q, q.steps), "(2 * NT)");

  auto r = valid("stencil s;\ngrid double u[4];\nkernel k(x) { u[x] = 1.0; }\nrun 5 { k; }\n");
  ASSERT_TRUE(r.steps);
  EXPECT_EQ(r.steps->op, ir::Op::IntConst);
  EXPECT_EQ(r.steps->ival, 5);
}

TEST(CompilerSema, RunStepsUsesAParamNamedSteps) {
  auto p = valid("stencil s;\nparam int steps = 3;\ngrid double u[4];\n"
                 "kernel k(x) { u[x] = 1.0; }\nrun steps { k; }\n");
  ASSERT_TRUE(p.steps);
  EXPECT_EQ(p.steps->op, ir::Op::Param);
}

TEST(CompilerSema, LikeCopiesExtentsAndBoundary) {
  auto p = valid("stencil s;\n"
                 "param int NX = 5, NY = 3;\n"
                 "param double b = 0.75;\n"
                 "grid float u[NX, 2*NY] boundary dirichlet(b);\n"
                 "grid float v like u;\n"
                 "grid float w like u boundary dirichlet(2.5);\n"
                 "grid double z like u;\n"
                 "grid readonly float r like v;\n"
                 "kernel k(x, y) { v[x,y] = u[x,y] + w[x,y] + r[x,y]; z[x,y] = 1.0; }\n"
                 "run steps { k; }\n");
  const auto &u = p.grids[grid_named(p, "u")];
  EXPECT_EQ(u.rank, 2);
  ASSERT_EQ(u.extents.size(), 2u);
  EXPECT_EQ(ir::print(p, u.extents[0]), "NX");
  EXPECT_EQ(ir::print(p, u.extents[1]), "(2 * NY)");
  EXPECT_EQ(faces_of(p, u), "x-:dirichlet(float(b)) x+:dirichlet(float(b)) "
                            "y-:dirichlet(float(b)) y+:dirichlet(float(b))");
  for (const char *n : {"v", "w", "z", "r"}) {
    const auto &g = p.grids[grid_named(p, n)];
    EXPECT_EQ(g.rank, 2) << n;
    ASSERT_EQ(g.extents.size(), 2u) << n;
    EXPECT_EQ(ir::print(p, g.extents[0]), "NX") << n;
    EXPECT_EQ(ir::print(p, g.extents[1]), "(2 * NY)") << n;
  }
  EXPECT_EQ(faces_of(p, p.grids[grid_named(p, "v")]), faces_of(p, u));
  EXPECT_EQ(faces_of(p, p.grids[grid_named(p, "w")]),
            "x-:dirichlet(2.5:float) x+:dirichlet(2.5:float) "
            "y-:dirichlet(2.5:float) y+:dirichlet(2.5:float)");
  EXPECT_EQ(faces_of(p, p.grids[grid_named(p, "r")]), faces_of(p, u));
  EXPECT_TRUE(p.grids[grid_named(p, "r")].readonly);
  EXPECT_FALSE(p.grids[grid_named(p, "v")].readonly);
  // A grid of another type does not inherit a value of the wrong type: it gets the default 0.
  const auto &z = p.grids[grid_named(p, "z")];
  EXPECT_EQ(z.type, ir::Type::Double);
  for (int f = 0; f < 2 * z.rank; ++f) {
    ASSERT_TRUE(z.faces[f].value) << f;
    EXPECT_EQ(z.faces[f].kind, ir::BoundaryKind::Dirichlet) << f;
    EXPECT_EQ(z.faces[f].value->type, ir::Type::Double) << f;
    EXPECT_EQ(z.faces[f].value->fval, 0.0) << f;
  }
}

TEST(CompilerSema, DefaultBoundaryIsZeroOfTheGridType) {
  auto p = valid("stencil s;\ngrid float f[4];\ngrid int i[4];\ngrid double d[4];\n"
                 "kernel k(x) { f[x] = 1.0; i[x] = 1; d[x] = 1.0; }\nrun steps { k; }\n");
  EXPECT_EQ(faces_of(p, p.grids[0]), "x-:dirichlet(0.0:float) x+:dirichlet(0.0:float)");
  for (int f = 0; f < 2; ++f) {
    ASSERT_TRUE(p.grids[1].faces[f].value);
    EXPECT_EQ(p.grids[1].faces[f].value->op, ir::Op::IntConst);
    EXPECT_EQ(p.grids[1].faces[f].value->ival, 0);
  }
  EXPECT_EQ(faces_of(p, p.grids[2]), "x-:dirichlet(0.0:double) x+:dirichlet(0.0:double)");
  EXPECT_EQ(p.grids[2].faces[0].kind, ir::BoundaryKind::Dirichlet);
  EXPECT_EQ(p.grids[2].faces[1].kind, ir::BoundaryKind::Dirichlet);
}

TEST(CompilerSema, GridsAndParamsKeepDeclarationOrderAndTypes) {
  auto p = valid("stencil heat;\nparam int A = 1;\nparam float B = 2.0;\nparam double C;\n"
                 "grid int g[A];\nkernel k(x) { g[x] = 1; }\nrun steps { k; }\n");
  EXPECT_EQ(p.name, "heat");
  ASSERT_EQ(p.params.size(), 3u);
  EXPECT_EQ(p.params[0].type, ir::Type::Int);
  EXPECT_EQ(p.params[1].type, ir::Type::Float);
  EXPECT_EQ(p.params[2].type, ir::Type::Double);
  EXPECT_EQ(p.params[2].init, nullptr);
  EXPECT_EQ(p.params[1].loc.line, 3);
  EXPECT_EQ(p.params[1].loc.col, 13);
  EXPECT_EQ(p.grids[0].type, ir::Type::Int);
}

TEST(CompilerSema, TheStencilNameMayAlsoNameAParam) {
  valid("stencil N;\nparam int N = 4;\ngrid float u[N];\nkernel k(x) { u[x] = 1.0; }\n"
        "run steps { k; }\n");
}

TEST(CompilerSema, KernelsMayShareIndexNames) {
  auto p = valid("stencil s;\ngrid float u[4];\ngrid float v[4];\n"
                 "kernel a(x) { u[x] = 1.0; }\nkernel b(x) { v[x] = u[x]; }\nrun steps { a; b; }\n");
  EXPECT_EQ(p.kernels.size(), 2u);
}

// ---------------------------------------------------------------- errors: declarations

TEST(CompilerSemaErrors, UnknownNameInParam) {
  expect_errors("stencil s;\nparam int N = M + 1;\nrun steps { }\n",
                {{2, 15, "unknown name 'M'"}});
}

// The checker has a dedicated message for a param read before its declaration.
TEST(CompilerSemaErrors, ForwardParamReferenceSaysUsedBeforeDeclared) {
  expect_errors("stencil s;\nparam int A = B;\nparam int B = 1;\nrun steps { }\n",
                {{2, 15, "param 'B' is used before it is declared"}});
}

TEST(CompilerSemaErrors, ParamTypeMismatch) {
  expect_errors("stencil s;\nparam int N = 2.5;\nparam int M = 1 + 0.5;\nrun steps { }\n",
                {{2, 15, "type mismatch: param 'N' is int but the value is double"},
                 {3, 15, "type mismatch: param 'M' is int but the value is double"}});
}

TEST(CompilerSemaErrors, BadLiterals) {
  expect_errors("stencil s;\n"
                "param int N = 99999999999999999999;\n"
                "param double D = 1e999;\n"
                "run steps { }\n",
                {{2, 15, "integer literal 99999999999999999999 is too large"},
                 {3, 18, "floating literal 1e999 is out of range"}});
}

// 1e39 is a finite double but no float: as a float literal it would silently become inf in
// the interpreter, and the emitted "1e39f" is out of range for the C++ compiler.
TEST(CompilerSemaErrors, WeakLiteralOutOfFloatRange) {
  expect_errors("stencil s;\n"
                "param float c = 1e39;\n"
                "grid float u[4];\n"
                "grid float v like u;\n"
                "kernel k(x) { v[x] = u[x] * 1e39; }\n"
                "run steps { k; }\n",
                {{2, 17, "out of range"}, {5, 29, "out of range"}});
}

TEST(CompilerSemaErrors, ParamDivisionByZero) {
  expect_errors("stencil s;\nparam int Z = 0;\nparam int N = 4 / Z;\nrun steps { }\n",
                {{3, 15, "param 'N': integer division by zero"}});
}

TEST(CompilerSemaErrors, ReservedNames) {
  expect_errors("stencil s;\n"
                "param int new = 1;\n"
                "param int a__b = 1;\n"
                "param int c_ = 1;\n"
                "grid float run_[4];\n"
                "grid float checksum[4];\n"
                "run steps { }\n",
                {{2, 11, "'new' is reserved and cannot name a param"},
                 {3, 11, "'a__b' is reserved"},
                 {4, 11, "'c_' is reserved"},
                 {5, 12, "'run_' is reserved and cannot name a grid"},
                 {6, 12, "'checksum' is reserved"}});
}

TEST(CompilerSemaErrors, ReservedStencilName) {
  expect_errors("stencil main;\nrun steps { }\n", {{1, 9, "'main' is reserved"}});
}

TEST(CompilerSemaErrors, RedeclarationWithNote) {
  Checked c = check_text("stencil s;\nparam int N = 1;\ngrid float N[4];\nrun steps { }\n");
  EXPECT_FALSE(c.prog);
  EXPECT_EQ(c.diags->error_count(), 1) << c.render();
  const auto &ds = c.diags->diagnostics();
  ASSERT_EQ(ds.size(), 2u) << c.render();
  EXPECT_EQ(ds[0].severity, stc::Severity::Error);
  EXPECT_EQ(ds[0].message, "redeclaration of 'N'");
  EXPECT_EQ(ds[0].loc.line, 3);
  EXPECT_EQ(ds[0].loc.col, 12);
  EXPECT_EQ(ds[1].severity, stc::Severity::Note);
  EXPECT_EQ(ds[1].message, "'N' was first declared here");
  EXPECT_EQ(ds[1].loc.line, 2);
  EXPECT_EQ(ds[1].loc.col, 11);
}

TEST(CompilerSemaErrors, GridExtents) {
  expect_errors("stencil s;\n"
                "param int N = 4;\n"
                "grid float a[2.0];\n"
                "grid float b[0];\n"
                "grid float c[N, N - 4];\n"
                "grid float d[1, 1, 1, 1, 1];\n"
                "grid float e[Q];\n"
                "run steps { }\n",
                {{3, 14, "type mismatch: a grid extent must be int, not double"},
                 {4, 14, "extent 1 of grid 'b' is 0; it must be at least 1"},
                 {5, 17, "extent 2 of grid 'c' is 0"},
                 {6, 12, "grid 'd' has rank 5; ranks 1 to 4 are supported"},
                 {7, 14, "unknown name 'Q'"}});
}

// The extent cannot be computed with the defaults; sema evaluates extents (it reports an
// extent of 0) and must not drop the division by zero silently: the interpreter would then
// throw an ir::EvalError that the driver does not catch.
TEST(CompilerSemaErrors, ExtentDividingByZeroWithDefaults) {
  expect_errors("stencil s;\n"
                "param int D = 0;\n"
                "grid float u[8 / D];\n"
                "kernel k(x) { u[x] = 1.0; }\n"
                "run steps { k; }\n",
                {{3, 14, "division by zero"}});
}

TEST(CompilerSemaErrors, LikeOfUnknownOrNonGrid) {
  expect_errors("stencil s;\nparam int N = 4;\ngrid float a like b;\ngrid float c like N;\n"
                "grid float d like e;\ngrid float e[4];\nrun steps { }\n",
                {{3, 19, "unknown grid 'b'"},
                 {4, 19, "'N' is a param, not a grid"},
                 {5, 19, "unknown grid 'e'"}});
}

TEST(CompilerSemaErrors, Boundaries) {
  expect_errors("stencil s;\n"
                "grid float a[4] boundary reflect;\n"
                "grid float b[4] boundary dirichlet;\n"
                "grid int c[4] boundary dirichlet(0.5);\n"
                "grid float d[4] boundary dirichlet(d[0]);\n"
                "run steps { }\n",
                {{2, 26, "unknown boundary condition 'reflect'"},
                 {3, 26, "dirichlet needs a value"},
                 {4, 34, "type mismatch: the boundary value of grid 'c' is int but the value is "
                         "double"},
                 {5, 36, "grid 'd' cannot be read in a boundary value"}});
}

TEST(CompilerSemaErrors, GridReadInAParam) {
  expect_errors("stencil s;\ngrid float u[4];\nparam float p = u[0];\nrun steps { }\n",
                {{3, 17, "grid 'u' cannot be read in a param value"}});
}

// ---------------------------------------------------------------- errors: kernels

const char *kHeader = "stencil s;\n"              // 1
                      "param int N = 8;\n"        // 2
                      "grid float u[N];\n"        // 3
                      "grid float v like u;\n"    // 4
                      "grid readonly float k[N];\n" // 5
                      "grid float m[N, N];\n";    // 6

void expect_kernel_errors(const std::string &kernel, const std::vector<Expected> &want,
                          const std::string &run = "run steps { }\n") {
  expect_errors(std::string(kHeader) + kernel + "\n" + run, want);
}

TEST(CompilerSemaErrors, WriteToReadOnlyGrid) {
  expect_kernel_errors("kernel f(x) { k[x] = u[x]; }",
                       {{7, 15, "cannot write read-only grid 'k'"}});
}

TEST(CompilerSemaErrors, Race) {
  expect_kernel_errors("kernel f(x) { v[x] = u[x] + v[x+1]; }",
                       {{7, 29, "race: kernel 'f' writes grid 'v' and reads it at a "
                                "neighbouring point"}});
  // Also when the read comes before the write of the neighbour.
  expect_kernel_errors("kernel f(x) { u[x] = v[x-1]; v[x] = 1.0; }",
                       {{7, 22, "race: kernel 'f' writes grid 'v'"}});
}

TEST(CompilerSemaErrors, ReadingWhatWasWrittenAtTheCentreIsNoRace) {
  valid("stencil s;\ngrid float u[8];\ngrid float v like u;\ngrid float w like u;\n"
        "kernel f(x) { v[x] = u[x+1]; w[x] = v[x] * 2.0; }\nrun steps { f; }\n");
}

TEST(CompilerSemaErrors, Subscripts) {
  expect_kernel_errors("kernel f(x) {\n"
                       "  v[x] = u[2*x];\n"   // 8
                       "  v[x+1] = u[x];\n"   // 9
                       "  v[x] = u[x, x];\n"  // 10
                       "  v[x] = m[x, x];\n"  // 11
                       "  v[x] = u[N];\n"     // 12
                       "  v[x] = u[x + N];\n" // 13
                       "}",
                       {{8, 12,
                         "subscript 1 of 'u' must be 'x' plus or minus an integer "
                         "constant"},
                        {9, 5,
                         "a kernel writes only the centre point: subscript 1 of 'v' "
                         "must be 'x'"},
                        {10, 10,
                         "wrong number of subscripts: grid 'u' has rank 1 but is "
                         "indexed with 2"},
                        {11, 10, "grid 'm' has rank 2 but kernel 'f' has rank 1"},
                        {13, 12, "subscript 1 of 'u' must be 'x'"},
                        // u[N] reads index N (an absolute index given by a param), past
                        // the end with N's default (checked after the body).
                        {12, 10,
                         "kernel 'f' reads 'u' at index 8 of dimension 1 ('x'), outside "
                         "the grid"}});
}

TEST(CompilerSemaErrors, NamesUsedAsTheWrongThing) {
  expect_kernel_errors("kernel f(x) {\n"
                       "  v[x] = u;\n"            // 8
                       "  v[x] = f;\n"            // 9
                       "  N[x] = 1.0;\n"          // 10
                       "  f[x] = 1.0;\n"          // 11
                       "  q[x] = 1.0;\n"          // 12
                       "  v[x] = y;\n"            // 13
                       "}",
                       {{8, 10, "grid 'u' needs subscripts, e.g. 'u[...]'"},
                        {9, 10, "'f' is a kernel, not a value"},
                        {10, 3, "cannot assign to param 'N'"},
                        {11, 3, "'f' is a kernel, not a grid"},
                        {12, 3, "unknown grid 'q'"},
                        {13, 10, "unknown name 'y'"}});
}

TEST(CompilerSemaErrors, AssignmentTypeMismatch) {
  expect_errors("stencil s;\ngrid int a[4];\ngrid float u[4];\n"
                "kernel f(x) { a[x] = u[x]; a[x] = 0.5; }\nrun steps { f; }\n",
                {{4, 22, "type mismatch: grid 'a' is int but the value is float"},
                 {4, 35, "type mismatch: grid 'a' is int but the value is double"}});
}

// The rank error names the kernel and points at its name, as tests/lit/diagnostics/rank-5.stn
// expects. (Language v2 shares the index checks of kernels, reductions and inits; that moved
// the error to the first index, 11:10, and for a while dropped "kernel 'r' has".)
TEST(CompilerSemaErrors, KernelIndices) {
  expect_kernel_errors("kernel f(x, x) { m[x, x] = 1.0; }\n"
                       "kernel g(N) { v[N] = 1.0; }\n"
                       "kernel h(i_) { v[i_] = 1.0; }\n"
                       "kernel e(x) { }\n"
                       "kernel r(a, b, c, d, e5) { }",
                       {{7, 13, "index 'x' appears twice"},
                        {8, 10, "index 'N' has the same name as a param"},
                        {9, 10, "'i_' is reserved and cannot name a kernel index"},
                        {10, 8, "kernel 'e' writes no grid"},
                        {11, 8, "kernel 'r' has 5 indices; ranks 1 to 4 are supported"}});
}

TEST(CompilerSemaErrors, ShapeMismatchInAKernel) {
  expect_errors("stencil s;\n"
                "param int N = 8;\n"
                "grid float u[N];\n"
                "grid float w[4];\n"
                "grid float v like u;\n"
                "kernel f(x) { v[x] = u[x] + w[x]; }\n"
                "run steps { f; }\n",
                {{6, 29, "grid 'w' has shape (4) but kernel 'f' runs over grid 'v' of shape "
                         "(8)"}});
}

TEST(CompilerSemaErrors, StencilWiderThanTheGrid) {
  expect_errors("stencil s;\n"
                "grid float u[4, 2];\n"
                "grid float v like u;\n"
                "kernel f(x, y) { v[x,y] = u[x,y+1]; }\n"
                "run steps { f; }\n",
                {{4, 27, "stencil wider than the grid: kernel 'f' reads 'u' at offset 1 in "
                         "dimension 2 ('y'), a width of 3, but the grid's extent there is 2"}});
}

// ---------------------------------------------------------------- errors: run block

TEST(CompilerSemaErrors, NoRunBlock) {
  expect_errors("stencil heat;\ngrid float u[4];\n",
                {{1, 9, "stencil 'heat' has no 'run' block"}});
}

TEST(CompilerSemaErrors, SecondRunBlock) {
  expect_errors("stencil s;\nrun steps { }\nrun 3 { }\n",
                {{3, 1, "a stencil has one main 'run' block; this is a second one (another block "
                        "needs a name: 'run NAME: COUNT { ... }')"}});
}

TEST(CompilerSemaErrors, StepCount) {
  expect_errors("stencil s;\nparam double T = 1.0;\nrun T { }\n",
                {{3, 5, "type mismatch: the step count must be int, not double"}});
  expect_errors("stencil s;\nrun stepz { }\n", {{2, 5, "unknown name 'stepz'"}});
}

TEST(CompilerSemaErrors, RunCalls) {
  expect_kernel_errors("kernel f(x) { v[x] = u[x]; }",
                       {{8, 13, "unknown kernel 'g'"}, {8, 16, "'u' is a grid, not a kernel"}},
                       "run steps { g; u; f; }\n");
}

TEST(CompilerSemaErrors, Swaps) {
  expect_errors("stencil s;\n"
                "grid float u[8];\n"
                "grid float v like u;\n"
                "grid double d like u;\n"
                "grid float w[9];\n"
                "grid readonly float r like u;\n"
                "kernel f(x) { v[x] = u[x] + r[x]; }\n"
                "run steps {\n"
                "  swap u, q;\n"  // 9
                "  swap u, u;\n"  // 10
                "  swap u, d;\n"  // 11
                "  swap u, w;\n"  // 12
                "  swap r, v;\n"  // 13
                "  swap f, v;\n"  // 14
                "  swap u, v;\n"
                "}\n",
                {{9, 11, "unknown grid 'q'"},
                 {10, 11, "cannot swap grid 'u' with itself"},
                 {11, 3, "type mismatch: cannot swap float grid 'u' with double grid 'd'"},
                 {12, 3, "cannot swap grids of different shapes: 'u' is (8) and 'w' is (9)"},
                 {13, 8, "cannot swap read-only grid 'r'"},
                 {14, 8, "'f' is a kernel, not a grid"}});
}

TEST(CompilerSemaErrors, EveryErrorOfAProgramIsReported) {
  expect_errors("stencil s;\n"                           // 1
                "param int N = 8, B = 1.5;\n"            // 2
                "grid float u[N];\n"                     // 3
                "grid float v like uu;\n"                // 4
                "grid float w[N];\n"                     // 5
                "kernel f(x) {\n"                        // 6
                "  w[x] = u[x-1] + w[x+1] + z;\n"        // 7
                "  w[x] = u[x*1];\n"                     // 8
                "}\n"                                    // 9
                "run steps { f; swap u, w; nope; }\n",  // 10
                {{2, 22, "type mismatch: param 'B' is int but the value is double"},
                 {4, 19, "unknown grid 'uu'"},
                 {7, 28, "unknown name 'z'"},
                 {8, 12, "subscript 1 of 'u'"},
                 {10, 27, "unknown kernel 'nope'"}});
}

TEST(CompilerSemaErrors, RenderedDiagnosticHasLineColAndCaret) {
  Checked c = check_text("stencil s;\nparam int N = 2.5;\nrun steps { }\n");
  // (Language v2 added the hint about int(...), the explicit conversion.)
  EXPECT_EQ(c.render(), "t.stn:2:15: error: type mismatch: param 'N' is int but the value is "
                        "double; convert explicitly with int(...)\n"
                        "param int N = 2.5;\n"
                        "              ^\n");
}

// ---------------------------------------------------------------- language v2: helpers

// Column (1-based) of the n-th occurrence of `needle` on line `line` of `text`, so that the
// expected locations below are readable; 0 if it is not there.
int col(const std::string &text, int line, const std::string &needle, int nth = 1) {
  std::size_t start = 0;
  for (int l = 1; l < line; ++l)
    start = text.find('\n', start) + 1;
  const std::string row = text.substr(start, text.find('\n', start) - start);
  std::size_t at = std::string::npos;
  for (int i = 0; i < nth; ++i)
    at = row.find(needle, at == std::string::npos ? 0 : at + 1);
  return at == std::string::npos ? 0 : static_cast<int>(at) + 1;
}

// kFloatHeader, then `kernel k(x) { STMTS }` on line 9, then a run block calling k.
std::string float_program(const std::string &stmts) {
  return std::string(kFloatHeader) + "kernel k(x) { " + stmts + " }\nrun steps { k; }\n";
}

// Exactly one error, on line 9 of float_program(stmts), where `at` first occurs in stmts
// (which start at column 15, after "kernel k(x) { ").
void expect_stmt_error(const std::string &stmts, const std::string &at,
                       const std::string &message) {
  SCOPED_TRACE(stmts);
  ASSERT_NE(stmts.find(at), std::string::npos) << at;
  expect_errors(float_program(stmts), {{9, 15 + static_cast<int>(stmts.find(at)), message}});
}

// The Type of the i-th statement's value of kernel 0.
ir::Type type_of(const ir::Program &p, int i) {
  if (i >= static_cast<int>(p.kernels[0].body.size()))
    return ir::Type::Bool;
  return p.kernels[0].body[i].value->type;
}

// ---------------------------------------------------------------- language v2: types

TEST(CompilerSema, ComparisonsAndLogicGiveBool) {
  auto p = float_kernel("if (u[x] < 1.0) { v[x] = u[x]; }"
                        " if (x >= 2 && !(x == 5) || a[x] != 0) { a[x] = 1; }"
                        " if (x <= u[x]) { } if (w[x] > 0.5) { }");
  ASSERT_EQ(p.kernels[0].body.size(), 4u);
  EXPECT_EQ(p.kernels[0].body[0].kind, ir::Stmt::Kind::If);
  EXPECT_EQ(value_of(p, 0, 0), "(u[+0] < 1.0:float)");
  EXPECT_EQ(type_of(p, 0), ir::Type::Bool);
  EXPECT_EQ(value_of(p, 0, 1), "(((i0 >= 2) && !((i0 == 5))) || (a[+0] != 0))");
  EXPECT_EQ(type_of(p, 1), ir::Type::Bool);
  // The operands of a comparison meet in one type; only the result is bool.
  EXPECT_EQ(value_of(p, 0, 2), "(float(i0) <= u[+0])");
  EXPECT_EQ(p.kernels[0].body[2].value->a->type, ir::Type::Float);
  EXPECT_EQ(value_of(p, 0, 3), "(w[+0] > 0.5:double)");
  // A let of a comparison is a bool local.
  auto q = float_kernel("let b = u[x] > c; if (b) { v[x] = 1.0; }");
  ASSERT_EQ(q.kernels[0].locals.size(), 1u);
  EXPECT_EQ(q.kernels[0].locals[0].type, ir::Type::Bool);
  EXPECT_EQ(value_of(q, 0, 0), "(u[+0] > c)");
}

TEST(CompilerSema, TernaryJoinsItsBranches) {
  auto p = float_kernel("v[x] = x > 2 ? u[x] : 0.5; w[x] = x < 1 ? u[x] : d;"
                        " a[x] = x == 0 ? 1 : N;");
  EXPECT_EQ(value_of(p, 0, 0), "((i0 > 2) ? u[+0] : 0.5:float)");
  EXPECT_EQ(type_of(p, 0), ir::Type::Float);
  EXPECT_EQ(value_of(p, 0, 1), "((i0 < 1) ? double(u[+0]) : d)");
  EXPECT_EQ(type_of(p, 1), ir::Type::Double);
  EXPECT_EQ(value_of(p, 0, 2), "((i0 == 0) ? 1 : N)");
  EXPECT_EQ(type_of(p, 2), ir::Type::Int);
  // Branches that are both conditions give a condition.
  auto q = float_kernel("let b = x > 1 ? x < 3 : x > 5; if (b) { v[x] = 1.0; }");
  EXPECT_EQ(q.kernels[0].locals[0].type, ir::Type::Bool);
}

TEST(CompilerSemaErrors, BoolInArithmeticIsAnError) {
  expect_stmt_error("v[x] = (u[x] < 1.0) + 1.0;", "u[x] <",
                    "type mismatch: '+' needs a number, not a condition");
  expect_stmt_error("v[x] = 2.0 * (x > 1);", "x >", "type mismatch: '*' needs a number");
  expect_stmt_error("v[x] = -(x > 1);", "x >", "type mismatch: unary '-' needs a number");
  expect_stmt_error("a[x] = x < 1 < 2 ? 1 : 0;", "x <", "type mismatch: '<' needs a number");
  expect_stmt_error("v[x] = sqrt(x > 1);", "x >", "type mismatch: sqrt() needs a number");
  expect_stmt_error("a[x] = int(x > 1);", "x >", "type mismatch: a conversion needs a number");
  expect_stmt_error("v[x] = x > 1 ? 1.0 : x < 2;", "?",
                    "type mismatch: one branch of '?:' is a condition and the other a number");
  // A condition is not a value of a grid.
  expect_stmt_error("v[x] = x > 1;", "x >",
                    "type mismatch: grid 'v' is float but the value is a condition");
}

TEST(CompilerSemaErrors, NumberWhereAConditionIsNeeded) {
  expect_stmt_error("if (x) { v[x] = 1.0; }", "x)",
                    "type mismatch: 'if' needs a condition (a comparison), not int");
  expect_stmt_error("v[x] = u[x] ? 1.0 : 2.0;", "u[x] ?", "type mismatch: '?:' needs a condition");
  expect_stmt_error("if (x > 1 && u[x]) { v[x] = 1.0; }", "u[x])",
                    "type mismatch: '&&' needs a condition");
  expect_stmt_error("if (u[x] || x > 1) { v[x] = 1.0; }", "u[x] ||",
                    "type mismatch: '||' needs a condition");
  expect_stmt_error("if (!x) { v[x] = 1.0; }", "x)", "type mismatch: '!' needs a condition");
}

TEST(CompilerSema, ModuloOfInts) {
  auto p = float_kernel("a[x] = x % 3 + a[x] % N;");
  EXPECT_EQ(value_of(p, 0, 0), "((i0 % 3) + (a[+0] % N))");
  EXPECT_EQ(type_of(p, 0), ir::Type::Int);
}

TEST(CompilerSemaErrors, ModuloNeedsInts) {
  expect_stmt_error("v[x] = u[x] % 2;", "%", "'%' needs int operands, not float");
  expect_stmt_error("w[x] = x % 2.5;", "%", "'%' needs int operands, not double");
  expect_stmt_error("w[x] = w[x] % N;", "%", "'%' needs int operands, not double");
}

TEST(CompilerSema, MathFunctionResultTypes) {
  auto p = float_kernel("w[x] = sqrt(x);"                       // 0: int -> double
                        " v[x] = sqrt(u[x]);"                   // 1: float stays float
                        " w[x] = exp(w[x]);"                    // 2: double
                        " a[x] = abs(x - 3) + min(x, N) + max(a[x], 1);" // 3: ints stay int
                        " v[x] = min(u[x], 1.0);"               // 4: weak literal -> float
                        " w[x] = max(x, 0.5);"                  // 5: int and literal: double
                        " v[x] = pow(u[x], 2);"                 // 6: float and int: float
                        " v[x] = abs(u[x]);"                    // 7
                        " w[x] = floor(x * 0.5);"               // 8
                        " w[x] = log(N) + sin(x) + cos(x) + tan(x);"); // 9
  EXPECT_EQ(value_of(p, 0, 0), "sqrt:double(double(i0))");
  EXPECT_EQ(type_of(p, 0), ir::Type::Double);
  EXPECT_EQ(value_of(p, 0, 1), "sqrt:float(u[+0])");
  EXPECT_EQ(type_of(p, 1), ir::Type::Float);
  EXPECT_EQ(value_of(p, 0, 2), "exp:double(w[+0])");
  EXPECT_EQ(value_of(p, 0, 3), "((abs:int((i0 - 3)) + min:int(i0, N)) + max:int(a[+0], 1))");
  EXPECT_EQ(type_of(p, 3), ir::Type::Int);
  EXPECT_EQ(value_of(p, 0, 4), "min:float(u[+0], 1.0:float)");
  EXPECT_EQ(type_of(p, 4), ir::Type::Float);
  EXPECT_EQ(value_of(p, 0, 5), "max:double(double(i0), 0.5:double)");
  EXPECT_EQ(value_of(p, 0, 6), "pow:float(u[+0], float(2))");
  EXPECT_EQ(type_of(p, 6), ir::Type::Float);
  EXPECT_EQ(value_of(p, 0, 7), "abs:float(u[+0])");
  EXPECT_EQ(value_of(p, 0, 8), "floor:double((double(i0) * 0.5:double))");
  EXPECT_EQ(value_of(p, 0, 9), "(((log:double(double(N)) + sin:double(double(i0))) + "
                               "cos:double(double(i0))) + tan:double(double(i0)))");
}

TEST(CompilerSemaErrors, MathFunctions) {
  expect_stmt_error("v[x] = min(u[x]);", "min", "min() takes 2 arguments, not 1");
  expect_stmt_error("v[x] = sqrt(u[x], 2.0);", "sqrt", "sqrt() takes 1 argument, not 2");
  expect_stmt_error("v[x] = foo(u[x]);", "foo", "unknown function 'foo'");
  // floor of a float is a float: an int grid needs an explicit conversion.
  expect_stmt_error("a[x] = floor(u[x]);", "floor",
                    "type mismatch: grid 'a' is int but the value is float");
}

TEST(CompilerSema, ExplicitConversions) {
  auto p = float_kernel("a[x] = int(u[x] * 2.0); v[x] = float(w[x]); w[x] = double(x) / 2;"
                        " a[x] = int(floor(u[x])); v[x] = float(x);");
  EXPECT_EQ(value_of(p, 0, 0), "int((u[+0] * 2.0:float))");
  EXPECT_EQ(type_of(p, 0), ir::Type::Int);
  EXPECT_EQ(value_of(p, 0, 1), "float(w[+0])");
  EXPECT_EQ(value_of(p, 0, 2), "(double(i0) / double(2))");
  EXPECT_EQ(value_of(p, 0, 3), "int(floor:float(u[+0]))");
  EXPECT_EQ(value_of(p, 0, 4), "float(i0)");
}

// ---------------------------------------------------------------- language v2: let and if

TEST(CompilerSema, LetLocalsAndIfElse) {
  auto p = float_kernel("let t = u[x] * 2.0; let i = x * 2; let h = 0.5;"
                        " if (t > c) { let s = t + 1.0; v[x] = s; } else { let s = i; a[x] = s; }"
                        " v[x] = t;");
  const auto &k = p.kernels[0];
  // Locals in order of declaration; a let has the type of its value (a weak literal: double).
  ASSERT_EQ(k.locals.size(), 5u);
  EXPECT_EQ(k.locals[0].name, "t");
  EXPECT_EQ(k.locals[0].type, ir::Type::Float);
  EXPECT_EQ(k.locals[1].type, ir::Type::Int);
  EXPECT_EQ(k.locals[2].type, ir::Type::Double);
  EXPECT_EQ(k.locals[3].name, "s");
  EXPECT_EQ(k.locals[3].type, ir::Type::Float);
  EXPECT_EQ(k.locals[4].name, "s"); // a second 's' in a sibling block is another local
  EXPECT_EQ(k.locals[4].type, ir::Type::Int);
  ASSERT_EQ(k.body.size(), 5u);
  EXPECT_EQ(k.body[0].kind, ir::Stmt::Kind::Let);
  EXPECT_EQ(k.body[0].local, 0);
  const auto &iff = k.body[3];
  EXPECT_EQ(iff.kind, ir::Stmt::Kind::If);
  ASSERT_EQ(iff.then_body.size(), 2u);
  ASSERT_EQ(iff.else_body.size(), 2u);
  EXPECT_EQ(iff.then_body[0].local, 3);
  EXPECT_EQ(iff.else_body[0].local, 4);
  EXPECT_EQ(iff.else_body[1].grid, grid_named(p, "a"));
  // The IR printer shows the structure.
  const std::string dump = ir::print(p);
  EXPECT_NE(dump.find("kernel k(x)\n"
                      "  let local0 float (t) = (u[+0] * 2.0:float)\n"
                      "  let local1 int (i) = (i0 * 2)\n"
                      "  let local2 double (h) = 0.5:double\n"
                      "  if (local0 > c)\n"
                      "    let local3 float (s) = (local0 + 1.0:float)\n"
                      "    v = local3\n"
                      "  else\n"
                      "    let local4 int (s) = local1\n"
                      "    a = local4\n"
                      "  v = local0\n"),
            std::string::npos)
      << dump;
}

TEST(CompilerSemaErrors, LetInsideAnIfIsNotVisibleAfterIt) {
  const std::string text = float_program("if (x > 0) { let t = 1.0; v[x] = t; } v[x] = t;");
  expect_errors(text, {{9, col(text, 9, "t;", 2), "unknown name 't'"}});
  // Nor in the else block.
  const std::string t2 = float_program("if (x > 0) { let t = 1.0; } else { v[x] = t; }");
  expect_errors(t2, {{9, col(t2, 9, "t;"), "unknown name 't'"}});
  // A let is not visible before it.
  expect_stmt_error("v[x] = t; let t = 1.0;", "t;", "unknown name 't'");
}

TEST(CompilerSemaErrors, LetNames) {
  const std::string text = float_program("let t = 1.0; let t = 2.0;");
  expect_errors(text, {{9, col(text, 9, "t =", 2), "redeclaration of 't' in kernel 'k'"}});
  // Shadowing in an inner block is a redeclaration too.
  const std::string t2 = float_program("let t = 1.0; if (x > 0) { let t = 2.0; }");
  expect_errors(t2, {{9, col(t2, 9, "t =", 2), "redeclaration of 't'"}});
  expect_stmt_error("let x = 1;", "x =", "redeclaration of 'x' in kernel 'k'");
  expect_stmt_error("let u = 1.0;", "u =", "local 'u' has the same name as a grid");
  expect_stmt_error("let N = 1;", "N =", "local 'N' has the same name as a param");
}

TEST(CompilerSemaErrors, ReadsInConditionsAndLetsCountForRaces) {
  expect_stmt_error("if (v[x+1] > 0.0) { v[x] = 1.0; }", "v[x+1]",
                    "race: kernel 'k' writes grid 'v' and reads it at a neighbouring point");
  expect_stmt_error("let t = v[x-1]; v[x] = t;", "v[x-1]",
                    "race: kernel 'k' writes grid 'v' and reads it at a neighbouring point");
}

TEST(CompilerSemaErrors, KernelWithOnlyLetsWritesNoGrid) {
  const std::string text = float_program("let t = 1.0;");
  expect_errors(text, {{9, col(text, 9, "k("), "kernel 'k' writes no grid"}});
}

TEST(CompilerSema, ReadsInConditionsWidenTheHalo) {
  auto p = valid("stencil s;\ngrid double u[8];\ngrid double v like u;\n"
                 "kernel k(x) { if (u[x+2] > 0.0) { let t = u[x-3]; v[x] = t; } }\n"
                 "run steps { k; }\n");
  EXPECT_EQ(p.grids[0].halo, (ir::Offsets{3, 0, 0, 0}));
}

// The whole printed IR (--print-ir) of a small program using the v2 constructs.
TEST(CompilerSema, PrintedProgram) {
  auto p = valid("stencil pr;\n"
                 "param int N = 4;\n"
                 "grid double u[N] boundary(neumann, x+: dirichlet(1.0));\n"
                 "grid double r like u;\n"
                 "grid readonly int m[N];\n"
                 "init m[i] = i % 2;\n"
                 "kernel k(x) on red {\n"
                 "  if (m[x] == 1) { u[x] = u[x-1]; } else { u[x] = 0.5 * u[x+1]; }\n"
                 "}\n"
                 "kernel res(x) { r[x] = u[x] - u[x-1]; }\n"
                 "reduce nr(x) on [0:N] = norm2(r[x]);\n"
                 "run until nr < 0.5 max 3 { k; res; nr; }\n");
  EXPECT_EQ(ir::print(p), "stencil pr\n"
                          "param int N = 4\n"
                          "grid double u[N] halo [1] x-:neumann x+:dirichlet(1.0:double)\n"
                          "grid double r[N] halo [0] x-:neumann x+:dirichlet(1.0:double)\n"
                          "grid readonly int m[N] halo [0] x-:dirichlet(0) x+:dirichlet(0)\n"
                          "init m = (i0 % 2)\n"
                          "kernel k(x) on red\n"
                          "  if (m[+0] == 1)\n"
                          "    u = u[-1]\n"
                          "  else\n"
                          "    u = (0.5:double * u[+1])\n"
                          "kernel res(x)\n"
                          "  r = (u[+0] - u[-1])\n"
                          "reduce nr = norm2(r[+0]) on [0:N]\n"
                          "run until (nr < 0.5:double) max 3\n"
                          "  k\n"
                          "  res\n"
                          "  nr\n");
}

// Periodic and neumann faces have no value, so nothing stops a grid of another type from
// copying them with `like`; only a dirichlet value of the wrong type falls back to 0 (as
// LikeCopiesExtentsAndBoundary checks). Today a grid of another type drops every face and
// gets dirichlet 0 all round, silently turning a periodic grid into a dirichlet one.
// `like` copies every face; a Dirichlet value converts to the new element type.
TEST(CompilerSema, LikeOfAnotherTypeKeepsPeriodicAndNeumannFaces) {
  auto p = valid("stencil s;\n"
                 "grid double u[4, 4] boundary(periodic, y-: neumann, y+: dirichlet(2.0));\n"
                 "grid float f like u;\n"
                 "kernel k(x, y) { f[x,y] = u[x-1,y] + u[x,y-1]; }\n"
                 "run steps { k; }\n");
  EXPECT_EQ(faces_of(p, p.grids[grid_named(p, "f")]),
            "x-:periodic x+:periodic y-:neumann y+:dirichlet(float(2.0:double))");
}

TEST(CompilerSemaErrors, IntLikeOfFloatBoundaryValue) {
  expect_errors("stencil s;\n"
                "grid double u[4] boundary dirichlet(2.5);\n"
                "grid int n like u;\n"
                "kernel k(x) { n[x] = 1; }\n"
                "run steps { k; }\n",
                {{3, 17, "grid 'n' is int but copies the double boundary values of 'u'; give it "
                         "its own boundary"}});
}

// ---------------------------------------------------------------- language v2: boundaries

TEST(CompilerSema, FacesDefaultAndOverrides) {
  auto p = valid("stencil s;\n"
                 "param double g = 3.0;\n"
                 "grid double u[4, 4] boundary(neumann, x-: dirichlet(1.0 + 0.5*y), y: "
                 "periodic);\n"
                 "grid double v like u;\n"
                 "grid float f[4, 4] boundary(x-: neumann, dirichlet(g * x));\n"
                 "grid int n[4, 4] boundary(x+: dirichlet(y - 2), y-: neumann, y+: neumann);\n"
                 "grid double t[4, 4, 4] boundary periodic;\n"
                 "kernel k(x, y) { v[x,y] = u[x,y] + f[x,y] + n[x,y]; }\n"
                 "kernel m(x, y, z) { t[x,y,z] = t[x,y,z]; }\n"
                 "run steps { k; m; }\n");
  // The ghost cell's own indices are the Index nodes of the value.
  EXPECT_EQ(faces_of(p, p.grids[grid_named(p, "u")]),
            "x-:dirichlet((1.0:double + (0.5:double * double(i1)))) x+:neumann "
            "y-:periodic y+:periodic");
  EXPECT_EQ(faces_of(p, p.grids[grid_named(p, "v")]), faces_of(p, p.grids[0]));
  // A default after an override does not replace it.
  EXPECT_EQ(faces_of(p, p.grids[grid_named(p, "f")]),
            "x-:neumann x+:dirichlet(float((g * double(i0)))) "
            "y-:dirichlet(float((g * double(i0)))) y+:dirichlet(float((g * double(i0))))");
  // Faces not given keep the default dirichlet 0 of the grid's type.
  EXPECT_EQ(faces_of(p, p.grids[grid_named(p, "n")]),
            "x-:dirichlet(0) x+:dirichlet((i1 - 2)) y-:neumann y+:neumann");
  EXPECT_EQ(faces_of(p, p.grids[grid_named(p, "t")]),
            "x-:periodic x+:periodic y-:periodic y+:periodic z-:periodic z+:periodic");
  EXPECT_TRUE(p.grids[grid_named(p, "u")].time_dependent_ghosts());
  EXPECT_TRUE(p.grids[grid_named(p, "n")].time_dependent_ghosts()); // neumann in y
}

TEST(CompilerSema, AllDirichletGhostsAreNotTimeDependent) {
  auto p = valid("stencil s;\ngrid double u[4] boundary(x-: dirichlet(1.0), x+: dirichlet(x));\n"
                 "grid double v[4] boundary(dirichlet(0.0), x+: neumann);\n"
                 "kernel k(x) { v[x] = u[x-1]; }\nrun steps { k; }\n");
  EXPECT_FALSE(p.grids[0].time_dependent_ghosts());
  EXPECT_TRUE(p.grids[1].time_dependent_ghosts());
  EXPECT_EQ(faces_of(p, p.grids[0]), "x-:dirichlet(1.0:double) x+:dirichlet(double(i0))");
}

TEST(CompilerSemaErrors, FaceErrors) {
  const std::string text = "stencil s;\n"                                                  // 1
                           "grid double a[4, 4] boundary(x: neumann, x-: dirichlet(1.0));\n" // 2
                           "grid double b[4, 4] boundary(neumann, y-: periodic);\n"        // 3
                           "grid double c[4, 4] boundary(q: neumann);\n"                   // 4
                           "grid double d[4] boundary(y+: neumann);\n"                     // 5
                           "grid double e[4] boundary(neumann(1.0));\n"                    // 6
                           "grid double f[4] boundary(dirichlet(y));\n"                    // 7
                           "grid double g[4, 4] boundary(x+: periodic, x-: periodic, "
                           "x+: periodic);\n"                                              // 8
                           "run steps { }\n";
  expect_errors(text, {{2, col(text, 2, "x-"), "face x- of grid 'a' is given twice"},
                       {3, col(text, 3, "neumann"),
                        "grid 'b': a periodic dimension must be periodic on both faces, but "
                        "face y+ is not"},
                       {4, col(text, 4, "q:"), "unknown face 'q'"},
                       {5, col(text, 5, "y+"), "grid 'd' has rank 1; it has no face 'y'"},
                       {6, col(text, 6, "1.0"), "neumann takes no value"},
                       {7, col(text, 7, "y)"), "unknown name 'y'"},
                       {8, col(text, 8, "x+", 2), "face x+ of grid 'g' is given twice"}});
}

// ---------------------------------------------------------------- language v2: domains

TEST(CompilerSema, Domains) {
  auto p = valid("stencil s;\n"
                 "param int N = 8;\n"
                 "grid double u[N, N];\n"
                 "grid double v like u;\n"
                 "kernel a(x, y) on [1:N-1, 0:N] { v[x,y] = u[x-1,y]; }\n"
                 "kernel r(x, y) on red { u[x,y] = 0.25 * (u[x-1,y] + u[x+1,y] + u[x,y-1]"
                 " + u[x,y+1]); }\n"
                 "kernel b(x, y) on black { u[x,y] = u[x-1,y] + u[x+2,y+1] + u[x-3,y]; }\n"
                 "kernel c(x, y) { v[x,y] = u[x,y]; }\n"
                 "run steps { a; r; b; c; }\n");
  ASSERT_EQ(p.kernels.size(), 4u);
  const auto &a = p.kernels[0].domain;
  EXPECT_EQ(a.kind, ir::Domain::Kind::Range);
  ASSERT_EQ(a.lo.size(), 2u);
  ASSERT_EQ(a.hi.size(), 2u);
  EXPECT_EQ(ir::print(p, a.lo[0]), "1");
  EXPECT_EQ(ir::print(p, a.hi[0]), "(N - 1)");
  EXPECT_EQ(ir::print(p, a.lo[1]), "0");
  EXPECT_EQ(ir::print(p, a.hi[1]), "N");
  EXPECT_EQ(p.kernels[1].domain.kind, ir::Domain::Kind::Red);
  EXPECT_EQ(p.kernels[2].domain.kind, ir::Domain::Kind::Black);
  EXPECT_EQ(p.kernels[3].domain.kind, ir::Domain::Kind::Interior);
  const std::string dump = ir::print(p);
  EXPECT_NE(dump.find("kernel a(x, y) on [1:(N - 1), 0:N]\n"), std::string::npos) << dump;
  EXPECT_NE(dump.find("kernel r(x, y) on red\n"), std::string::npos) << dump;
  EXPECT_NE(dump.find("kernel b(x, y) on black\n"), std::string::npos) << dump;
  EXPECT_NE(dump.find("kernel c(x, y)\n"), std::string::npos) << dump;
  // In-place colour kernels widen the written grid's halo like any read.
  EXPECT_EQ(p.grids[grid_named(p, "u")].halo, (ir::Offsets{3, 1, 0, 0}));
}

TEST(CompilerSemaErrors, DomainErrors) {
  const std::string text = "stencil s;\n"                                            // 1
                           "grid double u[6, 6];\n"                                  // 2
                           "grid double v like u;\n"                                 // 3
                           "kernel a(x, y) on [0:2] { v[x,y] = u[x,y]; }\n"          // 4
                           "kernel b(x, y) on [0:2, 0:2, 0:2] { v[x,y] = u[x,y]; }\n" // 5
                           "kernel c(x, y) on [0.5:2, 0:2] { v[x,y] = u[x,y]; }\n"   // 6
                           "kernel d(x, y) on purple { v[x,y] = u[x,y]; }\n"         // 7
                           "reduce r(x, y) on [0:1] = sum(u[x,y]);\n"                // 8
                           "run steps { a; b; c; d; }\n";
  expect_errors(text, {{4, col(text, 4, "on"), "kernel 'a' has rank 2 but its domain gives 1 "
                                               "ranges"},
                       {5, col(text, 5, "on"), "kernel 'b' has rank 2 but its domain gives 3"},
                       {6, col(text, 6, "0.5"), "type mismatch: a domain bound must be int, "
                                                "not double"},
                       {7, col(text, 7, "purple"), "unknown colour 'purple'"},
                       {8, col(text, 8, "on"), "reduction 'r' has rank 2 but its domain gives "
                                               "1 ranges"}});
}

// ---------------------------------------------------------------- language v2: red/black

// A colour kernel may update its grid in place when it reads only the other colour: offsets
// with an odd sum. An even sum (other than the centre) reads its own colour: a race.
TEST(CompilerSema, RedBlackInPlaceReadsOfTheOtherColourAreAllowed) {
  auto p = valid("stencil s;\n"
                 "grid double u[8, 8];\n"
                 "grid readonly double b[8, 8];\n"
                 "kernel r(x, y) on red { u[x,y] = u[x-1,y] + u[x+1,y] + u[x,y-1] + u[x,y+1]"
                 " + u[x-2,y+1] + u[x,y+3] + u[x,y] + b[x+1,y+1]; }\n"
                 "kernel k(x, y) on black { u[x,y] = u[x-1,y] * 0.5 + b[x,y]; }\n"
                 "run steps { r; k; }\n");
  EXPECT_EQ(p.kernels.size(), 2u);
}

TEST(CompilerSemaErrors, RedBlackReadOfTheSameColourIsARace) {
  const std::string text = "stencil s;\n"                                                 // 1
                           "grid double u[8, 8];\n"                                       // 2
                           "kernel r(x, y) on red { u[x,y] = u[x-1,y] + u[x-1,y-1]; }\n"  // 3
                           "kernel b(x, y) on black { u[x,y] = u[x+2,y]; }\n"             // 4
                           "kernel z(x, y) on red { u[x,y] = u[x+1,y-1]; }\n"             // 5
                           "kernel n(x, y) { u[x,y] = u[x+1,y]; }\n"                      // 6
                           "run steps { r; b; z; n; }\n";
  expect_errors(text,
                {{3, col(text, 3, "u[x-1,y-1]"),
                  "race: kernel 'r' updates red points of grid 'u' in place and reads it at a "
                  "point of the same colour"},
                 {4, col(text, 4, "u[x+2"), "race: kernel 'b' updates black points of grid 'u'"},
                 // Offsets (+1, -1) sum to 0 but are not the centre: the same colour.
                 {5, col(text, 5, "u[x+1"), "race: kernel 'z' updates red points of grid 'u'"},
                 // Without a colour any neighbour is a race.
                 {6, col(text, 6, "u[x+1"), "race: kernel 'n' writes grid 'u' and reads it at a "
                                            "neighbouring point"}});
}

// ---------------------------------------------------------------- language v2: reductions

TEST(CompilerSema, ReductionsAndRunUntil) {
  auto p = valid("stencil s;\n"
                 "param double tol = 1e-3;\n"
                 "param int MAXIT = 50;\n"
                 "grid double u[6, 6];\n"
                 "grid double r like u;\n"
                 "grid float f[6, 6];\n"
                 "kernel k(x, y) { r[x,y] = u[x-1,y] - u[x,y]; }\n"
                 "reduce res(x, y) = norm2(r[x,y]);\n"
                 "reduce top(x, y) on [1:5, 0:6] = max(f[x,y] * 2.0);\n"
                 "reduce tot(i, j) on black = sum(i + r[i,j]);\n"
                 "run until res / first(res) < tol || top > 1.0 max 2 * MAXIT { k; res; top; }\n");
  ASSERT_EQ(p.reductions.size(), 3u);
  const auto &res = p.reductions[0];
  EXPECT_EQ(res.name, "res");
  EXPECT_EQ(res.op, ir::ReduceOp::Norm2);
  EXPECT_EQ(res.rank, 2);
  EXPECT_EQ(res.domain.kind, ir::Domain::Kind::Interior);
  EXPECT_EQ(res.domain_grid, grid_named(p, "r"));
  EXPECT_EQ(ir::print(p, res.value), "r[+0,+0]");
  const auto &top = p.reductions[1];
  EXPECT_EQ(top.op, ir::ReduceOp::Max);
  EXPECT_EQ(top.domain.kind, ir::Domain::Kind::Range);
  EXPECT_EQ(top.domain_grid, grid_named(p, "f"));
  EXPECT_EQ(ir::print(p, top.value), "(f[+0,+0] * 2.0:float)");
  EXPECT_EQ(top.value->type, ir::Type::Float);
  // The run block calls kernels and reductions in order.
  ASSERT_EQ(p.run.size(), 3u);
  EXPECT_EQ(p.run[0].kind, ir::RunStmt::Kind::Call);
  EXPECT_EQ(p.run[1].kind, ir::RunStmt::Kind::Reduce);
  EXPECT_EQ(p.run[1].a, 0);
  EXPECT_EQ(p.run[2].kind, ir::RunStmt::Kind::Reduce);
  EXPECT_EQ(p.run[2].a, 1);
  // The condition reads reductions (as doubles); the limit is `steps`.
  ASSERT_TRUE(p.until);
  EXPECT_EQ(p.until->type, ir::Type::Bool);
  EXPECT_EQ(ir::print(p, p.until), "(((res / first(res)) < tol) || (top > 1.0:double))");
  ASSERT_TRUE(p.steps);
  EXPECT_EQ(ir::print(p, p.steps), "(2 * MAXIT)");
  const std::string dump = ir::print(p);
  EXPECT_NE(dump.find("reduce res = norm2(r[+0,+0])\n"), std::string::npos) << dump;
  EXPECT_NE(dump.find("reduce top = max((f[+0,+0] * 2.0:float)) on [1:5, 0:6]\n"),
            std::string::npos)
      << dump;
  EXPECT_NE(dump.find("run until (((res / first(res)) < tol) || (top > 1.0:double)) max "
                      "(2 * MAXIT)\n  k\n  res\n  top\n"),
            std::string::npos)
      << dump;
}

TEST(CompilerSema, ReductionMinAndSum) {
  auto p = valid("stencil s;\ngrid int a[4];\n"
                 "reduce lo(x) = min(a[x]);\nreduce tot(i) on red = sum(a[i] * i);\n"
                 "run 1 { lo; tot; }\n");
  EXPECT_EQ(p.reductions[0].op, ir::ReduceOp::Min);
  EXPECT_EQ(p.reductions[1].op, ir::ReduceOp::Sum);
  EXPECT_EQ(p.reductions[1].domain.kind, ir::Domain::Kind::Red);
  EXPECT_EQ(ir::print(p, p.reductions[1].value), "(a[+0] * i0)");
  EXPECT_EQ(p.until, nullptr);
}

TEST(CompilerSemaErrors, ReductionErrors) {
  const std::string text = "stencil s;\n"                                   // 1
                           "param double tol = 0.1;\n"                      // 2
                           "grid double u[6];\n"                            // 3
                           "grid double v like u;\n"                        // 4
                           "reduce none(x) = sum(x * 2.0);\n"               // 5
                           "reduce bad(x) = avg(u[x]);\n"                   // 6
                           "reduce cond(x) = sum(u[x] > 0.0);\n"            // 7
                           "reduce ok(x) = sum(u[x]);\n"                    // 8
                           "kernel k(x) { v[x] = u[x] * ok; }\n"            // 9
                           "kernel m(x) { v[x] = first(ok); }\n"            // 10
                           "run steps { k; m; }\n";                         // 11
  // (Kernels are checked before reductions: that is the order of the reports.)
  expect_errors(text,
                {{9, col(text, 9, "ok"), "reduction 'ok' can only be used in the condition of "
                                         "'run until'"},
                 {10, col(text, 10, "first"), "first() can only be used in the condition of "
                                              "'run until'"},
                 {5, col(text, 5, "none"), "reduction 'none' reads no grid, so it has no domain "
                                           "to run over"},
                 {6, col(text, 6, "avg"), "unknown reduction 'avg' (sum, min, max, norm2, prod)"},
                 {7, col(text, 7, "u[x]"), "type mismatch: reduction 'cond' needs a number"}});
}

TEST(CompilerSemaErrors, RunUntilErrors) {
  const std::string head = "stencil s;\n"                      // 1
                           "param double tol = 0.1;\n"         // 2
                           "grid double u[6];\n"               // 3
                           "reduce r(x) = sum(u[x]);\n"        // 4
                           "reduce q(x) = max(u[x]);\n";       // 5
  // Used in the condition but never computed by the block.
  std::string text = head + "run until r < tol max 10 { q; }\n";
  expect_errors(text, {{6, col(text, 6, "r <"), "the condition uses reduction 'r', which the run "
                                                "block never computes; add 'r;' to the block"}});
  text = head + "run until first(r) < tol && q < 1.0 max 10 { q; }\n";
  expect_errors(text, {{6, col(text, 6, "first"), "the condition uses reduction 'r'"}});
  // The condition must be a condition; first() takes a reduction.
  text = head + "run until r max 10 { r; }\n";
  expect_errors(text, {{6, col(text, 6, "r max"), "type mismatch: 'run until' needs a "
                                                  "condition"}});
  text = head + "run until first(tol) < 1.0 max 10 { r; }\n";
  expect_errors(text, {{6, col(text, 6, "tol)"), "first() takes the name of a reduction"}});
  // Grids cannot be read in the condition, and the limit is an int of at least 0.
  text = head + "run until u[0] < 1.0 max 10 { r; }\n";
  expect_errors(text, {{6, col(text, 6, "u["), "grid 'u' cannot be read in the condition of "
                                               "'run until'"}});
  text = head + "run until r < tol max tol { r; }\n";
  expect_errors(text, {{6, col(text, 6, "tol {"), "type mismatch: the iteration limit must be "
                                                  "int, not double"}});
  text = head + "run until r < tol max 0 - 1 { r; }\n";
  expect_errors(text, {{6, col(text, 6, "0 -"), "the iteration limit is -1; it must be at "
                                                "least 0"}});
}

// ---------------------------------------------------------------- language v2: init

TEST(CompilerSema, InitExpressions) {
  auto p = valid("stencil s;\n"
                 "param double h = 0.5;\n"
                 "grid double u[4, 3];\n"
                 "grid float f[4];\n"
                 "grid readonly int m[4, 3];\n"
                 "grid double v[4, 3];\n"
                 "init u[i, j] = i + h * j;\n"
                 "init f[x] = x * 0.5;\n"
                 "init m[p, q] = p % 2 == 0 ? q : -q;\n"
                 "kernel k(x, y) { u[x,y] = u[x,y] + m[x,y]; }\n"
                 "run steps { k; }\n");
  EXPECT_EQ(ir::print(p, p.grids[grid_named(p, "u")].init), "(double(i0) + (h * double(i1)))");
  EXPECT_EQ(ir::print(p, p.grids[grid_named(p, "f")].init), "float((double(i0) * 0.5:double))");
  EXPECT_EQ(ir::print(p, p.grids[grid_named(p, "m")].init),
            "(((i0 % 2) == 0) ? i1 : -(i1))");
  EXPECT_EQ(p.grids[grid_named(p, "v")].init, nullptr);
  const std::string dump = ir::print(p);
  EXPECT_NE(dump.find("init u = (double(i0) + (h * double(i1)))\n"), std::string::npos) << dump;
}

TEST(CompilerSemaErrors, InitErrors) {
  const std::string text = "stencil s;\n"                        // 1
                           "param int N = 4;\n"                  // 2
                           "grid double u[N, N];\n"              // 3
                           "grid double v like u;\n"             // 4
                           "grid int a[N];\n"                    // 5
                           "init u[x] = 1.0;\n"                  // 6
                           "init v[x, y] = 1.0;\n"               // 7
                           "init v[x, y] = 2.0;\n"               // 8
                           "init a[x] = u[x, x];\n"              // 9
                           "init a[i] = 0.5;\n"                  // 10
                           "init N[x] = 1;\n"                    // 11
                           "init q[x] = 1;\n"                    // 12
                           "init a[i, i] = 1;\n"                 // 13
                           "run steps { }\n";
  expect_errors(text,
                {{6, col(text, 6, "u"), "wrong number of indices: grid 'u' has rank 2 but the "
                                        "init names 1"},
                 {8, col(text, 8, "v"), "grid 'v' has a second init"},
                 {9, col(text, 9, "u["), "grid 'u' cannot be read in an init"},
                 {10, col(text, 10, "0.5"), "type mismatch: grid 'a' is int but the value is "
                                            "double"},
                 {11, col(text, 11, "N"), "'N' is a param, not a grid"},
                 {12, col(text, 12, "q"), "unknown grid 'q'"},
                 {13, col(text, 13, "i]"), "index 'i' appears twice"}});
}

// ---------------------------------------------------------------- resolve_params

using Overrides = std::map<std::string, double>;

std::vector<ir::Scalar> resolve(const ir::Program &p, const Overrides &o) {
  return stc::resolve_params(p, [&](const std::string &name, ir::Type t, ir::Scalar &v) {
    auto it = o.find(name);
    if (it == o.end())
      return false;
    v = ir::Scalar::of(t, it->second);
    return true;
  });
}

const char *kParams = "stencil s;\n"
                      "param int N = 4, M = N * 2 + 1;\n"
                      "param float c = 0.1;\n"
                      "param double h = 1.0 / M;\n"
                      "run steps { }\n";

TEST(CompilerResolveParams, Defaults) {
  auto p = valid(kParams);
  auto v = resolve(p, {});
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].i, 4);
  EXPECT_EQ(v[1].i, 9);
  EXPECT_EQ(v[2].d, static_cast<double>(0.1f));
  EXPECT_EQ(v[3].d, 1.0 / 9.0);
}

TEST(CompilerResolveParams, OverridesFeedLaterDefaults) {
  auto p = valid(kParams);
  auto v = resolve(p, {{"N", 10}, {"c", 0.5}});
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].i, 10);
  EXPECT_EQ(v[1].i, 21);
  EXPECT_EQ(v[2].d, 0.5);
  EXPECT_EQ(v[3].d, 1.0 / 21.0);
  // Overriding a derived param wins over its default expression.
  auto w = resolve(p, {{"M", 3}});
  EXPECT_EQ(w[0].i, 4);
  EXPECT_EQ(w[1].i, 3);
  EXPECT_EQ(w[3].d, 1.0 / 3.0);
}

TEST(CompilerResolveParams, NullOverrideFunctionUsesDefaults) {
  auto p = valid(kParams);
  auto v = stc::resolve_params(p, nullptr);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[1].i, 9);
}

TEST(CompilerResolveParams, MissingValueIsAnError) {
  auto p = valid("stencil s;\nparam int N = 2;\nparam double K;\nrun steps { }\n");
  try {
    resolve(p, {});
    ADD_FAILURE() << "no exception";
  } catch (const stencilc::Error &e) {
    EXPECT_EQ(std::string(e.what()), "param 'K' has no default; give it with --set K=VALUE");
  }
  auto v = resolve(p, {{"K", 2.5}});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1].d, 2.5);
}

TEST(CompilerResolveParams, DivisionByZeroAfterOverrideIsAnError) {
  auto p = valid("stencil s;\nparam int D = 2;\nparam int Q = 10 / D;\nrun steps { }\n");
  try {
    resolve(p, {{"D", 0}});
    ADD_FAILURE() << "no exception";
  } catch (const stencilc::Error &e) {
    EXPECT_NE(std::string(e.what()).find("param 'Q'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("division by zero"), std::string::npos) << e.what();
  }
}

} // namespace

// Coefficients of lower rank are held whole by every MPI rank; a distributed grid of lower rank
// keeps the dimensions it does not have whole, as absolute reads keep theirs.
TEST(CompilerLowerRank, ReplicatedGridsAndUnsplitDimensions) {
  auto c = check_text("stencil t;\nparam int N = 8;\ngrid double u[N, N, N], v[N, N, N];\n"
                      "grid double kz[N], a[N], b[N];\n"
                      "kernel k(x, y, z) { v[x, y, z] = u[x, y, z] * kz[z]; }\n"
                      "kernel k1(x) { b[x] = a[x] + kz[x]; }\n"
                      "run steps { k; swap u, v; k1; swap a, b; }\n");
  ASSERT_TRUE(c.prog) << c.render();
  EXPECT_EQ(ir::lower_rank_grids(*c.prog), (std::set<int>{2}));
  EXPECT_EQ(ir::unsplit_dims(*c.prog), 0b110u); // a and b are split along x only

  auto whole = check_text("stencil t;\nparam int N = 8;\ngrid double u[N, N, N], v[N, N, N];\n"
                          "grid double kz[N], s[N, N];\n"
                          "kernel k(x, y, z) { v[x, y, z] = u[x, y, 0] * kz[z] + s[x, y]; }\n"
                          "run steps { k; swap u, v; }\n");
  ASSERT_TRUE(whole.prog) << whole.render();
  EXPECT_EQ(ir::lower_rank_grids(*whole.prog), (std::set<int>{2, 3}));
  EXPECT_EQ(ir::unsplit_dims(*whole.prog), 0b100u); // only the absolute z
}
