// Unit tests of semantic checking: check() into ir::Program, its diagnostics, resolve_params().
#include "sema/check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
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
                       "  v[x] = u[2*x];\n"       // 8
                       "  v[x+1] = u[x];\n"       // 9
                       "  v[x] = u[x, x];\n"      // 10
                       "  v[x] = m[x, x];\n"      // 11
                       "  v[x] = u[N];\n"         // 12
                       "  v[x] = u[x + N];\n"     // 13
                       "}",
                       {{8, 12, "subscript 1 of 'u' must be 'x' plus or minus an integer "
                                "constant"},
                        {9, 5, "a kernel writes only the centre point: subscript 1 of 'v' "
                               "must be 'x'"},
                        {10, 10, "wrong number of subscripts: grid 'u' has rank 1 but is "
                                 "indexed with 2"},
                        {11, 10, "grid 'm' has rank 2 but kernel 'f' has rank 1"},
                        {12, 12, "subscript 1 of 'u' must be 'x'"},
                        {13, 12, "subscript 1 of 'u' must be 'x'"}});
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
                {{3, 1, "a stencil has one 'run' block; this is a second one"}});
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
  EXPECT_EQ(c.render(), "t.stn:2:15: error: type mismatch: param 'N' is int but the value is "
                        "double\n"
                        "param int N = 2.5;\n"
                        "              ^\n");
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
