// parsePtxasUsage on real `nvcc -Xptxas -v` output (CUDA 12, sm_80), captured from
// `stencilc build samples/heat2d.stn --target cuda` and, for the spill, from samples/himeno.stn
// built with -maxrregcount=16.
#include "target/ptxas_usage.h"

#include <gtest/gtest.h>

namespace {

using stencilc::target::parsePtxasUsage;
using stencilc::target::spillReport;

const char *kHeat2d =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function "
    "'_ZN6heat2d43_GLOBAL__N__134ddbfd_10_heat2d_cpp_99b1a7fc20kernel__diffuse__devElllllPKflPffPi'"
    " "
    "for 'sm_80'\n"
    "ptxas info    : Function properties for "
    "_ZN6heat2d43_GLOBAL__N__134ddbfd_10_heat2d_cpp_99b1a7fc20kernel__diffuse__devElllllPKflPffPi\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 16 registers, used 0 barriers, 432 bytes cmem[0]\n"
    "ptxas info    : Compile time = 9.116 ms\n"
    "ptxas info    : Compiling entry function "
    "'_ZN6heat2d43_GLOBAL__N__134ddbfd_10_heat2d_cpp_99b1a7fc17fill__v__1hi__devEPfllllllllllllNS_"
    "6ParamsEPi' for 'sm_80'\n"
    "ptxas info    : Function properties for "
    "_ZN6heat2d43_GLOBAL__N__134ddbfd_10_heat2d_cpp_99b1a7fc17fill__v__1hi__devEPfllllllllllllNS_"
    "6ParamsEPi\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 26 registers, used 0 barriers, 488 bytes cmem[0]\n"
    "ptxas info    : Compile time = 9.178 ms\n";

const char *kHimenoSpill =
    "ptxas info    : Compiling entry function "
    "'_ZN6himeno43_GLOBAL__N__b79db5a1_10_himeno_cpp_0477cccf19kernel__jacobi__"
    "devElllllllPKfllPfS3_"
    "llS2_S2_S2_S2_S2_S2_S2_S2_S2_S2_S2_S2_fPi' for 'sm_80'\n"
    "ptxas info    : Function properties for "
    "_ZN6himeno43_GLOBAL__N__b79db5a1_10_himeno_cpp_0477cccf19kernel__jacobi__devElllllllPKfllPfS3_"
    "llS2_S2_S2_S2_S2_S2_S2_S2_S2_S2_S2_S2_fPi\n"
    "    24 bytes stack frame, 20 bytes spill stores, 24 bytes spill loads\n"
    "ptxas info    : Used 24 registers, used 0 barriers, 24 bytes cumulative stack size, 576 bytes "
    "cmem[0]\n"
    "ptxas info    : Compile time = 20.717 ms\n";

TEST(PtxasUsage, ParsesEveryKernelWithoutSpills) {
  const auto usage = parsePtxasUsage(kHeat2d);
  ASSERT_EQ(usage.size(), 2u);
  EXPECT_NE(usage[0].kernel.find("kernel__diffuse"), std::string::npos);
  EXPECT_EQ(usage[0].arch, "sm_80");
  EXPECT_EQ(usage[0].registers, 16);
  EXPECT_EQ(usage[1].registers, 26);
  EXPECT_FALSE(usage[0].spills());
  EXPECT_FALSE(usage[1].spills());
  EXPECT_EQ(usage[0].sharedBytes, 0);
  EXPECT_TRUE(spillReport(usage).empty());
}

TEST(PtxasUsage, ASpillingKernelIsReportedByName) {
  const auto usage = parsePtxasUsage(std::string(kHeat2d) + kHimenoSpill);
  ASSERT_EQ(usage.size(), 3u);
  const auto &k = usage[2];
  EXPECT_EQ(k.registers, 24);
  EXPECT_EQ(k.stackFrameBytes, 24);
  EXPECT_EQ(k.spillStoreBytes, 20);
  EXPECT_EQ(k.spillLoadBytes, 24);
  EXPECT_TRUE(k.spills());
  const auto report = spillReport(usage);
  ASSERT_EQ(report.size(), 1u);
  EXPECT_NE(report[0].find("kernel__jacobi"), std::string::npos) << report[0];
  EXPECT_NE(report[0].find("(sm_80): 20 bytes spill stores, 24 bytes spill loads"),
            std::string::npos)
      << report[0];
}

// ptxas prints "N bytes smem" only for a kernel with static shared memory; the format
// below is ptxas's, the numbers are made up.
TEST(PtxasUsage, ReadsSharedMemory) {
  const auto usage = parsePtxasUsage(
      "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 1 barriers, 4352 bytes smem, 400 bytes cmem[0]\n");
  ASSERT_EQ(usage.size(), 1u);
  EXPECT_EQ(usage[0].arch, "sm_90");
  EXPECT_EQ(usage[0].registers, 40);
  EXPECT_EQ(usage[0].sharedBytes, 4352);
}

TEST(PtxasUsage, TextWithoutEntriesGivesNothing) {
  EXPECT_TRUE(parsePtxasUsage("nvcc warning : something\nptxas info    : 0 bytes gmem\n").empty());
}

} // namespace
