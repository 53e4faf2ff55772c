// Helpers shared by unit tests: the message of a stencilc::Error, and a scratch directory.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>

#include "stencilc/error.h"

namespace stencilc::test {

/// The message of the stencilc::Error that f throws, or "<no error>".
inline std::string error_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "<no error>";
}

/// A fresh directory under gtest's temporary directory, removed with everything in it.
class ScratchDir {
public:
  explicit ScratchDir(const std::string &prefix = "stencilc_test") {
    std::string tmpl = ::testing::TempDir() + prefix + "_XXXXXX";
    if (!::mkdtemp(tmpl.data()))
      throw std::runtime_error("mkdtemp failed for " + tmpl);
    dir_ = tmpl;
  }
  ~ScratchDir() { std::filesystem::remove_all(dir_); }
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;

  std::string path(const std::string &name) const { return dir_ + "/" + name; }
  /// The whole content of a file ("" if it cannot be read).
  static std::string read(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
  }

private:
  std::string dir_;
};

} // namespace stencilc::test

#define EXPECT_CONTAINS(msg, part)                                                                 \
  EXPECT_NE(std::string(msg).find(part), std::string::npos) << "text: " << (msg)
