#include "stencilc/npy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "stencilc/error.h"
#include "stencilc/grid.h"

using namespace stencilc;

namespace {

class RuntimeNpy : public ::testing::Test {
protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "stencilc_npy_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string path(const std::string &name) const { return dir_ + "/" + name; }

  std::string write_raw(const std::string &name, const std::string &bytes) const {
    std::string p = path(name);
    // A fresh inode: ext4 flushes files truncated on rewrite, which makes loops slow.
    std::filesystem::remove(p);
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }
  std::string read_raw(const std::string &p) const {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
  }

  std::string dir_;
};

// A v1.0 file with the given header dict text (padded by us) and data bytes.
std::string npy_bytes(const std::string &dict, const std::string &data, int major = 1) {
  std::string h = dict;
  std::size_t pre = major == 1 ? 10 : 12;
  while ((pre + h.size() + 1) % 64)
    h += ' ';
  h += '\n';
  std::string out("\x93NUMPY", 6);
  out += char(major);
  out += '\0';
  for (std::size_t k = 0; k < pre - 8; ++k)
    out += char((h.size() >> (8 * k)) & 0xff);
  return out + h + data;
}

std::string floats(std::vector<float> v) {
  return std::string(reinterpret_cast<const char *>(v.data()), v.size() * sizeof(float));
}

std::string error_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "<no error>";
}

#define EXPECT_CONTAINS(msg, part)                                                                 \
  EXPECT_NE(std::string(msg).find(part), std::string::npos) << "message: " << (msg)

template <typename T> void round_trip(const std::string &file, int rank) {
  Extents e{5, 3, 2, 3};
  Grid<T> src("u", rank, e, {1, 2, 1, 1});
  fill_random(src, 11, std::uint64_t(rank));
  save_grid(src, file);
  Grid<T> dst("u", rank, e, {3, 0, 2, 0}); // a different layout on purpose
  dst.fill_halo(T(-5));
  load_grid(dst, file);
  for (std::int64_t w = 0; w < src.extent(3); ++w)
    for (std::int64_t z = 0; z < src.extent(2); ++z)
      for (std::int64_t y = 0; y < src.extent(1); ++y)
        for (std::int64_t x = 0; x < src.extent(0); ++x)
          ASSERT_EQ(dst.at(x, y, z, w), src.at(x, y, z, w));
  EXPECT_EQ(dst.at(-3), T(-5));
  EXPECT_EQ(dst.at(src.extent(0) + 2), T(-5));

  NpyArray a = npy_read(file);
  EXPECT_EQ(a.descr, npy_descr<T>());
  EXPECT_TRUE(a.fortran_order);
  ASSERT_EQ(a.shape.size(), std::size_t(rank));
  for (int d = 0; d < rank; ++d)
    EXPECT_EQ(a.shape[d], e[d]);
  ASSERT_EQ(a.data.size(), src.interior_size() * sizeof(T));
  T second;
  std::memcpy(&second, a.data.data() + sizeof(T), sizeof(T));
  EXPECT_EQ(second, src.at(1)); // x fastest
}

} // namespace

TEST_F(RuntimeNpy, RoundTripAllTypesAndRanks) {
  for (int rank = 1; rank <= 4; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    const std::string r = std::to_string(rank);
    round_trip<float>(path("f" + r + ".npy"), rank);
    round_trip<double>(path("d" + r + ".npy"), rank);
    round_trip<std::int32_t>(path("i" + r + ".npy"), rank);
    round_trip<std::int64_t>(path("l" + r + ".npy"), rank);
  }
}

