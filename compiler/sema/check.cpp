#include "sema/check.h"
#include "sema/periodic_reads.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>

#include "stencilc/error.h"

namespace stc {
namespace {

using ir::ExprPtr;
using ir::Op;
using ir::Type;

// Names the generated C++ uses or that are C++ keywords cannot name user entities.
const std::set<std::string> &reserved_names() {
  static const std::set<std::string> names = {
      // C++ keywords and common macros
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
      "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
      "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
      "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
      "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
      "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
      "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
      "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
      "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "main", "std",
      "stencilc", "NULL", "assert", "errno", "INFINITY", "NAN",
      "Stencil", "Params",
      // macros of the headers the generated code includes
      "EOF", "BUFSIZ", "FILENAME_MAX", "FOPEN_MAX", "L_tmpnam", "SEEK_SET", "SEEK_CUR",
      "SEEK_END", "TMP_MAX", "EXIT_SUCCESS", "EXIT_FAILURE", "RAND_MAX", "MB_CUR_MAX",
      "HUGE_VAL", "HUGE_VALF", "FP_NAN", "FP_INFINITE", "FP_ZERO", "FP_NORMAL", "FP_SUBNORMAL",
      "MATH_ERRNO", "CHAR_BIT", "INT_MAX", "INT_MIN", "LONG_MAX", "LONG_MIN", "INT8_MAX",
      "INT16_MAX", "INT32_MAX", "INT64_MAX", "INT8_MIN", "INT16_MIN", "INT32_MIN", "INT64_MIN",
      "UINT8_MAX", "UINT16_MAX", "UINT32_MAX", "UINT64_MAX", "SIZE_MAX", "INT64_C", "UINT64_C",
      "INT32_C", "stdin", "stdout", "stderr", "unknown_grid", "missing_param", "offsetof", "unix", "linux", "i386",
      "DBL_MAX", "FLT_MAX", "DBL_EPSILON", "FLT_EPSILON", "M_PI", "M_E"};
  return names;
}

// Members of the generated class and of its Params: grid accessors and param fields must not
// take these names (kernels, reductions, indices and locals may: they become kernel__NAME
// methods and local variables).
const std::set<std::string> &api_names() {
  static const std::set<std::string> names = {
      "step", "run", "load", "save", "checksum", "params", "name", "target", "plan", "grid_names",
      "init_random", "default_steps", "cell_updates_per_step", "threads", "has_condition",
      "converged", "reductions", "defaults", "from"};
  return names;
}

// The stencil name becomes a namespace at global scope, where the C library's functions and
// types already live.
const std::set<std::string> &global_c_names() {
  static const std::set<std::string> names = {
      "abort", "abs", "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "atexit",
      "atof", "atoi", "atol", "atoll", "bsearch", "calloc", "cbrt", "ceil", "clearerr", "clock",
      "copysign", "cos", "cosh", "difftime", "div", "erf", "erfc", "exit", "exp", "exp2",
      "expm1", "fabs", "fclose", "fdim", "feof", "ferror", "fflush", "fgetc", "fgetpos", "fgets",
      "floor", "fma", "fmax", "fmin", "fmod", "fopen", "fprintf", "fputc", "fputs", "fread",
      "free", "freopen", "frexp", "fscanf", "fseek", "fsetpos", "ftell", "fwrite", "getc",
      "getchar", "getenv", "gets", "gmtime", "hypot", "ilogb", "isalnum", "isalpha", "isdigit",
      "isfinite", "isinf", "isnan", "isspace", "labs", "ldexp", "ldiv", "lgamma", "llabs",
      "llrint", "llround", "localtime", "log", "log10", "log1p", "log2", "logb", "lrint",
      "lround", "malloc", "memchr", "memcmp", "memcpy", "memmove", "memset", "mktime", "modf",
      "nan", "nearbyint", "nextafter", "perror", "pow", "printf", "putc", "putchar", "puts",
      "qsort", "raise", "rand", "realloc", "remainder", "remove", "rename", "rewind", "rint",
      "round", "scalbn", "scanf", "setbuf", "setvbuf", "signal", "sin", "sinh", "snprintf",
      "sprintf", "sqrt", "srand", "sscanf", "strcat", "strchr", "strcmp", "strcpy", "strerror",
      "strlen", "strncat", "strncmp", "strncpy", "strrchr", "strstr", "strtod", "strtof",
      "strtok", "strtol", "strtoll", "strtoul", "system", "tan", "tanh", "tgamma", "time",
      "tmpfile", "tolower", "toupper", "trunc", "ungetc", "vprintf", "size_t", "ptrdiff_t",
      "FILE", "fpos_t", "div_t", "ldiv_t", "time_t", "clock_t", "tm", "int8_t", "int16_t",
      "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "intptr_t",
      "uintptr_t", "max_align_t", "nullptr_t", "posix_memalign", "aligned_alloc", "environ"};
  return names;
}

struct Typed {
  ExprPtr e;
  bool weak = false; // an unsuffixed float literal: it takes the type of a float partner
};

ExprPtr retype(const Typed &t, Type to) {
  if (t.weak && to == Type::Float) {
    if (t.e->op == Op::FloatConst)
      return ir::Expr::float_const(t.e->loc, Type::Float, t.e->fval, t.e->spelling);
    if (t.e->op == Op::Neg)
      return ir::Expr::unary(Op::Neg, t.e->loc, retype({t.e->a, true}, to));
  }
  return ir::Expr::cast(to, t.e);
}

std::string shape_string(const std::vector<std::int64_t> &s) {
  std::string r = "(";
  for (std::size_t i = 0; i < s.size(); ++i)
    r += (i ? ", " : "") + std::to_string(s[i]);
  return r + ")";
}

// A halo wider than this is certainly a mistake (and would cost that many ghost planes).
constexpr std::int64_t kMaxOffset = 1000;

class Checker {
public:
  Checker(const ast::Program &a, DiagEngine &d, const std::vector<std::string> &target_names)
      : ast_(a), diags_(d), target_names_(target_names.begin(), target_names.end()) {}

  std::optional<ir::Program> run() {
    prog_.name = ast_.name;
    declare_name(ast_.name, ast_.name_loc, "stencil", true);
    for (const auto &p : ast_.params)
      check_param(p);
    for (const auto &g : ast_.grids)
      check_grid(g);
    for (const auto &k : ast_.kernels)
      declare_kernel(k);
    for (const auto &r : ast_.reduces)
      declare_reduction(r);
    for (const auto &in : ast_.inits)
      check_init(in);
    for (std::size_t i = 0; i < ast_.kernels.size(); ++i) {
      const ast::Kernel &k = ast_.kernels[i];
      const int before = diags_.error_count();
      check_kernel(k, prog_.kernels[i]);
      // An error in the copy of a kernel with parameters: which call made it.
      if (diags_.error_count() > before && k.call_loc.line > 0)
        diags_.note(k.call_loc,
                    fmt::format("in kernel '{}' as the call {} binds it", k.name, k.call_text));
    }
    for (std::size_t i = 0; i < ast_.reduces.size(); ++i)
      check_reduction(ast_.reduces[i], prog_.reductions[i]);
    check_run();
    check_lower_rank_reads();
    check_literals();
    if (diags_.has_errors())
      return std::nullopt;
    compute_halos();
    return std::move(prog_);
  }

private:
  enum class Kind { Param, Grid, Kernel, Reduction, Stencil };
  struct Sym {
    Kind kind;
    int index;
    SourceLoc loc;
  };

  // Reports a reserved name or a redeclaration; returns false only for a redeclaration, so a
  // reserved name is still declared and its uses raise no further errors.
  bool declare_name(const std::string &name, SourceLoc loc, const char *what, bool stencil = false) {
    const bool member = std::string(what) == "grid" || std::string(what) == "param";
    if (reserved_names().count(name) || target_names_.count(name) ||
        name.find("__") != std::string::npos ||
        name.back() == '_' || (stencil && global_c_names().count(name)) ||
        (member && api_names().count(name))) {
      diags_.error(loc, fmt::format("'{}' is reserved and cannot name a {} (C++ keywords and "
                                    "macros, names of the generated API, '__' and a trailing '_' "
                                    "are reserved{})",
                                    name, what,
                                    stencil ? "; a stencil name may not be a C library name" : ""));
      return !stencil && !syms_.count(name);
    }
    if (stencil)
      return true; // the stencil name is a namespace: it does not clash with members
    auto it = syms_.find(name);
    if (it != syms_.end()) {
      diags_.error(loc, fmt::format("redeclaration of '{}'", name));
      diags_.note(it->second.loc, fmt::format("'{}' was first declared here", name));
      return false;
    }
    return true;
  }

  const Sym *lookup(const std::string &name) const {
    auto it = syms_.find(name);
    return it == syms_.end() ? nullptr : &it->second;
  }

  static const char *kind_name(Kind k) {
    switch (k) {
    case Kind::Param: return "a param";
    case Kind::Grid: return "a grid";
    case Kind::Kernel: return "a kernel";
    case Kind::Reduction: return "a reduction";
    case Kind::Stencil: return "the stencil";
    }
    return "?";
  }

  static Type type_of(ast::TypeName t) {
    // Integer expressions are 64-bit either way; `long` only widens a grid's storage.
    return t == ast::TypeName::Int || t == ast::TypeName::Long ? Type::Int
           : t == ast::TypeName::Float                         ? Type::Float
                                                               : Type::Double;
  }

  // ---- expressions ----

  struct LocalSym {
    std::string name;
    int id;
    Type type;
    bool bad = false;      // its value had errors: uses stay silent
    bool mut = false;      // a var: assignments allowed
    bool loop_var = false; // a for loop's variable (its uses were replaced by its value)
  };

  // Where an expression appears decides which names it may use.
  struct Scope {
    const std::vector<std::string> *indices = nullptr; // index names, dimension order
    std::string owner;                 // "kernel 'k'", ... for messages
    bool grids = false;                // grid reads allowed (kernels, reductions)
    bool reductions = false;           // reduction values allowed (run until)
    int params_visible = 0;            // params [0, n) may be read
    const char *what = "";             // for messages: "a grid extent", ...
    std::string ghost_of;              // a boundary value of this grid: x, y, ... are implicit
    std::vector<LocalSym> *locals = nullptr;
    ir::Kernel *kernel = nullptr;      // where new locals are recorded
  };

