#include "driver/process.h"

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "stencilc/error.h"

extern char **environ;

namespace stc {

int run_process(const std::vector<std::string> &argv, const std::string &stdout_path,
                const std::string &stderr_path, const std::string &cwd) {
  std::vector<char *> args;
  for (const auto &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!stdout_path.empty())
    posix_spawn_file_actions_addopen(&actions, 1, stdout_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!stderr_path.empty())
    posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
  if (!cwd.empty())
    posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    return 127;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

TempDir::TempDir() {
  const char *base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/stencilc.XXXXXX";
  if (!mkdtemp(tmpl.data()))
    throw stencilc::Error("cannot create a temporary directory under " + tmpl);
  path_ = tmpl;
}

TempDir::~TempDir() {
  if (!keep_) {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
}

std::string command_line(const std::vector<std::string> &argv) {
  std::string s;
  for (const auto &a : argv) {
    const bool plain = !a.empty() && a.find_first_of(" \t\"'\\$`*?;&|<>()") == std::string::npos;
    s += (s.empty() ? "" : " ") + (plain ? a : "'" + a + "'");
  }
  return s;
}

nlohmann::json read_json_line(const std::string &path, const std::string &what, std::size_t index) {
  std::ifstream in(path);
  std::string line;
  for (std::size_t i = 0; i <= index; ++i)
    if (!std::getline(in, line))
      line.clear();
  auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded())
    throw stencilc::Error(what + ": " + line);
  return j;
}

} // namespace stc