// long grids keep values past 32 bits through a file, and refuse an int file.
TEST_F(RuntimeNpy, LongGridsKeepSixtyFourBits) {
  Grid<std::int64_t> g("l", 1, {3, 1, 1, 1}, {1, 0, 0, 0});
  g.at(0) = 5000000000;
  g.at(1) = -(std::int64_t(1) << 62);
  g.at(2) = 7;
  save_grid(g, path("l.npy"));
  EXPECT_EQ(npy_read(path("l.npy")).descr, "<i8");
  Grid<std::int64_t> h("l", 1, {3, 1, 1, 1}, {0, 0, 0, 0});
  load_grid(h, path("l.npy"));
  EXPECT_EQ(h.at(0), 5000000000);
  EXPECT_EQ(h.at(1), -(std::int64_t(1) << 62));
  EXPECT_EQ(h.at(2), 7);
  Grid<std::int32_t> i("l", 1, {3, 1, 1, 1}, {0, 0, 0, 0});
  EXPECT_EQ(error_of([&] { load_grid(i, path("l.npy")); }),
            path("l.npy") + ": dtype '<i8' does not match grid 'l' of type int ('<i4')");
}

TEST_F(RuntimeNpy, WrittenHeaderIsNumpyStyle) {
  Grid<float> g("u", 2, {4, 3, 1, 1}, {1, 1, 0, 0});
  save_grid(g, path("u.npy"));
  std::string raw = read_raw(path("u.npy"));
  ASSERT_GE(raw.size(), 10u);
  EXPECT_EQ(raw.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  std::size_t hlen = std::size_t((unsigned char)raw[8]) | std::size_t((unsigned char)raw[9]) << 8;
  EXPECT_EQ((10 + hlen) % 64, 0u);
  std::string header = raw.substr(10, hlen);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': True, 'shape': (4, 3), }", 0), 0u)
      << header;
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(raw.size(), 10 + hlen + 12 * sizeof(float));

  Grid<double> r1("r", 1, {7, 1, 1, 1}, {0, 0, 0, 0});
  save_grid(r1, path("r.npy"));
  EXPECT_NE(read_raw(path("r.npy")).find("'shape': (7,), }"), std::string::npos);
}

TEST_F(RuntimeNpy, LoadsReversedCOrder) {
  // numpy's natural C-order array a[y, x] with x fastest: the same bytes as save_grid.
  std::vector<float> v(12);
  for (int i = 0; i < 12; ++i)
    v[i] = float(i);
  npy_write(path("c.npy"), "<f4", false, {3, 4}, v.data(), v.size() * 4);
  Grid<float> g("u", 2, {4, 3, 1, 1}, {1, 1, 0, 0});
  load_grid(g, path("c.npy"));
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 4; ++x)
      EXPECT_EQ(g.at(x, y), float(y * 4 + x));

  // Rank 1 is the same in both orders.
  npy_write(path("c1.npy"), "<f4", false, {4}, v.data(), 16);
  Grid<float> h("h", 1, {4, 1, 1, 1}, {2, 0, 0, 0});
  load_grid(h, path("c1.npy"));
  EXPECT_EQ(h.at(3), 3.0f);

  // Rank 3 C order: shape (e2, e1, e0) (not a palindrome: see COrderCubeIsAmbiguous).
  npy_write(path("c3.npy"), "<f4", false, {2, 2, 3}, v.data(), 48);
  Grid<float> k("k", 3, {3, 2, 2, 1}, {1, 1, 1, 0});
  load_grid(k, path("c3.npy"));
  EXPECT_EQ(k.at(2, 1, 1), float(2 + 1 * 3 + 1 * 6));
}