  std::optional<Typed> expr(const ast::ExprPtr &e, const Scope &s) {
    using K = ast::Expr::Kind;
    switch (e->kind) {
    case K::Int: {
      std::int64_t v = 0;
      auto [p, ec] = std::from_chars(e->text.data(), e->text.data() + e->text.size(), v);
      if (ec != std::errc() || p != e->text.data() + e->text.size()) {
        diags_.error(e->loc, fmt::format("integer literal {} is too large", e->text));
        return std::nullopt;
      }
      return Typed{ir::Expr::int_const(e->loc, v)};
    }
    case K::Float: {
      const double v = std::strtod(e->text.c_str(), nullptr);
      if (!std::isfinite(v)) {
        diags_.error(e->loc, fmt::format("floating literal {} is out of range", e->text));
        return std::nullopt;
      }
      return Typed{ir::Expr::float_const(e->loc, Type::Double, v, e->text), true};
    }
    case K::Name: return name(e, s);
    case K::Access: {
      if (!s.grids) {
        diags_.error(e->loc, fmt::format("grid '{}' cannot be read in {}; grids are read only "
                                         "inside kernels and reductions",
                                         e->text, s.what));
        return std::nullopt;
      }
      return access(e, s, false);
    }
    case K::Call: return call(e, s);
    case K::Conv: {
      auto a = expr(e->args[0], s);
      if (!a || !numeric(*a, e->args[0], "a conversion"))
        return std::nullopt;
      const Type t = e->text == "int" || e->text == "long" ? Type::Int
                     : e->text == "float"                  ? Type::Float
                                                           : Type::Double;
      return Typed{retype(*a, t)};
    }
    case K::Plus: {
      auto a = expr(e->args[0], s);
      if (!a || !numeric(*a, e->args[0], "unary '+'"))
        return std::nullopt;
      return a;
    }
    case K::Neg: {
      auto a = expr(e->args[0], s);
      if (!a || !numeric(*a, e->args[0], "unary '-'"))
        return std::nullopt;
      return Typed{ir::Expr::unary(Op::Neg, e->loc, a->e), a->weak};
    }
    case K::Not: {
      auto a = expr(e->args[0], s);
      if (!a || !condition(*a, e->args[0], "'!'"))
        return std::nullopt;
      return Typed{ir::Expr::unary(Op::Not, e->loc, a->e)};
    }
    case K::And:
    case K::Or: {
      auto a = expr(e->args[0], s);
      auto b = expr(e->args[1], s);
      const char *op = e->kind == K::And ? "'&&'" : "'||'";
      if (!a || !b || !condition(*a, e->args[0], op) || !condition(*b, e->args[1], op))
        return std::nullopt;
      return Typed{ir::Expr::binary(e->kind == K::And ? Op::And : Op::Or, e->loc, a->e, b->e)};
    }
    case K::Cond: {
      auto c = expr(e->args[0], s);
      auto a = expr(e->args[1], s);
      auto b = expr(e->args[2], s);
      if (!c || !a || !b || !condition(*c, e->args[0], "'?:'"))
        return std::nullopt;
      if (a->e->type == Type::Bool || b->e->type == Type::Bool) {
        if (a->e->type != b->e->type) {
          diags_.error(e->loc, "type mismatch: one branch of '?:' is a condition and the other "
                               "a number");
          return std::nullopt;
        }
        return Typed{ir::Expr::select(e->loc, c->e, a->e, b->e)};
      }
      const Type t = joined(*a, *b);
      return Typed{ir::Expr::select(e->loc, c->e, retype(*a, t), retype(*b, t)),
                   a->weak && b->weak};
    }
    default: break;
    }
    // Binary arithmetic and comparisons.
    auto a = expr(e->args[0], s);
    auto b = expr(e->args[1], s);
    if (!a || !b)
      return std::nullopt;
    const std::string op = "'" + e->text + "'";
    if (!numeric(*a, e->args[0], op.c_str()) || !numeric(*b, e->args[1], op.c_str()))
      return std::nullopt;
    static const std::pair<K, Op> ops[] = {
        {K::Add, Op::Add}, {K::Sub, Op::Sub}, {K::Mul, Op::Mul}, {K::Div, Op::Div},
        {K::Mod, Op::Mod}, {K::Lt, Op::Lt},   {K::Le, Op::Le},   {K::Gt, Op::Gt},
        {K::Ge, Op::Ge},   {K::Eq, Op::Eq},   {K::Ne, Op::Ne}};
    Op irop = Op::Add;
    for (const auto &[k, o] : ops)
      if (k == e->kind)
        irop = o;
    const Type t = joined(*a, *b);
    if (irop == Op::Mod && t != Type::Int) {
      diags_.error(e->loc, fmt::format("'%' needs int operands, not {}; use floor() for "
                                       "floating values",
                                       ir::type_name(t)));
      return std::nullopt;
    }
    const bool weak = a->weak && b->weak && !ir::is_comparison(irop);
    return Typed{ir::Expr::binary(irop, e->loc, retype(*a, t), retype(*b, t)), weak};
  }

  // The type two operands meet in: an unsuffixed float literal takes its partner's floating
  // type (so `0.5 * u` stays float for a float grid u), otherwise the wider type.
  static Type joined(const Typed &a, const Typed &b) {
    if (a.weak && !b.weak)
      return b.e->type == Type::Int ? Type::Double : b.e->type;
    if (b.weak && !a.weak)
      return a.e->type == Type::Int ? Type::Double : a.e->type;
    return ir::join(a.e->type, b.e->type);
  }

  bool numeric(const Typed &t, const ast::ExprPtr &src, const char *where) {
    if (t.e->type != Type::Bool)
      return true;
    diags_.error(start_loc(src), fmt::format("type mismatch: {} needs a number, not a condition",
                                             where));
    return false;
  }
  bool condition(const Typed &t, const ast::ExprPtr &src, const char *where) {
    if (t.e->type == Type::Bool)
      return true;
    diags_.error(start_loc(src), fmt::format("type mismatch: {} needs a condition (a comparison), "
                                             "not {}",
                                             where, ir::type_name(t.e->type)));
    return false;
  }

  std::optional<Typed> call(const ast::ExprPtr &e, const Scope &s) {
    if (e->text == "first") {
      if (!s.reductions) {
        diags_.error(e->loc, "first() can only be used in the condition of 'run until'");
        return std::nullopt;
      }
      const ast::ExprPtr &arg = e->args[0];
      const Sym *sym = arg->kind == ast::Expr::Kind::Name ? lookup(arg->text) : nullptr;
      if (e->args.size() != 1 || !sym || sym->kind != Kind::Reduction) {
        diags_.error(start_loc(arg), "first() takes the name of a reduction, e.g. first(res)");
        return std::nullopt;
      }
      used_reductions_.insert(sym->index);
      return Typed{ir::Expr::reduction(e->loc, sym->index, true)};
    }
    static const std::pair<const char *, ir::Fn> fns[] = {
        {"sqrt", ir::Fn::Sqrt}, {"exp", ir::Fn::Exp}, {"log", ir::Fn::Log},
        {"sin", ir::Fn::Sin},   {"cos", ir::Fn::Cos}, {"tan", ir::Fn::Tan},
        {"abs", ir::Fn::Abs},   {"min", ir::Fn::Min}, {"max", ir::Fn::Max},
        {"pow", ir::Fn::Pow},   {"floor", ir::Fn::Floor}};
    const auto *it = std::find_if(std::begin(fns), std::end(fns),
                                  [&](const auto &f) { return e->text == f.first; });
    if (e->text == "periodic") { // the ones left by periodic_reads.cpp are misused
      diags_.error(e->loc, s.grids ? "periodic() takes one read of a grid, e.g. "
                                     "periodic(u[x-1, y]); the grid wraps around at every face"
                                   : "periodic() reads a grid: only kernels and reductions can");
      return std::nullopt;
    }
    if (it == std::end(fns)) {
      diags_.error(e->loc, fmt::format("unknown function '{}' (functions: sqrt, exp, log, sin, "
                                       "cos, tan, abs, min, max, pow, floor)",
                                       e->text));
      return std::nullopt;
    }
    const ir::Fn fn = it->second;
    const std::size_t want = fn == ir::Fn::Min || fn == ir::Fn::Max || fn == ir::Fn::Pow ? 2 : 1;
    if (e->args.size() != want) {
      diags_.error(e->loc, fmt::format("{}() takes {} argument{}, not {}", e->text, want,
                                       want == 1 ? "" : "s", e->args.size()));
      return std::nullopt;
    }
    std::vector<Typed> args;
    for (const auto &x : e->args) {
      auto t = expr(x, s);
      if (!t || !numeric(*t, x, (e->text + "()").c_str()))
        return std::nullopt;
      args.push_back(*t);
    }
    Type t = args.size() == 2 ? joined(args[0], args[1]) : args[0].e->type;
    if (args.size() == 1 && args[0].weak)
      t = Type::Double;
    // Like C++'s <cmath>: int arguments of the real functions are computed in double.
    if (t == Type::Int && fn != ir::Fn::Abs && fn != ir::Fn::Min && fn != ir::Fn::Max)
      t = Type::Double;
    const bool weak = std::all_of(args.begin(), args.end(), [](const Typed &a) { return a.weak; });
    (void)weak; // a call on literals is computed in double (no weak retyping of calls)
    return Typed{ir::Expr::call(e->loc, fn, t, retype(args[0], t),
                                args.size() == 2 ? retype(args[1], t) : nullptr)};
  }

