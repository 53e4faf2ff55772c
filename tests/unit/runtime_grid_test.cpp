#include "stencilc/grid.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "stencilc/boundary.h"
#include "stencilc/error.h"

#include <omp.h>

using namespace stencilc;

namespace {

template <typename T> Grid<T> make(int rank, Extents e, Halos h) {
  return Grid<T>("u", rank, e, h);
}

// Start of the allocation, derived from the documented layout.
template <typename T> const T *alloc_begin(const Grid<T> &g) {
  std::int64_t off = g.halo(0);
  for (int d = 1; d < kMaxRank; ++d)
    off += g.halo(d) * g.stride(d);
  return g.origin() - off;
}

template <typename T> std::int64_t alloc_size(const Grid<T> &g) {
  return g.stride(3) * (g.extent(3) + 2 * g.halo(3));
}

std::string error_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "<no error>";
}

template <typename T> void check_layout(int rank, int halo) {
  Extents e{5, 3, 2, 2};
  Halos h{halo, halo, halo, halo};
  Grid<T> g = make<T>(rank, e, h);
  const std::int64_t A = 64 / sizeof(T);
  ASSERT_EQ(g.rank(), rank);
  EXPECT_EQ(g.stride(0), 1);
  EXPECT_EQ(g.stride(1), (5 + 2 * halo + A - 1) / A * A);
  EXPECT_EQ(g.stride(1) % A, 0);
  for (int d = 2; d < kMaxRank; ++d)
    EXPECT_EQ(g.stride(d), g.stride(d - 1) * (g.extent(d - 1) + 2 * g.halo(d - 1)));
  for (int d = rank; d < kMaxRank; ++d) {
    EXPECT_EQ(g.extent(d), 1);
    EXPECT_EQ(g.halo(d), 0);
  }
  std::int64_t interior = 1;
  for (int d = 0; d < rank; ++d)
    interior *= e[d];
  EXPECT_EQ(g.interior_size(), interior);
  // Every row, ghost cells and halo rows included, starts on a 64-byte line.
  for (std::int64_t w = -g.halo(3); w < g.extent(3) + g.halo(3); ++w)
    for (std::int64_t z = -g.halo(2); z < g.extent(2) + g.halo(2); ++z)
      for (std::int64_t y = -g.halo(1); y < g.extent(1) + g.halo(1); ++y) {
        const T *p = &g.at(0, y, z, w);
        ASSERT_EQ(reinterpret_cast<std::uintptr_t>(p - g.halo(0)) % 64, 0u)
            << y << " " << z << " " << w;
        ASSERT_EQ(p, g.origin() + y * g.stride(1) + z * g.stride(2) + w * g.stride(3));
        // Whole index box is inside the allocation.
        ASSERT_GE(p - g.halo(0), alloc_begin(g));
        ASSERT_LE(p + g.extent(0) + g.halo(0), alloc_begin(g) + alloc_size(g));
      }
  EXPECT_EQ(&g.at(0), g.origin());
  EXPECT_EQ(&g.at(-halo), g.origin() - halo);
  EXPECT_EQ(&g.at(1, 0, 0, 0), g.origin() + 1);
}

} // namespace

TEST(RuntimeGrid, LayoutAllRanksAndHalos) {
  for (int rank = 1; rank <= 4; ++rank)
    for (int halo = 0; halo <= 3; ++halo) {
      SCOPED_TRACE("rank " + std::to_string(rank) + " halo " + std::to_string(halo));
      check_layout<float>(rank, halo);
      check_layout<double>(rank, halo);
      check_layout<std::int32_t>(rank, halo);
    }
}

