// The distributed runtime (stencilc_rt_mpi) against one process, run under mpirun on 1 to 4
// ranks (tests/mpi/CMakeLists.txt): for grids of rank 1 to 3 with Dirichlet, Neumann, periodic
// and mixed faces, on every process grid the job's size can make that fits the grid, the ghost
// cells after exchange + physical faces equal -- every one, corners included -- those
// boundary.h fills on the whole grid; fill_random gives the whole grid's values; gather,
// scatter and checksum see the whole grid; reductions agree on every rank. The collective I/O
// (io.h): every process grid writes the bytes the core's writers make of the whole grid (.npy
// through MPI-IO, .h5 through parallel HDF5) and reads its block back from them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "stencilc/boundary.h"
#include "stencilc/mpi/comm.h"
#include "stencilc/mpi/io.h"
#include "stencilc/npy.h"

namespace sm = stencilc::mpi;
using stencilc::Extents;
using stencilc::Grid;
using stencilc::Halos;

namespace {

enum class Face { Dirichlet, Neumann, Periodic };

struct Case {
  int rank;
  Extents extent;
  Halos halo;
  std::array<Face, 3> faces; // per dimension, both sides alike
};

double dirichlet_value(std::int64_t x, std::int64_t y, std::int64_t z) {
  return 1000.0 + x + 100.0 * y + 10000.0 * z;
}

// boundary.h's fill of face (d, side) on a grid whose cell (0, ...) is global cell `offset`.
void fill_face(Grid<double> &g, Face f, int d, int side, const Extents &offset) {
  switch (f) {
  case Face::Dirichlet:
    stencilc::fill_dirichlet(g, d, side, [&](auto x, auto y, auto z, auto) {
      return dirichlet_value(x + offset[0], y + offset[1], z + offset[2]);
    });
    break;
  case Face::Neumann: stencilc::fill_neumann(g, d, side); break;
  case Face::Periodic: stencilc::fill_periodic(g, d, side); break;
  }
}

// Every process grid over `ndims` dimensions with `size` processes.
std::vector<std::vector<int>> process_grids(int size, int ndims) {
  std::vector<std::vector<int>> out;
  std::function<void(std::vector<int>, int)> rec = [&](std::vector<int> p, int left) {
    if (static_cast<int>(p.size()) == ndims) {
      if (left == 1)
        out.push_back(p);
      return;
    }
    for (int f = 1; f <= left; ++f)
      if (left % f == 0) {
        p.push_back(f);
        rec(p, left / f);
        p.pop_back();
      }
  };
  rec({}, size);
  return out;
}

int world_size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

const std::vector<Case> &cases() {
  static const std::vector<Case> c = {
      {1, {13, 1, 1, 1}, {2, 0, 0, 0}, {Face::Dirichlet}},
      {1, {13, 1, 1, 1}, {2, 0, 0, 0}, {Face::Periodic}},
      {1, {9, 1, 1, 1}, {1, 0, 0, 0}, {Face::Neumann}},
      {2, {9, 7, 1, 1}, {1, 2, 0, 0}, {Face::Dirichlet, Face::Dirichlet}},
      {2, {9, 7, 1, 1}, {2, 1, 0, 0}, {Face::Periodic, Face::Neumann}},
      {2, {8, 10, 1, 1}, {1, 2, 0, 0}, {Face::Neumann, Face::Periodic}},
      {3, {7, 6, 5, 1}, {1, 1, 2, 0}, {Face::Periodic, Face::Periodic, Face::Periodic}},
      {3, {7, 6, 5, 1}, {1, 2, 1, 0}, {Face::Periodic, Face::Neumann, Face::Dirichlet}},
      {3, {6, 7, 9, 1}, {2, 1, 1, 0}, {Face::Dirichlet, Face::Periodic, Face::Neumann}},
  };
  return c;
}

TEST(MpiRuntime, GhostCellsEqualAOneProcessFillOnEveryProcessGrid) {
  int checked = 0;
  for (const Case &c : cases())
    for (const auto &procs : process_grids(world_size(), c.rank)) {
      if (!sm::split_error(procs, "g", c.rank, c.extent, c.halo).empty())
        continue;
      SCOPED_TRACE("rank " + std::to_string(c.rank) + ", procs " + sm::procs_text(procs));
      // The whole grid on every rank, filled as one process does.
      Grid<double> whole("g", c.rank, c.extent, c.halo);
      stencilc::fill_random(whole, 7, 0);
      for (int d = 0; d < c.rank; ++d)
        for (int side = 0; side < 2; ++side)
          fill_face(whole, c.faces[d], d, side, Extents{0, 0, 0, 0});

      sm::Cart cart(c.rank, procs);
      std::array<bool, stencilc::kMaxRank> periodic{};
      for (int d = 0; d < c.rank; ++d)
        periodic[d] = c.faces[d] == Face::Periodic;
      const sm::Part part = cart.part("g", c.rank, c.extent, c.halo, periodic);
      Grid<double> g("g", c.rank, part.count, c.halo);
      sm::fill_random(g, part, 7, 0);
      for (int d = 0; d < c.rank; ++d) {
        cart.exchange(g, part, d);
        for (int side = 0; side < 2; ++side)
          if (part.physical[d][side])
            fill_face(g, c.faces[d], d, side, part.offset);
      }
      std::int64_t wrong = 0;
      for (std::int64_t z = -g.halo(2); z < g.extent(2) + g.halo(2); ++z)
        for (std::int64_t y = -g.halo(1); y < g.extent(1) + g.halo(1); ++y)
          for (std::int64_t x = -g.halo(0); x < g.extent(0) + g.halo(0); ++x)
            wrong += g.at(x, y, z) !=
                     whole.at(x + part.offset[0], y + part.offset[1], z + part.offset[2]);
      EXPECT_EQ(wrong, 0) << "cells (ghosts included) that differ from the one-process fill";

      // The whole grid back on rank 0, a scatter of it, its checksum, reductions.
      Grid<double> gathered;
      if (cart.root())
        gathered = Grid<double>("g", c.rank, c.extent, Halos{0, 0, 0, 0});
      cart.gather(g, part, &gathered);
      if (cart.root())
        for (std::int64_t z = 0; z < c.extent[2]; ++z)
          for (std::int64_t y = 0; y < c.extent[1]; ++y)
            for (std::int64_t x = 0; x < c.extent[0]; ++x)
              ASSERT_EQ(gathered.at(x, y, z), whole.at(x, y, z));
      Grid<double> back("g", c.rank, part.count, c.halo);
      cart.scatter(&gathered, back, part);
      for (std::int64_t z = 0; z < back.extent(2); ++z)
        for (std::int64_t y = 0; y < back.extent(1); ++y)
          for (std::int64_t x = 0; x < back.extent(0); ++x)
            ASSERT_EQ(back.at(x, y, z), g.at(x, y, z));
      EXPECT_EQ(sm::checksum(cart, g, part), stencilc::checksum(whole));
      double local_min = 1e300, local_sum = 0.0;
      stencilc::for_each_interior_row(g, [&](const double *row) {
        for (std::int64_t x = 0; x < g.extent(0); ++x) {
          local_min = std::min(local_min, row[x]);
          local_sum += row[x];
        }
      });
      double whole_min = 1e300;
      stencilc::for_each_interior_row(whole, [&](const double *row) {
        for (std::int64_t x = 0; x < whole.extent(0); ++x)
          whole_min = std::min(whole_min, row[x]);
      });
      EXPECT_EQ(cart.min(local_min), whole_min);
      const double sum = cart.sum(local_sum);
      EXPECT_NEAR(sum, stencilc::checksum(whole), 1e-12 * std::abs(sum));
      // Every rank holds the same bits.
      EXPECT_EQ(cart.max(sum), cart.min(sum));
      ++checked;
    }
  EXPECT_GT(checked, 0);
}

// Integer reductions (sum, product, min, max of a reduction over 64-bit integer values): exact
// on every rank, sums and products modulo 2^64, whatever the number of ranks.
TEST(MpiRuntime, IntegerReductionsAreExactOnEveryRank) {
  const int n = world_size();
  sm::Cart cart(1, {n});
  const int me = sm::world_rank();
  // 2^53 + 1 + me: a double cannot hold these sums.
  const std::int64_t local = (std::int64_t{1} << 53) + 1 + me;
  std::uint64_t want_sum = 0, want_prod = 1;
  for (int r = 0; r < n; ++r) {
    want_sum += static_cast<std::uint64_t>((std::int64_t{1} << 53) + 1 + r);
    want_prod *= static_cast<std::uint64_t>((std::int64_t{1} << 53) + 1 + r);
  }
  EXPECT_EQ(cart.sum(static_cast<std::uint64_t>(local)), want_sum);
  EXPECT_EQ(cart.product(static_cast<std::uint64_t>(local)), want_prod);
  EXPECT_EQ(cart.min(-local), -((std::int64_t{1} << 53) + n));
  EXPECT_EQ(cart.max(-local), -((std::int64_t{1} << 53) + 1));
}

TEST(MpiRuntime, SplitsThatDoNotFitAreCollectiveErrors) {
  const int n = world_size();
  if (n == 1)
    GTEST_SKIP() << "one process: every split fits";
  sm::Cart cart(1, {n});
  try {
    cart.part("u", 1, Extents{n - 1, 1, 1, 1}, Halos{1, 0, 0, 0}, {});
    FAIL() << "no error";
  } catch (const sm::CollectiveError &e) {
    EXPECT_EQ(std::string(e.what()), "grid 'u' cannot be split over " + std::to_string(n) +
                                         " processes in dimension 1 (--procs " +
                                         std::to_string(n) + "): it has only " +
                                         std::to_string(n - 1) + " cells there");
  }
}

TEST(MpiRuntime, RankZerosMessageIsEveryRanksError) {
  sm::Cart cart(1, {world_size()});
  EXPECT_NO_THROW(cart.agree(""));
  try {
    cart.agree(cart.root() ? "bad file" : "");
    FAIL() << "no error";
  } catch (const sm::CollectiveError &e) {
    EXPECT_STREQ(e.what(), "bad file");
  }
}

std::string file_bytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A directory rank 0 made, named on every rank.
std::string shared_tmpdir(const sm::Cart &cart) {
  char dir[] = "/tmp/mpi_io_test_XXXXXX";
  if (cart.root() && !::mkdtemp(dir))
    std::abort();
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, cart.comm());
  return dir;
}

