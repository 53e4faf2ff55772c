// The decomposition arithmetic of the MPI runtime (no MPI needed): blocks, --procs, the
// ordering of a balanced process grid, the checks every rank makes before allocating.
#include <gtest/gtest.h>

#include "stencilc/boundary.h"
#include "stencilc/error.h"
#include "stencilc/mpi/decompose.h"

namespace sm = stencilc::mpi;

TEST(MpiDecompose, BlocksCoverTheExtentInOrderWithTheRemainderFirst) {
  for (std::int64_t n : {1, 2, 7, 10, 24, 101})
    for (int p = 1; p <= 5 && p <= n; ++p) {
      std::int64_t next = 0;
      for (int c = 0; c < p; ++c) {
        const sm::Block b = sm::block(n, p, c);
        EXPECT_EQ(b.offset, next) << n << " over " << p << ", part " << c;
        EXPECT_EQ(b.count, n / p + (c < n % p ? 1 : 0));
        next += b.count;
      }
      EXPECT_EQ(next, n);
    }
  EXPECT_EQ(sm::block(10, 4, 0).count, 3);
  EXPECT_EQ(sm::block(10, 4, 1).offset, 3);
  EXPECT_EQ(sm::block(10, 4, 2).offset, 6);
  EXPECT_EQ(sm::block(10, 4, 3).count, 2);
}

TEST(MpiDecompose, ProcsTextIsParsedXFirst) {
  EXPECT_EQ(sm::parse_procs("2x1x1"), (std::vector<int>{2, 1, 1}));
  EXPECT_EQ(sm::parse_procs("4"), (std::vector<int>{4}));
  EXPECT_EQ(sm::procs_text({1, 2, 2}), "1x2x2");
  for (const char *bad : {"", "x", "2x", "0x2", "2*2", "2x-1", "1x1x1x1x1", "abc"})
    EXPECT_THROW(sm::parse_procs(bad), stencilc::Error) << bad;
}

TEST(MpiDecompose, GivenProcsMustMatchTheJobAndTheDimensions) {
  EXPECT_EQ(sm::order_procs(4, 3, {1, 2, 2}, {}), (std::vector<int>{1, 2, 2}));
  try {
    sm::order_procs(4, 3, {2, 1, 1}, {});
    FAIL();
  } catch (const stencilc::Error &e) {
    EXPECT_STREQ(e.what(), "--procs 2x1x1 makes 2 processes, but the job has 4");
  }
  EXPECT_THROW(sm::order_procs(4, 3, {2, 2}, {}), stencilc::Error);
  // A rank-4 program given three counts keeps its fourth dimension whole.
  EXPECT_EQ(sm::order_procs(4, 4, {2, 2, 1}, {}), (std::vector<int>{2, 2, 1, 1}));
  EXPECT_EQ(sm::order_procs(4, 4, {1, 1, 2, 2}, {}), (std::vector<int>{1, 1, 2, 2}));
  EXPECT_THROW(sm::order_procs(4, 4, {2, 2}, {}), stencilc::Error);
}

TEST(MpiDecompose, BalancedProcsPutTheMostProcessesOnTheSlowestDimension) {
  // MPI_Dims_create answers largest first; x (dimension 1) gets the fewest.
  EXPECT_EQ(sm::order_procs(12, 3, {}, {3, 2, 2}), (std::vector<int>{2, 2, 3}));
  EXPECT_EQ(sm::order_procs(2, 2, {}, {2, 1}), (std::vector<int>{1, 2}));
}

TEST(MpiDecompose, DimensionsReadAtAbsoluteIndicesStayWhole) {
  // z (bit 2) whole: MPI_Dims_create balanced the two others, x gets the fewest.
  EXPECT_EQ(sm::order_procs(4, 3, {}, {2, 2}, 0b100u), (std::vector<int>{2, 2, 1}));
  EXPECT_EQ(sm::order_procs(6, 3, {}, {3, 2}, 0b001u), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(sm::order_procs(4, 3, {}, {4}, 0b101u), (std::vector<int>{1, 4, 1}));
  EXPECT_EQ(sm::order_procs(4, 3, {1, 4, 1}, {}, 0b101u), (std::vector<int>{1, 4, 1}));
  try {
    sm::order_procs(4, 3, {1, 2, 2}, {}, 0b100u);
    FAIL();
  } catch (const stencilc::Error &e) {
    EXPECT_STREQ(e.what(), "--procs 1x2x2 splits dimension 3, which the program keeps whole (it "
                           "reads it at an absolute index, or one of its grids of lower rank does "
                           "not have it): give 1 there");
  }
  // Every dimension whole: one process only.
  EXPECT_EQ(sm::order_procs(1, 2, {}, {}, 0b11u), (std::vector<int>{1, 1}));
  EXPECT_THROW(sm::order_procs(2, 2, {}, {}, 0b11u), stencilc::Error);
}

TEST(MpiDecompose, SplitsThatDoNotFitAreNamed) {
  const stencilc::Extents ext{10, 10, 3, 1};
  const stencilc::Halos halo{1, 2, 1, 0};
  EXPECT_EQ(sm::split_error({1, 2, 1}, "u", 3, ext, halo), "");
  EXPECT_EQ(sm::split_error({1, 5, 1}, "u", 3, ext, halo), "");
  EXPECT_EQ(sm::split_error({1, 1, 4}, "u", 3, ext, halo),
            "grid 'u' cannot be split over 4 processes in dimension 3 (--procs 1x1x4): it has "
            "only 3 cells there");
  EXPECT_EQ(sm::split_error({1, 6, 1}, "u", 3, ext, halo),
            "grid 'u' cannot be split over 6 processes in dimension 2 (--procs 1x6x1): a block of "
            "1 cells is narrower than its ghost layers (2)");
  EXPECT_EQ(sm::split_error({1, 1, 2}, "v", 2, ext, halo),
            "grid 'v' cannot be split over 2 processes in dimension 3 (--procs 1x1x2): it has 2 "
            "dimensions");
}

TEST(MpiDecompose, ColourCellsMatchACountOverAGrid) {
  for (int rank = 1; rank <= 4; ++rank)
    for (const stencilc::Extents &e : {stencilc::Extents{5, 4, 3, 2}, stencilc::Extents{1, 7, 2, 3},
                                       stencilc::Extents{6, 1, 1, 5}}) {
      stencilc::Grid<float> g("g", rank, e, {0, 0, 0, 0});
      for (int colour = 0; colour < 2; ++colour)
        EXPECT_EQ(sm::colour_cells(rank, e, colour), stencilc::colour_count(g, colour))
            << "rank " << rank << " colour " << colour;
    }
}
