#include "stencilc/npy.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string_view>

#include "stencilc/error.h"
#include "stencilc/hdf5.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the .npy code assumes a little-endian host"
#endif

namespace stencilc {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLen = 6;
// numpy itself refuses headers over 10000 bytes by default; ours are far smaller.
constexpr std::uint64_t kMaxHeaderLen = 1 << 20;
constexpr std::size_t kMaxRankInFile = 64;

[[noreturn]] void fail(const std::string &path, const std::string &msg) {
  throw Error(path + ": " + msg);
}

enum class Kind { F4, F8, I4, I8, Unknown };

Kind kind_of(const std::string &descr) {
  if (descr == "<f4")
    return Kind::F4;
  if (descr == "<f8")
    return Kind::F8;
  if (descr == "<i4")
    return Kind::I4;
  if (descr == "<i8")
    return Kind::I8;
  return Kind::Unknown;
}

std::size_t itemsize_of(Kind k) {
  switch (k) {
  case Kind::F4:
  case Kind::I4:
    return 4;
  case Kind::F8:
  case Kind::I8:
    return 8;
  default:
    return 0;
  }
}

double element(Kind k, const char *base, std::int64_t i) {
  switch (k) {
  case Kind::F4: {
    float v;
    std::memcpy(&v, base + i * 4, 4);
    return v;
  }
  case Kind::F8: {
    double v;
    std::memcpy(&v, base + i * 8, 8);
    return v;
  }
  case Kind::I4: {
    std::int32_t v;
    std::memcpy(&v, base + i * 4, 4);
    return v;
  }
  case Kind::I8: {
    std::int64_t v;
    std::memcpy(&v, base + i * 8, 8);
    return static_cast<double>(v);
  }
  default:
    return 0;
  }
}

std::string shape_str(const std::vector<std::int64_t> &shape) { return shape_text(shape); }

// Product of the shape, or false on overflow.
bool element_count(const std::vector<std::int64_t> &shape, std::uint64_t &count) {
  count = 1;
  for (std::int64_t d : shape)
    if (d < 0 || __builtin_mul_overflow(count, static_cast<std::uint64_t>(d), &count))
      return false;
  return count <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
}

// Printable, bounded excerpt of header text for error messages.
std::string excerpt(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 80)) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 32 && u < 127) {
      out += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    }
  }
  return s.size() > 80 ? out + "..." : out;
}

struct Header {
  std::string descr;
  bool fortran_order = false;
  std::vector<std::int64_t> shape;
};

// Parser for the small Python-literal dict numpy writes; accepts exactly the three keys.
class HeaderParser {
public:
  HeaderParser(std::string_view text, const std::string &path) : s_(text), path_(path) {}