// The process grid splitting x most (uneven blocks, rows cut), and with `both` the one
// splitting the slowest dimension most, write grid g of type T through io.h: the same bytes as
// save_grid of the whole grid on one process, and each block reads back from them.
template <typename T> int check_io(const Case &c, bool both) {
  int checked = 0;
  std::vector<std::vector<int>> fit;
  for (const auto &procs : process_grids(world_size(), c.rank))
    if (sm::split_error(procs, "g", c.rank, c.extent, c.halo).empty())
      fit.push_back(procs);
  if (fit.size() > 1)
    fit.erase(fit.begin() + (both ? 1 : 0), fit.end() - 1);
  for (const auto &procs : fit) {
    SCOPED_TRACE(std::string(stencilc::type_name<T>()) + ", rank " + std::to_string(c.rank) +
                 ", procs " + sm::procs_text(procs));
    sm::Cart cart(c.rank, procs);
    const sm::Part part = cart.part("g", c.rank, c.extent, c.halo, {});
    Grid<T> g("g", c.rank, part.count, c.halo);
    sm::fill_random(g, part, 5, 1);
    const std::string dir = shared_tmpdir(cart);
    for (const char *ext : {".npy", ".h5"}) {
      SCOPED_TRACE(ext);
      const std::string ours = dir + "/blocks" + ext, ref = dir + "/whole" + ext;
      if (cart.root()) {
        Grid<T> whole("g", c.rank, c.extent, Halos{0, 0, 0, 0});
        stencilc::fill_random(whole, 5, 1);
        stencilc::save_grid(whole, ref);
      }
      sm::save(cart, g, part, ours);
      MPI_Barrier(cart.comm());
      if (cart.root()) {
        const std::string a = file_bytes(ref), b = file_bytes(ours);
        EXPECT_FALSE(a.empty());
        std::size_t i = 0;
        while (i < a.size() && i < b.size() && a[i] == b[i])
          ++i;
        EXPECT_TRUE(a == b) << ours << " differs from " << ref << " from byte " << i;
      }
      Grid<T> back("g", c.rank, part.count, c.halo);
      sm::load(cart, back, part, ref);
      std::int64_t wrong = 0;
      for (std::int64_t z = 0; z < g.extent(2); ++z)
        for (std::int64_t y = 0; y < g.extent(1); ++y)
          for (std::int64_t x = 0; x < g.extent(0); ++x)
            wrong += back.at(x, y, z) != g.at(x, y, z);
      EXPECT_EQ(wrong, 0) << "cells of the block read back from " << ref;
    }
    MPI_Barrier(cart.comm());
    if (cart.root())
      std::system(("rm -rf " + dir).c_str());
    ++checked;
  }
  return checked;
}

