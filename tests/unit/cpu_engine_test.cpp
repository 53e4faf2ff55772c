// Unit tests of the CPU engine (runtime/include/stencilc/cpu/engine.h): the temporal-blocking plan
// parser the generated executables use for --plan, the checks of what can be blocked, and
// run_block end to end on small hand-written steps, bit for bit against plain naive sweeps.
#include "stencilc/cpu/engine.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "stencilc/boundary.h"
#include "stencilc/error.h"
#include "stencilc/grid.h"

namespace {

namespace cpu = stencilc::cpu;
using stencilc::Grid;

// Expects `f` to throw stencilc::Error whose message is exactly `message`.
void expect_error(const std::function<void()> &f, const std::string &message) {
  try {
    f();
    ADD_FAILURE() << "no error; expected: " << message;
  } catch (const stencilc::Error &e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

// ---- tile_count: even tiles, the same number per thread -------------------------------------

TEST(TemporalTileCount, FewestEvenTilesPerThread) {
  EXPECT_EQ(cpu::tile_count(510, 128, 2), 4); // 4 already a multiple of 2
  EXPECT_EQ(cpu::tile_count(510, 160, 2), 4); // ceil(510 / 160) = 4
  EXPECT_EQ(cpu::tile_count(510, 48, 2), 12); // 11 raised to 12
  EXPECT_EQ(cpu::tile_count(510, 170, 2), 4); // 3 raised to 4
  EXPECT_EQ(cpu::tile_count(510, 170, 1), 3);
  EXPECT_EQ(cpu::tile_count(510, 0, 2), 2);    // whole extent: one per thread
  EXPECT_EQ(cpu::tile_count(510, 1000, 4), 4); // more than the extent: as whole
  EXPECT_EQ(cpu::tile_count(3, 1, 4), 3);      // never more tiles than rows
  EXPECT_EQ(cpu::tile_count(1, 8, 2), 1);
  EXPECT_EQ(cpu::tile_count(0, 8, 2), 1);
  // Sizes [i n / c, (i + 1) n / c) differ by at most one and never exceed `most`.
  for (std::int64_t n = 1; n <= 200; n += 7)
    for (std::int64_t most = 1; most <= n + 3; most += 5)
      for (int threads : {1, 2, 3, 4}) {
        const std::int64_t c = cpu::tile_count(n, most, threads);
        ASSERT_GE(c, 1);
        ASSERT_LE(c, n);
        std::int64_t lo = n, hi = 0;
        for (std::int64_t i = 0; i < c; ++i) {
          const std::int64_t size = (i + 1) * n / c - i * n / c;
          lo = std::min(lo, size);
          hi = std::max(hi, size);
        }
        EXPECT_LE(hi - lo, 1) << n << " " << most << " " << threads;
        EXPECT_LE(hi, most) << n << " " << most << " " << threads;
        EXPECT_TRUE(c % threads == 0 || c == n) << n << " " << most << " " << threads;
      }
}

// ---- block_steps: a run split into blocks of at most k --------------------------------------

// The sizes run() gives its blocks for `steps` steps with depth k.
std::vector<std::int64_t> blocks_of(std::int64_t steps, int k) {
  std::vector<std::int64_t> out;
  for (std::int64_t s = 0; s < steps;) {
    const std::int64_t b = cpu::block_steps(steps - s, k);
    EXPECT_GE(b, 1);
    out.push_back(b);
    s += b;
  }
  return out;
}

TEST(TemporalBlockSteps, FewestBlocksOfNearlyEqualSize) {
  using V = std::vector<std::int64_t>;
  // 100 steps, k = 8: 13 blocks (ceil(100 / 8)), nine of 8 and four of 7.
  EXPECT_EQ(blocks_of(100, 8), (V{8, 8, 8, 8, 8, 8, 8, 8, 8, 7, 7, 7, 7}));
  // A multiple of k: whole blocks.
  EXPECT_EQ(blocks_of(12, 4), (V{4, 4, 4}));
  // Fewer steps than k: one shorter block; one step more than k: two halves.
  EXPECT_EQ(blocks_of(3, 8), (V{3}));
  EXPECT_EQ(blocks_of(9, 8), (V{5, 4}));
  EXPECT_EQ(blocks_of(5, 1), (V{1, 1, 1, 1, 1}));
  // Never more than k, always the fewest blocks.
  for (std::int64_t steps = 1; steps <= 70; ++steps)
    for (int k = 1; k <= 17; ++k) {
      const V b = blocks_of(steps, k);
      EXPECT_EQ(static_cast<std::int64_t>(b.size()), (steps + k - 1) / k) << steps << " " << k;
      for (auto n : b) {
        EXPECT_LE(n, k);
        EXPECT_LE(b.front() - n, 1);
      }
    }
  EXPECT_EQ(cpu::block_steps(0, 4), 0);
  EXPECT_EQ(cpu::block_steps(-3, 4), 0);
}

// ---- unsupported ---------------------------------------------------------------------------

cpu::GridDesc desc(const std::string &name, cpu::Face f = cpu::Face::Dirichlet) {
  cpu::GridDesc g;
  g.name = name;
  for (auto &d : g.faces)
    d = {f, f};
  return g;
}

cpu::View view(std::int64_t nx, std::int64_t ny, std::int64_t nz = 1) {
  cpu::View v;
  v.extent = {nx, ny, nz};
  return v;
}

TEST(TemporalUnsupported, RanksTwoAndThreeOnly) {
  cpu::Step s;
  s.grids = {desc("u"), desc("v")};
  for (int rank : {2, 3}) {
    s.rank = rank;
    EXPECT_EQ(cpu::unsupported(s, {}), "") << rank;
  }
  s.rank = 1;
  EXPECT_EQ(cpu::unsupported(s, {}), "rank 1 (temporal blocking covers ranks 2 and 3)");
  s.rank = 4;
  EXPECT_EQ(cpu::unsupported(s, {}), "rank 4 (temporal blocking covers ranks 2 and 3)");
}

TEST(TemporalUnsupported, PeriodicFaces) {
  cpu::Step s;
  s.rank = 3;
  // Periodic on both faces of a dimension, for every grid: fine (any dimension, Neumann too).
  s.grids = {desc("u", cpu::Face::Periodic), desc("v", cpu::Face::Periodic)};
  EXPECT_EQ(cpu::unsupported(s, {}), "");
  s.grids = {desc("u", cpu::Face::Neumann), desc("v")};
  EXPECT_EQ(cpu::unsupported(s, {}), "");
  // One face of dimension 2 (index 1) periodic, the other not.
  s.grids = {desc("u"), desc("v")};
  s.grids[1].faces[1] = {cpu::Face::Dirichlet, cpu::Face::Periodic};
  EXPECT_EQ(cpu::unsupported(s, {}), "grid 'v' is periodic on one face of dimension 2 only");
  s.grids[1].faces[1] = {cpu::Face::Periodic, cpu::Face::Neumann};
  EXPECT_EQ(cpu::unsupported(s, {}), "grid 'v' is periodic on one face of dimension 2 only");
  // Dimension 1 periodic for u, not for v.
  s.grids = {desc("u"), desc("v")};
  s.grids[0].faces[0] = {cpu::Face::Periodic, cpu::Face::Periodic};
  EXPECT_EQ(cpu::unsupported(s, {}), "dimension 1 is periodic for some grids only");
  // Dimension 3 of a rank-3 step counts; of a rank-2 step it does not exist.
  s.grids = {desc("u"), desc("v")};
  s.grids[0].faces[2] = {cpu::Face::Periodic, cpu::Face::Dirichlet};
  EXPECT_EQ(cpu::unsupported(s, {}), "grid 'u' is periodic on one face of dimension 3 only");
  s.rank = 2;
  EXPECT_EQ(cpu::unsupported(s, {}), "");
}

TEST(TemporalUnsupported, GridsOfDifferentShapes) {
  cpu::Step s;
  s.rank = 2;
  s.grids = {desc("u"), desc("v"), desc("w")};
  EXPECT_EQ(cpu::unsupported(s, {view(16, 8), view(16, 8), view(16, 8)}), "");
  EXPECT_EQ(cpu::unsupported(s, {view(16, 8), view(16, 8), view(16, 9)}),
            "grids 'u' and 'w' have different shapes");
  EXPECT_EQ(cpu::unsupported(s, {view(16, 8), view(15, 8), view(16, 8)}),
            "grids 'u' and 'v' have different shapes");
  // Dimensions beyond the rank are not compared.
  EXPECT_EQ(cpu::unsupported(s, {view(16, 8, 1), view(16, 8, 4), view(16, 8, 1)}), "");
  s.rank = 3;
  EXPECT_EQ(cpu::unsupported(s, {view(16, 8, 1), view(16, 8, 4), view(16, 8, 1)}),
            "grids 'u' and 'v' have different shapes");
  // No views: only the step is checked (what the compiler does before it offers the plan).
  EXPECT_EQ(cpu::unsupported(s, {}), "");
}

// ---- run_block end to end: a 5-point average on a rank-2 float grid ------------------------

// Dirichlet ghost values that depend on the ghost cell's position, so a ghost taken from the
// wrong place shows.
float ghost_value(std::int64_t x, std::int64_t y) {
  return 1.0f + 0.01f * static_cast<float>(x) - 0.1f * static_cast<float>(y);
}

// The one expression both plans evaluate for a cell.
inline float avg5(float c, float w, float e, float s, float n) {
  return 0.2f * ((((c + w) + e) + s) + n);
}

// Row r of a slot: `r` row steps (bytes) past the first.
template <typename T> T *row_at(void *const *p, const std::int64_t *step, int i, std::int64_t r) {
  return reinterpret_cast<T *>(static_cast<char *>(p[i]) + r * step[i]);
}
template <typename T>
const T *row_at(const void *const *p, const std::int64_t *step, int i, std::int64_t r) {
  return reinterpret_cast<const T *>(static_cast<const char *>(p[i]) + r * step[i]);
}

// The row function: out[0] = v at row y; in[0..2] = u at rows y, y - 1, y + 1.
void avg5_row(void *const *out, const std::int64_t *os, const void *const *in,
              const std::int64_t *is, std::int64_t x_lo, std::int64_t x_hi, std::int64_t,
              std::int64_t rows, std::int64_t, const void *) {
  for (std::int64_t r = 0; r < rows; ++r) {
    float *v = row_at<float>(out, os, 0, r);
    const float *u = row_at<float>(in, is, 0, r), *s = row_at<float>(in, is, 1, r),
                *n = row_at<float>(in, is, 2, r);
    for (std::int64_t x = x_lo; x < x_hi; ++x)
      v[x] = avg5(u[x], u[x - 1], u[x + 1], s[x], n[x]);
  }
}

// x ghosts of one row (halo 1), as fill_dirichlet of dimension 0 gives them.
void avg5_x_ghosts(void *row, std::int64_t n0, std::int64_t y, std::int64_t, const void *) {
  float *r = static_cast<float *>(row);
  r[-1] = ghost_value(-1, y);
  r[n0] = ghost_value(n0, y);
}

// A second grid with other boundary values (see the disabled test below).
void other_x_ghosts(void *row, std::int64_t n0, std::int64_t y, std::int64_t, const void *) {
  float *r = static_cast<float *>(row);
  r[-1] = 2.0f * ghost_value(-1, y);
  r[n0] = 2.0f * ghost_value(n0, y);
}

void fill_ghosts(Grid<float> &g, float scale = 1.0f) {
  for (int d = 0; d < 2; ++d)
    for (int side = 0; side < 2; ++side)
      stencilc::fill_dirichlet(g, d, side, [&](std::int64_t x, std::int64_t y, std::int64_t,
                                               std::int64_t) { return scale * ghost_value(x, y); });
}

Grid<float> grid2(const char *name, std::int64_t nx, std::int64_t ny) {
  return Grid<float>(name, 2, {nx, ny, 1, 1}, {1, 1, 0, 0});
}

// Step: avg (u -> v); swap u, v.
cpu::Step avg5_step(std::int64_t nx, std::int64_t ny, cpu::GhostFn v_ghosts = avg5_x_ghosts) {
  cpu::Step s;
  s.rank = 2;
  s.grids = {desc("u"), desc("v")};
  s.grids[0].x_dirichlet = avg5_x_ghosts;
  s.grids[1].x_dirichlet = v_ghosts;
  cpu::Call k;
  k.name = "avg";
  k.fn = avg5_row;
  k.writes = {1};
  k.reads = {{0, 0, 0}, {0, -1, 0}, {0, 1, 0}};
  k.hi = {nx, ny, 1};
  cpu::Call swap;
  swap.kind = cpu::Call::Kind::Swap;
  swap.a = 0;
  swap.b = 1;
  s.calls = {k, swap};
  s.reach = {1, 1, 0}; // the compiler's schedule: one cell per step in y
  return s;
}

// avg5_row as a vec=512 variant would be (the same cells), counting its calls.
std::atomic<int> wide_calls{0};
void avg5_row_wide(void *const *out, const std::int64_t *out_step, const void *const *in,
                   const std::int64_t *in_step, std::int64_t x_lo, std::int64_t x_hi,
                   std::int64_t y, std::int64_t rows, std::int64_t z, const void *ctx) {
  ++wide_calls;
  avg5_row(out, out_step, in, in_step, x_lo, x_hi, y, rows, z, ctx);
}

// `steps` naive sweeps: fill u's ghosts (by u's rule, whatever storage u holds), v = avg(u),
// swap u, v.
void naive_sweeps(Grid<float> &u, Grid<float> &v, int steps) {
  for (int t = 0; t < steps; ++t) {
    fill_ghosts(u);
    for (std::int64_t y = 0; y < u.extent(1); ++y)
      for (std::int64_t x = 0; x < u.extent(0); ++x)
        v.at(x, y) = avg5(u.at(x, y), u.at(x - 1, y), u.at(x + 1, y), u.at(x, y - 1),
                          u.at(x, y + 1));
    u.swap_storage(v);
  }
}

// Interior cells that differ bit for bit (their count; the first few are reported).
int differing_cells(const Grid<float> &a, const Grid<float> &b, const std::string &what) {
  int bad = 0;
  for (std::int64_t y = 0; y < a.extent(1); ++y)
    for (std::int64_t x = 0; x < a.extent(0); ++x)
      if (std::memcmp(&a.at(x, y), &b.at(x, y), sizeof(float)) != 0 && ++bad <= 3)
        ADD_FAILURE() << what << ": cell (" << x << ", " << y << ") " << a.at(x, y) << " vs "
                      << b.at(x, y);
  return bad;
}

struct Setting {
  int tile, chunk;
};

// u and v after `blocks` blocks of k steps through run_block, each swapping the shadows in as
// the generated code does, against k * blocks naive sweeps from the same inputs.
// `wider`: margins that much wider than the step needs (more redundant cells, same results).
// `wide`: Options::wide, with avg5_row_wide as the kernel's fn_wide.
void check_against_naive(std::int64_t nx, std::int64_t ny, int k, int blocks, Setting set,
                         cpu::Workspace &ws, int wider = 0, bool wide = false) {
  const std::string what = "k=" + std::to_string(k) + " tile=" + std::to_string(set.tile) +
                           " chunk=" + std::to_string(set.chunk) + " " + std::to_string(nx) +
                           "x" + std::to_string(ny);
  Grid<float> u = grid2("u", nx, ny), v = grid2("v", nx, ny);
  stencilc::fill_random(u, 7, 0);
  stencilc::fill_random(v, 7, 1);
  Grid<float> nu = grid2("u", nx, ny), nv = grid2("v", nx, ny);
  stencilc::fill_random(nu, 7, 0);
  stencilc::fill_random(nv, 7, 1);
  naive_sweeps(nu, nv, k * blocks);

  Grid<float> su = grid2("u", nx, ny), sv = grid2("v", nx, ny);
  fill_ghosts(su);
  fill_ghosts(sv);
  cpu::Step step = avg5_step(nx, ny);
  step.reach[1] += wider;
  step.calls[0].margin[1] += wider;
  step.calls[0].fn_wide = avg5_row_wide;
  cpu::Options o;
  o.wide = wide;
  o.k = k;
  o.tile = set.tile;
  o.chunk = set.chunk;
  for (int b = 0; b < blocks; ++b) {
    fill_ghosts(u);
    fill_ghosts(v);
    o.all_results = b == blocks - 1;
    cpu::run_block(step, o, {cpu::view_of(u), cpu::view_of(v)},
                   {cpu::view_of(su), cpu::view_of(sv)}, nullptr, ws);
    u.swap_storage(su);
    v.swap_storage(sv);
  }
  EXPECT_EQ(differing_cells(u, nu, what + " grid u"), 0);
  EXPECT_EQ(differing_cells(v, nv, what + " grid v"), 0);
}

TEST(TemporalRunBlock, ThreeStepsEqualThreeNaiveSweepsBitwise) {
  // Rank 2: x-rows whole, y streamed in chunks (rows= is the chunk too); chunks of 1 row, of
  // sizes that do not divide 23, the whole extent, and more than the extent.
  cpu::Workspace ws;
  for (const Setting set : {Setting{0, 0}, Setting{0, 1}, Setting{0, 4}, Setting{0, 7},
                            Setting{5, 0}, Setting{0, 23}, Setting{0, 1000}})
    check_against_naive(19, 23, 3, 1, set, ws);
}

TEST(TemporalRunBlock, SeveralBlocksAndOtherDepths) {
  cpu::Workspace ws;
  // Two blocks of 3 steps (the first skips the dead results), then depths 1, 2 and 5.
  check_against_naive(19, 23, 3, 2, {0, 4}, ws);
  check_against_naive(19, 23, 1, 2, {0, 5}, ws);
  check_against_naive(16, 16, 2, 1, {0, 3}, ws);
  check_against_naive(16, 16, 5, 1, {0, 2}, ws);
  // The narrowest grid the stencil fits: 3 x 3.
  check_against_naive(3, 3, 3, 1, {0, 1}, ws);
}

TEST(TemporalRunBlock, ReservedWorkspaceIsTheOneTheBlocksUse) {
  // reserve_workspace (a program's prepare(), before the clock) allocates every thread's buffer
  // of the block's size, zeroed; the blocks then run in it without allocating again, results
  // the same bits.
  const std::int64_t nx = 19, ny = 23;
  Grid<float> u = grid2("u", nx, ny), v = grid2("v", nx, ny);
  cpu::Options o;
  o.k = 3;
  o.chunk = 4;
  cpu::Workspace ws;
  cpu::reserve_workspace(avg5_step(nx, ny), o, {cpu::view_of(u), cpu::view_of(v)}, ws);
  ASSERT_EQ(ws.buffers.size(), static_cast<std::size_t>(omp_get_max_threads()));
  std::vector<const unsigned char *> reserved;
  for (std::size_t i = 0; i < ws.buffers.size(); ++i) {
    ASSERT_TRUE(ws.buffers[i]);
    ASSERT_GT(ws.bytes[i], 0u);
    EXPECT_EQ(std::count(ws.buffers[i].get(), ws.buffers[i].get() + ws.bytes[i], 0),
              static_cast<std::ptrdiff_t>(ws.bytes[i]));
    reserved.push_back(ws.buffers[i].get());
  }
  check_against_naive(nx, ny, 3, 2, {0, 4}, ws);
  for (std::size_t i = 0; i < ws.buffers.size(); ++i)
    EXPECT_EQ(ws.buffers[i].get(), reserved[i]) << "thread " << i << "'s buffer was replaced";
  // Options it cannot run are refused as run_block refuses them.
  o.k = 0;
  EXPECT_THROW(cpu::reserve_workspace(avg5_step(nx, ny), o, {cpu::view_of(u), cpu::view_of(v)}, ws),
               stencilc::Error);
}

TEST(TemporalRunBlock, WiderMarginsThanNeededGiveTheSameBits) {
  cpu::Workspace ws;
  check_against_naive(19, 23, 3, 2, {0, 4}, ws, 1);
  check_against_naive(16, 16, 4, 1, {0, 3}, ws, 3);
}

TEST(TemporalRunBlock, WideOptionRunsTheWideRowFunctions) {
  // vec=512: every kernel call goes to fn_wide, and only then.
  cpu::Workspace ws;
  wide_calls = 0;
  check_against_naive(19, 23, 3, 2, {0, 4}, ws, 0, false);
  EXPECT_EQ(wide_calls.load(), 0);
  check_against_naive(19, 23, 3, 2, {0, 4}, ws, 0, true);
  EXPECT_GT(wide_calls.load(), 0);
}

TEST(TemporalRunBlock, AfterOneBlockTheInputsAreUnchanged) {
  // The block writes only the shadows; the current storage is read-only to it.
  const std::int64_t nx = 12, ny = 10;
  Grid<float> u = grid2("u", nx, ny), v = grid2("v", nx, ny);
  stencilc::fill_random(u, 3, 0);
  stencilc::fill_random(v, 3, 1);
  fill_ghosts(u);
  fill_ghosts(v);
  Grid<float> u0 = grid2("u", nx, ny), v0 = grid2("v", nx, ny);
  stencilc::fill_random(u0, 3, 0);
  stencilc::fill_random(v0, 3, 1);
  Grid<float> su = grid2("u", nx, ny), sv = grid2("v", nx, ny);
  fill_ghosts(su);
  fill_ghosts(sv);
  cpu::Options o;
  o.k = 2;
  o.chunk = 3;
  cpu::Workspace ws;
  cpu::run_block(avg5_step(nx, ny), o, {cpu::view_of(u), cpu::view_of(v)},
                 {cpu::view_of(su), cpu::view_of(sv)}, nullptr, ws);
  EXPECT_EQ(differing_cells(u, u0, "u"), 0);
  EXPECT_EQ(differing_cells(v, v0, "v"), 0);
  // The workspace was sized and kept for the next block.
  ASSERT_FALSE(ws.buffers.empty());
  EXPECT_GT(ws.bytes[0], 0u);
}

TEST(TemporalRunBlock, RefusesWhatItCannotRun) {
  const std::int64_t nx = 8, ny = 8;
  Grid<float> u = grid2("u", nx, ny), v = grid2("v", nx, ny);
  Grid<float> su = grid2("u", nx, ny), sv = grid2("v", nx, ny);
  const std::vector<cpu::View> views = {cpu::view_of(u), cpu::view_of(v)};
  const std::vector<cpu::View> shadows = {cpu::view_of(su), cpu::view_of(sv)};
  cpu::Workspace ws;
  cpu::Step step = avg5_step(nx, ny);
  cpu::Options o;
  o.k = 0;
  expect_error([&] { cpu::run_block(step, o, views, shadows, nullptr, ws); },
               "temporal blocking: k = 0 is outside 1..64");
  o.k = 65;
  expect_error([&] { cpu::run_block(step, o, views, shadows, nullptr, ws); },
               "temporal blocking: k = 65 is outside 1..64");
  o.k = 2;
  o.tile = -1;
  expect_error([&] { cpu::run_block(step, o, views, shadows, nullptr, ws); },
               "temporal blocking: tile sizes must not be negative");
  o.tile = 0;
  expect_error([&] { cpu::run_block(step, o, {views[0]}, shadows, nullptr, ws); },
               "temporal block: expected one view and one shadow per grid");
  expect_error([&] { cpu::run_block(step, o, views, {shadows[0]}, nullptr, ws); },
               "temporal block: expected one view and one shadow per grid");
  Grid<float> w = grid2("v", nx, ny + 1);
  expect_error(
      [&] {
        cpu::run_block(step, o, {views[0], cpu::view_of(w)}, shadows, nullptr, ws);
      },
      "temporal blocking does not apply: grids 'u' and 'v' have different shapes");
  // A schedule that does not match the step: it reaches no cell in y, the kernel reads y +- 1.
  step.reach = {1, 0, 0};
  expect_error([&] { cpu::run_block(step, o, views, shadows, nullptr, ws); },
               "temporal blocking: the step's margins do not cover what kernel 'avg' reads (the "
               "compiler's schedule does not match the step)");
  step.reach = {1, 1, 0};
  step.calls[0].margin[1] = -1;
  expect_error([&] { cpu::run_block(step, o, views, shadows, nullptr, ws); },
               "temporal blocking: a margin of the step's schedule is negative");
  step.calls[0].margin[1] = 0;
  step.rank = 1;
  expect_error([&] { cpu::run_block(step, o, views, shadows, nullptr, ws); },
               "temporal blocking does not apply: rank 1 (temporal blocking covers ranks 2 and 3)");
}

// When the grids of a swap have different boundaries, the naive plan refills the ghosts of the
// storage u holds after the swap by u's rule, while a block would keep the rule of the grid that
// computed the value: the engine (and the compiler, with the same message) refuse the plan.
TEST(TemporalRunBlock, RefusesSwapsOfGridsWithDifferentBoundaries) {
  const std::int64_t nx = 10, ny = 9;
  Grid<float> u = grid2("u", nx, ny), v = grid2("v", nx, ny);
  Grid<float> su = grid2("u", nx, ny), sv = grid2("v", nx, ny);
  cpu::Step step = avg5_step(nx, ny, other_x_ghosts);
  step.grids[0].boundary_key = "dirichlet(1)";
  step.grids[1].boundary_key = "dirichlet(2)";
  EXPECT_EQ(cpu::unsupported(step, {}),
            "the run block swaps grids 'u' and 'v', which have different boundary conditions");
  cpu::Options o;
  o.k = 2;
  cpu::Workspace ws;
  try {
    cpu::run_block(step, o, {cpu::view_of(u), cpu::view_of(v)},
                   {cpu::view_of(su), cpu::view_of(sv)}, nullptr, ws);
    FAIL() << "run_block accepted a swap of grids with different boundaries";
  } catch (const stencilc::Error &e) {
    EXPECT_NE(std::string(e.what()).find("different boundary conditions"), std::string::npos);
  }
}

// ---- run_block, rank 3: tiles of rows of dimension 1, z streamed -------------------------

// 7-point average of a rank-3 double grid with Neumann faces (ghosts mirror the interior).
inline double avg7(double c, double w, double e, double s, double n, double b, double t) {
  return (((((c + w) + e) + s) + n) + b + t) / 7.0;
}

void avg7_row(void *const *out, const std::int64_t *os, const void *const *in,
              const std::int64_t *is, std::int64_t x_lo, std::int64_t x_hi, std::int64_t,
              std::int64_t rows, std::int64_t, const void *) {
  for (std::int64_t r = 0; r < rows; ++r) {
    double *v = row_at<double>(out, os, 0, r);
    const double *u = row_at<double>(in, is, 0, r), *s = row_at<double>(in, is, 1, r),
                 *n = row_at<double>(in, is, 2, r), *b = row_at<double>(in, is, 3, r),
                 *t = row_at<double>(in, is, 4, r);
    for (std::int64_t x = x_lo; x < x_hi; ++x)
      v[x] = avg7(u[x], u[x - 1], u[x + 1], s[x], n[x], b[x], t[x]);
  }
}

Grid<double> grid3(const char *name, std::int64_t n0, std::int64_t n1, std::int64_t n2) {
  return Grid<double>(name, 3, {n0, n1, n2, 1}, {1, 1, 1, 0});
}

void fill_neumann3(Grid<double> &g) {
  for (int d = 0; d < 3; ++d)
    for (int side = 0; side < 2; ++side)
      stencilc::fill_neumann(g, d, side);
}

TEST(TemporalRunBlock, Rank3TilesOfRowsEqualNaiveSweepsBitwise) {
  const std::int64_t n0 = 7, n1 = 11, n2 = 9;
  cpu::Step step;
  step.rank = 3;
  step.grids = {desc("u", cpu::Face::Neumann), desc("v", cpu::Face::Neumann)};
  for (auto &g : step.grids)
    g.elem_bytes = 8;
  cpu::Call k;
  k.name = "avg7";
  k.fn = avg7_row;
  k.writes = {1};
  k.reads = {{0, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
  k.hi = {n0, n1, n2};
  cpu::Call swap;
  swap.kind = cpu::Call::Kind::Swap;
  swap.a = 0;
  swap.b = 1;
  step.calls = {k, swap};
  step.reach = {1, 1, 1};

  cpu::Workspace ws;
  // carry=off: every tile computes its whole ghost zone (carried: a thread's later tiles take
  // the rows below them from the tile before).
  for (const bool carry : {true, false})
    for (const Setting set : {Setting{0, 0}, Setting{1, 0}, Setting{4, 0}, Setting{3, 2},
                              Setting{11, 9}, Setting{64, 1}}) {
      const std::string what = "tile=" + std::to_string(set.tile) +
                               " chunk=" + std::to_string(set.chunk) + (carry ? "" : " carry=off");
      Grid<double> nu = grid3("u", n0, n1, n2), nv = grid3("v", n0, n1, n2);
      stencilc::fill_random(nu, 11, 0);
      stencilc::fill_random(nv, 11, 1);
      for (int t = 0; t < 3; ++t) {
        fill_neumann3(nu);
        for (std::int64_t z = 0; z < n2; ++z)
          for (std::int64_t y = 0; y < n1; ++y)
            for (std::int64_t x = 0; x < n0; ++x)
              nv.at(x, y, z) =
                  avg7(nu.at(x, y, z), nu.at(x - 1, y, z), nu.at(x + 1, y, z), nu.at(x, y - 1, z),
                       nu.at(x, y + 1, z), nu.at(x, y, z - 1), nu.at(x, y, z + 1));
        nu.swap_storage(nv);
      }

      Grid<double> u = grid3("u", n0, n1, n2), v = grid3("v", n0, n1, n2);
      stencilc::fill_random(u, 11, 0);
      stencilc::fill_random(v, 11, 1);
      fill_neumann3(u);
      fill_neumann3(v);
      Grid<double> su = grid3("u", n0, n1, n2), sv = grid3("v", n0, n1, n2);
      cpu::Options o;
      o.k = 3;
      o.tile = set.tile;
      o.chunk = set.chunk;
      o.carry = carry;
      cpu::run_block(step, o, {cpu::view_of(u), cpu::view_of(v)},
                     {cpu::view_of(su), cpu::view_of(sv)}, nullptr, ws);
      int bad = 0;
      for (std::int64_t z = 0; z < n2; ++z)
        for (std::int64_t y = 0; y < n1; ++y)
          for (std::int64_t x = 0; x < n0; ++x) {
            bad += std::memcmp(&su.at(x, y, z), &nu.at(x, y, z), sizeof(double)) != 0;
            bad += std::memcmp(&sv.at(x, y, z), &nv.at(x, y, z), sizeof(double)) != 0;
          }
      EXPECT_EQ(bad, 0) << what;
    }
}

} // namespace
