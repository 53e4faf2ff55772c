// Unit tests of the shared C-like expression emitter (codegen/c_emitter.*): the printed text
// must keep the IR tree exactly (parentheses), and print literals and casts as C++.
#include "codegen/c_emitter.h"

#include <gtest/gtest.h>

#include <optional>
#include <regex>
#include <string>

#include <fmt/format.h>

#include "codegen/codegen.h"
#include "frontend/parse.h"
#include "sema/check.h"

namespace {

namespace ir = stc::ir;
using ir::Expr;
using ir::ExprPtr;
using ir::Op;
using ir::Type;

// Exposes the protected parts and prints grid reads readably.
class TestEmitter : public stc::CEmitter {
public:
  using CEmitter::CEmitter;
  using CEmitter::literal;

protected:
  std::string grid_read(const ir::Expr &e) const override {
    const auto &g = prog_.grids[e.id];
    std::string s = g.name + "(";
    for (int d = 0; d < g.rank; ++d)
      s += fmt::format("{}{}", d ? "," : "", e.offset[d]);
    return s + ")";
  }
};

// Params a, b, c (double), f (float), n, m (int); grid u (double, rank 2).
ir::Program make_program() {
  ir::Program p;
  p.name = "t";
  auto add = [&](const char *name, Type t) { p.params.push_back({{}, name, t, nullptr}); };
  add("a", Type::Double);
  add("b", Type::Double);
  add("c", Type::Double);
  add("f", Type::Float);
  add("n", Type::Int);
  add("m", Type::Int);
  ir::Grid g;
  g.name = "u";
  g.type = Type::Double;
  g.rank = 2;
  p.grids.push_back(g);
  return p;
}

class CompilerEmitter : public ::testing::Test {
protected:
  CompilerEmitter() : prog_(make_program()), em_(prog_) {}

  ExprPtr a() const { return Expr::param({}, Type::Double, 0); }
  ExprPtr b() const { return Expr::param({}, Type::Double, 1); }
  ExprPtr c() const { return Expr::param({}, Type::Double, 2); }
  ExprPtr f() const { return Expr::param({}, Type::Float, 3); }
  ExprPtr n() const { return Expr::param({}, Type::Int, 4); }
  ExprPtr m() const { return Expr::param({}, Type::Int, 5); }
  static ExprPtr bin(Op op, ExprPtr x, ExprPtr y) { return Expr::binary(op, {}, x, y); }
  static ExprPtr neg(ExprPtr x) { return Expr::unary(Op::Neg, {}, x); }
  static ExprPtr dbl(double v, const std::string &s) {
    return Expr::float_const({}, Type::Double, v, s);
  }
  static ExprPtr flt(double v, const std::string &s) {
    return Expr::float_const({}, Type::Float, v, s);
  }
  static ExprPtr i(std::int64_t v) { return Expr::int_const({}, v); }
  std::string print(const ExprPtr &e) const { return em_.expr(e); }

