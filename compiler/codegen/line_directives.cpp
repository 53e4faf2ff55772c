// `#line` directives: the C++ of a kernel statement cites the statement's line in the .stn, so
// a compiler message about it points into the user's program; every other line is attributed to
// the generated file. The numbers of the directives back to the generated file are only known
// once the text is final (libFormat moves lines), so emitters write a placeholder and
// fix_line_directives numbers them in a pass over the final text, drops a directive the count
// already gives, and joins lines libFormat added to a statement beyond its .stn lines. The .stn
// path is written as given on the command line, not made absolute, so the text does not depend
// on where the checkout is. tests/e2e/vectorized.sh blanks the directives: the naive sweep and
// the row function share .stn lines, and only generated-file lines tell their loops apart.
#include <algorithm>
#include <functional>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "codegen/c_emitter.h"
#include "codegen/codegen.h"

namespace stc {
namespace {

// The first and last .stn line of an expression tree (0, 0 for none).
void expr_lines(const ir::ExprPtr &e, int &first, int &last) {
  if (!e)
    return;
  ir::walk(e, [&](const ir::Expr &n) {
    if (n.loc.line <= 0)
      return;
    first = first ? std::min(first, n.loc.line) : n.loc.line;
    last = std::max(last, n.loc.line);
  });
}

// `#line N QUOTED`, no newline.
std::string directive(int n, const std::string &quoted) {
  return fmt::format("#line {} {}", n, quoted);
}

// first .stn line -> the last line of the statements (or reduction values) that start there.
std::map<int, int> statement_spans(const ir::Program &p) {
  std::map<int, int> spans;
  auto add = [&](int first, int last) {
    if (first > 0)
      spans[first] = std::max({spans[first], first, last});
  };
  std::function<void(const std::vector<ir::Stmt> &)> visit =
      [&](const std::vector<ir::Stmt> &body) {
        for (const auto &st : body) {
          int first = st.loc.line, last = st.loc.line;
          expr_lines(st.value, first, last);
          add(first, last);
          visit(st.then_body);
          visit(st.else_body);
        }
      };
  for (const auto &k : p.kernels)
    visit(k.body);
  for (const auto &r : p.reductions) {
    int first = 0, last = 0;
    expr_lines(r.value, first, last);
    add(first, last);
  }
  return spans;
}

// `#line N "FILE"` with FILE spelt exactly as `quoted`: N, else -1.
int directive_line(const std::string &line, const std::string &quoted) {
  static const std::string kLine = "#line ";
  if (line.compare(0, kLine.size(), kLine) != 0)
    return -1;
  std::size_t i = kLine.size();
  int n = 0;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9' && n < 100000000)
    n = 10 * n + (line[i++] - '0');
  if (i == kLine.size() || line.compare(i, std::string::npos, " " + quoted) != 0)
    return -1;
  return n;
}

std::string trimmed(const std::string &line) {
  const auto b = line.find_first_not_of(" \t");
  return b == std::string::npos ? "" : line.substr(b);
}

// The last line of a statement's C++: an assignment or `let` ends with `;`, an `if` with `) {`.
bool ends_statement(const std::string &t) {
  return (!t.empty() && t.back() == ';') ||
         (t.size() >= 3 && t.compare(t.size() - 3, 3, ") {") == 0);
}

// The directive before C++ from the .stn lines starting at `first`.
std::string stn_line_directive(const ir::Program &p, int first) {
  return p.source_path.empty() || first <= 0 ? ""
                                             : directive(first, cxx_string(p.source_path)) + "\n";
}

} // namespace

std::string stmt_line_directive(const ir::Program &p, const ir::Stmt &st) {
  int first = st.loc.line, last = st.loc.line;
  expr_lines(st.value, first, last);
  return stn_line_directive(p, first);
}

std::string expr_line_directive(const ir::Program &p, const ir::ExprPtr &e) {
  int first = 0, last = 0;
  expr_lines(e, first, last);
  return stn_line_directive(p, first);
}

std::string generated_line_directive(const ir::Program &p, const std::string &file) {
  return p.source_path.empty() ? "" : directive(0, cxx_string(file)) + "\n";
}

std::string fix_line_directives(const std::string &text, const ir::Program &p,
                                const std::string &file) {
  if (p.source_path.empty())
    return text;
  const std::string stn = cxx_string(p.source_path), gen = cxx_string(file);
  const auto spans = statement_spans(p);
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  // Inside a statement from the .stn: its lines so far and how many it has in the .stn. Line k
  // of its C++ is line N + k - 1 of the .stn; where libFormat broke it into more lines than the
  // .stn has, the extra lines are joined onto its last one, so no line counts past it.
  bool in_stmt = false;
  int lines = 0, span = 0;
  // In a stretch from the .stn: the line the next one is (a directive that says so is dropped).
  bool in_stn = false;
  int next = 0;
  while (std::getline(in, line)) {
    if (const int n = directive_line(line, stn); n > 0) {
      const auto it = spans.find(n);
      in_stmt = true;
      lines = 0;
      span = (it == spans.end() ? n : it->second) - n + 1;
      if (!in_stn || next != n)
        out.push_back(line);
      in_stn = true;
      next = n;
      continue;
    }
    if (directive_line(line, gen) >= 0) {
      in_stmt = in_stn = false;
      out.push_back(line);
      continue;
    }
    const std::string t = trimmed(line);
    if (in_stmt && lines++ >= span) {
      out.back() += " " + t;
    } else {
      out.push_back(line);
      ++next;
    }
    in_stmt = in_stmt && !ends_statement(t);
  }
  // Back to the generated file: the line after the directive is line i + 2 of the text.
  std::string result;
  for (std::size_t i = 0; i < out.size(); ++i) {
    result += directive_line(out[i], gen) >= 0 ? directive(static_cast<int>(i) + 2, gen) : out[i];
    if (i + 1 < out.size() || (!text.empty() && text.back() == '\n'))
      result += '\n';
  }
  return result;
}

} // namespace stc