TEST(MpiRuntime, CollectiveIoWritesTheCoreWritersBytesOnEveryProcessGrid) {
  const Case c1{1, {13, 1, 1, 1}, {2, 0, 0, 0}, {}};
  const Case c2{2, {9, 7, 1, 1}, {1, 2, 0, 0}, {}};
  const Case c3{3, {7, 6, 5, 1}, {1, 2, 1, 0}, {}};
  const int checked = check_io<double>(c1, false) + check_io<double>(c2, false) +
                      check_io<double>(c3, true) + check_io<float>(c3, false) +
                      check_io<std::int32_t>(c3, false);
  EXPECT_GT(checked, 0);
}

TEST(MpiRuntime, ABadFileIsOneErrorOnEveryRank) {
  sm::Cart cart(1, {world_size()});
  const sm::Part part = cart.part("g", 1, Extents{8, 1, 1, 1}, Halos{1, 0, 0, 0}, {});
  Grid<double> g("g", 1, part.count, Halos{1, 0, 0, 0});
  const std::string dir = shared_tmpdir(cart);
  if (cart.root()) {
    std::ofstream(dir + "/bad.npy") << "not numpy";
    std::ofstream(dir + "/bad.h5") << "not HDF5 either";
    stencilc::save_grid(Grid<double>("g", 1, Extents{9, 1, 1, 1}, Halos{}), dir + "/nine.h5");
    const std::string nine = file_bytes(dir + "/nine.h5");
    std::ofstream(dir + "/cut.h5", std::ios::binary) << nine.substr(0, nine.size() - 40);
  }
  MPI_Barrier(cart.comm());
  for (const std::string &f : {"bad.npy", "none.npy", "nine.h5", "cut.h5", "bad.h5", "none.h5"}) {
    try {
      sm::load(cart, g, part, dir + "/" + f);
      ADD_FAILURE() << f << ": no error";
    } catch (const sm::CollectiveError &e) {
      // The message of the core's reader of the whole grid.
      std::string want;
      try {
        Grid<double> whole("g", 1, Extents{8, 1, 1, 1}, Halos{});
        stencilc::load_grid(whole, dir + "/" + f);
      } catch (const stencilc::Error &w) {
        want = w.what();
      }
      EXPECT_EQ(e.what(), want);
    }
  }
  MPI_Barrier(cart.comm());
  if (cart.root())
    std::system(("rm -rf " + dir).c_str());
}

TEST(MpiRuntime, AnyRanksMessageIsEveryRanksError) {
  sm::Cart cart(1, {world_size()});
  EXPECT_NO_THROW(cart.agree_any(""));
  const int last = cart.size() - 1;
  try {
    cart.agree_any(cart.rank() == last ? "rank " + std::to_string(last) : "");
    FAIL() << "no error";
  } catch (const sm::CollectiveError &e) {
    EXPECT_EQ(std::string(e.what()), "rank " + std::to_string(last));
  }
}

} // namespace

int main(int argc, char **argv) {
  sm::Session session(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  // Only rank 0 prints (each rank's failures still fail its exit code, and so mpirun's).
  if (sm::world_rank() != 0) {
    auto &listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  return RUN_ALL_TESTS();
}