TEST(RuntimeGrid, ExactStridesAndOrigin) {
  // float: A = 16. halo0 = 1 -> pitch = roundup(1 + 10 + 1, 16) = 16; x = -1 starts a line.
  Grid<float> g("u", 3, {10, 4, 3, 0}, {1, 2, 1, 7});
  EXPECT_EQ(g.stride(1), 16);
  EXPECT_EQ(g.stride(2), 16 * 8);
  EXPECT_EQ(g.stride(3), 16 * 8 * 5);
  EXPECT_EQ(g.origin() - alloc_begin(g), 1 + 2 * 16 + 1 * 16 * 8);
  // 510 interior cells with halo 1 fill exactly 512: the layout of a hand-written 512^3 loop.
  Grid<float> h("w", 1, {510, 0, 0, 0}, {1, 0, 0, 0});
  EXPECT_EQ(h.stride(1), 512);
  EXPECT_EQ(g.halo(3), 0); // unused dims are ignored
  EXPECT_EQ(g.extent(3), 1);
  // double: A = 8, halo0 = 0 -> no left pad, pitch = roundup(3, 8) = 8.
  Grid<double> d("v", 1, {3, 0, 0, 0}, {0, 0, 0, 0});
  EXPECT_EQ(d.stride(1), 8);
  EXPECT_EQ(d.origin(), alloc_begin(d));
}

TEST(RuntimeGrid, StartsZeroAndFill) {
  Grid<double> g("u", 2, {7, 5, 1, 1}, {2, 1, 0, 0});
  for (std::int64_t i = 0; i < alloc_size(g); ++i)
    ASSERT_EQ(alloc_begin(g)[i], 0.0);
  g.fill(2.5);
  for (std::int64_t y = -1; y < 6; ++y)
    for (std::int64_t x = -2; x < 9; ++x)
      ASSERT_EQ(g.at(x, y), 2.5);
}

TEST(RuntimeGrid, FillHaloTouchesExactlyTheHalo) {
  for (int rank = 1; rank <= 4; ++rank)
    for (int halo = 0; halo <= 2; ++halo) {
      SCOPED_TRACE("rank " + std::to_string(rank) + " halo " + std::to_string(halo));
      Grid<std::int32_t> g("u", rank, {4, 3, 2, 2}, {halo, halo + 1, halo, 1});
      g.fill_halo(7);
      std::int64_t box = 1;
      for (int d = 0; d < rank; ++d)
        box *= g.extent(d) + 2 * g.halo(d);
      for (std::int64_t w = -g.halo(3); w < g.extent(3) + g.halo(3); ++w)
        for (std::int64_t z = -g.halo(2); z < g.extent(2) + g.halo(2); ++z)
          for (std::int64_t y = -g.halo(1); y < g.extent(1) + g.halo(1); ++y)
            for (std::int64_t x = -g.halo(0); x < g.extent(0) + g.halo(0); ++x) {
              bool inside = x >= 0 && x < g.extent(0) && y >= 0 && y < g.extent(1) && z >= 0 &&
                            z < g.extent(2) && w >= 0 && w < g.extent(3);
              ASSERT_EQ(g.at(x, y, z, w), inside ? 0 : 7) << x << " " << y << " " << z << " " << w;
            }
      // Nothing outside the box (row padding) was written.
      std::int64_t sevens = 0;
      for (std::int64_t i = 0; i < alloc_size(g); ++i)
        sevens += alloc_begin(g)[i] == 7;
      EXPECT_EQ(sevens, box - g.interior_size());
    }
}

