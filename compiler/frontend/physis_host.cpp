// The host code of a Physis program, rewritten (physis_host.h). Every replacement keeps the
// number of lines it replaces, so the rewritten file's lines are the user's and one `#line`
// directive makes the C compiler's messages name the user's file and line.
#include "frontend/physis_host.h"

#include <algorithm>

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <fmt/format.h>

namespace stc {
namespace {

std::string callee(const clang::CallExpr *c) {
  const clang::FunctionDecl *f = c->getDirectCallee();
  return f ? f->getNameAsString() : "";
}

// Whether a function's body reads or writes a grid (PSGridGet, PSGridGetPeriodic, PSGridEmit):
// code that only exists inside a kernel.
bool touches_grids(const clang::FunctionDecl *f) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    bool found = false;
    bool VisitCallExpr(clang::CallExpr *c) {
      const std::string n = callee(c);
      found = found || n.rfind("__PSGridGet", 0) == 0 || n.rfind("__PSGridEmit", 0) == 0;
      return !found;
    }
  } finder;
  finder.TraverseStmt(f->getBody());
  return finder.found;
}

std::string c_string(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

class HostRewriter {
public:
  HostRewriter(clang::ASTContext &ctx, DiagEngine &diags, const ClangLocations &locs)
      : sm_(ctx.getSourceManager()), lo_(ctx.getLangOpts()), rw_(sm_, lo_), diags_(diags),
        locs_(locs) {}

  // The text of `e` as the user wrote it in the main file.
  std::string text(const clang::Expr *e) {
    return clang::Lexer::getSourceText(range(e->getSourceRange()), sm_, lo_).str();
  }

  clang::CharSourceRange range(clang::SourceRange r) const { return sm_.getExpansionRange(r); }

  // Replaces the expansion of `r` by `with`, padded with the newlines it loses.
  void replace(clang::SourceRange r, const std::string &with, clang::SourceLocation loc,
               const char *what) {
    const clang::CharSourceRange cr = range(r);
    if (!sm_.isWrittenInMainFile(cr.getBegin()) || !sm_.isWrittenInMainFile(cr.getEnd())) {
      diags_.error(locs_(loc), fmt::format("{} is not in the program's own file: stencilc "
                                           "rewrites the host code of the main file only",
                                           what));
      return;
    }
    const std::string old = clang::Lexer::getSourceText(cr, sm_, lo_).str();
    const auto lines = [](const std::string &s) { return std::count(s.begin(), s.end(), '\n'); };
    rw_.ReplaceText(cr, with + std::string(std::max<long>(0, lines(old) - lines(with)), '\n'));
  }

  // A call whose arguments are rewritten one by one must be written out in the main file (not
  // produced by a macro), so that each argument's text is the user's.
  bool written_out(const clang::CallExpr *c, const char *what) {
    if (c->getBeginLoc().isFileID() && c->getEndLoc().isFileID())
      return true;
    diags_.error(locs_(c->getBeginLoc()),
                 fmt::format("{} written through a macro: stencilc rewrites the host code's "
                             "calls as written, so write this call out",
                             what));
    return false;
  }

  void grid(const PhysisHostCalls::GridNew &g) {
    const clang::CallExpr *c = g.call;
    const std::string text =
        clang::Lexer::getSourceText(range(c->getSourceRange()), sm_, lo_).str();
    if (g.c_type.empty()) {
      replace(c->getSourceRange(),
              fmt::format("__stencilc_ps_bind({}, {})", text, c_string(g.name)), c->getBeginLoc(),
              "this PSGrid*New");
      return;
    }
    // The C compiler lays the struct out: the shim copies each member at its offset.
    std::string members;
    for (const auto &[grid, designator] : g.members)
      members += fmt::format(", {}, (long)__builtin_offsetof({}, {})", c_string(grid), g.c_type,
                             designator);
    replace(c->getSourceRange(),
            fmt::format("__stencilc_ps_bind_struct({}, {}, (long)sizeof({}){}, (const char *)0)",
                        text, c_string(g.name), g.c_type, members),
            c->getBeginLoc(), "this PSGrid*New");
  }

  void map(const clang::CallExpr *c) {
    replace(c->getSourceRange(), "(PSStencil)0", c->getBeginLoc(), "this PSStencilMap");
  }

  void run(const clang::CallExpr *c, const std::string &block) {
    if (!written_out(c, "PSStencilRun"))
      return;
    const std::string n = text(c->getArg(c->getNumArgs() - 1));
    replace(c->getSourceRange(),
            block.empty() ? fmt::format("__stencilc_ps_run({})", n)
                          : fmt::format("__stencilc_ps_run_block({}, {})", c_string(block), n),
            c->getBeginLoc(), "PSStencilRun");
  }

  void reduce(const clang::CallExpr *c, const std::string &name) {
    if (!written_out(c, "PSReduce"))
      return;
    // The result's C type: the shim converts the reduction's value to it.
    const clang::QualType t = c->getArg(0)->IgnoreParenImpCasts()->getType();
    const clang::QualType pointee =
        t->isPointerType() ? t->getPointeeType().getCanonicalType().getUnqualifiedType() : t;
    const auto *b = pointee->getAs<clang::BuiltinType>();
    char code = 0;
    if (b)
      switch (b->getKind()) {
      case clang::BuiltinType::Float: code = 'f'; break;
      case clang::BuiltinType::Double: code = 'd'; break;
      case clang::BuiltinType::Int: code = 'i'; break;
      case clang::BuiltinType::Long:
      case clang::BuiltinType::LongLong: code = 'l'; break;
      default: break;
      }
    if (!code) {
      diags_.error(locs_(c->getArg(0)->getExprLoc()),
                   fmt::format("PSReduce into a '{}': the result must be a float, double, int "
                               "or long",
                               pointee.getAsString()));
      return;
    }
    replace(c->getSourceRange(),
            fmt::format("__stencilc_ps_reduce({}, '{}', {}, {})", c_string(name), code,
                        text(c->getArg(0)), text(c->getArg(2))),
            c->getBeginLoc(), "PSReduce");
  }

  // A function that only a kernel can run: a comment of as many lines instead.
  void drop(const clang::FunctionDecl *f, const char *why) {
    replace(f->getSourceRange(),
            fmt::format("/* {}: {} (stencilc: it is in the generated code) */",
                        f->getNameAsString(), why),
            f->getLocation(), "this kernel");
  }

  std::string result(const std::string &path) {
    std::string body;
    if (const clang::RewriteBuffer *b = rw_.getRewriteBufferFor(sm_.getMainFileID()))
      body.assign(b->begin(), b->end());
    else
      body = sm_.getBufferData(sm_.getMainFileID()).str();
    return "#line 1 " + c_string(path) + "\n" + body;
  }

private:
  clang::SourceManager &sm_;
  const clang::LangOptions &lo_;
  clang::Rewriter rw_;
  DiagEngine &diags_;
  const ClangLocations &locs_;
};

} // namespace

