// Clang's AST of a Physis program -> ast::Program (docs/PHYSIS.md has the mapping).
//
// main() is read statement by statement: PSGrid*New declares a grid, PSDomain*New a domain,
// PSStencilMap a kernel applied to grids and scalars, PSStencilRun the run block, PSReduce a
// reduction. Each distinct map becomes one stencilc kernel: the kernel function's grid
// parameters replaced by the grids the map binds and its scalar parameters by params (a host
// variable or macro keeps its name; its value is the constant Clang evaluates). A kernel body is
// translated by symbolic execution: C locals become `let`s (a new name per assignment), an
// if/else that assigns locals becomes `?:` selections after it, so C's mutable locals map onto
// stencilc's immutable ones exactly. Every implicit conversion Clang inserts is written as an
// explicit one and every literal carries its C type, so the arithmetic is C's, bit for bit.
#include "frontend/physis_translate.h"

#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/Lex/Lexer.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <set>

namespace stc {
namespace {

using K = ast::Expr::Kind;

ast::ExprPtr make(K k, SourceLoc loc, std::string text = {}, std::vector<ast::ExprPtr> args = {}) {
  auto e = std::make_shared<ast::Expr>();
  e->kind = k;
  e->loc = loc;
  e->text = std::move(text);
  e->args = std::move(args);
  e->name_loc = loc;
  return e;
}

// An integer literal as the .stn parser reads it back: a negative one is a negation.
ast::ExprPtr int_literal(std::int64_t v, SourceLoc loc) {
  if (v >= 0)
    return make(K::Int, loc, std::to_string(v));
  return make(K::Neg, loc, "",
              {make(K::Int, loc, std::to_string(0ULL - static_cast<std::uint64_t>(v)))});
}

// A number exactly: 17 significant digits give back the same double (and a float's value,
// which a double holds exactly, then rounds back to the same float).
// (Always with a point or an exponent: a floating literal, never read back as an int.)
std::string exact(double v) {
  std::string s = fmt::format("{:.17g}", v);
  if (s.find_first_of(".eEn") == std::string::npos)
    s += ".0";
  return s;
}

// A C floating constant of type `type` ("float", "double"): C's literal has a fixed type and
// stencilc's unsuffixed literal adapts, so the conversion says which; a negative one is a
// negation, as the .stn parser reads it back.
ast::ExprPtr float_literal(double v, const char *type, SourceLoc loc) {
  const bool negative = std::signbit(v);
  ast::ExprPtr lit = make(K::Conv, loc, type, {make(K::Float, loc, exact(negative ? -v : v))});
  return negative ? make(K::Neg, loc, "", {lit}) : lit;
}

std::optional<ast::TypeName> type_name(clang::QualType t) {
  t = t.getCanonicalType().getUnqualifiedType();
  if (const auto *b = t->getAs<clang::BuiltinType>()) {
    switch (b->getKind()) {
    case clang::BuiltinType::Float:
      return ast::TypeName::Float;
    case clang::BuiltinType::Double:
      return ast::TypeName::Double;
    case clang::BuiltinType::Int:
    case clang::BuiltinType::UInt:
    case clang::BuiltinType::Short:
    case clang::BuiltinType::UShort:
    case clang::BuiltinType::Char_S:
    case clang::BuiltinType::Char_U:
    case clang::BuiltinType::SChar:
    case clang::BuiltinType::UChar:
    case clang::BuiltinType::Bool:
    // The language's integers are 64-bit, as C's long is on the platforms stencilc targets.
    case clang::BuiltinType::Long:
    case clang::BuiltinType::LongLong: return ast::TypeName::Int;
    default:
      return std::nullopt;
    }
  }
  if (t->isEnumeralType())
    return ast::TypeName::Int;
  return std::nullopt;
}

using ast::type_text;

std::string callee_name(const clang::CallExpr *c) {
  if (const clang::FunctionDecl *f = c->getDirectCallee())
    return f->getNameAsString();
  return "";
}

const clang::Expr *strip(const clang::Expr *e) { return e->IgnoreParenImpCasts(); }

// A grid type name, PSGrid3DFloat: its rank and element type; PSGrid3DPoint (declared by
// DeclareGrid3D(Point, struct Point)): the struct its handle's __elem member has.
struct GridType {
  int rank = 0;
  std::string elem; // Float, Double, Int, Long, or the user type's name (Point)
  const clang::RecordDecl *record = nullptr; // a user type's struct
  clang::QualType record_type;
};
std::optional<GridType> grid_type(clang::QualType t) {
  static const std::regex re("PSGrid([123])D(\\w+)");
  std::smatch m;
  const std::string s = t.getUnqualifiedType().getAsString();
  if (!std::regex_match(s, m, re))
    return std::nullopt;
  GridType g{m[1].str()[0] - '0', m[2].str(), nullptr, {}};
  if (g.elem == "Float" || g.elem == "Double" || g.elem == "Int" || g.elem == "Long")
    return g;
  const auto *ptr = t.getCanonicalType()->getAs<clang::PointerType>();
  const auto *handle = ptr ? ptr->getPointeeType()->getAsRecordDecl() : nullptr;
  if (!handle || handle->getNameAsString() != "__PSGrid" + m[1].str() + "D" + g.elem)
    return std::nullopt;
  for (const clang::FieldDecl *f : handle->fields())
    if (f->getNameAsString() == "__elem" && f->getType()->getAsRecordDecl()) {
      g.record = f->getType()->getAsRecordDecl();
      g.record_type = f->getType();
    }
  if (!g.record)
    return std::nullopt;
  return g;
}

struct Grid {
  std::string name;
  GridType type;
  std::vector<ast::ExprPtr> extents;
  SourceLoc loc;
  bool periodic_read = false, plain_offset_read = false;
  SourceLoc periodic_loc;
};

struct Domain {
  int rank = 0;
  std::vector<std::pair<ast::ExprPtr, ast::ExprPtr>> ranges;
};

class Translator {
public:
  Translator(clang::ASTContext &ctx, const SourceFile &file, DiagEngine &diags,
             const ClangLocations &locs, PhysisHostCalls &host)
      : ctx_(ctx), file_(file), diags_(diags), locs_(locs), host_(host) {}

  std::optional<ast::Program> run() {
    const clang::FunctionDecl *main_fn = nullptr;
    for (const clang::Decl *d : ctx_.getTranslationUnitDecl()->decls())
      if (const auto *f = llvm::dyn_cast<clang::FunctionDecl>(d))
        if (f->getNameAsString() == "main" && f->hasBody())
          main_fn = f;
    if (!main_fn) {
      diags_.error({}, "a Physis program needs a main() that calls PSStencilRun");
      return std::nullopt;
    }
    prog_.name = stencil_name(file_.path());
    find_modified(main_fn->getBody());
    host(main_fn->getBody(), 0);
    finish_runs();
    if (!diags_.has_errors() && prog_.runs.empty())
      diags_.error(locs_(main_fn->getLocation()),
                   "main() never calls PSStencilRun: there is no stencil to compile");
    if (!diags_.has_errors())
      finish_grids();
    if (diags_.has_errors())
      return std::nullopt;
    return std::move(prog_);
  }

private:
  // ---- host code: main() ----