TEST(RuntimeGrid, SwapStorage) {
  Grid<float> a("a", 2, {3, 2, 1, 1}, {1, 1, 0, 0});
  Grid<float> b("b", 2, {3, 2, 1, 1}, {1, 1, 0, 0});
  a.fill(1);
  b.fill(2);
  const float *pa = a.origin(), *pb = b.origin();
  a.swap_storage(b);
  EXPECT_EQ(a.origin(), pb);
  EXPECT_EQ(b.origin(), pa);
  EXPECT_EQ(a.at(0, 0), 2);
  EXPECT_EQ(b.at(-1, -1), 1);
  EXPECT_EQ(a.name(), "a");
  EXPECT_EQ(b.name(), "b");

  Grid<float> c("c", 2, {3, 3, 1, 1}, {1, 1, 0, 0});
  Grid<float> d("d", 2, {3, 2, 1, 1}, {1, 2, 0, 0});
  Grid<float> e("e", 3, {3, 2, 1, 1}, {1, 1, 0, 0});
  std::string msg = error_of([&] { a.swap_storage(c); });
  EXPECT_NE(msg.find("cannot swap"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'a'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'c'"), std::string::npos) << msg;
  EXPECT_THROW(a.swap_storage(d), Error);
  EXPECT_THROW(a.swap_storage(e), Error);
  EXPECT_EQ(a.at(0, 0), 2); // unchanged after a failed swap
}

// layout=aosoa: a double member (x halo 1) and a float one (x halo 0) of a 5 x 3 x 2 struct grid
// with halos 1 in y and z, their rows interleaved in one allocation.
TEST(RuntimeGrid, InterleavedMembersShareRows) {
  const Extents e{5, 3, 2, 1};
  const Interleaved grp = interleave("c", 3, e, {0, 1, 1, 0}, {{8, 1}, {4, 0}});
  // Rows: 8 doubles (5 + 2, one line) then 16 floats (5, one line): 128 bytes; 5 * 4 rows.
  EXPECT_EQ(grp.row_bytes, 128);
  EXPECT_EQ(grp.rows, 20);
  EXPECT_EQ(grp.offset, (std::vector<std::int64_t>{0, 64}));
  Grid<double> u("c_u", 3, e, {1, 1, 1, 0}, grp, 0);
  Grid<float> v("c_v", 3, e, {0, 1, 1, 0}, grp, 1);
  EXPECT_TRUE(u.interleaved());
  EXPECT_EQ(u.stride(1), 16); // 128 bytes of doubles
  EXPECT_EQ(v.stride(1), 32);
  EXPECT_EQ(u.stride(2), 16 * 5);
  EXPECT_EQ(u.pitch(), 8);
  EXPECT_EQ(v.pitch(), 16);
  EXPECT_EQ(u.rows(), 20);
  // Cell (x, y, z) of each member: its row group, then its own row in it.
  const auto *base = static_cast<const unsigned char *>(u.owner());
  EXPECT_EQ(reinterpret_cast<const unsigned char *>(&u.at(2, 1, 0)),
            base + ((0 + 1) * 5 + (1 + 1)) * 128 + (2 + 1) * 8);
  EXPECT_EQ(reinterpret_cast<const unsigned char *>(&v.at(4, -1, 1)),
            base + ((1 + 1) * 5 + (-1 + 1)) * 128 + 64 + 4 * 4);
  EXPECT_EQ(u.owner(), v.owner());
  // Each member touches its own rows only.
  u.fill(1.5);
  EXPECT_EQ(checksum(v), 0.0);
  v.fill(2);
  v.fill_halo(-1);
  EXPECT_EQ(checksum(u), 1.5 * 30);
  EXPECT_EQ(u.at(-1, -1, -1), 1.5);
  EXPECT_EQ(v.at(0, -1, 0), -1);
  EXPECT_EQ(v.at(4, 2, 1), 2);
  // A swap with a grid of its own moves the layout with the storage.
  Grid<double> w("w", 3, e, {1, 1, 1, 0});
  w.fill(7);
  u.swap_storage(w);
  EXPECT_FALSE(u.interleaved());
  EXPECT_TRUE(w.interleaved());
  EXPECT_EQ(u.at(0, 0, 0), 7);
  EXPECT_EQ(w.at(0, 0, 0), 1.5);
  EXPECT_EQ(w.stride(1), 16);
  // A member must have the group's shape, halos above x, x halo and element size.
  EXPECT_THROW(Grid<double>("x", 3, e, {0, 1, 1, 0}, grp, 0), Error); // x halo
  EXPECT_THROW(Grid<double>("x", 3, e, {1, 0, 1, 0}, grp, 0), Error); // y halo
  EXPECT_THROW(Grid<float>("x", 3, e, {1, 1, 1, 0}, grp, 0), Error);  // element size
  EXPECT_THROW(Grid<double>("x", 3, {5, 3, 3, 1}, {1, 1, 1, 0}, grp, 0), Error);
  EXPECT_THROW(Grid<double>("x", 3, e, {1, 1, 1, 0}, grp, 2), Error);
  EXPECT_THROW(interleave("c", 3, {0, 3, 2, 1}, {0, 1, 1, 0}, {{8, 1}}), Error);
  EXPECT_THROW(interleave("c", 3, e, {0, 1, 1, 0}, {{2, 1}}), Error);
}

TEST(RuntimeGrid, ConstructorErrors) {
  std::string msg = error_of([] { Grid<float>("u", 2, {0, 4, 1, 1}, {1, 1, 0, 0}); });
  EXPECT_EQ(msg, "grid 'u': extent 1 is 0; it must be at least 1");
  msg = error_of([] { Grid<float>("u", 3, {4, 4, -2, 1}, {1, 1, 0, 0}); });
  EXPECT_NE(msg.find("extent 3 is -2"), std::string::npos) << msg;
  msg = error_of([] { Grid<float>("u", 2, {4, 4, 1, 1}, {1, -1, 0, 0}); });
  EXPECT_NE(msg.find("halo 2 is -1"), std::string::npos) << msg;
  msg = error_of([] { Grid<float>("u", 0, {4, 4, 1, 1}, {0, 0, 0, 0}); });
  EXPECT_NE(msg.find("rank 0"), std::string::npos) << msg;
  msg = error_of([] { Grid<float>("u", 5, {4, 4, 1, 1}, {0, 0, 0, 0}); });
  EXPECT_NE(msg.find("rank 5"), std::string::npos) << msg;
  msg = error_of([] { Grid<float>("u", 3, {100000, 100000, 1000, 1}, {0, 0, 0, 0}); });
  EXPECT_NE(msg.find("grid 'u': size 1e13 cells is too large"), std::string::npos) << msg;
  // Products that overflow int64 are caught, not wrapped.
  const std::int64_t big = INT64_C(1) << 62;
  msg = error_of([&] { Grid<double>("u", 4, {big, big, big, big}, {0, 0, 0, 0}); });
  EXPECT_NE(msg.find("too large"), std::string::npos) << msg;
  msg = error_of([&] { Grid<double>("u", 1, {INT64_MAX, 1, 1, 1}, {3, 0, 0, 0}); });
  EXPECT_NE(msg.find("too large"), std::string::npos) << msg;
  msg = error_of([&] { Grid<double>("u", 3, {4, 4, 4, 1}, {0, INT32_MAX, INT32_MAX, 0}); });
  EXPECT_NE(msg.find("too large"), std::string::npos) << msg;
}

#if !defined(__SANITIZE_ADDRESS__)
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STENCILC_ASAN 1
#endif
#endif
#else
#define STENCILC_ASAN 1
#endif

TEST(RuntimeGrid, AllocationFailureIsAnError) {
#ifdef STENCILC_ASAN
  GTEST_SKIP() << "ASan aborts on huge allocations";
#else
  // 8 TiB is under the size cap; only the kernel's heuristic overcommit refuses it for sure.
  std::ifstream f("/proc/sys/vm/overcommit_memory");
  int mode = -1;
  if (!(f >> mode) || mode == 1)
    GTEST_SKIP() << "overcommit mode " << mode << " might grant the allocation";
  std::string msg = error_of([] { Grid<double>("u", 3, {1024, 1024, 1024 * 1024, 1}, {}); });
  EXPECT_NE(msg.find("cannot allocate"), std::string::npos) << msg;
#endif
}

TEST(RuntimeGrid, DefaultAndMove) {
  Grid<float> g;
  EXPECT_EQ(g.rank(), 0);
  EXPECT_EQ(g.interior_size(), 0);
  EXPECT_EQ(checksum(g), 0.0);
  fill_random(g, 1, 0);
  g.fill(1);
  g.fill_halo(1);
  Grid<float> h("h", 1, {4, 1, 1, 1}, {1, 0, 0, 0});
  h.at(2) = 3;
  g = std::move(h);
  EXPECT_EQ(g.name(), "h");
  EXPECT_EQ(g.at(2), 3);
}

// The closed form of a colour's cells in a box, against counting them, for boxes of every
// parity of corner and extents (empty ones included) in 1 to 3 dimensions.
TEST(RuntimeGrid, BoxColourCellsMatchesCounting) {
  for (std::int64_t lx = 0; lx < 3; ++lx)
    for (std::int64_t nx = 0; nx < 4; ++nx)
      for (std::int64_t ly = 0; ly < 3; ++ly)
        for (std::int64_t ny = 0; ny < 4; ++ny)
          for (int colour = 0; colour < 2; ++colour) {
            std::int64_t n1 = 0, n2 = 0;
            for (std::int64_t x = lx; x < lx + nx; ++x) {
              n1 += x % 2 == colour;
              for (std::int64_t y = ly; y < ly + ny; ++y)
                n2 += (x + y) % 2 == colour;
            }
            EXPECT_EQ(box_colour_cells({lx}, {lx + nx}, colour), n1);
            EXPECT_EQ(box_colour_cells({lx, ly}, {lx + nx, ly + ny}, colour), n2)
                << lx << " " << nx << " " << ly << " " << ny << " " << colour;
            std::int64_t n3 = 0;
            for (std::int64_t z = 1; z < 4; ++z)
              for (std::int64_t y = ly; y < ly + ny; ++y)
                for (std::int64_t x = lx; x < lx + nx; ++x)
                  n3 += (x + y + z) % 2 == colour;
            EXPECT_EQ(box_colour_cells({lx, ly, 1}, {lx + nx, ly + ny, 4}, colour), n3);
          }
}

TEST(RuntimeGrid, Checksum) {
  Grid<std::int32_t> g("u", 2, {3, 2, 1, 1}, {1, 1, 0, 0});
  g.fill(100); // halo must not count
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x)
      g.at(x, y) = x + 10 * y;
  EXPECT_EQ(checksum(g), 0 + 1 + 2 + 10 + 11 + 12);

  Grid<double> d("d", 4, {2, 2, 2, 2}, {1, 0, 2, 1});
  d.fill(-1);
  for (int w = 0; w < 2; ++w)
    for (int z = 0; z < 2; ++z)
      for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 2; ++x)
          d.at(x, y, z, w) = 0.5;
  EXPECT_EQ(checksum(d), 8.0);

  // Fixed order: x fastest, so 1e16 + 1 + 1 loses both ones and the result is exact bits.
  Grid<double> o("o", 1, {3, 1, 1, 1}, {0, 0, 0, 0});
  o.at(0) = 1e16;
  o.at(1) = 1;
  o.at(2) = 1;
  EXPECT_EQ(checksum(o), 1e16);
  Grid<float> f("f", 1, {2, 1, 1, 1}, {0, 0, 0, 0});
  f.at(0) = 0.1f;
  f.at(1) = 0.2f;
  EXPECT_EQ(checksum(f), double(0.1f) + double(0.2f));
}