  std::optional<Typed> name(const ast::ExprPtr &e, const Scope &s) {
    if (s.locals)
      for (auto it = s.locals->rbegin(); it != s.locals->rend(); ++it)
        if (it->name == e->text) {
          if (it->bad) {
            ++silent_failures_;
            return std::nullopt;
          }
          return Typed{ir::Expr::local(e->loc, it->type, it->id)};
        }
    if (s.indices) {
      const auto &idx = *s.indices;
      auto it = std::find(idx.begin(), idx.end(), e->text);
      if (it != idx.end()) {
        // Kernels and inits declare their indices and report a clash there; a boundary value's
        // indices are implicit, so a param of that name would be silently hidden.
        const Sym *sym = s.ghost_of.empty() ? nullptr : lookup(e->text);
        if (sym && sym->kind == Kind::Param) {
          diags_.error(e->loc, fmt::format("'{}' in the boundary value of grid '{}' is the ghost "
                                           "cell's index, not param '{}'; rename the param",
                                           e->text, s.ghost_of, e->text));
          return std::nullopt;
        }
        return Typed{ir::Expr::index(e->loc, static_cast<int>(it - idx.begin()))};
      }
    }
    const Sym *sym = lookup(e->text);
    if (!sym) {
      const bool later = std::any_of(ast_.params.begin(), ast_.params.end(),
                                     [&](const ast::Param &p) { return p.name == e->text; });
      diags_.error(e->loc, later ? fmt::format("param '{}' is used before it is declared", e->text)
                                 : fmt::format("unknown name '{}'", e->text));
      return std::nullopt;
    }
    if (sym->kind == Kind::Param) {
      if (sym->index >= s.params_visible) {
        diags_.error(e->loc, fmt::format("param '{}' is used before it is declared", e->text));
        return std::nullopt;
      }
      const auto &p = prog_.params[sym->index];
      return Typed{ir::Expr::param(e->loc, p.type, sym->index)};
    }
    if (sym->kind == Kind::Reduction) {
      if (!s.reductions) {
        diags_.error(e->loc, fmt::format("reduction '{}' can only be used in the condition of "
                                         "'run until'",
                                         e->text));
        return std::nullopt;
      }
      used_reductions_.insert(sym->index);
      return Typed{ir::Expr::reduction(e->loc, sym->index, false)};
    }
    if (sym->kind == Kind::Grid)
      diags_.error(e->loc, fmt::format("grid '{}' needs subscripts, e.g. '{}[...]'", e->text,
                                       e->text));
    else
      diags_.error(e->loc, fmt::format("'{}' is {}, not a value", e->text, kind_name(sym->kind)));
    return std::nullopt;
  }

  // An integer constant made of literals only (offsets must be known when compiling).
  // Values are capped far above any sensible offset so that folding cannot overflow.
  static constexpr std::int64_t kFoldLimit = 1000000000;
  std::optional<std::int64_t> const_int(const ast::ExprPtr &e) {
    using K = ast::Expr::Kind;
    switch (e->kind) {
    case K::Int: {
      std::int64_t v = 0;
      auto [p, ec] = std::from_chars(e->text.data(), e->text.data() + e->text.size(), v);
      if (ec != std::errc() || v > kFoldLimit)
        return kFoldLimit + 1;
      return v;
    }
    case K::Plus: return const_int(e->args[0]);
    case K::Conv: // int(3): a kernel's int parameter bound to a constant (instantiate.cpp)
      return e->text == "int" || e->text == "long" ? const_int(e->args[0]) : std::nullopt;
    case K::Neg: {
      auto v = const_int(e->args[0]);
      return v ? std::optional<std::int64_t>(-*v) : std::nullopt;
    }
    case K::Add:
    case K::Sub:
    case K::Mul: {
      auto a = const_int(e->args[0]), b = const_int(e->args[1]);
      if (!a || !b)
        return std::nullopt;
      const std::int64_t v = e->kind == K::Add ? *a + *b : e->kind == K::Sub ? *a - *b : *a * *b;
      return std::clamp(v, -kFoldLimit - 1, kFoldLimit + 1);
    }
    default: return std::nullopt;
    }
  }

  // Subscript d of an access must be index d plus or minus constants: `x`, `x + 1`, `1 + x`,
  // and sums of those with more constants, `x + i + 1` once a loop's `i` is a number.
  std::optional<std::int64_t> offset_of(const ast::ExprPtr &e, const std::string &index) {
    using K = ast::Expr::Kind;
    if (e->kind == K::Name && e->text == index)
      return 0;
    if (e->kind == K::Add || e->kind == K::Sub) {
      const auto &l = e->args[0], &r = e->args[1];
      if (auto o = offset_of(l, index)) {
        if (auto c = const_int(r))
          return std::clamp(e->kind == K::Add ? *o + *c : *o - *c, -kFoldLimit - 1,
                            kFoldLimit + 1);
      } else if (e->kind == K::Add) {
        if (auto o = offset_of(r, index))
          if (auto c = const_int(l))
            return std::clamp(*o + *c, -kFoldLimit - 1, kFoldLimit + 1);
      }
    }
    return std::nullopt;
  }

  // Where an expression starts in the source (binary nodes carry their operator's location).
  static SourceLoc start_loc(const ast::ExprPtr &e) {
    using K = ast::Expr::Kind;
    if (e->kind >= K::Add) {
      const SourceLoc l = start_loc(e->args[0]);
      return l.line < e->loc.line || (l.line == e->loc.line && l.col < e->loc.col) ? l : e->loc;
    }
    return e->loc;
  }

  std::optional<Typed> access(const ast::ExprPtr &e, const Scope &s, bool is_target) {
    const Sym *sym = lookup(e->text);
    if (!sym) {
      diags_.error(e->loc, fmt::format("unknown grid '{}'", e->text));
      return std::nullopt;
    }
    if (sym->kind != Kind::Grid) {
      if (is_target && sym->kind == Kind::Param)
        diags_.error(e->loc, fmt::format("cannot assign to param '{}'; params are read-only in "
                                         "kernels, only grids are written",
                                         e->text));
      else
        diags_.error(e->loc, fmt::format("'{}' is {}, not a grid", e->text, kind_name(sym->kind)));
      return std::nullopt;
    }
    const ir::Grid &g = prog_.grids[sym->index];
    if (bad_grids_.count(sym->index)) {
      ++silent_failures_;
      return std::nullopt;
    }
    const int rank = static_cast<int>(s.indices->size());
    if (static_cast<int>(e->args.size()) != g.rank) {
      diags_.error(e->loc, fmt::format("wrong number of subscripts: grid '{}' has rank {} but is "
                                       "indexed with {}",
                                       e->text, g.rank, e->args.size()));
      return std::nullopt;
    }
    if (g.rank < rank && !is_target)
      return lower_rank_access(e, g, sym->index, s);
    if (g.rank != rank) {
      diags_.error(e->loc, fmt::format("grid '{}' has rank {} but {} has rank {}; a kernel or "
                                       "reduction writes grids of its own rank and reads grids "
                                       "of at most its rank",
                                       e->text, g.rank, s.owner, rank));
      return std::nullopt;
    }
    ir::Offsets off{};
    ir::Indices at{};
    unsigned absolute = 0;
    bool ok = true;
    for (int d = 0; d < g.rank; ++d) {
      auto o = offset_of(e->args[d], (*s.indices)[d]);
      if (!o && is_target && (const_int(e->args[d]) || params_only(e->args[d], s))) {
        diags_.error(start_loc(e->args[d]),
                     fmt::format("a kernel writes only the centre point: subscript {} of '{}' "
                                 "must be '{}', not an absolute index",
                                 d + 1, e->text, (*s.indices)[d]));
        ok = false;
        continue;
      }
      if (!o && !is_target) {
        // An integer constant: the same cell in this dimension wherever the point is.
        if (auto c = absolute_index(e->args[d], d, e->text)) {
          ok &= *c >= 0;
          absolute |= 1u << d;
          off[d] = std::max(*c, 0);
          continue;
        }
        // An integer expression of params: the same, known when the program starts.
        if (auto a = param_index(e->args[d], s)) {
          ok &= *a != nullptr;
          absolute |= 1u << d;
          at[d] = *a;
          continue;
        }
      }
      if (o && !offset_fits(*o, e->args[d], d, e->text)) {
        ok = false;
        continue;
      }
      if (!o) {
        diags_.error(start_loc(e->args[d]),
                     fmt::format("subscript {} of '{}' must be '{}' plus or minus an integer "
                                 "constant, or an absolute index (an integer constant or an "
                                 "integer expression of params); offsets must be known when "
                                 "compiling",
                                 d + 1, e->text, (*s.indices)[d]));
        ok = false;
        continue;
      }
      if (is_target && *o != 0) {
        diags_.error(start_loc(e->args[d]),
                     fmt::format("a kernel writes only the centre point: subscript {} of '{}' "
                                 "must be '{}'",
                                 d + 1, e->text, (*s.indices)[d]));
        ok = false;
      }
      off[d] = static_cast<int>(*o);
    }
    if (!ok)
      return std::nullopt;
    return Typed{ir::Expr::grid_read(e->loc, g.type, sym->index, off, absolute, {0, 1, 2, 3}, at)};
  }

  // A subscript that is an integer expression of params and integer constants (`NZ - 1`, a
  // param at least once): an absolute index known when the program starts, checked then. Null
  // if it has a type error (reported), nullopt if it is not such an expression.
  std::optional<ExprPtr> param_index(const ast::ExprPtr &arg, const Scope &s) {
    if (!params_only(arg, s))
      return std::nullopt;
    auto t = expr(arg, s);
    if (!t)
      return ExprPtr{};
    if (t->e->type != Type::Int) {
      diags_.error(start_loc(arg), "an absolute index given by params must be an integer "
                                   "expression (params of type int)");
      return ExprPtr{};
    }
    return t->e;
  }

  // Whether `arg` is an arithmetic expression of params and integer literals naming a param.
  bool params_only(const ast::ExprPtr &arg, const Scope &s) {
    bool named = false;
    std::function<bool(const ast::ExprPtr &)> only = [&](const ast::ExprPtr &x) {
      using K = ast::Expr::Kind;
      switch (x->kind) {
      case K::Int: return true;
      case K::Name: {
        const Sym *sym = lookup(x->text);
        const bool local =
            s.locals && std::any_of(s.locals->begin(), s.locals->end(),
                                    [&](const LocalSym &l) { return l.name == x->text; });
        named = true;
        return !local && sym && sym->kind == Kind::Param;
      }
      case K::Neg:
      case K::Plus:
      case K::Add:
      case K::Sub:
      case K::Mul:
      case K::Div:
      case K::Mod: return std::all_of(x->args.begin(), x->args.end(), only);
      case K::Conv: // int(N - 1): a kernel's int parameter (instantiate.cpp)
        return (x->text == "int" || x->text == "long") && only(x->args[0]);
      default: return false;
      }
    };
    return only(arg) && named;
  }

  // Whether offset o of subscript d (arg) of grid `grid` is within the limit; an error if not.
  bool offset_fits(std::int64_t o, const ast::ExprPtr &arg, int d, const std::string &grid) {
    if (o <= kMaxOffset && o >= -kMaxOffset)
      return true;
    diags_.error(start_loc(arg),
                 fmt::format("offset {} of subscript {} of '{}' is too large (the limit is {})",
                             o > kFoldLimit || o < -kFoldLimit ? std::string("beyond 1e9")
                                                               : std::to_string(o),
                             d + 1, grid, kMaxOffset));
    return false;
  }