// A C-order array whose shape reads the same backwards (a cube) may be np.save of u[x, y, z]
// or of u[z, y, x]: loading it would transpose one of them silently, so it is an error.
TEST_F(RuntimeNpy, COrderCubeIsAmbiguous) {
  std::vector<float> v(27);
  npy_write(path("c.npy"), "<f4", false, {3, 3, 3}, v.data(), v.size() * 4);
  Grid<float> g("u", 3, {3, 3, 3, 1}, {1, 1, 1, 0});
  g.fill(5);
  EXPECT_EQ(error_of([&] { load_grid(g, path("c.npy")); }),
            path("c.npy") + ": shape (3, 3, 3) in C order is ambiguous for grid 'u': numpy may "
                            "index it [x, y, z] or [z, y, x]; save it in Fortran order, indexed "
                            "[x, y, z]: np.save(f, np.asfortranarray(a)), or "
                            "np.asfortranarray(a.T) if a is indexed [z, y, x]");
  EXPECT_EQ(g.at(1, 1, 1), 5.0f);
  // Any palindrome: a square, (3, 1, 3).
  npy_write(path("s.npy"), "<f4", false, {3, 3}, v.data(), 36);
  Grid<float> s("s", 2, {3, 3, 1, 1}, {1, 1, 0, 0});
  EXPECT_CONTAINS(error_of([&] { load_grid(s, path("s.npy")); }),
                  "ambiguous for grid 's': numpy may index it [x, y] or [y, x]");
  npy_write(path("p.npy"), "<f4", false, {3, 1, 3}, v.data(), 36);
  Grid<float> q("q", 3, {3, 1, 3, 1}, {1, 0, 1, 0});
  EXPECT_CONTAINS(error_of([&] { load_grid(q, path("p.npy")); }), "is ambiguous");
  // Fortran order is unambiguous: what --save writes loads back.
  g.fill(7);
  save_grid(g, path("f.npy"));
  Grid<float> h("u", 3, {3, 3, 3, 1}, {0, 0, 0, 0});
  load_grid(h, path("f.npy"));
  EXPECT_EQ(h.at(2, 1, 0), 7.0f);
}

// Files of a dtype no grid has name the grid dtypes, not every dtype the reader knows.
TEST_F(RuntimeNpy, UnsupportedDtypeListsGridDtypes) {
  std::vector<std::int16_t> v(2);
  npy_write(path("i2.npy"), "<i2", false, {2}, v.data(), 4);
  const std::string msg = error_of([&] { npy_read(path("i2.npy")); });
  EXPECT_EQ(msg, path("i2.npy") + ": unsupported dtype '<i2' (grid files are <f4 for float, <f8 "
                                  "for double, <i4 for int, <i8 for long grids)");
}

TEST_F(RuntimeNpy, ReadsVersions2And3) {
  for (int major : {2, 3}) {
    std::string p = write_raw("v.npy", npy_bytes("{'descr': '<f4', 'fortran_order': False, "
                                                 "'shape': (2,)}",
                                                 floats({1.5f, 2.5f}), major));
    NpyArray a = npy_read(p);
    EXPECT_EQ(a.shape, std::vector<std::int64_t>{2});
    EXPECT_FALSE(a.fortran_order);
    ASSERT_EQ(a.data.size(), 8u);
  }
}

TEST_F(RuntimeNpy, HeaderSpellingVariants) {
  // Double quotes, no trailing comma, odd spacing, key order, Python 2 longs, rank 0.
  std::string p = write_raw("a.npy", npy_bytes("{ \"shape\" : ( 2 , 1L ) ,\"fortran_order\":True,"
                                               "'descr':'<f4' }",
                                               floats({1, 2})));
  NpyArray a = npy_read(p);
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{2, 1}));
  EXPECT_TRUE(a.fortran_order);
  p = write_raw("s.npy",
                npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': ()}", floats({4})));
  a = npy_read(p);
  EXPECT_TRUE(a.shape.empty());
  EXPECT_EQ(a.data.size(), 4u);
  p = write_raw("e.npy",
                npy_bytes("{'descr': '<i8', 'fortran_order': False, 'shape': (0, 3)}", ""));
  a = npy_read(p);
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{0, 3}));
  EXPECT_TRUE(a.data.empty());
}