std::optional<std::string> rewrite_physis_host(clang::ASTContext &ctx, const PhysisHostCalls &calls,
                                               const std::string &path, DiagEngine &diags,
                                               const ClangLocations &locs) {
  const bool had_errors = diags.has_errors();
  HostRewriter rw(ctx, diags, locs);
  const clang::SourceManager &sm = ctx.getSourceManager();
  for (const clang::Decl *d : ctx.getTranslationUnitDecl()->decls()) {
    const auto *f = llvm::dyn_cast<clang::FunctionDecl>(d);
    if (!f || !f->doesThisDeclarationHaveABody() || !sm.isInMainFile(f->getLocation()))
      continue;
    if (calls.kernels.count(f->getCanonicalDecl()))
      rw.drop(f, "a kernel");
    else if (touches_grids(f))
      rw.drop(f, "reads grids, so only kernels call it");
  }
  for (const auto &g : calls.grids)
    rw.grid(g);
  for (const clang::CallExpr *c : calls.maps)
    rw.map(c);
  for (std::size_t i = 0; i < calls.runs.size(); ++i)
    rw.run(calls.runs[i].first, i < calls.run_blocks.size() ? calls.run_blocks[i] : "");
  for (const auto &[c, name] : calls.reduces)
    rw.reduce(c, name);
  if (diags.has_errors() && !had_errors)
    return std::nullopt;
  return rw.result(path);
}

} // namespace stc