  // An integer constant subscript: an absolute index, or an error if it lies below every grid.
  std::optional<int> absolute_index(const ast::ExprPtr &arg, int d, const std::string &grid) {
    auto c = const_int(arg);
    if (!c)
      return std::nullopt;
    if (*c < 0 || *c > kFoldLimit) {
      diags_.error(start_loc(arg),
                   fmt::format("subscript {} of '{}' is the absolute index {}, outside every grid "
                               "(absolute indices run from 0 to the extent minus 1)",
                               d + 1, grid,
                               *c > kFoldLimit ? std::string("beyond 1e9") : std::to_string(*c)));
      return -1;
    }
    return static_cast<int>(*c);
  }

  // A grid of lower rank than the kernel or reduction (a coefficient along some of its
  // dimensions): each subscript is one of its indices plus or minus a constant, the indices in
  // their order, or an absolute index. `c[z]` in a kernel (x, y, z) reads c at z wherever x
  // and y are. (Such a grid is never written by a kernel: check_lower_rank_reads.)
  std::optional<Typed> lower_rank_access(const ast::ExprPtr &e, const ir::Grid &g, int gi,
                                         const Scope &s) {
    ir::Offsets off{};
    ir::Indices at{};
    ir::Axes axis{-1, -1, -1, -1};
    unsigned absolute = 0;
    int last = -1;
    bool ok = true;
    const auto &indices = *s.indices;
    for (int j = 0; j < g.rank; ++j) {
      std::optional<std::int64_t> o;
      int k = 0;
      for (; k < static_cast<int>(indices.size()) && !o; ++k)
        o = offset_of(e->args[j], indices[k]);
      --k;
      if (!o) {
        if (auto c = absolute_index(e->args[j], j, e->text)) {
          ok &= *c >= 0;
          absolute |= 1u << j;
          off[j] = std::max(*c, 0);
          continue;
        }
        if (auto a = param_index(e->args[j], s)) {
          ok &= *a != nullptr;
          absolute |= 1u << j;
          at[j] = *a;
          continue;
        }
        std::string names;
        for (const auto &i : indices)
          names += (names.empty() ? "'" : ", '") + i + "'";
        diags_.error(start_loc(e->args[j]),
                     fmt::format("subscript {} of '{}' (a grid of rank {} read in {} of rank {}) "
                                 "must be one of the indices {} plus or minus an integer "
                                 "constant, or an absolute index (an integer constant or an "
                                 "integer expression of params)",
                                 j + 1, e->text, g.rank, s.owner, indices.size(), names));
        ok = false;
        continue;
      }
      if (!offset_fits(*o, e->args[j], j, e->text)) {
        ok = false;
        continue;
      }
      if (k <= last) {
        diags_.error(start_loc(e->args[j]),
                     fmt::format("the subscripts of '{}' follow the indices of {} in their order: "
                                 "'{}' cannot come after '{}'",
                                 e->text, s.owner, indices[k], indices[last]));
        ok = false;
        continue;
      }
      last = k;
      axis[j] = k;
      off[j] = static_cast<int>(*o);
    }
    if (!ok)
      return std::nullopt;
    return Typed{ir::Expr::grid_read(e->loc, g.type, gi, off, absolute, axis, at)};
  }

  // A value of type `want` from `t`, or an error: only conversions that cannot lose integer
  // meaning silently are implicit (int -> float/double, double <-> float).
  ExprPtr convert_to(const Typed &t, Type want, SourceLoc loc, const std::string &what) {
    if (t.e->type == Type::Bool) {
      diags_.error(loc, fmt::format("type mismatch: {} is {} but the value is a condition; use "
                                    "c ? 1 : 0",
                                    what, ir::type_name(want)));
      return nullptr;
    }
    if (want == Type::Int && t.e->type != Type::Int) {
      diags_.error(loc, fmt::format("type mismatch: {} is int but the value is {}; convert "
                                    "explicitly with int(...)",
                                    what, ir::type_name(t.e->type)));
      return nullptr;
    }
    return retype(t, want);
  }

  // ---- declarations ----

  void check_param(const ast::Param &p) {
    ir::Param ip{p.loc, p.name, type_of(p.type), nullptr};
    const int index = static_cast<int>(prog_.params.size());
    if (p.init) {
      Scope s;
      s.params_visible = index;
      s.what = "a param value";
      if (auto t = expr(p.init, s))
        ip.init = convert_to(*t, ip.type, start_loc(p.init), fmt::format("param '{}'", p.name));
    }
    if (declare_name(p.name, p.loc, "param"))
      syms_[p.name] = {Kind::Param, index, p.loc};
    prog_.params.push_back(std::move(ip));
    // Default values, for checks that need sizes; unknown if missing or not computable.
    std::optional<ir::Scalar> v;
    const auto &last = prog_.params.back();
    if (last.init) {
      bool known = true;
      ir::walk(last.init, [&](const ir::Expr &x) {
        if (x.op == Op::Param && !defaults_[x.id])
          known = false;
      });
      if (known) {
        try {
          std::vector<ir::Scalar> vals;
          for (const auto &d : defaults_)
            vals.push_back(d ? *d : ir::Scalar{});
          ir::Env env;
          env.params = &vals;
          v = ir::eval(*last.init, env);
          bool literals_finite = true; // a bad literal is reported on its own
          ir::walk(last.init, [&](const ir::Expr &x) {
            literals_finite &= x.op != Op::FloatConst || std::isfinite(x.fval);
          });
          // e.g. 2.0 * 1e39 for a float: each literal fits, the value does not.
          if (last.type != Type::Int && !std::isfinite(v->d) && literals_finite) {
            diags_.error(start_loc(p.init),
                         fmt::format("param '{}' evaluates to {}, which is not a finite {}",
                                     p.name, v->d, ir::type_name(last.type)));
            v.reset();
          }
        } catch (const ir::EvalError &err) {
          diags_.error(start_loc(p.init), fmt::format("param '{}': {}", p.name, err.what()));
        }
      }
    }
    defaults_.push_back(v);
  }

  // The value of e with every param at its default; nullopt if a default is unknown. An
  // evaluation error (division by zero) is reported at `loc` when one is given.
  std::optional<std::int64_t> default_of(const ExprPtr &e, const SourceLoc *loc = nullptr) {
    bool known = true;
    ir::walk(e, [&](const ir::Expr &x) {
      if (x.op == Op::Param && !defaults_[x.id])
        known = false;
    });
    if (!known)
      return std::nullopt;
    std::vector<ir::Scalar> vals;
    for (const auto &d : defaults_)
      vals.push_back(d ? *d : ir::Scalar{});
    ir::Env env;
    env.params = &vals;
    try {
      return ir::eval(*e, env).i;
    } catch (const ir::EvalError &err) {
      if (loc)
        diags_.error(*loc, err.what());
      return std::nullopt;
    }
  }

  // An int expression of params (sizes, ranges, step counts).
  ExprPtr size_expr(const ast::ExprPtr &x, const char *what) {
    Scope s;
    s.params_visible = static_cast<int>(prog_.params.size());
    s.what = what;
    auto t = expr(x, s);
    if (!t)
      return nullptr;
    if (t->e->type != Type::Int) {
      diags_.error(start_loc(x), fmt::format("type mismatch: {} must be int, not {}", what,
                                             ir::type_name(t->e->type)));
      return nullptr;
    }
    return t->e;
  }

  static const std::vector<std::string> &face_indices() {
    static const std::vector<std::string> names = {"x", "y", "z", "w"};
    return names;
  }

  void check_boundary(const ast::Grid &g, ir::Grid &ig, bool &ok) {
    // Items without a face set every face; items with a face override theirs.
    std::array<bool, 2 * ir::kMaxRank> given{};
    bool has_default = false;
    for (const auto &item : g.boundary) {
      if (item.face.empty()) {
        if (has_default) {
          diags_.error(item.kind_loc, fmt::format("grid '{}' has a second boundary item without a "
                                                  "face; give one default and name the faces of "
                                                  "the others (e.g. x-: neumann)",
                                                  g.name));
          ok = false;
          continue;
        }
        has_default = true;
      }
      ir::Face f;
      f.loc = item.kind_loc;
      if (item.kind == "dirichlet") {
        f.kind = ir::BoundaryKind::Dirichlet;
        if (!item.value) {
          diags_.error(item.kind_loc, "dirichlet needs a value, e.g. dirichlet(0.0)");
          ok = false;
          continue;
        }
        Scope s;
        std::vector<std::string> idx(face_indices().begin(),
                                     face_indices().begin() + std::max(ig.rank, 0));
        s.indices = &idx;
        s.params_visible = static_cast<int>(prog_.params.size());
        s.what = "a boundary value";
        s.ghost_of = g.name;
        if (auto t = expr(item.value, s))
          f.value = convert_to(*t, ig.type, start_loc(item.value),
                               fmt::format("the boundary value of grid '{}'", g.name));
        if (!f.value) {
          ok = false;
          continue;
        }
      } else if (item.kind == "neumann" || item.kind == "periodic") {
        f.kind = item.kind == "neumann" ? ir::BoundaryKind::Neumann : ir::BoundaryKind::Periodic;
        if (item.value) {
          diags_.error(start_loc(item.value), fmt::format("{} takes no value", item.kind));
          ok = false;
          continue;
        }
      } else {
        diags_.error(item.kind_loc, fmt::format("unknown boundary condition '{}' (dirichlet(VALUE), "
                                                "neumann or periodic)",
                                                item.kind));
        ok = false;
        continue;
      }
      if (item.face.empty()) {
        for (int k = 0; k < 2 * ir::kMaxRank; ++k)
          if (!given[k])
            ig.faces[k] = f;
        continue;
      }
      const auto &names = face_indices();
      const int d = static_cast<int>(std::find(names.begin(), names.end(), item.face) - names.begin());
      if (d >= ig.rank) {
        diags_.error(item.face_loc, d < ir::kMaxRank
                                        ? fmt::format("grid '{}' has rank {}; it has no face '{}'",
                                                      g.name, ig.rank, item.face)
                                        : fmt::format("unknown face '{}' (faces are x, y, z, w, "
                                                      "with an optional - or +)",
                                                      item.face));
        ok = false;
        continue;
      }
      for (int side = 0; side < 2; ++side) {
        if (item.side != 0 && item.side != (side ? 1 : -1))
          continue;
        const int k = 2 * d + side;
        if (given[k]) {
          diags_.error(item.face_loc, fmt::format("face {}{} of grid '{}' is given twice",
                                                  item.face, side ? '+' : '-', g.name));
          ok = false;
        }
        given[k] = true;
        ig.faces[k] = f;
      }
    }
    for (int d = 0; d < ig.rank; ++d) {
      const bool lo = ig.faces[2 * d].kind == ir::BoundaryKind::Periodic;
      const bool hi = ig.faces[2 * d + 1].kind == ir::BoundaryKind::Periodic;
      if (lo != hi) {
        diags_.error(g.boundary.front().loc,
                     fmt::format("grid '{}': a periodic dimension must be periodic on both "
                                 "faces, but face {}{} is not",
                                 g.name, face_indices()[d], lo ? '+' : '-'));
        ok = false;
      }
    }
  }