TEST_F(RuntimeNpy, FileErrors) {
  std::string missing = path("missing.npy");
  std::string msg = error_of([&] { npy_read(missing); });
  EXPECT_CONTAINS(msg, missing + ": cannot open");
  EXPECT_CONTAINS(msg, "No such file");
  msg = error_of([&] { npy_read(dir_); });
  EXPECT_CONTAINS(msg, "directory");
  msg = error_of([&] { npy_read(write_raw("empty.npy", "")); });
  EXPECT_CONTAINS(msg, "empty");
  msg = error_of([&] { npy_read(write_raw("magic.npy", "PK\x03\x04 this is a zip file")); });
  EXPECT_CONTAINS(msg, "bad magic");
  msg = error_of([&] { npy_read(write_raw("short.npy", "\x93NUM")); });
  EXPECT_CONTAINS(msg, "truncated header");
  msg =
      error_of([&] { npy_read(write_raw("short2.npy", std::string("\x93NUMPY\x01\x00\x40", 9))); });
  EXPECT_CONTAINS(msg, "truncated header");
  msg = error_of(
      [&] { npy_read(write_raw("ver.npy", std::string("\x93NUMPY\x04\x00\x10\x00", 10))); });
  EXPECT_CONTAINS(msg, "unsupported .npy format version 4.0");

  msg = error_of([&] { npy_write(path("no/such/dir/x.npy"), "<f4", false, {1}, "abcd", 4); });
  EXPECT_CONTAINS(msg, "cannot open for writing");
  msg = error_of([&] { npy_write(path("x.npy"), "<f4", false, {2}, "abcd", 4); });
  EXPECT_CONTAINS(msg, "cannot write 4 bytes as shape (2,)");
  Grid<float> g("u", 1, {3, 1, 1, 1}, {0, 0, 0, 0});
  msg = error_of([&] { save_grid(g, path("no/such/dir/u.npy")); });
  EXPECT_CONTAINS(msg, "cannot open for writing");
  Grid<float> empty;
  EXPECT_CONTAINS(error_of([&] { save_grid(empty, path("e.npy")); }), "has no storage");
  EXPECT_CONTAINS(error_of([&] { load_grid(empty, path("e.npy")); }), "has no storage");
}

TEST_F(RuntimeNpy, TruncatedAndLyingFiles) {
  Grid<double> g("u", 2, {4, 3, 1, 1}, {0, 0, 0, 0});
  save_grid(g, path("good.npy"));
  std::string good = read_raw(path("good.npy"));
  ASSERT_EQ(good.size(), 128u + 96u);

  std::string msg =
      error_of([&] { npy_read(write_raw("t.npy", good.substr(0, good.size() - 1))); });
  EXPECT_CONTAINS(msg, "truncated data");
  EXPECT_CONTAINS(msg, "needs 96 bytes but the file has 95");
  msg = error_of([&] { npy_read(write_raw("t.npy", good.substr(0, 100))); });
  EXPECT_CONTAINS(msg, "truncated header");
  msg = error_of([&] { npy_read(write_raw("t.npy", good + "xx")); });
  EXPECT_CONTAINS(msg, "data size mismatch");

  // Header length larger than the file.
  std::string lie = good.substr(0, 128);
  lie[8] = char(0xff);
  lie[9] = char(0x7f);
  msg = error_of([&] { npy_read(write_raw("lie.npy", lie)); });
  EXPECT_CONTAINS(msg, "truncated header: it declares 32767 bytes");
  // Header length shorter than the real header: the dict is cut.
  lie = good;
  lie[8] = char(20);
  msg = error_of([&] { npy_read(write_raw("lie.npy", lie)); });
  EXPECT_CONTAINS(msg, "cannot parse the .npy header");
  // Absurd v2 header length.
  std::string huge = std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12) + "{}";
  msg = error_of([&] { npy_read(write_raw("huge.npy", huge)); });
  EXPECT_CONTAINS(msg, "header length 4294967295 is too large");
}

// What the MPI runtime's parallel reader asks first: the header alone, with npy_read's verdict
// (its checks of the data's size included) on every kind of bad file.
TEST_F(RuntimeNpy, HeaderAloneHasNpyReadsVerdict) {
  Grid<double> g("u", 2, {4, 3, 1, 1}, {0, 0, 0, 0});
  save_grid(g, path("good.npy"));
  const std::string good = read_raw(path("good.npy"));
  const NpyHeader h = npy_read_header(path("good.npy"));
  EXPECT_EQ(h.descr, "<f8");
  EXPECT_TRUE(h.fortran_order);
  EXPECT_EQ(h.shape, (std::vector<std::int64_t>{4, 3}));
  EXPECT_EQ(h.data_offset, 128u);
  EXPECT_EQ(npy_header(path("x.npy"), "<f8", true, {4, 3}), good.substr(0, 128));
  std::string lie = good;
  lie[8] = char(20);
  const std::vector<std::string> bad = {"",
                                        "\x93NUMPX",
                                        good.substr(0, 9),
                                        good.substr(0, 100),
                                        good.substr(0, good.size() - 1),
                                        good + "xx",
                                        lie,
                                        std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12)};
  for (const std::string &content : bad) {
    const std::string f = write_raw("bad.npy", content);
    const std::string want = error_of([&] { npy_read(f); });
    ASSERT_NE(want, "<no error>");
    EXPECT_EQ(error_of([&] { npy_read_header(f); }), want);
  }
  EXPECT_EQ(error_of([&] { npy_read_header(path("none.npy")); }),
            error_of([&] { npy_read(path("none.npy")); }));
}

