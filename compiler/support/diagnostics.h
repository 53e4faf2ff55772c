// Source files and user diagnostics: "file:line:col: error: message", the line, a caret.
// User errors go through DiagEngine; broken compiler invariants are internal_error().
#pragma once
#include <string>
#include <vector>

namespace stc {

/// 1-based line and column; line 0 means "no location" (a whole-file message).
struct SourceLoc {
  int line = 0;
  int col = 0;
};

class SourceFile {
public:
  SourceFile(std::string path, std::string text);
  const std::string &path() const { return path_; }
  const std::string &text() const { return text_; }
  /// The text of line `line` (1-based) without its newline; empty if out of range.
  std::string line_text(int line) const;

private:
  std::string path_;
  std::string text_;
  std::vector<std::size_t> line_starts_;
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity;
  SourceLoc loc;
  std::string message;
};

class DiagEngine {
public:
  static constexpr int kMaxErrors = 100; // kept and rendered; the rest are counted
  explicit DiagEngine(const SourceFile *file = nullptr) : file_(file) {}
  void set_file(const SourceFile *file) { file_ = file; }
  void error(SourceLoc loc, std::string message);
  void warning(SourceLoc loc, std::string message);
  void note(SourceLoc loc, std::string message);
  bool has_errors() const { return errors_ > 0; }
  int error_count() const { return errors_; }
  const std::vector<Diagnostic> &diagnostics() const { return diags_; }
  /// Renders every diagnostic, in the order reported, as a compiler would print them.
  std::string render() const;

private:
  const SourceFile *file_;
  std::vector<Diagnostic> diags_;
  int errors_ = 0;
};

/// Formats one diagnostic (used by render and by whole-file errors without a SourceFile).
std::string format_diagnostic(const std::string &path, const SourceFile *file, const Diagnostic &d);

/// A broken compiler invariant (a bug in stencilc, not in the user's program).
[[noreturn]] void internal_error(const std::string &what);

} // namespace stc