namespace {
std::uint64_t splitmix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
} // namespace

TEST(RuntimeGrid, FillRandomFormula) {
  Grid<double> g("u", 2, {5, 3, 1, 1}, {1, 1, 0, 0});
  fill_random(g, 42, 3);
  std::uint64_t i = 0;
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 5; ++x, ++i) {
      std::uint64_t r = splitmix(42 * 0x9E3779B97F4A7C15ULL + 3 * 0xBF58476D1CE4E5B9ULL + i);
      EXPECT_EQ(g.at(x, y), double(r >> 11) * 0x1.0p-53);
    }
  EXPECT_EQ(g.at(-1, 0), 0.0); // halo untouched
  EXPECT_EQ(g.at(0, -1), 0.0);

  Grid<std::int32_t> n("n", 1, {4, 1, 1, 1}, {0, 0, 0, 0});
  fill_random(n, 7, 0);
  for (std::uint64_t k = 0; k < 4; ++k)
    EXPECT_EQ(n.at(k), std::int32_t(splitmix(7 * 0x9E3779B97F4A7C15ULL + k) % 100));
}

TEST(RuntimeGrid, FillRandomDeterminismAndRange) {
  auto make_f = [] { return Grid<float>("u", 3, {17, 9, 5, 1}, {2, 1, 1, 0}); };
  Grid<float> a = make_f(), b = make_f(), c = make_f(), d = make_f();
  fill_random(a, 1, 0);
  fill_random(b, 1, 0);
  fill_random(c, 2, 0);
  fill_random(d, 1, 1);
  EXPECT_EQ(checksum(a), checksum(b));
  EXPECT_NE(checksum(a), checksum(c));
  EXPECT_NE(checksum(a), checksum(d));
  std::set<float> distinct;
  for (int z = 0; z < 5; ++z)
    for (int y = 0; y < 9; ++y)
      for (int x = 0; x < 17; ++x) {
        float v = a.at(x, y, z);
        ASSERT_GE(v, 0.0f);
        ASSERT_LT(v, 1.0f);
        distinct.insert(v);
      }
  EXPECT_GT(distinct.size(), 700u);
  const double mean = checksum(a) / double(a.interior_size());
  EXPECT_NEAR(mean, 0.5, 0.05);

  Grid<std::int32_t> n("n", 2, {50, 40, 1, 1}, {1, 1, 0, 0});
  fill_random(n, 9, 2);
  std::set<std::int32_t> seen;
  for (int y = 0; y < 40; ++y)
    for (int x = 0; x < 50; ++x) {
      ASSERT_GE(n.at(x, y), 0);
      ASSERT_LE(n.at(x, y), 99);
      seen.insert(n.at(x, y));
    }
  EXPECT_EQ(seen.size(), 100u);
  EXPECT_EQ(n.at(-1, 0), 0);
}

