#include "ir/eval.h"

#include <limits>

namespace stc::ir {

Scalar Scalar::of(Type t, double v) {
  switch (t) {
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

Scalar arith(Op op, Type t, Scalar a, Scalar b) {
  if (t == Type::Int) {
    const auto ua = static_cast<std::uint64_t>(a.i), ub = static_cast<std::uint64_t>(b.i);
    switch (op) {
    case Op::Add: return Scalar::of_int(wrap(ua + ub));
    case Op::Sub: return Scalar::of_int(wrap(ua - ub));
    case Op::Mul: return Scalar::of_int(wrap(ua * ub));
    case Op::Div:
      if (b.i == 0)
        throw EvalError("integer division by zero");
      if (a.i == std::numeric_limits<std::int64_t>::min() && b.i == -1)
        throw EvalError("integer division overflows");
      return Scalar::of_int(a.i / b.i);
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
    default: break;
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
  case Op::GridRead:
    if (!env.read)
      internal_error("eval: grid read outside a kernel");
    return env.read(e.id, e.offset);
  case Op::Cast: return convert(e.a->type, e.type, eval(*e.a, env));
  case Op::Neg: {
    Scalar v = eval(*e.a, env);
    if (e.type == Type::Int)
      return Scalar::of_int(wrap(0 - static_cast<std::uint64_t>(v.i)));
    return e.type == Type::Float ? Scalar{0, static_cast<double>(-static_cast<float>(v.d))}
                                 : Scalar{0, -v.d};
  }
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Div: return arith(e.op, e.type, eval(*e.a, env), eval(*e.b, env));
  }
  internal_error("eval: unknown op");
}

} // namespace stc::ir