  void check_grid(const ast::Grid &g) {
    ir::Grid ig;
    ig.loc = g.loc;
    ig.name = g.name;
    ig.type = type_of(g.type);
    ig.wide = g.type == ast::TypeName::Long;
    ig.readonly = g.readonly;
    ig.member_of = g.member_of;
    bool ok = true;
    const ir::Grid *like = nullptr;
    if (!g.like.empty()) {
      const Sym *s = lookup(g.like);
      if (!s) {
        diags_.error(g.like_loc, fmt::format("unknown grid '{}'", g.like));
        ok = false;
      } else if (s->kind != Kind::Grid) {
        diags_.error(g.like_loc, fmt::format("'{}' is {}, not a grid", g.like, kind_name(s->kind)));
        ok = false;
      } else {
        like = &prog_.grids[s->index];
        ok = !bad_grids_.count(s->index);
        ig.rank = like->rank;
        ig.extents = like->extents;
      }
    } else {
      ig.rank = static_cast<int>(g.extents.size());
      if (ig.rank > ir::kMaxRank) {
        diags_.error(g.loc, fmt::format("grid '{}' has rank {}; ranks 1 to {} are supported",
                                        g.name, ig.rank, ir::kMaxRank));
        ok = false;
      }
      for (const auto &x : g.extents) {
        ExprPtr e = size_expr(x, "a grid extent");
        if (!e) {
          ok = false;
          continue;
        }
        const SourceLoc at = start_loc(x);
        const int before = diags_.error_count();
        auto v = default_of(e, &at);
        if (diags_.error_count() > before)
          ok = false;
        if (v && *v < 1) {
          diags_.error(at, fmt::format("extent {} of grid '{}' is {}; it must be at least 1",
                                       ig.extents.size() + 1, g.name, *v));
          ok = false;
        }
        ig.extents.push_back(e);
      }
    }
    for (auto &f : ig.faces)
      f.value = ig.type == Type::Int ? ir::Expr::int_const(g.loc, 0)
                                     : ir::Expr::float_const(g.loc, ig.type, 0.0, "0.0");
    if (g.has_boundary && ig.rank <= ir::kMaxRank)
      check_boundary(g, ig, ok);
    else if (like) {
      // `like` copies the faces; Dirichlet values convert to the new element type.
      ig.faces = like->faces;
      for (auto &f : ig.faces) {
        if (f.kind != ir::BoundaryKind::Dirichlet || !f.value || f.value->type == ig.type)
          continue;
        // A whole floating literal (the default 0.0) converts to int; anything else would
        // truncate silently.
        if (ig.type == Type::Int && f.value->op == Op::FloatConst &&
            f.value->fval == std::floor(f.value->fval) && std::fabs(f.value->fval) < 1e15) {
          f.value = ir::Expr::int_const(f.value->loc, static_cast<std::int64_t>(f.value->fval));
          continue;
        }
        if (ig.type == Type::Int) {
          diags_.error(g.like_loc, fmt::format("grid '{}' is int but copies the {} boundary values "
                                               "of '{}'; give it its own boundary",
                                               g.name, ir::type_name(f.value->type), g.like));
          ok = false;
          break;
        }
        f.value = ir::Expr::cast(ig.type, f.value);
      }
    }
    // A constant the ghost cells of a 32-bit grid cannot hold would be stored wrapped.
    for (int fi = 0; ok && ig.type == Type::Int && !ig.wide && fi < 2 * ig.rank; ++fi) {
      const ir::Face &f = ig.faces[fi];
      if (f.kind != ir::BoundaryKind::Dirichlet || !f.value)
        continue;
      const bool neg = f.value->op == Op::Neg && f.value->a && f.value->a->op == Op::IntConst;
      const ir::Expr *lit = neg ? f.value->a.get() : f.value.get();
      if (lit->op != Op::IntConst)
        continue;
      const std::int64_t v = neg ? -lit->ival : lit->ival;
      if (v < INT32_MIN || v > INT32_MAX) {
        diags_.error(like ? g.like_loc : f.value->loc,
                     fmt::format("the boundary value {} of grid '{}' does not fit its 32-bit "
                                 "elements; declare the grid long",
                                 v, g.name));
        ok = false;
      }
    }
    const int index = static_cast<int>(prog_.grids.size());
    // A grid whose declaration had errors is left out of later checks: its shape is
    // incomplete, and every use of it would only repeat the first error.
    if (!ok)
      bad_grids_.insert(index);
    if (declare_name(g.name, g.loc, "grid"))
      syms_[g.name] = {Kind::Grid, index, g.loc};
    prog_.grids.push_back(std::move(ig));
  }

  std::vector<std::int64_t> default_shape(const ir::Grid &g) {
    std::vector<std::int64_t> s;
    for (const auto &e : g.extents) {
      auto v = default_of(e);
      if (!v)
        return {};
      s.push_back(*v);
    }
    return s;
  }

  // Index names of a kernel, reduction or init: distinct, and not names of anything else.
  bool check_indices(const std::vector<std::string> &names, const std::vector<SourceLoc> &locs,
                     const std::string &owner, SourceLoc owner_loc) {
    bool ok = true;
    for (std::size_t i = 0; i < names.size(); ++i) {
      const auto &n = names[i];
      if (std::find(names.begin(), names.begin() + i, n) != names.begin() + i) {
        diags_.error(locs[i], fmt::format("index '{}' appears twice", n));
        ok = false;
      } else if (const Sym *s = lookup(n)) {
        diags_.error(locs[i], fmt::format("index '{}' has the same name as {}", n,
                                          kind_name(s->kind)));
        ok = false;
      } else if (!declare_name(n, locs[i], "kernel index")) {
        ok = false;
      }
    }
    if (names.size() > static_cast<std::size_t>(ir::kMaxRank)) {
      diags_.error(owner_loc, fmt::format("{} has {} indices; ranks 1 to {} are supported",
                                             owner, names.size(), ir::kMaxRank));
      ok = false;
    }
    return ok;
  }

  void check_init(const ast::Init &in) {
    const Sym *sym = lookup(in.grid);
    if (!sym || sym->kind != Kind::Grid) {
      diags_.error(in.grid_loc, sym ? fmt::format("'{}' is {}, not a grid", in.grid,
                                                  kind_name(sym->kind))
                                    : fmt::format("unknown grid '{}'", in.grid));
      return;
    }
    if (bad_grids_.count(sym->index) ||
        !check_indices(in.indices, in.index_locs, fmt::format("the init of '{}'", in.grid),
                       in.grid_loc))
      return;
    ir::Grid &g = prog_.grids[sym->index];
    if (g.init) {
      diags_.error(in.grid_loc, fmt::format("grid '{}' has a second init", in.grid));
      return;
    }
    if (static_cast<int>(in.indices.size()) != g.rank) {
      diags_.error(in.grid_loc, fmt::format("wrong number of indices: grid '{}' has rank {} but "
                                            "the init names {}",
                                            in.grid, g.rank, in.indices.size()));
      return;
    }
    Scope s;
    s.indices = &in.indices;
    s.params_visible = static_cast<int>(prog_.params.size());
    s.what = "an init";
    if (auto t = expr(in.value, s))
      g.init = convert_to(*t, g.type, start_loc(in.value), fmt::format("grid '{}'", g.name));
  }

  void declare_kernel(const ast::Kernel &k) {
    ir::Kernel ik;
    ik.loc = k.loc;
    ik.name = k.name;
    ik.rank = static_cast<int>(k.indices.size());
    ik.indices = k.indices;
    if (declare_name(k.name, k.loc, "kernel"))
      syms_[k.name] = {Kind::Kernel, static_cast<int>(prog_.kernels.size()), k.loc};
    prog_.kernels.push_back(std::move(ik));
  }

  void declare_reduction(const ast::Reduce &r) {
    ir::Reduction ir;
    ir.loc = r.loc;
    ir.name = r.name;
    ir.rank = static_cast<int>(r.indices.size());
    ir.indices = r.indices;
    if (declare_name(r.name, r.loc, "reduction"))
      syms_[r.name] = {Kind::Reduction, static_cast<int>(prog_.reductions.size()), r.loc};
    // The generated API has compute_NAME() beside the grid accessors NAME().
    if (const Sym *g = lookup("compute_" + r.name); g && g->kind == Kind::Grid) {
      diags_.error(r.loc, fmt::format("reduction '{0}' and grid 'compute_{0}' cannot both be "
                                      "declared: the generated class has a method compute_{0}() "
                                      "for the reduction and one of that name for the grid",
                                      r.name));
      diags_.note(g->loc, fmt::format("grid 'compute_{}' is declared here", r.name));
    }
    prog_.reductions.push_back(std::move(ir));
  }

  bool check_domain(const ast::Domain &d, int rank, const std::string &owner, ir::Domain &out) {
    switch (d.kind) {
    case ast::Domain::Kind::Interior: out.kind = ir::Domain::Kind::Interior; return true;
    case ast::Domain::Kind::Colour:
      if (d.colour != "red" && d.colour != "black") {
        diags_.error(d.loc, fmt::format("unknown colour '{}': a kernel runs 'on red' (even x+y+...)"
                                        " or 'on black' (odd)",
                                        d.colour));
        return false;
      }
      out.kind = d.colour == "red" ? ir::Domain::Kind::Red : ir::Domain::Kind::Black;
      if (d.ranges.empty())
        return true;
      out.colour = d.colour == "red" ? 0 : 1; // the colour of a box: a Range with a parity
      break;
    case ast::Domain::Kind::Range: break;
    }
    if (static_cast<int>(d.ranges.size()) != rank) {
      diags_.error(d.loc, fmt::format("{} has rank {} but its domain gives {} ranges", owner, rank,
                                      d.ranges.size()));
      return false;
    }
    out.kind = ir::Domain::Kind::Range;
    bool ok = true;
    for (const auto &[lo, hi] : d.ranges) {
      ExprPtr l = size_expr(lo, "a domain bound"), h = size_expr(hi, "a domain bound");
      ok &= l && h;
      out.lo.push_back(l);
      out.hi.push_back(h);
    }
    return ok;
  }

