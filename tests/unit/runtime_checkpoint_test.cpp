#include "stencilc/checkpoint.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "stencilc/error.h"
#include "stencilc/grid.h"
#include "test_support.h"

using namespace stencilc;
using stencilc::test::error_of;
using stencilc::test::ScratchDir;

namespace {

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

struct Grids {
  // Halos and uneven extents: only the interior is written, x fastest.
  Grid<float> u{"u", 3, {5, 3, 2, 1}, {1, 2, 1, 0}};
  Grid<std::int32_t> n{"n", 1, {7, 1, 1, 1}, {0, 0, 0, 0}};
  Grids() {
    fill_random(u, 4, 0);
    u.fill_halo(-1);
    fill_random(n, 4, 1);
  }
  std::vector<GridRef> refs() const { return {&u, &n}; }
};

CheckpointHeader header() {
  return {"heat",
          "0123456789abcdef",
          42,
          {std::numeric_limits<double>::quiet_NaN(), -0.0, 1.5e-300, 1.0}};
}

TEST(RuntimeCheckpoint, RoundTripKeepsEveryBit) {
  ScratchDir dir;
  Grids g;
  const std::string path = dir.path("c.ckpt");
  write_checkpoint(path, header(), g.refs());
  EXPECT_FALSE(std::ifstream(path + ".tmp").good()); // renamed away
  const Checkpoint c = read_checkpoint(path);
  EXPECT_EQ(c.header.stencil, "heat");
  EXPECT_EQ(c.header.fingerprint, "0123456789abcdef");
  EXPECT_EQ(c.header.step, 42);
  ASSERT_EQ(c.header.state.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) // NaN and -0.0 included
    EXPECT_EQ(bits(c.header.state[i]), bits(header().state[i])) << i;
  ASSERT_EQ(c.grids.size(), 2u);
  Grid<float> u2("u", 3, {5, 3, 2, 1}, {1, 1, 1, 0});
  restore_grid(u2, c.grid(0));
  EXPECT_EQ(checksum(u2), checksum(g.u));
  EXPECT_EQ(u2.at(4, 2, 1), g.u.at(4, 2, 1));
  EXPECT_EQ(grid_name(c.grid(1)), "n");
  EXPECT_EQ(checksum(*std::get<const Grid<std::int32_t> *>(c.grid(1))), checksum(g.n));
}

TEST(RuntimeCheckpoint, RefusesDamagedFiles) {
  ScratchDir dir;
  Grids g;
  const std::string path = dir.path("c.ckpt");
  write_checkpoint(path, header(), g.refs());
  const std::string good = ScratchDir::read(path);
  auto with = [&](const std::string &bytes) {
    const std::string p = dir.path("bad.ckpt");
    std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
    // The check before allocation (a block at a time) finds what the whole read finds.
    const std::string early = error_of([&] { check_checkpoint(p, "heat", "0123456789abcdef"); });
    const std::string late = error_of([&] { read_checkpoint(p); });
    EXPECT_EQ(early, late);
    return late;
  };
  const std::string bad = "--restart " + dir.path("bad.ckpt") + ": ";
  EXPECT_EQ(with(good.substr(0, good.size() - 1)),
            bad + "truncated or corrupt (checksum mismatch)");
  EXPECT_EQ(with(good.substr(0, 30)), bad + "truncated (30 bytes)");
  EXPECT_EQ(with(good + "x"), bad + "truncated or corrupt (checksum mismatch)");
  std::string flipped = good;
  flipped[flipped.size() - 20] ^= 1;
  EXPECT_EQ(with(flipped), bad + "truncated or corrupt (checksum mismatch)");
  std::string version = good;
  version[8] = 2;
  EXPECT_EQ(with(version), bad + "checkpoint format version 2, this executable reads version 1");
  EXPECT_EQ(with("\x93NUMPY"), bad + "not a stencilc checkpoint (bad magic)");
  EXPECT_EQ(error_of([&] { read_checkpoint(dir.path("none")); }),
            "--restart " + dir.path("none") + ": cannot open: No such file or directory");
}

TEST(RuntimeCheckpoint, IdentityIsChecked) {
  ScratchDir dir;
  Grids g;
  const std::string path = dir.path("c.ckpt");
  write_checkpoint(path, header(), g.refs());
  EXPECT_EQ(error_of([&] { check_checkpoint(path, "heat", "0123456789abcdef"); }), "<no error>");
  EXPECT_EQ(error_of([&] { check_checkpoint(path, "wave", "0123456789abcdef"); }),
            "--restart " + path + ": a checkpoint of stencil 'heat', not 'wave'");
  EXPECT_EQ(error_of([&] { check_checkpoint(path, "heat", "fedcba9876543210"); }),
            "--restart " + path +
                ": a checkpoint of another version of heat or other param values (fingerprint "
                "0123456789abcdef, this run fedcba9876543210)");
}

TEST(RuntimeCheckpoint, RestoreChecksTypeAndShape) {
  ScratchDir dir;
  Grids g;
  Grid<double> d("u", 3, {5, 3, 2, 1}, {0, 0, 0, 0});
  EXPECT_EQ(error_of([&] { restore_grid(d, &g.u); }),
            "restoring grid u: the checkpoint's grid is not of type double");
  Grid<float> f("u", 3, {5, 3, 3, 1}, {0, 0, 0, 0});
  EXPECT_EQ(error_of([&] { restore_grid(f, &g.u); }),
            "restoring grid u: the checkpoint's grid has shape (5, 3, 2), not (5, 3, 3)");
  // MPI ranks other than 0 have no whole grid: nothing to check or copy.
  EXPECT_EQ(restored_grid<double>(GridRef(static_cast<const Grid<float> *>(nullptr)), "u", {5}),
            nullptr);
}

TEST(RuntimeCheckpoint, UnwritablePathIsAnError) {
  ScratchDir dir;
  Grids g;
  const std::string path = dir.path("no/dir/c.ckpt");
  EXPECT_EQ(error_of([&] { check_checkpoint_path(path); }),
            "--checkpoint " + path + ": cannot open for writing: No such file or directory");
  EXPECT_EQ(error_of([&] { write_checkpoint(path, header(), g.refs()); }),
            "--checkpoint " + path + ": cannot open " + path +
                ".tmp for writing: No such file or directory");
}

TEST(RuntimeCheckpoint, FingerprintDependsOnEveryValue) {
  const std::string a = fingerprint("p", {{"N", param_text(std::int64_t{8})}});
  EXPECT_EQ(a.size(), 16u);
  EXPECT_EQ(a, fingerprint("p", {{"N", param_text(std::int64_t{8})}}));
  EXPECT_NE(a, fingerprint("p", {{"N", param_text(std::int64_t{9})}}));
  EXPECT_NE(a, fingerprint("q", {{"N", param_text(std::int64_t{8})}}));
  EXPECT_NE(param_text(0.1), param_text(static_cast<double>(0.1f)));
  EXPECT_NE(param_text(0.0), param_text(-0.0));
}

} // namespace