TEST_F(RuntimeNpy, GarbageHeaders) {
  struct Case {
    std::string dict, expect;
  };
  const std::string data = floats({1, 2});
  const std::vector<Case> cases = {
      {"garbage", "expected '{'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", "expected ',' or '}'"},
      {"{'descr': '<f4', 'fortran_order': maybe, 'shape': (2,)}", "expected True or False"},
      {"{'descr': '<f4', 'fortran_order': False}", "missing key 'shape'"},
      {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}",
       "duplicate key 'descr'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", "unexpected key 'x'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2)}", "shape is not a tuple"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-2,)}", "non-negative integer"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': [2]}", "a shape tuple"},
      {"{'descr': '<f4, 'fortran_order': False, 'shape': (2,)}", "expected ',' or '}'"},
      {"{'descr' '<f4', 'fortran_order': False, 'shape': (2,)}", "expected ':'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} junk", "unexpected text"},
      {"{'descr\\x': '<f4'}", "escape"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}",
       "dimension too large"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4)}",
       "shape (4611686018427387904, 4) is too large"},
      {"{'descr': '>f4', 'fortran_order': False, 'shape': (2,)}", "unsupported dtype '>f4'"},
      {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}", "expected a string"},
      {"{'descr': '<c16', 'fortran_order': False, 'shape': (2,)}", "unsupported dtype '<c16'"},
      {"{'descr': '<f4" + std::string(1, '\0') + "', 'fortran_order': False, 'shape': (2,)}",
       "unsupported dtype '<f4\\x00'"},
  };
  for (const Case &c : cases) {
    std::string msg = error_of([&] { npy_read(write_raw("g.npy", npy_bytes(c.dict, data))); });
    EXPECT_CONTAINS(msg, c.expect);
    EXPECT_CONTAINS(msg, "g.npy: ");
  }
}

// Every truncation and many single-byte corruptions either load or give an Error.
TEST_F(RuntimeNpy, MutatedFilesNeverCrash) {
  Grid<float> g("u", 3, {2, 2, 2, 1}, {0, 0, 0, 0});
  fill_random(g, 1, 0);
  save_grid(g, path("good.npy"));
  const std::string good = read_raw(path("good.npy"));
  auto probe = [&](const std::string &bytes) {
    std::string p = write_raw("m.npy", bytes);
    try {
      NpyArray a = npy_read(p);
      Grid<float> h("u", 3, {2, 2, 2, 1}, {1, 1, 1, 0});
      load_grid(h, p);
    } catch (const Error &) {
    }
  };
  for (std::size_t n = 0; n < good.size(); ++n)
    probe(good.substr(0, n));
  for (std::size_t i = 0; i < 128; ++i)
    for (char c : {'\0', '\xff', '(', ',', ')', '9', '\''}) {
      std::string bad = good;
      bad[i] = c;
      probe(bad);
    }
}