TEST(RuntimeGrid, TypeNames) {
  EXPECT_STREQ(npy_descr<float>(), "<f4");
  EXPECT_STREQ(npy_descr<double>(), "<f8");
  EXPECT_STREQ(npy_descr<std::int32_t>(), "<i4");
  EXPECT_STREQ(npy_descr<std::int64_t>(), "<i8");
  EXPECT_STREQ(type_name<float>(), "float");
  EXPECT_STREQ(type_name<double>(), "double");
  EXPECT_STREQ(type_name<std::int32_t>(), "int");
  EXPECT_STREQ(type_name<std::int64_t>(), "long");
}

// The fills' formulas cell by cell (boundary.h's header comment), every face in the fills'
// order, as the reference: a face spread over the threads must give the same bits.
namespace {
double face_value(std::int64_t x, std::int64_t y, std::int64_t z, std::int64_t w) {
  return 0.25 * static_cast<double>(x) - 1.5 * static_cast<double>(y) + static_cast<double>(z * w);
}

void reference_fill(Grid<double> &g) {
  for (int d = 0; d < 4; ++d)
    for (int side = 0; side < 2; ++side) {
      std::int64_t lo[4], hi[4];
      for (int k = 0; k < 4; ++k) {
        lo[k] = k < d ? -g.halo(k) : 0;
        hi[k] = k < d ? g.extent(k) + g.halo(k) : g.extent(k);
      }
      lo[d] = side == 0 ? -g.halo(d) : g.extent(d);
      hi[d] = side == 0 ? 0 : g.extent(d) + g.halo(d);
      const std::int64_t n = g.extent(d);
      for (std::int64_t w = lo[3]; w < hi[3]; ++w)
        for (std::int64_t z = lo[2]; z < hi[2]; ++z)
          for (std::int64_t y = lo[1]; y < hi[1]; ++y)
            for (std::int64_t x = lo[0]; x < hi[0]; ++x) {
              std::int64_t p[4] = {x, y, z, w};
              std::int64_t &c = p[d];
              if (d == 3) { // Dirichlet
                g.at(x, y, z, w) = face_value(x, y, z, w);
                continue;
              }
              if (d == 1) // Neumann
                c = c < 0 ? -c - 1 : 2 * n - 1 - c;
              else // periodic
                c = c < 0 ? c + n : c - n;
              g.at(x, y, z, w) = g.at(p[0], p[1], p[2], p[3]);
            }
    }
}
} // namespace