  Header parse() {
    Header h;
    bool have_descr = false, have_order = false, have_shape = false;
    ws();
    expect('{', "'{'");
    ws();
    while (!eat('}')) {
      std::size_t key_pos = i_;
      std::string key = string_lit();
      ws();
      expect(':', "':' after a key");
      ws();
      auto once = [&](bool &seen) {
        if (seen)
          error("duplicate key '" + key + "'", key_pos);
        seen = true;
      };
      if (key == "descr") {
        once(have_descr);
        h.descr = string_lit();
      } else if (key == "fortran_order") {
        once(have_order);
        h.fortran_order = bool_lit();
      } else if (key == "shape") {
        once(have_shape);
        h.shape = tuple_lit();
      } else {
        error("unexpected key '" + key + "'", key_pos);
      }
      ws();
      if (eat(',')) {
        ws();
        continue;
      }
      expect('}', "',' or '}'");
      break;
    }
    ws();
    if (i_ != s_.size())
      error("unexpected text after the dict", i_);
    for (auto [seen, key] : {std::pair{have_descr, "descr"}, std::pair{have_order, "fortran_order"},
                             std::pair{have_shape, "shape"}})
      if (!seen)
        error(std::string("missing key '") + key + "'", i_);
    return h;
  }

private:
  [[noreturn]] void error(const std::string &what, std::size_t pos) {
    fail(path_, "cannot parse the .npy header: " + what + " at offset " + std::to_string(pos) +
                    " in \"" + excerpt(s_) + "\"");
  }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  bool eat(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void expect(char c, const char *what) {
    if (!eat(c))
      error(std::string("expected ") + what, i_);
  }
  std::string string_lit() {
    std::size_t start = i_;
    if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"'))
      error("expected a string", i_);
    char q = s_[i_++];
    std::size_t end = s_.find(q, i_);
    if (end == std::string_view::npos)
      error("unterminated string", start);
    std::string_view body = s_.substr(i_, end - i_);
    if (body.find('\\') != std::string_view::npos)
      error("escape sequences are not supported", start);
    i_ = end + 1;
    return std::string(body);
  }
  bool bool_lit() {
    if (s_.substr(i_, 4) == "True") {
      i_ += 4;
      return true;
    }
    if (s_.substr(i_, 5) == "False") {
      i_ += 5;
      return false;
    }
    error("expected True or False", i_);
  }
  std::int64_t int_lit() {
    std::size_t start = i_;
    std::int64_t v = 0;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s_[i_] - '0', &v))
        error("dimension too large", start);
      ++i_;
    }
    if (i_ == start)
      error("expected a non-negative integer", start);
    eat('L'); // Python 2 long literal
    return v;
  }
  std::vector<std::int64_t> tuple_lit() {
    std::size_t start = i_;
    expect('(', "a shape tuple");
    std::vector<std::int64_t> shape;
    ws();
    if (eat(')'))
      return shape;
    for (;;) {
      if (shape.size() >= kMaxRankInFile)
        error("too many dimensions", start);
      shape.push_back(int_lit());
      ws();
      if (eat(',')) {
        ws();
        if (eat(')'))
          return shape;
        continue;
      }
      if (eat(')')) {
        if (shape.size() == 1)
          error("shape is not a tuple (a rank-1 shape is written (n,))", start);
        return shape;
      }
      error("expected ',' or ')' in the shape", i_);
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
  const std::string &path_;
};

struct FileCloser {
  void operator()(std::FILE *f) const { std::fclose(f); }
};

std::vector<char> read_file(const std::string &path) {
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f)
    fail(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st;
  bool regular = false;
  if (::fstat(fileno(f.get()), &st) == 0) {
    if (S_ISDIR(st.st_mode))
      fail(path, "cannot read: it is a directory");
    regular = S_ISREG(st.st_mode);
  }
  std::vector<char> buf;
  try {
    if (regular && st.st_size > 0) {
      buf.resize(static_cast<std::size_t>(st.st_size));
      buf.resize(std::fread(buf.data(), 1, buf.size(), f.get()));
    }
    // Pipes (and files that grew) are read to the end in chunks.
    char chunk[1 << 16];
    std::size_t n;
    while (!std::ferror(f.get()) && (n = std::fread(chunk, 1, sizeof chunk, f.get())) > 0)
      buf.insert(buf.end(), chunk, chunk + n);
  } catch (const std::bad_alloc &) {
    fail(path, "file is too large to read into memory");
  }
  if (std::ferror(f.get()))
    fail(path, std::string("cannot read: ") + std::strerror(errno));
  return buf;
}

std::string make_header(const std::string &path, const std::string &descr, bool fortran_order,
                        const std::vector<std::int64_t> &shape) {
  for (char c : descr)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '<' || c == '>' || c == '|' ||
          c == '='))
      fail(path, "cannot write dtype '" + excerpt(descr) + "'");
  for (std::int64_t d : shape)
    if (d < 0)
      fail(path, "cannot write negative shape " + shape_str(shape));
  std::string dict = "{'descr': '" + descr +
                     "', 'fortran_order': " + (fortran_order ? "True" : "False") +
                     ", 'shape': " + shape_str(shape) + ", }";
  // Magic, version and length take 10 bytes; numpy pads the whole header to 64 bytes.
  std::size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  if (dict.size() > 0xffff)
    fail(path, "shape " + shape_str(shape) + " is too long for a version 1.0 .npy header");
  std::string out(kMagic, kMagicLen);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict;
}

// Buffered file writer that reports errors with the path and removes a partial file.
class Writer {
public:
  explicit Writer(const std::string &path) : path_(path), f_(std::fopen(path.c_str(), "wb")) {
    if (!f_)
      fail(path_, std::string("cannot open for writing: ") + std::strerror(errno));
  }
  ~Writer() {
    if (f_) { // not closed: an error is propagating
      std::fclose(f_);
      std::remove(path_.c_str());
    }
  }
  Writer(const Writer &) = delete;
  Writer &operator=(const Writer &) = delete;

  void write(const void *p, std::size_t n) {
    if (n && std::fwrite(p, 1, n, f_) != n)
      fail(path_, std::string("cannot write: ") + std::strerror(errno));
  }
  void close() {
    std::FILE *f = f_;
    f_ = nullptr;
    if (std::fclose(f) != 0) {
      int err = errno;
      std::remove(path_.c_str());
      fail(path_, std::string("cannot write: ") + std::strerror(err));
    }
  }

private:
  std::string path_;
  std::FILE *f_;
};

