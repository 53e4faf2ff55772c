// Source files and user diagnostics: "file:line:col: error: message", the line, a caret.
// User errors go through DiagEngine; broken compiler invariants are internal_error().
#pragma once
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace stc {

/// Which file a location is in: an index into the DiagEngine's table of files (add_file). 0 is
/// the file the engine was made for (the program); a front end that reads more files (headers)
/// adds them and stamps their locations with the index add_file returns.
using FileId = int;

/// 1-based line and column in a file; line 0 means "no location" (a whole-file message). Three
/// ints, copied by value into every AST and IR node.
struct SourceLoc {
  int line = 0;
  int col = 0;
  FileId file = 0;
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

/// Collects diagnostics and prints each as `file:line:col: severity: message`, the file being
/// the one its location names. The files are not owned: each must outlive the engine.
class DiagEngine {
public:
  static constexpr int kMaxErrors = 100; // kept and rendered; the rest are counted
  /// `file` becomes file 0, the program's (null: no source at hand, printed as "<input>").
  explicit DiagEngine(const SourceFile *file = nullptr) : files_{file} {}
  void set_file(const SourceFile *file) { files_[0] = file; }
  /// Adds another file (e.g. a header the program includes); returns its FileId.
  FileId add_file(const SourceFile *file);
  /// The file of an id, or null (an unknown id, or no file 0).
  const SourceFile *file(FileId id) const;
  void error(SourceLoc loc, std::string message);
  void warning(SourceLoc loc, std::string message);
  void note(SourceLoc loc, std::string message);
  bool has_errors() const { return errors_ > 0; }
  int error_count() const { return errors_; }
  const std::vector<Diagnostic> &diagnostics() const { return diags_; }
  /// Renders every diagnostic, in the order reported, as a compiler would print them.
  std::string render() const;

private:
  bool repeated(Severity s, SourceLoc loc, const std::string &message);
  std::vector<const SourceFile *> files_; // indexed by FileId
  std::vector<Diagnostic> diags_;
  int errors_ = 0;
  std::set<std::tuple<int, FileId, int, int, std::string>> seen_;
  bool repeating_ = false; // the last error or warning was a repeat: drop its notes
};

/// Formats one diagnostic at `path`, with its source line and a caret when `file` is given
/// (used by render and by whole-file errors without a SourceFile).
std::string format_diagnostic(const std::string &path, const SourceFile *file, const Diagnostic &d);

/// A broken compiler invariant (a bug in stencilc, not in the user's program).
[[noreturn]] void internal_error(const std::string &what);

} // namespace stc
