// libFormat spends most of its time in the line-breaking search of long statements, which is
// independent from one top-level declaration to the next. So the text is cut between top-level
// declarations, the pieces are formatted on up to as many threads as there are cores, and put
// back together: the same text as formatting the whole file (tests/unit/compiler_format_test.cpp
// checks it on every sample), in about half the time on two idle cores.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <string_view>
#include <system_error>
#include <thread>

#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"
#include "codegen/codegen.h"

namespace stc {
namespace {

constexpr unsigned kColumns = 100;
constexpr std::size_t kMaxThreads = 8;

clang::format::FormatStyle style() {
  clang::format::FormatStyle style = clang::format::getLLVMStyle();
  style.ColumnLimit = kColumns;
  // Comments are laid out by the generator: a long path in the opening comment must not pull the
  // lines after it (plan, prediction) into one paragraph.
  style.ReflowComments = false;
  // Each is a pass over the whole text with nothing to do: the templates close every namespace
  // with its comment and have no using-declarations to sort.
  style.FixNamespaceComments = false;
  style.SortUsingDeclarations = false;
  return style;
}

std::string format_piece(const clang::format::FormatStyle &st, const std::string &code,
                         const std::string &file_name) {
  const clang::tooling::Range all(0, static_cast<unsigned>(code.size()));
  const auto repl = clang::format::reformat(st, code, {all}, file_name);
  auto out = clang::tooling::applyAllReplacements(code, repl);
  if (!out) {
    llvm::consumeError(out.takeError());
    return code;
  }
  return *out;
}

struct Piece {
  std::string text;
  std::size_t work = 0; // a guess at its formatting time: long lines cost the most
};

// Braces outside namespaces, over C++ text line by line: skips literals, comments and
// preprocessor lines (generated code has no raw strings).
class BraceDepth {
public:
  int depth() const { return static_cast<int>(std::count(open_.begin(), open_.end(), false)); }
  void line(std::string_view l) {
    const auto first = l.find_first_not_of(" \t");
    if (!in_block_comment_ && first != std::string_view::npos && l[first] == '#')
      return;
    for (std::size_t i = 0; i < l.size(); ++i) {
      const char c = l[i], n = i + 1 < l.size() ? l[i + 1] : '\0';
      if (in_block_comment_) {
        if (c == '*' && n == '/')
          in_block_comment_ = false, ++i;
      } else if (c == '/' && n == '/') {
        return;
      } else if (c == '/' && n == '*') {
        in_block_comment_ = true, ++i;
      } else if (c == '"' || c == '\'') {
        for (++i; i < l.size() && l[i] != c; ++i)
          i += l[i] == '\\';
      } else if (c == '{') {
        open_.push_back(statement_.rfind("namespace", 0) == 0);
        statement_.clear();
      } else if (c == '}' || c == ';') {
        if (c == '}' && !open_.empty())
          open_.pop_back();
        statement_.clear();
      } else if (!statement_.empty() || (c != ' ' && c != '\t' && c != '\n')) {
        statement_ += c;
      }
    }
  }

private:
  std::vector<bool> open_; // per open brace: is it a namespace's
  std::string statement_;  // the text since the last `;`, `{` or `}`
  bool in_block_comment_ = false;
};

// Cuts before each line that starts a top-level declaration: a line at column 0 outside any
// braces but namespaces', beginning with a letter, `_` or `[`, after blank lines that follow a
// line ending with `}` or `;`. The blank lines are dropped; the caller puts one back (libFormat
// keeps at most one). Pieces are at least `min_size` bytes but for the last.
std::vector<Piece> split_declarations(const std::string &code, std::size_t min_size) {
  std::vector<Piece> pieces(1);
  BraceDepth braces;
  std::size_t pos = 0;
  char last_end = 0;                          // last character of the last non-blank line
  std::size_t blank_from = std::string::npos; // where the current run of blank lines starts
  while (pos < code.size()) {
    std::size_t end = code.find('\n', pos);
    end = end == std::string::npos ? code.size() : end + 1;
    const std::string_view line(code.data() + pos, end - pos);
    const auto last = line.find_last_not_of(" \t\n");
    if (last == std::string_view::npos) {
      if (blank_from == std::string::npos)
        blank_from = pieces.back().text.size();
    } else {
      const char c = line[0];
      const bool starts_decl = std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '[';
      if (starts_decl && braces.depth() == 0 && blank_from != std::string::npos &&
          (last_end == '}' || last_end == ';') && pieces.back().text.size() >= min_size) {
        pieces.back().text.resize(blank_from);
        pieces.emplace_back();
      }
      blank_from = std::string::npos;
      last_end = line[last];
      braces.line(line);
    }
    pieces.back().text += line;
    pieces.back().work += line.size() > kColumns + 1 ? 10 * line.size() : line.size();
    pos = end;
  }
  return pieces;
}

} // namespace

std::string format_cxx_whole(const std::string &code, const std::string &file_name) {
  return format_piece(style(), code, file_name);
}

std::string format_cxx(const std::string &code, const std::string &file_name) {
  const auto st = style();
  auto pieces = split_declarations(code, 2048);
  // The costliest pieces first, so no thread is left with a long one at the end.
  std::vector<std::size_t> order(pieces.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return pieces[a].work > pieces[b].work; });
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t k; (k = next++) < order.size();) {
      auto &piece = pieces[order[k]];
      piece.text = format_piece(st, piece.text, file_name);
    }
  };
  const std::size_t threads = std::min<std::size_t>(
      {std::max(1u, std::thread::hardware_concurrency()), pieces.size(), kMaxThreads});
  std::vector<std::thread> helpers;
  try {
    for (std::size_t t = 1; t < threads; ++t)
      helpers.emplace_back(work);
  } catch (const std::system_error &) {
    // No more threads: the ones running (this one at least) take the rest.
  }
  work();
  for (auto &h : helpers)
    h.join();
  std::string out;
  for (std::size_t i = 0; i < pieces.size(); ++i)
    out += (i ? "\n" : "") + pieces[i].text;
  return out;
}

} // namespace stc
