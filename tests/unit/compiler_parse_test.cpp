// Unit tests of the frontend: parse() into ast::Program, and read_source().
#include "frontend/parse.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "frontend/source.h"

namespace {

using stc::DiagEngine;
using stc::SourceFile;
using stc::SourceLoc;
namespace ast = stc::ast;
using K = ast::Expr::Kind;

struct Parsed {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<DiagEngine> diags;
  std::optional<ast::Program> prog;
};

Parsed parse_text(const std::string &text) {
  Parsed p;
  p.file = std::make_unique<SourceFile>("test.stn", text);
  p.diags = std::make_unique<DiagEngine>(p.file.get());
  p.prog = stc::parse(*p.file, *p.diags);
  return p;
}

// Parses `stencil s; param double a, b, c, d; <decl>` and returns the only param init or the
// first assignment's value. Expressions are written in a param default so no kernel is needed.
ast::ExprPtr parse_expr(const std::string &expr) {
  auto p = parse_text("stencil s;\nparam double e = " + expr + ";\n");
  EXPECT_TRUE(p.prog) << p.diags->render();
  if (!p.prog)
    return nullptr;
  EXPECT_EQ(p.prog->params.size(), 1u);
  return p.prog->params[0].init;
}

// A fully parenthesised rendering of an expression tree: the tree shape, nothing else.
std::string tree(const ast::ExprPtr &e) {
  if (!e)
    return "<null>";
  switch (e->kind) {
  case K::Int:
  case K::Float:
  case K::Name: return e->text;
  case K::Access: {
    std::string s = e->text + "[";
    for (std::size_t i = 0; i < e->args.size(); ++i)
      s += (i ? "," : "") + tree(e->args[i]);
    return s + "]";
  }
  case K::Neg: return "(-" + tree(e->args[0]) + ")";
  case K::Plus: return "(+" + tree(e->args[0]) + ")";
  case K::Add: return "(" + tree(e->args[0]) + " + " + tree(e->args[1]) + ")";
  case K::Sub: return "(" + tree(e->args[0]) + " - " + tree(e->args[1]) + ")";
  case K::Mul: return "(" + tree(e->args[0]) + " * " + tree(e->args[1]) + ")";
  case K::Div: return "(" + tree(e->args[0]) + " / " + tree(e->args[1]) + ")";
  case K::Not: return "(!" + tree(e->args[0]) + ")";
  case K::Mod:
  case K::Lt:
  case K::Le:
  case K::Gt:
  case K::Ge:
  case K::Eq:
  case K::Ne:
  case K::And:
  case K::Or: // e->text is the operator's spelling
    return "(" + tree(e->args[0]) + " " + e->text + " " + tree(e->args[1]) + ")";
  case K::Cond:
    return "(" + tree(e->args[0]) + " ? " + tree(e->args[1]) + " : " + tree(e->args[2]) + ")";
  case K::Call:
  case K::Conv: {
    std::string s = e->text + "(";
    for (std::size_t i = 0; i < e->args.size(); ++i)
      s += (i ? "," : "") + tree(e->args[i]);
    return s + ")";
  }
  }
  return "?";
}

void expect_loc(SourceLoc loc, int line, int col) {
  EXPECT_EQ(loc.line, line);
  EXPECT_EQ(loc.col, col);
}

// ---------------------------------------------------------------- declarations

TEST(CompilerParse, StencilNameAndLocation) {
  auto p = parse_text("  stencil   heat;\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  EXPECT_EQ(p.prog->name, "heat");
  expect_loc(p.prog->name_loc, 1, 13);
  EXPECT_TRUE(p.prog->params.empty());
  EXPECT_TRUE(p.prog->grids.empty());
  EXPECT_TRUE(p.prog->kernels.empty());
  EXPECT_TRUE(p.prog->runs.empty());
  EXPECT_FALSE(p.diags->has_errors());
}

TEST(CompilerParse, ParamsWithAndWithoutDefaultsSeveralPerLine) {
  auto p = parse_text("stencil s;\n"
                      "param int NX = 256, NY, NZ = 4;\n"
                      "param float c0 = 0.4;\n"
                      "param double h;\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  const auto &ps = p.prog->params;
  ASSERT_EQ(ps.size(), 5u);
  EXPECT_EQ(ps[0].name, "NX");
  EXPECT_EQ(ps[0].type, ast::TypeName::Int);
  ASSERT_TRUE(ps[0].init);
  EXPECT_EQ(ps[0].init->kind, K::Int);
  EXPECT_EQ(ps[0].init->text, "256");
  expect_loc(ps[0].loc, 2, 11);

  EXPECT_EQ(ps[1].name, "NY");
  EXPECT_EQ(ps[1].type, ast::TypeName::Int);
  EXPECT_EQ(ps[1].init, nullptr);
  expect_loc(ps[1].loc, 2, 21);

  EXPECT_EQ(ps[2].name, "NZ");
  ASSERT_TRUE(ps[2].init);
  EXPECT_EQ(ps[2].init->text, "4");
  expect_loc(ps[2].init->loc, 2, 30);

  EXPECT_EQ(ps[3].name, "c0");
  EXPECT_EQ(ps[3].type, ast::TypeName::Float);
  ASSERT_TRUE(ps[3].init);
  EXPECT_EQ(ps[3].init->kind, K::Float);
  EXPECT_EQ(ps[3].init->text, "0.4");

  EXPECT_EQ(ps[4].name, "h");
  EXPECT_EQ(ps[4].type, ast::TypeName::Double);
  EXPECT_EQ(ps[4].init, nullptr);
}

TEST(CompilerParse, GridsExplicitShapeLikeReadonlyAndBoundary) {
  auto p = parse_text("stencil s;\n"
                      "grid float u[NX, NY, 2*NZ] boundary dirichlet(0.5), w[8];\n"
                      "grid readonly double k[NX] boundary periodic;\n"
                      "grid int v like u;\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  const auto &gs = p.prog->grids;
  ASSERT_EQ(gs.size(), 4u);

  EXPECT_EQ(gs[0].name, "u");
  EXPECT_EQ(gs[0].type, ast::TypeName::Float);
  EXPECT_FALSE(gs[0].readonly);
  expect_loc(gs[0].loc, 2, 12);
  ASSERT_EQ(gs[0].extents.size(), 3u);
  EXPECT_EQ(tree(gs[0].extents[0]), "NX");
  EXPECT_EQ(tree(gs[0].extents[1]), "NY");
  EXPECT_EQ(tree(gs[0].extents[2]), "(2 * NZ)");
  EXPECT_TRUE(gs[0].like.empty());
  ASSERT_TRUE(gs[0].has_boundary);
  ASSERT_EQ(gs[0].boundary.size(), 1u);
  EXPECT_EQ(gs[0].boundary[0].face, ""); // uniform: every face
  EXPECT_EQ(gs[0].boundary[0].side, 0);
  EXPECT_EQ(gs[0].boundary[0].kind, "dirichlet");
  expect_loc(gs[0].boundary[0].loc, 2, 37);
  expect_loc(gs[0].boundary[0].kind_loc, 2, 37);
  ASSERT_TRUE(gs[0].boundary[0].value);
  EXPECT_EQ(gs[0].boundary[0].value->text, "0.5");

  // The second item of the same declaration shares its type.
  EXPECT_EQ(gs[1].name, "w");
  EXPECT_EQ(gs[1].type, ast::TypeName::Float);
  ASSERT_EQ(gs[1].extents.size(), 1u);
  EXPECT_EQ(gs[1].extents[0]->text, "8");
  EXPECT_FALSE(gs[1].has_boundary);
  EXPECT_TRUE(gs[1].boundary.empty());

  EXPECT_EQ(gs[2].name, "k");
  EXPECT_TRUE(gs[2].readonly);
  EXPECT_EQ(gs[2].type, ast::TypeName::Double);
  ASSERT_TRUE(gs[2].has_boundary);
  ASSERT_EQ(gs[2].boundary.size(), 1u);
  EXPECT_EQ(gs[2].boundary[0].kind, "periodic"); // any name parses; sema judges it
  EXPECT_EQ(gs[2].boundary[0].value, nullptr);

  EXPECT_EQ(gs[3].name, "v");
  EXPECT_EQ(gs[3].type, ast::TypeName::Int);
  EXPECT_TRUE(gs[3].extents.empty());
  EXPECT_EQ(gs[3].like, "u");
  expect_loc(gs[3].like_loc, 4, 17);
}

TEST(CompilerParse, KernelWithSeveralStatements) {
  auto p = parse_text("stencil s;\n"
                      "kernel k(x, y) {\n"
                      "  a[x, y] = u[x-1, y] + u[x+1, y];\n"
                      "  b[x, y] = a[x, y] * 2;\n"
                      "  c[x,y] = -b[x,y];\n"
                      "}\n"
                      "kernel empty(i) { }\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  ASSERT_EQ(p.prog->kernels.size(), 2u);
  const auto &k = p.prog->kernels[0];
  EXPECT_EQ(k.name, "k");
  expect_loc(k.loc, 2, 8);
  ASSERT_EQ(k.indices.size(), 2u);
  EXPECT_EQ(k.indices[0], "x");
  EXPECT_EQ(k.indices[1], "y");
  ASSERT_EQ(k.index_locs.size(), 2u);
  expect_loc(k.index_locs[0], 2, 10);
  expect_loc(k.index_locs[1], 2, 13);
  ASSERT_EQ(k.body.size(), 3u);

  EXPECT_EQ(k.body[0].target->kind, K::Access);
  EXPECT_EQ(tree(k.body[0].target), "a[x,y]");
  EXPECT_EQ(tree(k.body[0].value), "(u[(x - 1),y] + u[(x + 1),y])");
  expect_loc(k.body[0].loc, 3, 3);
  expect_loc(k.body[0].target->name_loc, 3, 3);

  EXPECT_EQ(tree(k.body[1].target), "b[x,y]");
  EXPECT_EQ(tree(k.body[1].value), "(a[x,y] * 2)");
  expect_loc(k.body[1].loc, 4, 3);

  EXPECT_EQ(tree(k.body[2].value), "(-b[x,y])");

  EXPECT_EQ(p.prog->kernels[1].name, "empty");
  EXPECT_TRUE(p.prog->kernels[1].body.empty());
}

TEST(CompilerParse, RunBlockWithCallsAndSwaps) {
  auto p = parse_text("stencil s;\n"
                      "run steps {\n"
                      "  diffuse;\n"
                      "  swap u, v;\n"
                      "  other; swap  a ,b;\n"
                      "}\n"
                      "run 2*NT { }\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  ASSERT_EQ(p.prog->runs.size(), 2u); // sema, not the parser, insists on one
  const auto &r = p.prog->runs[0];
  expect_loc(r.loc, 2, 1);
  ASSERT_TRUE(r.count);
  EXPECT_EQ(r.count->kind, K::Name);
  EXPECT_EQ(r.count->text, "steps");
  ASSERT_EQ(r.body.size(), 4u);

  EXPECT_EQ(r.body[0].kind, ast::RunStmt::Kind::Call);
  EXPECT_EQ(r.body[0].a, "diffuse");
  expect_loc(r.body[0].a_loc, 3, 3);

  EXPECT_EQ(r.body[1].kind, ast::RunStmt::Kind::Swap);
  EXPECT_EQ(r.body[1].a, "u");
  EXPECT_EQ(r.body[1].b, "v");
  expect_loc(r.body[1].loc, 4, 3);
  expect_loc(r.body[1].a_loc, 4, 8);
  expect_loc(r.body[1].b_loc, 4, 11);

  EXPECT_EQ(r.body[2].kind, ast::RunStmt::Kind::Call);
  EXPECT_EQ(r.body[2].a, "other");
  EXPECT_EQ(r.body[3].kind, ast::RunStmt::Kind::Swap);
  EXPECT_EQ(r.body[3].a, "a");
  EXPECT_EQ(r.body[3].b, "b");
  expect_loc(r.body[3].a_loc, 5, 16);
  expect_loc(r.body[3].b_loc, 5, 19);

  EXPECT_EQ(tree(p.prog->runs[1].count), "(2 * NT)");
  EXPECT_TRUE(p.prog->runs[1].body.empty());
}

TEST(CompilerParse, DeclarationsInAnyOrderKeepTheirOrder) {
  auto p = parse_text("stencil s; grid double a[4]; param int N = 1; grid double b[4];"
                      "param int M; kernel k(x) { b[x] = a[x]; } run 1 { k; }");
  ASSERT_TRUE(p.prog) << p.diags->render();
  ASSERT_EQ(p.prog->params.size(), 2u);
  EXPECT_EQ(p.prog->params[0].name, "N");
  EXPECT_EQ(p.prog->params[1].name, "M");
  ASSERT_EQ(p.prog->grids.size(), 2u);
  EXPECT_EQ(p.prog->grids[0].name, "a");
  EXPECT_EQ(p.prog->grids[1].name, "b");
}

// ---------------------------------------------------------------- expressions

TEST(CompilerParse, SubtractionAndDivisionAreLeftAssociative) {
  EXPECT_EQ(tree(parse_expr("a - b - c")), "((a - b) - c)");
  EXPECT_EQ(tree(parse_expr("a / b / c")), "((a / b) / c)");
  EXPECT_EQ(tree(parse_expr("a + b - c + d")), "(((a + b) - c) + d)");
  EXPECT_EQ(tree(parse_expr("a * b / c * d")), "(((a * b) / c) * d)");
}

TEST(CompilerParse, MultiplicationBindsTighterThanAddition) {
  EXPECT_EQ(tree(parse_expr("a + b * c")), "(a + (b * c))");
  EXPECT_EQ(tree(parse_expr("a * b + c")), "((a * b) + c)");
  EXPECT_EQ(tree(parse_expr("a - b / c - d")), "((a - (b / c)) - d)");
}

TEST(CompilerParse, ParenthesesOverridePrecedenceAndLeaveNoNode) {
  EXPECT_EQ(tree(parse_expr("(a + b) * c")), "((a + b) * c)");
  EXPECT_EQ(tree(parse_expr("a - (b - c)")), "(a - (b - c))");
  EXPECT_EQ(tree(parse_expr("a / (b / c)")), "(a / (b / c))");
  EXPECT_EQ(tree(parse_expr("((((a))))")), "a");
}

TEST(CompilerParse, UnaryOperatorsBindTighterThanMultiplication) {
  EXPECT_EQ(tree(parse_expr("-a * b")), "((-a) * b)");
  EXPECT_EQ(tree(parse_expr("-a - b")), "((-a) - b)");
  EXPECT_EQ(tree(parse_expr("a * -b")), "(a * (-b))");
  EXPECT_EQ(tree(parse_expr("a - -b")), "(a - (-b))");
  EXPECT_EQ(tree(parse_expr("- -a")), "(-(-a))");
  EXPECT_EQ(tree(parse_expr("+a * b")), "((+a) * b)");
  EXPECT_EQ(tree(parse_expr("-(a * b)")), "(-(a * b))");
}

TEST(CompilerParse, LiteralsKeepTheirSpelling) {
  auto e = parse_expr("1 + 2.5 + .5 + 3. + 1e3 + 2.5E-2");
  EXPECT_EQ(tree(e), "(((((1 + 2.5) + .5) + 3.) + 1e3) + 2.5E-2)");
  // Walk down the left spine to check literal kinds.
  std::vector<ast::ExprPtr> leaves;
  for (auto x = e; x->kind == K::Add; x = x->args[0]) {
    leaves.push_back(x->args[1]);
    if (x->args[0]->kind != K::Add)
      leaves.push_back(x->args[0]);
  }
  ASSERT_EQ(leaves.size(), 6u);
  EXPECT_EQ(leaves[5]->kind, K::Int);
  EXPECT_EQ(leaves[5]->text, "1");
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(leaves[i]->kind, K::Float) << leaves[i]->text;
}

TEST(CompilerParse, ExpressionLocationsAreOperatorsAndNames) {
  auto p = parse_text("stencil s;\nparam double e = a*b - -c;\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  auto e = p.prog->params[0].init;
  ASSERT_EQ(e->kind, K::Sub);
  expect_loc(e->loc, 2, 22);          // the '-' of the subtraction
  ASSERT_EQ(e->args[0]->kind, K::Mul);
  expect_loc(e->args[0]->loc, 2, 19); // '*'
  expect_loc(e->args[0]->args[0]->loc, 2, 18);
  expect_loc(e->args[0]->args[1]->loc, 2, 20);
  ASSERT_EQ(e->args[1]->kind, K::Neg);
  expect_loc(e->args[1]->loc, 2, 24); // the unary '-'
  expect_loc(e->args[1]->args[0]->loc, 2, 25);
}

TEST(CompilerParse, AccessLocationIsTheGridName) {
  auto p = parse_text("stencil s;\nkernel k(x) {\n\tv[x] = 0.5 * u[x + 1];\n}\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  const auto &a = p.prog->kernels[0].body[0];
  expect_loc(a.target->loc, 3, 2); // the tab counts as one column
  const auto &mul = a.value;
  ASSERT_EQ(mul->kind, K::Mul);
  expect_loc(mul->loc, 3, 13);
  const auto &acc = mul->args[1];
  ASSERT_EQ(acc->kind, K::Access);
  EXPECT_EQ(acc->text, "u");
  expect_loc(acc->loc, 3, 15);
  expect_loc(acc->name_loc, 3, 15);
  ASSERT_EQ(acc->args.size(), 1u);
  expect_loc(acc->args[0]->loc, 3, 19); // '+'
}

TEST(CompilerParse, CommentsAreSkipped) {
  auto p = parse_text("// leading comment\n"
                      "stencil /* inline */ s; // trailing\n"
                      "/* a block\n"
                      "   over lines; param int X = 1; */\n"
                      "param int N = /* here */ 3 // end\n"
                      "  ;\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  EXPECT_EQ(p.prog->name, "s");
  expect_loc(p.prog->name_loc, 2, 22);
  ASSERT_EQ(p.prog->params.size(), 1u);
  EXPECT_EQ(p.prog->params[0].name, "N");
  expect_loc(p.prog->params[0].loc, 5, 11);
  EXPECT_EQ(p.prog->params[0].init->text, "3");
  expect_loc(p.prog->params[0].init->loc, 5, 26);
}

// ---------------------------------------------------------------- syntax errors

// Reported where the ';' belongs (after the last token of line 2), not at the next line.
TEST(CompilerParse, MissingSemicolonIsReportedAfterThePreviousToken) {
  auto p = parse_text("stencil s;\nparam int N = 4\ngrid float u[N];\n");
  EXPECT_FALSE(p.prog);
  ASSERT_TRUE(p.diags->has_errors());
  const auto &d = p.diags->diagnostics()[0];
  EXPECT_EQ(d.severity, stc::Severity::Error);
  EXPECT_EQ(d.loc.line, 2);
  EXPECT_EQ(d.loc.col, 16);
  EXPECT_EQ(d.message, "expected ';'");
  EXPECT_NE(p.diags->render().find("test.stn:2:16: error: "), std::string::npos)
      << p.diags->render();
}

TEST(CompilerParse, BadCharacterIsReportedWithItsColumn) {
  auto p = parse_text("stencil s;\nparam int N = 4 $ 2;\n");
  EXPECT_FALSE(p.prog);
  ASSERT_TRUE(p.diags->has_errors());
  const auto &d = p.diags->diagnostics()[0];
  EXPECT_EQ(d.loc.line, 2);
  EXPECT_EQ(d.loc.col, 17);
  EXPECT_EQ(d.message, "unexpected character '$'");
  const std::string r = p.diags->render();
  EXPECT_NE(r.find("test.stn:2:17: error: unexpected character '$'\n"
                   "param int N = 4 $ 2;\n"
                   "                ^\n"),
            std::string::npos)
      << r;
}

TEST(CompilerParse, UnterminatedInputSaysEndOfFile) {
  auto p = parse_text("stencil s;\nkernel k(x) {\n  v[x] = u[x];\n");
  EXPECT_FALSE(p.prog);
  ASSERT_TRUE(p.diags->has_errors());
  const auto &d = p.diags->diagnostics()[0];
  EXPECT_EQ(d.loc.line, 4);
  EXPECT_NE(d.message.find("end of file"), std::string::npos) << d.message;
  EXPECT_EQ(d.message.find("EOF"), std::string::npos) << d.message;
}

TEST(CompilerParse, MissingStencilDeclarationIsAnError) {
  auto p = parse_text("param int N = 4;\n");
  EXPECT_FALSE(p.prog);
  ASSERT_TRUE(p.diags->has_errors());
  expect_loc(p.diags->diagnostics()[0].loc, 1, 1);
}

TEST(CompilerParse, KeywordCannotBeAName) {
  auto p = parse_text("stencil s;\nparam int grid = 1;\n");
  EXPECT_FALSE(p.prog);
  ASSERT_TRUE(p.diags->has_errors());
  expect_loc(p.diags->diagnostics()[0].loc, 2, 11);
}

TEST(CompilerParse, SeveralSyntaxErrorsAreAllReported) {
  auto p = parse_text("stencil s;\nparam int N = 4\ngrid float u[N];\nparam int M = # 1;\n");
  EXPECT_FALSE(p.prog);
  EXPECT_GE(p.diags->error_count(), 2);
  bool line2 = false, line4 = false;
  for (const auto &d : p.diags->diagnostics()) {
    line2 |= d.loc.line == 2 && d.message == "expected ';'";
    line4 |= d.loc.line == 4 && d.loc.col == 15 && d.message == "unexpected character '#'";
  }
  EXPECT_TRUE(line2) << p.diags->render();
  EXPECT_TRUE(line4) << p.diags->render();
  // Rendered in source order although the lexer reported line 4 first.
  const std::string r = p.diags->render();
  EXPECT_LT(r.find("test.stn:2:16"), r.find("test.stn:4:15")) << r;
}

TEST(CompilerParse, DeepNestingIsAnErrorNotACrash) {
  std::string e(200, '(');
  e += "1";
  e += std::string(200, ')');
  auto p = parse_text("stencil s;\nparam int N = " + e + ";\n");
  EXPECT_FALSE(p.prog);
  ASSERT_TRUE(p.diags->has_errors());
  EXPECT_NE(p.diags->diagnostics()[0].message.find("nested"), std::string::npos);
  EXPECT_EQ(p.diags->diagnostics()[0].loc.line, 2);
}

// ---------------------------------------------------------------- language v2: declarations

TEST(CompilerParse, BoundaryItemsWithFacesAndSides) {
  auto p = parse_text("stencil s;\n"
                      "grid double u[N, N] boundary(neumann, x-: dirichlet(1.0 + 0.5*y), y: "
                      "periodic, z+: neumann);\n"
                      "grid float v[N] boundary(periodic);\n"
                      "grid float w[N] boundary periodic;\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  const auto &gs = p.prog->grids;
  ASSERT_EQ(gs.size(), 3u);
  ASSERT_TRUE(gs[0].has_boundary);
  const auto &b = gs[0].boundary;
  ASSERT_EQ(b.size(), 4u);
  // The default for every face: no face, no side.
  EXPECT_EQ(b[0].face, "");
  EXPECT_EQ(b[0].side, 0);
  EXPECT_EQ(b[0].kind, "neumann");
  EXPECT_EQ(b[0].value, nullptr);
  expect_loc(b[0].loc, 2, 30);
  expect_loc(b[0].kind_loc, 2, 30);
  // x-: the low face of x, with a value that uses the ghost cell's index y.
  EXPECT_EQ(b[1].face, "x");
  EXPECT_EQ(b[1].side, -1);
  EXPECT_EQ(b[1].kind, "dirichlet");
  expect_loc(b[1].loc, 2, 39); // an item with a face is located at its face
  expect_loc(b[1].face_loc, 2, 39);
  expect_loc(b[1].kind_loc, 2, 43);
  EXPECT_EQ(tree(b[1].value), "(1.0 + (0.5 * y))");
  expect_loc(b[1].value->loc, 2, 57);
  // y: both faces of y.
  EXPECT_EQ(b[2].face, "y");
  EXPECT_EQ(b[2].side, 0);
  EXPECT_EQ(b[2].kind, "periodic");
  expect_loc(b[2].face_loc, 2, 67);
  expect_loc(b[2].kind_loc, 2, 70);
  // z+: the high face of z (the parser accepts any face name and any rank; sema judges).
  EXPECT_EQ(b[3].face, "z");
  EXPECT_EQ(b[3].side, 1);
  EXPECT_EQ(b[3].kind, "neumann");
  expect_loc(b[3].face_loc, 2, 80);

  // `boundary(K)` and `boundary K` are the same single item.
  for (int g : {1, 2}) {
    ASSERT_TRUE(gs[g].has_boundary) << g;
    ASSERT_EQ(gs[g].boundary.size(), 1u) << g;
    EXPECT_EQ(gs[g].boundary[0].face, "") << g;
    EXPECT_EQ(gs[g].boundary[0].side, 0) << g;
    EXPECT_EQ(gs[g].boundary[0].kind, "periodic") << g;
    EXPECT_EQ(gs[g].boundary[0].value, nullptr) << g;
  }
}

TEST(CompilerParse, BoundaryItemWithAnUnknownFaceStillParses) {
  auto p = parse_text("stencil s;\ngrid double u[4] boundary(q+: neumann, dirichlet(0.0));\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  const auto &b = p.prog->grids[0].boundary;
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].face, "q");
  EXPECT_EQ(b[0].side, 1);
  EXPECT_EQ(b[1].face, "");
  EXPECT_EQ(b[1].kind, "dirichlet");
  EXPECT_EQ(tree(b[1].value), "0.0");
}

TEST(CompilerParse, Init) {
  auto p = parse_text("stencil s;\n"
                      "init g[i, j] = i * 2 + j;\n"
                      "init h[x] = sin(x * 0.5);\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  ASSERT_EQ(p.prog->inits.size(), 2u);
  const auto &in = p.prog->inits[0];
  EXPECT_EQ(in.grid, "g");
  expect_loc(in.loc, 2, 1);
  expect_loc(in.grid_loc, 2, 6);
  EXPECT_EQ(in.indices, (std::vector<std::string>{"i", "j"}));
  ASSERT_EQ(in.index_locs.size(), 2u);
  expect_loc(in.index_locs[0], 2, 8);
  expect_loc(in.index_locs[1], 2, 11);
  EXPECT_EQ(tree(in.value), "((i * 2) + j)");
  EXPECT_EQ(p.prog->inits[1].grid, "h");
  EXPECT_EQ(p.prog->inits[1].indices, std::vector<std::string>{"x"});
  EXPECT_EQ(tree(p.prog->inits[1].value), "sin((x * 0.5))");
}

TEST(CompilerParse, KernelDomains) {
  auto p = parse_text("stencil s;\n"
                      "kernel a(x, y) on [1:N-1, 0:N] { u[x,y] = 1.0; }\n"
                      "kernel b(x) on red { u[x] = 1.0; }\n"
                      "kernel c(x) on black { u[x] = 1.0; }\n"
                      "kernel d(x) { u[x] = 1.0; }\n"
                      "kernel e(x) on purple { u[x] = 1.0; }\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  const auto &ks = p.prog->kernels;
  ASSERT_EQ(ks.size(), 5u);
  const auto &ra = ks[0].domain;
  EXPECT_EQ(ra.kind, ast::Domain::Kind::Range);
  expect_loc(ra.loc, 2, 16); // 'on'
  ASSERT_EQ(ra.ranges.size(), 2u);
  EXPECT_EQ(tree(ra.ranges[0].first), "1");
  EXPECT_EQ(tree(ra.ranges[0].second), "(N - 1)");
  EXPECT_EQ(tree(ra.ranges[1].first), "0");
  EXPECT_EQ(tree(ra.ranges[1].second), "N");
  ASSERT_EQ(ks[0].body.size(), 1u);

  EXPECT_EQ(ks[1].domain.kind, ast::Domain::Kind::Colour);
  EXPECT_EQ(ks[1].domain.colour, "red");
  expect_loc(ks[1].domain.loc, 3, 16); // the colour's name
  EXPECT_TRUE(ks[1].domain.ranges.empty());
  EXPECT_EQ(ks[2].domain.kind, ast::Domain::Kind::Colour);
  EXPECT_EQ(ks[2].domain.colour, "black");
  EXPECT_EQ(ks[3].domain.kind, ast::Domain::Kind::Interior);
  EXPECT_TRUE(ks[3].domain.ranges.empty());
  EXPECT_EQ(ks[4].domain.kind, ast::Domain::Kind::Colour); // sema judges the colour
  EXPECT_EQ(ks[4].domain.colour, "purple");
}

TEST(CompilerParse, LetIfElseIfElse) {
  auto p = parse_text("stencil s;\n"
                      "kernel k(x) {\n"
                      "  let a = u[x] * 2.0;\n"
                      "  if (a > 1.0) { v[x] = a; }\n"
                      "  else if (a < -1.0) { v[x] = -a; }\n"
                      "  else { v[x] = 0.0; let b = 1.0; }\n"
                      "  if (x == 0) { v[x] = 1.0; }\n"
                      "  if (x != 0) { } else { }\n"
                      "}\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  const auto &body = p.prog->kernels[0].body;
  ASSERT_EQ(body.size(), 4u);

  EXPECT_EQ(body[0].kind, ast::Stmt::Kind::Let);
  EXPECT_EQ(body[0].name, "a");
  expect_loc(body[0].loc, 3, 7); // the local's name
  EXPECT_EQ(tree(body[0].value), "(u[x] * 2.0)");
  EXPECT_EQ(body[0].target, nullptr);

  const auto &i1 = body[1];
  EXPECT_EQ(i1.kind, ast::Stmt::Kind::If);
  expect_loc(i1.loc, 4, 3);
  EXPECT_EQ(tree(i1.value), "(a > 1.0)");
  ASSERT_EQ(i1.then_body.size(), 1u);
  EXPECT_EQ(i1.then_body[0].kind, ast::Stmt::Kind::Assign);
  EXPECT_EQ(tree(i1.then_body[0].target), "v[x]");
  EXPECT_EQ(tree(i1.then_body[0].value), "a");
  // `else if` is an else block holding one if statement.
  ASSERT_EQ(i1.else_body.size(), 1u);
  const auto &i2 = i1.else_body[0];
  EXPECT_EQ(i2.kind, ast::Stmt::Kind::If);
  expect_loc(i2.loc, 5, 8);
  EXPECT_EQ(tree(i2.value), "(a < (-1.0))");
  ASSERT_EQ(i2.then_body.size(), 1u);
  EXPECT_EQ(tree(i2.then_body[0].value), "(-a)");
  ASSERT_EQ(i2.else_body.size(), 2u);
  EXPECT_EQ(i2.else_body[0].kind, ast::Stmt::Kind::Assign);
  EXPECT_EQ(tree(i2.else_body[0].value), "0.0");
  EXPECT_EQ(i2.else_body[1].kind, ast::Stmt::Kind::Let);
  EXPECT_EQ(i2.else_body[1].name, "b");

  EXPECT_EQ(body[2].kind, ast::Stmt::Kind::If);
  EXPECT_EQ(tree(body[2].value), "(x == 0)");
  EXPECT_EQ(body[2].then_body.size(), 1u);
  EXPECT_TRUE(body[2].else_body.empty());

  EXPECT_EQ(tree(body[3].value), "(x != 0)");
  EXPECT_TRUE(body[3].then_body.empty());
  EXPECT_TRUE(body[3].else_body.empty());
}

TEST(CompilerParse, VarAssignAndFor) {
  auto p = parse_text("stencil s;\n"
                      "kernel k(x) {\n"
                      "  var a = u[x];\n"
                      "  for i in [-1:2 * 2] {\n"
                      "    a = a + u[x + i];\n"
                      "  }\n"
                      "  v[x] = a;\n"
                      "}\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  const auto &body = p.prog->kernels[0].body;
  ASSERT_EQ(body.size(), 3u);
  EXPECT_EQ(body[0].kind, ast::Stmt::Kind::Var);
  EXPECT_EQ(body[0].name, "a");
  expect_loc(body[0].loc, 3, 7);
  EXPECT_EQ(tree(body[0].value), "u[x]");

  const auto &f = body[1];
  EXPECT_EQ(f.kind, ast::Stmt::Kind::For);
  EXPECT_EQ(f.name, "i");
  expect_loc(f.loc, 4, 7); // the loop variable
  EXPECT_EQ(tree(f.from), "(-1)");
  EXPECT_EQ(tree(f.to), "(2 * 2)");
  ASSERT_EQ(f.then_body.size(), 1u);
  EXPECT_EQ(f.then_body[0].kind, ast::Stmt::Kind::Set);
  EXPECT_EQ(f.then_body[0].name, "a");
  expect_loc(f.then_body[0].loc, 5, 5);
  EXPECT_EQ(tree(f.then_body[0].value), "(a + u[(x + i)])");
  EXPECT_EQ(f.then_body[0].target, nullptr);
  EXPECT_TRUE(f.else_body.empty());

  EXPECT_EQ(body[2].kind, ast::Stmt::Kind::Assign);
}

TEST(CompilerParse, Reductions) {
  auto p = parse_text("stencil s;\n"
                      "reduce res(x, y) on [1:3, 0:2] = norm2(u[x,y] - v[x,y]);\n"
                      "reduce big(x) = max(u[x]);\n"
                      "reduce tot(x) on black = sum(abs(u[x]));\n"
                      "reduce lo(x) = min(u[x] + 1);\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  const auto &rs = p.prog->reduces;
  ASSERT_EQ(rs.size(), 4u);
  EXPECT_EQ(rs[0].name, "res");
  expect_loc(rs[0].loc, 2, 8);
  EXPECT_EQ(rs[0].indices, (std::vector<std::string>{"x", "y"}));
  ASSERT_EQ(rs[0].index_locs.size(), 2u);
  expect_loc(rs[0].index_locs[1], 2, 15);
  EXPECT_EQ(rs[0].domain.kind, ast::Domain::Kind::Range);
  ASSERT_EQ(rs[0].domain.ranges.size(), 2u);
  EXPECT_EQ(tree(rs[0].domain.ranges[0].first), "1");
  EXPECT_EQ(tree(rs[0].domain.ranges[0].second), "3");
  EXPECT_EQ(tree(rs[0].domain.ranges[1].second), "2");
  EXPECT_EQ(rs[0].op, "norm2");
  expect_loc(rs[0].op_loc, 2, 34);
  EXPECT_EQ(tree(rs[0].value), "(u[x,y] - v[x,y])");

  // `max` is also a keyword of `run until ... max N`; it still names the reduction.
  EXPECT_EQ(rs[1].name, "big");
  EXPECT_EQ(rs[1].op, "max");
  expect_loc(rs[1].op_loc, 3, 17);
  EXPECT_EQ(rs[1].domain.kind, ast::Domain::Kind::Interior);
  EXPECT_EQ(tree(rs[1].value), "u[x]");

  EXPECT_EQ(rs[2].op, "sum");
  EXPECT_EQ(rs[2].domain.kind, ast::Domain::Kind::Colour);
  EXPECT_EQ(rs[2].domain.colour, "black");
  EXPECT_EQ(tree(rs[2].value), "abs(u[x])");
  EXPECT_EQ(rs[3].op, "min");
  EXPECT_EQ(tree(rs[3].value), "(u[x] + 1)");
}

TEST(CompilerParse, RunUntilWithMax) {
  auto p = parse_text("stencil s;\n"
                      "run until res / first(res) < tol max 2 * MAXIT {\n"
                      "  residual; res; swap u, v;\n"
                      "}\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  ASSERT_EQ(p.prog->runs.size(), 1u);
  const auto &r = p.prog->runs[0];
  EXPECT_TRUE(r.until);
  expect_loc(r.loc, 2, 1);
  EXPECT_EQ(tree(r.cond), "((res / first(res)) < tol)");
  EXPECT_EQ(tree(r.count), "(2 * MAXIT)");
  ASSERT_EQ(r.body.size(), 3u);
  EXPECT_EQ(r.body[0].kind, ast::RunStmt::Kind::Call);
  EXPECT_EQ(r.body[0].a, "residual");
  EXPECT_EQ(r.body[1].kind, ast::RunStmt::Kind::Call); // a reduction is called like a kernel
  EXPECT_EQ(r.body[1].a, "res");
  EXPECT_EQ(r.body[2].kind, ast::RunStmt::Kind::Swap);

  // A `run N` block is not an until loop.
  auto q = parse_text("stencil s;\nrun 3 { k; }\n");
  ASSERT_TRUE(q.prog) << q.diags->render();
  EXPECT_FALSE(q.prog->runs[0].until);
  EXPECT_EQ(q.prog->runs[0].cond, nullptr);
}

// `max` is the keyword before the iteration limit and also a function: both in one header.
TEST(CompilerParse, RunUntilConditionMayCallMax) {
  auto p = parse_text("stencil s;\nrun until max(r, 1.0) < tol max 5 { r; }\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  const auto &r = p.prog->runs[0];
  EXPECT_TRUE(r.until);
  EXPECT_EQ(tree(r.cond), "(max(r,1.0) < tol)");
  EXPECT_EQ(tree(r.count), "5");
}

TEST(CompilerParse, RunUntilWithoutMaxIsASyntaxError) {
  auto p = parse_text("stencil s;\nrun until r < tol { r; }\n");
  EXPECT_FALSE(p.prog);
  ASSERT_TRUE(p.diags->has_errors());
  EXPECT_EQ(p.diags->diagnostics()[0].loc.line, 2);
}

// ---------------------------------------------------------------- language v2: expressions

TEST(CompilerParse, TernaryIsRightAssociativeAndLowest) {
  EXPECT_EQ(tree(parse_expr("a ? b : c ? d : e")), "(a ? b : (c ? d : e))");
  EXPECT_EQ(tree(parse_expr("a ? b ? c : d : e")), "(a ? (b ? c : d) : e)");
  EXPECT_EQ(tree(parse_expr("a || b ? c + d : e * 2")), "((a || b) ? (c + d) : (e * 2))");
  EXPECT_EQ(tree(parse_expr("a < b ? -c : d")), "((a < b) ? (-c) : d)");
  EXPECT_EQ(tree(parse_expr("(a ? b : c) + d")), "((a ? b : c) + d)");
}

TEST(CompilerParse, ComparisonsBindTighterThanAndWhichBindsTighterThanOr) {
  EXPECT_EQ(tree(parse_expr("a < b && c == d || e")), "(((a < b) && (c == d)) || e)");
  EXPECT_EQ(tree(parse_expr("a || b && c")), "(a || (b && c))");
  EXPECT_EQ(tree(parse_expr("a && b || c && d")), "((a && b) || (c && d))");
  EXPECT_EQ(tree(parse_expr("a || b || c")), "((a || b) || c)");
  EXPECT_EQ(tree(parse_expr("a && b && c")), "((a && b) && c)");
  // Arithmetic binds tighter than comparisons; < <= > >= tighter than == !=.
  EXPECT_EQ(tree(parse_expr("a + b < c * d")), "((a + b) < (c * d))");
  EXPECT_EQ(tree(parse_expr("a < b == c >= d")), "((a < b) == (c >= d))");
  EXPECT_EQ(tree(parse_expr("a != b <= c")), "(a != (b <= c))");
  EXPECT_EQ(tree(parse_expr("a > b > c")), "((a > b) > c)");
  EXPECT_EQ(tree(parse_expr("a || (b || c)")), "(a || (b || c))");
}

TEST(CompilerParse, NotIsAUnaryOperator) {
  EXPECT_EQ(tree(parse_expr("!a && b")), "((!a) && b)");
  EXPECT_EQ(tree(parse_expr("!(a && b)")), "(!(a && b))");
  EXPECT_EQ(tree(parse_expr("!!a")), "(!(!a))");
  EXPECT_EQ(tree(parse_expr("!a == b")), "((!a) == b)");
  EXPECT_EQ(tree(parse_expr("!(a < b) || c")), "((!(a < b)) || c)");
  auto p = parse_text("stencil s;\nparam double e = !a;\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  EXPECT_EQ(p.prog->params[0].init->kind, K::Not);
  expect_loc(p.prog->params[0].init->loc, 2, 18);
}

TEST(CompilerParse, ModuloIsAMultiplicativeOperator) {
  EXPECT_EQ(tree(parse_expr("a % b * c")), "((a % b) * c)");
  EXPECT_EQ(tree(parse_expr("a * b % c")), "((a * b) % c)");
  EXPECT_EQ(tree(parse_expr("a + b % c")), "(a + (b % c))");
  EXPECT_EQ(tree(parse_expr("a % b % c")), "((a % b) % c)");
  EXPECT_EQ(tree(parse_expr("-a % b")), "((-a) % b)");
  EXPECT_EQ(parse_expr("a % b")->kind, K::Mod);
}

TEST(CompilerParse, CallsAndConversions) {
  EXPECT_EQ(tree(parse_expr("sqrt(a) + max(a, b * c)")), "(sqrt(a) + max(a,(b * c)))");
  EXPECT_EQ(tree(parse_expr("pow(a + 1, 2) * floor(b)")), "(pow((a + 1),2) * floor(b))");
  EXPECT_EQ(tree(parse_expr("min(max(a, b), c)")), "min(max(a,b),c)");
  // Any name parses as a call, with any number of arguments: sema knows the functions.
  EXPECT_EQ(tree(parse_expr("foo(a, b, c)")), "foo(a,b,c)");
  EXPECT_EQ(tree(parse_expr("int(a) + float(b) * double(c + d)")),
            "(int(a) + (float(b) * double((c + d))))");
  EXPECT_EQ(tree(parse_expr("-int(a)")), "(-int(a))");

  auto p = parse_text("stencil s;\nparam double e = int(a) + sqrt(b);\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  const auto &e = p.prog->params[0].init;
  ASSERT_EQ(e->kind, K::Add);
  EXPECT_EQ(e->args[0]->kind, K::Conv);
  EXPECT_EQ(e->args[0]->text, "int");
  expect_loc(e->args[0]->loc, 2, 18);
  EXPECT_EQ(e->args[1]->kind, K::Call);
  EXPECT_EQ(e->args[1]->text, "sqrt");
  expect_loc(e->args[1]->loc, 2, 27);
  ASSERT_EQ(e->args[1]->args.size(), 1u);
  EXPECT_EQ(e->args[1]->args[0]->text, "b");
}

TEST(CompilerParse, NewOperatorLocationsAreTheOperators) {
  auto p = parse_text("stencil s;\nparam double e = a && b || c ? d : e;\n");
  ASSERT_TRUE(p.prog) << p.diags->render();
  const auto &e = p.prog->params[0].init;
  ASSERT_EQ(e->kind, K::Cond);
  expect_loc(e->loc, 2, 30); // '?'
  ASSERT_EQ(e->args.size(), 3u);
  ASSERT_EQ(e->args[0]->kind, K::Or);
  expect_loc(e->args[0]->loc, 2, 25);
  ASSERT_EQ(e->args[0]->args[0]->kind, K::And);
  expect_loc(e->args[0]->args[0]->loc, 2, 20);
}

TEST(CompilerParse, NewKeywordsCannotBeNames) {
  for (const char *kw :
       {"init", "let", "if", "else", "reduce", "until", "max", "on", "var", "for", "in"}) {
    auto p = parse_text(std::string("stencil s;\nparam int ") + kw + " = 1;\n");
    EXPECT_FALSE(p.prog) << kw;
    EXPECT_TRUE(p.diags->has_errors()) << kw;
  }
}

// ---------------------------------------------------------------- read_source

class CompilerReadSource : public ::testing::Test {
protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "stencilc_src_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string &name, const std::string &bytes) {
    const std::string p = dir_ + "/" + name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }
  std::string dir_;
};

TEST_F(CompilerReadSource, ReadsAValidFile) {
  const std::string text = "stencil s;\nparam int N = 3;\n";
  const auto path = write("ok.stn", text);
  std::string err;
  auto f = stc::read_source(path, err);
  ASSERT_TRUE(f) << err;
  EXPECT_EQ(f->path(), path);
  EXPECT_EQ(f->text(), text);
  EXPECT_EQ(f->line_text(2), "param int N = 3;");
  EXPECT_EQ(f->line_text(3), "");
}

TEST_F(CompilerReadSource, MissingFile) {
  std::string err;
  const std::string path = dir_ + "/nope.stn";
  EXPECT_FALSE(stc::read_source(path, err));
  EXPECT_NE(err.find("cannot open '" + path + "'"), std::string::npos) << err;
  EXPECT_NE(err.find("No such file"), std::string::npos) << err;
}

TEST_F(CompilerReadSource, Directory) {
  std::string err;
  EXPECT_FALSE(stc::read_source(dir_, err));
  EXPECT_NE(err.find("is a directory"), std::string::npos) << err;
}

TEST_F(CompilerReadSource, EmptyFile) {
  std::string err;
  EXPECT_FALSE(stc::read_source(write("empty.stn", ""), err));
  EXPECT_NE(err.find("is empty"), std::string::npos) << err;
}

TEST_F(CompilerReadSource, WhitespaceOnlyFile) {
  std::string err;
  EXPECT_FALSE(stc::read_source(write("ws.stn", " \n\t\r\n  \f\v\n"), err));
  EXPECT_NE(err.find("is empty"), std::string::npos) << err;
}

TEST_F(CompilerReadSource, NulByteIsBinary) {
  std::string err;
  EXPECT_FALSE(stc::read_source(write("nul.stn", std::string("stenc\0il s;\n", 12)), err));
  EXPECT_NE(err.find("not a text file"), std::string::npos) << err;
  EXPECT_NE(err.find("byte 5"), std::string::npos) << err;
}

TEST_F(CompilerReadSource, ControlByteIsBinary) {
  std::string err;
  EXPECT_FALSE(stc::read_source(write("ctl.stn", "stencil s;\x01\n"), err));
  EXPECT_NE(err.find("byte 10"), std::string::npos) << err;
}

TEST_F(CompilerReadSource, InvalidUtf8IsBinary) {
  std::string err;
  // A lone continuation byte.
  EXPECT_FALSE(stc::read_source(write("a.stn", "stencil s; // \x80\n"), err));
  EXPECT_NE(err.find("not a text file (byte 14"), std::string::npos) << err;
  // A lead byte whose continuation is missing.
  err.clear();
  EXPECT_FALSE(stc::read_source(write("b.stn", "stencil s; // \xC3(\n"), err));
  EXPECT_NE(err.find("not a text file"), std::string::npos) << err;
  // Truncated at the end of the file.
  err.clear();
  EXPECT_FALSE(stc::read_source(write("c.stn", "stencil s; // \xE2\x82"), err));
  EXPECT_NE(err.find("not a text file"), std::string::npos) << err;
  // 0xFF never appears in UTF-8.
  err.clear();
  EXPECT_FALSE(stc::read_source(write("d.stn", "stencil s; // \xFF\n"), err));
  EXPECT_NE(err.find("not a text file"), std::string::npos) << err;
}

// Overlong encodings (here '/' as C0 AF) are invalid UTF-8 (RFC 3629, section 3).
TEST_F(CompilerReadSource, OverlongUtf8IsBinary) {
  std::string err;
  EXPECT_FALSE(stc::read_source(write("o.stn", "stencil s; // \xC0\xAF\n"), err));
  EXPECT_NE(err.find("not a text file"), std::string::npos) << err;
}

TEST_F(CompilerReadSource, ValidUtf8InACommentIsAccepted) {
  const std::string text = "// Température → ∇²u, 𝜕t\nstencil s; /* ñ */\nrun steps { }\n";
  std::string err;
  auto f = stc::read_source(write("utf8.stn", text), err);
  ASSERT_TRUE(f) << err;
  EXPECT_EQ(f->text(), text);
  DiagEngine diags(&*f);
  auto prog = stc::parse(*f, diags);
  ASSERT_TRUE(prog) << diags.render();
  EXPECT_EQ(prog->name, "s");
  expect_loc(prog->name_loc, 2, 9);
}

TEST_F(CompilerReadSource, CrlfLineEndings) {
  std::string err;
  auto f = stc::read_source(write("crlf.stn", "stencil s;\r\nparam int N = 1;\r\n"), err);
  ASSERT_TRUE(f) << err;
  EXPECT_EQ(f->line_text(1), "stencil s;");
  DiagEngine diags(&*f);
  auto prog = stc::parse(*f, diags);
  ASSERT_TRUE(prog) << diags.render();
  expect_loc(prog->params[0].loc, 2, 11);
}

} // namespace
