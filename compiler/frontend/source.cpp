#include "frontend/source.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace stc {
namespace {

// Anything with a NUL byte, other control bytes, or invalid UTF-8 (overlong forms,
// surrogates, code points above U+10FFFF) is not a source file.
bool looks_binary(const std::string &s, std::size_t &where) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = byte(i);
    where = i;
    if (c < 0x80) {
      if ((c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v') ||
          c == 0x7f)
        return true;
      ++i;
      continue;
    }
    int n;
    unsigned lo = 0x80, hi = 0xbf; // allowed range of the first continuation byte
    if (c >= 0xc2 && c <= 0xdf) {
      n = 1;
    } else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c == 0xe0)
        lo = 0xa0; // overlong
      if (c == 0xed)
        hi = 0x9f; // surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c == 0xf0)
        lo = 0x90; // overlong
      if (c == 0xf4)
        hi = 0x8f; // above U+10FFFF
    } else {
      return true;
    }
    if (s.size() - i <= static_cast<std::size_t>(n))
      return true;
    if (byte(i + 1) < lo || byte(i + 1) > hi)
      return true;
    for (int k = 2; k <= n; ++k)
      if ((byte(i + k) >> 6) != 2)
        return true;
    i += n + 1;
  }
  return false;
}

} // namespace

std::optional<SourceFile> read_source(const std::string &path, std::string &error) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    error = "cannot open '" + path + "': " + std::strerror(errno);
    return std::nullopt;
  }
  if (S_ISDIR(st.st_mode)) {
    error = "'" + path + "' is a directory, not a .stn file";
    return std::nullopt;
  }
  if (!S_ISREG(st.st_mode)) {
    error = "'" + path + "' is not a regular file";
    return std::nullopt;
  }
  constexpr off_t kMaxBytes = 16 << 20;
  if (st.st_size > kMaxBytes) {
    error = "'" + path + "' is too large for a .stn file (" + std::to_string(st.st_size) +
            " bytes; the limit is 16 MiB)";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "': " + std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  std::size_t ws = text.find_first_not_of(" \t\r\n\f\v");
  if (ws == std::string::npos) {
    error = "'" + path + "' is empty; a .stn file starts with 'stencil NAME;'";
    return std::nullopt;
  }
  std::size_t where = 0;
  if (looks_binary(text, where)) {
    error = "'" + path + "' is not a text file (byte " + std::to_string(where) +
            " is not printable UTF-8)";
    return std::nullopt;
  }
  return SourceFile(path, std::move(text));
}

} // namespace stc
