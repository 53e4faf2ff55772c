#include "frontend/parse.h"

#include <cctype>

#include "StnLexer.h"
#include "StnParser.h"
#include "antlr4-runtime.h"

namespace stc {
namespace {

SourceLoc loc_of(const antlr4::Token *t) {
  return {static_cast<int>(t->getLine()), static_cast<int>(t->getCharPositionInLine()) + 1};
}
SourceLoc loc_of(antlr4::ParserRuleContext *c) { return loc_of(c->getStart()); }
SourceLoc loc_of(antlr4::tree::TerminalNode *n) { return loc_of(n->getSymbol()); }

// ANTLR's messages say "<EOF>" and "token recognition error"; say it the user's way.
std::string tidy(std::string msg) {
  for (std::size_t p; (p = msg.find("'<EOF>'")) != std::string::npos;)
    msg.replace(p, 7, "end of file");
  for (std::size_t p; (p = msg.find("<EOF>")) != std::string::npos;)
    msg.replace(p, 5, "end of file");
  const std::string rec = "token recognition error at: ";
  if (msg.rfind(rec, 0) == 0)
    return "unexpected character " + msg.substr(rec.size());
  // Token names are grammar jargon; name them the way the docs do (outside quoted input).
  static const std::pair<std::string, std::string> names[] = {
      {"ID", "a name"}, {"INT", "an integer"}, {"FLOAT", "a number"}, {"READONLY", "'readonly'"}};
  std::string out;
  bool quoted = false;
  for (std::size_t i = 0; i < msg.size();) {
    if (msg[i] == '\'') {
      quoted = !quoted;
      out += msg[i++];
      continue;
    }
    bool replaced = false;
    if (!quoted && (i == 0 || !std::isalnum(static_cast<unsigned char>(msg[i - 1])))) {
      for (const auto &[from, to] : names) {
        const std::size_t e = i + from.size();
        if (msg.compare(i, from.size(), from) == 0 &&
            (e >= msg.size() || !(std::isalnum(static_cast<unsigned char>(msg[e])) || msg[e] == '_'))) {
          out += to;
          i = e;
          replaced = true;
          break;
        }
      }
    }
    if (!replaced)
      out += msg[i++];
  }
  msg = out;
  return msg;
}

class ErrorListener : public antlr4::BaseErrorListener {
public:
  explicit ErrorListener(DiagEngine &d) : diags_(d) {}
  void syntaxError(antlr4::Recognizer *rec, antlr4::Token *bad, size_t line, size_t col,
                   const std::string &msg, std::exception_ptr) override {
    SourceLoc loc{static_cast<int>(line), static_cast<int>(col) + 1};
    // A missing ';' is best reported where it belongs: after the previous token.
    auto *parser = dynamic_cast<antlr4::Parser *>(rec);
    const bool missing = msg.rfind("missing ';'", 0) == 0;
    if (parser && bad && (missing || (msg.find("expecting") != std::string::npos &&
                                      msg.find("';'") != std::string::npos))) {
      antlr4::Token *prev = parser->getTokenStream()->LT(-1);
      if (prev && (missing || prev->getLine() < bad->getLine())) {
        const auto len = static_cast<int>(prev->getText().size());
        diags_.error({static_cast<int>(prev->getLine()),
                      static_cast<int>(prev->getCharPositionInLine()) + 1 + len},
                     "expected ';'");
        return;
      }
    }
    diags_.error(loc, tidy(msg));
  }


private:
  DiagEngine &diags_;
};

ast::TypeName type_of(stn::StnParser::ScalarTypeContext *c) {
  const std::string t = c->getText();
  return t == "int" ? ast::TypeName::Int : t == "float" ? ast::TypeName::Float
                                                        : ast::TypeName::Double;
}

ast::ExprPtr make(ast::Expr::Kind k, SourceLoc loc, std::string text = {},
                  std::vector<ast::ExprPtr> args = {}) {
  return std::make_shared<ast::Expr>(ast::Expr{k, loc, std::move(text), std::move(args), loc});
}

ast::ExprPtr build_access(stn::StnParser::GridAccessContext *c);

ast::ExprPtr build(stn::StnParser::ExprContext *c) {
  using P = stn::StnParser;
  using K = ast::Expr::Kind;
  if (auto *e = dynamic_cast<P::ParenExprContext *>(c))
    return build(e->expr());
  if (auto *e = dynamic_cast<P::UnaryExprContext *>(c))
    return make(e->op->getText() == "-" ? K::Neg : K::Plus, loc_of(e->op), e->op->getText(),
                {build(e->expr())});
  if (auto *e = dynamic_cast<P::MulExprContext *>(c))
    return make(e->op->getText() == "*" ? K::Mul : K::Div, loc_of(e->op), e->op->getText(),
                {build(e->expr(0)), build(e->expr(1))});
  if (auto *e = dynamic_cast<P::AddExprContext *>(c))
    return make(e->op->getText() == "+" ? K::Add : K::Sub, loc_of(e->op), e->op->getText(),
                {build(e->expr(0)), build(e->expr(1))});
  if (auto *e = dynamic_cast<P::AccessExprContext *>(c))
    return build_access(e->gridAccess());
  if (auto *e = dynamic_cast<P::NameExprContext *>(c))
    return make(K::Name, loc_of(e->ID()), e->ID()->getText());
  if (auto *e = dynamic_cast<P::IntExprContext *>(c))
    return make(K::Int, loc_of(e->INT()), e->INT()->getText());
  if (auto *e = dynamic_cast<P::FloatExprContext *>(c))
    return make(K::Float, loc_of(e->FLOAT()), e->FLOAT()->getText());
  internal_error("parse: unknown expression context");
}

ast::ExprPtr build_access(stn::StnParser::GridAccessContext *c) {
  std::vector<ast::ExprPtr> idx;
  for (auto *e : c->expr())
    idx.push_back(build(e));
  auto a = std::make_shared<ast::Expr>(ast::Expr{ast::Expr::Kind::Access, loc_of(c->ID()),
                                                 c->ID()->getText(), std::move(idx),
                                                 loc_of(c->ID())});
  return a;
}

ast::Program build_program(stn::StnParser::ProgramContext *c) {
  using P = stn::StnParser;
  ast::Program prog;
  prog.name = c->stencilDecl()->ID()->getText();
  prog.name_loc = loc_of(c->stencilDecl()->ID());
  for (auto *d : c->decl()) {
    if (auto *p = d->paramDecl()) {
      for (auto *item : p->paramItem())
        prog.params.push_back({loc_of(item->ID()), type_of(p->scalarType()),
                               item->ID()->getText(), item->expr() ? build(item->expr()) : nullptr});
    } else if (auto *g = d->gridDecl()) {
      for (auto *item : g->gridItem()) {
        ast::Grid grid;
        grid.loc = loc_of(item->ID());
        grid.type = type_of(g->scalarType());
        grid.readonly = g->READONLY() != nullptr;
        grid.name = item->ID()->getText();
        if (auto *s = dynamic_cast<P::ExplicitShapeContext *>(item->gridShape())) {
          for (auto *e : s->expr())
            grid.extents.push_back(build(e));
        } else if (auto *l = dynamic_cast<P::LikeShapeContext *>(item->gridShape())) {
          grid.like = l->ID()->getText();
          grid.like_loc = loc_of(l->ID());
        }
        if (auto *b = item->boundaryClause())
          grid.boundary = ast::Boundary{loc_of(b->ID()), b->ID()->getText(),
                                        b->expr() ? build(b->expr()) : nullptr};
        prog.grids.push_back(std::move(grid));
      }
    } else if (auto *k = d->kernelDecl()) {
      ast::Kernel kern;
      auto ids = k->ID();
      kern.loc = loc_of(ids[0]);
      kern.name = ids[0]->getText();
      for (std::size_t i = 1; i < ids.size(); ++i) {
        kern.indices.push_back(ids[i]->getText());
        kern.index_locs.push_back(loc_of(ids[i]));
      }
      for (auto *s : k->stmt())
        kern.body.push_back({loc_of(s), build_access(s->gridAccess()), build(s->expr())});
      prog.kernels.push_back(std::move(kern));
    } else if (auto *r = d->runDecl()) {
      ast::Run run;
      run.loc = loc_of(r);
      run.count = build(r->expr());
      for (auto *s : r->runStmt()) {
        if (auto *call = dynamic_cast<P::CallStmtContext *>(s)) {
          run.body.push_back({ast::RunStmt::Kind::Call, loc_of(call->ID()), call->ID()->getText(),
                              "", loc_of(call->ID()), {}});
        } else if (auto *sw = dynamic_cast<P::SwapStmtContext *>(s)) {
          run.body.push_back({ast::RunStmt::Kind::Swap, loc_of(sw), sw->ID(0)->getText(),
                              sw->ID(1)->getText(), loc_of(sw->ID(0)), loc_of(sw->ID(1))});
        }
      }
      prog.runs.push_back(std::move(run));
    }
  }
  return prog;
}

// The parser and the AST builder recurse; bound nesting and statement length up front so
// hostile input gets an error instead of a stack overflow.
bool check_limits(antlr4::CommonTokenStream &tokens, antlr4::CharStream &input,
                  DiagEngine &diags) {
  constexpr int kMaxDepth = 100;
  constexpr int kMaxTokensPerStatement = 5000;
  int depth = 0, run = 0;
  for (antlr4::Token *t : tokens.getTokens()) {
    const std::string s = t->getText();
    // A closed comment is skipped by the lexer, so '/' right before '*' opens one that never
    // closes. Report that alone: everything after it would be noise.
    // (Token indices count code points, so ask the stream, not the UTF-8 bytes.)
    if (s == "/" && t->getStopIndex() + 1 < input.size() &&
        input.getText(antlr4::misc::Interval(t->getStopIndex() + 1, t->getStopIndex() + 1)) ==
            "*") {
      diags.error(loc_of(t), "unterminated /* comment");
      return false;
    }
    if (s == "(" || s == "[" || s == "{") {
      if (++depth > kMaxDepth) {
        diags.error(loc_of(t), "brackets nested more than " + std::to_string(kMaxDepth) +
                                   " deep");
        return false;
      }
    } else if (s == ")" || s == "]" || s == "}") {
      --depth;
    }
    if (s == ";" || s == "{" || s == "}") {
      run = 0;
    } else if (++run > kMaxTokensPerStatement) {
      diags.error(loc_of(t), "statement longer than " + std::to_string(kMaxTokensPerStatement) +
                                 " tokens");
      return false;
    }
  }
  return true;
}

} // namespace

std::optional<ast::Program> parse(const SourceFile &file, DiagEngine &diags) {
  antlr4::ANTLRInputStream input(file.text());
  stn::StnLexer lexer(&input);
  ErrorListener listener(diags);
  lexer.removeErrorListeners();
  lexer.addErrorListener(&listener);
  antlr4::CommonTokenStream tokens(&lexer);
  tokens.fill();
  if (!check_limits(tokens, input, diags))
    return std::nullopt;
  stn::StnParser parser(&tokens);
  parser.removeErrorListeners();
  parser.addErrorListener(&listener);
  auto *tree = parser.program();
  if (diags.has_errors())
    return std::nullopt;
  return build_program(tree);
}

} // namespace stc
