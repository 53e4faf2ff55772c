// The occupancy formula (model/occupancy.h) on values CUDA's occupancy calculator gives for
// compute capability 8.0/9.0 limits: 64K registers, 2048 threads, 32 blocks per SM.
#include "model/occupancy.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using stc::model::occupancy;
using stc::model::SmLimits;

void expectOccupancy(const stc::model::Occupancy &o, int blocks, double fraction,
                     const std::string &limit) {
  EXPECT_EQ(o.blocks_per_sm, blocks);
  EXPECT_DOUBLE_EQ(o.fraction, fraction);
  EXPECT_EQ(std::string(o.limit), limit);
}

TEST(Occupancy, FullWhenThreadsAreTheLimit) {
  expectOccupancy(occupancy(SmLimits{}, 32, 256, 0), 8, 1.0, "threads");
}

TEST(Occupancy, TwiceTheRegistersHalvesIt) {
  expectOccupancy(occupancy(SmLimits{}, 64, 256, 0), 4, 0.5, "registers");
}

TEST(Occupancy, RegistersRoundUpPerWarp) {
  // 33 x 32 = 1056 registers per warp, allocated as 1280: 51 warps, 6 blocks of 8 warps.
  const auto o = occupancy(SmLimits{}, 33, 256, 0);
  EXPECT_EQ(o.blocks_per_sm, 6);
  EXPECT_DOUBLE_EQ(o.fraction, 0.75);
}

TEST(Occupancy, SharedMemoryLimits) {
  SmLimits sm;
  sm.shared_bytes_per_sm = 233472;
  expectOccupancy(occupancy(sm, 32, 256, 100 * 1024), 2, 0.25, "shared memory");
}

TEST(Occupancy, ABlockThatDoesNotFit) {
  const auto o = occupancy(SmLimits{}, 255, 1024, 0);
  EXPECT_EQ(o.blocks_per_sm, 0);
  EXPECT_DOUBLE_EQ(o.fraction, 0.0);
}

TEST(Occupancy, BlockLimit) {
  expectOccupancy(occupancy(SmLimits{}, 16, 32, 0), 32, 0.5, "blocks");
}

} // namespace