TEST_F(RuntimeNpy, LoadGridMismatches) {
  const std::string u = path("u.npy");
  Grid<float> g("u", 2, {4, 6, 1, 1}, {1, 1, 0, 0});

  Grid<double> d("u", 2, {4, 6, 1, 1}, {0, 0, 0, 0});
  save_grid(d, u);
  EXPECT_EQ(error_of([&] { load_grid(g, u); }),
            u + ": dtype '<f8' does not match grid 'u' of type float ('<f4')");
  Grid<std::int32_t> ig("n", 2, {4, 6, 1, 1}, {0, 0, 0, 0});
  EXPECT_EQ(error_of([&] { load_grid(ig, u); }),
            u + ": dtype '<f8' does not match grid 'n' of type int ('<i4')");

  Grid<float> f45("v", 2, {4, 5, 1, 1}, {0, 0, 0, 0});
  save_grid(f45, u);
  std::string msg = error_of([&] { load_grid(g, u); });
  EXPECT_CONTAINS(msg, u + ": shape (4, 5) does not match grid 'u' of shape (4, 6)");
  EXPECT_CONTAINS(msg, "(4, 6) with fortran_order True");
  EXPECT_CONTAINS(msg, "(6, 4) with fortran_order False");
  EXPECT_CONTAINS(msg, "the file has rank 2 in Fortran order");

  // Right numbers, wrong order: a C-order (4, 6) is not the grid's (x, y) = (4, 6).
  std::vector<float> v(24);
  npy_write(u, "<f4", false, {4, 6}, v.data(), 96);
  msg = error_of([&] { load_grid(g, u); });
  EXPECT_CONTAINS(msg, "shape (4, 6) does not match grid 'u' of shape (4, 6)");
  EXPECT_CONTAINS(msg, "in C order");
  // Fortran order with the reversed shape is wrong too.
  npy_write(u, "<f4", true, {6, 4}, v.data(), 96);
  EXPECT_CONTAINS(error_of([&] { load_grid(g, u); }), "shape (6, 4) does not match");

  // Rank mismatches, including rank 0 and an empty array.
  npy_write(u, "<f4", true, {4, 6, 1}, v.data(), 96);
  msg = error_of([&] { load_grid(g, u); });
  EXPECT_CONTAINS(msg, "shape (4, 6, 1) does not match grid 'u' of shape (4, 6)");
  EXPECT_CONTAINS(msg, "rank 3");
  npy_write(u, "<f4", false, {24}, v.data(), 96);
  EXPECT_CONTAINS(error_of([&] { load_grid(g, u); }), "shape (24,) does not match");
  npy_write(u, "<f4", false, {}, v.data(), 4);
  msg = error_of([&] { load_grid(g, u); });
  EXPECT_CONTAINS(msg, "shape () does not match");
  EXPECT_CONTAINS(msg, "rank-0");
  npy_write(u, "<f4", true, {0, 6}, v.data(), 0);
  EXPECT_CONTAINS(error_of([&] { load_grid(g, u); }), "shape (0, 6) does not match");

  Grid<float> r1("r", 1, {6, 1, 1, 1}, {0, 0, 0, 0});
  npy_write(u, "<f4", false, {5}, v.data(), 20);
  msg = error_of([&] { load_grid(r1, u); });
  EXPECT_CONTAINS(msg, "shape (5,) does not match grid 'r' of shape (6,): expected (6,);");

  // The grid is untouched by a failed load.
  g.fill(3);
  EXPECT_THROW(load_grid(g, u), Error);
  EXPECT_EQ(g.at(0, 0), 3.0f);
}

