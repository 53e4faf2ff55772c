#include "ir/eval.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stc::ir {

Scalar Scalar::of(Type t, double v) {
  switch (t) {
  case Type::Bool: return of_int(v != 0);
  case Type::Int: return of_int(static_cast<std::int64_t>(v));
  case Type::Float: return {0, static_cast<double>(static_cast<float>(v))};
  case Type::Double: return {0, v};
  }
  return {};
}

namespace {

Scalar convert(Type from, Type to, Scalar v) {
  if (from == to)
    return v;
  if (to == Type::Int) {
    const double d = v.d;
    // Out-of-range float-to-int is undefined in C++; define it here as an error.
    if (!(d > -9.2e18 && d < 9.2e18))
      throw EvalError("conversion of " + std::to_string(d) + " to int overflows");
    return Scalar::of_int(static_cast<std::int64_t>(d));
  }
  if (from == Type::Int)
    return Scalar::of(to, static_cast<double>(v.i));
  return Scalar::of(to, v.d);
}

std::int64_t wrap(std::uint64_t v) { return static_cast<std::int64_t>(v); }

// Comparison of two values of numeric type t; NaN compares false like in C++.
bool compare(Op op, Type t, Scalar a, Scalar b) {
  if (t == Type::Int) {
    switch (op) {
    case Op::Lt: return a.i < b.i;
    case Op::Le: return a.i <= b.i;
    case Op::Gt: return a.i > b.i;
    case Op::Ge: return a.i >= b.i;
    case Op::Eq: return a.i == b.i;
    default: return a.i != b.i;
    }
  }
  switch (op) {
  case Op::Lt: return a.d < b.d;
  case Op::Le: return a.d <= b.d;
  case Op::Gt: return a.d > b.d;
  case Op::Ge: return a.d >= b.d;
  case Op::Eq: return a.d == b.d;
  default: return a.d != b.d;
  }
}

Scalar arith(Op op, Type t, Scalar a, Scalar b) {
  if (t == Type::Int) {
    const auto ua = static_cast<std::uint64_t>(a.i), ub = static_cast<std::uint64_t>(b.i);
    switch (op) {
    case Op::Add: return Scalar::of_int(wrap(ua + ub));
    case Op::Sub: return Scalar::of_int(wrap(ua - ub));
    case Op::Mul: return Scalar::of_int(wrap(ua * ub));
    case Op::Div:
    case Op::Mod:
      if (b.i == 0)
        throw EvalError("integer division by zero");
      if (a.i == std::numeric_limits<std::int64_t>::min() && b.i == -1)
        throw EvalError("integer division overflows");
      return Scalar::of_int(op == Op::Div ? a.i / b.i : a.i % b.i);
    default: break;
    }
  } else if (t == Type::Float) {
    const float x = static_cast<float>(a.d), y = static_cast<float>(b.d);
    float r = 0;
    switch (op) {
    case Op::Add: r = x + y; break;
    case Op::Sub: r = x - y; break;
    case Op::Mul: r = x * y; break;
    case Op::Div: r = x / y; break;
    default: internal_error("eval: bad float op");
    }
    return {0, static_cast<double>(r)};
  } else {
    switch (op) {
    case Op::Add: return {0, a.d + b.d};
    case Op::Sub: return {0, a.d - b.d};
    case Op::Mul: return {0, a.d * b.d};
    case Op::Div: return {0, a.d / b.d};
    default: break;
    }
  }
  internal_error("eval: bad arithmetic op");
}

// The same functions the generated C++ calls: std:: overloads for float and double.
template <typename T> T call_fn(Fn fn, T x, T y) {
  switch (fn) {
  case Fn::Sqrt: return std::sqrt(x);
  case Fn::Exp: return std::exp(x);
  case Fn::Log: return std::log(x);
  case Fn::Sin: return std::sin(x);
  case Fn::Cos: return std::cos(x);
  case Fn::Tan: return std::tan(x);
  case Fn::Abs: return std::fabs(x);
  case Fn::Min: return std::min(x, y);
  case Fn::Max: return std::max(x, y);
  case Fn::Pow: return std::pow(x, y);
  case Fn::Floor: return std::floor(x);
  }
  return x;
}

Scalar call(const Expr &e, Scalar a, Scalar b) {
  switch (e.type) {
  case Type::Int:
    switch (e.fn) {
    case Fn::Abs: return Scalar::of_int(a.i < 0 ? wrap(0 - static_cast<std::uint64_t>(a.i)) : a.i);
    case Fn::Min: return Scalar::of_int(std::min(a.i, b.i));
    case Fn::Max: return Scalar::of_int(std::max(a.i, b.i));
    default: internal_error("eval: int math function");
    }
  case Type::Float:
    return {0, static_cast<double>(
                   call_fn<float>(e.fn, static_cast<float>(a.d), static_cast<float>(b.d)))};
  case Type::Double: return {0, call_fn<double>(e.fn, a.d, b.d)};
  case Type::Bool: break;
  }
  internal_error("eval: bad call");
}

} // namespace