  struct Read {
    int grid;
    ir::Offsets off;
    SourceLoc loc;
    unsigned absolute = 0; // as ir::Expr::absolute
    ir::Axes axis{0, 1, 2, 3};
    ir::Indices at{};
  };

  // A for loop runs at most this many times, and a kernel's loops unroll to at most
  // kMaxUnrolled iterations in all (nested loops multiply).
  static constexpr std::int64_t kMaxLoopTrips = 1024, kMaxUnrolled = 4096;

  // Whether `st` (a let, var or for) may declare its name here: not an index or a visible
  // local (no shadowing), not a name of the program, not reserved.
  bool new_local_name(const ast::Stmt &st, const Scope &scope, const ir::Kernel &ik) {
    bool clash = std::any_of(scope.locals->begin(), scope.locals->end(),
                             [&](const LocalSym &l) { return l.name == st.name; }) ||
                 std::find(scope.indices->begin(), scope.indices->end(), st.name) !=
                     scope.indices->end();
    if (clash) {
      diags_.error(st.loc, fmt::format("redeclaration of '{}' in kernel '{}'", st.name, ik.name));
      return false;
    }
    if (const Sym *s = lookup(st.name)) {
      diags_.error(st.loc, fmt::format("{} '{}' has the same name as {}",
                                       st.kind == ast::Stmt::Kind::For ? "loop variable" : "local",
                                       st.name, kind_name(s->kind)));
      return false;
    }
    return declare_name(st.name, st.loc, st.kind == ast::Stmt::Kind::For ? "loop variable" : "local");
  }

  // A loop body with its variable replaced by one iteration's value (an int literal, negated
  // if negative, located where the variable was): offsets like u[x + i] become constants.
  static ast::ExprPtr substitute(const ast::ExprPtr &e, const std::string &var, std::int64_t v) {
    if (!e)
      return e;
    if (e->kind == ast::Expr::Kind::Name && e->text == var) {
      auto lit = std::make_shared<ast::Expr>(ast::Expr{
          ast::Expr::Kind::Int, e->loc, std::to_string(v < 0 ? -v : v), {}, {}, {}, {}, {}});
      if (v >= 0)
        return lit;
      return std::make_shared<ast::Expr>(
          ast::Expr{ast::Expr::Kind::Neg, e->loc, "-", {lit}, {}, {}, {}, {}});
    }
    auto copy = std::make_shared<ast::Expr>(*e);
    for (auto &a : copy->args)
      a = substitute(a, var, v);
    return copy;
  }
  static std::vector<ast::Stmt> substitute(const std::vector<ast::Stmt> &body,
                                           const std::string &var, std::int64_t v) {
    std::vector<ast::Stmt> out;
    for (const auto &st : body) {
      ast::Stmt c = st;
      c.target = substitute(st.target, var, v);
      c.value = substitute(st.value, var, v);
      c.from = substitute(st.from, var, v);
      c.to = substitute(st.to, var, v);
      c.then_body = substitute(st.then_body, var, v);
      c.else_body = substitute(st.else_body, var, v);
      out.push_back(std::move(c));
    }
    return out;
  }

  // Statements of a kernel body; `scope.locals` grows with each let and shrinks after blocks.
  void check_body(const std::vector<ast::Stmt> &body, Scope &scope, ir::Kernel &ik,
                  std::vector<ir::Stmt> &out, std::set<int> &written, std::vector<Read> &reads) {
    const std::size_t outer_locals = scope.locals->size();
    for (const auto &st : body) {
      switch (st.kind) {
      case ast::Stmt::Kind::Assign: {
        auto target = access(st.target, scope, true);
        auto value = expr(st.value, scope);
        if (!target || !value)
          break;
        const int gi = target->e->id;
        const ir::Grid &g = prog_.grids[gi];
        if (g.readonly) {
          diags_.error(st.target->loc, fmt::format("cannot write read-only grid '{}'", g.name));
          break;
        }
        ir::walk(value->e, [&](const ir::Expr &x) {
          if (x.op == Op::GridRead)
            reads.push_back({x.id, x.offset, x.loc, x.absolute, x.axis, x.at});
        });
        ExprPtr v = convert_to(*value, g.type, start_loc(st.value), fmt::format("grid '{}'", g.name));
        if (!v)
          break;
        written.insert(gi);
        if (ik.domain_grid < 0)
          ik.domain_grid = gi;
        ir::Stmt s{ir::Stmt::Kind::Assign, st.loc, gi, -1, v, {}, {}};
        out.push_back(std::move(s));
        break;
      }
      case ast::Stmt::Kind::Let:
      case ast::Stmt::Kind::Var: {
        const bool mut = st.kind == ast::Stmt::Kind::Var;
        auto value = expr(st.value, scope);
        if (!new_local_name(st, scope, ik))
          break;
        if (!value) {
          scope.locals->push_back({st.name, -1, Type::Double, true, mut});
          break;
        }
        if (value->e->type == Type::Bool && mut) {
          diags_.error(start_loc(st.value), fmt::format("var '{}' cannot hold a condition (only a "
                                                        "let can); use c ? 1 : 0",
                                                        st.name));
          scope.locals->push_back({st.name, -1, Type::Double, true, mut});
          break;
        }
        ir::walk(value->e, [&](const ir::Expr &x) {
          if (x.op == Op::GridRead)
            reads.push_back({x.id, x.offset, x.loc, x.absolute, x.axis, x.at});
        });
        // A let or var keeps the type of its value (a weak literal becomes a double). Inside an
        // unrolled loop each iteration declares its own (the generated code's names differ).
        const int id = static_cast<int>(ik.locals.size());
        ik.locals.push_back({st.name + unroll_suffix_, value->e->type, mut});
        scope.locals->push_back({st.name, id, value->e->type, false, mut});
        out.push_back({ir::Stmt::Kind::Let, st.loc, -1, id, value->e, {}, {}});
        break;
      }
      case ast::Stmt::Kind::Set: {
        auto value = expr(st.value, scope);
        auto it = std::find_if(scope.locals->rbegin(), scope.locals->rend(),
                               [&](const LocalSym &l) { return l.name == st.name; });
        if (it == scope.locals->rend()) {
          const bool index = std::find(scope.indices->begin(), scope.indices->end(), st.name) !=
                             scope.indices->end();
          const Sym *s = lookup(st.name);
          if (index)
            diags_.error(st.loc, fmt::format("cannot assign index '{}' of kernel '{}'", st.name,
                                             ik.name));
          else if (s && s->kind == Kind::Grid)
            diags_.error(st.loc, fmt::format("grid '{}' is assigned at its centre point: {}[{}] = "
                                             "...",
                                             st.name, st.name, fmt::join(*scope.indices, ", ")));
          else if (s)
            diags_.error(st.loc, fmt::format("cannot assign '{}', {}: only a var of the kernel "
                                             "can be assigned",
                                             st.name, kind_name(s->kind)));
          else
            diags_.error(st.loc, fmt::format("assignment to undeclared '{}': declare it first "
                                             "with var {} = ...;",
                                             st.name, st.name));
          break;
        }
        if (it->loop_var) {
          diags_.error(st.loc, fmt::format("cannot assign loop variable '{}'", st.name));
          break;
        }
        if (!it->mut) {
          diags_.error(st.loc, fmt::format("cannot assign '{}': it is a let (immutable); declare "
                                           "it with var to assign it",
                                           st.name));
          break;
        }
        if (it->bad || !value)
          break;
        ExprPtr v = convert_to(*value, it->type, start_loc(st.value),
                               fmt::format("var '{}'", st.name));
        if (!v)
          break;
        ir::walk(v, [&](const ir::Expr &x) {
          if (x.op == Op::GridRead)
            reads.push_back({x.id, x.offset, x.loc, x.absolute, x.axis, x.at});
        });
        ir::Stmt s{ir::Stmt::Kind::Let, st.loc, -1, it->id, v, {}, {}};
        s.reassign = true;
        out.push_back(std::move(s));
        break;
      }
      case ast::Stmt::Kind::For: {
        const auto lo = const_int(st.from), hi = const_int(st.to);
        if (!lo || !hi) {
          diags_.error(start_loc(!lo ? st.from : st.to),
                       "the bounds of a for loop must be integer constants (literals with + - * "
                       "and parentheses): the loop is unrolled when compiling");
          break;
        }
        if (!new_local_name(st, scope, ik))
          break;
        const std::int64_t trips = std::max<std::int64_t>(0, *hi - *lo);
        if (trips > kMaxLoopTrips) {
          diags_.error(st.loc, fmt::format("for loop over [{}:{}] runs {} times; a loop is "
                                           "unrolled when compiling and may run at most {} times",
                                           *lo, *hi, trips, kMaxLoopTrips));
          break;
        }
        if (unrolled_ + trips > kMaxUnrolled) {
          diags_.error(st.loc, fmt::format("the loops of kernel '{}' unroll to more than {} "
                                           "iterations in all",
                                           ik.name, kMaxUnrolled));
          break;
        }
        unrolled_ += trips;
        const std::string outer_suffix = unroll_suffix_;
        const int errors = diags_.error_count();
        for (std::int64_t v = *lo; v < *hi; ++v) {
          unroll_suffix_ = fmt::format("{}__{}{}{}", outer_suffix, st.name, v < 0 ? "m" : "",
                                       v < 0 ? -v : v);
          const std::vector<ast::Stmt> body = substitute(st.then_body, st.name, v);
          scope.locals->push_back({st.name, -1, Type::Int, false, false, true});
          check_body(body, scope, ik, out, written, reads);
          scope.locals->pop_back();
          if (diags_.error_count() > errors)
            break; // one report, not one per iteration
        }
        unroll_suffix_ = outer_suffix;
        break;
      }
      case ast::Stmt::Kind::If: {
        auto cond = expr(st.value, scope);
        ir::Stmt s{ir::Stmt::Kind::If, st.loc, -1, -1, nullptr, {}, {}};
        if (cond && condition(*cond, st.value, "'if'")) {
          s.value = cond->e;
          ir::walk(cond->e, [&](const ir::Expr &x) {
            if (x.op == Op::GridRead)
              reads.push_back({x.id, x.offset, x.loc, x.absolute, x.axis, x.at});
          });
        }
        check_body(st.then_body, scope, ik, s.then_body, written, reads);
        check_body(st.else_body, scope, ik, s.else_body, written, reads);
        if (s.value)
          out.push_back(std::move(s));
        break;
      }
      }
    }
    scope.locals->resize(outer_locals);
  }

