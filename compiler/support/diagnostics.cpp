#include "support/diagnostics.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <tuple>

namespace stc {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n')
      line_starts_.push_back(i + 1);
}

std::string SourceFile::line_text(int line) const {
  if (line < 1 || static_cast<std::size_t>(line) > line_starts_.size())
    return "";
  std::size_t b = line_starts_[line - 1];
  std::size_t e = text_.find('\n', b);
  if (e == std::string::npos)
    e = text_.size();
  if (e > b && text_[e - 1] == '\r')
    --e;
  return text_.substr(b, e - b);
}

FileId DiagEngine::add_file(const SourceFile *file) {
  files_.push_back(file);
  return static_cast<FileId>(files_.size() - 1);
}

const SourceFile *DiagEngine::file(FileId id) const {
  return id >= 0 && static_cast<std::size_t>(id) < files_.size() ? files_[id] : nullptr;
}

// The same message at the same place once: an unrolled loop or a macro expanded several times
// would repeat it (with its notes).
bool DiagEngine::repeated(Severity s, SourceLoc loc, const std::string &message) {
  repeating_ = !seen_.emplace(static_cast<int>(s), loc.file, loc.line, loc.col, message).second;
  return repeating_;
}

void DiagEngine::error(SourceLoc loc, std::string message) {
  if (repeated(Severity::Error, loc, message))
    return;
  // Past the limit, more errors only bury the first ones (and cost memory and time).
  if (errors_ >= kMaxErrors) {
    ++errors_;
    return;
  }
  diags_.push_back({Severity::Error, loc, std::move(message)});
  ++errors_;
}
void DiagEngine::warning(SourceLoc loc, std::string message) {
  if (repeated(Severity::Warning, loc, message))
    return;
  diags_.push_back({Severity::Warning, loc, std::move(message)});
}
void DiagEngine::note(SourceLoc loc, std::string message) {
  if (errors_ > kMaxErrors || repeating_)
    return;
  diags_.push_back({Severity::Note, loc, std::move(message)});
}

std::string format_diagnostic(const std::string &path, const SourceFile *file,
                              const Diagnostic &d) {
  static const char *const kNames[] = {"error", "warning", "note"};
  std::string out = path;
  if (d.loc.line > 0)
    out += ":" + std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col);
  out += std::string(": ") + kNames[static_cast<int>(d.severity)] + ": " + d.message + "\n";
  if (file && d.loc.line > 0) {
    std::string line = file->line_text(d.loc.line);
    int col = d.loc.col;
    // A very long line is shown as a window around the column.
    constexpr int kWindow = 200;
    if (static_cast<int>(line.size()) > kWindow) {
      const int start = std::max(0, std::min(col - 1 - kWindow / 2,
                                             static_cast<int>(line.size()) - kWindow));
      std::string window = line.substr(start, kWindow);
      const bool left = start > 0, right = start + kWindow < static_cast<int>(line.size());
      line = (left ? "..." : "") + window + (right ? "..." : "");
      col = col - start + (left ? 3 : 0);
    }
    std::string caret;
    // Keep tabs so the caret lines up under the same column in a terminal.
    for (int i = 0; i + 1 < col && i < static_cast<int>(line.size()); ++i)
      caret += line[i] == '\t' ? '\t' : ' ';
    out += line + "\n" + caret + "^\n";
  }
  return out;
}

// In source order (the lexer reports before the parser), file by file in the order they were
// added, each note staying with its error.
std::string DiagEngine::render() const {
  std::vector<std::vector<const Diagnostic *>> groups;
  for (const auto &d : diags_) {
    if (d.severity == Severity::Note && !groups.empty())
      groups.back().push_back(&d);
    else
      groups.push_back({&d});
  }
  std::stable_sort(groups.begin(), groups.end(), [](const auto &a, const auto &b) {
    const SourceLoc &x = a.front()->loc, &y = b.front()->loc;
    return std::tie(x.file, x.line, x.col) < std::tie(y.file, y.line, y.col);
  });
  auto path_of = [&](FileId id) {
    const SourceFile *f = file(id);
    return f ? f->path() : std::string("<input>");
  };
  std::string out;
  for (const auto &g : groups)
    for (const Diagnostic *d : g)
      out += format_diagnostic(path_of(d->loc.file), file(d->loc.file), *d);
  if (errors_ > kMaxErrors)
    out += path_of(0) + ": error: too many errors (" + std::to_string(errors_) + "); the first " +
           std::to_string(kMaxErrors) + " are shown\n";
  return out;
}

void internal_error(const std::string &what) {
  std::fprintf(stderr, "stencilc: internal error: %s\n(this is a bug in stencilc)\n", what.c_str());
  std::abort();
}

} // namespace stc