TEST_F(RuntimeNpy, Compare) {
  std::vector<double> a{1, 2, 0, -4, 5, 6}, b{1, 2.5, 0, -4, 5, 6};
  npy_write(path("a.npy"), "<f8", true, {3, 2}, a.data(), 48);
  npy_write(path("b.npy"), "<f8", true, {3, 2}, b.data(), 48);
  NpyDiff d = npy_compare(path("a.npy"), path("a.npy"));
  EXPECT_EQ(d.count, 6);
  EXPECT_EQ(d.max_abs, 0);
  EXPECT_EQ(d.max_rel, 0);
  d = npy_compare(path("a.npy"), path("b.npy"));
  EXPECT_EQ(d.count, 6);
  EXPECT_DOUBLE_EQ(d.max_abs, 0.5);
  EXPECT_DOUBLE_EQ(d.max_rel, 0.5 / 2.5);

  // NaN: equal if both, infinite difference if one.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> n1{nan, 1}, n2{nan, 1}, n3{0, nan};
  npy_write(path("n1.npy"), "<f8", false, {2}, n1.data(), 16);
  npy_write(path("n2.npy"), "<f8", false, {2}, n2.data(), 16);
  npy_write(path("n3.npy"), "<f8", false, {2}, n3.data(), 16);
  d = npy_compare(path("n1.npy"), path("n2.npy"));
  EXPECT_EQ(d.max_rel, 0);
  d = npy_compare(path("n1.npy"), path("n3.npy"));
  EXPECT_TRUE(std::isinf(d.max_rel));

  // Huge finite values do not overflow the relative difference.
  std::vector<double> h1{1e308}, h2{-1e308};
  npy_write(path("h1.npy"), "<f8", false, {1}, h1.data(), 8);
  npy_write(path("h2.npy"), "<f8", false, {1}, h2.data(), 8);
  EXPECT_DOUBLE_EQ(npy_compare(path("h1.npy"), path("h2.npy")).max_rel, 2.0);

  // Integers and floats.
  std::vector<std::int64_t> i1{10, 20}, i2{10, 25};
  npy_write(path("i1.npy"), "<i8", false, {2}, i1.data(), 16);
  npy_write(path("i2.npy"), "<i8", false, {2}, i2.data(), 16);
  d = npy_compare(path("i1.npy"), path("i2.npy"));
  EXPECT_EQ(d.max_abs, 5);
  EXPECT_DOUBLE_EQ(d.max_rel, 0.2);
  std::vector<std::int32_t> j1{-3}, j2{-3};
  npy_write(path("j1.npy"), "<i4", false, {1, 1}, j1.data(), 4);
  npy_write(path("j2.npy"), "<i4", false, {1, 1}, j2.data(), 4);
  EXPECT_EQ(npy_compare(path("j1.npy"), path("j2.npy")).max_abs, 0);
  std::vector<float> f1{1.0f, 2.0f}, f2{1.0f, 2.0f};
  npy_write(path("f1.npy"), "<f4", true, {2}, f1.data(), 8);
  npy_write(path("f2.npy"), "<f4", false, {2}, f2.data(), 8);
  EXPECT_EQ(npy_compare(path("f1.npy"), path("f2.npy")).count, 2);

  // Same logical array stored in both orders compares equal element by element.
  // logical m[i][j] = 10 i + j, shape (2, 3)
  std::vector<double> cm{0, 1, 2, 10, 11, 12}, fm{0, 10, 1, 11, 2, 12};
  npy_write(path("cm.npy"), "<f8", false, {2, 3}, cm.data(), 48);
  npy_write(path("fm.npy"), "<f8", true, {2, 3}, fm.data(), 48);
  EXPECT_EQ(npy_compare(path("cm.npy"), path("fm.npy")).max_abs, 0);
  EXPECT_EQ(npy_compare(path("fm.npy"), path("cm.npy")).max_abs, 0);
  EXPECT_THROW(npy_compare(path("cm.npy"), path("a.npy")), Error); // (2, 3) vs (3, 2)
}