  // Every grid a kernel or reduction touches must have the shape of the grid it runs over,
  // and be wider than the stencil (checked with the default sizes here, again at run time).
  void check_shapes(const std::string &owner, int domain_grid, const std::vector<int> &touched,
                    const std::vector<Read> &reads, const std::vector<std::string> &indices) {
    const auto domain = default_shape(prog_.grids[domain_grid]);
    std::set<int> reported;
    auto check_shape = [&](int gi, SourceLoc loc) {
      const auto s = default_shape(prog_.grids[gi]);
      if (!domain.empty() && !s.empty() && s != domain && !reported.count(gi)) {
        reported.insert(gi);
        diags_.error(loc, fmt::format("grid '{}' has shape {} but {} runs over grid '{}' of "
                                      "shape {}",
                                      prog_.grids[gi].name, shape_string(s), owner,
                                      prog_.grids[domain_grid].name, shape_string(domain)));
      }
    };
    for (int g : touched)
      check_shape(g, prog_.grids[g].loc);
    for (const auto &r : reads) {
      const int grank = prog_.grids[r.grid].rank;
      const bool lower = grank < static_cast<int>(indices.size());
      if (!lower)
        check_shape(r.grid, r.loc);
      const auto s = default_shape(prog_.grids[r.grid]);
      for (std::size_t d = 0; d < static_cast<std::size_t>(grank) && !s.empty(); ++d) {
        // Dimension d of the grid follows index `axis` of the owner (the same d unless lower).
        const int axis = r.axis[d];
        const std::string name = axis >= 0 ? fmt::format(" ('{}')", indices[axis]) : "";
        if ((r.absolute >> d) & 1u) {
          // An index given by params: with their defaults (checked again at start).
          const std::optional<std::int64_t> at =
              r.at[d] ? default_of(r.at[d]) : std::optional<std::int64_t>(r.off[d]);
          if (at && (*at < 0 || *at >= s[d]) && !reported.count(r.grid)) {
            reported.insert(r.grid);
            diags_.error(r.loc,
                         fmt::format("{} reads '{}' at index {} of dimension {}{}, "
                                     "outside the grid, whose extent there is {} "
                                     "(absolute indices run from 0 to {}{})",
                                     owner, prog_.grids[r.grid].name, *at, d + 1, name, s[d],
                                     s[d] - 1, r.at[d] ? "; with the params' defaults" : ""));
          }
          continue;
        }
        if (lower && !domain.empty() && s[d] != domain[axis] && !reported.count(r.grid)) {
          reported.insert(r.grid);
          diags_.error(r.loc, fmt::format("grid '{}' has extent {} in dimension {}, which follows "
                                          "index '{}' of {}, but the grid it runs over, '{}', "
                                          "has extent {} there",
                                          prog_.grids[r.grid].name, s[d], d + 1, indices[axis],
                                          owner, prog_.grids[domain_grid].name, domain[axis]));
          continue;
        }
        const int width = 2 * std::abs(r.off[d]) + 1;
        if (width > s[d] && !reported.count(r.grid)) {
          reported.insert(r.grid);
          diags_.error(r.loc, fmt::format("stencil wider than the grid: {} reads '{}' at offset "
                                          "{} in dimension {} ('{}'), a width of {}, but the "
                                          "grid's extent there is {}",
                                          owner, prog_.grids[r.grid].name, r.off[d], d + 1,
                                          indices[axis], width, s[d]));
        }
      }
    }
  }

  // A box domain must lie inside the grid it runs over (checked here with the defaults, and
  // again at run time with the actual sizes).
  void check_range(const ast::Domain &ad, const ir::Domain &d, int grid, const std::string &owner) {
    if (d.kind != ir::Domain::Kind::Range)
      return;
    const auto shape = default_shape(prog_.grids[grid]);
    for (std::size_t k = 0; k < d.lo.size() && k < shape.size(); ++k) {
      if (!d.lo[k] || !d.hi[k])
        continue;
      auto lo = default_of(d.lo[k]), hi = default_of(d.hi[k]);
      if (lo && hi && (*lo < 0 || *lo > *hi || *hi > shape[k]))
        diags_.error(start_loc(ad.ranges[k].first),
                     fmt::format("{}: domain [{}:{}] in dimension {} is not inside [0:{}] (with "
                                 "the default sizes)",
                                 owner, *lo, *hi, k + 1, shape[k]));
    }
  }

  void check_kernel(const ast::Kernel &k, ir::Kernel &ik) {
    const std::string owner = fmt::format("kernel '{}'", k.name);
    if (!check_indices(k.indices, k.index_locs, owner, k.loc))
      return;
    if (!check_domain(k.domain, ik.rank, owner, ik.domain))
      return;
    if (k.body.empty()) {
      diags_.error(k.loc, fmt::format("kernel '{}' writes no grid", k.name));
      return;
    }
    std::vector<LocalSym> locals;
    Scope scope;
    scope.indices = &ik.indices;
    scope.owner = owner;
    scope.grids = true;
    scope.params_visible = static_cast<int>(prog_.params.size());
    scope.what = "a kernel";
    scope.locals = &locals;
    scope.kernel = &ik;
    std::set<int> written;
    std::vector<Read> reads;
    const int errors_before = diags_.error_count() + silent_failures_;
    unrolled_ = 0;
    check_body(k.body, scope, ik, ik.body, written, reads);
    // Races. Points are computed independently, so a grid the kernel writes may be read only
    // at the point being written -- except that a colour may read the other colour, which
    // it does not write (red-black Gauss-Seidel updates in place).
    const int colour = ir::colour_of(ik.domain);
    const bool coloured = colour >= 0;
    std::set<int> raced;
    for (const auto &r : reads) {
      if (!written.count(r.grid))
        continue;
      if (r.absolute) {
        // Which cells of the sweep an absolute index meets depends on the point: some are
        // written before the read, some after.
        if (raced.insert(r.grid).second)
          diags_.error(r.loc, fmt::format("race: kernel '{}' writes grid '{}' and reads it at an "
                                          "absolute index, a cell the same sweep may write; "
                                          "write to another grid and swap",
                                          k.name, prog_.grids[r.grid].name));
        continue;
      }
      int sum = 0;
      bool centre = true;
      for (int o : r.off) {
        sum += o;
        centre &= o == 0;
      }
      if (centre || (coloured && sum % 2 != 0) || !raced.insert(r.grid).second)
        continue;
      if (coloured)
        diags_.error(r.loc,
                     fmt::format("race: kernel '{}' updates {} points of grid '{}' in place "
                                 "and reads it at a point of the same colour (offsets "
                                 "summing to an even number)",
                                 k.name, colour == 0 ? "red" : "black", prog_.grids[r.grid].name));
      else
        diags_.error(r.loc, fmt::format("race: kernel '{}' writes grid '{}' and reads it at a "
                                        "neighbouring point; write to another grid and swap, or "
                                        "update in place 'on red' / 'on black'",
                                        k.name, prog_.grids[r.grid].name));
    }
    if (ik.domain_grid < 0) {
      // (If the body had errors, a failed assignment is the likelier story.)
      if (diags_.error_count() + silent_failures_ == errors_before)
        diags_.error(k.loc, fmt::format("kernel '{}' writes no grid", k.name));
      return;
    }
    check_shapes(owner, ik.domain_grid, std::vector<int>(written.begin(), written.end()), reads,
                 ik.indices);
    check_range(k.domain, ik.domain, ik.domain_grid, owner);
  }

  void check_reduction(const ast::Reduce &r, ir::Reduction &ir) {
    const std::string owner = fmt::format("reduction '{}'", r.name);
    if (!check_indices(r.indices, r.index_locs, owner, r.loc))
      return;
    if (!check_domain(r.domain, ir.rank, owner, ir.domain))
      return;
    static const std::pair<const char *, ir::ReduceOp> ops[] = {{"sum", ir::ReduceOp::Sum},
                                                                {"min", ir::ReduceOp::Min},
                                                                {"max", ir::ReduceOp::Max},
                                                                {"norm2", ir::ReduceOp::Norm2},
                                                                {"prod", ir::ReduceOp::Prod}};
    const auto *op = std::find_if(std::begin(ops), std::end(ops),
                                  [&](const auto &o) { return r.op == o.first; });
    if (op == std::end(ops)) {
      diags_.error(r.op_loc, fmt::format("unknown reduction '{}' (sum, min, max, norm2, prod)", r.op));
      return;
    }
    ir.op = op->second;
    Scope scope;
    scope.indices = &ir.indices;
    scope.owner = owner;
    scope.grids = true;
    scope.params_visible = static_cast<int>(prog_.params.size());
    scope.what = "a reduction";
    auto v = expr(r.value, scope);
    if (!v || !numeric(*v, r.value, owner.c_str()))
      return;
    ir.value = v->e;
    std::vector<Read> reads;
    ir::walk(ir.value, [&](const ir::Expr &x) {
      if (x.op == Op::GridRead)
        reads.push_back({x.id, x.offset, x.loc, x.absolute, x.axis, x.at});
    });
    if (reads.empty()) {
      diags_.error(r.loc, fmt::format("reduction '{}' reads no grid, so it has no domain to run "
                                      "over",
                                      r.name));
      return;
    }
    ir.domain_grid = reads.front().grid;
    check_shapes(owner, ir.domain_grid, {}, reads, ir.indices);
    check_range(r.domain, ir.domain, ir.domain_grid, owner);
  }

  void check_run() {
    const ast::Run *main = nullptr;
    std::map<std::string, SourceLoc> names;
    for (const auto &r : ast_.runs) {
      if (!r.name.empty()) {
        check_named_run(r, names);
        continue;
      }
      if (main)
        diags_.error(r.loc, "a stencil has one main 'run' block; this is a second one (another "
                            "block needs a name: 'run NAME: COUNT { ... }')");
      else
        main = &r;
    }
    if (!main) {
      if (ast_.runs.empty())
        diags_.error(ast_.name_loc, fmt::format("stencil '{}' has no 'run' block; add e.g. 'run "
                                                "steps {{ kernel; swap a, b; }}'",
                                                ast_.name));
      else
        diags_.error(ast_.runs.front().loc,
                     fmt::format("stencil '{}' has named run blocks but no main one; add e.g. "
                                 "'run steps {{ kernel; swap a, b; }}'",
                                 ast_.name));
      return;
    }
    const ast::Run &r = *main;
    prog_.run_loc = r.loc;
    if (!r.until && r.count->kind == ast::Expr::Kind::Name && r.count->text == "steps" &&
        !lookup("steps")) {
      prog_.steps = nullptr;
    } else {
      const char *what = r.until ? "the iteration limit" : "the step count";
      prog_.steps = run_count(r.count, what);
    }
    std::set<int> computed;
    check_run_body(r.body, prog_.run, computed);
    if (r.until) {
      Scope s;
      s.reductions = true;
      s.params_visible = static_cast<int>(prog_.params.size());
      s.what = "the condition of 'run until'";
      auto c = expr(r.cond, s);
      if (c && condition(*c, r.cond, "'run until'"))
        prog_.until = c->e;
      for (int id : used_reductions_)
        if (!computed.count(id))
          diags_.error(start_loc(r.cond),
                       fmt::format("the condition uses reduction '{}', which the run block never "
                                   "computes; add '{};' to the block",
                                   prog_.reductions[id].name, prog_.reductions[id].name));
    }
  }