template <typename T> std::vector<std::int64_t> grid_shape(const Grid<T> &g) {
  std::vector<std::int64_t> shape;
  for (int d = 0; d < g.rank(); ++d)
    shape.push_back(g.extent(d));
  return shape;
}

} // namespace

namespace {

// Checks the first `n` bytes of a .npy file of `size` bytes (n covers the header whenever the
// file does) and parses its header; the data's size is checked against the file's.
NpyHeader parse_npy(const std::string &path, const char *buf, std::size_t n, std::uint64_t size) {
  if (size == 0)
    fail(path, "not a .npy file (it is empty)");
  if (std::memcmp(buf, kMagic, std::min(n, kMagicLen)) != 0)
    fail(path, "not a .npy file (bad magic; it should start with \\x93NUMPY)");
  if (size < kMagicLen + 2)
    fail(path, "truncated header (the file has only " + std::to_string(size) + " bytes)");
  const unsigned major = static_cast<unsigned char>(buf[6]);
  const unsigned minor = static_cast<unsigned char>(buf[7]);
  std::size_t len_bytes;
  if (major == 1)
    len_bytes = 2;
  else if (major == 2 || major == 3)
    len_bytes = 4;
  else
    fail(path, "unsupported .npy format version " + std::to_string(major) + "." +
                   std::to_string(minor) + " (supported: 1.0, 2.0, 3.0)");
  const std::size_t pre = 8 + len_bytes;
  if (size < pre)
    fail(path, "truncated header (the file has only " + std::to_string(size) + " bytes)");
  std::uint64_t hlen = 0;
  for (std::size_t k = 0; k < len_bytes; ++k)
    hlen |= std::uint64_t(static_cast<unsigned char>(buf[8 + k])) << (8 * k);
  if (hlen > kMaxHeaderLen)
    fail(path, "header length " + std::to_string(hlen) + " is too large (limit " +
                   std::to_string(kMaxHeaderLen) + ")");
  if (hlen > size - pre)
    fail(path, "truncated header: it declares " + std::to_string(hlen) + " bytes but only " +
                   std::to_string(size - pre) + " follow");

  Header h = HeaderParser(std::string_view(buf + pre, hlen), path).parse();
  const Kind kind = kind_of(h.descr);
  if (kind == Kind::Unknown)
    fail(path,
         "unsupported dtype '" + excerpt(h.descr) +
             "' (grid files are <f4 for float, <f8 for double, <i4 for int, <i8 for long grids)");
  std::uint64_t count = 0, bytes = 0;
  if (!element_count(h.shape, count) || __builtin_mul_overflow(count, itemsize_of(kind), &bytes))
    fail(path, "shape " + shape_str(h.shape) + " is too large");
  const std::uint64_t have = size - pre - hlen;
  if (bytes != have)
    fail(path, std::string(have < bytes ? "truncated data" : "data size mismatch") + ": shape " +
                   shape_str(h.shape) + " of " + h.descr + " needs " + std::to_string(bytes) +
                   " bytes but the file has " + std::to_string(have) + " after the header");
  return NpyHeader{std::move(h.descr), h.fortran_order, std::move(h.shape), pre + hlen};
}

} // namespace

NpyArray npy_read(const std::string &path) {
  std::vector<char> buf = read_file(path);
  NpyHeader h = parse_npy(path, buf.data(), buf.size(), buf.size());
  NpyArray a;
  a.descr = std::move(h.descr);
  a.fortran_order = h.fortran_order;
  a.shape = std::move(h.shape);
  buf.erase(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(h.data_offset));
  a.data = std::move(buf);
  return a;
}