Scalar eval(const Expr &e, const Env &env) {
  switch (e.op) {
  case Op::IntConst: return Scalar::of_int(e.ival);
  case Op::FloatConst: return {0, e.fval};
  case Op::Param:
    if (!env.params || e.id >= static_cast<int>(env.params->size()))
      internal_error("eval: param without a value");
    return (*env.params)[e.id];
  case Op::Index:
    if (!env.point)
      internal_error("eval: index outside a kernel");
    return Scalar::of_int(env.point[e.id]);
  case Op::Local:
    if (!env.locals)
      internal_error("eval: local outside a kernel");
    return env.locals[e.id];
  case Op::Reduction:
  case Op::ReductionFirst: {
    const auto *v = e.op == Op::Reduction ? env.reductions : env.reductions_first;
    if (!v || e.id >= static_cast<int>(v->size()))
      internal_error("eval: reduction without a value");
    return {0, (*v)[e.id]};
  }
  case Op::GridRead:
    if (!env.read)
      internal_error("eval: grid read outside a kernel");
    {
      std::array<std::int64_t, kMaxRank> cell{};
      for (int d = 0; d < kMaxRank; ++d)
        cell[d] = e.at[d] ? eval(*e.at[d], env).i
                  : e.absolute_in(d) || e.axis[d] < 0
                      ? e.offset[d]
                      : (env.point ? env.point[e.axis[d]] : 0) + e.offset[d];
      return env.read(e.id, cell);
    }
  case Op::Cast: return convert(e.a->type, e.type, eval(*e.a, env));
  case Op::Neg: {
    Scalar v = eval(*e.a, env);
    if (e.type == Type::Int)
      return Scalar::of_int(wrap(0 - static_cast<std::uint64_t>(v.i)));
    return e.type == Type::Float ? Scalar{0, static_cast<double>(-static_cast<float>(v.d))}
                                 : Scalar{0, -v.d};
  }
  case Op::Not: return Scalar::of_int(!eval(*e.a, env).i);
  case Op::Call: return call(e, eval(*e.a, env), e.b ? eval(*e.b, env) : Scalar{});
  case Op::And: return Scalar::of_int(eval(*e.a, env).i && eval(*e.b, env).i);
  case Op::Or: return Scalar::of_int(eval(*e.a, env).i || eval(*e.b, env).i);
  case Op::Select: return eval(*e.a, env).i ? eval(*e.b, env) : eval(*e.c, env);
  case Op::Lt:
  case Op::Le:
  case Op::Gt:
  case Op::Ge:
  case Op::Eq:
  case Op::Ne: return Scalar::of_int(compare(e.op, e.a->type, eval(*e.a, env), eval(*e.b, env)));
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Div:
  case Op::Mod: return arith(e.op, e.type, eval(*e.a, env), eval(*e.b, env));
  }
  internal_error("eval: unknown op");
}

} // namespace stc::ir