  // A step count or iteration limit: an int expression of params, not negative.
  ExprPtr run_count(const ast::ExprPtr &count, const char *what) {
    ExprPtr e = size_expr(count, what);
    if (e) {
      const SourceLoc at = start_loc(count);
      if (auto v = default_of(e, &at); v && *v < 0)
        diags_.error(at, fmt::format("{} is {}; it must be at least 0", what, *v));
    }
    return e;
  }

  // `run NAME: COUNT { ... }`: its name gives the C++ API's run_NAME and step_NAME, so it must
  // not make one the API already has.
  void check_named_run(const ast::Run &r, std::map<std::string, SourceLoc> &names) {
    ir::Program::Block b;
    b.name = r.name;
    b.loc = r.loc;
    if (auto [it, fresh] = names.emplace(r.name, r.name_loc); !fresh) {
      diags_.error(r.name_loc, fmt::format("a second run block named '{}'", r.name));
      diags_.note(it->second, "the first is here");
    } else if (r.name == "state" || r.name.find("__") != std::string::npos)
      diags_.error(r.name_loc, fmt::format("run block name '{}' is reserved (the C++ API has "
                                           "run_{}); choose another",
                                           r.name, r.name));
    b.steps = run_count(r.count, "the step count");
    std::set<int> computed;
    check_run_body(r.body, b.run, computed);
    prog_.blocks.push_back(std::move(b));
  }

  void check_run_body(const std::vector<ast::RunStmt> &body, std::vector<ir::RunStmt> &out,
                      std::set<int> &computed) {
    for (const auto &st : body) {
      if (st.kind == ast::RunStmt::Kind::Call) {
        const Sym *s = lookup(st.a);
        if (!s)
          diags_.error(st.a_loc, fmt::format("unknown kernel '{}'", st.a));
        else if (s->kind == Kind::Kernel)
          out.push_back({ir::RunStmt::Kind::Call, st.loc, s->index, -1});
        else if (s->kind == Kind::Reduction) {
          out.push_back({ir::RunStmt::Kind::Reduce, st.loc, s->index, -1});
          computed.insert(s->index);
        } else
          diags_.error(st.a_loc, fmt::format("'{}' is {}, not a kernel or reduction", st.a,
                                             kind_name(s->kind)));
        continue;
      }
      int gi[2] = {-1, -1};
      const std::string *names[2] = {&st.a, &st.b};
      const SourceLoc locs[2] = {st.a_loc, st.b_loc};
      for (int j = 0; j < 2; ++j) {
        const Sym *s = lookup(*names[j]);
        if (!s)
          diags_.error(locs[j], fmt::format("unknown grid '{}'", *names[j]));
        else if (s->kind != Kind::Grid)
          diags_.error(locs[j], fmt::format("'{}' is {}, not a grid", *names[j],
                                            kind_name(s->kind)));
        else if (prog_.grids[s->index].readonly)
          diags_.error(locs[j], fmt::format("cannot swap read-only grid '{}'", *names[j]));
        else
          gi[j] = s->index;
      }
      if (gi[0] < 0 || gi[1] < 0 || bad_grids_.count(gi[0]) || bad_grids_.count(gi[1]))
        continue;
      const ir::Grid &a = prog_.grids[gi[0]], &b = prog_.grids[gi[1]];
      if (gi[0] == gi[1]) {
        diags_.error(st.b_loc, fmt::format("cannot swap grid '{}' with itself", a.name));
      } else if (a.type != b.type) {
        diags_.error(st.loc, fmt::format("type mismatch: cannot swap {} grid '{}' with {} grid "
                                         "'{}'",
                                         ir::type_name(a.type), a.name, ir::type_name(b.type),
                                         b.name));
      } else if (a.rank != b.rank || default_shape(a) != default_shape(b)) {
        diags_.error(st.loc, fmt::format("cannot swap grids of different shapes: '{}' is {} "
                                         "and '{}' is {}",
                                         a.name, shape_string(default_shape(a)), b.name,
                                         shape_string(default_shape(b))));
      } else {
        out.push_back({ir::RunStmt::Kind::Swap, st.loc, gi[0], gi[1]});
      }
    }
  }

  // A literal that fits a double may not fit the float it became (weak literals).
  void check_literals() {
    std::set<const ir::Expr *> seen; // `like` shares its boundary expressions
    auto visit = [&](const ExprPtr &root) {
      ir::walk(root, [&](const ir::Expr &e) {
        if (e.op == Op::FloatConst && !std::isfinite(e.fval) && seen.insert(&e).second)
          diags_.error(e.loc, fmt::format("floating literal {} is out of range for {}", e.spelling,
                                          ir::type_name(e.type)));
      });
    };
    for (const auto &p : prog_.params)
      visit(p.init);
    for (const auto &g : prog_.grids) {
      for (const auto &f : g.faces)
        visit(f.value);
      visit(g.init);
    }
    for (const auto &k : prog_.kernels)
      ir::walk(k.body, [&](const ir::Expr &e) {
        if (e.op == Op::FloatConst && !std::isfinite(e.fval) && seen.insert(&e).second)
          diags_.error(e.loc, fmt::format("floating literal {} is out of range for {}", e.spelling,
                                          ir::type_name(e.type)));
      });
    for (const auto &r : prog_.reductions)
      visit(r.value);
    visit(prog_.steps);
    visit(prog_.until);
    for (const auto &b : prog_.blocks)
      visit(b.steps);
  }

  // A grid read by a kernel or reduction of higher rank is a coefficient: no kernel writes it and
  // the run block does not swap it, so every plan may read it anywhere at any step (a plane of
  // it is read by every cell above it).
  void check_lower_rank_reads() {
    std::map<int, std::string> changed; // grid -> what changes it
    for (const auto &k : prog_.kernels)
      for (int g : ir::grids_written(k.body))
        changed.emplace(g, fmt::format("kernel '{}' writes it", k.name));
    for (const auto &r : ir::all_run_stmts(prog_))
      if (r.kind == ir::RunStmt::Kind::Swap) {
        changed.emplace(r.a, "the run block swaps it");
        changed.emplace(r.b, "the run block swaps it");
      }
    std::set<int> reported;
    ir::for_each_lower_rank_read(prog_, [&](const ir::Expr &x, const std::string &owner, int rank) {
      auto it = changed.find(x.id);
      if (it != changed.end() && reported.insert(x.id).second)
        diags_.error(x.loc, fmt::format("{} of rank {} reads grid '{}' of rank {}, which only a "
                                        "coefficient can be: no kernel writes it and no swap "
                                        "moves it, but {}",
                                        owner, rank, prog_.grids[x.id].name, prog_.grids[x.id].rank,
                                        it->second));
    });
  }

  // Halo = the widest read offset per dimension, joined over grids that swap (their storage
  // is exchanged, so they must share one layout).
  void compute_halos() {
    auto widen = [&](const ir::Expr &x) {
      if (x.op == Op::GridRead)
        for (int d = 0; d < ir::kMaxRank; ++d)
          prog_.grids[x.id].halo[d] = std::max(prog_.grids[x.id].halo[d], std::abs(x.relative(d)));
    };
    for (const auto &k : prog_.kernels)
      ir::walk(k.body, widen);
    for (const auto &r : prog_.reductions)
      ir::walk(r.value, widen);
    // Swaps form classes; iterate to a fixed point (few grids, so this is cheap).
    const std::vector<ir::RunStmt> stmts = ir::all_run_stmts(prog_);
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto &r : stmts) {
        if (r.kind != ir::RunStmt::Kind::Swap)
          continue;
        auto &a = prog_.grids[r.a].halo, &b = prog_.grids[r.b].halo;
        for (int d = 0; d < ir::kMaxRank; ++d) {
          const int m = std::max(a[d], b[d]);
          changed |= a[d] != m || b[d] != m;
          a[d] = b[d] = m;
        }
      }
    }
  }

  const ast::Program &ast_;
  DiagEngine &diags_;
  std::set<std::string> target_names_; // what the targets' generated code declares
  ir::Program prog_;
  std::map<std::string, Sym> syms_;
  std::vector<std::optional<ir::Scalar>> defaults_;
  std::set<int> bad_grids_;
  std::set<int> used_reductions_;
  int silent_failures_ = 0; // uses of names whose declaration already failed (not reported)
  // Unrolling for loops: the iterations of the current kernel so far, and what the generated
  // code's names of locals declared in the current iteration get (`t` -> `t__i2`; `__` is
  // reserved, so they cannot clash with a program's names).
  std::int64_t unrolled_ = 0;
  std::string unroll_suffix_;
};

} // namespace

std::optional<ir::Program> check(const ast::Program &prog, DiagEngine &diags,
                                 const std::vector<std::string> &target_reserved) {
  const ast::Program lowered = lower_periodic_reads(prog);
  return Checker(lowered, diags, target_reserved).run();
}

std::vector<ir::Scalar> resolve_params(
    const ir::Program &p,
    const std::function<bool(const std::string &, ir::Type, ir::Scalar &)> &override_of) {
  std::vector<ir::Scalar> vals;
  for (const auto &q : p.params) {
    ir::Scalar v;
    if (override_of && override_of(q.name, q.type, v)) {
      vals.push_back(v);
      continue;
    }
    if (!q.init)
      throw stencilc::Error(fmt::format("param '{}' has no default; give it with --set {}=VALUE",
                                        q.name, q.name));
    ir::Env env;
    env.params = &vals;
    try {
      vals.push_back(ir::eval(*q.init, env));
    } catch (const ir::EvalError &e) {
      throw stencilc::Error(fmt::format("param '{}': {}", q.name, e.what()));
    }
  }
  return vals;
}

} // namespace stc
