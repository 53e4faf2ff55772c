// Running other programs (the C++ compiler, generated executables) without a shell.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace stc {

/// Runs argv[0] (looked up in PATH) with argv; stdout goes to `stdout_path` and stderr to
/// `stderr_path` if not empty, in the directory `cwd` if not empty (the output paths are opened
/// before it changes directory).
/// Returns the exit code, 128+signal if killed, or 127 if it could not be started.
int run_process(const std::vector<std::string> &argv, const std::string &stdout_path = "",
                const std::string &stderr_path = "", const std::string &cwd = "");

/// A fresh private directory under $TMPDIR (or /tmp), removed by the destructor unless kept.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return path_; }
  void keep() { keep_ = true; }

private:
  std::string path_;
  bool keep_ = false;
};

/// argv as a shell would need it typed (for -v logs and error messages).
std::string command_line(const std::vector<std::string> &argv);

/// Line `index` (the first: 0) of the file at `path` parsed as JSON: what a program run with its
/// output there printed (a generated executable's --json summary, one per run under
/// --also-plan; the calibration program). Throws stencilc::Error("WHAT: LINE") when the line is
/// missing or not JSON.
nlohmann::json read_json_line(const std::string &path, const std::string &what,
                              std::size_t index = 0);

} // namespace stc