  ir::Program prog_;
  TestEmitter em_;
};

// ---------------------------------------------------------------- parenthesisation

TEST_F(CompilerEmitter, LeftAssociativeChainsNeedNoParentheses) {
  EXPECT_EQ(print(bin(Op::Sub, bin(Op::Sub, a(), b()), c())), "a - b - c");
  EXPECT_EQ(print(bin(Op::Div, bin(Op::Div, a(), b()), c())), "a / b / c");
  EXPECT_EQ(print(bin(Op::Add, bin(Op::Sub, a(), b()), c())), "a - b + c");
  EXPECT_EQ(print(bin(Op::Div, bin(Op::Mul, a(), b()), c())), "a * b / c");
}

TEST_F(CompilerEmitter, RightNestedOperationsKeepTheirParentheses) {
  EXPECT_EQ(print(bin(Op::Sub, a(), bin(Op::Sub, b(), c()))), "a - (b - c)");
  EXPECT_EQ(print(bin(Op::Div, a(), bin(Op::Div, b(), c()))), "a / (b / c)");
  // Also for + and *: floating-point addition is not associative.
  EXPECT_EQ(print(bin(Op::Add, a(), bin(Op::Add, b(), c()))), "a + (b + c)");
  EXPECT_EQ(print(bin(Op::Mul, a(), bin(Op::Mul, b(), c()))), "a * (b * c)");
  EXPECT_EQ(print(bin(Op::Sub, a(), bin(Op::Add, b(), c()))), "a - (b + c)");
  EXPECT_EQ(print(bin(Op::Mul, a(), bin(Op::Div, b(), c()))), "a * (b / c)");
}

TEST_F(CompilerEmitter, PrecedenceDecidesParentheses) {
  EXPECT_EQ(print(bin(Op::Mul, bin(Op::Add, a(), b()), c())), "(a + b) * c");
  EXPECT_EQ(print(bin(Op::Mul, a(), bin(Op::Add, b(), c()))), "a * (b + c)");
  EXPECT_EQ(print(bin(Op::Add, a(), bin(Op::Mul, b(), c()))), "a + b * c");
  EXPECT_EQ(print(bin(Op::Add, bin(Op::Mul, a(), b()), c())), "a * b + c");
  EXPECT_EQ(print(bin(Op::Div, bin(Op::Sub, a(), b()), bin(Op::Add, b(), c()))),
            "(a - b) / (b + c)");
}

TEST_F(CompilerEmitter, Negation) {
  EXPECT_EQ(print(neg(bin(Op::Mul, a(), b()))), "-(a * b)");
  EXPECT_EQ(print(neg(bin(Op::Add, a(), b()))), "-(a + b)");
  EXPECT_EQ(print(bin(Op::Mul, neg(a()), b())), "-a * b");
  EXPECT_EQ(print(bin(Op::Mul, a(), neg(b()))), "a * -b");
  EXPECT_EQ(print(bin(Op::Sub, a(), neg(b()))), "a - -b");
  // Never "--a", which C++ reads as a decrement.
  EXPECT_EQ(print(neg(neg(a()))), "-(-a)");
  EXPECT_EQ(print(neg(i(-3))), "-INT64_C(-3)");
  EXPECT_EQ(print(neg(dbl(0.5, "0.5"))), "-0.5");
}

TEST_F(CompilerEmitter, NegativeIntConstantOperandIsParenthesised) {
  EXPECT_EQ(print(bin(Op::Sub, n(), i(-2))), "n - INT64_C(-2)");
  EXPECT_EQ(print(bin(Op::Mul, i(-2), n())), "INT64_C(-2) * n");
  EXPECT_EQ(print(i(-2)), "-2");
}

// ---------------------------------------------------------------- literals

TEST_F(CompilerEmitter, FloatLiteralsGetAnFSuffixDoublesDoNot) {
  EXPECT_EQ(em_.literal(*flt(0.5, "0.5")), "0.5f");
  EXPECT_EQ(em_.literal(*dbl(0.5, "0.5")), "0.5");
  EXPECT_EQ(em_.literal(*flt(1e-3, "1e-3")), "1e-3f");
  EXPECT_EQ(em_.literal(*dbl(2.5e10, "2.5E10")), "2.5E10");
  EXPECT_EQ(em_.literal(*flt(0.5, ".5")), ".5f");
  EXPECT_EQ(em_.literal(*dbl(3.0, "3.")), "3.");
}

TEST_F(CompilerEmitter, IntegerValuedFloatingLiteralGetsAPoint) {
  EXPECT_EQ(em_.literal(*dbl(2.0, "2")), "2.0");
  EXPECT_EQ(em_.literal(*flt(2.0, "2")), "2.0f");
  EXPECT_EQ(print(bin(Op::Mul, dbl(2.0, "2"), a())), "2.0 * a");
}

TEST_F(CompilerEmitter, IntLiterals) {
  EXPECT_EQ(em_.literal(*i(7)), "7");
  EXPECT_EQ(em_.literal(*i(0)), "0");
  EXPECT_EQ(em_.literal(*i(2147483647)), "2147483647");
  EXPECT_EQ(em_.literal(*i(3000000000LL)), "std::int64_t{3000000000}");
}

// Int expressions are 64-bit (ir::cxx_type_name(Int) is std::int64_t, and the interpreter
// computes 65536 * 65536 = 4294967296). Printed as "65536 * 65536" C++ multiplies two ints,
// which overflows; the generated code must compute in 64 bits too.
TEST_F(CompilerEmitter, IntLiteralArithmeticIsPrintedIn64Bits) {
  const std::string s = print(bin(Op::Mul, i(65536), i(65536)));
  EXPECT_TRUE(std::regex_search(s, std::regex("INT64_C\\(65536\\) \\* INT64_C\\(65536\\)"))) << s;
}

// ---------------------------------------------------------------- casts and atoms

TEST_F(CompilerEmitter, CastsPrintAsStaticCast) {
  EXPECT_EQ(print(Expr::cast(Type::Double, n())), "static_cast<double>(n)");
  EXPECT_EQ(print(Expr::cast(Type::Float, a())), "static_cast<float>(a)");
  EXPECT_EQ(print(Expr::cast(Type::Int, a())), "static_cast<std::int64_t>(a)");
  EXPECT_EQ(print(Expr::cast(Type::Double, bin(Op::Add, n(), m()))),
            "static_cast<double>(n + m)");
  EXPECT_EQ(print(bin(Op::Mul, Expr::cast(Type::Double, n()), a())),
            "static_cast<double>(n) * a");
  EXPECT_EQ(print(neg(Expr::cast(Type::Double, f()))), "-static_cast<double>(f)");
  // A cast to the same type is no node at all.
  EXPECT_EQ(print(Expr::cast(Type::Double, a())), "a");
}

TEST_F(CompilerEmitter, AtomsGoThroughTheOverridableHooks) {
  EXPECT_EQ(print(Expr::index({}, 1)), "i1");
  EXPECT_EQ(print(Expr::grid_read({}, Type::Double, 0, {-1, 2, 0, 0})), "u(-1,2)");
  EXPECT_EQ(print(bin(Op::Sub, a(), bin(Op::Sub, Expr::grid_read({}, Type::Double, 0, {}), b()))),
            "a - (u(0,0) - b)");
}

// ---------------------------------------------------------------- language v2 operators

TEST_F(CompilerEmitter, LogicalOperatorsAndComparisons) {
  auto lt = [](ExprPtr x, ExprPtr y) { return bin(Op::Lt, x, y); };
  // && inside || is parenthesised (what -Wparentheses asks for); || inside && must be.
  EXPECT_EQ(print(bin(Op::Or, bin(Op::And, lt(a(), b()), lt(b(), c())), lt(a(), c()))),
            "(a < b && b < c) || a < c");
  EXPECT_EQ(print(bin(Op::And, bin(Op::Or, lt(a(), b()), lt(b(), c())), lt(a(), c()))),
            "(a < b || b < c) && a < c");
  EXPECT_EQ(print(bin(Op::Or, lt(a(), b()), bin(Op::Or, lt(b(), c()), lt(a(), c())))),
            "a < b || (b < c || a < c)");
  // Arithmetic inside comparisons needs no parentheses.
  EXPECT_EQ(print(bin(Op::Eq, bin(Op::Add, n(), m()), n())), "n + m == n");
  EXPECT_EQ(print(bin(Op::Ge, a(), bin(Op::Mul, b(), c()))), "a >= b * c");
  EXPECT_EQ(print(bin(Op::Ne, n(), m())), "n != m");
  EXPECT_EQ(print(bin(Op::Le, f(), f())), "f <= f");
  EXPECT_EQ(print(bin(Op::Gt, a(), b())), "a > b");
}

TEST_F(CompilerEmitter, Not) {
  auto lt = bin(Op::Lt, a(), b());
  EXPECT_EQ(print(Expr::unary(Op::Not, {}, lt)), "!(a < b)");
  EXPECT_EQ(print(Expr::unary(Op::Not, {}, Expr::unary(Op::Not, {}, lt))), "!(!(a < b))");
  EXPECT_EQ(print(bin(Op::And, Expr::unary(Op::Not, {}, lt), lt)), "!(a < b) && a < b");
}

TEST_F(CompilerEmitter, SelectIsAlwaysParenthesised) {
  auto lt = [](ExprPtr x, ExprPtr y) { return bin(Op::Lt, x, y); };
  EXPECT_EQ(print(Expr::select({}, lt(a(), b()), a(), b())), "(a < b ? a : b)");
  EXPECT_EQ(print(Expr::select({}, lt(a(), b()), Expr::select({}, lt(b(), c()), a(), b()), c())),
            "(a < b ? (b < c ? a : b) : c)");
  EXPECT_EQ(print(bin(Op::Add, Expr::select({}, lt(a(), b()), a(), b()), c())),
            "(a < b ? a : b) + c");
  EXPECT_EQ(print(Expr::select({}, bin(Op::And, lt(a(), b()), lt(b(), c())), a(), b())),
            "((a < b && b < c) ? a : b)");
}

TEST_F(CompilerEmitter, IntRemainder) {
  EXPECT_EQ(print(bin(Op::Mod, n(), m())), "n % m");
  EXPECT_EQ(print(bin(Op::Mul, bin(Op::Mod, n(), m()), n())), "n % m * n");
  EXPECT_EQ(print(bin(Op::Mod, n(), bin(Op::Mul, m(), n()))), "n % (m * n)");
  EXPECT_EQ(print(bin(Op::Add, n(), bin(Op::Mod, m(), i(3)))), "n + m % INT64_C(3)");
  EXPECT_EQ(print(neg(bin(Op::Mod, n(), m()))), "-(n % m)");
}

TEST_F(CompilerEmitter, MathCallsUseStdOverloads) {
  EXPECT_EQ(print(Expr::call({}, ir::Fn::Sqrt, Type::Double, a())), "std::sqrt(a)");
  EXPECT_EQ(print(Expr::call({}, ir::Fn::Abs, Type::Float, f())), "std::fabs(f)");
  EXPECT_EQ(print(Expr::call({}, ir::Fn::Abs, Type::Int, n())), "std::abs(n)");
  // The type spelled: the GPU CPU layer's checked proxies cannot be deduced.
  EXPECT_EQ(print(Expr::call({}, ir::Fn::Min, Type::Int, n(), i(2))),
            "std::min<std::int64_t>(n, INT64_C(2))");
  EXPECT_EQ(print(Expr::call({}, ir::Fn::Pow, Type::Double, bin(Op::Add, a(), b()), c())),
            "std::pow(a + b, c)");
  EXPECT_EQ(print(bin(Op::Mul, Expr::call({}, ir::Fn::Floor, Type::Double, a()), b())),
            "std::floor(a) * b");
}

TEST(CompilerEmitterBase, DefaultHooks) {
  ir::Program p = make_program();
  stc::CEmitter em(p);
  EXPECT_EQ(em.expr(Expr::grid_read({}, Type::Double, 0, {})), "u[?]");
  EXPECT_EQ(em.expr(Expr::param({}, Type::Double, 2)), "c");
  EXPECT_EQ(em.expr(Expr::index({}, 0)), "i0");
}

// Targets print a checked call only where an operation can fail (ir::may_fail).
class CheckingEmitter : public stc::CEmitter {
public:
  using CEmitter::CEmitter;

protected:
  std::string int_divmod(const char *op, const std::string &a,
                         const std::string &b) const override {
    return fmt::format("checked({} {} {})", a, op, b);
  }
  std::string int_cast(const std::string &a) const override { return "to_int(" + a + ")"; }
};

TEST(CompilerEmitterBase, OnlyOperationsThatMayFailAreChecked) {
  ir::Program p = make_program();
  CheckingEmitter em(p);
  const ExprPtr n = Expr::param({}, Type::Int, 4), m = Expr::param({}, Type::Int, 5);
  auto i = [](std::int64_t v) { return Expr::int_const({}, v); };
  auto neg = [](ExprPtr x) { return Expr::unary(Op::Neg, {}, x); };
  auto bin = [](Op op, ExprPtr x, ExprPtr y) { return Expr::binary(op, {}, x, y); };
  // A divisor that may be 0, or -1 (INT64_MIN / -1 overflows), keeps its check.
  EXPECT_EQ(em.expr(bin(Op::Mod, n, m)), "checked(n % m)");
  EXPECT_EQ(em.expr(bin(Op::Div, n, i(0))), "checked(n / INT64_C(0))");
  EXPECT_EQ(em.expr(bin(Op::Div, n, neg(i(1)))), "checked(n / -INT64_C(1))");
  EXPECT_EQ(em.expr(bin(Op::Div, n, bin(Op::Add, i(1), i(1)))), "checked(n / INT64_C(1) + INT64_C(1))");
  // Any other constant divisor cannot fail.
  EXPECT_EQ(em.expr(bin(Op::Mod, n, i(2))), "n % INT64_C(2)");
  EXPECT_EQ(em.expr(bin(Op::Div, n, neg(i(3)))), "n / -INT64_C(3)");
  EXPECT_EQ(em.expr(bin(Op::Div, n, i(1))), "n / INT64_C(1)");
  // int() of a floating value can always fail (NaN, infinities, beyond 64 bits).
  EXPECT_EQ(em.expr(Expr::cast(Type::Int, Expr::param({}, Type::Double, 0))), "to_int(a)");
  EXPECT_TRUE(ir::may_fail(*Expr::cast(Type::Int, Expr::param({}, Type::Double, 0))));
  EXPECT_FALSE(ir::may_fail(*bin(Op::Mod, n, i(2))));
  EXPECT_TRUE(ir::may_fail(*bin(Op::Mod, n, neg(i(1)))));
  EXPECT_FALSE(ir::may_fail(*Expr::binary(Op::Div, {}, Expr::param({}, Type::Double, 0),
                                          Expr::param({}, Type::Double, 1))));
  // any_may_fail: anywhere in an expression, or in statements (nested ones, conditions).
  const ExprPtr fails = bin(Op::Add, i(1), bin(Op::Mod, n, m)), safe = bin(Op::Mod, n, i(2));
  EXPECT_TRUE(ir::any_may_fail(fails));
  EXPECT_FALSE(ir::any_may_fail(safe));
  EXPECT_FALSE(ir::any_may_fail(ExprPtr()));
  using ir::Stmt;
  Stmt let{Stmt::Kind::Let, {}, -1, 0, safe, {}, {}};
  Stmt cond{Stmt::Kind::If, {}, -1, -1, safe, {let}, {}};
  EXPECT_FALSE(ir::any_may_fail(std::vector<Stmt>{let, cond}));
  cond.else_body.push_back(Stmt{Stmt::Kind::Let, {}, -1, 0, fails, {}, {}});
  EXPECT_TRUE(ir::any_may_fail(std::vector<Stmt>{let, cond}));
  cond.else_body.clear();
  cond.value = fails; // the condition
  EXPECT_TRUE(ir::any_may_fail(std::vector<Stmt>{cond}));
}

TEST(CompilerEmitterBase, CxxString) {
  EXPECT_EQ(stc::cxx_string("plain"), "\"plain\"");
  EXPECT_EQ(stc::cxx_string("a \"q\" \\ b\nc"), "\"a \\\"q\\\" \\\\ b\\nc\"");
}

// ---------------------------------------------------------------- from source

// The checked program of `text`, or a test failure with its diagnostics.
std::optional<ir::Program> checked(const std::string &text) {
  stc::SourceFile file("t.stn", text);
  stc::DiagEngine diags(&file);
  auto ast = stc::parse(file, diags);
  auto prog = ast ? stc::check(*ast, diags) : std::nullopt;
  if (!prog)
    ADD_FAILURE() << diags.render();
  return prog;
}

// Parses and checks a one-kernel program over float grids u, v; returns the printed value.
std::string emit_from_source(const std::string &value) {
  auto prog = checked("stencil s;\n"
                      "param float c0 = 0.4, c1 = 0.1;\n"
                      "param int N = 8;\n"
                      "grid float u[N];\n"
                      "grid float v like u;\n"
                      "kernel k(x) { v[x] = " + value + "; }\n"
                      "run steps { k; }\n");
  return prog ? TestEmitter(*prog).expr(prog->kernels[0].body[0].value) : "";
}

TEST(CompilerEmitterSource, RoundTripKeepsTheWrittenTree) {
  EXPECT_EQ(emit_from_source("c0*u[x] + c1*(u[x-1] + u[x+1])"),
            "c0 * u(0) + c1 * (u(-1) + u(1))");
  EXPECT_EQ(emit_from_source("u[x-1] - (u[x] - u[x+1])"), "u(-1) - (u(0) - u(1))");
  EXPECT_EQ(emit_from_source("u[x-1] - u[x] - u[x+1]"), "u(-1) - u(0) - u(1)");
  EXPECT_EQ(emit_from_source("u[x] / (c0 / c1)"), "u(0) / (c0 / c1)");
  EXPECT_EQ(emit_from_source("-(c0 * u[x])"), "-(c0 * u(0))");
  EXPECT_EQ(emit_from_source("-c0 * u[x]"), "-c0 * u(0)");
  EXPECT_EQ(emit_from_source("c0 - -u[x]"), "c0 - -u(0)");
  EXPECT_EQ(emit_from_source("((u[x]))"), "u(0)");
}

TEST(CompilerEmitterSource, LiteralsAndCastsFromSource) {
  EXPECT_EQ(emit_from_source("0.5 * u[x]"), "0.5f * u(0)");
  EXPECT_EQ(emit_from_source("2 * u[x]"), "static_cast<float>(2) * u(0)");
  EXPECT_EQ(emit_from_source("u[x] * N"), "u(0) * static_cast<float>(N)");
  EXPECT_EQ(emit_from_source("u[x] + 1e-3"), "u(0) + 1e-3f");
  EXPECT_EQ(emit_from_source("u[x] * 0.5 * 2"),
            "u(0) * 0.5f * static_cast<float>(2)");
  // x is an int index; x * 0.5 is double, converted to the float grid's type at the end.
  EXPECT_EQ(emit_from_source("x * 0.5"), "static_cast<float>(static_cast<double>(i0) * 0.5)");
}

// Why temporal blocking does not apply to a rank-2 step whose kernel assigns `value` to v.
std::string why_not_temporal(const std::string &value) {
  auto prog = checked("stencil s;\n"
                      "param int N = 16, D = 3;\n"
                      "grid float u[N, N];\n"
                      "grid float v like u;\n"
                      "kernel k(x, y) { v[x, y] = u[x, y] + " + value + "; }\n"
                      "run steps { k; swap u, v; }\n");
  return prog ? stc::temporal_unsupported(*prog) : "";
}

TEST(CompilerTemporal, ConstantDivisorsDoNotPreventBlocking) {
  EXPECT_EQ(why_not_temporal("float(x % 2)"), "");
  EXPECT_EQ(why_not_temporal("float(y / 3 + x % -2)"), "");
  const std::string fails = "kernel 'k' has an int() conversion or an integer division by a "
                            "value that may be 0 or -1, which can fail per cell";
  EXPECT_EQ(why_not_temporal("float(x % D)"), fails);
  EXPECT_EQ(why_not_temporal("float(x / 0)"), fails);
  EXPECT_EQ(why_not_temporal("float(x / -1)"), fails);
  EXPECT_EQ(why_not_temporal("float(int(u[x, y]))"), fails);
}

} // namespace
