#include "stencilc/checkpoint.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <nlohmann/json.hpp>

#include "stencilc/error.h"
#include "stencilc/output.h"

namespace stencilc {

namespace {

constexpr char kMagic[8] = {'S', 'T', 'N', 'C', 'K', 'P', 'T', '\n'};
constexpr std::uint32_t kVersion = 1;

struct Fnv {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  void add(const void *data, std::size_t n) {
    const auto *p = static_cast<const unsigned char *>(data);
    for (std::size_t i = 0; i < n; ++i)
      h = (h ^ p[i]) * 0x100000001b3ULL;
  }
};

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

template <typename U> void put_le(std::string &out, U v) {
  for (std::size_t i = 0; i < sizeof(U); ++i)
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

template <typename U> U get_le(const unsigned char *p) {
  U v = 0;
  for (std::size_t i = 0; i < sizeof(U); ++i)
    v |= static_cast<U>(p[i]) << (8 * i);
  return v;
}

// Writes to a file descriptor, hashing what it writes; `limit` bytes at most (the crash hook).
class Sink {
public:
  Sink(int fd, const std::string &what, std::int64_t limit) : fd_(fd), what_(what), limit_(limit) {}
  void write(const void *data, std::size_t n) {
    fnv_.add(data, n);
    const auto *p = static_cast<const char *>(data);
    while (n > 0) {
      std::size_t chunk = n;
      if (limit_ >= 0 && static_cast<std::int64_t>(chunk) > limit_ - written_)
        chunk = static_cast<std::size_t>(limit_ - written_);
      if (chunk == 0)
        std::_Exit(3); // STENCILC_TEST_CHECKPOINT_CRASH: stop halfway, as a killed process would
      const ssize_t got = ::write(fd_, p, chunk);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        throw Error(what_ + ": write failed: " + std::strerror(errno));
      p += got;
      n -= static_cast<std::size_t>(got);
      written_ += got;
    }
  }
  std::uint64_t hash() const { return fnv_.h; }

private:
  int fd_;
  std::string what_;
  std::int64_t limit_;
  std::int64_t written_ = 0;
  Fnv fnv_;
};

// Closes the descriptor and removes the temporary file unless the write got through.
struct TempFile {
  int fd = -1;
  std::string path;
  bool keep = false;
  ~TempFile() {
    if (fd >= 0)
      ::close(fd);
    if (!keep)
      ::unlink(path.c_str());
  }
};

// The checks of the first 16 bytes of a file of `size` bytes (fewer if it is shorter); returns
// the header's length.
std::size_t check_head(const std::string &what, const unsigned char *p, std::size_t size) {
  if (size < sizeof kMagic || std::memcmp(p, kMagic, sizeof kMagic) != 0)
    throw Error(what + ": not a stencilc checkpoint (bad magic)");
  if (size < 16 + 8)
    throw Error(what + ": truncated (" + std::to_string(size) + " bytes)");
  const auto version = get_le<std::uint32_t>(p + 8);
  if (version != kVersion)
    throw Error(what + ": checkpoint format version " + std::to_string(version) +
                ", this executable reads version " + std::to_string(kVersion));
  const std::size_t hlen = get_le<std::uint32_t>(p + 12);
  if (16 + hlen + 8 > size)
    throw Error(what + ": truncated (" + std::to_string(size) + " bytes)");
  return hlen;
}

std::FILE *open_to_read(const std::string &what, const std::string &path) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    throw Error(what + ": cannot open: " + std::strerror(errno));
  return f;
}

int crash_at_write() {
  const char *v = std::getenv("STENCILC_TEST_CHECKPOINT_CRASH");
  return v ? std::atoi(v) : 0;
}

} // namespace

GridRef Checkpoint::grid(std::size_t i) const {
  return std::visit([](const auto &g) -> GridRef { return &g; }, grids.at(i));
}

std::string fingerprint(const std::string &program,
                        const std::vector<std::pair<std::string, std::string>> &params) {
  Fnv f;
  f.add(program.data(), program.size());
  for (const auto &[name, value] : params) {
    const std::string item = "\n" + name + "=" + value;
    f.add(item.data(), item.size());
  }
  return hex64(f.h);
}

std::string param_text(std::int64_t v) { return std::to_string(v); }
std::string param_text(double v) { return "0x" + hex64(bits(v)); }

void check_checkpoint_path(const std::string &path) {
  try {
    check_writable(path);
  } catch (const Error &e) {
    throw Error("--checkpoint " + std::string(e.what()));
  }
}

void write_checkpoint(const std::string &path, const CheckpointHeader &header,
                      const std::vector<GridRef> &grids) {
  static int writes = 0;
  const int crash_at = crash_at_write();
  const std::string what = "--checkpoint " + path;

  nlohmann::ordered_json h;
  h["stencil"] = header.stencil;
  h["fingerprint"] = header.fingerprint;
  h["step"] = header.step;
  h["state"] = nlohmann::ordered_json::array();
  for (double v : header.state)
    h["state"].push_back(hex64(bits(v)));
  h["grids"] = nlohmann::ordered_json::array();
  std::int64_t bytes = 0;
  for (const GridRef &g : grids)
    std::visit(
        [&](const auto *p) {
          using T = typename std::remove_pointer_t<decltype(p)>::value_type;
          h["grids"].push_back(
              {{"name", p->name()}, {"dtype", npy_descr<T>()}, {"shape", grid_extents(g)}});
          bytes += p->interior_size() * static_cast<std::int64_t>(sizeof(T));
        },
        g);
  const std::string text = h.dump();
  std::string head(kMagic, sizeof kMagic);
  put_le<std::uint32_t>(head, kVersion);
  put_le<std::uint32_t>(head, static_cast<std::uint32_t>(text.size()));
  head += text;

  TempFile tmp;
  tmp.path = path + ".tmp";
  tmp.fd = ::open(tmp.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (tmp.fd < 0)
    throw Error(what + ": cannot open " + tmp.path + " for writing: " + std::strerror(errno));
  const std::int64_t total = static_cast<std::int64_t>(head.size()) + bytes + 8;
  Sink out(tmp.fd, what, ++writes == crash_at ? total / 2 : -1);
  out.write(head.data(), head.size());
  for (const GridRef &g : grids)
    std::visit(
        [&](const auto *p) {
          using T = typename std::remove_pointer_t<decltype(p)>::value_type;
          const std::size_t row = static_cast<std::size_t>(p->extent(0)) * sizeof(T);
          for_each_interior_row(*p, [&](const T *r) { out.write(r, row); });
        },
        g);
  std::string tail;
  put_le<std::uint64_t>(tail, out.hash());
  out.write(tail.data(), tail.size());
  if (::fsync(tmp.fd) != 0)
    throw Error(what + ": fsync of " + tmp.path + " failed: " + std::strerror(errno));
  const int fd = tmp.fd;
  tmp.fd = -1;
  if (::close(fd) != 0)
    throw Error(what + ": closing " + tmp.path + " failed: " + std::strerror(errno));
  if (::rename(tmp.path.c_str(), path.c_str()) != 0)
    throw Error(what + ": cannot rename " + tmp.path + " to " + path + ": " + std::strerror(errno));
  tmp.keep = true;
  // The rename itself survives a power cut once the directory is synced.
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

Checkpoint read_checkpoint(const std::string &path) {
  const std::string what = "--restart " + path;
  std::FILE *f = open_to_read(what, path);
  std::vector<unsigned char> buf;
  unsigned char block[1 << 16];
  std::size_t n;
  while ((n = std::fread(block, 1, sizeof block, f)) > 0)
    buf.insert(buf.end(), block, block + n);
  const bool failed = std::ferror(f);
  std::fclose(f);
  if (failed)
    throw Error(what + ": read failed");

  const std::size_t hlen = check_head(what, buf.data(), buf.size());
  Fnv fnv;
  fnv.add(buf.data(), buf.size() - 8);
  if (fnv.h != get_le<std::uint64_t>(buf.data() + buf.size() - 8))
    throw Error(what + ": truncated or corrupt (checksum mismatch)");

  Checkpoint c;
  std::size_t at = 16 + hlen;
  try {
    const auto h = nlohmann::json::parse(buf.begin() + 16, buf.begin() + 16 + hlen);
    c.header.stencil = h.at("stencil").get<std::string>();
    c.header.fingerprint = h.at("fingerprint").get<std::string>();
    c.header.step = h.at("step").get<std::int64_t>();
    for (const auto &s : h.at("state")) {
      const std::uint64_t b = std::stoull(s.get<std::string>(), nullptr, 16);
      double v;
      std::memcpy(&v, &b, sizeof v);
      c.header.state.push_back(v);
    }
    for (const auto &g : h.at("grids")) {
      const auto name = g.at("name").get<std::string>();
      const auto dtype = g.at("dtype").get<std::string>();
      const auto shape = g.at("shape").get<std::vector<std::int64_t>>();
      if (shape.empty() || shape.size() > static_cast<std::size_t>(kMaxRank))
        throw Error("grid " + name + " has rank " + std::to_string(shape.size()));
      Extents ext{1, 1, 1, 1};
      for (std::size_t d = 0; d < shape.size(); ++d)
        ext[d] = shape[d];
      auto take = [&](auto tag) {
        using T = decltype(tag);
        Grid<T> whole(name, static_cast<int>(shape.size()), ext, Halos{0, 0, 0, 0});
        const std::size_t row = static_cast<std::size_t>(whole.extent(0)) * sizeof(T);
        const std::size_t need = static_cast<std::size_t>(whole.interior_size()) * sizeof(T);
        if (at + need > buf.size() - 8)
          throw Error("the data of grid " + name + " is missing");
        for_each_interior_row(whole, [&](T *r) {
          std::memcpy(r, buf.data() + at, row);
          at += row;
        });
        c.grids.emplace_back(std::move(whole));
      };
      if (dtype == npy_descr<float>())
        take(float());
      else if (dtype == npy_descr<double>())
        take(double());
      else if (dtype == npy_descr<std::int32_t>())
        take(std::int32_t());
      else if (dtype == npy_descr<std::int64_t>())
        take(std::int64_t());
      else
        throw Error("grid " + name + " has dtype " + dtype);
    }
  } catch (const nlohmann::json::exception &e) {
    throw Error(what + ": corrupt header (" + e.what() + ")");
  } catch (const std::logic_error &) { // stoull
    throw Error(what + ": corrupt header (a bad state value)");
  } catch (const Error &e) {
    throw Error(what + ": corrupt: " + e.what());
  }
  if (at != buf.size() - 8)
    throw Error(what + ": corrupt: " + std::to_string(buf.size() - 8 - at) +
                " bytes after the grids");
  return c;
}

void check_identity(const std::string &path, const CheckpointHeader &h, const std::string &stencil,
                    const std::string &fingerprint) {
  const std::string what = "--restart " + path;
  if (h.stencil != stencil)
    throw Error(what + ": a checkpoint of stencil '" + h.stencil + "', not '" + stencil + "'");
  if (h.fingerprint != fingerprint)
    throw Error(what + ": a checkpoint of another version of " + h.stencil +
                " or other param values (fingerprint " + h.fingerprint + ", this run " +
                fingerprint + ")");
}

void check_checkpoint(const std::string &path, const std::string &stencil,
                      const std::string &fingerprint) {
  const std::string what = "--restart " + path;
  std::FILE *f = open_to_read(what, path);
  std::vector<unsigned char> head(16);
  std::size_t size = 0;
  std::string text;
  Fnv fnv;
  std::uint64_t stored = 0;
  try {
    std::fseek(f, 0, SEEK_END);
    size = static_cast<std::size_t>(std::ftell(f));
    std::rewind(f);
    head.resize(std::fread(head.data(), 1, head.size(), f));
    const std::size_t hlen = check_head(what, head.data(), size);
    text.resize(hlen);
    if (std::fread(text.data(), 1, hlen, f) != hlen)
      throw Error(what + ": read failed");
    fnv.add(head.data(), head.size());
    fnv.add(text.data(), text.size());
    // The grids, a block at a time: nothing of their size is allocated.
    std::size_t left = size - 16 - hlen - 8, n = 0;
    unsigned char block[1 << 16];
    while (left > 0 && (n = std::fread(block, 1, std::min(left, sizeof block), f)) > 0) {
      fnv.add(block, n);
      left -= n;
    }
    unsigned char tail[8] = {};
    if (left > 0 || std::fread(tail, 1, 8, f) != 8)
      throw Error(what + ": read failed");
    stored = get_le<std::uint64_t>(tail);
  } catch (...) {
    std::fclose(f);
    throw;
  }
  std::fclose(f);
  if (fnv.h != stored)
    throw Error(what + ": truncated or corrupt (checksum mismatch)");
  CheckpointHeader h;
  try {
    const auto j = nlohmann::json::parse(text);
    h.stencil = j.at("stencil").get<std::string>();
    h.fingerprint = j.at("fingerprint").get<std::string>();
  } catch (const nlohmann::json::exception &e) {
    throw Error(what + ": corrupt header (" + e.what() + ")");
  }
  check_identity(path, h, stencil, fingerprint);
}

template <typename T>
const Grid<T> *restored_grid(const GridRef &whole, const std::string &name,
                             const std::vector<std::int64_t> &extents) {
  if (std::visit([](const auto *g) { return g == nullptr; }, whole))
    return nullptr;
  const Grid<T> *const *p = std::get_if<const Grid<T> *>(&whole);
  if (!p)
    throw Error("restoring grid " + name + ": the checkpoint's grid is not of type " +
                type_name<T>());
  if (grid_extents(*p) != extents)
    throw Error("restoring grid " + name + ": the checkpoint's grid has shape " +
                shape_text(grid_extents(*p)) + ", not " + shape_text(extents));
  return *p;
}

template <typename T> void copy_interior(const Grid<T> &from, Grid<T> &to) {
  const std::size_t row = static_cast<std::size_t>(to.extent(0)) * sizeof(T);
  for (std::int64_t w = 0; w < to.extent(3); ++w)
    for (std::int64_t z = 0; z < to.extent(2); ++z)
      for (std::int64_t y = 0; y < to.extent(1); ++y)
        std::memcpy(&to.at(0, y, z, w), &from.at(0, y, z, w), row);
}

template <typename T> void restore_grid(Grid<T> &g, const GridRef &whole) {
  if (const Grid<T> *from = restored_grid<T>(whole, g.name(), grid_extents(&g)))
    copy_interior(*from, g);
}

#define STENCILC_INSTANTIATE(T)                                                                    \
  template const Grid<T> *restored_grid<T>(const GridRef &, const std::string &,                   \
                                           const std::vector<std::int64_t> &);                     \
  template void copy_interior<T>(const Grid<T> &, Grid<T> &);                                      \
  template void restore_grid<T>(Grid<T> &, const GridRef &);
STENCILC_INSTANTIATE(float)
STENCILC_INSTANTIATE(double)
STENCILC_INSTANTIATE(std::int32_t)
STENCILC_INSTANTIATE(std::int64_t)
#undef STENCILC_INSTANTIATE

} // namespace stencilc
