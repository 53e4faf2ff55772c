#include "frontend/parse.h"

#include <cctype>
#include <limits>

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
  return t == "int"     ? ast::TypeName::Int
         : t == "long"  ? ast::TypeName::Long
         : t == "float" ? ast::TypeName::Float
                        : ast::TypeName::Double;
}

using P = stn::StnParser;
using K = ast::Expr::Kind;

ast::ExprPtr make(K k, SourceLoc loc, std::string text = {}, std::vector<ast::ExprPtr> args = {}) {
  return std::make_shared<ast::Expr>(
      ast::Expr{k, loc, std::move(text), std::move(args), loc, {}, {}, {}});
}

ast::ExprPtr build_access(P::GridAccessContext *c);

K binary_kind(const std::string &op) {
  static const std::pair<const char *, K> ops[] = {
      {"*", K::Mul}, {"/", K::Div}, {"%", K::Mod}, {"+", K::Add}, {"-", K::Sub},
      {"<", K::Lt},  {"<=", K::Le}, {">", K::Gt},  {">=", K::Ge}, {"==", K::Eq},
      {"!=", K::Ne}, {"&&", K::And}, {"||", K::Or}};
  for (const auto &[t, k] : ops)
    if (op == t)
      return k;
  internal_error("parse: unknown operator " + op);
}