TEST(RuntimeGrid, BoundaryFillsOnThreadsGiveTheSerialBits) {
  for (const Fill mode : {Fill::Serial, Fill::Parallel}) {
    auto g = make<double>(4, {21, 18, 16, 12}, {2, 2, 1, 2});
    fill_random(g, 7, 0);
    auto want = make<double>(4, {21, 18, 16, 12}, {2, 2, 1, 2});
    fill_random(want, 7, 0);
    reference_fill(want);
    // Dimension 3's faces (Dirichlet) hold 25 x 22 x 18 x 2 = 19800 cells, above
    // kParallelFillCells: on the threads when asked (the test runs on two).
    std::set<int> threads;
    for (int d = 0; d < 4; ++d)
      for (int side = 0; side < 2; ++side) {
        if (d == 0 || d == 2)
          fill_periodic(g, d, side, mode);
        else if (d == 1)
          fill_neumann(g, d, side, mode);
        else
          fill_dirichlet(
              g, d, side,
              [&](std::int64_t x, std::int64_t y, std::int64_t z, std::int64_t w) {
#pragma omp critical
                threads.insert(omp_get_thread_num());
                return face_value(x, y, z, w);
              },
              mode);
      }
    EXPECT_EQ(0, std::memcmp(alloc_begin(g), alloc_begin(want),
                             static_cast<std::size_t>(alloc_size(g)) * sizeof(double)))
        << (mode == Fill::Parallel ? "parallel" : "serial");
    if (mode == Fill::Serial || omp_get_max_threads() < 2)
      EXPECT_EQ(threads.size(), 1u);
    else
      EXPECT_GT(threads.size(), 1u) << "a large Dirichlet face stayed on one thread";
  }
}