// Bitwise by default: the count of differing elements and where the first one is, in the
// array's dimensions (Fortran order: [x, y]), found in either storage order of the other file.
TEST_F(RuntimeNpy, CompareBitwiseFirstDifference) {
  // m[x][y], shape (3, 2), Fortran order: x fastest.
  std::vector<double> a{0, 1, 2, 10, 11, 12}, b{0, 1, 2, 10, 11.5, 13};
  npy_write(path("a.npy"), "<f8", true, {3, 2}, a.data(), 48);
  npy_write(path("b.npy"), "<f8", true, {3, 2}, b.data(), 48);
  NpyDiff d = npy_compare(path("a.npy"), path("b.npy"));
  EXPECT_EQ(d.differing, 2);
  EXPECT_EQ(d.first_index, (std::vector<std::int64_t>{1, 1}));
  EXPECT_EQ(d.first_a, 11);
  EXPECT_EQ(d.first_b, 11.5);
  d = npy_compare(path("a.npy"), path("a.npy"));
  EXPECT_EQ(d.differing, 0);
  EXPECT_TRUE(d.first_index.empty());
  // b in C order (shape (3, 2) still, y fastest): the same logical array, the same answer.
  std::vector<double> bc{0, 10, 1, 11.5, 2, 13};
  npy_write(path("bc.npy"), "<f8", false, {3, 2}, bc.data(), 48);
  d = npy_compare(path("a.npy"), path("bc.npy"));
  EXPECT_EQ(d.differing, 2);
  EXPECT_EQ(d.first_index, (std::vector<std::int64_t>{1, 1}));
  EXPECT_EQ(d.first_b, 11.5);

  // A tiny difference in a small value is a difference (nothing is relative to the largest).
  std::vector<double> s1{1e6, 1e-9}, s2{1e6, 1.0000001e-9};
  npy_write(path("s1.npy"), "<f8", false, {2}, s1.data(), 16);
  npy_write(path("s2.npy"), "<f8", false, {2}, s2.data(), 16);
  d = npy_compare(path("s1.npy"), path("s2.npy"));
  EXPECT_EQ(d.differing, 1);
  EXPECT_EQ(d.first_index, (std::vector<std::int64_t>{1}));
  // With a tolerance, element by element: 1e-7 relative is within 1e-6, not within 1e-8.
  EXPECT_EQ(npy_compare(path("s1.npy"), path("s2.npy"), 1e-6).differing, 0);
  EXPECT_EQ(npy_compare(path("s1.npy"), path("s2.npy"), 1e-8).differing, 1);

  // Signed zeros differ in bits; NaN equals a NaN; infinities only themselves, at any tolerance.
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> z1{0.0, nan, inf, inf}, z2{-0.0, nan, inf, -inf};
  npy_write(path("z1.npy"), "<f8", false, {4}, z1.data(), 32);
  npy_write(path("z2.npy"), "<f8", false, {4}, z2.data(), 32);
  d = npy_compare(path("z1.npy"), path("z2.npy"));
  EXPECT_EQ(d.differing, 2);
  EXPECT_EQ(d.first_index, (std::vector<std::int64_t>{0}));
  d = npy_compare(path("z1.npy"), path("z2.npy"), 0.5);
  EXPECT_EQ(d.differing, 1);
  EXPECT_EQ(d.first_index, (std::vector<std::int64_t>{3}));
  std::vector<double> n1{nan}, n2{1.0};
  npy_write(path("n1.npy"), "<f8", false, {1}, n1.data(), 8);
  npy_write(path("n2.npy"), "<f8", false, {1}, n2.data(), 8);
  EXPECT_EQ(npy_compare(path("n1.npy"), path("n2.npy"), 1e30).differing, 1);

  // Integers: bits.
  std::vector<std::int32_t> i1{7, 8, 9}, i2{7, 8, 10};
  npy_write(path("i1.npy"), "<i4", false, {3}, i1.data(), 12);
  npy_write(path("i2.npy"), "<i4", false, {3}, i2.data(), 12);
  d = npy_compare(path("i1.npy"), path("i2.npy"));
  EXPECT_EQ(d.differing, 1);
  EXPECT_EQ(d.first_index, (std::vector<std::int64_t>{2}));
}

TEST_F(RuntimeNpy, CompareErrors) {
  std::vector<double> a(6);
  std::vector<float> f(6);
  npy_write(path("a.npy"), "<f8", true, {3, 2}, a.data(), 48);
  npy_write(path("b.npy"), "<f8", true, {2, 3}, a.data(), 48);
  npy_write(path("f.npy"), "<f4", true, {3, 2}, f.data(), 24);
  std::string msg = error_of([&] { npy_compare(path("a.npy"), path("f.npy")); });
  EXPECT_CONTAINS(msg, "dtypes differ ('<f8' vs '<f4')");
  msg = error_of([&] { npy_compare(path("a.npy"), path("b.npy")); });
  EXPECT_CONTAINS(msg, "shapes differ ((3, 2) vs (2, 3))");
  msg = error_of([&] { npy_compare(path("a.npy"), path("missing.npy")); });
  EXPECT_CONTAINS(msg, "missing.npy: cannot open");
}