ast::ExprPtr build(P::ExprContext *c) {
  if (auto *e = dynamic_cast<P::ParenExprContext *>(c))
    return build(e->expr());
  if (auto *e = dynamic_cast<P::UnaryExprContext *>(c)) {
    const std::string op = e->op->getText();
    return make(op == "-" ? K::Neg : op == "+" ? K::Plus : K::Not, loc_of(e->op), op,
                {build(e->expr())});
  }
  // All binary alternatives have two expr children and an `op` token.
  auto binary = [&](antlr4::Token *op, std::vector<P::ExprContext *> kids) {
    return make(binary_kind(op->getText()), loc_of(op), op->getText(),
                {build(kids[0]), build(kids[1])});
  };
  if (auto *e = dynamic_cast<P::MulExprContext *>(c))
    return binary(e->op, e->expr());
  if (auto *e = dynamic_cast<P::AddExprContext *>(c))
    return binary(e->op, e->expr());
  if (auto *e = dynamic_cast<P::CmpExprContext *>(c))
    return binary(e->op, e->expr());
  if (auto *e = dynamic_cast<P::EqExprContext *>(c))
    return binary(e->op, e->expr());
  if (auto *e = dynamic_cast<P::AndExprContext *>(c))
    return binary(e->op, e->expr());
  if (auto *e = dynamic_cast<P::OrExprContext *>(c))
    return binary(e->op, e->expr());
  if (auto *e = dynamic_cast<P::CondExprContext *>(c))
    return make(K::Cond, loc_of(e->op), "?",
                {build(e->expr(0)), build(e->expr(1)), build(e->expr(2))});
  if (auto *e = dynamic_cast<P::CallExprContext *>(c)) {
    std::vector<ast::ExprPtr> args;
    for (auto *x : e->expr())
      args.push_back(build(x));
    return make(K::Call, loc_of(e->fname()), e->fname()->getText(), std::move(args));
  }
  if (auto *e = dynamic_cast<P::ConvExprContext *>(c))
    return make(K::Conv, loc_of(e->scalarType()), e->scalarType()->getText(), {build(e->expr())});
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

// `.name[i][j]` after an access; an index too large for an int saturates (structs.cpp
// reports it out of range).
void build_member(P::MemberContext *m, std::string &name, std::vector<int> &index, SourceLoc &loc) {
  if (!m)
    return;
  name = m->ID()->getText();
  loc = loc_of(m->ID());
  for (auto *i : m->INT()) {
    const std::string t = i->getText();
    index.push_back(t.size() > 9 ? std::numeric_limits<int>::max() : std::stoi(t));
  }
}

ast::ExprPtr build_access(P::GridAccessContext *c) {
  std::vector<ast::ExprPtr> idx;
  for (auto *e : c->expr())
    idx.push_back(build(e));
  auto a = std::make_shared<ast::Expr>(
      *make(K::Access, loc_of(c->ID()), c->ID()->getText(), std::move(idx)));
  build_member(c->member(), a->member, a->member_index, a->member_loc);
  return a;
}

ast::Domain build_domain(P::DomainContext *c) {
  ast::Domain d;
  if (!c)
    return d;
  d.loc = loc_of(c);
  if (auto *r = dynamic_cast<P::RangeDomainContext *>(c)) {
    d.kind = ast::Domain::Kind::Range;
    for (auto *x : r->range())
      d.ranges.emplace_back(build(x->expr(0)), build(x->expr(1)));
  } else if (auto *col = dynamic_cast<P::ColourDomainContext *>(c)) {
    d.kind = ast::Domain::Kind::Colour;
    d.colour = col->ID()->getText();
    d.loc = loc_of(col->ID());
    for (auto *x : col->range())
      d.ranges.emplace_back(build(x->expr(0)), build(x->expr(1)));
  }
  return d;
}

std::vector<ast::Stmt> build_block(P::BlockContext *b);

ast::Stmt build_stmt(P::StmtContext *s) {
  ast::Stmt st;
  st.loc = loc_of(s);
  if (auto *a = dynamic_cast<P::AssignStmtContext *>(s)) {
    st.kind = ast::Stmt::Kind::Assign;
    st.target = build_access(a->gridAccess());
    st.value = build(a->expr());
  } else if (auto *l = dynamic_cast<P::LetStmtContext *>(s)) {
    st.kind = ast::Stmt::Kind::Let;
    st.name = l->ID()->getText();
    st.loc = loc_of(l->ID());
    st.value = build(l->expr());
  } else if (auto *v = dynamic_cast<P::VarStmtContext *>(s)) {
    st.kind = ast::Stmt::Kind::Var;
    st.name = v->ID()->getText();
    st.loc = loc_of(v->ID());
    st.value = build(v->expr());
  } else if (auto *a = dynamic_cast<P::SetStmtContext *>(s)) {
    st.kind = ast::Stmt::Kind::Set;
    st.name = a->ID()->getText();
    st.loc = loc_of(a->ID());
    st.value = build(a->expr());
  } else if (auto *f = dynamic_cast<P::ForStmtContext *>(s)) {
    st.kind = ast::Stmt::Kind::For;
    st.name = f->ID()->getText();
    st.loc = loc_of(f->ID());
    st.from = build(f->expr(0));
    st.to = build(f->expr(1));
    st.then_body = build_block(f->block());
  } else if (auto *i = dynamic_cast<P::IfStmtContext *>(s)) {
    st.kind = ast::Stmt::Kind::If;
    st.value = build(i->expr());
    auto blocks = i->block();
    st.then_body = build_block(blocks[0]);
    if (blocks.size() > 1)
      st.else_body = build_block(blocks[1]);
    else if (i->elseIf)
      st.else_body.push_back(build_stmt(i->elseIf));
  }
  return st;
}

std::vector<ast::Stmt> build_block(P::BlockContext *b) {
  std::vector<ast::Stmt> out;
  for (auto *s : b->stmt())
    out.push_back(build_stmt(s));
  return out;
}

template <typename Ids>
void build_indices(const Ids &ids, std::size_t first, std::vector<std::string> &names,
                   std::vector<SourceLoc> &locs) {
  for (std::size_t i = first; i < ids.size(); ++i) {
    names.push_back(ids[i]->getText());
    locs.push_back(loc_of(ids[i]));
  }
}

ast::BoundaryItem build_bc_kind(P::BcKindContext *k) {
  ast::BoundaryItem item;
  item.loc = item.kind_loc = loc_of(k->ID());
  item.kind = k->ID()->getText();
  item.value = k->expr() ? build(k->expr()) : nullptr;
  return item;
}

std::vector<ast::RunStmt> build_run_body(const std::vector<P::RunStmtContext *> &stmts) {
  std::vector<ast::RunStmt> body;
  for (auto *s : stmts) {
    ast::RunStmt st;
    if (auto *call = dynamic_cast<P::CallStmtContext *>(s)) {
      st.kind = ast::RunStmt::Kind::Call;
      st.loc = st.a_loc = loc_of(call->ID());
      st.a = call->ID()->getText();
      st.has_args = call->children.size() > 2; // ID '(' ... ')' ';'
      for (auto *e : call->expr())
        st.args.push_back(build(e));
    } else if (auto *sw = dynamic_cast<P::SwapStmtContext *>(s)) {
      st.kind = ast::RunStmt::Kind::Swap;
      st.loc = loc_of(sw);
      st.a = sw->ID(0)->getText();
      st.b = sw->ID(1)->getText();
      st.a_loc = loc_of(sw->ID(0));
      st.b_loc = loc_of(sw->ID(1));
    } else
      continue;
    body.push_back(std::move(st));
  }
  return body;
}

ast::Program build_program(P::ProgramContext *c) {
  ast::Program prog;
  prog.name = c->stencilDecl()->ID()->getText();
  prog.name_loc = loc_of(c->stencilDecl()->ID());
  for (auto *d : c->decl()) {
    if (auto *p = d->paramDecl()) {
      for (auto *item : p->paramItem())
        prog.params.push_back({loc_of(item->ID()), type_of(p->scalarType()),
                               item->ID()->getText(), item->expr() ? build(item->expr()) : nullptr});
    } else if (auto *sd = d->structDecl()) {
      ast::StructDecl st;
      st.loc = loc_of(sd->ID());
      st.name = sd->ID()->getText();
      for (auto *m : sd->structMember()) {
        ast::StructMember mem;
        mem.loc = loc_of(m->ID());
        mem.type = type_of(m->scalarType());
        mem.name = m->ID()->getText();
        for (auto *i : m->INT()) {
          const std::string t = i->getText();
          mem.dims.push_back(t.size() > 9 ? std::numeric_limits<int>::max() : std::stoi(t));
        }
        st.members.push_back(std::move(mem));
      }
      prog.structs.push_back(std::move(st));
    } else if (auto *g = d->gridDecl()) {
      for (auto *item : g->gridItem()) {
        ast::Grid grid;
        grid.loc = loc_of(item->ID());
        if (g->scalarType()) {
          grid.type = type_of(g->scalarType());
        } else {
          grid.struct_type = g->structName->getText();
          grid.struct_loc = loc_of(g->structName);
        }
        grid.readonly = g->READONLY() != nullptr;
        grid.name = item->ID()->getText();
        if (auto *s = dynamic_cast<P::ExplicitShapeContext *>(item->gridShape())) {
          for (auto *e : s->expr())
            grid.extents.push_back(build(e));
        } else if (auto *l = dynamic_cast<P::LikeShapeContext *>(item->gridShape())) {
          grid.like = l->ID()->getText();
          grid.like_loc = loc_of(l->ID());
        }
        if (auto *u = dynamic_cast<P::UniformBoundaryContext *>(item->boundaryClause())) {
          grid.has_boundary = true;
          grid.boundary.push_back(build_bc_kind(u->bcKind()));
        } else if (auto *f = dynamic_cast<P::FaceBoundaryContext *>(item->boundaryClause())) {
          grid.has_boundary = true;
          for (auto *bi : f->bcItem()) {
            ast::BoundaryItem it = build_bc_kind(bi->bcKind());
            if (bi->face) {
              it.face = bi->face->getText();
              it.face_loc = it.loc = loc_of(bi->face);
              it.side = !bi->side ? 0 : bi->side->getText() == "-" ? -1 : 1;
            }
            grid.boundary.push_back(std::move(it));
          }
        }
        prog.grids.push_back(std::move(grid));
      }
    } else if (auto *in = d->initDecl()) {
      ast::Init init;
      auto ids = in->ID();
      init.loc = loc_of(in);
      init.grid = ids[0]->getText();
      init.grid_loc = loc_of(ids[0]);
      build_indices(ids, 1, init.indices, init.index_locs);
      build_member(in->member(), init.member, init.member_index, init.member_loc);
      init.value = build(in->expr());
      prog.inits.push_back(std::move(init));
    } else if (auto *k = d->kernelDecl()) {
      ast::Kernel kern;
      auto ids = k->ID();
      kern.loc = loc_of(ids[0]);
      kern.name = ids[0]->getText();
      build_indices(ids, 1, kern.indices, kern.index_locs);
      for (auto *kp : k->kernelParam()) {
        ast::KernelParam param;
        param.loc = loc_of(kp->ID());
        param.grid = kp->scalarType() == nullptr;
        if (!param.grid)
          param.type = type_of(kp->scalarType());
        param.name = kp->ID()->getText();
        kern.params.push_back(std::move(param));
      }
      kern.domain = build_domain(k->domain());
      kern.body = build_block(k->block());
      prog.kernels.push_back(std::move(kern));
    } else if (auto *r = d->reduceDecl()) {
      ast::Reduce red;
      auto ids = r->ID();
      red.loc = loc_of(ids[0]);
      red.name = ids[0]->getText();
      build_indices(ids, 1, red.indices, red.index_locs);
      red.domain = build_domain(r->domain());
      red.op = r->fname()->getText();
      red.op_loc = loc_of(r->fname());
      red.value = build(r->expr());
      prog.reduces.push_back(std::move(red));
    } else if (auto *rs = dynamic_cast<P::StepsRunContext *>(d->runDecl())) {
      ast::Run run;
      run.loc = loc_of(rs);
      run.count = build(rs->expr());
      run.body = build_run_body(rs->runStmt());
      prog.runs.push_back(std::move(run));
    } else if (auto *ru = dynamic_cast<P::UntilRunContext *>(d->runDecl())) {
      ast::Run run;
      run.loc = loc_of(ru);
      run.until = true;
      run.cond = build(ru->expr(0));
      run.count = build(ru->expr(1));
      run.body = build_run_body(ru->runStmt());
      prog.runs.push_back(std::move(run));
    } else if (auto *rn = dynamic_cast<P::NamedRunContext *>(d->runDecl())) {
      ast::Run run;
      run.loc = loc_of(rn);
      run.name = rn->ID()->getText();
      run.name_loc = loc_of(rn->ID());
      run.count = build(rn->expr());
      run.body = build_run_body(rn->runStmt());
      prog.runs.push_back(std::move(run));
    }
  }
  return prog;
}

// The parser, the AST builder and sema recurse over expressions and if/else chains; bound
// their depth up front so hostile input gets an error instead of a stack overflow (also under
// the sanitizers, whose stack frames are several times larger).
bool check_limits(antlr4::CommonTokenStream &tokens, antlr4::CharStream &input,
                  DiagEngine &diags) {
  constexpr int kMaxDepth = 100;             // nested ( [ {
  constexpr int kMaxTokensPerStatement = 1200; // binary operator chains are half that deep
  constexpr int kMaxUnaryRun = 16;           // - - - x
  constexpr int kMaxIfsPerDecl = 256;        // if / else if chains nest
  int depth = 0, run = 0, unary = 0, ifs = 0;
  std::string prev;
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
    // A sign after an operator or an opening bracket is unary.
    const bool sign = s == "-" || s == "+" || s == "!";
    const bool after_operand = !prev.empty() && (std::isalnum(static_cast<unsigned char>(prev.back())) ||
                                                 prev.back() == '_' || prev.back() == '.' ||
                                                 prev == ")" || prev == "]");
    unary = sign && !after_operand ? unary + 1 : 0;
    if (unary > kMaxUnaryRun) {
      diags.error(loc_of(t), "more than " + std::to_string(kMaxUnaryRun) +
                                 " unary operators in a row");
      return false;
    }
    if (depth == 0 && (s == "kernel" || s == "reduce" || s == "run"))
      ifs = 0;
    if (s == "if" && ++ifs > kMaxIfsPerDecl) {
      diags.error(loc_of(t), "more than " + std::to_string(kMaxIfsPerDecl) +
                                 " if statements in one kernel");
      return false;
    }
    prev = s;
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