// fill_x_faces writes each row's two x ends in one visit: the same bits as the two calls of
// fill_periodic / fill_neumann, for each pair of faces, on one thread and on the threads, on
// rows wider than the halo and on one narrower (which keeps the two calls).
TEST(RuntimeGrid, BothXFacesInOneVisitGiveTheTwoFillsBits) {
  using stencilc::XFace;
  for (const std::int64_t nx : {std::int64_t{37}, std::int64_t{1}})
    for (const XFace lo : {XFace::Neumann, XFace::Periodic})
      for (const XFace hi : {XFace::Neumann, XFace::Periodic})
        for (const Fill mode : {Fill::Serial, Fill::Parallel}) {
          // 40 x 30 x 20 rows: each face's 2 cells per row are above kParallelFillCells.
          auto g = make<float>(4, {nx, 40, 30, 20}, {2, 1, 1, 1});
          auto want = make<float>(4, {nx, 40, 30, 20}, {2, 1, 1, 1});
          fill_random(g, 11, 0);
          fill_random(want, 11, 0);
          for (int side = 0; side < 2; ++side) {
            if ((side == 0 ? lo : hi) == XFace::Periodic)
              fill_periodic(want, 0, side, mode);
            else
              fill_neumann(want, 0, side, mode);
          }
          stencilc::fill_x_faces(g, lo, hi, mode);
          EXPECT_EQ(0, std::memcmp(alloc_begin(g), alloc_begin(want),
                                   static_cast<std::size_t>(alloc_size(g)) * sizeof(float)))
              << "nx " << nx << " faces " << static_cast<int>(lo) << static_cast<int>(hi)
              << (mode == Fill::Parallel ? " parallel" : " serial");
          // The ghost cells were written: a Neumann low ghost cell x = -1 is cell 0.
          if (nx > 2 && lo == XFace::Neumann)
            EXPECT_EQ(g.at(-1, 3, 4, 5), g.at(0, 3, 4, 5));
          if (nx > 2 && hi == XFace::Periodic)
            EXPECT_EQ(g.at(nx + 1, 3, 4, 5), g.at(1, 3, 4, 5));
        }
}

