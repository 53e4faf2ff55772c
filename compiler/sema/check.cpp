#include "sema/check.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
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
      // members of the generated program class
      "Stencil", "Params", "step", "run", "load", "save", "checksum", "params", "name", "target",
      "plan", "grid_names", "init_random", "default_steps", "cell_updates_per_step", "threads",
      "defaults", "from", "params_from",
      // macros of the headers the generated code includes
      "EOF", "BUFSIZ", "FILENAME_MAX", "FOPEN_MAX", "L_tmpnam", "SEEK_SET", "SEEK_CUR",
      "SEEK_END", "TMP_MAX", "EXIT_SUCCESS", "EXIT_FAILURE", "RAND_MAX", "MB_CUR_MAX",
      "HUGE_VAL", "HUGE_VALF", "FP_NAN", "FP_INFINITE", "FP_ZERO", "FP_NORMAL", "FP_SUBNORMAL",
      "MATH_ERRNO", "CHAR_BIT", "INT_MAX", "INT_MIN", "LONG_MAX", "LONG_MIN", "INT8_MAX",
      "INT16_MAX", "INT32_MAX", "INT64_MAX", "INT8_MIN", "INT16_MIN", "INT32_MIN", "INT64_MIN",
      "UINT8_MAX", "UINT16_MAX", "UINT32_MAX", "UINT64_MAX", "SIZE_MAX", "INT64_C", "UINT64_C",
      "INT32_C", "stdin", "stdout", "stderr", "unknown_grid", "missing_param", "offsetof", "unix", "linux", "i386",
      "_OPENMP", "DBL_MAX", "FLT_MAX", "DBL_EPSILON", "FLT_EPSILON", "M_PI", "M_E"};
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
      "uintptr_t", "max_align_t", "nullptr_t", "posix_memalign", "aligned_alloc", "environ",
      "omp_get_max_threads", "omp_get_num_threads", "omp_get_thread_num", "omp_get_wtime"};
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
  Checker(const ast::Program &a, DiagEngine &d) : ast_(a), diags_(d) {}

  std::optional<ir::Program> run() {
    prog_.name = ast_.name;
    declare_name(ast_.name, ast_.name_loc, "stencil", true);
    for (const auto &p : ast_.params)
      check_param(p);
    for (const auto &g : ast_.grids)
      check_grid(g);
    for (const auto &k : ast_.kernels)
      declare_kernel(k);
    for (std::size_t i = 0; i < ast_.kernels.size(); ++i)
      check_kernel(ast_.kernels[i], prog_.kernels[i]);
    check_run();
    check_literals();
    if (diags_.has_errors())
      return std::nullopt;
    compute_halos();
    return std::move(prog_);
  }

