#include "target/runtime_paths.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "stencilc/error.h"

namespace stc {
namespace fs = std::filesystem;

namespace {

struct Found {
  fs::path path;
  std::string how; // for the error message
};

// The environment first; then the build tree if this is the executable CMake built there (the
// test executables in the same directory too); otherwise an installed copy, whose runtime is
// at the same place relative to its bin directory as when CMake installed it.
Found locate(const char *env, const char *build_tree, const char *from_bindir) {
  if (const char *v = std::getenv(env); v && *v)
    return {v, fmt::format("from ${}", env)};
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec || fs::equivalent(exe.parent_path(), STENCILC_BUILD_BIN_DIR, ec))
    return {build_tree, "in the build tree"};
  return {(exe.parent_path() / from_bindir).lexically_normal(),
          fmt::format("next to the installed {}", exe.string())};
}

} // namespace

std::string runtime_include_dir() {
  const Found f =
      locate("STENCILC_RT_INCLUDE_DIR", STENCILC_RT_INCLUDE_DIR, STENCILC_RT_INSTALL_INCLUDE_DIR);
  if (!fs::is_regular_file(f.path / "stencilc" / "program.h"))
    throw stencilc::Error(fmt::format("the stencilc runtime headers are missing: no "
                                      "stencilc/program.h in '{}' ({}); set "
                                      "STENCILC_RT_INCLUDE_DIR to the directory that has it",
                                      f.path.string(), f.how));
  return f.path.string();
}

std::string runtime_library(const std::string &lib) {
  // Not silently ignored: it would have linked some other runtime.
  if (const char *v = std::getenv("STENCILC_RT_LIBRARY"); v && *v)
    throw stencilc::Error("STENCILC_RT_LIBRARY is no longer read: the runtime is several "
                          "libraries; set STENCILC_RT_LIBRARY_DIR to the directory that has "
                          "libstencilc_rt_core.a and libstencilc_rt_cpu.a");
  const Found f =
      locate("STENCILC_RT_LIBRARY_DIR", STENCILC_RT_LIBRARY_DIR, STENCILC_RT_INSTALL_LIBRARY_DIR);
  const fs::path path = f.path / ("libstencilc_rt_" + lib + ".a");
  if (!fs::is_regular_file(path))
    throw stencilc::Error(
        fmt::format("the stencilc runtime library is missing: no file '{}' ({}); set "
                    "STENCILC_RT_LIBRARY_DIR to the directory that has it",
                    path.string(), f.how));
  return path.string();
}

} // namespace stc