// Working buffers (the CPU engine's rings) of 256 KiB or more are whole huge pages, 2 MiB
// aligned, so that the advice to put them on huge pages covers them; smaller ones and
// STENCILC_HUGE_PAGES=0 get the usual 64-byte alignment. The whole size is writable.
TEST(RuntimeGrid, WorkingBuffersOnHugePages) {
  const auto aligned = [](const unsigned char *p, std::uintptr_t a) {
    return reinterpret_cast<std::uintptr_t>(p) % a == 0;
  };
  const std::size_t big = (std::size_t(5) << 20) + 123;
  std::unique_ptr<unsigned char, void (*)(void *)> b(stencilc::allocate_buffer(big), std::free);
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(aligned(b.get(), std::uintptr_t(2) << 20));
  std::memset(b.get(), 1, big);
  std::unique_ptr<unsigned char, void (*)(void *)> m(stencilc::allocate_buffer(256 * 1024),
                                                     std::free);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(aligned(m.get(), std::uintptr_t(2) << 20));
  std::memset(m.get(), 1, std::size_t(2) << 20); // the whole huge page is its own
  std::unique_ptr<unsigned char, void (*)(void *)> s(stencilc::allocate_buffer(256 * 1024 - 1),
                                                     std::free);
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(aligned(s.get(), 64));
  std::memset(s.get(), 1, 256 * 1024 - 1);
  setenv("STENCILC_HUGE_PAGES", "0", 1);
  // Two small-page buffers of 5 MiB: at least one is not on a 2 MiB boundary (malloc's own
  // alignment is far smaller), so the test sees whether the variable is obeyed.
  std::unique_ptr<unsigned char, void (*)(void *)> p1(stencilc::allocate_buffer(big), std::free),
      p2(stencilc::allocate_buffer(big + 4096), std::free);
  unsetenv("STENCILC_HUGE_PAGES");
  ASSERT_NE(p1, nullptr);
  ASSERT_NE(p2, nullptr);
  EXPECT_TRUE(aligned(p1.get(), 64) && aligned(p2.get(), 64));
  EXPECT_FALSE(aligned(p1.get(), std::uintptr_t(2) << 20) &&
               aligned(p2.get(), std::uintptr_t(2) << 20));
}

// Grids of a huge page or more start at a different colour (65 lines times 0..31) into their
// 2 MiB page, so that the same cell of two grids does not share an L2 set on huge pages;
// STENCILC_HUGE_PAGES=0 allocates as before. Either way the storage is zeroed and aligned.
TEST(RuntimeGrid, HugeGridsStartAtStaggeredColours) {
  const auto colour = [](const Grid<float> &g) {
    return reinterpret_cast<std::uintptr_t>(alloc_begin(g)) % (std::uintptr_t(2) << 20);
  };
  std::set<std::uintptr_t> colours;
  std::vector<Grid<float>> grids;
  for (int i = 0; i < 4; ++i) {
    grids.push_back(make<float>(3, {254, 128, 128}, {1, 1, 1})); // 17 MB each
    const std::uintptr_t c = colour(grids.back());
    EXPECT_EQ(c % (65 * 64), 0u);
    EXPECT_LT(c, 32u * 65 * 64);
    colours.insert(c);
    for (std::int64_t i2 = 0; i2 < alloc_size(grids.back()); i2 += 4099)
      ASSERT_EQ(alloc_begin(grids.back())[i2], 0.0f);
  }
  EXPECT_EQ(colours.size(), 4u) << "four grids in a row share a colour";
  // Small grids and STENCILC_HUGE_PAGES=0: the usual 64-byte alignment only.
  const auto small = make<float>(3, {30, 30, 30}, {1, 1, 1});
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(alloc_begin(small)) % 64, 0u);
  setenv("STENCILC_HUGE_PAGES", "0", 1);
  const auto plain = make<float>(3, {254, 128, 128}, {1, 1, 1});
  unsetenv("STENCILC_HUGE_PAGES");
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(alloc_begin(plain)) % 64, 0u);
  EXPECT_EQ(alloc_begin(plain)[alloc_size(plain) - 1], 0.0f);
}