  static std::string stencil_name(const std::string &path) {
    std::string base = path.substr(path.find_last_of('/') + 1);
    base = base.substr(0, base.rfind('.'));
    std::string out;
    for (char c : base)
      out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])))
      out = "physis_" + out;
    return out;
  }

  void host(const clang::Stmt *s, int depth) {
    if (!s)
      return;
    if (const auto *c = llvm::dyn_cast<clang::CompoundStmt>(s)) {
      for (const clang::Stmt *x : c->body())
        host(x, depth);
      return;
    }
    if (const auto *ds = llvm::dyn_cast<clang::DeclStmt>(s)) {
      for (const clang::Decl *d : ds->decls())
        if (const auto *v = llvm::dyn_cast<clang::VarDecl>(d))
          if (v->hasInit())
            host_decl(v, depth);
      return;
    }
    // Host control flow: the stencils are run and reduced from inside it (the rewritten host
    // code calls the generated code there, as often as the loop says); grids, domains and maps
    // are made once, outside (bind).
    if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::IfStmt>(s)) {
      for (const clang::Stmt *child : s->children())
        host(child, depth + 1);
      return;
    }
    if (const auto *e = llvm::dyn_cast<clang::Expr>(s)) {
      if (const auto *bo = llvm::dyn_cast<clang::BinaryOperator>(strip(e)))
        if (bo->getOpcode() == clang::BO_Assign)
          if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(strip(bo->getLHS())))
            if (const auto *v = llvm::dyn_cast<clang::VarDecl>(ref->getDecl()))
              if (ps_call(bo->getRHS())) {
                bind(v, bo->getRHS(), depth);
                return;
              }
      if (const auto *call = llvm::dyn_cast<clang::CallExpr>(strip(e))) {
        host_call(call, depth);
        return;
      }
    }
    // Host code (printing, assignments, ...): a stencil call inside an expression is refused.
    check_no_ps_calls(s);
  }

  // A call to the Physis API (by name), or null.
  const clang::CallExpr *ps_call(const clang::Expr *e) const {
    const auto *c = llvm::dyn_cast<clang::CallExpr>(strip(e));
    if (!c)
      return nullptr;
    const std::string n = callee_name(c);
    return n.rfind("PS", 0) == 0 || n.rfind("__PS", 0) == 0 ? c : nullptr;
  }

  void check_no_ps_calls(const clang::Stmt *s) {
    struct Finder : clang::RecursiveASTVisitor<Finder> {
      const clang::CallExpr *found = nullptr;
      bool VisitCallExpr(clang::CallExpr *c) {
        const std::string n = callee_name(c);
        if (!found && (n == "PSStencilRun" || n == "__PSStencilMap" ||
                       n == "__PSStencilMapRedBlack" || n == "PSReduce" ||
                       (n.find("New") != std::string::npos && n.rfind("PS", 0) == 0)))
          found = c;
        return true;
      }
    } f;
    f.TraverseStmt(const_cast<clang::Stmt *>(s));
    if (f.found)
      diags_.error(locs_(f.found->getBeginLoc()),
                   fmt::format("{} is only supported as a statement of main() (or of a loop or "
                               "condition in it), not inside another expression",
                               api_name(f.found)));
  }

  std::string api_name(const clang::CallExpr *c) const {
    std::string n = callee_name(c);
    return n.rfind("__", 0) == 0 ? n.substr(2) : n;
  }

  void host_decl(const clang::VarDecl *v, int depth) {
    if (ps_call(v->getInit()))
      bind(v, v->getInit(), depth);
  }

  void bind(const clang::VarDecl *v, const clang::Expr *init, int depth) {
    const clang::CallExpr *c = ps_call(init);
    const std::string n = callee_name(c);
    static const std::regex grid_new("PSGrid([123])D(\\w+)New");
    static const std::regex domain_new("PSDomain([123])DNew");
    std::smatch m;
    const bool makes = std::regex_match(n, grid_new) || std::regex_match(n, domain_new) ||
                       n == "__PSStencilMap" || n == "__PSStencilMapRedBlack";
    if (makes && depth > 0) {
      diags_.error(locs_(c->getBeginLoc()),
                   fmt::format("{} inside a loop or a condition: stencilc makes the program's "
                               "grids, domains and maps once, so make it before (PSStencilRun "
                               "and PSReduce may be inside)",
                               api_name(c)));
      return;
    }
    if (std::regex_match(n, m, grid_new))
      new_grid(v, c);
    else if (std::regex_match(n, m, domain_new))
      new_domain(v, c, m[1].str()[0] - '0');
    else if (n == "__PSStencilMap" || n == "__PSStencilMapRedBlack") {
      maps_[v] = c;
      host_.maps.push_back(c);
    } else
      host_call(c, depth);
  }

  void host_call(const clang::CallExpr *c, int depth) {
    (void)depth;
    const std::string n = callee_name(c);
    if (n == "PSStencilRun")
      stencil_run(c, depth);
    else if (n == "PSReduce")
      reduce(c);
    else if (n == "__PSStencilMap" || n == "__PSStencilMapRedBlack")
      diags_.error(locs_(c->getBeginLoc()),
                   "the stencil this PSStencilMap makes is never run: pass it to PSStencilRun");
    else
      check_no_ps_calls(c); // PSInit, PSGridCopyin, printf(...): host code
  }

  void new_grid(const clang::VarDecl *v, const clang::CallExpr *c) {
    Grid g;
    g.name = v->getNameAsString();
    auto type = grid_type(c->getType());
    if (!type) {
      diags_.error(locs_(c->getBeginLoc()),
                   fmt::format("{} does not make a Physis grid (PSGrid1D/2D/3D of Float, Double, "
                               "Int, Long or a type declared with DeclareGrid3D)",
                               callee_name(c)));
      return;
    }
    g.type = *type;
    if (g.type.record)
      user_type(g.type, locs_(c->getBeginLoc())); // reported; the grid is still one
    g.loc = locs_(v->getLocation());
    for (unsigned i = 0; i < c->getNumArgs(); ++i)
      g.extents.push_back(host_value(c->getArg(i), ast::TypeName::Int));
    names_.insert(g.name);
    PhysisHostCalls::GridNew made{c, g.name, {}, {}};
    if (g.type.record) {
      made.c_type = g.type.record_type.getAsString();
      for (const auto &st : prog_.structs)
        if (st.name == g.type.elem)
          for (const auto &m : st.members)
            for_each_index(m.dims, [&](const std::vector<int> &idx) {
              std::string designator = m.name;
              for (int i : idx)
                designator += fmt::format("[{}]", i);
              made.members.emplace_back(ast::member_grid_name(g.name, m.name, idx), designator);
            });
    }
    host_.grids.push_back(std::move(made));
    grid_index_[v] = static_cast<int>(grids_.size());
    grids_.push_back(std::move(g));
  }

  // Every index of an array of extents `dims` (one empty index for a scalar), last fastest.
  template <typename F> static void for_each_index(const std::vector<int> &dims, F &&f) {
    for (int d : dims)
      if (d < 1)
        return; // an empty array has no index (user_type refuses it)
    std::vector<int> idx(dims.size(), 0);
    for (;;) {
      f(idx);
      std::size_t d = idx.size();
      while (d > 0 && ++idx[d - 1] == dims[d - 1])
        idx[--d] = 0;
      if (d == 0)
        return;
    }
  }

  // A user-defined element type as a struct of the program (once per type): its members must
  // be int, long, float or double, or arrays of them (stored exactly so: int 32-bit, long 64).
  bool user_type(const GridType &t, SourceLoc use) {
    if (auto it = user_types_.find(t.elem); it != user_types_.end())
      return it->second;
    ast::StructDecl st;
    st.loc = use;
    st.name = t.elem;
    bool ok = true;
    for (const clang::FieldDecl *f : t.record->fields()) {
      ast::StructMember m;
      m.loc = locs_(f->getLocation());
      m.name = f->getNameAsString();
      clang::QualType ft = f->getType();
      while (const auto *a = ctx_.getAsConstantArrayType(ft)) {
        const llvm::APInt n = a->getSize();
        m.dims.push_back(n.getActiveBits() > 30 ? (1 << 30) : static_cast<int>(n.getZExtValue()));
        ft = a->getElementType();
      }
      std::optional<ast::TypeName> mt;
      if (const auto *bt = ft.getCanonicalType()->getAs<clang::BuiltinType>())
        switch (bt->getKind()) {
        case clang::BuiltinType::Float: mt = ast::TypeName::Float; break;
        case clang::BuiltinType::Double: mt = ast::TypeName::Double; break;
        case clang::BuiltinType::Int: mt = ast::TypeName::Int; break;
        case clang::BuiltinType::Long:
        case clang::BuiltinType::LongLong: mt = ast::TypeName::Long; break;
        default: break;
        }
      if (!mt || f->isBitField() || m.name.empty()) {
        diags_.error(m.loc,
                     fmt::format("member '{}' of the element type {} has type {}: the "
                                 "members of a grid's element type must be int, long, "
                                 "float or double, or arrays of them",
                                 m.name, t.record_type.getAsString(), f->getType().getAsString()));
        ok = false;
        continue;
      }
      if (std::find(m.dims.begin(), m.dims.end(), 0) != m.dims.end()) {
        diags_.error(m.loc, fmt::format("member '{}' of the element type {} is an array of no "
                                        "elements",
                                        m.name, t.record_type.getAsString()));
        ok = false;
        continue;
      }
      m.type = *mt;
      st.members.push_back(std::move(m));
    }
    if (ok && st.members.empty()) {
      diags_.error(use,
                   fmt::format("the element type {} has no members", t.record_type.getAsString()));
      ok = false;
    }
    if (ok)
      prog_.structs.push_back(std::move(st));
    user_types_[t.elem] = ok;
    return ok;
  }

  void new_domain(const clang::VarDecl *v, const clang::CallExpr *c, int rank) {
    Domain d;
    d.rank = rank;
    for (int i = 0; i + 1 < static_cast<int>(c->getNumArgs()); i += 2)
      d.ranges.emplace_back(host_value(c->getArg(i), ast::TypeName::Int),
                            host_value(c->getArg(i + 1), ast::TypeName::Int));
    domains_[v] = std::move(d);
  }

  // A host value a stencil uses (an extent, a bound, a scalar argument, the step count): the C
  // expression translated as a kernel's is (C's types, explicit conversions), where a host
  // variable or a whole object-like macro becomes a param of that name whose default is its
  // initializer (or expansion), translated the same way. `as` is the type the use needs.
  ast::ExprPtr host_value(const clang::Expr *e, ast::TypeName as) {
    const SourceLoc loc = locs_(e->getExprLoc());
    const clang::Expr *inner = strip(e);
    ast::ExprPtr v;
    std::optional<ast::TypeName> t = type_name(inner->getType());
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(inner);
        ref && llvm::isa<clang::VarDecl>(ref->getDecl())) {
      v = host_variable(llvm::cast<clang::VarDecl>(ref->getDecl()), loc);
    } else if (const std::string macro = whole_macro(e); !macro.empty() && t) {
      v = host_param(macro, *t, inner, loc, true);
    } else {
      Body host;
      host.host = true;
      v = value(inner, host);
    }
    if (!t) {
      diags_.error(loc, "a value a stencil uses must be a number");
      return make(K::Int, loc, "0");
    }
    if (as == ast::TypeName::Int && *t != ast::TypeName::Int) {
      diags_.error(loc, "this value must be an integer");
      return make(K::Int, loc, "0");
    }
    return *t == as ? v : make(K::Conv, loc, type_text(as), {v});
  }

  // The name of the object-like macro that `e` is the whole expansion of (N in New(N, N, N)).
  std::string whole_macro(const clang::Expr *e) const {
    const clang::SourceManager &sm = ctx_.getSourceManager();
    // Through the arguments of macros the expression is written in (PSGridEmit(g, ... N)).
    const clang::SourceLocation b = sm.getTopMacroCallerLoc(e->getBeginLoc()),
                                en = sm.getTopMacroCallerLoc(e->getEndLoc());
    if (!b.isMacroID() || sm.getExpansionLoc(b) != sm.getExpansionLoc(en) ||
        !clang::Lexer::isAtStartOfMacroExpansion(b, sm, ctx_.getLangOpts()) ||
        !clang::Lexer::isAtEndOfMacroExpansion(en, sm, ctx_.getLangOpts()))
      return "";
    const std::string name = clang::Lexer::getImmediateMacroName(b, sm, ctx_.getLangOpts()).str();
    // A function-like macro's arguments vary per use: only object-like macros are names.
    const clang::IdentifierInfo *id = &ctx_.Idents.get(name);
    return id->hasMacroDefinition() ? name : "";
  }

  ast::ExprPtr host_variable(const clang::VarDecl *var, SourceLoc loc) {
    const std::string name = var->getNameAsString();
    auto t = type_name(var->getType());
    if (!t) {
      diags_.error(loc, fmt::format("'{}' has type {}: a value a stencil uses must be an int, "
                                    "float or double",
                                    name, var->getType().getAsString()));
      return make(K::Int, loc, "0");
    }
    if (!var->getInit()) {
      diags_.error(loc, fmt::format("'{}' has no initializer: a value a stencil uses must be "
                                    "given where the variable is declared",
                                    name));
      return make(K::Int, loc, "0");
    }
    if (modified_.count(var)) {
      diags_.error(loc, fmt::format("'{}' changes after its declaration (an assignment, ++ or "
                                    "its address taken): a value a stencil uses must be fixed "
                                    "by its initializer (for now)",
                                    name));
      return make(K::Int, loc, "0");
    }
    return host_param(name, *t, var->getInit(), loc, false);
  }

  // `macro`: `init` is the macro's own expansion (not translated as the macro again).
  ast::ExprPtr host_param(const std::string &name, ast::TypeName t, const clang::Expr *init,
                          SourceLoc loc, bool macro) {
    auto it = params_.find(name);
    if (it == params_.end()) {
      params_[name] = -1; // being translated: a cycle is not possible in C, but be safe
      Body host;
      host.host = true;
      host.in_macro = macro;
      ast::Param p;
      p.loc = locs_(init->getExprLoc());
      p.type = t;
      p.name = name;
      p.init = value(init, host);
      names_.insert(name);
      params_[name] = static_cast<int>(prog_.params.size());
      prog_.params.push_back(p);
    } else if (it->second >= 0 && prog_.params[it->second].type != t) {
      diags_.error(loc, fmt::format("'{}' is used as both {} and {}: stencilc's params have one "
                                    "type",
                                    name, type_text(prog_.params[it->second].type), type_text(t)));
    }
    return make(K::Name, loc, name);
  }

  // Host variables whose value changes after their declaration.
  void find_modified(const clang::Stmt *body) { collect_modified(body, modified_); }

  const clang::VarDecl *var_of(const clang::Expr *e) const {
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(strip(e)))
      return llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    return nullptr;
  }

  // The map an argument of PSStencilRun names: a PSStencil variable's or one written there.
  const clang::CallExpr *map_of(const clang::Expr *a) const {
    if (const clang::VarDecl *v = var_of(a)) {
      auto it = maps_.find(v);
      return it != maps_.end() ? it->second : nullptr;
    }
    if (const clang::CallExpr *pc = ps_call(a)) {
      const std::string n = callee_name(pc);
      if (n == "__PSStencilMap" || n == "__PSStencilMapRedBlack")
        return pc;
    }
    return nullptr;
  }

  // A PSStencilRun: its maps make a run block, the same maps again (the same PSStencil
  // variables, in the same order: a warm-up, then the timed run) the same block with the call's
  // own count. Which block is the main one is decided once main() is read (finish_runs).
  void stencil_run(const clang::CallExpr *c, int depth) {
    const SourceLoc loc = locs_(c->getBeginLoc());
    if (c->getNumArgs() < 2) {
      diags_.error(loc, "PSStencilRun takes the stencils to run and then the number of "
                        "iterations");
      return;
    }
    std::vector<const clang::CallExpr *> maps;
    for (unsigned i = 0; i + 1 < c->getNumArgs(); ++i)
      maps.push_back(map_of(c->getArg(i)));
    if (std::find(maps.begin(), maps.end(), nullptr) == maps.end())
      for (std::size_t b = 0; b < runs_.size(); ++b)
        if (runs_[b].maps == maps) {
          runs_[b].depth = std::max(runs_[b].depth, depth);
          host_.runs.emplace_back(c, b);
          return;
        }
    RunBlock block;
    block.maps = maps;
    block.depth = depth;
    const clang::Expr *count = c->getArg(c->getNumArgs() - 1);
    clang::Expr::EvalResult value;
    if (count->EvaluateAsInt(value, ctx_))
      block.count = value.Val.getInt().getSExtValue();
    ast::Run &run = block.run;
    run.loc = loc;
    run.count = host_value(count, ast::TypeName::Int);
    for (unsigned i = 0; i + 1 < c->getNumArgs(); ++i) {
      const clang::Expr *a = c->getArg(i);
      const clang::CallExpr *map = maps[i];
      if (!map) {
        diags_.error(locs_(a->getExprLoc()),
                     "PSStencilRun's arguments before the count must be PSStencilMap(...) calls "
                     "or variables initialised with one");
        continue;
      }
      for (const std::string &k : kernels_of(map)) {
        ast::RunStmt rs;
        rs.kind = ast::RunStmt::Kind::Call;
        rs.loc = locs_(a->getExprLoc());
        rs.a = k;
        rs.a_loc = rs.loc;
        run.body.push_back(rs);
      }
    }
    host_.runs.emplace_back(c, runs_.size());
    runs_.push_back(std::move(block));
  }

  // The main run block: the one run deepest in main()'s loops and conditions, then the one
  // with the most iterations (a count the C compiler cannot evaluate counts as the most), then
  // the first. The others become named blocks, in the order of their first PSStencilRun, named
  // after the first kernel they run; the PSReduce calls after a PSStencilRun go to the main
  // block (so verify compares them with the interpreter's).
  void finish_runs() {
    if (runs_.empty())
      return;
    std::size_t main = 0;
    auto key = [&](const RunBlock &b) {
      return std::make_pair(b.depth, b.count ? *b.count : std::numeric_limits<std::int64_t>::max());
    };
    for (std::size_t b = 1; b < runs_.size(); ++b)
      if (key(runs_[b]) > key(runs_[main]))
        main = b;
    std::set<std::string> taken = {"state"};
    std::vector<std::string> names(runs_.size());
    for (std::size_t b = 0; b < runs_.size(); ++b) {
      if (b == main)
        continue;
      std::string base = runs_[b].run.body.empty() ? "block" : runs_[b].run.body.front().a;
      std::string n = base;
      for (int i = 2; taken.count(n); ++i)
        n = base + "_" + std::to_string(i);
      taken.insert(n);
      names[b] = n;
      runs_[b].run.name = n;
      runs_[b].run.name_loc = runs_[b].run.loc;
    }
    runs_[main].run.body.insert(runs_[main].run.body.end(), after_run_.begin(), after_run_.end());
    for (auto &b : runs_)
      prog_.runs.push_back(std::move(b.run));
    for (const auto &run : host_.runs)
      host_.run_blocks.push_back(names[run.second]);
  }

  void reduce(const clang::CallExpr *c) {
    const SourceLoc loc = locs_(c->getBeginLoc());
    if (c->getNumArgs() != 3) {
      diags_.error(loc, "PSReduce takes (&result, operator, grid)");
      return;
    }
    const clang::Expr *out = strip(c->getArg(0));
    const clang::VarDecl *res = nullptr;
    if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(out))
      if (u->getOpcode() == clang::UO_AddrOf)
        res = var_of(u->getSubExpr());
    const clang::VarDecl *gv = var_of(c->getArg(2));
    auto git = gv ? grid_index_.find(gv) : grid_index_.end();
    if (!res || git == grid_index_.end()) {
      diags_.error(loc, "PSReduce takes the address of a variable and a grid: PSReduce(&v, PS_SUM, g)");
      return;
    }
    std::string op;
    clang::Expr::EvalResult r;
    if (c->getArg(1)->EvaluateAsRValue(r, ctx_) && r.Val.isInt())
      switch (r.Val.getInt().getSExtValue()) {
      case 0:
        op = "max";
        break;
      case 1:
        op = "min";
        break;
      case 2:
        op = "sum";
        break;
      case 3:
        op = "prod";
        break;
      default:
        diags_.error(locs_(c->getArg(1)->getExprLoc()),
                     "PSReduce's operator must be PS_MAX, PS_MIN, PS_SUM or PS_PROD");
        return;
      }
    const Grid &g = grids_[git->second];
    if (g.type.record) {
      diags_.error(loc, fmt::format("PSReduce of grid '{}', whose elements are {}: stencilc "
                                    "reduces grids of numbers (reduce a member in a grid of its "
                                    "own)",
                                    g.name, g.type.record_type.getAsString()));
      return;
    }
    ast::Reduce red;
    red.loc = loc;
    red.name = unique(res->getNameAsString());
    static const char *idx[] = {"x", "y", "z"};
    std::vector<ast::ExprPtr> subs;
    for (int d = 0; d < g.type.rank; ++d) {
      red.indices.push_back(idx[d]);
      red.index_locs.push_back(loc);
      subs.push_back(make(K::Name, loc, idx[d]));
    }
    red.op = op;
    red.op_loc = locs_(c->getArg(1)->getExprLoc());
    auto access = make(K::Access, loc, g.name, subs);
    red.value = access;
    host_.reduces.emplace_back(c, red.name);
    prog_.reduces.push_back(red);
    // The host code computes it where it calls PSReduce (Stencil::compute_NAME()); after a
    // run, the main run block computes it too, so that verify compares it with the
    // interpreter's (finish_runs).
    if (runs_.empty())
      return;
    ast::RunStmt rs;
    rs.kind = ast::RunStmt::Kind::Call;
    rs.loc = loc;
    rs.a = red.name;
    rs.a_loc = loc;
    after_run_.push_back(rs);
  }

  std::string unique(std::string name) {
    std::string n = name;
    for (int i = 2; !names_.insert(n).second; ++i)
      n = name + "_" + std::to_string(i);
    return n;
  }

  // The kernels a map becomes (a red-black map: the red sweep, then the black one); each map
  // is translated once.
  std::vector<std::string> kernels_of(const clang::CallExpr *map) {
    auto it = map_kernels_.find(map);
    if (it != map_kernels_.end())
      return it->second;
    std::vector<std::string> out;
    const bool red_black = callee_name(map) == "__PSStencilMapRedBlack";
    for (const char *colour : red_black ? std::vector<const char *>{"red", "black"}
                                        : std::vector<const char *>{nullptr})
      if (auto k = kernel(map, colour))
        out.push_back(*k);
    map_kernels_[map] = out;
    return out;
  }

  // ---- kernels ----

  std::optional<std::string> kernel(const clang::CallExpr *map, const char *colour) {
    const SourceLoc loc = locs_(map->getBeginLoc());
    const clang::FunctionDecl *fn = nullptr;
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(map->getArg(0)->IgnoreParenCasts()))
      fn = llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl());
    if (!fn || !fn->getDefinition()) {
      diags_.error(loc, "the first argument of PSStencilMap must be a kernel function defined "
                        "in this file");
      return std::nullopt;
    }
    fn = fn->getDefinition();
    host_.kernels.insert(fn->getCanonicalDecl());
    if (map->getNumArgs() < 2) {
      diags_.error(loc, "PSStencilMap takes a kernel, a domain and the kernel's arguments");
      return std::nullopt;
    }
    const clang::VarDecl *dv = var_of(map->getArg(1));
    auto dit = dv ? domains_.find(dv) : domains_.end();
    if (dit == domains_.end()) {
      diags_.error(locs_(map->getArg(1)->getExprLoc()),
                   "the second argument of PSStencilMap must be a domain made by PSDomainNew");
      return std::nullopt;
    }
    const Domain &dom = dit->second;
    const unsigned rank = static_cast<unsigned>(dom.rank);
    if (fn->getNumParams() < rank ||
        fn->getNumParams() - rank != map->getNumArgs() - 2) {
      diags_.error(loc, fmt::format("kernel '{}' takes {} index parameters for a {}-dimensional "
                                    "domain and {} more, but the map passes {} arguments after "
                                    "the domain",
                                    fn->getNameAsString(), rank, rank,
                                    fn->getNumParams() >= rank ? fn->getNumParams() - rank : 0,
                                    map->getNumArgs() - 2));
      return std::nullopt;
    }
    Body b;
    for (unsigned i = 0; i < rank; ++i) {
      const clang::ParmVarDecl *p = fn->getParamDecl(i);
      if (!p->getType()->isIntegerType()) {
        diags_.error(locs_(p->getLocation()),
                     fmt::format("parameter {} of kernel '{}' must be an integer index (the "
                                 "first {} parameters are the point's indices)",
                                 i + 1, fn->getNameAsString(), rank));
        return std::nullopt;
      }
      b.index[p] = p->getNameAsString();
      b.indices.push_back(p->getNameAsString());
      b.index_locs.push_back(locs_(p->getLocation()));
    }
    const Grid *domain_grid = nullptr;
    for (unsigned i = rank; i < fn->getNumParams(); ++i) {
      const clang::ParmVarDecl *p = fn->getParamDecl(i);
      const clang::Expr *arg = map->getArg(i - rank + 2);
      if (grid_type(p->getType())) {
        const clang::VarDecl *gv = var_of(arg);
        auto git = gv ? grid_index_.find(gv) : grid_index_.end();
        if (git == grid_index_.end()) {
          diags_.error(locs_(arg->getExprLoc()), "a grid parameter needs a grid variable here");
          return std::nullopt;
        }
        b.grid[p] = git->second;
        if (!domain_grid)
          domain_grid = &grids_[git->second];
      } else if (auto t = type_name(p->getType())) {
        b.scalar[p] = host_value(arg, *t);
      } else {
        diags_.error(locs_(p->getLocation()),
                     fmt::format("parameter '{}' of kernel '{}' has type {}: kernels take "
                                 "indices, grids and int, float or double scalars",
                                 p->getNameAsString(), fn->getNameAsString(),
                                 p->getType().getAsString()));
        return std::nullopt;
      }
    }
    ast::Kernel k;
    k.loc = locs_(fn->getLocation());
    k.name = unique(fn->getNameAsString() + (colour ? std::string("_") + colour : ""));
    // A kernel's locals need names unique in the kernel only.
    const std::set<std::string> global_names = names_;
    for (const auto &i : b.indices)
      names_.insert(i);
    k.indices = b.indices;
    k.index_locs = b.index_locs;
    k.domain.loc = locs_(map->getArg(1)->getExprLoc());
    if (colour) {
      k.domain.kind = ast::Domain::Kind::Colour;
      k.domain.colour = colour;
      if (!whole(dom, domain_grid)) // the colour of the sub-domain's cells: `on red [...]`
        k.domain.ranges = dom.ranges;
    } else if (!whole(dom, domain_grid)) {
      k.domain.kind = ast::Domain::Kind::Range;
      k.domain.ranges = dom.ranges;
    }
    b.out = &k.body;
    statements(fn->getBody(), b, false);
    names_ = global_names; // and the params the body made (macros it uses)
    for (const auto &param : params_)
      names_.insert(param.first);
    if (b.emits == 0)
      diags_.error(k.loc, fmt::format("kernel '{}' never calls PSGridEmit: it computes nothing",
                                      fn->getNameAsString()));
    prog_.kernels.push_back(std::move(k));
    return prog_.kernels.back().name;
  }

  // Whether a domain is [0, extent) in every dimension of the grid, written the same way (a
  // domain PSDomain3DNew(0, N, 0, N, 0, N) of a grid PSGrid3DFloatNew(N, N, N)).
  static bool same(const ast::ExprPtr &a, const ast::ExprPtr &b) {
    if (a->kind != b->kind || a->text != b->text || a->args.size() != b->args.size())
      return false;
    for (std::size_t i = 0; i < a->args.size(); ++i)
      if (!same(a->args[i], b->args[i]))
        return false;
    return true;
  }
  static bool whole(const Domain &d, const Grid *g) {
    if (!g || static_cast<int>(g->extents.size()) != d.rank)
      return false;
    for (int i = 0; i < d.rank; ++i)
      if (d.ranges[i].first->kind != K::Int || d.ranges[i].first->text != "0" ||
          !same(d.ranges[i].second, g->extents[i]))
        return false;
    return true;
  }

  // What the translation of one kernel body knows.
  struct Body {
    std::map<const clang::ParmVarDecl *, std::string> index;
    std::vector<std::string> indices;
    std::vector<SourceLoc> index_locs;
    std::map<const clang::ParmVarDecl *, int> grid;
    std::map<const clang::ParmVarDecl *, ast::ExprPtr> scalar;
    std::map<const clang::VarDecl *, ast::ExprPtr> env; // a local's current value
    std::vector<ast::Stmt> *out = nullptr;
    bool host = false; // a host value: variables are the host's, as params
    bool in_macro = false; // translating a macro's expansion (the default of its param)
    int emits = 0;
    bool done = false; // after a return
    // Inside a function the kernel calls (inlined): its name, and the value it returns.
    std::string function;
    ast::ExprPtr returned;
    bool inline_nested = false; // the call is inside an if/else: locals are inlined too
  };

  void unsupported(const clang::Stmt *s, const std::string &what) {
    diags_.error(locs_(s->getBeginLoc()), what);
  }

  // A local's new value: a `let` with a fresh name at the top level of the body, the
  // expression itself inside an if/else (merged with ?: after it).
  void assign(const clang::VarDecl *v, ast::ExprPtr value, Body &b, bool nested, SourceLoc loc) {
    if (nested || b.inline_nested) {
      b.env[v] = value;
      return;
    }
    ast::Stmt st;
    st.kind = ast::Stmt::Kind::Let;
    st.loc = loc;
    st.name = unique(v->getNameAsString());
    st.value = value;
    b.out->push_back(st);
    b.env[v] = make(K::Name, loc, st.name);
  }

  void statements(const clang::Stmt *s, Body &b, bool nested) {
    if (!s || b.done)
      return;
    if (const auto *c = llvm::dyn_cast<clang::CompoundStmt>(s)) {
      for (const clang::Stmt *x : c->body())
        statements(x, b, nested);
      return;
    }
    if (llvm::isa<clang::NullStmt>(s))
      return;
    if (const auto *r = llvm::dyn_cast<clang::ReturnStmt>(s)) {
      if (nested)
        unsupported(r, b.function.empty()
                           ? "a return inside if/else in a kernel is not supported yet"
                           : "a return inside if/else in a function a kernel calls is not "
                             "supported yet: assign a local in both branches and return it");
      else if (!b.function.empty() && r->getRetValue())
        b.returned = value(r->getRetValue(), b);
      b.done = true;
      return;
    }
    if (const auto *ds = llvm::dyn_cast<clang::DeclStmt>(s)) {
      for (const clang::Decl *d : ds->decls()) {
        const auto *v = llvm::dyn_cast<clang::VarDecl>(d);
        if (!v) {
          unsupported(s, "only variable declarations are supported in kernels");
          continue;
        }
        if (!type_name(v->getType())) {
          diags_.error(locs_(v->getLocation()),
                       fmt::format("local '{}' has type {}: kernel locals are int, float or "
                                   "double (arrays and structs are not supported yet)",
                                   v->getNameAsString(), v->getType().getAsString()));
          continue;
        }
        if (v->hasInit())
          assign(v, value(v->getInit(), b), b, nested, locs_(v->getLocation()));
        else
          b.env[v] = nullptr;
      }
      return;
    }
    if (const auto *i = llvm::dyn_cast<clang::IfStmt>(s)) {
      if_else(i, b, nested);
      return;
    }
    if (const auto *f = llvm::dyn_cast<clang::ForStmt>(s)) {
      unroll(f, b, nested);
      return;
    }
    if (llvm::isa<clang::WhileStmt>(s) || llvm::isa<clang::DoStmt>(s)) {
      unsupported(s, "while and do loops in kernels are not supported: a for loop with "
                     "constant bounds is (it is unrolled)");
      return;
    }
    if (llvm::isa<clang::BreakStmt>(s) || llvm::isa<clang::ContinueStmt>(s)) {
      unsupported(s, "break and continue are not supported in kernel loops");
      return;
    }
    if (const auto *e = llvm::dyn_cast<clang::Expr>(s)) {
      expression_statement(e, b, nested);
      return;
    }
    unsupported(s, fmt::format("this statement ({}) is not supported in a kernel",
                               s->getStmtClassName()));
  }

  // A for loop with constant bounds, unrolled: `for (int i = A; i < B; i += C)` (or <=, >, >=,
  // !=, ++, --, -=) whose body leaves i alone runs its body once per value of i, with i a
  // constant each time -- so PSGridGet(g, x + i, y) is a read at a constant offset.
  void unroll(const clang::ForStmt *f, Body &b, bool nested) {
    const SourceLoc loc = locs_(f->getForLoc());
    auto refuse = [&](const std::string &why) {
      diags_.error(loc, "this loop cannot be unrolled: " + why + " (kernels take for loops "
                        "whose variable starts, ends and steps by constants and that the body "
                        "does not change)");
    };
    const clang::VarDecl *var = nullptr;
    std::int64_t start = 0;
    if (const auto *ds = llvm::dyn_cast_or_null<clang::DeclStmt>(f->getInit());
        ds && ds->isSingleDecl())
      var = llvm::dyn_cast<clang::VarDecl>(ds->getSingleDecl());
    else if (const auto *bo = llvm::dyn_cast_or_null<clang::BinaryOperator>(f->getInit());
             bo && bo->getOpcode() == clang::BO_Assign)
      var = var_of(bo->getLHS());
    const clang::Expr *init = nullptr;
    if (var && f->getInit() && llvm::isa<clang::DeclStmt>(f->getInit()))
      init = var->getInit();
    else if (var)
      init = llvm::cast<clang::BinaryOperator>(f->getInit())->getRHS();
    if (!var || !init || !var->getType()->isIntegerType() || !constant(init, start))
      return refuse("it must start with `int i = CONSTANT` (or `i = CONSTANT`)");
    const auto *cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(
        f->getCond() ? f->getCond()->IgnoreParenImpCasts() : nullptr);
    std::int64_t bound = 0;
    if (!cond || !cond->isComparisonOp() || var_of(cond->getLHS()) != var ||
        !constant(cond->getRHS(), bound))
      return refuse("its condition must compare the variable with a constant (i < N)");
    std::int64_t step = 0;
    const clang::Expr *inc = f->getInc() ? f->getInc()->IgnoreParens() : nullptr;
    if (const auto *u = llvm::dyn_cast_or_null<clang::UnaryOperator>(inc);
        u && u->isIncrementDecrementOp() && var_of(u->getSubExpr()) == var)
      step = u->isIncrementOp() ? 1 : -1;
    else if (const auto *ca = llvm::dyn_cast_or_null<clang::CompoundAssignOperator>(inc);
             ca && var_of(ca->getLHS()) == var && constant(ca->getRHS(), step))
      step = ca->getOpcode() == clang::BO_AddAssign   ? step
             : ca->getOpcode() == clang::BO_SubAssign ? -step
                                                      : 0;
    if (step == 0)
      return refuse("it must step by a non-zero constant (++i, i += 2, --i)");
    std::set<const clang::VarDecl *> changed;
    collect_modified(f->getBody(), changed);
    if (changed.count(var))
      return refuse("its body changes the loop variable");
    auto holds = [&](std::int64_t i) {
      switch (cond->getOpcode()) {
      case clang::BO_LT: return i < bound;
      case clang::BO_LE: return i <= bound;
      case clang::BO_GT: return i > bound;
      case clang::BO_GE: return i >= bound;
      case clang::BO_NE: return i != bound;
      default: return false;
      }
    };
    constexpr int kMaxTrips = 1024;
    int trips = 0;
    for (std::int64_t i = start; holds(i); i += step)
      if (++trips > kMaxTrips)
        return refuse(fmt::format("it runs more than {} times", kMaxTrips));
    for (std::int64_t i = start; holds(i) && !b.done; i += step) {
      b.env[var] = int_literal(i, loc);
      statements(f->getBody(), b, nested);
    }
    // After the loop the variable holds the first value that failed the test, as in C.
    std::int64_t last = start;
    while (holds(last))
      last += step;
    b.env[var] = int_literal(last, loc);
  }

  bool constant(const clang::Expr *e, std::int64_t &out) const {
    clang::Expr::EvalResult r;
    if (!e->EvaluateAsInt(r, ctx_))
      return false;
    out = r.Val.getInt().getSExtValue();
    return true;
  }

  static void collect_modified(const clang::Stmt *body, std::set<const clang::VarDecl *> &out) {
    struct Finder : clang::RecursiveASTVisitor<Finder> {
      std::set<const clang::VarDecl *> *out;
      void mark(const clang::Expr *e) {
        if (const auto *r = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts()))
          if (const auto *v = llvm::dyn_cast<clang::VarDecl>(r->getDecl()))
            out->insert(v);
      }
      bool VisitBinaryOperator(clang::BinaryOperator *b) {
        if (b->isAssignmentOp())
          mark(b->getLHS());
        return true;
      }
      bool VisitUnaryOperator(clang::UnaryOperator *u) {
        if (u->isIncrementDecrementOp() || u->getOpcode() == clang::UO_AddrOf)
          mark(u->getSubExpr());
        return true;
      }
    } f;
    f.out = &out;
    f.TraverseStmt(const_cast<clang::Stmt *>(body));
  }

  void expression_statement(const clang::Expr *e, Body &b, bool nested) {
    e = e->IgnoreParens();
    if (const auto *call = llvm::dyn_cast<clang::CallExpr>(e)) {
      const std::string n = callee_name(call);
      if (n.rfind("__PSGridEmit", 0) == 0 || n == "__PSGridUserType") {
        emit(call, b, nested);
        return;
      }
      unsupported(e, fmt::format("a call to '{}' as a statement does nothing a stencil keeps",
                                 n.empty() ? "a function pointer" : n));
      return;
    }
    if (const auto *bo = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      const auto *v = var_of(bo->getLHS());
      if (bo->isAssignmentOp() && v && b.env.count(v)) {
        ast::ExprPtr rhs = value(bo->getRHS(), b);
        if (const auto *ca = llvm::dyn_cast<clang::CompoundAssignOperator>(bo)) {
          // v op= e: computed in the computation type, then converted to v's type, as C does.
          const SourceLoc loc = locs_(bo->getOperatorLoc());
          ast::ExprPtr cur = local(v, b, loc);
          cur = convert(cur, v->getType(), ca->getComputationLHSType(), loc);
          ast::ExprPtr r = arithmetic(clang::BinaryOperator::getOpForCompoundAssignment(
                                          bo->getOpcode()),
                                      cur, rhs, loc, bo);
          rhs = convert(r, ca->getComputationResultType(), v->getType(), loc);
        }
        assign(v, rhs, b, nested, locs_(bo->getOperatorLoc()));
        return;
      }
    }
    if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(e))
      if (u->isIncrementDecrementOp())
        if (const auto *v = var_of(u->getSubExpr()); v && b.env.count(v)) {
          const SourceLoc loc = locs_(u->getOperatorLoc());
          ast::ExprPtr one = convert(make(K::Int, loc, "1"), ctx_.IntTy, v->getType(), loc);
          assign(v, make(u->isIncrementOp() ? K::Add : K::Sub, loc, "", {local(v, b, loc), one}),
                 b, nested, loc);
          return;
        }
    unsupported(e, "only assignments to locals and PSGridEmit are supported as kernel "
                   "statements");
  }

  void emit(const clang::CallExpr *call, Body &b, bool nested) {
    const SourceLoc loc = locs_(call->getBeginLoc());
    ++b.emits;
    if (!b.function.empty()) {
      diags_.error(loc, fmt::format("PSGridEmit in '{}', a function a kernel calls: only the "
                                    "kernel itself may emit (return the value instead)",
                                    b.function));
      return;
    }
    if (nested) {
      diags_.error(loc, "PSGridEmit inside if/else is not supported yet: compute the value with "
                        "?: (or a local assigned in both branches) and emit it once");
      return;
    }
    if (callee_name(call) == "__PSGridEmitUtype") {
      emit_utype(call, b);
      return;
    }
    if (callee_name(call) == "__PSGridUserType") {
      diags_.error(loc, "PSGridEmit of a grid of a user-defined type: write a member, "
                        "PSGridEmitUtype(g.member, v)");
      return;
    }
    const int g = grid_param(call->getArg(0), b);
    if (g < 0)
      return;
    emit_to(g, "", {}, value(call->getArg(1), b), loc, b);
  }

  // The assignment of `v` to grid g (a member of its element, if given) at the kernel's point.
  void emit_to(int g, const std::string &member, const std::vector<int> &index, ast::ExprPtr v,
               SourceLoc loc, Body &b) {
    std::vector<ast::ExprPtr> subs;
    for (const auto &i : b.indices)
      subs.push_back(make(K::Name, loc, i));
    if (static_cast<int>(subs.size()) != grids_[g].type.rank) {
      diags_.error(loc, fmt::format("PSGridEmit to a {}-dimensional grid from a {}-dimensional "
                                    "kernel",
                                    grids_[g].type.rank, subs.size()));
      return;
    }
    ast::Stmt st;
    st.kind = ast::Stmt::Kind::Assign;
    st.loc = loc;
    st.target = with_member(make(K::Access, loc, grids_[g].name, subs), member, index, loc);
    st.value = std::move(v);
    b.out->push_back(st);
  }

  // PSGridEmitUtype(g.q, v), PSGridEmitUtype(g.r[i][1], v): physis.h passes the target as
  // text, "g.r[i][1]": a grid parameter, a member, indices that are constants or variables of
  // unrolled loops. PSGridEmitUtype(h, PSGridGet(g, ...)) copies a whole element.
  void emit_utype(const clang::CallExpr *call, Body &b) {
    const SourceLoc loc = locs_(call->getBeginLoc());
    const auto *lit = llvm::dyn_cast<clang::StringLiteral>(call->getArg(0)->IgnoreParenImpCasts());
    if (!lit || call->getNumArgs() != 2) {
      diags_.error(loc, "PSGridEmitUtype takes a grid's member and a value: "
                        "PSGridEmitUtype(g.member, v)");
      return;
    }
    static const std::regex target_re(
        R"(\s*([A-Za-z_]\w*)\s*(?:\.\s*([A-Za-z_]\w*)((?:\s*\[[^\[\]]+\])*))?\s*)");
    const std::string text = lit->getString().str();
    std::smatch m;
    if (!std::regex_match(text, m, target_re)) {
      diags_.error(loc, fmt::format("PSGridEmitUtype's target '{}' is not a grid parameter or "
                                    "one's member with constant indices (g.member, g.m[1][2])",
                                    text));
      return;
    }
    const clang::ParmVarDecl *param = nullptr;
    for (const auto &[p, g] : b.grid)
      if (p->getNameAsString() == m[1].str())
        param = p;
    if (!param) {
      diags_.error(loc, fmt::format("PSGridEmitUtype's target '{}' must be one of the kernel's "
                                    "grid parameters",
                                    m[1].str()));
      return;
    }
    const int g = b.grid.at(param);
    if (!grids_[g].type.record) {
      diags_.error(loc, fmt::format("PSGridEmitUtype to grid '{}' of numbers: write "
                                    "PSGridEmit({}, v)",
                                    m[1].str(), m[1].str()));
      return;
    }
    if (!m[2].matched) {
      // A whole element: the value must be one read whole; structs.cpp copies every member.
      const clang::MemberExpr *whole = element_read(call->getArg(1));
      if (!whole) {
        diags_.error(loc, fmt::format("PSGridEmitUtype({}, v) writes a whole element: v must be "
                                      "one read whole, PSGridGet(h, ...); or write a member, "
                                      "PSGridEmitUtype({}.member, v)",
                                      m[1].str(), m[1].str()));
        return;
      }
      emit_to(g, "", {}, read_element(whole, b), loc, b);
      return;
    }
    bool known = false;
    for (const clang::FieldDecl *f : grids_[g].type.record->fields())
      known = known || f->getNameAsString() == m[2].str();
    if (!known) {
      diags_.error(loc, fmt::format("PSGridEmitUtype's target '{}': {} has no member '{}'", text,
                                    grids_[g].type.record_type.getAsString(), m[2].str()));
      return;
    }
    std::vector<int> index;
    static const std::regex index_re(R"(\[([^\[\]]+)\])");
    const std::string idx_text = m[3].str();
    for (auto it = std::sregex_iterator(idx_text.begin(), idx_text.end(), index_re);
         it != std::sregex_iterator(); ++it) {
      const std::string i = (*it)[1].str();
      const std::optional<std::int64_t> v = text_index(i, b);
      if (!v) {
        const auto first = i.find_first_not_of(' '), last = i.find_last_not_of(' ');
        diags_.error(loc, fmt::format("index '{}' of PSGridEmitUtype's target '{}' must be "
                                      "computed from decimal constants and the variables of "
                                      "loops with constant bounds (+ - * / %)",
                                      i.substr(first, last - first + 1), text));
        return;
      }
      index.push_back(static_cast<int>(std::clamp<std::int64_t>(*v, -1, 1 << 30)));
    }
    emit_to(g, m[2].str(), index, value(call->getArg(1), b), loc, b);
  }

  int grid_param(const clang::Expr *e, Body &b) {
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(strip(e)))
      if (const auto *p = llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl())) {
        auto it = b.grid.find(p);
        if (it != b.grid.end())
          return it->second;
      }
    diags_.error(locs_(e->getExprLoc()), "a grid here must be one of the kernel's grid parameters");
    return -1;
  }

  void if_else(const clang::IfStmt *i, Body &b, bool nested) {
    const SourceLoc loc = locs_(i->getIfLoc());
    if (i->getInit() || i->getConditionVariable()) {
      unsupported(i, "an if with a declaration in its condition is not supported");
      return;
    }
    ast::ExprPtr c = condition(i->getCond(), b);
    Body t = b, e = b;
    t.inline_nested = e.inline_nested = true; // functions called in a branch: inlined whole
    statements(i->getThen(), t, true);
    if (i->getElse())
      statements(i->getElse(), e, true);
    b.emits = std::max(t.emits, e.emits);
    for (const auto &[v, before] : b.env) {
      const ast::ExprPtr a = t.env[v], z = e.env[v];
      if (a == before && z == before)
        continue;
      if (!a || !z) {
        b.env[v] = nullptr; // assigned in one branch only, unset before: unset after
        continue;
      }
      assign(v, make(K::Cond, loc, "", {c, a, z}), b, nested, loc);
    }
  }

  ast::ExprPtr local(const clang::VarDecl *v, Body &b, SourceLoc loc) {
    const ast::ExprPtr cur = b.env[v];
    if (!cur) {
      diags_.error(loc, fmt::format("local '{}' may be used before it is assigned",
                                    v->getNameAsString()));
      return make(K::Int, loc, "0");
    }
    return cur;
  }

  // `e` (of C type `from`) as C converts it to `to`.
  ast::ExprPtr convert(ast::ExprPtr e, clang::QualType from, clang::QualType to, SourceLoc loc) {
    auto f = type_name(from), t = type_name(to);
    if (!f || !t || *f == *t)
      return e;
    return make(K::Conv, loc, type_text(*t), {e});
  }

  static bool is_condition(const clang::Expr *e) {
    e = e->IgnoreParens();
    if (const auto *bo = llvm::dyn_cast<clang::BinaryOperator>(e))
      return bo->isComparisonOp() || bo->isLogicalOp();
    if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(e))
      return u->getOpcode() == clang::UO_LNot;
    return false;
  }

  // A C scalar used as a truth value: a comparison stays one; a number n becomes n != 0.
  ast::ExprPtr condition(const clang::Expr *e, Body &b) {
    const clang::Expr *x = e->IgnoreParenImpCasts();
    const SourceLoc loc = locs_(x->getExprLoc());
    if (const auto *bo = llvm::dyn_cast<clang::BinaryOperator>(x)) {
      if (bo->isLogicalOp())
        return make(bo->getOpcode() == clang::BO_LAnd ? K::And : K::Or, loc, "",
                    {condition(bo->getLHS(), b), condition(bo->getRHS(), b)});
      if (bo->isComparisonOp()) {
        K k = K::Lt;
        switch (bo->getOpcode()) {
        case clang::BO_LT: k = K::Lt; break;
        case clang::BO_LE: k = K::Le; break;
        case clang::BO_GT: k = K::Gt; break;
        case clang::BO_GE: k = K::Ge; break;
        case clang::BO_EQ: k = K::Eq; break;
        default: k = K::Ne; break;
        }
        return make(k, loc, "", {value(bo->getLHS(), b), value(bo->getRHS(), b)});
      }
    }
    if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(x))
      if (u->getOpcode() == clang::UO_LNot)
        return make(K::Not, loc, "", {condition(u->getSubExpr(), b)});
    return make(K::Ne, loc, "", {value(e, b), make(K::Int, loc, "0")});
  }

  ast::ExprPtr arithmetic(clang::BinaryOperatorKind op, ast::ExprPtr l, ast::ExprPtr r,
                          SourceLoc loc, const clang::Stmt *at) {
    switch (op) {
    case clang::BO_Add: return make(K::Add, loc, "", {l, r});
    case clang::BO_Sub: return make(K::Sub, loc, "", {l, r});
    case clang::BO_Mul: return make(K::Mul, loc, "", {l, r});
    case clang::BO_Div: return make(K::Div, loc, "", {l, r});
    case clang::BO_Rem: return make(K::Mod, loc, "", {l, r});
    default:
      unsupported(at, "bitwise, shift and comma operators are not supported in kernels");
      return make(K::Int, loc, "0");
    }
  }

  // A C scalar expression as a number (a comparison used as a number is c ? 1 : 0, as in C).
  // A constant object-like macro (NX - 1 in a kernel, as much as NX in PSGrid3DFloatNew) is a
  // param of its name, so `--set NX=...` changes every use of it together.
  ast::ExprPtr value(const clang::Expr *e, Body &b) {
    const SourceLoc loc = locs_(e->getExprLoc());
    // (Not on a conversion Clang wrapped around the macro: that is the macro's use, converted.)
    if (!b.in_macro && !llvm::isa<clang::ImplicitCastExpr>(e))
      if (auto t = type_name(e->getType()); t && e->isEvaluatable(ctx_))
        if (const std::string macro = whole_macro(e); !macro.empty())
          return host_param(macro, *t, e, loc, true);
    if (const auto *p = llvm::dyn_cast<clang::ParenExpr>(e))
      return value(p->getSubExpr(), b);
    if (const auto *gs = llvm::dyn_cast<clang::GenericSelectionExpr>(e))
      return value(gs->getResultExpr(), b); // physis.h's PSGridGet: the grid type's read
    if (llvm::isa<clang::MemberExpr, clang::ArraySubscriptExpr>(e))
      return member_read(e, b);
    if (const auto *ic = llvm::dyn_cast<clang::ImplicitCastExpr>(e)) {
      switch (ic->getCastKind()) {
      case clang::CK_IntegralToFloating:
      case clang::CK_FloatingCast:
      case clang::CK_FloatingToIntegral:
        return convert(value(ic->getSubExpr(), b), ic->getSubExpr()->getType(), ic->getType(), loc);
      default:
        return value(ic->getSubExpr(), b);
      }
    }
    if (const auto *cc = llvm::dyn_cast<clang::CStyleCastExpr>(e)) {
      if (!type_name(cc->getType())) {
        unsupported(e, "a cast to " + cc->getType().getAsString() + " in a kernel");
        return make(K::Int, loc, "0");
      }
      return convert(value(cc->getSubExpr(), b), cc->getSubExpr()->getType(), cc->getType(), loc);
    }
    if (is_condition(e))
      return make(K::Cond, loc, "", {condition(e, b), make(K::Int, loc, "1"),
                                     make(K::Int, loc, "0")});
    if (const auto *il = llvm::dyn_cast<clang::IntegerLiteral>(e))
      return make(K::Int, loc, std::to_string(il->getValue().getSExtValue()));
    if (const auto *fl = llvm::dyn_cast<clang::FloatingLiteral>(e)) {
      const auto t = type_name(fl->getType());
      if (!t) {
        unsupported(e, "long double literals are not supported");
        return make(K::Int, loc, "0");
      }
      // C's literal has a fixed type; stencilc's unsuffixed literal adapts, so say which.
      return float_literal(fl->getValue().convertToDouble(), type_text(*t), loc);
    }
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e))
      return reference(ref, b);
    if (const auto *bo = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      if (bo->isAssignmentOp()) {
        unsupported(e, "an assignment inside an expression is not supported in kernels");
        return make(K::Int, loc, "0");
      }
      return arithmetic(bo->getOpcode(), value(bo->getLHS(), b), value(bo->getRHS(), b),
                        locs_(bo->getOperatorLoc()), bo);
    }
    if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
      if (u->getOpcode() == clang::UO_Minus)
        return make(K::Neg, loc, "", {value(u->getSubExpr(), b)});
      if (u->getOpcode() == clang::UO_Plus)
        return value(u->getSubExpr(), b);
      unsupported(e, "this operator is not supported in kernels (no ++, --, &, *, ~ inside "
                     "expressions)");
      return make(K::Int, loc, "0");
    }
    if (const auto *co = llvm::dyn_cast<clang::ConditionalOperator>(e))
      return make(K::Cond, loc, "", {condition(co->getCond(), b), value(co->getTrueExpr(), b),
                                     value(co->getFalseExpr(), b)});
    if (const auto *call = llvm::dyn_cast<clang::CallExpr>(e))
      return function_call(call, b);
    unsupported(e, fmt::format("this expression ({}) is not supported in a kernel",
                               e->getStmtClassName()));
    return make(K::Int, loc, "0");
  }

  ast::ExprPtr reference(const clang::DeclRefExpr *ref, Body &b) {
    const SourceLoc loc = locs_(ref->getLocation());
    const clang::ValueDecl *d = ref->getDecl();
    if (const auto *p = llvm::dyn_cast<clang::ParmVarDecl>(d)) {
      if (auto it = b.index.find(p); it != b.index.end())
        return make(K::Name, loc, it->second);
      if (auto it = b.scalar.find(p); it != b.scalar.end())
        return it->second;
      if (b.host) {
        diags_.error(loc, fmt::format("'{}' is a parameter of main(), known only when the "
                                      "program runs: a value a stencil uses must be a constant "
                                      "(a literal, a macro, or a variable initialised with one)",
                                      p->getNameAsString()));
        return make(K::Int, loc, "0");
      }
      diags_.error(loc, fmt::format("grid '{}' used as a number: read it with PSGridGet",
                                    p->getNameAsString()));
      return make(K::Int, loc, "0");
    }
    if (const auto *v = llvm::dyn_cast<clang::VarDecl>(d)) {
      if (b.env.count(v))
        return local(v, b, loc);
      if (b.host)
        return host_variable(v, loc);
      // A global constant: its value.
      clang::Expr::EvalResult r;
      if (v->getInit() && v->getType().isConstQualified() &&
          v->getInit()->EvaluateAsRValue(r, ctx_)) {
        if (r.Val.isInt())
          return int_literal(r.Val.getInt().getSExtValue(), loc);
        if (r.Val.isFloat())
          if (auto t = type_name(v->getType()))
            return float_literal(r.Val.getFloat().convertToDouble(), type_text(*t), loc);
      }
      diags_.error(loc, fmt::format("kernels can read their parameters, their locals and "
                                    "global constants; '{}' is none of these",
                                    v->getNameAsString()));
      return make(K::Int, loc, "0");
    }
    if (const auto *en = llvm::dyn_cast<clang::EnumConstantDecl>(d))
      return int_literal(en->getInitVal().getSExtValue(), loc);
    diags_.error(loc, "this name cannot be used in a kernel");
    return make(K::Int, loc, "0");
  }

  // A read of grid `grid` (a kernel's grid parameter) at `subs`: g[...], or periodic(g[...]).
  ast::ExprPtr grid_read(const clang::Expr *grid_expr, const std::vector<const clang::Expr *> &args,
                         bool periodic, SourceLoc loc, Body &b) {
    const int g = grid_param(grid_expr, b);
    if (g < 0)
      return make(K::Int, loc, "0");
    std::vector<ast::ExprPtr> subs;
    bool offset = false;
    for (const clang::Expr *a : args) {
      subs.push_back(subscript(value(a, b)));
      offset = offset || subs.back()->kind != K::Name;
    }
    Grid &grid = grids_[g];
    if (periodic && !grid.periodic_read) {
      grid.periodic_read = true;
      grid.periodic_loc = loc;
    }
    if (!periodic && offset)
      grid.plain_offset_read = true;
    // Periodic per read (sema's periodic_reads.cpp); a grid only ever read so gets periodic
    // faces instead (finish_grids), and the read is then a plain one.
    ast::ExprPtr access = make(K::Access, loc, grid.name, subs);
    return periodic ? make(K::Call, loc, "periodic", {access}) : access;
  }

  // The same read with a member of the element: in the access (inside periodic(...) too).
  static ast::ExprPtr with_member(const ast::ExprPtr &read, const std::string &member,
                                  const std::vector<int> &index, SourceLoc loc) {
    if (read->kind == K::Call) {
      auto c = std::make_shared<ast::Expr>(*read);
      c->args[0] = with_member(read->args[0], member, index, loc);
      return c;
    }
    if (read->kind != K::Access)
      return read; // reported
    auto a = std::make_shared<ast::Expr>(*read);
    a->member = member;
    a->member_index = index;
    a->member_loc = loc;
    return a;
  }

  // A read of a whole element of a grid of a user-defined type, (g)[AT(i, j, k)].__elem as
  // physis.h writes PSGridGet: the read, or null if `e` is not one.
  const clang::MemberExpr *element_read(const clang::Expr *e) const {
    const auto *m = llvm::dyn_cast<clang::MemberExpr>(e->IgnoreParenImpCasts());
    if (!m || m->getMemberDecl()->getNameAsString() != "__elem")
      return nullptr;
    const auto *at = llvm::dyn_cast<clang::ArraySubscriptExpr>(m->getBase()->IgnoreParenImpCasts());
    const auto *c =
        at ? llvm::dyn_cast<clang::CallExpr>(at->getIdx()->IgnoreParenImpCasts()) : nullptr;
    const std::string n = c ? callee_name(c) : "";
    return n == "__PSGridGetUserAt" || n == "__PSGridGetPeriodicUserAt" ? m : nullptr;
  }

  ast::ExprPtr read_element(const clang::MemberExpr *m, Body &b) {
    const auto *at = llvm::cast<clang::ArraySubscriptExpr>(m->getBase()->IgnoreParenImpCasts());
    const auto *c = llvm::cast<clang::CallExpr>(at->getIdx()->IgnoreParenImpCasts());
    std::vector<const clang::Expr *> subs(c->arg_begin(), c->arg_end());
    const SourceLoc loc = locs_(at->getBeginLoc());
    ast::ExprPtr r =
        grid_read(at->getBase(), subs, callee_name(c) == "__PSGridGetPeriodicUserAt", loc, b);
    const int g = grid_param(at->getBase(), b);
    if (g >= 0 && static_cast<int>(subs.size()) != grids_[g].type.rank)
      diags_.error(loc, fmt::format("PSGridGet of the {}-dimensional grid '{}' with {} indices",
                                    grids_[g].type.rank, grids_[g].name, subs.size()));
    return r;
  }

  // PSGridGet(g, x, y, z).r[1][0]: a member of an element (arrays indexed by constants).
  ast::ExprPtr member_read(const clang::Expr *e, Body &b) {
    const SourceLoc loc = locs_(e->getExprLoc());
    std::vector<int> index;
    const clang::Expr *cur = e->IgnoreParenImpCasts();
    while (const auto *as = llvm::dyn_cast<clang::ArraySubscriptExpr>(cur)) {
      // A constant (macros included), or one once unrolled loops' variables are known (1 - i).
      std::int64_t v = 0;
      if (!constant(as->getIdx(), v)) {
        const std::optional<std::int64_t> folded = fold_constant(value(as->getIdx(), b));
        if (!folded) {
          diags_.error(locs_(as->getIdx()->getExprLoc()),
                       "the index of an array member must be a constant (or computed from the "
                       "variables of loops with constant bounds)");
          return make(K::Int, loc, "0");
        }
        v = *folded;
      }
      index.insert(index.begin(), static_cast<int>(std::clamp<std::int64_t>(v, -1, 1 << 30)));
      cur = as->getBase()->IgnoreParenImpCasts();
    }
    const auto *m = llvm::dyn_cast<clang::MemberExpr>(cur);
    const clang::MemberExpr *elem = m ? element_read(m->getBase()) : nullptr;
    if (element_read(e)) {
      diags_.error(loc, "a whole element of a grid of a user-defined type used as a value: read "
                        "a member, PSGridGet(g, ...).member (or copy it whole with "
                        "PSGridEmitUtype(h, PSGridGet(g, ...)))");
      return make(K::Int, loc, "0");
    }
    if (!elem) {
      unsupported(e, m && m->getBase()->getType()->isStructureType()
                         ? "a member of a member of a grid's element (a nested struct) is not "
                           "supported: the members of a grid's element type are numbers or "
                           "arrays of them"
                         : "only members of grid elements (PSGridGet(g, ...).member) and "
                           "constant indices into them are supported in kernels");
      return make(K::Int, loc, "0");
    }
    return with_member(read_element(elem, b), m->getMemberDecl()->getNameAsString(), index,
                       locs_(m->getMemberLoc()));
  }

  ast::ExprPtr function_call(const clang::CallExpr *call, Body &b) {
    const SourceLoc loc = locs_(call->getBeginLoc());
    const std::string n = callee_name(call);
    if (n == "__PSGridUserType") {
      diags_.error(loc, fmt::format("PSGridGet and PSGridEmit of a grid of a user-defined type "
                                    "read and write members: PSGridGet(g, ...).member, "
                                    "PSGridEmitUtype(g.member, v)"));
      return make(K::Int, loc, "0");
    }
    const bool periodic = n.rfind("__PSGridGetPeriodic", 0) == 0;
    if (periodic || n.rfind("__PSGridGet", 0) == 0) {
      std::vector<const clang::Expr *> subs(call->arg_begin() + 1, call->arg_end());
      return grid_read(call->getArg(0), subs, periodic, loc, b);
    }
    // A function of the program: inlined, its parameters bound to the arguments.
    if (const clang::FunctionDecl *fn = call->getDirectCallee(); fn && fn->getDefinition() &&
                                                                ctx_.getSourceManager().isInMainFile(
                                                                    fn->getDefinition()->getLocation()))
      return inline_call(call, fn->getDefinition(), b);
    // The math functions of <math.h> stencilc has, by their float or double names.
    static const std::map<std::string, std::string> math = {
        {"sqrt", "sqrt"},   {"sqrtf", "sqrt"}, {"exp", "exp"},     {"expf", "exp"},
        {"log", "log"},     {"logf", "log"},   {"sin", "sin"},     {"sinf", "sin"},
        {"cos", "cos"},     {"cosf", "cos"},   {"tan", "tan"},     {"tanf", "tan"},
        {"floor", "floor"}, {"floorf", "floor"}, {"fabs", "abs"},  {"fabsf", "abs"},
        {"abs", "abs"},     {"pow", "pow"},    {"powf", "pow"}};
    auto it = math.find(n);
    if (it == math.end()) {
      diags_.error(loc, fmt::format("kernels can call PSGridGet, PSGridGetPeriodic and the math "
                                    "functions sqrt, exp, log, sin, cos, tan, floor, fabs, abs "
                                    "and pow (and their float forms); '{}' is not one of them",
                                    n.empty() ? "this call" : n));
      return make(K::Int, loc, "0");
    }
    std::vector<ast::ExprPtr> args;
    for (const clang::Expr *a : call->arguments())
      args.push_back(value(a, b)); // Clang converted each to the parameter's type already
    return make(K::Call, loc, it->second, args);
  }

  // A subscript folded to `index`, `index + c` or `index - c` where it is one (x + k - 2 with
  // k = 3 from an unrolled loop is x + 1), as stencilc's offsets must be written; anything
  // else is left for sema to refuse, with its location.
  // The value of an integer expression of literals (after translation: an unrolled loop's
  // variable is a literal), or nothing.
  static std::optional<std::int64_t> fold_constant(const ast::ExprPtr &x) {
    if (!x)
      return std::nullopt; // a local not assigned yet
    switch (x->kind) {
    case K::Int:
      return x->text.size() < 19 ? std::optional<std::int64_t>(std::stoll(x->text)) : std::nullopt;
    case K::Conv:
      return x->text == "int" || x->text == "long" ? fold_constant(x->args[0]) : std::nullopt;
    case K::Neg: {
      auto a = fold_constant(x->args[0]);
      return a ? std::optional<std::int64_t>(-*a) : std::nullopt;
    }
    case K::Add:
    case K::Sub:
    case K::Mul:
    case K::Div:
    case K::Mod: {
      auto l = fold_constant(x->args[0]), r = fold_constant(x->args[1]);
      if (!l || !r || ((x->kind == K::Div || x->kind == K::Mod) && *r == 0) ||
          std::abs(*l) > (1 << 30) || std::abs(*r) > (1 << 30))
        return std::nullopt;
      return x->kind == K::Add   ? *l + *r
             : x->kind == K::Sub ? *l - *r
             : x->kind == K::Mul ? *l * *r
             : x->kind == K::Div ? *l / *r
                                 : *l % *r;
    }
    default: return std::nullopt;
    }
  }

  // An index written in PSGridEmitUtype's target text ("i + 1", "2*k"): decimal constants and
  // the variables of unrolled loops, with + - * / % and parentheses.
  std::optional<std::int64_t> text_index(const std::string &t, const Body &b) const {
    std::size_t pos = 0;
    std::function<std::optional<std::int64_t>()> sum, product, atom;
    auto skip = [&] {
      while (pos < t.size() && std::isspace(static_cast<unsigned char>(t[pos])))
        ++pos;
    };
    atom = [&]() -> std::optional<std::int64_t> {
      skip();
      if (pos >= t.size())
        return std::nullopt;
      if (t[pos] == '(') {
        ++pos;
        auto v = sum();
        skip();
        if (!v || pos >= t.size() || t[pos] != ')')
          return std::nullopt;
        ++pos;
        return v;
      }
      if (t[pos] == '-') {
        ++pos;
        auto v = atom();
        return v ? std::optional<std::int64_t>(-*v) : std::nullopt;
      }
      const std::size_t start = pos;
      while (pos < t.size() && (std::isalnum(static_cast<unsigned char>(t[pos])) || t[pos] == '_'))
        ++pos;
      const std::string word = t.substr(start, pos - start);
      if (word.empty() || word.size() > 9)
        return std::nullopt;
      if (std::isdigit(static_cast<unsigned char>(word[0])))
        return std::all_of(word.begin(), word.end(),
                           [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })
                   ? std::optional<std::int64_t>(std::stoll(word))
                   : std::nullopt;
      for (const auto &[var, val] : b.env)
        if (var->getNameAsString() == word)
          return fold_constant(val);
      return std::nullopt;
    };
    product = [&]() -> std::optional<std::int64_t> {
      auto v = atom();
      for (skip(); v && pos < t.size() && (t[pos] == '*' || t[pos] == '/' || t[pos] == '%');
           skip()) {
        const char op = t[pos++];
        auto r = atom();
        if (!r || (op != '*' && *r == 0) || std::abs(*v) > (1 << 30) || std::abs(*r) > (1 << 30))
          return std::nullopt;
        v = op == '*' ? *v * *r : op == '/' ? *v / *r : *v % *r;
      }
      return v;
    };
    sum = [&]() -> std::optional<std::int64_t> {
      auto v = product();
      for (skip(); v && pos < t.size() && (t[pos] == '+' || t[pos] == '-'); skip()) {
        const char op = t[pos++];
        auto r = product();
        if (!r || std::abs(*v) > (1 << 30) || std::abs(*r) > (1 << 30))
          return std::nullopt;
        v = op == '+' ? *v + *r : *v - *r;
      }
      return v;
    };
    auto v = sum();
    skip();
    return v && pos == t.size() ? v : std::nullopt;
  }

  ast::ExprPtr subscript(const ast::ExprPtr &e) {
    struct Affine {
      bool ok = true;
      std::string index; // "" for a constant
      std::int64_t c = 0;
    };
    std::function<Affine(const ast::ExprPtr &)> fold = [&](const ast::ExprPtr &x) -> Affine {
      Affine a;
      switch (x->kind) {
      case K::Int:
        a.c = std::stoll(x->text);
        return a;
      case K::Name:
        a.index = x->text;
        return a;
      case K::Neg: {
        a = fold(x->args[0]);
        a.ok = a.ok && a.index.empty();
        a.c = -a.c;
        return a;
      }
      case K::Add:
      case K::Sub: {
        Affine l = fold(x->args[0]), r = fold(x->args[1]);
        a.ok = l.ok && r.ok && r.index.empty() + l.index.empty() >= 1 &&
               (x->kind == K::Add || r.index.empty());
        a.index = l.index.empty() ? r.index : l.index;
        a.c = x->kind == K::Add ? l.c + r.c : l.c - r.c;
        return a;
      }
      case K::Mul:
      case K::Div:
      case K::Mod: {
        Affine l = fold(x->args[0]), r = fold(x->args[1]);
        a.ok = l.ok && r.ok && l.index.empty() && r.index.empty() &&
               (x->kind == K::Mul || r.c != 0);
        if (a.ok)
          a.c = x->kind == K::Mul ? l.c * r.c : x->kind == K::Div ? l.c / r.c : l.c % r.c;
        return a;
      }
      default:
        a.ok = false;
        return a;
      }
    };
    const Affine a = fold(e);
    if (!a.ok || a.index.empty())
      return e;
    ast::ExprPtr n = make(K::Name, e->loc, a.index);
    if (a.c == 0)
      return n;
    return make(a.c > 0 ? K::Add : K::Sub, e->loc, "",
                {n, make(K::Int, e->loc, std::to_string(a.c > 0 ? a.c : -a.c))});
  }

  // A call of a function defined in the program, inside a kernel: its body translated in
  // place (its locals become lets of the kernel, or expressions inside an if/else), its value
  // the one it returns. Grid parameters take the caller's grids; recursion is refused.
  ast::ExprPtr inline_call(const clang::CallExpr *call, const clang::FunctionDecl *fn, Body &b) {
    const SourceLoc loc = locs_(call->getBeginLoc());
    const std::string name = fn->getNameAsString();
    if (calling_.count(fn)) {
      diags_.error(loc, fmt::format("'{}' calls itself (recursion): kernels and the functions "
                                    "they call cannot recurse",
                                    name));
      return make(K::Int, loc, "0");
    }
    if (!type_name(fn->getReturnType())) {
      diags_.error(loc, fmt::format("'{}' returns {}: a function a kernel calls must return an "
                                    "int, float or double",
                                    name, fn->getReturnType().getAsString()));
      return make(K::Int, loc, "0");
    }
    Body cb;
    cb.function = name;
    cb.out = b.out;
    cb.inline_nested = b.inline_nested;
    for (unsigned i = 0; i < fn->getNumParams() && i < call->getNumArgs(); ++i) {
      const clang::ParmVarDecl *p = fn->getParamDecl(i);
      if (grid_type(p->getType())) {
        const int g = grid_param(call->getArg(i), b);
        if (g < 0)
          return make(K::Int, loc, "0");
        cb.grid[p] = g;
      } else if (type_name(p->getType())) {
        // Converted to the parameter's type by Clang; a computed argument becomes a let (at
        // the top of the kernel), so the function's uses of it do not repeat it.
        ast::ExprPtr a = value(call->getArg(i), b);
        const bool literal = a->kind == K::Int || (a->kind == K::Conv && a->args.size() == 1 &&
                                                   a->args[0]->kind == K::Float);
        if (!b.inline_nested && a->kind != K::Name && !literal) {
          ast::Stmt st;
          st.kind = ast::Stmt::Kind::Let;
          st.loc = locs_(call->getArg(i)->getExprLoc());
          st.name = unique(p->getNameAsString());
          st.value = a;
          b.out->push_back(st);
          a = make(K::Name, st.loc, st.name);
        }
        cb.scalar[p] = a;
      } else {
        diags_.error(locs_(p->getLocation()),
                     fmt::format("parameter '{}' of '{}' has type {}: functions a kernel calls "
                                 "take grids and int, float or double values",
                                 p->getNameAsString(), name, p->getType().getAsString()));
        return make(K::Int, loc, "0");
      }
    }
    calling_.insert(fn);
    statements(fn->getBody(), cb, false);
    calling_.erase(fn);
    if (!cb.returned) {
      diags_.error(loc, fmt::format("'{}' does not end with a return of its value", name));
      return make(K::Int, loc, "0");
    }
    return cb.returned;
  }

  // ---- grids, last: their boundaries depend on how the kernels read them ----

  void finish_grids() {
    for (Grid &g : grids_) {
      ast::Grid a;
      a.loc = g.loc;
      a.type = g.type.elem == "Float"    ? ast::TypeName::Float
               : g.type.elem == "Double" ? ast::TypeName::Double
               : g.type.elem == "Long"   ? ast::TypeName::Long
                                         : ast::TypeName::Int;
      if (g.type.record) {
        a.struct_type = g.type.elem;
        a.struct_loc = g.loc;
      }
      a.name = g.name;
      a.extents = g.extents;
      // A grid read with PSGridGetPeriodic wraps around; other reads outside a Physis grid are
      // undefined there, and read 0 here (stencilc's default boundary).
      if (g.periodic_read && !g.plain_offset_read) {
        a.has_boundary = true;
        ast::BoundaryItem item;
        item.loc = g.periodic_loc;
        item.kind = "periodic";
        item.kind_loc = g.periodic_loc;
        a.boundary.push_back(item);
      }
      prog_.grids.push_back(std::move(a));
    }
  }

  clang::ASTContext &ctx_;
  const SourceFile &file_;
  DiagEngine &diags_;
  const ClangLocations &locs_;
  ast::Program prog_;
  std::vector<Grid> grids_;
  std::map<const clang::VarDecl *, int> grid_index_;
  std::map<const clang::VarDecl *, Domain> domains_;
  std::map<const clang::VarDecl *, const clang::CallExpr *> maps_;
  std::map<const clang::CallExpr *, std::vector<std::string>> map_kernels_;
  std::map<std::string, int> params_;
  std::set<const clang::VarDecl *> modified_;
  std::set<const clang::FunctionDecl *> calling_; // functions being inlined (recursion)
  std::set<std::string> names_;
  std::map<std::string, bool> user_types_; // translated (and whether they are usable)
  // The run blocks, one per distinct list of maps PSStencilRun was called with.
  struct RunBlock {
    std::vector<const clang::CallExpr *> maps;
    ast::Run run;
    int depth = 0;                      // the deepest of its calls in main()'s control flow
    std::optional<std::int64_t> count;  // its first call's count, if the C compiler knows it
  };
  std::vector<RunBlock> runs_;
  std::vector<ast::RunStmt> after_run_; // reductions a PSReduce after a PSStencilRun computes
  PhysisHostCalls &host_;
};

} // namespace

std::optional<ast::Program> translate_physis(clang::ASTContext &ctx, const SourceFile &file,
                                             DiagEngine &diags, const ClangLocations &locs,
                                             PhysisHostCalls &host) {
  return Translator(ctx, file, diags, locs, host).run();
}

} // namespace stc