private:
  enum class Kind { Param, Grid, Kernel, Stencil };
  struct Sym {
    Kind kind;
    int index;
    SourceLoc loc;
  };

  bool declare_name(const std::string &name, SourceLoc loc, const char *what, bool stencil = false) {
    if (reserved_names().count(name) || name.find("__") != std::string::npos ||
        name.back() == '_' || (stencil && global_c_names().count(name))) {
      diags_.error(loc, fmt::format("'{}' is reserved and cannot name a {} (C++ keywords and "
                                    "macros, names of the generated API, '__' and a trailing '_' "
                                    "are reserved{})",
                                    name, what,
                                    stencil ? "; a stencil name may not be a C library name" : ""));
      return false;
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
    case Kind::Stencil: return "the stencil";
    }
    return "?";
  }

  static Type type_of(ast::TypeName t) {
    return t == ast::TypeName::Int ? Type::Int : t == ast::TypeName::Float ? Type::Float
                                                                           : Type::Double;
  }

  // ---- expressions ----

  // Where an expression appears decides which names it may use.
  struct Scope {
    const ir::Kernel *kernel = nullptr; // kernel indices and grid reads allowed
    int params_visible = 0;             // params [0, n) may be read
    const char *what = "";              // for messages: "a grid extent", ...
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
      if (!s.kernel) {
        diags_.error(e->loc, fmt::format("grid '{}' cannot be read in {}; grids are read only "
                                         "inside kernels",
                                         e->text, s.what));
        return std::nullopt;
      }
      return access(e, *s.kernel, false);
    }
    case K::Plus: return expr(e->args[0], s);
    case K::Neg: {
      auto a = expr(e->args[0], s);
      if (!a)
        return std::nullopt;
      return Typed{ir::Expr::unary(Op::Neg, e->loc, a->e), a->weak};
    }
    case K::Add:
    case K::Sub:
    case K::Mul:
    case K::Div: {
      auto a = expr(e->args[0], s);
      auto b = expr(e->args[1], s);
      if (!a || !b)
        return std::nullopt;
      Type t;
      if (a->weak && !b->weak)
        t = b->e->type == Type::Int ? Type::Double : b->e->type;
      else if (b->weak && !a->weak)
        t = a->e->type == Type::Int ? Type::Double : a->e->type;
      else
        t = ir::join(a->e->type, b->e->type);
      const Op op = e->kind == K::Add   ? Op::Add
                    : e->kind == K::Sub ? Op::Sub
                    : e->kind == K::Mul ? Op::Mul
                                        : Op::Div;
      return Typed{ir::Expr::binary(op, e->loc, retype(*a, t), retype(*b, t)), a->weak && b->weak};
    }
    }
    internal_error("sema: unknown expression kind");
  }

  std::optional<Typed> name(const ast::ExprPtr &e, const Scope &s) {
    if (s.kernel) {
      const auto &idx = s.kernel->indices;
      auto it = std::find(idx.begin(), idx.end(), e->text);
      if (it != idx.end())
        return Typed{ir::Expr::index(e->loc, static_cast<int>(it - idx.begin()))};
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

  // Subscript d of an access must be kernel index d plus or minus a constant.
  std::optional<std::int64_t> offset_of(const ast::ExprPtr &e, const std::string &index) {
    using K = ast::Expr::Kind;
    if (e->kind == K::Name && e->text == index)
      return 0;
    if (e->kind == K::Add || e->kind == K::Sub) {
      const auto &l = e->args[0], &r = e->args[1];
      if (l->kind == K::Name && l->text == index) {
        if (auto c = const_int(r))
          return e->kind == K::Add ? *c : -*c;
      } else if (e->kind == K::Add && r->kind == K::Name && r->text == index) {
        if (auto c = const_int(l))
          return *c;
      }
    }
    return std::nullopt;
  }

  // Where an expression starts in the source (binary nodes carry their operator's location).
  static SourceLoc start_loc(const ast::ExprPtr &e) {
    using K = ast::Expr::Kind;
    if (e->kind == K::Add || e->kind == K::Sub || e->kind == K::Mul || e->kind == K::Div) {
      const SourceLoc l = start_loc(e->args[0]);
      return l.line < e->loc.line || (l.line == e->loc.line && l.col < e->loc.col) ? l : e->loc;
    }
    return e->loc;
  }

  std::optional<Typed> access(const ast::ExprPtr &e, const ir::Kernel &k, bool is_target) {
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
    if (bad_grids_.count(sym->index))
      return std::nullopt;
    if (static_cast<int>(e->args.size()) != g.rank || g.rank != k.rank) {
      if (static_cast<int>(e->args.size()) != g.rank)
        diags_.error(e->loc, fmt::format("wrong number of subscripts: grid '{}' has rank {} but "
                                         "is indexed with {}",
                                         e->text, g.rank, e->args.size()));
      // (rank and subscript counts are both >= 1 here)
      else
        diags_.error(e->loc, fmt::format("grid '{}' has rank {} but kernel '{}' has rank {}; a "
                                         "kernel reads and writes grids of its own rank",
                                         e->text, g.rank, k.name, k.rank));
      return std::nullopt;
    }
    ir::Offsets off{};
    bool ok = true;
    for (int d = 0; d < g.rank; ++d) {
      auto o = offset_of(e->args[d], k.indices[d]);
      if (o && (*o > kMaxOffset || *o < -kMaxOffset)) {
        diags_.error(start_loc(e->args[d]),
                     fmt::format("offset {} of subscript {} of '{}' is too large (the limit is "
                                 "{})",
                                 *o > kFoldLimit || *o < -kFoldLimit ? std::string("beyond 1e9")
                                                                     : std::to_string(*o),
                                 d + 1, e->text, kMaxOffset));
        ok = false;
        continue;
      }
      if (!o) {
        diags_.error(start_loc(e->args[d]),
                     fmt::format("subscript {} of '{}' must be '{}' plus or minus an integer "
                                 "constant (offsets must be known when compiling)",
                                 d + 1, e->text, k.indices[d]));
        ok = false;
        continue;
      }
      if (is_target && *o != 0) {
        diags_.error(start_loc(e->args[d]),
                     fmt::format("a kernel writes only the centre point: subscript {} of '{}' "
                                 "must be '{}'",
                                 d + 1, e->text, k.indices[d]));
        ok = false;
      }
      off[d] = static_cast<int>(*o);
    }
    if (!ok)
      return std::nullopt;
    auto read = ir::Expr::grid_read(e->loc, g.type, sym->index, off);
    return Typed{read};
  }

  // A value of type `want` from `t`, or an error: only conversions that cannot lose integer
  // meaning silently are implicit (int -> float/double, double <-> float).
  ExprPtr convert_to(const Typed &t, Type want, SourceLoc loc, const std::string &what) {
    if (want == Type::Int && t.e->type != Type::Int) {
      diags_.error(loc, fmt::format("type mismatch: {} is int but the value is {}", what,
                                    ir::type_name(t.e->type)));
      return nullptr;
    }
    return retype(t, want);
  }

  // ---- declarations ----

  void check_param(const ast::Param &p) {
    ir::Param ip{p.loc, p.name, type_of(p.type), nullptr};
    const int index = static_cast<int>(prog_.params.size());
    if (p.init) {
      Scope s{nullptr, index, "a param value"};
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
          // e.g. 2.0 * 1e39 for a float: each literal fits, the value does not.
          bool literals_finite = true; // a bad literal is reported on its own
          ir::walk(last.init, [&](const ir::Expr &x) {
            literals_finite &= x.op != Op::FloatConst || std::isfinite(x.fval);
          });
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

  void check_grid(const ast::Grid &g) {
    ir::Grid ig;
    ig.loc = g.loc;
    ig.name = g.name;
    ig.type = type_of(g.type);
    ig.readonly = g.readonly;
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
      Scope s{nullptr, static_cast<int>(prog_.params.size()), "a grid extent"};
      for (const auto &x : g.extents) {
        auto t = expr(x, s);
        if (!t) {
          ok = false;
          continue;
        }
        if (t->e->type != Type::Int) {
          diags_.error(start_loc(x), fmt::format("type mismatch: a grid extent must be int, not {}",
                                           ir::type_name(t->e->type)));
          ok = false;
          continue;
        }
        const SourceLoc at = start_loc(x);
        const int before = diags_.error_count();
        auto v = default_of(t->e, &at);
        if (diags_.error_count() > before)
          ok = false;
        if (v && *v < 1) {
          diags_.error(at, fmt::format("extent {} of grid '{}' is {}; it must be at least 1",
                                           ig.extents.size() + 1, g.name, *v));
          ok = false;
        }
        ig.extents.push_back(t->e);
      }
    }
    if (g.boundary) {
      const auto &b = *g.boundary;
      ig.boundary.loc = b.loc;
      if (b.kind != "dirichlet") {
        diags_.error(b.loc, fmt::format("unknown boundary condition '{}'; this version supports "
                                        "dirichlet(VALUE)",
                                        b.kind));
        ok = false;
      } else if (!b.value) {
        diags_.error(b.loc, "dirichlet needs a value, e.g. dirichlet(0.0)");
        ok = false;
      } else {
        Scope s{nullptr, static_cast<int>(prog_.params.size()), "a boundary value"};
        if (auto t = expr(b.value, s))
          ig.boundary.value = convert_to(*t, ig.type, start_loc(b.value),
                                         fmt::format("the boundary value of grid '{}'", g.name));
      }
    } else if (like && like->boundary.value && like->type == ig.type) {
      ig.boundary = like->boundary;
    } else {
      ig.boundary.value = ig.type == Type::Int
                              ? ir::Expr::int_const(g.loc, 0)
                              : ir::Expr::float_const(g.loc, ig.type, 0.0, "0.0");
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

  void check_kernel(const ast::Kernel &k, ir::Kernel &ik) {
    if (ik.rank > ir::kMaxRank) {
      diags_.error(k.loc, fmt::format("kernel '{}' has {} indices; ranks 1 to {} are supported",
                                      k.name, ik.rank, ir::kMaxRank));
      return;
    }
    bool ok = true;
    for (std::size_t i = 0; i < k.indices.size(); ++i) {
      const auto &n = k.indices[i];
      if (std::find(k.indices.begin(), k.indices.begin() + i, n) != k.indices.begin() + i) {
        diags_.error(k.index_locs[i], fmt::format("index '{}' appears twice", n));
        ok = false;
      } else if (const Sym *s = lookup(n)) {
        diags_.error(k.index_locs[i], fmt::format("index '{}' has the same name as {}", n,
                                                  kind_name(s->kind)));
        ok = false;
      } else if (!declare_name(n, k.index_locs[i], "kernel index")) {
        ok = false;
      }
    }
    if (!ok)
      return;
    if (k.body.empty()) {
      diags_.error(k.loc, fmt::format("kernel '{}' writes no grid", k.name));
      return;
    }
    Scope scope{&ik, static_cast<int>(prog_.params.size()), "a kernel"};
    std::set<int> written;
    struct Read {
      int grid;
      ir::Offsets off;
      SourceLoc loc;
    };
    std::vector<Read> reads;
    for (const auto &a : k.body) {
      auto target = access(a.target, ik, true);
      auto value = expr(a.value, scope);
      if (!target || !value)
        continue;
      const int gi = target->e->id;
      const ir::Grid &g = prog_.grids[gi];
      if (g.readonly) {
        diags_.error(a.target->loc, fmt::format("cannot write read-only grid '{}'", g.name));
        continue;
      }
      ir::walk(value->e, [&](const ir::Expr &x) {
        if (x.op == Op::GridRead)
          reads.push_back({x.id, x.offset, x.loc});
      });
      ExprPtr v = convert_to(*value, g.type, start_loc(a.value), fmt::format("grid '{}'", g.name));
      if (!v)
        continue;
      written.insert(gi);
      if (ik.domain_grid < 0)
        ik.domain_grid = gi;
      ik.body.push_back({a.loc, gi, v});
    }
    // Races: every point is computed independently, so a grid the kernel writes may be read
    // only at the point being written.
    std::set<int> raced;
    for (const auto &r : reads) {
      if (!written.count(r.grid))
        continue;
      bool centre = std::all_of(r.off.begin(), r.off.end(), [](int o) { return o == 0; });
      if (!centre && raced.insert(r.grid).second)
        diags_.error(r.loc, fmt::format("race: kernel '{}' writes grid '{}' and reads it at a "
                                        "neighbouring point; write to another grid and swap",
                                        k.name, prog_.grids[r.grid].name));
    }
    if (ik.domain_grid < 0)
      return;
    // Every grid the kernel touches must have the shape of the grid it runs over, and be
    // wider than the stencil (checked with the default sizes here, and again at run time).
    const auto domain = default_shape(prog_.grids[ik.domain_grid]);
    std::set<int> reported;
    auto check_shape = [&](int gi, SourceLoc loc) {
      const auto s = default_shape(prog_.grids[gi]);
      if (!domain.empty() && !s.empty() && s != domain && !reported.count(gi)) {
        reported.insert(gi);
        diags_.error(loc, fmt::format("grid '{}' has shape {} but kernel '{}' runs over grid "
                                      "'{}' of shape {}",
                                      prog_.grids[gi].name, shape_string(s), k.name,
                                      prog_.grids[ik.domain_grid].name, shape_string(domain)));
      }
    };
    for (const auto &a : ik.body)
      check_shape(a.grid, a.loc);
    for (const auto &r : reads) {
      check_shape(r.grid, r.loc);
      const auto s = default_shape(prog_.grids[r.grid]);
      for (int d = 0; d < ik.rank && !s.empty(); ++d) {
        const int width = 2 * std::abs(r.off[d]) + 1;
        if (width > s[d] && !reported.count(r.grid)) {
          reported.insert(r.grid);
          diags_.error(r.loc, fmt::format("stencil wider than the grid: kernel '{}' reads '{}' "
                                          "at offset {} in dimension {} ('{}'), a width of {}, "
                                          "but the grid's extent there is {}",
                                          k.name, prog_.grids[r.grid].name, r.off[d], d + 1,
                                          ik.indices[d], width, s[d]));
        }
      }
    }
  }

  void check_run() {
    if (ast_.runs.empty()) {
      diags_.error(ast_.name_loc, fmt::format("stencil '{}' has no 'run' block; add e.g. 'run "
                                              "steps {{ kernel; swap a, b; }}'",
                                              ast_.name));
      return;
    }
    for (std::size_t i = 1; i < ast_.runs.size(); ++i)
      diags_.error(ast_.runs[i].loc, "a stencil has one 'run' block; this is a second one");
    const ast::Run &r = ast_.runs[0];
    prog_.run_loc = r.loc;
    if (r.count->kind == ast::Expr::Kind::Name && r.count->text == "steps" && !lookup("steps")) {
      prog_.steps = nullptr;
    } else {
      Scope s{nullptr, static_cast<int>(prog_.params.size()), "the step count"};
      if (auto t = expr(r.count, s)) {
        if (t->e->type != Type::Int)
          diags_.error(start_loc(r.count), fmt::format("type mismatch: the step count must be int, "
                                                 "not {}",
                                                 ir::type_name(t->e->type)));
        else {
          prog_.steps = t->e;
          const SourceLoc at = start_loc(r.count);
          if (auto v = default_of(t->e, &at); v && *v < 0)
            diags_.error(at, fmt::format("the step count is {}; it must be at least 0",
                                                   *v));
        }
      }
    }
    for (const auto &st : r.body) {
      if (st.kind == ast::RunStmt::Kind::Call) {
        const Sym *s = lookup(st.a);
        if (!s)
          diags_.error(st.a_loc, fmt::format("unknown kernel '{}'", st.a));
        else if (s->kind != Kind::Kernel)
          diags_.error(st.a_loc, fmt::format("'{}' is {}, not a kernel", st.a, kind_name(s->kind)));
        else
          prog_.run.push_back({ir::RunStmt::Kind::Call, st.loc, s->index, -1});
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
        prog_.run.push_back({ir::RunStmt::Kind::Swap, st.loc, gi[0], gi[1]});
      }
    }
  }

  // A literal that fits a double may not fit the float it became (weak literals).
  void check_literals() {
    std::set<const ir::Expr *> seen; // `like` shares its boundary expression
    auto visit = [&](const ExprPtr &root) {
      ir::walk(root, [&](const ir::Expr &e) {
        if (e.op == Op::FloatConst && !std::isfinite(e.fval) && seen.insert(&e).second)
          diags_.error(e.loc, fmt::format("floating literal {} is out of range for {}", e.spelling,
                                          ir::type_name(e.type)));
      });
    };
    for (const auto &p : prog_.params)
      visit(p.init);
    for (const auto &g : prog_.grids)
      visit(g.boundary.value);
    for (const auto &k : prog_.kernels)
      for (const auto &a : k.body)
        visit(a.value);
    visit(prog_.steps);
  }

  // Halo = the widest read offset per dimension, joined over grids that swap (their storage
  // is exchanged, so they must share one layout).
  void compute_halos() {
    for (const auto &k : prog_.kernels)
      for (const auto &a : k.body)
        ir::walk(a.value, [&](const ir::Expr &x) {
          if (x.op == Op::GridRead)
            for (int d = 0; d < ir::kMaxRank; ++d)
              prog_.grids[x.id].halo[d] = std::max(prog_.grids[x.id].halo[d], std::abs(x.offset[d]));
        });
    // Swaps form classes; iterate to a fixed point (few grids, so this is cheap).
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto &r : prog_.run) {
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
  ir::Program prog_;
  std::map<std::string, Sym> syms_;
  std::vector<std::optional<ir::Scalar>> defaults_;
  std::set<int> bad_grids_;
};

} // namespace

std::optional<ir::Program> check(const ast::Program &prog, DiagEngine &diags) {
  return Checker(prog, diags).run();
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