NpyHeader npy_read_header(const std::string &path) {
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f)
    fail(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st;
  if (::fstat(fileno(f.get()), &st) != 0)
    fail(path, std::string("cannot read: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode))
    fail(path, "cannot read: it is a directory");
  if (!S_ISREG(st.st_mode))
    fail(path, "cannot read in parts: it is not a regular file");
  const std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
  std::vector<char> buf(
      static_cast<std::size_t>(std::min<std::uint64_t>(size, 12 + kMaxHeaderLen)));
  buf.resize(std::fread(buf.data(), 1, buf.size(), f.get()));
  if (std::ferror(f.get()))
    fail(path, std::string("cannot read: ") + std::strerror(errno));
  return parse_npy(path, buf.data(), buf.size(), size);
}

std::string npy_header(const std::string &path, const std::string &descr, bool fortran_order,
                       const std::vector<std::int64_t> &shape) {
  return make_header(path, descr, fortran_order, shape);
}

void npy_write(const std::string &path, const std::string &descr, bool fortran_order,
               const std::vector<std::int64_t> &shape, const void *data, std::size_t bytes) {
  std::string header = make_header(path, descr, fortran_order, shape);
  if (std::size_t item = itemsize_of(kind_of(descr))) {
    std::uint64_t count = 0, need = 0;
    if (!element_count(shape, count) || __builtin_mul_overflow(count, item, &need) || need != bytes)
      fail(path, "cannot write " + std::to_string(bytes) + " bytes as shape " + shape_str(shape) +
                     " of " + descr);
  }
  Writer w(path);
  w.write(header.data(), header.size());
  w.write(data, bytes);
  w.close();
}

template <typename T> void save_grid(const Grid<T> &g, const std::string &path) {
  if (is_hdf5_path(path))
    return h5_save_grid(g, path);
  if (g.rank() == 0)
    fail(path, "grid '" + g.name() + "' has no storage");
  std::string header = make_header(path, npy_descr<T>(), true, grid_shape(g));
  Writer w(path);
  w.write(header.data(), header.size());
  const std::size_t row_bytes = static_cast<std::size_t>(g.extent(0)) * sizeof(T);
  for_each_interior_row(g, [&](const T *row) { w.write(row, row_bytes); });
  w.close();
}

void npy_check_grid(const std::string &path, const NpyHeader &a, const std::string &grid,
                    const std::string &type, const std::string &want,
                    const std::vector<std::int64_t> &fshape) {
  if (a.descr != want)
    fail(path, "dtype '" + a.descr + "' does not match grid '" + grid + "' of type " + type +
                   " ('" + want + "')");
  const std::vector<std::int64_t> cshape(fshape.rbegin(), fshape.rend());
  // When the extents read the same backwards (a cube), a C-order array may be indexed
  // [x, y, z] (np.save of an array in the grid's order) or [z, y, x]: refuse to guess.
  if (fshape.size() > 1 && fshape == cshape && a.shape == fshape && !a.fortran_order) {
    const char *letters[] = {"x", "y", "z", "w"};
    std::string fwd, back;
    for (std::size_t d = 0; d < fshape.size(); ++d) {
      fwd += std::string(d ? ", " : "") + letters[d];
      back += std::string(d ? ", " : "") + letters[fshape.size() - 1 - d];
    }
    fail(path, "shape " + shape_str(a.shape) + " in C order is ambiguous for grid '" + grid +
                   "': numpy may index it [" + fwd + "] or [" + back +
                   "]; save it in Fortran order, indexed [" + fwd +
                   "]: np.save(f, np.asfortranarray(a)), or np.asfortranarray(a.T) if a is "
                   "indexed [" + back + "]");
  }
  // A rank-1 array has the same shape in both orders.
  const bool ok = a.shape == fshape && (a.fortran_order || fshape.size() == 1);
  if (!ok && !(a.shape == cshape && !a.fortran_order)) {
    std::string msg = "shape " + shape_str(a.shape) + " does not match grid '" + grid +
                      "' of shape " + shape_str(fshape) + ": expected ";
    if (fshape.size() == 1)
      msg += shape_str(fshape);
    else
      msg += shape_str(fshape) + " with fortran_order True (Fortran order), or " +
             shape_str(cshape) + " with fortran_order False (C order)";
    msg += "; the file has ";
    if (a.shape.empty())
      msg += "a rank-0 array";
    else
      msg += "rank " + std::to_string(a.shape.size()) + " in " +
             (a.fortran_order ? "Fortran order" : "C order");
    fail(path, msg);
  }
}

template <typename T> void load_grid(Grid<T> &g, const std::string &path) {
  if (is_hdf5_path(path))
    return h5_load_grid(g, path);
  if (g.rank() == 0)
    fail(path, "grid '" + g.name() + "' has no storage");
  NpyArray a = npy_read(path);
  npy_check_grid(path, NpyHeader{a.descr, a.fortran_order, a.shape, 0}, g.name(), type_name<T>(),
                 npy_descr<T>(), grid_shape(g));
  // Both orders the check lets through store x fastest, as the grid does.
  const char *src = a.data.data();
  const std::size_t row_bytes = static_cast<std::size_t>(g.extent(0)) * sizeof(T);
  for_each_interior_row(g, [&](T *row) {
    std::memcpy(row, src, row_bytes);
    src += row_bytes;
  });
}

template void save_grid<float>(const Grid<float> &, const std::string &);
template void save_grid<double>(const Grid<double> &, const std::string &);
template void save_grid<std::int32_t>(const Grid<std::int32_t> &, const std::string &);
template void save_grid<std::int64_t>(const Grid<std::int64_t> &, const std::string &);
template void load_grid<float>(Grid<float> &, const std::string &);
template void load_grid<double>(Grid<double> &, const std::string &);
template void load_grid<std::int32_t>(Grid<std::int32_t> &, const std::string &);
template void load_grid<std::int64_t>(Grid<std::int64_t> &, const std::string &);

NpyDiff npy_compare(const std::string &path_a, const std::string &path_b, double rel_tol) {
  const NpyArray a = npy_read(path_a);
  const NpyArray b = npy_read(path_b);
  const std::string both = path_a + " and " + path_b;
  if (a.descr != b.descr)
    throw Error(both + ": dtypes differ ('" + a.descr + "' vs '" + b.descr + "')");
  if (a.shape != b.shape)
    throw Error(both + ": shapes differ (" + shape_str(a.shape) + " vs " + shape_str(b.shape) +
                ")");
  const Kind kind = kind_of(a.descr);
  const std::size_t rank = a.shape.size();
  std::uint64_t count = 0;
  element_count(a.shape, count); // npy_read checked it

  // Walk a in storage order; if b stores the other order, track b's offset of the same index.
  const bool transpose = rank > 1 && a.fortran_order != b.fortran_order;
  std::vector<std::size_t> order(rank); // dims of a, fastest first
  std::vector<std::int64_t> bstride(rank, 0), idx(rank, 0);
  for (std::size_t k = 0; k < rank; ++k)
    order[k] = a.fortran_order ? k : rank - 1 - k;
  if (transpose) {
    std::int64_t s = 1;
    for (std::size_t k = rank; k-- > 0;) { // b's fastest dim is a's slowest
      bstride[order[k]] = s;
      s *= a.shape[order[k]];
    }
  }

  NpyDiff diff;
  const double inf = std::numeric_limits<double>::infinity();
  std::int64_t boff = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::int64_t ia = static_cast<std::int64_t>(i);
    const double x = element(kind, a.data.data(), ia);
    const std::int64_t ib = transpose ? boff : ia;
    const double y = element(kind, b.data.data(), ib);
    if (transpose) {
      for (std::size_t k = 0; k < rank; ++k) {
        const std::size_t d = order[k];
        boff += bstride[d];
        if (++idx[d] < a.shape[d])
          break;
        boff -= a.shape[d] * bstride[d];
        idx[d] = 0;
      }
    }
    const std::size_t item = itemsize_of(kind);
    const bool same_bits = std::memcmp(a.data.data() + ia * item, b.data.data() + ib * item, item) == 0;
    const bool nx = std::isnan(x), ny = std::isnan(y);
    const bool differs = rel_tol <= 0 ? !same_bits : !same_bits && !(nx && ny) && !(x == y) &&
                         (nx || ny || std::isinf(x) || std::isinf(y) ||
                          std::fabs(x - y) > rel_tol * std::max(std::fabs(x), std::fabs(y)));
    if (differs && diff.differing++ == 0) {
      diff.first_index.assign(rank, 0);
      std::uint64_t rest = i;
      for (std::size_t k = 0; k < rank; ++k) { // a's dims, fastest first
        diff.first_index[order[k]] = static_cast<std::int64_t>(rest % a.shape[order[k]]);
        rest /= a.shape[order[k]];
      }
      diff.first_a = x;
      diff.first_b = y;
    }
    if (!nx)
      diff.max_mag = std::max(diff.max_mag, std::fabs(x));
    if (!ny)
      diff.max_mag = std::max(diff.max_mag, std::fabs(y));
    if (nx || ny) {
      if (nx != ny)
        diff.max_abs = diff.max_rel = inf;
      continue;
    }
    if (x == y)
      continue;
    const double d = std::fabs(x - y);
    const double m = std::max({std::fabs(x), std::fabs(y), std::numeric_limits<double>::min()});
    // Scaled before subtracting so that huge finite values cannot overflow to inf.
    const double r = std::isinf(m) ? inf : std::fabs(x / m - y / m);
    diff.max_abs = std::max(diff.max_abs, d);
    diff.max_rel = std::max(diff.max_rel, r);
  }
  diff.count = static_cast<std::int64_t>(count);
  return diff;
}

} // namespace stencilc
