// Unit tests of the performance model (compiler/model) against hand-computed numbers. The
// arithmetic behind every expected value is written next to it; docs/MODEL.md gives the
// equations.
#include "model/model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "driver/share_curves.h"
#include "driver/tune.h"
#include "model/machine.h"
#include "stencilc/error.h"
#include "stencilc/plan.h"
#include "support/stats.h"
#include "target/target.h"

namespace {

namespace model = stc::model;

// Relative comparison for predicted seconds (the model's sums are not exact in binary).
void expect_close(double actual, double expected, const char *what = "") {
  EXPECT_NEAR(actual, expected, 1e-12 * std::fabs(expected) + 1e-300) << what;
}

// Expects `f` to throw stencilc::Error whose message contains `part`.
void expect_error(const std::function<void()> &f, const std::string &part) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one containing: " << part;
  } catch (const stencilc::Error &e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
        << "message: " << e.what() << "\nexpected to contain: " << part;
  }
}

model::Machine cpu(double flops, double bandwidth, double cache = 1 << 20, double barrier = 0) {
  model::Machine m;
  m.name = "test-cpu";
  m.kind = "cpu";
  m.flops = flops;
  m.bandwidth = bandwidth;
  m.cache_bytes = cache;
  m.barrier_seconds = barrier;
  m.net_latency = 1e-6;
  m.net_bandwidth = 1e10;
  return m;
}

// 132 SMs x 8 resident blocks = 1056 slots, as the H100 profile.
model::Machine gpu() {
  model::Machine m;
  m.name = "test-gpu";
  m.kind = "gpu";
  m.flops = 1e13;
  m.bandwidth = 1e12;
  m.sms = 132;
  m.max_blocks_per_sm = 8;
  m.shared_bandwidth = 1e13;
  m.shared_bytes_per_block = 1e6;
  m.launch_seconds = 4e-6;
  m.naive_traffic_factor = 1.5;
  m.net_latency = 2e-6;
  m.net_bandwidth = 2.5e10;
  m.link_bandwidth = 5e10;
  return m;
}

// heat3d in fp32: 8 flops, u read (4 B) + v read for ownership and written (8 B) = 12 B,
// 7 distinct loads, radius 1, one grid read.
model::Cost heat3d(std::int64_t nx, std::int64_t ny, std::int64_t nz) {
  model::Cost c;
  c.flops_per_cell = 8;
  c.bytes_per_cell = 12;
  c.elem_bytes = 4;
  c.loads_per_cell = 7;
  c.radius = 1;
  c.grids = 1;
  c.rank = 3;
  c.extent = {nx, ny, nz, 1};
  return c;
}

stencilc::PlanRules rules(const std::string &target) {
  return stc::find_target(target).plan_rules();
}

std::string key(const model::Plan &p) { return stencilc::to_string(p); }

int rows_of(const model::Plan &p) {
  const auto *t = p.get<stencilc::scheme::CpuTemporal>();
  return t ? t->rows : 0;
}

// A plan of the target: naive (MPI: halos k steps deep), temporal or streaming.
model::Plan plan(const std::string &target, const std::string &scheme, int k, int tx = 0,
                 int ty = 0) {
  const auto r = rules(target);
  model::Plan p;
  if (scheme == "temporal" && r.platform == stencilc::Platform::Cpu)
    p.scheme = stencilc::scheme::CpuTemporal{k, 0, 0};
  else if (scheme == "temporal")
    p.scheme = stencilc::scheme::GpuTemporal{k, tx, ty};
  else if (scheme == "streaming")
    p.scheme = stencilc::scheme::GpuStreaming{tx, ty};
  if (r.distributed)
    p.distribution = stencilc::Distribution{{1, 1, 1, 1}, k, false};
  return p;
}

model::Plan mpi_plan(const std::string &target, int k, std::array<int, 3> procs, bool overlap) {
  model::Plan p = plan(target, "naive", k);
  p.distribution = stencilc::Distribution{{procs[0], procs[1], procs[2], 1}, k, overlap};
  return p;
}

TEST(ModelRoofline, ComputeBound) {
  // F = 1e9 flop/s, B = 1e10 B/s; 1e6 cells of 100 flops and 8 bytes:
  // compute 1e6*100/1e9 = 0.1 s, memory 1e6*8/1e10 = 8e-4 s -> 0.1 s.
  const auto m = cpu(1e9, 1e10);
  expect_close(model::roofline(1e6, 100, 8, m), 0.1);
  // The naive plan: the same cells, plus one barrier (2e-6 s) per step; bound compute.
  model::Cost c;
  c.flops_per_cell = 100;
  c.bytes_per_cell = 8;
  c.rank = 1;
  c.extent = {1000000, 1, 1, 1};
  const auto p = model::predict(c, cpu(1e9, 1e10, 1 << 20, 2e-6), plan("openmp", "naive", 1));
  expect_close(p.t_compute, 0.1);
  expect_close(p.t_memory, 8e-4);
  expect_close(p.seconds_per_step, 0.1 + 2e-6);
  EXPECT_EQ(p.bound, "compute");
}

TEST(ModelRoofline, MemoryBound) {
  // 1e6 cells of 1 flop and 16 bytes: compute 1e6/1e9 = 1e-3 s, memory 1.6e7/1e10 = 1.6e-3 s.
  const auto m = cpu(1e9, 1e10);
  expect_close(model::roofline(1e6, 1, 16, m), 1.6e-3);
  model::Cost c;
  c.flops_per_cell = 1;
  c.bytes_per_cell = 16;
  c.rank = 2;
  c.extent = {1000, 1000, 1, 1};
  const auto p = model::predict(c, m, plan("openmp", "naive", 1));
  expect_close(p.seconds_per_step, 1.6e-3);
  EXPECT_EQ(p.bound, "memory");
}

TEST(ModelRoofline, CellsAreTheProductOfTheFirstRankExtents) {
  model::Cost c;
  c.rank = 2;
  c.extent = {30, 20, 7, 5}; // extents beyond the rank are ignored
  EXPECT_DOUBLE_EQ(c.cells(), 600.0);
  c.rank = 4;
  EXPECT_DOUBLE_EQ(c.cells(), 30.0 * 20 * 7 * 5);
}

TEST(ModelRoofline, GpuNaiveMultipliesTrafficAndAddsALaunch) {
  // 1056 x 256 x 100 = 27,033,600 cells; memory 27,033,600 * 12 B * 1.5 / 1e12 = 4.866048e-4 s,
  // compute 27,033,600 * 8 / 1e13 = 2.162688e-5 s; plus one 4 us launch.
  const auto p = model::predict(heat3d(1056, 256, 100), gpu(), plan("cuda", "naive", 1));
  expect_close(p.t_memory, 4.866048e-4);
  expect_close(p.t_compute, 2.162688e-5);
  expect_close(p.seconds_per_step, 4.906048e-4);
  EXPECT_EQ(p.bound, "memory");
}

TEST(ModelRoofline, GpuBytesHaveNoWriteAllocateAndReadTheGhostRing) {
  // heat3d as the analysis gives it: 12 B of which 8 write (ownership read + write-back), and
  // the faces of u, 6 * 4 B / 64 = 0.375 B: 4 + 4 + 0.375 = 8.375 B a GPU moves at least.
  auto c = heat3d(64, 64, 64);
  c.written_bytes_per_cell = 8;
  c.ghost_read_bytes_per_cell = 0.375;
  EXPECT_DOUBLE_EQ(model::gpu_min_bytes(c), 8.375);
  // Naive: times phi = 1.5; 262,144 cells * 12.5625 B / 1e12 = 3.29318e-6 s.
  const auto p = model::predict(c, gpu(), plan("cuda", "naive", 1));
  EXPECT_DOUBLE_EQ(p.global_bytes, 8.375 * 1.5);
  expect_close(p.t_memory, 262144 * 8.375 * 1.5 / 1e12);
  // A streaming block of 32 x 8: its input with the halo H = 34 * 10 / 256 and the plane
  // before and after its 64, its output once.
  const auto s = model::predict(c, gpu(), plan("cuda", "streaming", 1, 32, 8));
  EXPECT_DOUBLE_EQ(s.global_bytes, 4 * (34.0 * 10 / 256) * (66.0 / 64) + 4);
}

TEST(ModelGpuRegisters, OccupancyBelowHalfSlowsMemoryAndSpillsAddTraffic) {
  const auto c0 = heat3d(1056, 256, 100); // 27,033,600 cells, memory 4.866048e-4 s (above)
  auto c = c0;
  // 24 registers: 128-thread blocks fill the SM (16 blocks of 4 warps = 2048 threads): unchanged.
  c.naive_kernel.registers = 24;
  auto p = model::predict(c, gpu(), plan("cuda", "naive", 1));
  EXPECT_DOUBLE_EQ(p.occupancy, 1.0);
  expect_close(p.t_memory, 4.866048e-4);
  // 128 registers: 4096 per warp, 4 warps a block: 4 blocks = 512 threads = 25%, half of the
  // saturating 50%: twice the memory time.
  c.naive_kernel.registers = 128;
  p = model::predict(c, gpu(), plan("cuda", "naive", 1));
  EXPECT_DOUBLE_EQ(p.occupancy, 0.25);
  expect_close(p.t_memory, 2 * 4.866048e-4);
  EXPECT_EQ(p.note, "occupancy 25% (128 registers, the limit)");
  // Spills: their bytes per point stream too: 8 B * 27,033,600 / 1e12 more.
  c.naive_kernel.registers = 24;
  c.naive_kernel.spill_bytes = 8;
  p = model::predict(c, gpu(), plan("cuda", "naive", 1));
  expect_close(p.t_memory, 4.866048e-4 + 8 * 27033600 / 1e12);
}

TEST(ModelGpuRegisters, ResidentBlocksOfAStreamingPlanComeFromTheRegisters) {
  // 1056 blocks of 32 x 8 fill one wave at the profile's 8 blocks per SM; with 64 registers a
  // 256-thread block takes 16384 of the 65536: 4 blocks per SM, 528 slots, two full waves (the
  // time is unchanged by waves), occupancy 50%: the memory time is unchanged too.
  auto c = heat3d(1056, 256, 100);
  const auto before = model::predict(c, gpu(), plan("cuda", "streaming", 1, 32, 8));
  c.stream_kernel.registers = 64;
  const auto p = model::predict(c, gpu(), plan("cuda", "streaming", 1, 32, 8));
  EXPECT_DOUBLE_EQ(p.occupancy, 0.5);
  expect_close(p.seconds_per_step, before.seconds_per_step);
  // 255 registers: one block of 8 warps needs 65280 registers: 1 block per SM, 12.5%: the memory
  // time is 4x, and a 1024-thread block does not fit at all.
  c.stream_kernel.registers = 255;
  const auto q = model::predict(c, gpu(), plan("cuda", "streaming", 1, 32, 8));
  EXPECT_DOUBLE_EQ(q.occupancy, 0.125);
  expect_close(q.t_memory, 4 * before.t_memory);
  const auto r = model::predict(c, gpu(), plan("cuda", "streaming", 1, 32, 32));
  EXPECT_FALSE(std::isfinite(r.seconds_per_step));
  EXPECT_EQ(r.bound, "registers");
}

// ---- MPI exchange period ---------------------------------------------------------------

TEST(ModelPeriod, OverlapTakesTheMaxWithoutOverlapTheSum) {
  // inner 5, boundary 1, comm 3: overlap max(5, 3) + 1 = 6; no overlap 5 + 3 + 1 = 9.
  EXPECT_DOUBLE_EQ(model::period(5, 1, 3, true), 6);
  EXPECT_DOUBLE_EQ(model::period(5, 1, 3, false), 9);
  // Communication longer than the inner region: max(2, 7) + 1 = 8; 2 + 7 + 1 = 10.
  EXPECT_DOUBLE_EQ(model::period(2, 1, 7, true), 8);
  EXPECT_DOUBLE_EQ(model::period(2, 1, 7, false), 10);
  // Nothing to hide: both are inner + boundary.
  EXPECT_DOUBLE_EQ(model::period(4, 2, 0, true), 6);
  EXPECT_DOUBLE_EQ(model::period(4, 2, 0, false), 6);
}

TEST(ModelPeriod, MpiCudaTwoByTwoByOneByHand) {
  // 200 x 100 x 50 cells on procs 2x2x1: subdomain n = (100, 50, 50); k = 2, r = 1.
  // tau = max(8 / 1e13, 12 * 1.5 / 1e12) = 1.8e-11 s per cell (memory, with the naive traffic).
  // Inner box: (100 - 4) (50 - 4) 50 = 220,800 cells, k times: 441,600 -> T_inner = 7.9488e-6.
  // Shrinking ghost zone: level 1 (102)(52)(50) = 265,200, level 2 (100)(50)(50) = 250,000:
  //   515,200 cells; boundary 515,200 - 441,600 = 73,600 -> T_boundary = 1.3248e-6.
  // Faces (k r elem grids = 2 * 1 * 4 * 1 = 8 B per face cell, corners included):
  //   x: 8 * (50 + 4) * 50 = 21,600 B; y: 8 * (100 + 4) * 50 = 41,600 B; two neighbours each:
  //   126,400 B. T_mpi = 4 * 2e-6 + 126,400 / 2.5e10 = 8e-6 + 5.056e-6 = 1.3056e-5.
  // Through the host, the faces of every dimension of the ghost-extended block (104, 54, 54):
  //   x 8 * 54 * 54 = 23,328 B, y and z 8 * 104 * 54 = 44,928 B each; both sides: 226,368 B,
  //   T_d2h = T_h2d = 226,368 / 5e10 = 4.52736e-6; T_comm = 1.3056e-5 + 9.05472e-6 = 2.211072e-5.
  // Overlap: (max(7.9488e-6, 2.211072e-5) + 1.3248e-6 + (1 + 2 * 3) launches * 4e-6 * k=2) / 2
  //        = (2.211072e-5 + 1.3248e-6 + 5.6e-5) / 2 = 3.971776e-5 s per step.
  // No overlap: (7.9488e-6 + 1.3248e-6 + 2.211072e-5 + 1 launch * 4e-6 * 2) / 2 = 1.969216e-5.
  const auto c = heat3d(200, 100, 50);
  const auto on = model::predict(c, gpu(), mpi_plan("mpi-cuda", 2, {2, 2, 1}, true));
  const auto off = model::predict(c, gpu(), mpi_plan("mpi-cuda", 2, {2, 2, 1}, false));
  expect_close(on.seconds_per_step, 3.971776e-5, "overlap");
  expect_close(off.seconds_per_step, 1.969216e-5, "no overlap");
  expect_close(on.t_comm, 2.211072e-5 / 2, "t_comm per step");
  expect_close(on.t_d2h, 4.52736e-6, "t_d2h per period");
  expect_close(on.t_h2d, 4.52736e-6, "t_h2d per period");
  expect_close(on.t_mpi, 1.3056e-5, "t_mpi per period");
  expect_close(on.t_inner, 7.9488e-6, "t_inner per period");
  expect_close(on.t_boundary, 1.3248e-6, "t_boundary per period");
  expect_close(on.t_compute, (7.9488e-6 + 1.3248e-6) / 2, "t_compute per step");
  expect_close(on.redundancy, 515200.0 / (100 * 50 * 50 * 2), "redundancy");
  // Exposed communication 2.211072e-5 - 7.9488e-6 > compute 9.2736e-6.
  EXPECT_EQ(on.bound, "communication");
  EXPECT_EQ(off.bound, "communication");
}

// ---- the k trade-off, closed form ------------------------------------------------------

// A rank-1 domain on 2 ranks (procs 2x1x1, subdomain n = N/2), radius r = 1, 4-byte cells,
// tau = 1e-9 s per cell (F = 1e9, f = 1; memory negligible), no barrier, net bandwidth
// W = 4e9 B/s. With halo depth k: inner box n - 2k cells, computed k times; the shrinking
// ghost zone adds sum_j 2(k - j) = k(k - 1) cells, so T_boundary = tau (k(k-1) + 2k^2)
// = tau k (3k - 1). Two messages of 4k bytes: T_comm = 2L + 2 * 4k / W = 2L + 2k ns.
model::Cost line(std::int64_t n) {
  model::Cost c;
  c.flops_per_cell = 1;
  c.bytes_per_cell = 1;
  c.elem_bytes = 4;
  c.radius = 1;
  c.grids = 1;
  c.rank = 1;
  c.extent = {n, 1, 1, 1};
  return c;
}

model::Machine line_machine(double latency) {
  auto m = cpu(1e9, 1e12);
  m.net_latency = latency;
  m.net_bandwidth = 4e9;
  return m;
}

TEST(ModelKTradeOff, NoOverlapPerStepIsAPlusKPlusLatencyOverK) {
  // n = 1000, L = 8 ns. Without overlap, per step:
  //   (tau (n - 2k) k + tau k (3k - 1) + 2L + 2k ns) / k = tau (n - 1) + tau k + 2L / k + 2 ns
  //   = 1001 + k + 16 / k ns, minimised at k* = sqrt(2L / (tau r)) = sqrt(16) = 4.
  const auto c = line(2000);
  const auto m = line_machine(8e-9);
  for (int k : {1, 2, 3, 4, 6, 8}) {
    const auto p = model::predict(c, m, mpi_plan("mpi-openmp", k, {2, 1, 1}, false));
    expect_close(p.seconds_per_step, (1001.0 + k + 16.0 / k) * 1e-9, "per step");
  }
  // k = 4 by hand: inner 992 cells x 4 = 3968 ns, boundary 4 * 11 = 44 ns, comm 2 (8 + 4) = 24 ns:
  // 4036 ns / 4 = 1009 ns.
  const auto k4 = model::predict(c, m, mpi_plan("mpi-openmp", 4, {2, 1, 1}, false));
  expect_close(k4.seconds_per_step, 1009e-9);
  // The optimizer, among the no-overlap candidates, picks k* = 4 (1009 ns; k = 3: 1009.33,
  // k = 6: 1009.67).
  const auto cands = model::candidates(c, m, rules("mpi-openmp"), 2);
  const model::Prediction *best_off = nullptr;
  for (const auto &p : cands)
    if (!p.plan.distribution->overlap) {
      best_off = &p;
      break;
    }
  ASSERT_NE(best_off, nullptr);
  EXPECT_EQ(best_off->plan.k(), 4);
  EXPECT_EQ(best_off->plan.distribution->procs, (std::array<int, 4>{2, 1, 1, 1}));
  // With overlap the inner 998 ns of k = 1 hide the 18 ns of messages: max(998, 18) + 2 =
  // 1000 ns per step beats every deep halo, so that is the overall choice.
  EXPECT_EQ(key(cands.front().plan), "scheme=naive,procs=2x1x1,overlap=on");
  expect_close(cands.front().seconds_per_step, 1000e-9);
}

TEST(ModelKTradeOff, ProcessGridsKeepDimensionsReadAtAbsoluteIndicesWhole) {
  // The same line, read at an absolute index in dimension 1: no candidate splits it, so on
  // 2 ranks there is none (a rank-1 grid has nothing else to split); unmarked, there are some.
  auto c = line(1000);
  const auto m = line_machine(8e-9);
  EXPECT_FALSE(model::candidates(c, m, rules("mpi-openmp"), 2).empty());
  c.whole_dims = 1u;
  EXPECT_TRUE(model::candidates(c, m, rules("mpi-openmp"), 2).empty());
  EXPECT_FALSE(model::candidates(c, m, rules("mpi-openmp"), 1).empty());
}

TEST(ModelKTradeOff, CommunicationBoundOverlapPicksTheClosedFormOptimum) {
  // n = 20, L = 24 ns: T_comm = 48 + 2k ns exceeds T_inner = (20 - 2k) k ns for every k
  // (k = 4: 56 > 48; k = 6: 60 > 48; k = 8: 64 > 32), so with overlap, per step:
  //   (T_comm + T_boundary) / k = (48 + 2k + 3k^2 - k) / k = 48 / k + 3k + 1 ns,
  // minimised at k* = sqrt(2L / (3 tau r)) = sqrt(16) = 4: 25 ns (k=3: 26, k=6: 27, k=2: 31).
  // Without overlap: 21 + k + 48 / k >= 35 ns. The optimizer's choice is k = 4 with overlap
  // (among mpi-cuda's candidates: mpi-openmp overlaps naive sweeps, k = 1, only).
  const auto c = line(40);
  const auto m = line_machine(24e-9);
  for (int k : {1, 2, 3, 4, 6, 8}) {
    const auto p = model::predict(c, m, mpi_plan("mpi-openmp", k, {2, 1, 1}, true));
    expect_close(p.seconds_per_step, (48.0 / k + 3.0 * k + 1) * 1e-9, "overlap per step");
    const auto q = model::predict(c, m, mpi_plan("mpi-openmp", k, {2, 1, 1}, false));
    expect_close(q.seconds_per_step, (21.0 + k + 48.0 / k) * 1e-9, "no-overlap per step");
  }
  const auto cands = model::candidates(c, m, rules("mpi-cuda"), 2);
  ASSERT_FALSE(cands.empty());
  EXPECT_EQ(cands.front().plan.k(), 4);
  EXPECT_TRUE(cands.front().plan.distribution->overlap);
  expect_close(cands.front().seconds_per_step, 25e-9);
  const double k_star = std::sqrt(2 * 24e-9 / (3 * 1e-9 * 1));
  EXPECT_DOUBLE_EQ(k_star, 4.0);
}

// ---- GPU: tail factor, 2.5D / temporal, shared memory ----------------------------------

TEST(ModelGpu, TailFactor) {
  const auto m = gpu(); // 132 x 8 = 1056 slots
  EXPECT_DOUBLE_EQ(model::tail_factor(1056, m), 1.0);
  EXPECT_DOUBLE_EQ(model::tail_factor(1057, m), 1057.0 / 2112); // 2 waves, the last 1/1056 full
  EXPECT_DOUBLE_EQ(model::tail_factor(2112, m), 1.0);
  EXPECT_DOUBLE_EQ(model::tail_factor(528, m), 0.5); // one half-full wave
  EXPECT_DOUBLE_EQ(model::tail_factor(1, m), 1.0 / 1056);
  EXPECT_DOUBLE_EQ(model::tail_factor(0, m), 1.0);
  // Profiles without SM figures count one slot.
  model::Machine none;
  EXPECT_DOUBLE_EQ(model::tail_factor(3, none), 1.0);
}

// heat3d as the GPU temporal plan sees it: u read at offsets (4 B; 7 loads, 4 of them at an x
// or y offset: from shared memory, the others from the column's registers), v the swapped
// output (4 B), no coefficients.
model::Cost heat3d_fused(std::int64_t nx, std::int64_t ny, std::int64_t nz) {
  model::Cost c = heat3d(nx, ny, nz);
  c.offset_read_bytes_per_cell = 4;
  c.swapped_written_bytes_per_cell = 4;
  c.offset_loads_per_cell = 7;
  c.xy_loads_per_cell = 4;
  c.single_array = true;
  return c;
}

TEST(ModelGpu, TemporalBlockingByHand) {
  // 1056 x 256 x 100 = 27,033,600 cells; k = 2, r = 1, a 36x12 block of threads keeps an
  // output tile of (36-4) x (12-4) = 32x8 -> 33 x 32 = 1056 blocks; 4 blocks of 432 threads
  // per SM (2048 threads), 528 slots: two full waves, tail factor 1.
  // redundancy (34*10 + 32*8) / (2 * 256) = 596/512 = 1.1640625.
  // global bytes per cell-update: u on the tiles (36 x 12 each, cut at the ghost cells: x
  // 35 + 31 * 36 + 35 = 1186 of 1056, y 11 + 30 * 12 + 11 = 382 of 256) and its 2 extra
  // planes (102/100), + v on the output tiles, over k:
  // (4 * 1186 * 382 / (1056 * 256) * 1.02 + 4) / 2 = 5.418805042613636.
  // T_compute = 27,033,600 * 8 * 1.1640625 / 1e13 = 2.517504e-5
  // T_global  = 27,033,600 * 5.418805042613636 / 1e12 = 1.46489808e-4
  // T_shared  = 27,033,600 * 4 B * ((4 loads + 1 store) * 1.1640625 + 432 / (256 * 2) * 1.02)
  //           / 1e13 = 7.22439168e-5 (level 0 stores every cell it loads, its planes too)
  // T = 1.46489808e-4 + 4e-6 / 2 = 1.48489808e-4, memory-bound.
  // Shared memory: 2 levels * 3 planes * 36 * 12 * 4 B = 10,368 B per block (fits).
  const auto p =
      model::predict(heat3d_fused(1056, 256, 100), gpu(), plan("cuda", "temporal", 2, 36, 12));
  expect_close(p.redundancy, 1.1640625);
  expect_close(p.global_bytes, 5.418805042613636);
  expect_close(p.t_compute, 2.517504e-5);
  expect_close(p.t_memory, 1.46489808e-4);
  expect_close(p.t_shared, 7.22439168e-5);
  expect_close(p.seconds_per_step, 1.48489808e-4);
  EXPECT_EQ(p.bound, "memory");
  EXPECT_EQ(p.note, "32x8 cells per block, 4 per SM");
  // A block that keeps no cell after k steps (8 rows, 2 k r = 8) is no plan.
  const auto q =
      model::predict(heat3d_fused(1056, 256, 100), gpu(), plan("cuda", "temporal", 4, 32, 8));
  EXPECT_TRUE(std::isinf(q.seconds_per_step));
  EXPECT_EQ(q.note, "a 32x8 block keeps no cell after 4 steps");
  // Coefficients (read at the centre) are read on the first step's columns, 34 x 10 per tile,
  // cut at the interior: x 33 + 31 * 34 + 33 = 1120, y 9 + 30 * 10 + 9 = 318.
  auto c = heat3d_fused(1056, 256, 100);
  c.centre_read_bytes_per_cell = 8;
  const auto h = model::predict(c, gpu(), plan("cuda", "temporal", 2, 36, 12));
  expect_close(h.global_bytes, 5.418805042613636 + 8.0 * 1120 * 318 / (1056 * 256) / 2);
  // Another grid read: the column is read from shared memory too, 7 loads + 1 store:
  // 27,033,600 * 4 B * (8 * 1.1640625 + 432 / 512 * 1.02) / 1e13 = 1.100064768e-4.
  c.single_array = false;
  expect_close(model::predict(c, gpu(), plan("cuda", "temporal", 2, 36, 12)).t_shared,
               1.100064768e-4);
}

TEST(ModelGpu, TemporalBlockingOverChunksByHand) {
  // The same grid and block, each block over a chunk of 25 output planes of the 100 (4 chunks).
  // Level 0 loads k r = 2 planes beyond each end, cut at the ghost planes (-1 and 100):
  // 28 + 29 + 29 + 28 = 114 of 100 planes; level 1 computes 1 plane beyond, cut at the
  // interior: 26 + 27 + 27 + 26 = 106; level 2 the chunk: 100. Redundancy 1.1640625 * (106 +
  // 100) / 200 = 1.198984375; global bytes (4 * 1186 * 382 / (1056 * 256) * 1.14 + 4) / 2 =
  // 5.821017400568181; T_shared = 27,033,600 * 4 * (5 * 1.198984375 + 432/512 * 1.14) / 1e13
  // = 7.52269056e-5; 1056 * 4 blocks on 528 slots: 8 full waves.
  model::Plan p;
  p.scheme = stencilc::scheme::GpuTemporal{2, 36, 12, 25};
  const auto q = model::predict(heat3d_fused(1056, 256, 100), gpu(), p);
  expect_close(q.redundancy, 1.198984375);
  expect_close(q.global_bytes, 5.821017400568181);
  expect_close(q.t_compute, 2.59302912e-5);
  expect_close(q.t_memory, 1.57363056e-4);
  expect_close(q.t_shared, 7.52269056e-5);
  expect_close(q.seconds_per_step, 1.57363056e-4 + 4e-6 / 2);
  EXPECT_EQ(q.note, "32x8 cells per block, 4 per SM");
  // A chunk as long as the walked dimension is all of it.
  p.scheme = stencilc::scheme::GpuTemporal{2, 36, 12, 100};
  expect_close(model::predict(heat3d_fused(1056, 256, 100), gpu(), p).seconds_per_step,
               1.48489808e-4);
}

TEST(ModelGpu, TemporalBlockRegistersFromPtxas) {
  // ptxas's registers of the loop kernel (k > 5) and of the k = 4 instance: 128 registers x
  // 1024 threads do not fit an SM's 65536; 64 x 512 leave 2 blocks of 512 (50%).
  auto c = heat3d_fused(512, 512, 512);
  c.temporal_kernels[0].registers = 128;
  c.temporal_kernels[4].registers = 64;
  const auto big = model::predict(c, gpu(), plan("cuda", "temporal", 6, 32, 32));
  EXPECT_TRUE(std::isinf(big.seconds_per_step));
  EXPECT_EQ(big.bound, "registers");
  EXPECT_EQ(big.note, "128 registers x 1024 threads do not fit an SM");
  const auto four = model::predict(c, gpu(), plan("cuda", "temporal", 4, 32, 16));
  EXPECT_TRUE(std::isfinite(four.seconds_per_step));
  EXPECT_EQ(four.note, "24x8 cells per block, 2 per SM; occupancy 50% (64 registers, the limit); "
                       "last wave 89% full");
}

TEST(ModelGpu, TemporalBlockingRank2ByHand) {
  // heat2d 1080 x 1000 fp32 (u read at offsets: 5 loads, 2 of them at an x offset from shared
  // memory, the column's 3 from registers), k = 4, rows of 128 threads walking y: output 120
  // cells, 9 blocks, redundancy (126 + 124 + 122 + 120) / (4 * 120) = 1.025.
  // global: u on the rows cut at the ghost cells (125 + 7 * 128 + 125 = 1146 of 1080) and 2
  // extra rows of y (1002/1000), + v: (4 * 1146 / 1080 * 1.002 + 4) / 4 = 2.0632 B.
  model::Cost c = heat3d_fused(1080, 1000, 1);
  c.rank = 2;
  c.flops_per_cell = 6;
  c.offset_loads_per_cell = 5;
  c.xy_loads_per_cell = 2;
  const auto p = model::predict(c, gpu(), plan("cuda", "temporal", 4, 128, 1));
  expect_close(p.redundancy, 492.0 / 480);
  expect_close(p.global_bytes, (4.0 * 1146 / 1080 * 1.002 + 4) / 4);
  EXPECT_EQ(p.note, "120x1 cells per block, 8 per SM; last wave 1% full");
  // Rank 2 takes rows: a tile of two rows is no plan.
  EXPECT_TRUE(
      std::isinf(model::predict(c, gpu(), plan("cuda", "temporal", 4, 128, 2)).seconds_per_step));
}

TEST(ModelGpu, TailFactorDividesTheTime) {
  // 224 x 1208 x 10 = 2,705,920 cells; streaming 32x8 -> 7 x 151 = 1057 blocks:
  // tail factor 1057/2112. Halo (34)(10)/256 = 1.328125 in x-y, 12/10 in z.
  // T_global = 2,705,920 * 12 * 1.328125 * 1.2 / 1e12 = 5.175072e-5 (T_shared 7.58e-6)
  // T = 5.175072e-5 * 2112/1057 + 4e-6 = 1.0740352e-4.
  const auto p = model::predict(heat3d(224, 1208, 10), gpu(), plan("cuda", "streaming", 1, 32, 8));
  expect_close(p.t_memory, 5.175072e-5);
  expect_close(p.seconds_per_step, 1.0740352e-4);
  EXPECT_EQ(p.note, "last wave 50% full");
  // The same tiles, 33 x 32 = 1056 blocks: no tail. 1056 * 256 * 10 = 2,703,360 cells:
  // T_global = 2,703,360 * 12 * 1.328125 * 1.2 / 1e12 = 5.170176e-5, T = 5.170176e-5 + 4e-6.
  const auto q = model::predict(heat3d(1056, 256, 10), gpu(), plan("cuda", "streaming", 1, 32, 8));
  EXPECT_EQ(q.note, "");
  expect_close(q.seconds_per_step, 5.170176e-5 + 4e-6);
}

TEST(ModelGpu, StreamingChunksTradeHaloPlanesForBlocksInFlight) {
  // 64 x 64 x 512 = 2,097,152 cells, streaming 32x8: 2 x 8 = 16 columns of tiles, 1056 slots.
  // All of z: 514/512 planes loaded, 12 * 1.328125 * 514/512 = 15.99976 B per cell,
  // T_global = 3.355392e-5, T = 3.355392e-5 * 1056/16 + 4e-6 = 2.21855872e-3.
  auto plan_of = [](int chunk) {
    model::Plan p;
    p.scheme = stencilc::scheme::GpuStreaming{32, 8, chunk};
    return p;
  };
  const auto c = heat3d(64, 64, 512);
  const auto all = model::predict(c, gpu(), plan_of(0));
  EXPECT_DOUBLE_EQ(all.global_bytes, 12 * 1.328125 * 514 / 512);
  expect_close(all.seconds_per_step, 2.21855872e-3);
  // Chunks of 16 planes (points per thread): 18/16 planes loaded, 17.9296875 B per cell, but
  // 16 x 32 = 512 blocks: T = 3.760128e-5 * 1056/512 + 4e-6 = 8.155264e-5.
  const auto c16 = model::predict(c, gpu(), plan_of(16));
  EXPECT_DOUBLE_EQ(c16.global_bytes, 12 * 1.328125 * 18 / 16);
  expect_close(c16.seconds_per_step, 8.155264e-5);
  // 128 planes: 4 chunks, 64 blocks, T = 3.39456e-5 * 1056/64 + 4e-6 = 5.641024e-4.
  expect_close(model::predict(c, gpu(), plan_of(128)).seconds_per_step, 5.641024e-4);
  // A chunk as long as z (or longer) is all of it.
  EXPECT_DOUBLE_EQ(model::predict(c, gpu(), plan_of(512)).seconds_per_step, all.seconds_per_step);
  EXPECT_DOUBLE_EQ(model::predict(c, gpu(), plan_of(4096)).seconds_per_step, all.seconds_per_step);
  // The candidates offer chunks shorter than z: the fastest streaming one has them here.
  const auto cands = model::candidates(c, gpu(), rules("cuda"));
  const stencilc::scheme::GpuStreaming *s = nullptr;
  for (const auto &q : cands)
    if ((s = q.plan.get<stencilc::scheme::GpuStreaming>()))
      break;
  ASSERT_NE(s, nullptr);
  EXPECT_GT(s->chunk, 0);
}

TEST(ModelGpu, SharedMemoryLimitExcludesAPlan) {
  // k = 4, tile 64x16, r = 1: 4 levels * 3 planes * 64 * 16 * 4 B = 49,152 B per block.
  auto m = gpu();
  m.shared_bytes_per_block = 40000;
  const auto c = heat3d_fused(512, 512, 512);
  const auto p = model::predict(c, m, plan("cuda", "temporal", 4, 64, 16));
  EXPECT_TRUE(std::isinf(p.seconds_per_step));
  EXPECT_EQ(p.bound, "shared memory");
  EXPECT_EQ(p.note, "needs 48 KB of shared memory per block, has 39 KB");
  // ... and candidates() leaves it out, but keeps the ones that fit (k = 1, 32x4: 2,448 B).
  bool saw_small = false;
  for (const auto &q : model::candidates(c, m, rules("cuda"))) {
    EXPECT_NE(key(q.plan), "scheme=temporal,k=4,tile=64x16");
    EXPECT_TRUE(std::isfinite(q.seconds_per_step));
    saw_small |= key(q.plan) == "scheme=streaming,k=1,tile=32x4";
  }
  EXPECT_TRUE(saw_small);
}

// ---- trapezoid tiles of the GPU plans: redundancy and working set ------------------------

TEST(ModelGpuTile, RedundancyByHand) {
  // k = 1: no redundant work.
  EXPECT_DOUBLE_EQ(model::redundancy(1, 1, 64, 32), 1.0);
  EXPECT_DOUBLE_EQ(model::redundancy(1, 3, 5, 7), 1.0);
  // k = 2, r = 1, 4x4: level 1 computes 6*6 = 36, level 2 4*4 = 16: 52 / (2 * 16) = 1.625.
  EXPECT_DOUBLE_EQ(model::redundancy(2, 1, 4, 4), 1.625);
  // k = 3, r = 1, 2x2: 6*6 + 4*4 + 2*2 = 56; 56 / (3 * 4) = 14/3.
  EXPECT_DOUBLE_EQ(model::redundancy(3, 1, 2, 2), 56.0 / 12);
  // k = 2, r = 2, 8x4: (8+4)(4+4) + 8*4 = 96 + 32 = 128; 128 / (2 * 32) = 2.
  EXPECT_DOUBLE_EQ(model::redundancy(2, 2, 8, 4), 2.0);
  // k = 4, r = 1, 64x32: 70*38 + 68*36 + 66*34 + 64*32 = 2660 + 2448 + 2244 + 2048 = 9400;
  // 9400 / (4 * 2048) = 1.1474609375.
  EXPECT_DOUBLE_EQ(model::redundancy(4, 1, 64, 32), 1.1474609375);
}

TEST(ModelGpuTile, WorkingSet) {
  // (2r+1) planes * k levels * (tx + 2rk) (ty + 2rk) * elem * grids:
  // 3 * 4 * 72 * 40 * 4 * 1 = 138,240 B.
  auto c = heat3d(256, 256, 256);
  EXPECT_DOUBLE_EQ(model::tile_working_set(c, 4, 64, 32), 138240.0);
  // Doubles and two grids: x 2 x 2.
  c.elem_bytes = 8;
  c.grids = 2;
  EXPECT_DOUBLE_EQ(model::tile_working_set(c, 4, 64, 32), 552960.0);
  // Radius 2, k = 1, 16x16: 5 * 1 * 20 * 20 * 8 * 2 = 32,000 B.
  c.radius = 2;
  EXPECT_DOUBLE_EQ(model::tile_working_set(c, 1, 16, 16), 32000.0);
}

// ---- CPU temporal blocking (the openmp plan): whole x-rows, tiles of rows ----------------

// heat3d as program_cost() gives it: of the 12 bytes, 8 are the written grid (read for
// ownership and written back), 4 the state it reads; no coefficients; one stage of reach 1.
model::Cost heat3d_cpu(std::int64_t nx, std::int64_t ny, std::int64_t nz) {
  model::Cost c = heat3d(nx, ny, nz);
  c.written_bytes_per_cell = 8;
  c.readonly_bytes_per_cell = 0;
  c.step_radius = 1;
  c.stages = 1;
  return c;
}

model::Cost heat3d_cpu_flops(std::int64_t nx, std::int64_t ny, std::int64_t nz, double flops) {
  model::Cost c = heat3d_cpu(nx, ny, nz);
  c.flops_per_cell = flops;
  return c;
}

model::Plan rows_plan(int k, int rows) {
  model::Plan p;
  p.scheme = stencilc::scheme::CpuTemporal{k, rows, 0};
  return p;
}

TEST(ModelCpuTemporal, RowRedundancyByHand) {
  // Stage j of k computes rows + 2R(k - j) rows for `rows` useful ones.
  // k = 1: nothing redundant.
  EXPECT_DOUBLE_EQ(model::row_redundancy(1, 1, 32), 1.0);
  EXPECT_DOUBLE_EQ(model::row_redundancy(1, 4, 3), 1.0);
  // k = 4, R = 1, 32 rows: (38 + 36 + 34 + 32) / (4 * 32) = 140 / 128 = 1.09375.
  EXPECT_DOUBLE_EQ(model::row_redundancy(4, 1, 32), 1.09375);
  // k = 2, R = 2, 8 rows: (8 + 4) + 8 = 20; 20 / (2 * 8) = 1.25.
  EXPECT_DOUBLE_EQ(model::row_redundancy(2, 2, 8), 1.25);
  // k = 3, R = 1, 1 row: 5 + 3 + 1 = 9; 9 / 3 = 3.
  EXPECT_DOUBLE_EQ(model::row_redundancy(3, 1, 1), 3.0);
  // k = 8, R = 1, 64 rows: 8 * 64 + 2 * (7 + 6 + ... + 0) = 512 + 56 = 568; 568 / 512.
  EXPECT_DOUBLE_EQ(model::row_redundancy(8, 1, 64), 568.0 / 512);
  // Only one dimension overlaps: far less than the trapezoid tile of the same rows
  // (redundancy(4, 1, 64, 32) = 1.1474609375 above, row_redundancy(4, 1, 32) = 1.09375).
  EXPECT_LT(model::row_redundancy(4, 1, 32), model::redundancy(4, 1, 64, 32));
}

TEST(ModelCpuTemporal, RingWorkingSetByHand) {
  // ((k s - 1)(2r+1) + 1 + (2r+1) g) planes, each (rows + 2Rk) rows (rank 3) of N0 + 2r cells.
  // heat3d 256^3, k = 4, 32 rows: (3 * 3 + 1 + 3 * 1) = 13 planes of 32 + 8 = 40 rows of
  // 258 floats: 13 * 40 * 258 * 4 = 536,640 B.
  auto c = heat3d_cpu(256, 256, 256);
  EXPECT_DOUBLE_EQ(model::ring_working_set(c, 4, 32), 536640.0);
  // k = 1 keeps no ring but the output plane: (0 + 1 + 3) = 4 planes of 32 + 2 = 34 rows:
  // 4 * 34 * 258 * 4 = 140,352 B.
  EXPECT_DOUBLE_EQ(model::ring_working_set(c, 1, 32), 140352.0);
  // What a carried tile touches of them: planes of 32 + 2 rows, 13 * 34 * 258 * 4 = 456,144 B
  // whatever k (k = 1 the same as a lone tile).
  EXPECT_DOUBLE_EQ(model::ring_working_set(c, 4, 32, true), 456144.0);
  EXPECT_DOUBLE_EQ(model::ring_working_set(c, 1, 32, true), 140352.0);
  // Two stages of reach 1 each (R = 2), two grids read, doubles, N0 = 100, k = 2, 16 rows:
  // (2*2 - 1) * 3 + 1 + 3 * 2 = 16 planes of 16 + 2*2*2 = 24 rows of 102 doubles:
  // 16 * 24 * 102 * 8 = 313,344 B.
  c.stages = 2;
  c.step_radius = 2;
  c.grids = 2;
  c.elem_bytes = 8;
  c.extent = {100, 64, 64, 1};
  EXPECT_DOUBLE_EQ(model::ring_working_set(c, 2, 16), 313344.0);
  // Radius 2, one stage, one grid, floats, N0 = 64, k = 1, 8 rows: (0 + 1 + 5) = 6 planes of
  // 8 + 2*2*1 = 12 rows of 68 floats: 6 * 12 * 68 * 4 = 19,584 B.
  model::Cost r2 = heat3d_cpu(64, 64, 64);
  r2.radius = 2;
  r2.step_radius = 2;
  EXPECT_DOUBLE_EQ(model::ring_working_set(r2, 1, 8), 19584.0);
  // Rank 2: a plane is one x-row, whatever the rows: 2D heat 1024 x 1024, k = 4:
  // 13 planes * 1 row * 1026 floats * 4 = 53,352 B.
  model::Cost h2 = heat3d_cpu(1024, 1024, 1);
  h2.rank = 2;
  EXPECT_DOUBLE_EQ(model::ring_working_set(h2, 4, 256), 53352.0);
  EXPECT_DOUBLE_EQ(model::ring_working_set(h2, 4, 64), 53352.0);
}

TEST(ModelCpuTemporal, CacheFootprintPenalty) {
  // heat3d 256^3 = 16,777,216 cells, k = 4, 32 rows: 8 tiles on one thread, one run of
  // carried tiles: redundancy as one tile of 256 rows, 1 + 3 / 256 = 1.01171875; working set
  // 536,640 B (above). F = 1e11, B = 1e10, barrier 1 us.
  // T_compute = 16,777,216 * 8 * 1.01171875 / 1e11 = 1.35790592e-3.
  const auto c = heat3d_cpu(256, 256, 256);
  const auto p = rows_plan(4, 32);
  // Fits a 1 MiB cache: the state is read once (4 B) and written once per 4 steps, with
  // streaming stores (4 of the 8 B a naive write costs); its rows are read as often as
  // input_rows says: the first tile 32 + 2 * 4 rows of 32, the 7 carried ones 32 + 2:
  // 7/8 * 34/32 + 1/8 * 40/32 = 1.0859375, so 16,777,216 * (4 * 1.0859375 + 4) / 4 / 1e10 =
  // 3.4996224e-3. The 7 carried tiles copy 2 rows per 32 out (the stores reading for
  // ownership: 8 B a cell) and back (4 B) of 3 of the 4 stages' results: 7/8 * 2/32 * 12 * 3/4 =
  // 0.4921875 B per cell, at memory's bandwidth: 8.257536e-4. T_memory = 4.325376e-3. In cache
  // the memory stages stall their cores, so the terms add: 5.68328192e-3; + 1e-6 / 4 for the
  // barrier.
  const auto fits = model::predict(c, cpu(1e11, 1e10, 1 << 20, 1e-6), p);
  expect_close(fits.redundancy, 1.01171875);
  expect_close(fits.t_compute, 1.35790592e-3);
  expect_close(fits.t_memory, 4.325376e-3);
  expect_close(fits.seconds_per_step, 5.68328192e-3 + 0.25e-6);
  expect_close(model::input_rows(c, 4, 8, 1, 32, true), 1.0859375);
  expect_close(model::input_rows(c, 4, 8, 1, 32, false), 1.25);
  expect_close(model::carry_bytes(c, 4, 8, 1, 32), 0.4921875);
  EXPECT_EQ(fits.bound, "memory");
  EXPECT_EQ(fits.note, "");
  EXPECT_EQ(key(fits.plan), "scheme=temporal,k=4,rows=32");
  // A 512 KiB cache (524,288 < 536,640 B): the rings spill, every stage streams all 12 bytes,
  // with the redundancy: T_memory = 16,777,216 * 12 * 1.01171875 / 1e10 = 2.03685888e-2.
  const auto spills = model::predict(c, cpu(1e11, 1e10, 512 * 1024, 1e-6), p);
  expect_close(spills.t_compute, 1.35790592e-3);
  expect_close(spills.t_memory, 2.03685888e-2);
  expect_close(spills.seconds_per_step, 2.03685888e-2 + 0.25e-6);
  EXPECT_EQ(spills.bound, "cache");
  EXPECT_EQ(spills.note, "working set 0.54 MB > cache 0.52 MB");
  EXPECT_GT(spills.seconds_per_step, fits.seconds_per_step);
  // ... and slower than naive: 16,777,216 * 12 / 1e10 = 2.01326592e-2, + 1e-6.
  const auto naive =
      model::predict(c, cpu(1e11, 1e10, 512 * 1024, 1e-6), plan("openmp", "naive", 1));
  expect_close(naive.seconds_per_step, 2.01326592e-2 + 1e-6);
  EXPECT_GT(spills.seconds_per_step, naive.seconds_per_step);
  // Exactly at the limit it still fits (ws <= cache).
  EXPECT_EQ(model::predict(c, cpu(1e11, 1e10, 536640, 1e-6), p).bound, "memory");
  EXPECT_EQ(model::predict(c, cpu(1e11, 1e10, 536639, 1e-6), p).bound, "cache");
}

// A CPU with 512 KiB of L2 per core and a 32 MiB L3 shared by 2 threads (rings may fill half
// of it: 8 MiB per thread), F = 1e11 in L2 and 5e10 in L3, B = 1e10, no barrier.
model::Machine cpu_l3(double l2 = 512 * 1024, double l3 = 32 << 20) {
  model::Machine m = cpu(1e11, 1e10, l2, 0);
  m.threads = 2;
  m.shared_cache_bytes = l3;
  m.shared_cache_flops = 5e10;
  return m;
}

TEST(ModelCpuTemporal, RingPlanesMissTheL2) {
  // A plane-step of `bytes` per thread: no ring plane misses up to 0.25 M_c, all from 0.6 M_c.
  auto m = cpu_l3(1e6, 32 << 20);
  EXPECT_DOUBLE_EQ(model::l2_miss(100000, m), 0.0);
  EXPECT_DOUBLE_EQ(model::l2_miss(250000, m), 0.0);
  EXPECT_DOUBLE_EQ(model::l2_miss(425000, m), 0.5);
  EXPECT_DOUBLE_EQ(model::l2_miss(600000, m), 1.0);
  EXPECT_DOUBLE_EQ(model::l2_miss(5e6, m), 1.0);
  // A miss costs tau = (8 / F_3 - 8 / F) / 16 = (1.6e-10 - 0.8e-10) / 16 = 5e-12 s per byte and
  // cell (no load bandwidths here). heat3d (r = 1, 8 flops, floats): rings of 3 * 425,000 B miss
  // half of each of their 3 streams: 8 / (8 / 1e11 + 1.5 * 4 * 5e-12) = 8 / 1.1e-10.
  const auto c = heat3d_cpu(256, 256, 256);
  EXPECT_DOUBLE_EQ(model::ring_flops(c, m, 3 * 250000.0), 1e11);
  expect_close(model::ring_flops(c, m, 3 * 425000.0), 8 / 1.1e-10);
  // All three: 8 / (8e-11 + 3 * 4 * 5e-12) = 8 / 1.4e-10.
  expect_close(model::ring_flops(c, m, 3e7), 8 / 1.4e-10);
  // Doubles: half the lanes (F = 5e10) and twice the bytes: 8 / (1.6e-10 + 3 * 8 * 5e-12).
  auto d = c;
  d.elem_bytes = 8;
  EXPECT_DOUBLE_EQ(model::cpu_lanes(d), 0.5);
  expect_close(model::ring_flops(d, m, 3e7), 8 / 2.8e-10);
  // Two stages per step stream twice the planes: 8 / (8e-11 + 2 * 3 * 4 * 5e-12).
  auto two = c;
  two.stages = 2;
  expect_close(model::ring_flops(two, m, 3e7), 8 / 2e-10);
  // Without an L3 rate (or one no slower than F), misses cost nothing the model knows of.
  m.shared_cache_flops = 0;
  EXPECT_DOUBLE_EQ(model::ring_flops(c, m, 3e7), 1e11);
}

TEST(ModelCpuTemporal, RingPlaneMissesCostHalfTheLoadBandwidthsDifference) {
  // With calibrate's load bandwidths, a missed byte costs kL3StreamShare (1/B_L3 - 1/B_L2) =
  // 0.5 (1/2e11 - 1/4e11) = 1.25e-12 s, whatever F_3 says (it swung 16-fold between
  // calibrations where the load bandwidths' difference held within 12%).
  auto m = cpu_l3(1e6, 32 << 20);
  m.l2_bandwidth = 4e11;
  m.l3_bandwidth = 2e11;
  EXPECT_DOUBLE_EQ(model::kL3StreamShare, 0.5);
  expect_close(model::l3_stream_seconds(m), 1.25e-12);
  // heat3d with its three ring planes from the L3 (3 MB of rings: within the 8 L2s where
  // calibrate measured, so no depth factor): 8 / (8e-11 + 3 * 4 * 1.25e-12).
  const auto c = heat3d_cpu(256, 256, 256);
  expect_close(model::ring_flops(c, m, 3e6), 8 / 9.5e-11);
  m.shared_cache_flops = 9e10;
  expect_close(model::ring_flops(c, m, 3e6), 8 / 9.5e-11);
  // Without B_L2 (or a B_L3 no slower), from the stencil's rates: (8/F_3 - 8/F) / 16.
  m.l2_bandwidth = 0;
  expect_close(model::l3_stream_seconds(m), (8 / 9e10 - 8 / 1e11) / 16);
  m.l2_bandwidth = 2e11;
  expect_close(model::l3_stream_seconds(m), (8 / 9e10 - 8 / 1e11) / 16);
  // ... and nothing where neither is known.
  m.shared_cache_flops = 0;
  EXPECT_DOUBLE_EQ(model::l3_stream_seconds(m), 0.0);
}

TEST(ModelCpuTemporal, RingsDeepInTheL3CostMoreTowardsMemory) {
  // 1 MiB of L2 per core, 64 MiB of L3 for 2 threads: a share of 16 MiB per thread; calibrate
  // measured F_3 and B_3 = 3e10 at 8 L2s, 8 MiB. Up to there a missed byte costs tau, at the
  // share tau B_3 / B = 3 tau, linear between.
  auto m = cpu_l3(1 << 20, 64 << 20);
  m.l3_bandwidth = 3e10;
  const double mib = 1 << 20;
  EXPECT_DOUBLE_EQ(model::l3_depth_factor(4 * mib, m), 1.0);
  EXPECT_DOUBLE_EQ(model::l3_depth_factor(8 * mib, m), 1.0);
  EXPECT_DOUBLE_EQ(model::l3_depth_factor(12 * mib, m), 2.0);
  EXPECT_DOUBLE_EQ(model::l3_depth_factor(16 * mib, m), 3.0);
  EXPECT_DOUBLE_EQ(model::l3_depth_factor(40 * mib, m), 3.0);
  // heat3d with every ring plane from the L3 at 12 MiB: 8 / (8e-11 + 3 * 4 * 2 * 5e-12).
  const auto c = heat3d_cpu(256, 256, 256);
  expect_close(model::ring_flops(c, m, 12 * mib), 8 / 2e-10);
  // Unknown B_3, or a share no larger than where calibrate measured: the factor stays 1.
  auto no_b3 = m;
  no_b3.l3_bandwidth = 0;
  EXPECT_DOUBLE_EQ(model::l3_depth_factor(12 * mib, no_b3), 1.0);
  auto small = cpu_l3(1 << 20, 32 << 20); // share 8 MiB = 8 L2s
  small.l3_bandwidth = 3e10;
  EXPECT_DOUBLE_EQ(model::l3_depth_factor(12 * mib, small), 1.0);
}

TEST(ModelCpuTemporal, RingsPastTheShareSlowByTheRingCurve) {
  // cpu_l3's 32 MiB L3 for 2 threads: a share of 8 MiB a thread for rings. The ring probe's
  // relative rates: 1 to 8 MiB, 0.8 at 12 MiB, 0.5 at 16 MiB, 0.4 at 48 MiB (memory's).
  auto m = cpu_l3(512 * 1024, 32 << 20);
  const double mib = 1 << 20;
  // Without a curve: rings fit up to the share, past it the plan streams from memory.
  EXPECT_EQ(model::ring_slowdown(12 * mib, m), 1);
  EXPECT_EQ(model::ring_limit(m), 8 * mib);
  m.l3_ring_curve = {{4 * mib, 1}, {8 * mib, 1}, {12 * mib, 0.8}, {16 * mib, 0.5}, {48 * mib, 0.4}};
  // Up to the share: 1; past it the share's rate over the curve's (linear between its points):
  // 10 MiB reads 0.9, 14 MiB 0.65; the limit is the last size before memory's, 16 MiB.
  EXPECT_EQ(model::ring_slowdown(6 * mib, m), 1);
  EXPECT_EQ(model::ring_slowdown(8 * mib, m), 1);
  expect_close(model::ring_slowdown(10 * mib, m), 1 / 0.9);
  expect_close(model::ring_slowdown(12 * mib, m), 1 / 0.8);
  expect_close(model::ring_slowdown(14 * mib, m), 1 / 0.65);
  EXPECT_EQ(model::ring_limit(m), 16 * mib);
  // A share the curve puts below its first point's rate: relative to the share's, not to 1.
  auto late = m;
  late.l3_ring_curve = {{4 * mib, 1}, {8 * mib, 0.9}, {12 * mib, 0.6}, {48 * mib, 0.3}};
  expect_close(model::ring_slowdown(12 * mib, late), 0.9 / 0.6);
  EXPECT_EQ(model::ring_limit(late), 12 * mib);

  // A plan whose rings are past the share: heat3d 1022 x 512 x 256, k = 8 on 96 rows carry=off
  // (6 tiles of 86 rows, all lone): 25 planes of 102 rows of 1,024 cells of 4 B, 10.4 MB. It
  // is priced from memory without the curve and in the L3, slowed, with it.
  auto big = heat3d_cpu(1022, 512, 256);
  model::Plan p;
  p.scheme = stencilc::scheme::CpuTemporal{8, 96, 0, 256, false};
  const double ws = model::ring_working_set(big, 8, 86);
  EXPECT_EQ(ws, 25.0 * 102 * 1024 * 4);
  ASSERT_GT(ws, 8 * mib);
  ASSERT_LT(ws, 12 * mib);
  auto plain = m;
  plain.l3_ring_curve.clear();
  EXPECT_EQ(model::predict(big, plain, p).bound, "cache");
  const auto slowed = model::predict(big, m, p);
  EXPECT_NE(slowed.bound, "cache");
  // Its stages' time is the curve's slowdown times that of rings in the share (a curve that
  // stays at 1: the same plan priced as if the L3 held them whole).
  auto flat = m;
  flat.l3_ring_curve = {{4 * mib, 1}, {16 * mib, 1}, {48 * mib, 1}};
  const auto whole = model::predict(big, flat, p);
  expect_close(slowed.t_compute - slowed.t_rows,
               (whole.t_compute - whole.t_rows) * model::ring_slowdown(ws, m));
  // Carried tiles touch less of the rings (25 planes of 88 rows, 9.0 MB here), but the whole rings
  // set the slowdown for every tile: measured, heat3d fp64 510^3's k=16 carried plans with rings
  // of 13-15 MB (7-9 MB touched when carried) ran 0.86 and 0.94 of their price slowed by what the
  // carried tiles touch, 0.94 and 0.97 slowed by the rings whole (PERFORMANCE.md, 2026-12-06).
  auto carried = p;
  carried.scheme = stencilc::scheme::CpuTemporal{8, 96, 0, 256, true};
  EXPECT_EQ(model::ring_working_set(big, 8, 86, true), 25.0 * 88 * 1024 * 4);
  const auto c_slowed = model::predict(big, m, carried),
             c_whole = model::predict(big, flat, carried);
  expect_close(c_slowed.t_compute - c_slowed.t_rows,
               (c_whole.t_compute - c_whole.t_rows) * model::ring_slowdown(ws, m));
}

TEST(ModelMachine, RelativeRatesFromTheRingProbe) {
  // Over r_0 = 200 (the faster of the first two); never above 1 nor above the ratio before.
  const auto r = model::relative_rates(
      {{1e6, 190}, {2e6, 200}, {3e6, 210}, {4e6, 160}, {5e6, 100}, {6e6, 120}, {16e6, 80}});
  ASSERT_EQ(r.size(), 7u);
  EXPECT_EQ(r[0][1], 0.95);
  EXPECT_EQ(r[1][1], 0.95);
  EXPECT_EQ(r[2][1], 0.95);
  EXPECT_EQ(r[3][1], 0.8);
  EXPECT_EQ(r[4][1], 0.5);
  EXPECT_EQ(r[5][1], 0.5);
  EXPECT_EQ(r[6][1], 0.4);
  EXPECT_EQ(r[4][0], 5e6);
  // No drop, or too few points: not measured.
  EXPECT_TRUE(model::relative_rates({{1e6, 200}, {2e6, 200}, {16e6, 210}}).empty());
  EXPECT_TRUE(model::relative_rates({{1e6, 200}, {16e6, 50}}).empty());
}

TEST(ModelCpuTemporal, WidePlansComputeAtTheWideRate) {
  // vec=512 plans compute at wide_flops in the L2 (F_w = 1.5e11 here); a missed plane costs
  // the same tau as at 256 bits. heat3d 256^3, k = 4, 32 rows, 1 MiB of L2: nothing misses;
  // 2 threads, each a run of 4 carried tiles: redundancy 1 + 3 / 128 = 1.0234375.
  // T_compute = 16,777,216 * 1.0234375 * 8 / 1.5e11 (vec=256: 1.37363456e-3).
  const auto c = heat3d_cpu(256, 256, 256);
  auto m = cpu_l3(1 << 20);
  m.wide_flops = 1.5e11;
  auto wide = rows_plan(4, 32);
  wide.scheme = stencilc::scheme::CpuTemporal{4, 32, 0, 512};
  expect_close(model::predict(c, m, wide).t_compute, 17170432.0 * 8 / 1.5e11);
  expect_close(model::predict(c, m, rows_plan(4, 32)).t_compute, 1.37363456e-3);
  // With every plane from the L3: 8 / (8 / 1.5e11 + 3 * 4 * 5e-12).
  expect_close(model::ring_flops(c, m, 3e7, m.wide_flops), 8 / (8 / 1.5e11 + 6e-11));
  // Without a measured wide rate, vec=512 is priced as vec=256.
  auto narrow_only = m;
  narrow_only.wide_flops = 0;
  expect_close(model::predict(c, narrow_only, wide).t_compute, 1.37363456e-3);
  // Offered only where calibrate found 512-bit vectors faster: every temporal candidate twice.
  auto count = [&](const model::Machine &mm) {
    int n256 = 0, n512 = 0;
    for (const auto &p : model::candidates(c, mm, rules("openmp"), 1))
      if (const auto *t = p.plan.get<stencilc::scheme::CpuTemporal>())
        ++(t->vec == 512 ? n512 : n256);
    return std::pair{n256, n512};
  };
  const auto [a256, a512] = count(m);
  EXPECT_GT(a256, 0);
  EXPECT_EQ(a512, a256);
  EXPECT_EQ(count(narrow_only).second, 0);
  auto slower = m;
  slower.wide_flops = 0.9e11;
  EXPECT_EQ(count(slower).second, 0);
}

// engine_efficiency (calibrate's run of a temporal plan through the engine) scales the rate the
// stages compute at, F or F_w, wherever the temporal model uses it; 0 leaves it alone, naive
// sweeps never use it.
TEST(ModelCpuTemporal, EngineEfficiencyScalesTheStagesRate) {
  const auto c = heat3d_cpu(256, 256, 256);
  auto m = cpu(1e11, 1e10, 1 << 20, 0);
  const auto full = model::predict(c, m, rows_plan(4, 32));
  const auto naive = model::predict(c, m, plan("openmp", "naive", 1));
  m.engine_efficiency = 0.5;
  const auto half = model::predict(c, m, rows_plan(4, 32));
  expect_close(half.t_compute, 2 * full.t_compute);
  expect_close(half.t_memory, full.t_memory);
  expect_close(half.seconds_per_step - half.t_compute, full.seconds_per_step - full.t_compute);
  EXPECT_DOUBLE_EQ(model::predict(c, m, plan("openmp", "naive", 1)).seconds_per_step,
                   naive.seconds_per_step);
  // Rings that spill compute at F too (bound "cache"): the same factor.
  const auto spill =
      model::predict(heat3d_cpu(4096, 4096, 64), cpu(1e11, 1e10, 1 << 14, 0), rows_plan(16, 256));
  auto slow = cpu(1e11, 1e10, 1 << 14, 0);
  slow.engine_efficiency = 0.5;
  const auto spill_half = model::predict(heat3d_cpu(4096, 4096, 64), slow, rows_plan(16, 256));
  EXPECT_EQ(spill.bound, "cache");
  expect_close(spill_half.t_compute, 2 * spill.t_compute);
}

// How many of the model's candidates for c on m run 512-bit rows (vec=512).
int wide_candidates(const model::Cost &c, const model::Machine &m) {
  int n512 = 0;
  for (const auto &p : model::candidates(c, m, rules("openmp"), 1))
    if (const auto *t = p.plan.get<stencilc::scheme::CpuTemporal>())
      n512 += t->vec == 512;
  return n512;
}

// Each vector width's stages run at that width's engine efficiency (calibrate runs the engine
// on both): F_w 1.5e11 at 0.5 is 7.5e10, below F 1e11 at 0.9 (9e10), so the 512-bit plan is
// priced slower and not offered. Without a wide efficiency, the 256-bit one stands for both.
TEST(ModelCpuTemporal, EachVectorWidthRunsAtItsOwnEngineEfficiency) {
  const auto c = heat3d_cpu(256, 256, 256);
  auto m = cpu_l3(1 << 20);
  m.wide_flops = 1.5e11;
  m.engine_efficiency = 0.9;
  m.wide_engine_efficiency = 0.5;
  expect_close(model::stage_flops(m, 256), 9e10);
  expect_close(model::stage_flops(m, 512), 7.5e10);
  auto wide = rows_plan(4, 32);
  wide.scheme = stencilc::scheme::CpuTemporal{4, 32, 0, 512};
  // Nothing misses the L2 (WidePlansComputeAtTheWideRate): 17,170,432 cells of 8 flops.
  expect_close(model::predict(c, m, wide).t_compute, 17170432.0 * 8 / 7.5e10);
  expect_close(model::predict(c, m, rows_plan(4, 32)).t_compute, 17170432.0 * 8 / 9e10);
  auto offered = [&](const model::Machine &mm) { return wide_candidates(c, mm); };
  EXPECT_EQ(offered(m), 0);
  auto no_wide_eta = m;
  no_wide_eta.wide_engine_efficiency = 0;
  expect_close(model::stage_flops(no_wide_eta, 512), 1.35e11);
  EXPECT_GT(offered(no_wide_eta), 0);
  auto faster = m;
  faster.wide_engine_efficiency = 0.7; // 1.05e11 > 9e10
  EXPECT_GT(offered(faster), 0);
  // A rank-2 program's stages at engine_efficiency_2d (calibrate's heat2d run), 0.9 -> 1.08;
  // on 512 bits as on 256 (calibrate measures 512-bit rows on heat3d only), so no rank-2
  // vec=512 candidate even where heat3d's are faster.
  auto plate = m;
  plate.engine_efficiency_2d = 1.08;
  expect_close(model::stage_flops(plate, 256, 2), 1.08e11);
  expect_close(model::stage_flops(plate, 512, 2), 1.08e11);
  auto plate_faster = faster;
  plate_faster.engine_efficiency_2d = 1.08;
  model::Cost plate_rank2 = heat3d_cpu(4096, 4096, 1);
  plate_rank2.rank = 2;
  EXPECT_GT(offered(plate_faster), 0); // heat3d's
  EXPECT_EQ(wide_candidates(plate_rank2, plate_faster), 0);
  expect_close(model::stage_flops(plate, 256, 3), 9e10);
  expect_close(model::stage_flops(plate, 256), 9e10);
  model::Cost plate_cost = heat3d_cpu(8192, 8192, 1);
  plate_cost.rank = 2;
  const auto h2 = model::predict(plate_cost, plate, rows_plan(4, 1024));
  const auto h2_3d_eta = model::predict(plate_cost, m, rows_plan(4, 1024));
  EXPECT_GT(h2.t_compute, 0);
  expect_close(h2_3d_eta.t_compute, 1.2 * h2.t_compute);
  // Stages on 8-byte cells at engine_efficiency_f64 (calibrate's heat3d in double) over
  // engine_efficiency, on top of cpu_lanes' half of F; 4-byte ones untouched; 1 where either
  // is missing.
  model::Cost f64 = heat3d_cpu(510, 256, 256);
  f64.elem_bytes = 8;
  const model::Cost f32 = heat3d_cpu(510, 256, 256);
  auto eta8 = m;
  eta8.engine_efficiency_f64 = 0.81; // 0.9 -> 0.81
  expect_close(model::cell_size_factor(f64, eta8), 0.9);
  EXPECT_DOUBLE_EQ(model::cell_size_factor(f32, eta8), 1.0);
  EXPECT_DOUBLE_EQ(model::cell_size_factor(f64, m), 1.0);
  auto no_eta = eta8;
  no_eta.engine_efficiency = 0;
  EXPECT_DOUBLE_EQ(model::cell_size_factor(f64, no_eta), 1.0);
  // Rank-3 stages that read coefficients at engine_efficiency_coef (calibrate's himeno) over
  // engine_efficiency; stages without coefficients, rank-2 ones and profiles without either
  // untouched.
  model::Cost coef = f32;
  coef.readonly_bytes_per_cell = 48;
  coef.bytes_per_cell += 48;
  auto eta_c = m;
  eta_c.engine_efficiency_coef = 1.35; // 0.9 -> 1.35
  expect_close(model::coefficient_factor(coef, eta_c), 1.5);
  auto flat_coef = coef;
  flat_coef.rank = 2;
  auto no_eta_c = eta_c;
  no_eta_c.engine_efficiency = 0;
  const std::pair<model::Cost, model::Machine> untouched[] = {
      {f32, eta_c}, {coef, m}, {flat_coef, eta_c}, {coef, no_eta_c}};
  for (const auto &[cost, machine] : untouched)
    EXPECT_DOUBLE_EQ(model::coefficient_factor(cost, machine), 1.0);
  // ... and their stages' compute (rings in the L2, no rows' costs) takes 1/1.5 of the time.
  auto big_l2 = m;
  big_l2.cache_bytes = 64 << 20;
  auto big_l2_c = eta_c;
  big_l2_c.cache_bytes = 64 << 20;
  expect_close(model::predict(coef, big_l2_c, rows_plan(4, 32)).t_compute,
               model::predict(coef, big_l2, rows_plan(4, 32)).t_compute / 1.5);
  // Rings well inside the L2 (no plane from the L3): the stages' time is the cells at
  // F eta_f64 / 2.
  eta8.cache_bytes = 64 << 20;
  auto in_l2 = m;
  in_l2.cache_bytes = 64 << 20;
  const auto d8 = model::predict(f64, eta8, rows_plan(4, 16));
  const auto d = model::predict(f64, in_l2, rows_plan(4, 16));
  expect_close(d8.t_compute - d8.t_rows, (d.t_compute - d.t_rows) / 0.9);
  expect_close(model::predict(f32, eta8, rows_plan(4, 16)).t_compute,
               model::predict(f32, in_l2, rows_plan(4, 16)).t_compute);
  // No efficiency measured at all: the row benchmark's rates as they are.
  auto none = m;
  none.engine_efficiency = none.wide_engine_efficiency = 0;
  expect_close(model::stage_flops(none, 256), m.flops);
  expect_close(model::stage_flops(none, 512), 1.5e11);
}

// 512-bit rows at calibrate's 512-bit rates only for stages like the ones those rates were
// measured on (heat3d fp32: rank 3, 4-byte cells, kWideMeasuredStreams grids a stage); a
// program in double or with more grids a stage prices vec=512 as its 256-bit plan and gets no
// vec=512 candidate.
TEST(ModelCpuTemporal, WideRowsPricedOnlyLikeTheStagesCalibrateMeasured) {
  auto m = cpu_l3(1 << 20);
  m.wide_flops = 1.5e11;
  m.engine_efficiency = 0.9;
  m.wide_engine_efficiency = 0.7; // 1.05e11 against 9e10: faster for heat3d fp32
  auto wide = rows_plan(4, 32);
  wide.scheme = stencilc::scheme::CpuTemporal{4, 32, 0, 512};
  auto offered = [&](const model::Cost &c) { return wide_candidates(c, m); };
  model::Cost fp32 = heat3d_cpu(256, 256, 256);
  fp32.streams = model::kWideMeasuredStreams;
  EXPECT_TRUE(model::wide_priced(fp32));
  EXPECT_LT(model::predict(fp32, m, wide).t_compute,
            model::predict(fp32, m, rows_plan(4, 32)).t_compute);
  EXPECT_GT(offered(fp32), 0);
  model::Cost fp64 = fp32;
  fp64.elem_bytes = 8;
  fp64.bytes_per_cell = 24;
  fp64.written_bytes_per_cell = 16;
  model::Cost coefficients = fp32;
  coefficients.streams = 17; // himeno M's stage: 14 grids read, 3 written
  model::Cost plate = fp32;
  plate.rank = 2;
  for (const model::Cost *c : {&fp64, &coefficients, &plate}) {
    EXPECT_FALSE(model::wide_priced(*c));
    if (c->rank == 3)
      expect_close(model::predict(*c, m, wide).seconds_per_step,
                   model::predict(*c, m, rows_plan(4, 32)).seconds_per_step);
    EXPECT_EQ(offered(*c), 0);
  }
}

// The openmp candidates with x-shifts in registers (on `vec`-bit vectors; 0: either width).
int xreg_offered(const model::Cost &c, const model::Machine &m, int vec = 0) {
  int n = 0;
  for (const auto &p : model::candidates(c, m, rules("openmp"), 1))
    if (const auto *t = p.plan.get<stencilc::scheme::CpuTemporal>())
      n += t->xreg && (vec == 0 || t->vec == vec);
  return n;
}

// xshift=reg: the stages whose kernels have such row functions run at F times
// xreg_engine_efficiency (calibrate's heat3d with xshift=reg; _2d at rank 2), the others as
// without, mixed by time; offered only where some kernel has them and the rate is higher.
TEST(ModelCpuTemporal, XShiftStagesRunAtTheirOwnEngineEfficiency) {
  auto m = cpu_l3(1 << 20);
  m.engine_efficiency = 0.8;
  m.xreg_engine_efficiency = 0.9;
  m.xreg_engine_efficiency_2d = 0.6;
  expect_close(model::stage_flops(m, 256, 3, 0), 8e10);
  expect_close(model::stage_flops(m, 256, 3, 1), 9e10);
  // Half the stages: 1 / (0.5 / 9e10 + 0.5 / 8e10).
  expect_close(model::stage_flops(m, 256, 3, 0.5), 1 / (0.5 / 9e10 + 0.5 / 8e10));
  expect_close(model::stage_flops(m, 256, 2, 1), 6e10);
  // Not on 512 bits, and not where it was not measured.
  expect_close(model::stage_flops(m, 512, 3, 1), model::stage_flops(m, 512, 3));
  auto unmeasured = m;
  unmeasured.xreg_engine_efficiency = 0;
  expect_close(model::stage_flops(unmeasured, 256, 3, 1), 8e10);
  auto c = heat3d_cpu(256, 256, 256);
  c.x_shift_stages = 1;
  auto shifted = rows_plan(4, 32);
  shifted.scheme = stencilc::scheme::CpuTemporal{4, 32, 0, 256, true, true};
  // Nothing misses the L2 here (EachVectorWidthRunsAtItsOwnEngineEfficiency).
  expect_close(model::predict(c, m, shifted).t_compute, 17170432.0 * 8 / 9e10);
  expect_close(model::predict(c, m, rows_plan(4, 32)).t_compute, 17170432.0 * 8 / 8e10);
  EXPECT_GT(xreg_offered(c, m), 0);
  // No kernel with such row functions, or no gain measured: not offered.
  auto none = c;
  none.x_shift_stages = 0;
  EXPECT_EQ(xreg_offered(none, m), 0);
  EXPECT_EQ(xreg_offered(c, unmeasured), 0);
  auto slower = m;
  slower.xreg_engine_efficiency = 0.7;
  EXPECT_EQ(xreg_offered(c, slower), 0);
  // vec=512,xshift=reg: the same on 512-bit vectors, at F_w times wide_xreg_engine_efficiency
  // against the 512-bit stages' F_w times wide_engine_efficiency; rank 3 only (rank-2 512-bit
  // rows are priced as 256-bit ones), offered where measured faster.
  auto w = m;
  w.wide_flops = 1.5e11;
  w.wide_engine_efficiency = 0.6;
  w.wide_xreg_engine_efficiency = 0.7;
  // {vec, rank, share of x-shift stages, F of the stages}; the 256-bit figure is its own.
  for (const auto &[vec, rank, q, f] :
       {std::tuple{512, 3, 0.0, 9e10}, std::tuple{512, 3, 1.0, 1.05e11},
        std::tuple{512, 3, 0.5, 1 / (0.5 / 1.05e11 + 0.5 / 9e10)},
        std::tuple{512, 2, 1.0, model::stage_flops(w, 512, 2)}, std::tuple{256, 3, 1.0, 9e10}})
    expect_close(model::stage_flops(w, vec, rank, q), f);
  EXPECT_GT(xreg_offered(c, w, 512), 0);
  auto w_unmeasured = w;
  w_unmeasured.wide_xreg_engine_efficiency = 0;
  EXPECT_EQ(xreg_offered(c, w_unmeasured, 512), 0);
  expect_close(model::stage_flops(w_unmeasured, 512, 3, 1), 9e10);
  auto w_slower = w;
  w_slower.wide_xreg_engine_efficiency = 0.5;
  EXPECT_EQ(xreg_offered(c, w_slower, 512), 0);
  // Stages that read coefficients, priced at engine_efficiency_coef: the gain was measured
  // without coefficients, so none is counted (priced as the plain rows) and none is offered;
  // without eta_c in the profile they are heat3d-like stages and get it.
  auto coef = c;
  coef.readonly_bytes_per_cell = 48;
  coef.bytes_per_cell += 48;
  expect_close(model::xreg_share(coef, m), 1.0);
  auto eta_c = m;
  eta_c.engine_efficiency_coef = 1.2;
  EXPECT_EQ(model::xreg_share(coef, eta_c), 0);
  expect_close(model::xreg_share(c, eta_c), 1.0);
  expect_close(model::predict(coef, eta_c, shifted).t_compute,
               model::predict(coef, eta_c, rows_plan(4, 32)).t_compute);
  EXPECT_EQ(xreg_offered(coef, eta_c), 0);
  EXPECT_GT(xreg_offered(coef, m), 0);
  // 8-byte cells: the gain was measured on 4-byte ones (heat3d fp64's shifts ran no faster), so
  // none is counted and none is offered.
  auto f64 = c;
  f64.elem_bytes = 8;
  EXPECT_EQ(model::xreg_share(f64, m), 0);
  EXPECT_EQ(xreg_offered(f64, m), 0);
}

TEST(ModelCpuTemporal, RingsInTheSharedCache) {
  // heat3d 256^3, k = 4, 32 rows: working set 536,640 B (above), 2 threads of 4 carried tiles:
  // redundancy 1.0234375 (16,777,216 cells: 17,170,432 computed); a plane-step touches a third
  // of the working set, 178,880 B.
  const auto c = heat3d_cpu(256, 256, 256);
  const auto p = rows_plan(4, 32);
  // An L2 of 357,760 B (twice the plane-step): in a thread's first tile (1 of its 4)
  // (0.5 - 0.25) / 0.35 = 5/7 of the planes miss, a computed cell takes
  // 8 / 1e11 + 3 * 5/7 * 4 * 5e-12 = 86/7 e-11 s; the carried tiles touch planes of 32 + 2 rows
  // (456,144 B, plane-steps of 152,048 B): (152,048 - 89,440) / 125,216 = 1/2 of them miss,
  // 8 / 1e11 + 3 * 1/2 * 4 * 5e-12 = 11e-11 s; mixed by tiles 1/4 * 86/7 + 3/4 * 11 = 317/28:
  // T_compute = 17,170,432 * 317/28 e-11. The state crosses memory once per block, its rows
  // 3/4 * 34/32 + 1/4 * 40/32 = 1.109375 times: 16,777,216 * (4 * 1.109375 + 4) / 4 / 1e10 =
  // 3.538944e-3; the carried rows (3 of 4 tiles, 2 rows of 32, 3 of 4 stages, out with the
  // stores' read for ownership and back, 12 B a cell): 3/4 * 2/32 * 12 * 3/4 = 0.421875 B per
  // cell, at memory's bandwidth: 7.077888e-4. T_memory = 4.2467328e-3; they add.
  const auto mid = model::predict(c, cpu_l3(357760, 32 << 20), p);
  expect_close(mid.t_compute, 17170432.0 * 317e-11 / 28);
  expect_close(mid.t_memory, 4.2467328e-3);
  expect_close(mid.seconds_per_step, 17170432.0 * 317e-11 / 28 + 4.2467328e-3);
  // The carry store would fit the thread's 8 MiB of L3 (4 steps of 2 rows of 256 x 256 cells,
  // 2 MiB), but its copies are priced at memory's bandwidth all the same (measured), whatever
  // the L3's.
  auto with_b3 = cpu_l3(357760, 32 << 20);
  with_b3.l3_bandwidth = 4e10;
  expect_close(model::predict(c, with_b3, p).t_memory, 4.2467328e-3);
  EXPECT_EQ(mid.bound, "memory");
  // carry=off: every tile touches its whole rings, 5/7 of the planes miss in all of them, and
  // computes 16,777,216 * 1.09375 = 18,350,080 cells.
  auto off = p;
  off.scheme = stencilc::scheme::CpuTemporal{4, 32, 0, 256, false};
  const auto mid_off = model::predict(c, cpu_l3(357760, 32 << 20), off);
  expect_close(mid_off.t_compute, 18350080.0 * 86e-11 / 7);
  EXPECT_EQ(mid_off.note, "rings 0.54 MB per thread, 71% of their planes from L3");
  // 1/4 * 5/7 + 3/4 * 1/2 of the planes miss: 55%.
  EXPECT_EQ(mid.note,
            "rings 0.54 MB per thread (0.46 MB touched when carried), 55% of their planes from L3");
  // Beyond the L2 the rings live in the thread's share of the L3 (0.5 * L3 / 2 threads): a
  // share of exactly the working set (L3 = 536,640 * 2 / 0.5 = 2,146,560 B) still holds them;
  // one byte less and they spill.
  EXPECT_EQ(model::predict(c, cpu_l3(512 * 1024, 2146560), p).bound, "memory");
  EXPECT_EQ(model::predict(c, cpu_l3(512 * 1024, 2146559), p).bound, "cache");
  // With 1 MiB of L2 the plane-step is below a quarter of it: nothing misses, F = 1e11,
  // T_compute = 17,170,432 * 8 / 1e11 = 1.37363456e-3.
  const auto l2 = model::predict(c, cpu_l3(1 << 20), p);
  expect_close(l2.t_compute, 1.37363456e-3);
  expect_close(l2.seconds_per_step, 1.37363456e-3 + 4.2467328e-3);
  EXPECT_EQ(l2.note, "rings 0.54 MB per thread (0.46 MB touched when carried) in L2");
  // A 1 MiB L3 leaves 1,048,576 * 0.5 / 2 = 262,144 B per thread: the rings spill, every stage
  // streams its 12 bytes with the redundancy: 17,170,432 * 12 / 1e10 = 2.06045184e-2.
  const auto spill = model::predict(c, cpu_l3(512 * 1024, 1 << 20), p);
  EXPECT_EQ(spill.bound, "cache");
  EXPECT_EQ(spill.note, "working set 0.54 MB > 0.26 MB of L3 per thread");
  expect_close(spill.seconds_per_step, 2.06045184e-2);
  // Without a shared_cache_flops figure misses cost nothing: F.
  auto no_rate = cpu_l3(357760);
  no_rate.shared_cache_flops = 0;
  expect_close(model::predict(c, no_rate, p).t_compute, 1.37363456e-3);
}

TEST(ModelCpuTemporal, CarriedRowsStreamThroughMemory) {
  // As RingsInTheSharedCache: heat3d 256^3, k = 4, 32 rows, 2 threads of 4 tiles, 3 of each
  // thread's carried: 0.421875 B per cell-update (2 rows of 32 out, 8 B a cell with the stores'
  // read for ownership, and back, 4 B; 3 of the 4 stages, 3 of 4 tiles), 7,077,888 B per step,
  // one sequential stream through the store each way: at memory's bandwidth (no sweep
  // bandwidth measured), 7.077888e-4 s.
  const auto c = heat3d_cpu(256, 256, 256);
  const auto p = rows_plan(4, 32);
  auto m = cpu_l3(357760, 32 << 20);
  const double cells = 256.0 * 256 * 256;
  expect_close(model::carry_bytes(c, 4, 8, 2, 32), 0.421875);
  expect_close(model::carry_seconds(c, m, 4, 8, 32, cells), 7.077888e-4);
  // At the sweep's bandwidth where calibrate measured one (B_s): 7,077,888 / 8e9, in T_memory
  // beside the state's 3.538944e-3 s at 1e10 (RingsInTheSharedCache), now at 8e9.
  m.sweep_bandwidth = 8e9;
  expect_close(model::carry_seconds(c, m, 4, 8, 32, cells), 7077888 / 8e9);
  expect_close(model::predict(c, m, p).t_memory, 3.538944e-3 * 1.25 + 7077888 / 8e9);
  // fp64: twice the bytes.
  auto c64 = c;
  c64.elem_bytes = 8;
  c64.written_bytes_per_cell = 16;
  expect_close(model::carry_seconds(c64, m, 4, 8, 32, cells), 2 * 7077888 / 8e9);
  // Nothing carried (carry=off, one tile per thread): no copies.
  EXPECT_EQ(model::carry_seconds(c, m, 4, 2, 128, cells), 0);
}

TEST(ModelCpuTemporal, UncarriedTilesComputeTheirWholeGhostZone) {
  // carry=off: every tile computes its margins and nothing is copied. heat3d 256^3, k = 4, 32
  // rows, one thread (CacheFootprintPenalty carried): redundancy 1 + 3 / 32 = 1.09375,
  // T_compute = 16,777,216 * 8 * 1.09375 / 1e11 = 1.4680064e-3, T_memory the state's only, its
  // rows read (32 + 2 * 4) / 32 = 1.25 times: 16,777,216 * (4 * 1.25 + 4) / 4 / 1e10 =
  // 3.7748736e-3; they add: 5.24288e-3.
  const auto c = heat3d_cpu(256, 256, 256);
  auto off = rows_plan(4, 32);
  off.scheme = stencilc::scheme::CpuTemporal{4, 32, 0, 256, false};
  const auto m = cpu(1e11, 1e10, 1 << 20, 0);
  const auto t = model::predict(c, m, off);
  expect_close(t.redundancy, 1.09375);
  expect_close(t.t_compute, 1.4680064e-3);
  expect_close(t.t_memory, 3.7748736e-3);
  expect_close(t.seconds_per_step, 5.24288e-3);
  // Carried, 5.68328192e-3: the copies from memory cost more here than the rows they save.
  EXPECT_GT(model::predict(c, m, rows_plan(4, 32)).seconds_per_step, t.seconds_per_step);
  // Both are candidates where a thread has tiles to carry: 32 rows of 256 on one thread, not
  // 256 rows (one tile).
  // (A cache the 256-row rings fit: plans whose rings spill are not offered.)
  auto has = [&](const model::Cost &cost, const std::string &text) {
    for (const auto &p : model::candidates(cost, cpu(1e11, 1e10, 1 << 26, 0), rules("openmp"), 1))
      if (key(p.plan) == text)
        return true;
    return false;
  };
  EXPECT_TRUE(has(c, "scheme=temporal,k=4,rows=32"));
  EXPECT_TRUE(has(c, "scheme=temporal,k=4,rows=32,carry=off"));
  EXPECT_TRUE(has(c, "scheme=temporal,k=4,rows=256"));
  EXPECT_FALSE(has(c, "scheme=temporal,k=4,rows=256,carry=off"));
}

TEST(ModelCpuTemporal, RingsAndGhostZonesAreTheDeepestBlocks) {
  EXPECT_EQ(model::block_depth(16, 33), 11); // 3 blocks of 11
  EXPECT_EQ(model::block_depth(12, 33), 11);
  EXPECT_EQ(model::block_depth(8, 100), 8); // 9 blocks of 8, 4 of 7
  EXPECT_EQ(model::block_depth(8, 3), 3);
  EXPECT_EQ(model::block_depth(6, 0), 6); // steps unknown
  EXPECT_EQ(model::block_depth(1, 7), 1);
  // A run of 33 steps with k=16 runs k=11's blocks: the same rings, ghost zones and state
  // trips, so the same price; without the steps k=16's own.
  auto c = heat3d_cpu(510, 510, 510);
  const auto m = cpu_l3(1 << 20, 32 << 20);
  c.steps = 33;
  const auto deep = model::predict(c, m, rows_plan(16, 64));
  const auto eleven = model::predict(c, m, rows_plan(11, 64));
  EXPECT_DOUBLE_EQ(deep.seconds_per_step, eleven.seconds_per_step);
  EXPECT_DOUBLE_EQ(deep.redundancy, eleven.redundancy);
  c.steps = 0;
  EXPECT_GT(model::predict(c, m, rows_plan(16, 64)).redundancy,
            model::predict(c, m, rows_plan(11, 64)).redundancy);
}

TEST(ModelCpuTemporal, DepthsThatRunTheSameBlocksAreOfferedOnce) {
  // Over 16 steps k = 10 and 12 run two blocks of 8, as k = 8 does: offered as k = 8 only; k =
  // 16 (one block of 16) and k = 6 (three of 5 or 6) stay. Steps unknown: every depth.
  auto c = heat3d_cpu(256, 256, 256);
  const auto m = cpu(1e11, 1e10, 1 << 26, 0);
  auto depths = [&](const model::Cost &cost) {
    std::set<int> ks;
    for (const auto &p : model::candidates(cost, m, rules("openmp"), 1))
      if (const auto *t = p.plan.get<stencilc::scheme::CpuTemporal>())
        ks.insert(t->k);
    return ks;
  };
  EXPECT_EQ(depths(c), (std::set<int>{2, 3, 4, 6, 8, 10, 12, 16}));
  c.steps = 16;
  EXPECT_EQ(depths(c), (std::set<int>{2, 3, 4, 6, 8, 16}));
}

// A run's last block writes the grids the blocks before it skip, once per run: heat3d 256^3
// fp32 over 10 steps, 4 bytes a cell: 16,777,216 * 4 / 1e10 / 10 = 6.7108864e-4 per step, the
// same for every k; nothing when the steps are not known.
TEST(ModelCpuTemporal, LastBlockWritesTheSkippedGridsOncePerRun) {
  auto c = heat3d_cpu(256, 256, 256);
  c.steps = 10;
  const auto m = cpu(1e11, 1e10, 1 << 20, 0);
  const double cells = 256.0 * 256 * 256;
  EXPECT_DOUBLE_EQ(model::last_block_seconds(c, m, cells), 0);
  const auto before = model::predict(c, m, rows_plan(4, 32));
  c.dead_written_bytes_per_cell = 4;
  expect_close(model::last_block_seconds(c, m, cells), 6.7108864e-4);
  const auto after = model::predict(c, m, rows_plan(4, 32));
  expect_close(after.t_last, 6.7108864e-4);
  expect_close(after.seconds_per_step - before.seconds_per_step, 6.7108864e-4);
  expect_close(model::predict(c, m, rows_plan(8, 32)).t_last, 6.7108864e-4);
  c.steps = 0;
  EXPECT_DOUBLE_EQ(model::predict(c, m, rows_plan(4, 32)).t_last, 0);
}

TEST(ModelCpuTemporal, BlocksShareOutTheSteps) {
  EXPECT_DOUBLE_EQ(model::effective_k(8, 100), 100.0 / 13); // 9 blocks of 8, 4 of 7
  EXPECT_DOUBLE_EQ(model::effective_k(4, 12), 4.0);
  EXPECT_DOUBLE_EQ(model::effective_k(8, 3), 3.0); // one block of 3
  EXPECT_DOUBLE_EQ(model::effective_k(6, 0), 6.0); // steps unknown
  EXPECT_DOUBLE_EQ(model::effective_k(1, 7), 1.0);
  // heat3d 256^3, k = 4, 32 rows, 10 steps: 3 blocks, 10/3 steps each; the state's trip costs
  // 16,777,216 * (4 * 1.0859375 + 4) / (10 / 3) / 1e10 = 4.19954688e-3 per step instead of
  // 3.4996224e-3 (CacheFootprintPenalty); the carried rows' 8.257536e-4 are per step already.
  auto c = heat3d_cpu(256, 256, 256);
  c.steps = 10;
  const auto p = model::predict(c, cpu(1e11, 1e10, 1 << 20, 0), rows_plan(4, 32));
  expect_close(p.t_memory, 5.02530048e-3);
  expect_close(p.seconds_per_step, 1.35790592e-3 + 5.02530048e-3);
  // The barrier is shared by the steps of a block too: 4e-6 / (10 / 3) = 1.2e-6.
  const auto b = model::predict(c, cpu(1e11, 1e10, 1 << 20, 4e-6), rows_plan(4, 32));
  expect_close(b.seconds_per_step, 1.35790592e-3 + 5.02530048e-3 + 1.2e-6);
  // Results the last stage stores straight into the shadows pay their read for ownership:
  // 16,777,216 * (4 * 1.0859375 + 8) / (10 / 3) / 1e10 = 6.2128128e-3, 2.01326592e-3 more.
  c.direct_written_bytes_per_cell = 8;
  const auto d = model::predict(c, cpu(1e11, 1e10, 1 << 20, 0), rows_plan(4, 32));
  expect_close(d.t_memory, 5.02530048e-3 + 2.01326592e-3);
  expect_close(d.seconds_per_step, 1.35790592e-3 + 5.02530048e-3 + 2.01326592e-3);
  // A naive sweep pays the read for ownership anyway (b_w counts it): no change.
  expect_close(model::predict(c, cpu(1e11, 1e10, 1 << 20, 0), plan("openmp", "naive", 1)).t_memory,
               model::predict(heat3d_cpu(256, 256, 256), cpu(1e11, 1e10, 1 << 20, 0),
                              plan("openmp", "naive", 1))
                   .t_memory);
}

TEST(ModelCpuTemporal, GridsThatStayInCacheRunNaive) {
  // heat3d 64^3 = 262,144 cells: 8 distinct B each (12 less the write's read for ownership;
  // no footprint given) is 1,048,576 B per thread (2 threads): more than the 512 KiB L2, within
  // a 10 MiB L3 (the threads' grids together: 5,242,880 B each), a ninth of the way from the
  // L2: F = 1e11 - 5e10 / 9. Naive sweeps run at that rate and touch no memory.
  const auto m = cpu_l3(512 * 1024, 10 << 20);
  const auto c = heat3d_cpu(64, 64, 64);
  const auto naive = model::predict(c, m, plan("openmp", "naive", 1));
  const double f3 = 1e11 - 5e10 / 9;
  expect_close(naive.t_compute, 2097152.0 / f3);
  EXPECT_EQ(naive.t_memory, 0);
  expect_close(naive.seconds_per_step, 2097152.0 / f3);
  EXPECT_EQ(naive.bound, "compute");
  EXPECT_EQ(naive.note, "grids in L3");
  // A temporal plan's rings would fit the L2 (k = 2, 8 rows: 7 planes * 12 rows * 66 * 4 =
  // 22,176 B), but with the grids in cache the stages run at the grids' rate and add the
  // redundant rows (8 tiles, a run of 4 carried ones per thread: as 32 rows, 66 / 64 =
  // 1.03125): 262,144 * 8 * 1.03125 / F. The block's results leave by streaming stores
  // and the next block reads them from memory: the state's trip per block is paid even here,
  // its rows read 3/4 * 10/8 + 1/4 * 12/8 = 1.3125 times: 262,144 * (4 * 1.3125 + 4) / 2 / 1e10
  // = 1.212416e-4 (the carried rows stay in cache). It adds; naive wins.
  const auto t = model::predict(c, m, rows_plan(2, 8));
  EXPECT_DOUBLE_EQ(t.redundancy, 1.03125);
  expect_close(t.t_compute, 2097152.0 * 1.03125 / f3);
  expect_close(t.t_memory, 1.212416e-4);
  expect_close(t.seconds_per_step, 2097152.0 * 1.03125 / f3 + 1.212416e-4);
  EXPECT_GT(t.seconds_per_step, naive.seconds_per_step);
  EXPECT_EQ(key(model::candidates(c, m, rules("openmp")).front().plan), "scheme=naive");
  // 32^3: 32,768 * 8 / 2 = 131,072 B per thread fit the L2: 32,768 * 8 / 1e11 = 2.62144e-6.
  const auto small = model::predict(heat3d_cpu(32, 32, 32), m, plan("openmp", "naive", 1));
  expect_close(small.seconds_per_step, 2.62144e-6);
  EXPECT_EQ(small.note, "grids in L2");
  // 512^3 does not stay anywhere: memory-bound as before, 134,217,728 * 12 / 1e10.
  const auto big = model::predict(heat3d_cpu(512, 512, 512), m, plan("openmp", "naive", 1));
  expect_close(big.seconds_per_step, 134217728.0 * 12 / 1e10);
  EXPECT_EQ(big.note, "");
}

TEST(ModelCpuNaive, GridsStayInTheWholeL3ByTheirStorage) {
  // The grids a step touches stay between steps if their storage fits the L3 the threads share:
  // heat3d 96^3 (884,736 cells), 8 B each = 7,077,888 B, in a 10 MiB L3 on 2 threads
  // (3,538,944 B per thread, 5,242,880 B a thread's part: (3,538,944 - 524,288) / 4,718,592
  // of the way to F_3).
  const auto m = cpu_l3(512 * 1024, 10 << 20);
  auto c = heat3d_cpu(96, 96, 96);
  const double f = 1e11 - 5e10 * (3538944.0 - 524288) / (5242880.0 - 524288);
  const auto in = model::predict(c, m, plan("openmp", "naive", 1));
  EXPECT_EQ(in.note, "grids in L3");
  expect_close(in.t_compute, 884736.0 * 8 / f);
  EXPECT_EQ(in.t_memory, 0);
  // Storage past the L3 (ghosts and padding: 12 B per cell, 10,616,832 B): from memory.
  c.footprint_bytes_per_cell = 12;
  const auto out = model::predict(c, m, plan("openmp", "naive", 1));
  EXPECT_EQ(out.note, "");
  expect_close(out.t_memory, 884736.0 * 12 / 1e10);
  // A step of several sweeps streams more than its grids hold (a red-black step re-reads
  // them): what stays is the storage, 8 B per cell here although 40 B stream.
  c.footprint_bytes_per_cell = 8;
  c.bytes_per_cell = 40;
  c.written_bytes_per_cell = 16;
  EXPECT_EQ(model::predict(c, m, plan("openmp", "naive", 1)).note, "grids in L3");
}

TEST(ModelCpuNaive, GridsJustPastTheL3StreamPartlyFromIt) {
  // calibrate's loads over all threads' buffers past a 10 MiB L3: 4e10 B/s at 10 MiB, 3e10 at
  // 20, 2e10 (memory's) at 40. heat3d 128^3 (2,097,152 cells) of 8 B each = 16 MiB: the curve
  // reads 4e10 - 1e10 log2(1.6) there, so B_s (1e10) times that over 2e10.
  auto m = cpu_l3(512 * 1024, 10 << 20);
  m.l3_load_curve = {{10 << 20, 4e10}, {20 << 20, 3e10}, {40 << 20, 2e10}};
  auto c = heat3d_cpu(128, 128, 128);
  c.footprint_bytes_per_cell = 8;
  const double gain = (4e10 - 1e10 * std::log2(1.6)) / 2e10;
  EXPECT_NEAR(model::l3_spill_gain(m, 16 << 20), gain, 1e-12);
  const auto near = model::predict(c, m, plan("openmp", "naive", 1));
  expect_close(near.t_memory, 2097152.0 * 12 / (1e10 * gain));
  EXPECT_EQ(near.note, "grids partly in L3 (1.66x memory's rate)");
  // At a point of the curve, its rate: 20 MiB, 1.5 times memory.
  c.footprint_bytes_per_cell = 10;
  expect_close(model::predict(c, m, plan("openmp", "naive", 1)).t_memory, 2097152.0 * 12 / 1.5e10);
  // Past the curve's last point (48 MiB), or without a curve: memory's rate.
  c.footprint_bytes_per_cell = 24;
  const auto far = model::predict(c, m, plan("openmp", "naive", 1));
  expect_close(far.t_memory, 2097152.0 * 12 / 1e10);
  EXPECT_EQ(far.note, "");
  m.l3_load_curve.clear();
  c.footprint_bytes_per_cell = 8;
  expect_close(model::predict(c, m, plan("openmp", "naive", 1)).t_memory, 2097152.0 * 12 / 1e10);
  EXPECT_EQ(model::l3_spill_gain(m, 16 << 20), 1);
}

TEST(ModelCpuNaive, TheSweepsOwnCurveComesBeforeTheLoadSums) {
  // The load sums would give 1.66 at 16 MiB (the test above); calibrate's naive sweeps over
  // grids of 10, 20 and 40 MiB and far past read 2.4e10, 2.1e10, 2e10 and 2.2e10 B/s: at 16 MiB
  // 2.4e10 - 3e9 log2(1.6) over the slowest, 2e10.
  auto m = cpu_l3(512 * 1024, 10 << 20);
  m.l3_load_curve = {{10 << 20, 4e10}, {20 << 20, 3e10}, {40 << 20, 2e10}};
  m.l3_sweep_curve = {
      {10 << 20, 2.4e10}, {20 << 20, 2.1e10}, {40 << 20, 2e10}, {541 << 20, 2.2e10}};
  const double gain = (2.4e10 - 3e9 * std::log2(1.6)) / 2e10;
  EXPECT_NEAR(model::l3_spill_gain(m, 16 << 20), gain, 1e-12);
  auto c = heat3d_cpu(128, 128, 128);
  c.footprint_bytes_per_cell = 8;
  expect_close(model::predict(c, m, plan("openmp", "naive", 1)).t_memory,
               2097152.0 * 12 / (1e10 * gain));
  // Past the slowest point the curve rises again toward the far sweep's rate: at 80 MiB,
  // 2e10 + 2e9 log(2) / log(541 / 40) over 2e10.
  EXPECT_NEAR(model::l3_spill_gain(m, 80 << 20),
              (2e10 + 2e9 * std::log(2.0) / std::log(541.0 / 40)) / 2e10, 1e-12);
  // A sweep that gained nothing from the L3: 1, whatever the load sums say.
  m.l3_sweep_curve = {{10 << 20, 1.9e10}, {541 << 20, 1.9e10}};
  EXPECT_EQ(model::l3_spill_gain(m, 16 << 20), 1);
}

TEST(ModelCpuNaive, FillsAndReductionsAddAtTheGridsLevel) {
  // A step that refills ghost cells (1.5 B per cell) and reduces a grid (4 B per cell): the
  // naive sweep's time plus cells * 5.5 B at the bandwidth of where the grids live.
  auto c = heat3d_cpu(512, 512, 512);
  c.fill_bytes_per_cell = 1.5;
  c.reduce_bytes_per_cell = 4;
  auto m = cpu_l3(512 * 1024, 10 << 20);
  m.l2_bandwidth = 2e11;
  m.l3_bandwidth = 4e10;
  // 512^3 lives in memory: 134,217,728 * (12 + 5.5) / 1e10.
  const auto big = model::predict(c, m, plan("openmp", "naive", 1));
  expect_close(big.t_memory, 134217728.0 * 12 / 1e10);
  expect_close(big.t_extra, 134217728.0 * 5.5 / 1e10);
  expect_close(big.seconds_per_step, 134217728.0 * 17.5 / 1e10);
  // 64^3 stays in the L3 (GridsThatStayInCacheRunNaive): 262,144 * 8 / (1e11 - 5e10 / 9),
  // plus 262,144 * 5.5 B from the L3 at 4e10 B/s.
  auto mid = heat3d_cpu(64, 64, 64);
  mid.fill_bytes_per_cell = 1.5;
  mid.reduce_bytes_per_cell = 4;
  const auto l3 = model::predict(mid, m, plan("openmp", "naive", 1));
  expect_close(l3.t_extra, 262144.0 * 5.5 / 4e10);
  expect_close(l3.seconds_per_step, 2097152.0 / (1e11 - 5e10 / 9) + 262144.0 * 5.5 / 4e10);
  // A profile without the L3's bandwidth: the memory's.
  auto no_l3 = m;
  no_l3.l3_bandwidth = 0;
  expect_close(model::predict(mid, no_l3, plan("openmp", "naive", 1)).t_extra,
               262144.0 * 5.5 / 1e10);
  // 32^3 fits the L2: 32,768 * 5.5 / 2e11.
  auto small = heat3d_cpu(32, 32, 32);
  small.fill_bytes_per_cell = 1.5;
  small.reduce_bytes_per_cell = 4;
  expect_close(model::predict(small, m, plan("openmp", "naive", 1)).t_extra, 32768.0 * 5.5 / 2e11);
  // The temporal plan fills inside its engine and reduces only in a run's last step: no term.
  EXPECT_EQ(model::predict(c, m, rows_plan(4, 32)).t_extra, 0);
}

TEST(ModelCpuNaive, FillAndReductionRowsCostTheirRowTime) {
  // The same 512^3 step with 1/256 of a row per cell in its fills and reductions (two loops
  // over the 262,144 rows): without t_row, the bytes' time alone.
  auto c = heat3d_cpu(512, 512, 512);
  c.fill_bytes_per_cell = 1.5;
  c.reduce_bytes_per_cell = 4;
  c.extra_rows_per_cell = 2.0 / 512;
  auto m = cpu_l3(512 * 1024, 10 << 20);
  const double bytes = 134217728.0 * 5.5 / 1e10;
  expect_close(model::predict(c, m, plan("openmp", "naive", 1)).t_extra, bytes);
  // t_row = 20 ns on 2 threads: 524,288 rows * 20 ns / 2 = 5.24 ms, under the bytes' 73.8 ms.
  m.row_seconds = 20e-9;
  expect_close(model::predict(c, m, plan("openmp", "naive", 1)).t_extra, bytes);
  // Rows of 4 cells (128 times as many per cell): 67,108,864 rows * 20 ns / 2 = 0.671 s.
  c.extra_rows_per_cell = 2.0 / 4;
  const auto rows = model::predict(c, m, plan("openmp", "naive", 1));
  expect_close(rows.t_extra, 134217728.0 / 2 * 20e-9 / 2);
  expect_close(rows.seconds_per_step, rows.t_memory + rows.t_extra);
  // 512-bit vectors' row cost is the temporal stages' only.
  m.wide_row_seconds = 40e-9;
  expect_close(model::predict(c, m, plan("openmp", "naive", 1)).t_extra, rows.t_extra);
}

// calibrate's naive sweep rate B_s (sweep_bandwidth) prices a CPU sweep's streams instead of the
// scale loop's B: naive sweeps from memory, their fills, a temporal block's state and carried
// rows, spilled rings. The roofline and the L3's depth factor keep B; without B_s, B.
TEST(ModelCpuNaive, SweepsStreamAtTheSweepBandwidth) {
  auto c = heat3d_cpu(512, 512, 512);
  c.fill_bytes_per_cell = 1.5;
  auto m = cpu_l3(512 * 1024, 10 << 20);
  const auto before = model::predict(c, m, plan("openmp", "naive", 1));
  expect_close(before.t_memory, 134217728.0 * 12 / 1e10);
  m.sweep_bandwidth = 0.6e10;
  EXPECT_DOUBLE_EQ(model::sweep_bandwidth(m), 0.6e10);
  const auto naive = model::predict(c, m, plan("openmp", "naive", 1));
  expect_close(naive.t_memory, 134217728.0 * 12 / 0.6e10);
  expect_close(naive.t_extra, 134217728.0 * 1.5 / 0.6e10);
  EXPECT_DOUBLE_EQ(model::roofline(1e6, 8, 12, m), 1e6 * 12 / 1e10);
  // A temporal block's trip through memory (BlocksShareOutTheSteps, 256^3, k = 4, 32 rows,
  // 10 steps: 5.02530048e-3 s at 1e10 B/s): at B_s = 0.5e10 twice that.
  auto t = heat3d_cpu(256, 256, 256);
  t.steps = 10;
  auto slow = cpu(1e11, 1e10, 1 << 20, 0);
  slow.sweep_bandwidth = 0.5e10;
  expect_close(model::predict(t, slow, rows_plan(4, 32)).t_memory, 2 * 5.02530048e-3);
}

// Rank-2 programs' naive sweeps stream at calibrate's heat2d sweep rate B_s,2
// (sweep_bandwidth_2d) where the profile has one; their temporal blocks' trip through memory,
// rank 3 and, without B_s,2, rank 2 keep B_s.
TEST(ModelCpuNaive, RankTwoSweepsStreamAtTheirOwnRate) {
  model::Cost c2;
  c2.rank = 2;
  c2.flops_per_cell = 7;
  c2.bytes_per_cell = 12;
  c2.written_bytes_per_cell = 8;
  c2.elem_bytes = 4;
  c2.extent = {8192, 8192, 1, 1};
  auto m = cpu_l3(512 * 1024, 10 << 20);
  m.sweep_bandwidth = 0.6e10;
  const auto c3 = heat3d_cpu(512, 512, 512);
  EXPECT_DOUBLE_EQ(model::sweep_bandwidth(c2, m), 0.6e10);
  m.sweep_bandwidth_2d = 0.75e10;
  EXPECT_DOUBLE_EQ(model::sweep_bandwidth(c2, m), 0.75e10);
  EXPECT_DOUBLE_EQ(model::sweep_bandwidth(c3, m), 0.6e10);
  EXPECT_DOUBLE_EQ(model::sweep_bandwidth(m), 0.6e10);
  // 8192^2 cells of 12 B at 0.75e10 B/s.
  expect_close(model::predict(c2, m, plan("openmp", "naive", 1)).t_memory,
               67108864.0 * 12 / 0.75e10);
  expect_close(model::predict(c3, m, plan("openmp", "naive", 1)).t_memory,
               134217728.0 * 12 / 0.6e10);
  // A temporal block's state: k = 4 on rows of 8192 (one block of 4 steps), read once (4 B) and
  // written once without its read for ownership (4 B): 8 B a cell over 4 steps, at B_s, not B_s,2.
  c2.steps = 4;
  const auto t = model::predict(c2, m, rows_plan(4, 1024));
  expect_close(t.t_state, 67108864.0 * 8 / 4 / 0.6e10);
}

TEST(ModelCpuNaive, SweepFromTheL3ReReadsThePlanesTheL2Lost) {
  // heat3d 200 x 200 x 100 on 2 threads: 16 MB per thread (8 distinct B per cell), in a 512 MiB
  // L3 (268,435,456 B per thread): F interpolated to
  // 1e11 - 5e10 * (16e6 - 1e6) / (268435456 - 1e6).
  // A plane of the outer dimension holds 40,000 cells of 8 distinct bytes (12 B less the
  // write's second count): 320,000 B, past a quarter of the 1 MB L2: (320,000 - 250,000) /
  // 350,000 = 20% of the 3 planes a cell reads come from the L3 again, at tau = 5e-12 s per
  // byte: 8 / (8e-11 + 0.6 * 4 * 5e-12) = 8 / 9.2e-11 flop/s, below the interpolated rate.
  const auto c = heat3d_cpu(200, 200, 100);
  const auto m = cpu_l3(1e6, 512 << 20);
  const double interpolated = 1e11 - 5e10 * (16e6 - 1e6) / (268435456.0 - 1e6);
  ASSERT_GT(interpolated, 8 / 9.2e-11);
  const auto p = model::predict(c, m, plan("openmp", "naive", 1));
  EXPECT_EQ(p.note, "grids in L3");
  expect_close(p.t_compute, 4e6 * 9.2e-11);
  // Planes of 100 x 100 cells (80,000 B) stay in the L2: the interpolated rate.
  const auto q = model::predict(heat3d_cpu(100, 100, 400), m, plan("openmp", "naive", 1));
  expect_close(q.t_compute, 4e6 * 8 / interpolated);
  // A sweep from memory re-reads them from the L3 as well: 512^3 in a 32 MiB L3, planes of
  // 512 x 512 x 8 B = 2,097,152 B, far past the L2, three of them a ring of 6,291,456 B.
  const auto big = heat3d_cpu(512, 512, 512);
  const auto mem = model::predict(big, cpu_l3(1e6, 32 << 20), plan("openmp", "naive", 1));
  EXPECT_EQ(mem.note, "");
  const double ring = model::ring_flops(big, cpu_l3(1e6, 32 << 20), 6291456.0);
  ASSERT_LT(ring, 1e11);
  expect_close(mem.t_compute, 134217728.0 * 8 / ring);
}

// heat3d 256^3 with a readonly weight grid: 16 B per cell = 4 state read + 8 written + 4
// weights; two grids read, 10 flops.
model::Cost weighted_heat3d() {
  auto c = heat3d_cpu(256, 256, 256);
  c.flops_per_cell = 10;
  c.bytes_per_cell = 16;
  c.readonly_bytes_per_cell = 4;
  c.grids = 2;
  return c;
}

TEST(ModelCpuTemporal, CoefficientsStreamAtEveryStage) {
  // heat3d with a readonly weight grid: 16 B per cell = 4 state read + 8 written + 4 weights;
  // two grids read, 10 flops. k = 4, 32 rows, one thread: redundancy 1.01171875.
  // Working set: the weights stream through, so only u's input planes stay:
  // (3 * 3 + 1 + 3 * 1) = 13 planes * 40 rows * 258 * 4 = 536,640 B < 1 MiB.
  auto c = weighted_heat3d();
  EXPECT_DOUBLE_EQ(model::ring_working_set(c, 4, 32), 536640.0);
  // Once per block from memory: the state (4 B, its rows 1.0859375 times: CacheFootprintPenalty),
  // the results with streaming stores (4 B) and the weights' first reading (4 B):
  // 16,777,216 * (4 * 1.0859375 + 8) / 4 / 1e10 = 5.177344e-3. Every stage
  // reads the weights again, with the redundancy, from the L3 (here without an L3 bandwidth:
  // memory's): 16,777,216 * 4 * 1.01171875 / 1e10 = 6.7895296e-3. The carried rows (only the
  // state's results: CacheFootprintPenalty) 8.257536e-4. T_compute = 16,777,216 * 10 *
  // 1.01171875 / 1e11 = 1.6973824e-3; no barrier. All four add (the stages wait on their
  // weights' rows as on the state's): 1.27926272e-2 + 1.6973824e-3 = 1.44900096e-2.
  const auto m = cpu(1e11, 1e10, 1 << 20, 0);
  const auto t = model::predict(c, m, rows_plan(4, 32));
  expect_close(t.t_memory, 1.27926272e-2);
  expect_close(t.t_compute, 1.6973824e-3);
  expect_close(t.seconds_per_step, 1.44900096e-2);
  EXPECT_EQ(t.bound, "memory");
  // Naive streams all 16 bytes every step: 16,777,216 * 16 / 1e10 = 2.68435456e-2. The
  // weights keep temporal blocking from a 4x gain (1.85x here).
  const auto n = model::predict(c, m, plan("openmp", "naive", 1));
  expect_close(n.seconds_per_step, 2.68435456e-2);
  EXPECT_LT(t.seconds_per_step, n.seconds_per_step);
  // An L3 of B_3 = 2e10: the stages' weights take 16,777,216 * 4 * 1.01171875 / 2e10 =
  // 3.3947648e-3: + 1.6973824e-3 + 5.177344e-3 + 8.257536e-4 (the carried rows at memory's
  // bandwidth) = 1.10952448e-2.
  auto l3 = m;
  l3.l3_bandwidth = 2e10;
  expect_close(model::predict(c, l3, rows_plan(4, 32)).seconds_per_step, 1.10952448e-2);
}

TEST(ModelCpuTemporal, CoefficientsStayInTheL2WhenAPlaneStepFits) {
  // The weight grid of CoefficientsStreamAtEveryStage (one coefficient grid of 4 B), k = 4,
  // 32 rows, rows of 258 floats (1,032 B). Between two stages' reads of a weight plane, a
  // plane-step touches the rings' planes and every stage's weight plane: in a lone tile
  // 536,640 / 3 + 4 * (32 + 3) * 1,032 = 323,360 B, in a carried one 456,144 / 3 +
  // 4 * 32 * 1,032 = 284,144 B. An L2 of 800,000 B misses from 200,000 to 480,000:
  // 123,360 / 280,000 and 84,144 / 280,000 of the re-reads, by tiles (a quarter lone)
  // (123,360 + 3 * 84,144) / 1,120,000.
  auto c = weighted_heat3d();
  const auto m = cpu_l3(800000, 64 << 20);
  EXPECT_NEAR(model::coefficient_misses(c, m, 4, 32, 0.25, 536640, 456144), 375792.0 / 1120000,
              1e-15);
  // All lone: 123,360 / 280,000.
  EXPECT_NEAR(model::coefficient_misses(c, m, 4, 32, 1, 536640, 456144), 123360.0 / 280000, 1e-15);
  // No coefficients, or no shared cache to tell the levels apart: every re-read from the L3.
  auto none = c;
  none.readonly_bytes_per_cell = 0;
  EXPECT_EQ(model::coefficient_misses(none, m, 4, 32, 0.25, 536640, 456144), 1);
  EXPECT_EQ(model::coefficient_misses(c, cpu(1e11, 1e10, 800000), 4, 32, 0.25, 536640, 456144), 1);
  // An 8 MiB L2 holds them: the stages' weights cost nothing; what is left of the memory time
  // is the block's trip (the state's rows 3/4 * 34/32 + 1/4 * 40/32 = 1.109375 times):
  // 16,777,216 * (4 * 1.109375 + 4 + 4) / 4 / 1e10 = 5.2166656e-3, and the carried rows
  // (3/4 * 2/32 * 12 * 3/4 = 0.421875 B per cell) 7.077888e-4: 5.9244544e-3.
  const auto big = cpu_l3(8 << 20, 64 << 20);
  EXPECT_EQ(model::coefficient_misses(c, big, 4, 32, 0.25, 536640, 456144), 0);
  expect_close(model::predict(c, big, rows_plan(4, 32)).t_memory, 5.9244544e-3);
}

TEST(ModelCpuTemporal, CoefficientsComeFromMemoryPastTheL3) {
  // CoefficientsStayInTheL2WhenAPlaneStepFits's tiles: a plane-step touches the rings whole and
  // every stage's weight plane, 536,640 + 4 * 35 * 1,032 = 681,120 B in a lone tile, 456,144 +
  // 4 * 32 * 1,032 = 588,240 B in a carried one. Its L2 misses (123,360 / 280,000 of a lone
  // tile's re-reads, 84,144 / 280,000 of a carried one's) come from the L3 at B_3 = 2e10 while
  // that fits a thread's part (L3 / 2 threads), from memory at B_s = 8e9 from twice that, and
  // in proportion between.
  auto c = weighted_heat3d();
  auto m = cpu_l3(800000, 4e6); // 2,000,000 a thread: both fit
  m.l3_bandwidth = 2e10;
  m.sweep_bandwidth = 8e9;
  const double lone = 123360.0 / 280000, carried = 84144.0 / 280000;
  EXPECT_EQ(model::coefficient_memory_share(681120, m), 0);
  expect_close(model::coefficient_seconds(c, m, 4, 32, 0.25, 536640, 456144),
               (0.25 * lone + 0.75 * carried) / 2e10);
  m.shared_cache_bytes = 1e6; // 500,000 a thread: 181,120 / 500,000 and 88,240 / 500,000
  const double fl = 181120.0 / 500000, fc = 88240.0 / 500000;
  expect_close(model::coefficient_memory_share(681120, m), fl);
  expect_close(model::coefficient_seconds(c, m, 4, 32, 0.25, 536640, 456144),
               0.25 * lone * ((1 - fl) / 2e10 + fl / 8e9) +
                   0.75 * carried * ((1 - fc) / 2e10 + fc / 8e9));
  m.shared_cache_bytes = 5e5; // 250,000 a thread: both past twice that, all from memory
  EXPECT_EQ(model::coefficient_memory_share(588240, m), 1);
  expect_close(model::coefficient_seconds(c, m, 4, 32, 0.25, 536640, 456144),
               (0.25 * lone + 0.75 * carried) / 8e9);
  // And the plan's memory term moves by the difference: cells * 4 B * redundancy times it.
  const auto p = model::predict(c, m, rows_plan(4, 32));
  m.shared_cache_bytes = 4e6;
  const auto q = model::predict(c, m, rows_plan(4, 32));
  expect_close(p.t_memory - q.t_memory, 16777216.0 * 4 * p.redundancy *
                                            (0.25 * lone + 0.75 * carried) * (1 / 8e9 - 1 / 2e10));
  // Without coefficients or an L3: the L3's (here B_3) rate, as before.
  auto none = c;
  none.readonly_bytes_per_cell = 0;
  expect_close(model::coefficient_seconds(none, m, 4, 32, 0.25, 536640, 456144), 1 / 2e10);
  m.shared_cache_bytes = 0;
  expect_close(model::coefficient_seconds(c, m, 4, 32, 0.25, 536640, 456144), 1 / 2e10);
}

TEST(ModelCpuTemporal, CoefficientsFollowTheMeasuredReuseCurve) {
  // With calibrate's l3_reuse_curve the share is read off it: linear between its points, its
  // first share below them, 1 past its last; the ramp from M_3 / threads is not used.
  auto c = weighted_heat3d();
  auto m = cpu_l3(800000, 4e6); // the ramp would give 0 at 681,120 B
  m.l3_bandwidth = 2e10;
  m.sweep_bandwidth = 8e9;
  // The curve's sizes are the probe's: a plane-step's bytes count kCoefficientReach (1.5)
  // times, so the points are written at the probe's sizes over 1.5.
  const double x = model::kCoefficientReach;
  ASSERT_EQ(x, 1.5);
  m.l3_reuse_curve = {{500000 * x, 0.02}, {600000 * x, 0.1}, {800000 * x, 0.5}, {2000000 * x, 1}};
  EXPECT_EQ(model::coefficient_memory_share(100000, m), 0.02);
  EXPECT_EQ(model::coefficient_memory_share(500000, m), 0.02);
  expect_close(model::coefficient_memory_share(681120, m), 0.1 + 0.4 * 81120.0 / 200000);
  expect_close(model::coefficient_memory_share(1400000, m), 0.75);
  EXPECT_EQ(model::coefficient_memory_share(3e6, m), 1);
  // 454,080 B touched reads the curve at 681,120 B, below its first point (750,000 B).
  expect_close(model::coefficient_memory_share(681120 / x, m), 0.02);
  // coefficient_seconds takes it (a lone tile touches 681,120 B, a carried one 588,240 B).
  const double lone = 123360.0 / 280000, carried = 84144.0 / 280000;
  const double fl = 0.1 + 0.4 * 81120.0 / 200000, fc = 0.02 + 0.08 * 88240.0 / 100000;
  expect_close(model::coefficient_memory_share(588240, m), fc);
  expect_close(model::coefficient_seconds(c, m, 4, 32, 0.25, 536640, 456144),
               0.25 * lone * ((1 - fl) / 2e10 + fl / 8e9) +
                   0.75 * carried * ((1 - fc) / 2e10 + fc / 8e9));
}

TEST(ModelMachine, ReuseSharesFromTheProbesRates) {
  // r_0 = 200 (the faster of the first two), r_m = 50 (the last): 1/r = (1 - s)/200 + s/50, so
  // s = (200/r - 1) / 3: 100 gives 1/3, 160 gives 1/12; 210 (faster than r_0) gives 0; a share
  // is never below the one before it (120 after 100: still 1/3); the last point's share is 1.
  const auto s = model::reuse_shares(
      {{1e6, 190}, {2e6, 200}, {3e6, 210}, {4e6, 160}, {5e6, 100}, {6e6, 120}, {16e6, 50}});
  ASSERT_EQ(s.size(), 7u);
  EXPECT_NEAR(s[0][1], 1.0 / 57, 1e-12); // (200/190 - 1) / 3
  EXPECT_EQ(s[1][1], s[0][1]);           // 0 at r_0: the first one kept
  EXPECT_EQ(s[2][1], s[0][1]);
  EXPECT_NEAR(s[3][1], 1.0 / 12, 1e-12);
  EXPECT_NEAR(s[4][1], 1.0 / 3, 1e-12);
  EXPECT_NEAR(s[5][1], 1.0 / 3, 1e-12);
  EXPECT_EQ(s[6][0], 16e6);
  EXPECT_EQ(s[6][1], 1);
  EXPECT_EQ(s[3][0], 4e6);
  // No drop to memory, or too few points: not measured.
  EXPECT_TRUE(model::reuse_shares({{1e6, 200}, {2e6, 200}, {16e6, 210}}).empty());
  EXPECT_TRUE(model::reuse_shares({{1e6, 200}, {16e6, 50}}).empty());
}

TEST(ModelCpuTemporal, StepRadiusSumsTheStagesOfAStep) {
  // Two kernel calls per step, each reaching 1 row (R = 2): the ghost zone grows by 2 rows
  // per step. k = 2, 8 rows, one thread: 8 tiles carried as one of 64 rows: redundancy
  // ((64 + 4) + 64) / 128 = 1.03125, not the 1.015625 of R = 1.
  auto c = heat3d_cpu(64, 64, 64);
  c.stages = 2;
  c.step_radius = 2;
  const auto p = model::predict(c, cpu(1e11, 1e10, 1 << 20, 0), rows_plan(2, 8));
  EXPECT_DOUBLE_EQ(p.redundancy, 1.03125);
  EXPECT_DOUBLE_EQ(model::row_redundancy(2, 2, 8), 1.25); // the tiles uncarried
  // 64^3 = 262,144 cells: T_compute = 262,144 * 8 * 1.03125 / 1e11 = 2.162688e-5.
  expect_close(p.t_compute, 2.162688e-5);
  // Working set: (2*2 - 1) * 3 + 1 + 3 = 13 planes * (8 + 8) rows * 66 * 4 = 54,912 B: fits;
  // the state once per block, its rows 7/8 * (8 + 4)/8 + 1/8 * (8 + 2 * 2 * 2)/8 = 1.5625
  // times: 262,144 * (4 * 1.5625 + 4) / 2 / 1e10 = 1.343488e-4; the carried rows, 2R = 4 of
  // 8 rows on 7 tiles of 8, 3 of the 4 stages' results, out with the stores' read for
  // ownership and back (12 B a cell): 7/8 * 4/8 * 12 * 3/4 = 3.9375 B per cell, 1.032192e-4.
  EXPECT_DOUBLE_EQ(model::ring_working_set(c, 2, 8), 54912.0);
  expect_close(p.t_memory, 1.343488e-4 + 1.032192e-4);
}

TEST(ModelCpuTemporal, NoRowsMeansTheWholeExtent) {
  // rows = 0 (a plan given as scheme=temporal,k=4): with one thread, one tile of all 256 rows:
  // (262 + 260 + 258 + 256) / 1024 = 1036 / 1024 = 1.01171875, as rows = 256.
  const auto c = heat3d_cpu(256, 256, 256);
  auto m = cpu(1e11, 1e10, 64 << 20, 0);
  const auto whole = model::predict(c, m, rows_plan(4, 0));
  EXPECT_DOUBLE_EQ(whole.redundancy, 1.01171875);
  EXPECT_EQ(whole.seconds_per_step, model::predict(c, m, rows_plan(4, 256)).seconds_per_step);
  // Two threads: the engine gives each a tile, 2 of 128 rows: 1 + 3 / 128 = 1.0234375.
  m.threads = 2;
  EXPECT_DOUBLE_EQ(model::predict(c, m, rows_plan(4, 0)).redundancy, 1.0234375);
  EXPECT_DOUBLE_EQ(model::predict(c, m, rows_plan(4, 128)).redundancy, 1.0234375);
}

TEST(ModelCpuTemporal, TilesAreEvenAndShareTheThreads) {
  // 510 rows, at most 160 per tile, 2 threads: ceil(510 / 160) = 4 tiles (a multiple of 2)
  // of 127.5 rows on average, two per thread. A thread's second tile is carried: each thread
  // computes the margins once for its 255 rows, k = 4: 1 + 3 / 255, whatever the tiles.
  auto m = cpu(1e11, 1e10, 64 << 20, 0);
  m.threads = 2;
  const auto c = heat3d_cpu(510, 510, 510);
  const double r160 = model::predict(c, m, rows_plan(4, 160)).redundancy;
  EXPECT_DOUBLE_EQ(r160, 1.0 + 3.0 / 255);
  EXPECT_DOUBLE_EQ(model::predict(c, m, rows_plan(4, 128)).redundancy, r160);
  EXPECT_DOUBLE_EQ(model::predict(c, m, rows_plan(4, 48)).redundancy, r160);
  EXPECT_DOUBLE_EQ(model::carried_redundancy(4, 1, 510, 12, 2), r160);
  // What the carried tiles copy instead: at most 96 rows: ceil(510 / 96) = 6 tiles of 85, 2 of
  // 3 carried, 2 rows out (8 B a cell with the read for ownership) and back (4 B) of 3 of the 4
  // steps' results: 2/3 * 2/85 * 12 * 3/4; at most 48: 11 tiles raised to 12 for the 2
  // threads, 42.5 rows each, 5 of 6 carried.
  expect_close(model::carry_bytes(c, 4, 6, 2, 85), 2.0 / 3 * 2 / 85 * 12 * 0.75);
  expect_close(model::carry_bytes(c, 4, 12, 2, 42.5), 5.0 / 6 * 2 / 42.5 * 12 * 0.75);
  // Nothing to carry with one tile per thread, with k = 1, or in rank 2.
  EXPECT_EQ(model::carry_bytes(c, 4, 2, 2, 255), 0);
  EXPECT_EQ(model::carry_bytes(c, 1, 12, 2, 42.5), 0);
  auto flat = c;
  flat.rank = 2;
  EXPECT_EQ(model::carry_bytes(flat, 4, 12, 2, 42.5), 0);
  // The rings hold the largest tile: 510 / 4 -> 128 rows, as at most 128.
  EXPECT_EQ(model::predict(c, m, rows_plan(4, 160)).note,
            model::predict(c, m, rows_plan(4, 128)).note);
  // One row for two threads: one tile, and the streamed dimension in 2 chunks of 32 planes with
  // their own ghost planes: k = 2: (3 + 1) / 2 = 2 for the row, (34 + 32) / 64 for the planes.
  EXPECT_DOUBLE_EQ(model::predict(heat3d_cpu(64, 1, 64), m, rows_plan(2, 1)).redundancy,
                   2.0 * 66.0 / 64.0);
}

TEST(ModelCpuTemporal, ComputeBoundTemporalPlanPaysTheRedundancy) {
  // 200 flops per cell: T_compute = 16,777,216 * 200 * 1.01171875 / 1e11 = 3.3947648e-2,
  // T_memory as above 4.325376e-3 (CacheFootprintPenalty), added: 3.8273024e-2:
  // compute-bound, slower than naive's 16,777,216 * 200 / 1e11 = 3.3554432e-2 (its memory
  // time 2.01e-2 is less).
  auto c = heat3d_cpu(256, 256, 256);
  c.flops_per_cell = 200;
  const auto m = cpu(1e11, 1e10, 1 << 20, 0);
  const auto t = model::predict(c, m, rows_plan(4, 32));
  expect_close(t.t_memory, 4.325376e-3);
  expect_close(t.seconds_per_step, 3.8273024e-2);
  EXPECT_EQ(t.bound, "compute");
  const auto n = model::predict(c, m, plan("openmp", "naive", 1));
  expect_close(n.seconds_per_step, 3.3554432e-2);
  EXPECT_EQ(n.bound, "compute");
  EXPECT_GT(t.seconds_per_step, n.seconds_per_step);
}

TEST(ModelCpuTemporal, EachRowAStageComputesCostsRowSeconds) {
  // ComputeBoundTemporalPlanPaysTheRedundancy's plan with t_row = 30 ns: 16,777,216 cells / 256
  // per row = 65,536 rows, times the redundancy 1.01171875 (the lone tile's margins: 3 rows per
  // plane) = 66,304 rows, * 1 stage * 3e-8 s / 1 thread = 1.98912e-3 s, added to T_compute
  // (3.3947648e-2 + 1.98912e-3 = 3.5936768e-2) and so to the step (3.8273024e-2 + 1.98912e-3
  // = 4.0262144e-2).
  auto c = heat3d_cpu(256, 256, 256);
  c.flops_per_cell = 200;
  auto m = cpu(1e11, 1e10, 1 << 20, 0);
  m.row_seconds = 3e-8;
  const auto t = model::predict(c, m, rows_plan(4, 32));
  expect_close(t.t_rows, 1.98912e-3);
  expect_close(t.t_compute, 3.5936768e-2);
  expect_close(t.seconds_per_step, 4.0262144e-2);
  // The same cells on rows of 64 (64 x 1024 x 256): 262,144 rows, and the same 3 margin rows
  // per plane (256 * 3 = 768 more): 262,912 * 3e-8 = 7.88736e-3, four times as many rows'
  // costs for the same cells.
  const auto s = model::predict(heat3d_cpu_flops(64, 1024, 256, 200), m, rows_plan(4, 32));
  expect_close(s.t_rows, 7.88736e-3);
  // Two threads share the rows, and each thread's first tile computes the margins (6 rows per
  // plane: redundancy 1.0234375): 67,072 rows * 3e-8 / 2 = 1.00608e-3. Two stages per step (two
  // kernel calls): twice the rows.
  auto two = m;
  two.threads = 2;
  expect_close(model::predict(c, two, rows_plan(4, 32)).t_rows, 1.00608e-3);
  auto staged = c;
  staged.stages = 2;
  EXPECT_GT(model::predict(staged, m, rows_plan(4, 32)).t_rows, 1.9890432e-3 * 1.99);
  // No row_seconds in the profile: no such term.
  EXPECT_EQ(model::predict(c, cpu(1e11, 1e10, 1 << 20, 0), rows_plan(4, 32)).t_rows, 0);
  // 512-bit stages cost wide_row_seconds per row where calibrate measured it (20 ns: 66,304 *
  // 2e-8 = 1.32608e-3), row_seconds where not; 256-bit stages row_seconds either way.
  auto wide = rows_plan(4, 32);
  wide.scheme = stencilc::scheme::CpuTemporal{4, 32, 0, 512};
  expect_close(model::predict(c, m, wide).t_rows, 1.98912e-3);
  auto wide_rows = m;
  wide_rows.wide_row_seconds = 2e-8;
  expect_close(model::predict(c, wide_rows, wide).t_rows, 1.32608e-3);
  expect_close(model::predict(c, wide_rows, rows_plan(4, 32)).t_rows, 1.98912e-3);
  // A naive sweep's rows cost the same (no margins): 65,536 rows * 3e-8 = 1.96608e-3, in
  // T_compute beside 16,777,216 * 200 / 1e11 = 3.3554432e-2; compute-bound (its memory is
  // 16,777,216 * 12 / 1e10 = 2.01326592e-2).
  const auto naive = model::predict(c, m, plan("openmp", "naive", 1));
  expect_close(naive.t_rows, 1.96608e-3);
  expect_close(naive.t_compute, 3.3554432e-2 + 1.96608e-3);
  expect_close(naive.seconds_per_step, 3.3554432e-2 + 1.96608e-3);
  // Memory-bound, the rows hide under the memory's time (heat3d fp64 naive on 32-cell rows ran
  // as fast as on 512-cell ones; PERFORMANCE.md, 2026-12-02 05:30).
  const auto flat = model::predict(heat3d_cpu(256, 256, 256), m, plan("openmp", "naive", 1));
  expect_close(flat.t_rows, 1.96608e-3);
  expect_close(flat.seconds_per_step, 2.01326592e-2);
}

TEST(ModelCpuTemporal, EachCallOfAStageCostsCallSeconds) {
  // EachRowAStageComputesCostsRowSeconds's plan with t_call = 0.3 us and no row costs: 8 tiles
  // of 32 rows on 256 planes, 2048 (tile, plane, stage) calls per step (16,777,216 cells /
  // (256 * 32)), each 3e-7 s times call_weight: heat3d's 4 plane streams weigh 1, so
  // 2048 * 3e-7 = 6.144e-4 s in T_rows and T_compute.
  auto c = heat3d_cpu(256, 256, 256);
  c.flops_per_cell = 200;
  c.plane_streams = 4;
  auto m = cpu(1e11, 1e10, 1 << 20, 0);
  const auto plain = model::predict(c, m, rows_plan(4, 32));
  EXPECT_EQ(plain.t_rows, 0);
  m.call_seconds = 3e-7;
  const auto t = model::predict(c, m, rows_plan(4, 32));
  expect_close(t.t_rows, 6.144e-4);
  expect_close(t.t_compute, plain.t_compute + 6.144e-4);
  // Tiles of 64 rows: half the calls.
  expect_close(model::predict(c, m, rows_plan(4, 64)).t_rows, 3.072e-4);
  // himeno's 17 plane streams: 17 / 4 = 4.25 times heat3d's call; a hand-made Cost without the
  // planner's figure counts one stream.
  EXPECT_DOUBLE_EQ(model::kCallStreams, 4);
  auto many = c;
  many.plane_streams = 17;
  EXPECT_DOUBLE_EQ(model::call_weight(many), 4.25);
  expect_close(model::predict(many, m, rows_plan(4, 32)).t_rows, 6.144e-4 * 4.25);
  auto none = c;
  none.plane_streams = 0;
  EXPECT_DOUBLE_EQ(model::call_weight(none), 0.25);
  // Two stages a step, 8 plane streams between them: 8 / 4 = 2.
  auto staged = c;
  staged.stages = 2;
  staged.plane_streams = 8;
  EXPECT_DOUBLE_EQ(model::call_weight(staged), 2.0);
  // Two threads share the calls.
  auto two = m;
  two.threads = 2;
  expect_close(model::predict(c, two, rows_plan(4, 32)).t_rows, 3.072e-4);
  // Naive sweeps and rank-2 plans make no such calls (a rank-2 stage's call is a row: t_row).
  EXPECT_EQ(model::predict(c, m, plan("openmp", "naive", 1)).t_rows, 0);
  auto flat = c;
  flat.rank = 2;
  flat.extent = {4096, 4096, 1, 1};
  EXPECT_EQ(model::predict(flat, m, rows_plan(4, 1024)).t_rows, 0);
}

TEST(ModelCpuTemporal, EachStreamBeyondHeat3dsCostsStreamCallSeconds) {
  // EachCallOfAStageCostsCallSeconds's 2048 calls a step, t_call = 3e-7 s. With t_stream = 5e-8
  // s a call costs t_call + (S_p - 4) t_stream: heat3d's 4 plane streams 3e-7 (as without it),
  // himeno's 17 3e-7 + 13 * 5e-8 = 9.5e-7 s (call_weight would give 17 / 4 * 3e-7 = 1.275e-6).
  auto c = heat3d_cpu(256, 256, 256);
  c.flops_per_cell = 200;
  c.plane_streams = 4;
  auto m = cpu(1e11, 1e10, 1 << 20, 0);
  m.call_seconds = 3e-7;
  m.stream_call_seconds = 5e-8;
  const auto heat = model::predict(c, m, rows_plan(4, 32));
  expect_close(heat.t_calls, 6.144e-4);
  EXPECT_DOUBLE_EQ(heat.t_rows, heat.t_calls); // T_rows holds T_calls (no t_row here)
  auto himeno = c;
  himeno.plane_streams = 17;
  expect_close(model::predict(himeno, m, rows_plan(4, 32)).t_calls, 2048 * 9.5e-7);
  // Fewer streams than heat3d's cost t_call: the call's own part is not cut.
  auto few = c;
  few.plane_streams = 2;
  expect_close(model::predict(few, m, rows_plan(4, 32)).t_calls, 6.144e-4);
  // Without t_stream, call_weight: 17 / 4 of heat3d's call.
  m.stream_call_seconds = 0;
  expect_close(model::predict(himeno, m, rows_plan(4, 32)).t_calls, 6.144e-4 * 4.25);
  // Without t_call, the streams alone.
  m.call_seconds = 0;
  m.stream_call_seconds = 5e-8;
  expect_close(model::predict(himeno, m, rows_plan(4, 32)).t_calls, 2048 * 13 * 5e-8);
}

TEST(ModelCpuNaive, ManyGridsAtOnceStreamSlower) {
  // himeno-like: 15 grids one stage streams, 68 B per cell, 1,048,576 cells from memory at
  // 1e10 B/s: 7.1303168e-3 s at the sweep rate; with stream_slowdown 0.04, 1 + 0.04 * (15 - 9)
  // = 1.24 times that.
  auto c = heat3d_cpu(128, 128, 64);
  c.bytes_per_cell = 68;
  c.written_bytes_per_cell = 8;
  c.streams = 15;
  auto m = cpu(1e11, 1e10, 1 << 20, 0);
  expect_close(model::predict(c, m, plan("openmp", "naive", 1)).t_memory, 7.1303168e-3);
  m.stream_slowdown = 0.04;
  EXPECT_DOUBLE_EQ(model::streams_factor(c, m), 1.24);
  expect_close(model::predict(c, m, plan("openmp", "naive", 1)).t_memory, 7.1303168e-3 * 1.24);
  // Up to 9 grids: no change.
  c.streams = 9;
  EXPECT_DOUBLE_EQ(model::streams_factor(c, m), 1.0);
  expect_close(model::predict(c, m, plan("openmp", "naive", 1)).t_memory, 7.1303168e-3);
  // Where calibrate's sum ran faster with 9 streams (B_9) than the sweep's B_s = 1e10, the
  // many-stream rate B_9 / 1.24 slows the sweep only below B_s: 1.1e10 -> 1.24 / 1.1; 2e10 ->
  // 1.6e10, above B_s: none. A B_9 below B_s counts as B_s (1.24 as before); 9 grids: none.
  c.streams = 15;
  m.few_streams_bandwidth = 1.1e10;
  expect_close(model::streams_factor(c, m), 1.24 / 1.1);
  expect_close(model::predict(c, m, plan("openmp", "naive", 1)).t_memory,
               7.1303168e-3 * 1.24 / 1.1);
  m.few_streams_bandwidth = 2e10;
  EXPECT_DOUBLE_EQ(model::streams_factor(c, m), 1.0);
  expect_close(model::predict(c, m, plan("openmp", "naive", 1)).t_memory, 7.1303168e-3);
  m.few_streams_bandwidth = 0.8e10;
  EXPECT_DOUBLE_EQ(model::streams_factor(c, m), 1.24);
  m.few_streams_bandwidth = 1.1e10;
  c.streams = 9;
  EXPECT_DOUBLE_EQ(model::streams_factor(c, m), 1.0);
  // B_s is the profile's sweep_bandwidth where measured: 1.1e10 as B_9, so 1.24.
  c.streams = 15;
  m.sweep_bandwidth = 1.1e10;
  expect_close(model::streams_factor(c, m), 1.24);
}

// ---- candidates() and the optimizer ----------------------------------------------------

std::vector<std::string> keys(const std::vector<model::Prediction> &ps) {
  std::vector<std::string> out;
  for (const auto &p : ps)
    out.push_back(key(p.plan));
  return out;
}

void expect_sorted(const std::vector<model::Prediction> &ps) {
  for (std::size_t i = 1; i < ps.size(); ++i) {
    const auto &a = ps[i - 1], &b = ps[i];
    // Faster first; equal times: the smaller k (the simpler plan), then the key.
    EXPECT_TRUE(a.seconds_per_step < b.seconds_per_step ||
                (a.seconds_per_step == b.seconds_per_step &&
                 (a.plan.k() < b.plan.k() || (a.plan.k() == b.plan.k() && key(a.plan) < key(b.plan)))))
        << i << ": " << key(a.plan) << " " << a.seconds_per_step << " before " << key(b.plan)
        << " " << b.seconds_per_step;
  }
}

TEST(ModelCandidates, SortedDeterministicAndUnique) {
  std::string from;
  const auto generic = model::load_machine("generic-cpu", stencilc::Platform::Cpu, from);
  struct Case {
    model::Cost c;
    model::Machine m;
    std::string target;
    int ranks;
  };
  const std::vector<Case> cases = {
      {heat3d(256, 256, 256), cpu(5e10, 2e10), "openmp", 1},
      {heat3d(512, 512, 512), gpu(), "cuda", 1},
      {heat3d(256, 256, 256), gpu(), "mpi-cuda", 16},
      {heat3d(96, 96, 96), generic, "mpi-openmp", 12},
  };
  for (const auto &k : cases) {
    const auto a = model::candidates(k.c, k.m, rules(k.target), k.ranks);
    const auto b = model::candidates(k.c, k.m, rules(k.target), k.ranks);
    ASSERT_FALSE(a.empty()) << k.target;
    expect_sorted(a);
    EXPECT_EQ(keys(a), keys(b)) << k.target;
    for (std::size_t i = 0; i < a.size(); ++i)
      EXPECT_EQ(a[i].seconds_per_step, b[i].seconds_per_step);
    const auto ks = keys(a);
    EXPECT_EQ(std::set<std::string>(ks.begin(), ks.end()).size(), ks.size()) << k.target;
  }
}

TEST(ModelCandidates, CountsPerTarget) {
  // openmp 256^3, one thread: naive + temporal k in {2,3,4,6,8,10,12,16} x rows in
  // {8,16,32,48,64,96,128,160,192,256} <= 256, where rows giving the same tiles count once:
  // 160 and 192 make 2 tiles as 128 does, so 8 tilings: 1 + 8 * 8 = 65; and carry=off twins
  // of the 7 tilings with more than one tile for the thread: + 8 * 7 = 121. (A 64 MiB cache:
  // every ring fits; ModelCandidates.SpilledRingsAreNotOffered has the rest.)
  const auto roomy = cpu(5e10, 2e10, 1 << 26);
  const auto omp = model::candidates(heat3d(256, 256, 256), roomy, rules("openmp"));
  EXPECT_EQ(omp.size(), 121u);
  for (const auto &p : omp) {
    EXPECT_TRUE(p.plan.naive() || p.plan.get<stencilc::scheme::CpuTemporal>())
        << key(p.plan); // x-rows stay whole: CPU plans have rows, no tiles
    EXPECT_EQ(rows_of(p.plan) == 0, p.plan.naive()) << key(p.plan);
    EXPECT_NE(rows_of(p.plan), 160) << key(p.plan);
    EXPECT_NE(rows_of(p.plan), 192) << key(p.plan);
  }
  // 256 x 100 x 256: rows <= 100 leaves {8,16,32,48,64,96}, and 96 tiles as 64 (2 tiles):
  // 1 + 8 * 5 * 2 = 81 (every one with its carry=off twin).
  EXPECT_EQ(model::candidates(heat3d(256, 100, 256), roomy, rules("openmp")).size(), 81u);
  // Rank 2: rows (of the streamed y) in {64, 256, 1024}: 256 x 256 keeps 64 and 256,
  // 1 + 8 * 2 = 17; 2048 x 2048 keeps all three, 1 + 8 * 3 = 25.
  auto h2 = heat3d(256, 256, 1);
  h2.rank = 2;
  EXPECT_EQ(model::candidates(h2, cpu(5e10, 2e10), rules("openmp")).size(), 17u);
  h2.extent = {2048, 2048, 1, 1};
  EXPECT_EQ(model::candidates(h2, cpu(5e10, 2e10), rules("openmp")).size(), 25u);
  // cuda: naive + 5 streaming tiles x 5 chunks (all of z, 16, 32, 64, 128 planes) + the
  // temporal blocks that keep cells after k steps (tile_y > 2k): k = 2, 3 all 5 tiles; k = 4, 6
  // the 3 of 16 or 32 rows; k = 8, 10 only 32x32 (64x16 keeps none at k = 8), each over all of
  // z and chunks of 64 and 128: 1 + 25 + 3 * (5 + 5 + 3 + 3 + 1 + 1) = 80 (a roomy shared
  // memory).
  EXPECT_EQ(model::candidates(heat3d(256, 256, 256), gpu(), rules("cuda")).size(), 80u);
  EXPECT_EQ(model::candidates(heat3d(256, 256, 256), gpu(), rules("hip")).size(), 80u);
  // z of 64 planes: streaming chunks of 16 and 32 only, temporal none: 1 + 15 + 18 = 34.
  EXPECT_EQ(model::candidates(heat3d(256, 256, 64), gpu(), rules("cuda")).size(), 34u);
  // mpi, 16 ranks, 3D: factorisations px py pz = 16 (15 of them) x 6 k x overlap 2 = 180
  // naive; and the fused steps with cuda's 18 pairs of k and tile, over all of the rank's z or
  // chunks of 64 and 128 shorter than it (pz = 1: 5 grids x 3; pz = 2: 4 x 2; pz = 4, 8, 16:
  // 3 + 2 + 1 grids x 1; 29 in all), blocking or overlapped: 18 x 29 x 2 = 1044. 1224.
  EXPECT_EQ(model::candidates(heat3d(256, 256, 256), gpu(), rules("mpi-cuda"), 16).size(), 1224u);
  // 2D domain, 4 ranks: grids 1x4, 2x2, 4x1 -> 3 x 6 naive with k = 1, 2, 3, 4, 6, 8, plus
  // overlap=on for naive k = 1 where x is not split (1x4): 19; and the CPU engine's temporal
  // plan with the depths one process is offered (k = 2, 3, 4, 6, 8, 10, 12, 16) and the rows
  // of {64, 256, 1024} that fit the rank's own 64, 128 or 256 rows, one per tiling: 1x4 and
  // 2x2 keep 64, 4x1 keeps 64 and 256: 8 x 4 = 32. 51 in all; every plan has pz = 1.
  auto c2 = heat3d(256, 256, 1);
  c2.rank = 2;
  const auto m2 = model::candidates(c2, cpu(5e10, 2e10), rules("mpi-openmp"), 4);
  EXPECT_EQ(m2.size(), 51u);
  for (const auto &p : m2) {
    EXPECT_EQ(p.plan.distribution->procs[2], 1);
    if (p.plan.distribution->overlap)
      EXPECT_EQ(key(p.plan), "scheme=naive,procs=1x4x1,overlap=on");
  }
}

TEST(ModelCandidates, SpilledRingsAreNotOffered) {
  // heat3d 256^3 on one thread with 1 MiB of cache and no L3: of the 121 plans a roomy cache
  // offers (CountsPerTarget), the ones whose rings spill (bound "cache") are left out, and only
  // they: naive and every plan that fits stay, in the same order.
  const auto c = heat3d(256, 256, 256);
  const auto small = cpu(5e10, 2e10);
  const auto offered = model::candidates(c, small, rules("openmp"));
  std::set<std::string> kept;
  for (const auto &p : offered) {
    EXPECT_NE(p.bound, "cache") << key(p.plan);
    kept.insert(key(p.plan));
  }
  int spilled = 0;
  for (const auto &p : model::candidates(c, cpu(5e10, 2e10, 1 << 26), rules("openmp"))) {
    const auto here = model::predict(c, small, p.plan);
    EXPECT_EQ(kept.count(key(p.plan)) == 0, here.bound == "cache") << key(p.plan);
    spilled += here.bound == "cache";
  }
  EXPECT_GT(spilled, 0);
  EXPECT_EQ(offered.size() + static_cast<std::size_t>(spilled), 121u);
  EXPECT_TRUE(kept.count("scheme=naive"));
  EXPECT_TRUE(kept.count("scheme=temporal,k=4,rows=32"));
  // --plan still prices one: k = 16 on 256 rows spills from 1 MiB, priced as before.
  EXPECT_EQ(kept.count("scheme=temporal,k=16,rows=256"), 0u);
  EXPECT_EQ(model::predict(c, small, rows_plan(16, 256)).bound, "cache");
}

// tune's and calibrate's figure of repeated runs: the middle one, of an even count the mean
// of the two middle ones (in any order), 0 of none.
TEST(TuneMedian, MiddleValue) {
  EXPECT_EQ(stc::median({3, 1, 2}), 2);
  EXPECT_EQ(stc::median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(stc::median({5}), 5);
  EXPECT_EQ(stc::median({}), 0);
}

// calibrate's and tune's test of a move of the threads: the largest round trip more than twice
// the smallest, values not measured (0) left out.
TEST(TuneSpreadBeyond, LargestOverSmallestOfThePositiveValues) {
  EXPECT_TRUE(stc::spread_beyond({1e-7, 4e-7, 1.2e-7}, 2));
  EXPECT_FALSE(stc::spread_beyond({1e-7, 2e-7}, 2)); // exactly twice: one place
  EXPECT_FALSE(stc::spread_beyond({0, 1e-7, 1.5e-7}, 2));
  EXPECT_FALSE(stc::spread_beyond({4e-7}, 2));
  EXPECT_FALSE(stc::spread_beyond({}, 2));
}

// The L3 share curves over runs (calibrate's and tune's): each size's median, runs counted only
// where they gave a curve, malformed points skipped.
TEST(ShareCurve, EachSizesMedianOverTheRunsThatGaveOne) {
  stc::ShareCurve c;
  EXPECT_TRUE(c.empty());
  c.add(nlohmann::json::parse(R"({"sweep": 1})"), "l3_ring"); // no curve: no run
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(c.runs(), 0);
  c.add(nlohmann::json::parse(R"({"l3_ring": [[4, 10], [8, 6]]})"), "l3_ring");
  c.add(nlohmann::json::parse(R"({"l3_ring": [[4, 12], [8, 2]], "l3_reuse": [[4, 1]]})"),
        "l3_ring");
  c.add(nlohmann::json::parse(R"({"l3_ring": [[4, 11], ["x", 1]]})"), "l3_ring");
  EXPECT_EQ(c.runs(), 3);
  const std::vector<std::array<double, 2>> want = {{4, 11}, {8, 4}};
  EXPECT_EQ(c.medians(), want);
  c.add(nlohmann::json::parse(R"({"l3_ring": "none"})"), "l3_ring");
  EXPECT_EQ(c.runs(), 3);
}

// tune's note when rounds disagree by more than the 15% yardstick (max over min above 1.15).
TEST(TuneSpreadNote, CountsCandidatesWhoseRoundsAreMoreThan15PercentApart) {
  EXPECT_EQ(stc::spread_note({{1.0, 1.1, 1.15}, {2.0, 2.1}}), "");
  EXPECT_EQ(stc::spread_note({{3.0}}), ""); // one round: no spread
  EXPECT_EQ(stc::spread_note({{1.0, 1.2}, {2.0, 2.1}, {1.3, 1.0, 1.1}}),
            "note: the rounds of 2 of 3 candidates are more than 15% apart (min to max): a median "
            "can then be that far from its price without a wrong term (the machine's spells, or "
            "runs too short); more --rounds or --steps, or tune again");
}

// tune's note when the host moved the threads between cores: the rounds' round trips (and
// calibrate's) more than twice apart; rounds counted above the two ends' geometric mean (here
// sqrt(0.2 * 0.7) = 0.37 us).
TEST(TunePlacementNote, SaysHowManyRoundsRanFarApart) {
  EXPECT_EQ(stc::placement_note({2e-7, 3e-7, 3.9e-7}, 0), ""); // within twice: one place
  EXPECT_EQ(stc::placement_note({0, 0}, 7e-7), "");            // not measured
  EXPECT_EQ(stc::placement_note({}, 0), "");
  EXPECT_EQ(stc::placement_note({2e-7, 6.5e-7, 7e-7, 2.5e-7, 0}, 0),
            "note: the host moved the threads between cores: a cache line's round trip between "
            "two of them went from 0.20 to 0.70 us (2 of 4 rounds above 0.37 us); where they sit "
            "changes the memory rate and how much of the L3 each has (docs/MODEL.md), and the "
            "medians mix the places");
  // The rounds in one place, calibrate's streams in another:
  EXPECT_EQ(stc::placement_note({1e-7, 1.2e-7}, 4e-7),
            "note: the host moved the threads between cores: a cache line's round trip between "
            "two of them went from 0.10 to 0.40 us (0 of 2 rounds above 0.20 us; calibrate's "
            "streams 0.40 us); where they sit changes the memory rate and how much of the L3 "
            "each has (docs/MODEL.md), and the medians mix the places");
}

// tune's paired comparison: the ratio within each round, then their median, so a spell that
// slows one round's runs alike cancels (here the ratio of the medians would be 1.5 / 1.6).
TEST(TunePairedRatio, MedianOfTheRoundsRatios) {
  EXPECT_DOUBLE_EQ(stc::paired_ratio({1.0, 2.0, 1.5}, {1.1, 2.2, 1.6}), 1.0 / 1.1);
  EXPECT_DOUBLE_EQ(stc::paired_ratio({2.0, 1.0}, {1.0, 2.0}), 1.25); // 2 and 0.5
  EXPECT_EQ(stc::paired_ratio({1.0, 2.0}, {1.0}), 0);                // rounds differ
  EXPECT_EQ(stc::paired_ratio({}, {}), 0);
}

// tune's prices for a probe: the profile scaled by the probe's sweep and in-L2 rate over the
// calibration's, with the probe's curves where it has them (a ring curve of all nine sizes).
TEST(TuneProbedMachine, ScaledByTheProbeWithItsCurves) {
  const model::Machine m = model::machine_from_json(
      R"({"bandwidth": 4e10, "flops": 6e10, "threads": 2, "cache_bytes": 1048576,
          "shared_cache_bytes": 33554432, "sweep_bandwidth": 5e10,
          "probe_sweep_bandwidth": 5e10, "probe_stencil_rate": 7.5e9,
          "l3_reuse_curve": [[8e6, 0.0], [16e6, 0.1]],
          "l3_ring_curve": [[4e6, 1.0], [16e6, 0.7]]})",
      "p.json");
  const std::vector<std::array<double, 2>> reuse = {{8e6, 0.2}, {16e6, 0.5}};
  std::vector<std::array<double, 2>> ring;
  for (int i = 0; i < 9; ++i)
    ring.push_back({4e6 * (i + 1), 1.0 - 0.05 * i});
  const model::Machine p = stc::probed_machine(m, 2.5e10, 9e9, reuse, ring);
  EXPECT_DOUBLE_EQ(p.bandwidth, 2e10); // the sweep at half the calibration's
  EXPECT_DOUBLE_EQ(p.sweep_bandwidth, 2.5e10);
  EXPECT_DOUBLE_EQ(p.flops, 7.2e10); // the cores at 1.2
  EXPECT_EQ(p.l3_reuse_curve, reuse);
  EXPECT_EQ(p.l3_ring_curve, ring);
  // No curves from the probe, or a ring curve short of the nine sizes: the profile's stay.
  const model::Machine q = stc::probed_machine(m, 5e10, 7.5e9, {}, {{4e6, 1.0}, {8e6, 0.5}});
  EXPECT_DOUBLE_EQ(q.bandwidth, 4e10);
  EXPECT_EQ(q.l3_reuse_curve, m.l3_reuse_curve);
  EXPECT_EQ(q.l3_ring_curve, m.l3_ring_curve);
}

TEST(TuneSteps, AboutHalfASecondOfTheFastestCandidateOnCpuTargets) {
  EXPECT_EQ(stc::tune_steps(0.013, true), 39);     // heat3d 510^3 at 1e10 cells/s: 0.5 / 0.013
  EXPECT_EQ(stc::tune_steps(0.0014, true), 358);   // gt5d_4d 32^4 at 7.5e8
  EXPECT_EQ(stc::tune_steps(0.2, true), 10);       // at least 10
  EXPECT_EQ(stc::tune_steps(1e-12, true), 100000); // at most 100000
  EXPECT_EQ(stc::tune_steps(0, true), 10);         // no price
  EXPECT_EQ(stc::tune_steps(0.0001, false), 10);   // GPU targets: the CPU layer runs them
}

TEST(TuneSelection, BestFourThenEveryDepthEveryTileHeightAndNaive) {
  // heat3d 256^3, one thread, a roomy cache: the 121 candidates of CountsPerTarget, k in
  // {1 (naive), 2, 3, 4, 6, 8, 10, 12, 16}, rows in {8, 16, 32, 48, 64, 96, 128, 256}.
  const auto cands =
      model::candidates(heat3d(256, 256, 256), cpu(5e10, 2e10, 1 << 26), rules("openmp"));
  ASSERT_EQ(cands.size(), 121u);
  auto depths = [](const std::vector<model::Prediction> &ps) {
    std::set<int> out;
    for (const auto &p : ps)
      out.insert(p.plan.k());
    return out;
  };
  auto heights = [](const std::vector<model::Prediction> &ps) {
    std::set<int> out;
    for (const auto &p : ps)
      if (const auto *t = p.plan.get<stencilc::scheme::CpuTemporal>())
        out.insert(t->rows);
    return out;
  };
  // Room for all: the model's four best first, in its order, then every k (9) and every tile
  // height (8) at least once, naive, no plan twice.
  const auto all = stc::tune_selection(cands, 100);
  ASSERT_GE(all.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_EQ(key(all[i].plan), key(cands[i].plan)) << i;
  EXPECT_EQ(depths(all), depths(cands));
  EXPECT_EQ(depths(all).size(), 9u);
  EXPECT_EQ(heights(all), heights(cands));
  EXPECT_EQ(heights(all).size(), 8u);
  const auto ks = keys(all);
  EXPECT_EQ(std::set<std::string>(ks.begin(), ks.end()).size(), ks.size());
  EXPECT_LE(all.size(), 4u + 9u + 8u);
  // Each k's entry is the model's best of that k (the first in its sorted list).
  for (int k : depths(cands)) {
    const model::Prediction *first = nullptr;
    for (const auto &p : cands)
      if (!first && p.plan.k() == k)
        first = &p;
    bool found = false;
    for (const auto &p : all)
      found = found || p.plan == first->plan;
    EXPECT_TRUE(found) << k;
  }
  // tune's default of 12: the best four and every k still fit (the four cover one k at least).
  const auto twelve = stc::tune_selection(cands, 12);
  EXPECT_LE(twelve.size(), 12u);
  EXPECT_EQ(depths(twelve), depths(cands));
  bool naive = false;
  for (const auto &p : twelve)
    naive = naive || p.plan.naive();
  EXPECT_TRUE(naive);
  // A cap below four: the model's best, in order.
  const auto three = stc::tune_selection(cands, 3);
  ASSERT_EQ(three.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(key(three[i].plan), key(cands[i].plan));
  EXPECT_TRUE(stc::tune_selection({}, 12).empty());
}

TEST(TunePlans, TheChoiceThenTheGivenPlansPricedWithoutRepeats) {
  const model::Cost c = heat3d(256, 256, 256);
  const model::Machine m = cpu(5e10, 2e10, 1 << 26);
  const auto cands = model::candidates(c, m, rules("openmp"));
  ASSERT_GE(cands.size(), 2u);
  // Without --plan: tune_selection's.
  EXPECT_EQ(keys(stc::tune_plans(cands, {}, c, m, 5)), keys(stc::tune_selection(cands, 5)));
  // With: the model's choice, then each given plan once (the choice given again, a repeat),
  // priced as model::predict prices them, however many --max-candidates allows.
  const auto k2 = stencilc::parse_plan("scheme=temporal,k=2,rows=8", rules("openmp"));
  const auto k3 = stencilc::parse_plan("scheme=temporal,k=3,rows=16,carry=off", rules("openmp"));
  const auto out = stc::tune_plans(cands, {k2, cands.front().plan, k3, k2}, c, m, 1);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(key(out[0].plan), key(cands.front().plan));
  EXPECT_EQ(key(out[1].plan), "scheme=temporal,k=2,rows=8");
  EXPECT_EQ(key(out[2].plan), "scheme=temporal,k=3,rows=16,carry=off");
  EXPECT_DOUBLE_EQ(out[1].seconds_per_step, model::predict(c, m, k2).seconds_per_step);
  EXPECT_DOUBLE_EQ(out[2].seconds_per_step, model::predict(c, m, k3).seconds_per_step);
}

TEST(ModelCandidates, OpenmpRankOneAndFourAreNaiveOnly) {
  model::Cost c1 = heat3d(1 << 24, 1, 1);
  c1.rank = 1;
  const auto a = model::candidates(c1, cpu(5e10, 2e10), rules("openmp"));
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(key(a[0].plan), "scheme=naive");
  model::Cost c4 = heat3d(64, 64, 64);
  c4.rank = 4;
  c4.extent[3] = 64;
  const auto b = model::candidates(c4, cpu(5e10, 2e10), rules("openmp"));
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(key(b[0].plan), "scheme=naive");
}

TEST(ModelCandidates, LargeMemoryBoundDomainGetsTemporalBlocking) {
  // heat3d 512^3 (0.67 flop/byte) on a 2.5 flop/byte CPU with 1 MiB of cache.
  const auto c = heat3d(512, 512, 512);
  const auto best = model::candidates(c, cpu(5e10, 2e10), rules("openmp")).front();
  EXPECT_STREQ(best.plan.scheme_name(), "temporal");
  EXPECT_GT(best.plan.k(), 1);
  EXPECT_GT(rows_of(best.plan), 0);
  EXPECT_NE(best.plan.get<stencilc::scheme::CpuTemporal>(), nullptr);
  EXPECT_NE(best.bound, "cache");
  // Also with the built-in generic CPU profile, and on the H100 profile for cuda.
  std::string from;
  const auto generic = model::load_machine("generic-cpu", stencilc::Platform::Cpu, from);
  EXPECT_GT(model::candidates(c, generic, rules("openmp")).front().plan.k(), 1);
  const auto h100 = model::load_machine("h100-sxm", stencilc::Platform::Gpu, from);
  EXPECT_GT(model::candidates(c, h100, rules("cuda")).front().plan.k(), 1);
}

TEST(ModelCandidates, TinyDomainIsNaive) {
  // 16 x 4 x 16: no tile of at least 8 rows fits 4 rows, so naive is the only plan.
  const auto cands = model::candidates(heat3d(16, 4, 16), cpu(5e10, 2e10), rules("openmp"));
  ASSERT_EQ(cands.size(), 1u);
  EXPECT_STREQ(cands[0].plan.scheme_name(), "naive");
  EXPECT_EQ(cands[0].plan.k(), 1);
  // Rank 2, 32 x 32: the smallest chunk, 64 rows, does not fit 32.
  auto c2 = heat3d(32, 32, 1);
  c2.rank = 2;
  const auto two = model::candidates(c2, cpu(5e10, 2e10), rules("openmp"));
  ASSERT_EQ(two.size(), 1u);
  EXPECT_EQ(key(two[0].plan), "scheme=naive");
  // On the GPU, 16^3 is one wave of a few blocks: naive (no tail factor) beats every
  // streaming block. (The temporal plan saves k - 1 launches of 16^3 and the model has no
  // latency term for a block's walk, docs/GPU.md: it is not compared here.)
  std::string from;
  const auto h100 = model::load_machine("h100-sxm", stencilc::Platform::Gpu, from);
  bool naive_first = false, seen_stream = false;
  for (const auto &g : model::candidates(heat3d(16, 16, 16), h100, rules("cuda"))) {
    if (g.plan.naive() && !seen_stream)
      naive_first = true;
    seen_stream |= g.plan.get<stencilc::scheme::GpuStreaming>() != nullptr;
  }
  EXPECT_TRUE(naive_first);
  EXPECT_TRUE(seen_stream);
}

TEST(ModelCandidates, ComputeBoundCostIsNaive) {
  // 200 flops and 12 bytes per cell: 16.7 flop/byte, far above the 2.5 of the machine; blocking
  // only adds redundant flops.
  auto c = heat3d(512, 512, 512);
  c.flops_per_cell = 200;
  const auto cands = model::candidates(c, cpu(5e10, 2e10, 1 << 20, 2e-6), rules("openmp"));
  EXPECT_EQ(key(cands.front().plan), "scheme=naive");
  EXPECT_EQ(cands.front().bound, "compute");
  // On the GPU (balance 10 flop/byte here), 2000 flops per cell: k = 1 streaming has naive's
  // compute time but its 16 x 128 = 2048 blocks fill 2048/2112 of two waves; temporal plans
  // add redundant flops. Naive wins.
  c.flops_per_cell = 2000;
  const auto g = model::candidates(c, gpu(), rules("cuda"));
  EXPECT_EQ(g.front().plan.k(), 1);
  EXPECT_EQ(key(g.front().plan), "scheme=naive");
}

TEST(ModelCandidates, TiesAreBrokenByPlanKey) {
  // A cubic domain on 8 ranks: procs 2x2x2 only is symmetric, but 1x2x4, 2x1x4, ... are
  // permutations with equal predictions; they must come out in key order.
  const auto cands = model::candidates(heat3d(128, 128, 128), gpu(), rules("mpi-cuda"), 8);
  expect_sorted(cands);
  int ties = 0;
  for (std::size_t i = 1; i < cands.size(); ++i)
    ties += cands[i].seconds_per_step == cands[i - 1].seconds_per_step;
  EXPECT_GT(ties, 0);
}

// ---- machine profiles ------------------------------------------------------------------

TEST(ModelMachine, EveryBuiltinProfileLoads) {
  const auto names = model::builtin_machines();
  const std::set<std::string> have(names.begin(), names.end());
  for (const char *n : {"generic-cpu", "h100-sxm", "h200", "a100-40gb", "mi250x-gcd"})
    EXPECT_TRUE(have.count(n)) << n;
  for (const auto &n : names) {
    std::string from;
    const auto m = model::load_machine(n, stencilc::Platform::Cpu, from);
    EXPECT_EQ(m.name, n);
    EXPECT_EQ(from, n);
    EXPECT_GT(m.flops, 0) << n;
    EXPECT_GT(m.bandwidth, 0) << n;
    EXPECT_GT(m.net_bandwidth, 0) << n;
    if (m.kind == "gpu") {
      EXPECT_GT(m.sms, 0) << n;
      EXPECT_GT(m.max_blocks_per_sm, 0) << n;
      EXPECT_GT(m.shared_bandwidth, 0) << n;
      EXPECT_GT(m.shared_bytes_per_block, 0) << n;
      EXPECT_GT(m.launch_seconds, 0) << n;
      EXPECT_GE(m.naive_traffic_factor, 1) << n;
    } else {
      EXPECT_EQ(m.kind, "cpu") << n;
      EXPECT_GT(m.cache_bytes, 0) << n;
    }
    // Every profile yields at least the naive plan for every target.
    for (const char *t : {"openmp", "cuda", "mpi-openmp", "mpi-cuda"})
      EXPECT_FALSE(model::candidates(heat3d(64, 64, 64), m, rules(t), 4).empty()) << n << " " << t;
  }
  // The data-sheet peaks the GPU profiles are derated from (sustained <= peak).
  std::string from;
  EXPECT_LE(model::load_machine("h100-sxm", stencilc::Platform::Gpu, from).bandwidth, 3.35e12);
  EXPECT_LE(model::load_machine("h200", stencilc::Platform::Gpu, from).bandwidth, 4.8e12);
  EXPECT_LE(model::load_machine("a100-40gb", stencilc::Platform::Gpu, from).bandwidth, 1.555e12);
  EXPECT_LE(model::load_machine("mi250x-gcd", stencilc::Platform::Gpu, from).bandwidth, 1.6384e12);
  EXPECT_EQ(model::load_machine("h100-sxm", stencilc::Platform::Gpu, from).sms, 132);
}

TEST(ModelMachine, UnknownNameIsAnError) {
  std::string from;
  expect_error([&] { model::load_machine("no-such-machine-xyz", stencilc::Platform::Cpu, from); },
               "--machine no-such-machine-xyz: no built-in profile or file of that name "
               "(built-in: ");
}

TEST(ModelMachine, DefaultsOfOptionalFields) {
  const auto m = model::machine_from_json(
      R"({"bandwidth": 1e10, "flops": 2e10, "cache_bytes": 65536})", "t.json");
  EXPECT_EQ(m.name, "t.json");
  EXPECT_EQ(m.kind, "cpu");
  EXPECT_EQ(m.threads, 1);
  EXPECT_DOUBLE_EQ(m.net_bandwidth, 1e10); // missing or 0 -> 10 GB/s
  EXPECT_DOUBLE_EQ(m.naive_traffic_factor, 1);
  EXPECT_DOUBLE_EQ(m.link_bandwidth, 0);
}

TEST(ModelMachine, RejectsBadProfiles) {
  auto load = [](const std::string &text) {
    return [=] { model::machine_from_json(text, "p.json"); };
  };
  expect_error(load("{"), "p.json: not a JSON object");
  expect_error(load("[1, 2]"), "p.json: not a JSON object");
  expect_error(load(R"({"flops": 1e9, "cache_bytes": 1})"),
               "p.json: machine profile has no \"bandwidth\"");
  expect_error(load(R"({"bandwidth": 1e9, "cache_bytes": 1})"),
               "p.json: machine profile has no \"flops\"");
  expect_error(load(R"({"bandwidth": "fast", "flops": 1e9, "cache_bytes": 1})"),
               "p.json: \"bandwidth\" must be a non-negative number");
  expect_error(load(R"({"bandwidth": 1e9, "flops": -1, "cache_bytes": 1})"),
               "p.json: \"flops\" must be a non-negative number");
  expect_error(load(R"({"bandwidth": 0, "flops": 1e9, "cache_bytes": 1})"),
               "p.json: \"bandwidth\" and \"flops\" must be positive");
  expect_error(load(R"({"bandwidth": 1e9, "flops": 1e9})"),
               "p.json: machine profile has no \"cache_bytes\""); // required for a CPU
  expect_error(load(R"({"kind": "tpu", "bandwidth": 1e9, "flops": 1e9})"),
               "p.json: \"kind\" must be \"cpu\" or \"gpu\"");
  expect_error(load(R"({"kind": "gpu", "bandwidth": 1e9, "flops": 1e9,
                        "max_blocks_per_sm": 8, "shared_bandwidth": 1e12,
                        "shared_bytes_per_block": 49152})"),
               "p.json: machine profile has no \"sms\"");
  expect_error(load(R"({"bandwidth": 1e9, "flops": 1e9, "cache_bytes": 1, "net_latency": -1e-6})"),
               "p.json: \"net_latency\" must be a non-negative number");
  const std::string curve = "p.json: \"l3_load_curve\" must be a list of [bytes, bytes/s] pairs "
                            "of positive numbers in ascending bytes";
  for (const char *bad : {R"("l3_load_curve": 5)", R"("l3_load_curve": [[2e7, 1e10], [1e7, 9e9]])",
                          R"("l3_load_curve": [[2e7, 0]])", R"("l3_load_curve": [[2e7]])"})
    expect_error(
        load(std::string(R"({"bandwidth": 1e9, "flops": 1e9, "cache_bytes": 1, )") + bad + "}"),
        curve);
  expect_error(load(R"({"bandwidth": 1e9, "flops": 1e9, "cache_bytes": 1, )"
                    R"("l3_sweep_curve": [[2e7, 1e10], [2e7, 9e9]]})"),
               "p.json: \"l3_sweep_curve\" must be a list of [bytes, bytes/s] pairs of positive "
               "numbers in ascending bytes");
  const std::string reuse = "p.json: \"l3_reuse_curve\" must be a list of [bytes, share] pairs in "
                            "ascending bytes, bytes positive, shares from 0 to 1";
  for (const char *bad : {R"("l3_reuse_curve": {})", R"("l3_reuse_curve": [[2e7, 0.5], [1e7, 1]])",
                          R"("l3_reuse_curve": [[2e7, 1.5]])", R"("l3_reuse_curve": [[0, 0.5]])",
                          R"("l3_reuse_curve": [[2e7, -0.1]])", R"("l3_reuse_curve": [2e7, 0.5])"})
    expect_error(
        load(std::string(R"({"bandwidth": 1e9, "flops": 1e9, "cache_bytes": 1, )") + bad + "}"),
        reuse);
  const std::string ring = "p.json: \"l3_ring_curve\" must be a list of [bytes, relative rate] "
                           "pairs in ascending bytes, bytes positive, relative rates from 0 to 1";
  for (const char *bad :
       {R"("l3_ring_curve": [[2e7, 1.2]])", R"("l3_ring_curve": [[2e7, 1], [2e7, 0.5]])"})
    expect_error(
        load(std::string(R"({"bandwidth": 1e9, "flops": 1e9, "cache_bytes": 1, )") + bad + "}"),
        ring);
}

TEST(ModelMachine, CalibratedProfileRoundTrips) {
  auto m = cpu(3.1e10, 1.7e10, 2 * 1024 * 1024, 1.5e-6);
  m.name = "calibrated";
  m.threads = 8;
  m.shared_cache_bytes = 32 << 20;
  m.shared_cache_flops = 2.5e10;
  m.peak_flops = 2.4e11;
  m.l1_bandwidth = 4e11;
  m.l2_bandwidth = 2e11;
  m.l3_bandwidth = 1e11;
  m.sweep_bandwidth = 1.2e10;
  m.sweep_bandwidth_2d = 1.4e10;
  m.engine_efficiency = 0.6;
  m.wide_engine_efficiency = 0.45;
  m.engine_efficiency_2d = 0.7;
  m.engine_efficiency_f64 = 0.55;
  m.engine_efficiency_coef = 1.9;
  m.xreg_engine_efficiency = 0.65;
  m.xreg_engine_efficiency_2d = 0.75;
  m.wide_xreg_engine_efficiency = 0.85;
  m.row_seconds = 2.5e-8;
  m.wide_row_seconds = 1.5e-8;
  m.call_seconds = 3.5e-7;
  m.stream_call_seconds = 4.5e-8;
  m.stream_slowdown = 0.03;
  m.few_streams_bandwidth = 4.5e10;
  m.net_latency = 4e-7;
  m.net_bandwidth = 2e9;
  m.probe_sweep_bandwidth = 1.3e10;
  m.probe_stencil_rate = 3.9e9;
  m.handoff_seconds = 2.3e-7;
  m.l3_load_curve = {{32 << 20, 9e10}, {64 << 20, 3e10}};
  m.l3_sweep_curve = {{32 << 20, 5e10}, {64 << 20, 4e10}, {541 << 20, 3.5e10}};
  m.l3_reuse_curve = {{8 << 20, 0}, {16 << 20, 0.25}, {64 << 20, 1}};
  m.l3_ring_curve = {{8 << 20, 1}, {16 << 20, 0.7}, {64 << 20, 0.45}};
  const auto back = model::machine_from_json(model::machine_to_json(m, "d", "s"), "machine.json");
  ASSERT_EQ(back.l3_ring_curve.size(), 3u);
  EXPECT_DOUBLE_EQ(back.l3_ring_curve[2][0], 64 << 20);
  EXPECT_DOUBLE_EQ(back.l3_ring_curve[1][1], 0.7);
  ASSERT_EQ(back.l3_reuse_curve.size(), 3u);
  EXPECT_DOUBLE_EQ(back.l3_reuse_curve[1][0], 16 << 20);
  EXPECT_DOUBLE_EQ(back.l3_reuse_curve[1][1], 0.25);
  ASSERT_EQ(back.l3_load_curve.size(), 2u);
  EXPECT_DOUBLE_EQ(back.l3_load_curve[1][0], 64 << 20);
  EXPECT_DOUBLE_EQ(back.l3_load_curve[1][1], 3e10);
  ASSERT_EQ(back.l3_sweep_curve.size(), 3u);
  EXPECT_DOUBLE_EQ(back.l3_sweep_curve[2][0], 541 << 20);
  EXPECT_DOUBLE_EQ(back.l3_sweep_curve[1][1], 4e10);
  EXPECT_DOUBLE_EQ(back.probe_sweep_bandwidth, 1.3e10);
  EXPECT_DOUBLE_EQ(back.probe_stencil_rate, 3.9e9);
  EXPECT_DOUBLE_EQ(back.handoff_seconds, 2.3e-7);
  EXPECT_EQ(back.name, "calibrated");
  EXPECT_EQ(back.kind, "cpu");
  EXPECT_DOUBLE_EQ(back.flops, 3.1e10);
  EXPECT_DOUBLE_EQ(back.bandwidth, 1.7e10);
  EXPECT_EQ(back.threads, 8);
  EXPECT_DOUBLE_EQ(back.cache_bytes, 2 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(back.shared_cache_bytes, 32 << 20);
  EXPECT_DOUBLE_EQ(back.shared_cache_flops, 2.5e10);
  EXPECT_DOUBLE_EQ(back.barrier_seconds, 1.5e-6);
  EXPECT_DOUBLE_EQ(back.peak_flops, 2.4e11);
  EXPECT_DOUBLE_EQ(back.l1_bandwidth, 4e11);
  EXPECT_DOUBLE_EQ(back.l2_bandwidth, 2e11);
  EXPECT_DOUBLE_EQ(back.l3_bandwidth, 1e11);
  EXPECT_DOUBLE_EQ(back.sweep_bandwidth, 1.2e10);
  EXPECT_DOUBLE_EQ(back.sweep_bandwidth_2d, 1.4e10);
  EXPECT_DOUBLE_EQ(back.engine_efficiency, 0.6);
  EXPECT_DOUBLE_EQ(back.wide_engine_efficiency, 0.45);
  EXPECT_DOUBLE_EQ(back.engine_efficiency_2d, 0.7);
  EXPECT_DOUBLE_EQ(back.engine_efficiency_f64, 0.55);
  EXPECT_DOUBLE_EQ(back.engine_efficiency_coef, 1.9);
  EXPECT_DOUBLE_EQ(back.xreg_engine_efficiency, 0.65);
  EXPECT_DOUBLE_EQ(back.xreg_engine_efficiency_2d, 0.75);
  EXPECT_DOUBLE_EQ(back.wide_xreg_engine_efficiency, 0.85);
  EXPECT_DOUBLE_EQ(back.row_seconds, 2.5e-8);
  EXPECT_DOUBLE_EQ(back.wide_row_seconds, 1.5e-8);
  EXPECT_DOUBLE_EQ(back.call_seconds, 3.5e-7);
  EXPECT_DOUBLE_EQ(back.stream_call_seconds, 4.5e-8);
  EXPECT_DOUBLE_EQ(back.stream_slowdown, 0.03);
  EXPECT_DOUBLE_EQ(back.few_streams_bandwidth, 4.5e10);
  EXPECT_DOUBLE_EQ(back.net_latency, 4e-7);
  EXPECT_DOUBLE_EQ(back.net_bandwidth, 2e9);
}

// A profile without the roofline (the built-in ones, older calibrations) reads as not measured.
TEST(ModelMachine, RooflineIsOptional) {
  const auto m = model::machine_from_json(
      R"({"bandwidth": 1e9, "flops": 1e9, "cache_bytes": 1048576})", "p.json");
  EXPECT_EQ(m.peak_flops, 0);
  EXPECT_EQ(m.l1_bandwidth, 0);
  EXPECT_EQ(m.l2_bandwidth, 0);
  EXPECT_EQ(m.l3_bandwidth, 0);
  EXPECT_EQ(model::machine_to_json(m, "d", "s").find("peak_flops"), std::string::npos);
}

// tune's machine now (scaled_machine): memory's rates follow the sweep probe, the cores' the
// stencil probe; a naive sweep (memory-bound) moves with the first, a temporal plan's stages
// with the second; the efficiencies, caches and network stay.
TEST(ModelMachine, ScaledMachineMovesMemoryAndCoresApart) {
  model::Machine m = model::machine_from_json(
      R"({"bandwidth": 4e10, "flops": 6e10, "threads": 2, "cache_bytes": 1048576,
          "shared_cache_bytes": 33554432, "shared_cache_flops": 5e10, "barrier_seconds": 1e-6,
          "wide_flops": 8e10, "sweep_bandwidth": 5e10, "engine_efficiency": 0.9,
          "row_seconds": 2e-8, "wide_row_seconds": 1e-8, "call_seconds": 4e-7,
          "stream_call_seconds": 5e-8, "stream_slowdown": 0.1, "few_streams_bandwidth": 6e10, "peak_flops": 4e11,
          "l1_bandwidth": 5e11, "l2_bandwidth": 4e11, "l3_bandwidth": 2e11,
          "probe_sweep_bandwidth": 5e10, "probe_stencil_rate": 7.5e9})",
      "p.json");
  const model::Machine s = model::scaled_machine(m, 0.5, 1.25);
  EXPECT_DOUBLE_EQ(s.bandwidth, 2e10);
  EXPECT_DOUBLE_EQ(s.sweep_bandwidth, 2.5e10);
  EXPECT_DOUBLE_EQ(s.few_streams_bandwidth, 3e10);
  EXPECT_DOUBLE_EQ(s.flops, 7.5e10);
  EXPECT_DOUBLE_EQ(s.wide_flops, 1e11);
  EXPECT_DOUBLE_EQ(s.shared_cache_flops, 6.25e10);
  EXPECT_DOUBLE_EQ(s.peak_flops, 5e11);
  EXPECT_DOUBLE_EQ(s.l1_bandwidth, 6.25e11);
  EXPECT_DOUBLE_EQ(s.l2_bandwidth, 5e11);
  EXPECT_DOUBLE_EQ(s.l3_bandwidth, 2.5e11);
  EXPECT_DOUBLE_EQ(s.row_seconds, 1.6e-8);
  EXPECT_DOUBLE_EQ(s.wide_row_seconds, 8e-9);
  EXPECT_DOUBLE_EQ(s.call_seconds, 3.2e-7);
  EXPECT_DOUBLE_EQ(s.stream_call_seconds, 4e-8);
  EXPECT_DOUBLE_EQ(s.barrier_seconds, 8e-7);
  EXPECT_DOUBLE_EQ(s.engine_efficiency, 0.9);
  EXPECT_DOUBLE_EQ(s.stream_slowdown, 0.1);
  EXPECT_DOUBLE_EQ(s.cache_bytes, 1048576);
  EXPECT_DOUBLE_EQ(s.shared_cache_bytes, 33554432);
  EXPECT_DOUBLE_EQ(s.probe_sweep_bandwidth, 5e10); // the calibration's, as the profile's
  EXPECT_DOUBLE_EQ(s.probe_stencil_rate, 7.5e9);
  // heat3d 510^3: the naive sweep is memory's (half the rate at half the bandwidth); a deep
  // temporal plan is mostly its stages' (faster with faster cores, slower with slower memory).
  model::Cost c;
  c.flops_per_cell = 8;
  c.bytes_per_cell = 8;
  c.written_bytes_per_cell = 4;
  c.loads_per_cell = 7;
  c.stages = 1;
  c.grids = 1;
  c.streams = 2;
  c.extent = {510, 510, 510, 1};
  c.steps = 48;
  model::Plan naive;
  const double t = model::predict(c, m, naive).seconds_per_step;
  // Everything at half speed: every term of the time twice as long.
  EXPECT_NEAR(model::predict(c, model::scaled_machine(m, 0.5, 0.5), naive).seconds_per_step, 2 * t,
              1e-9 * t);
  // Memory at half speed: the naive sweep's bytes take twice as long, its rows' overhead not.
  const double half = model::predict(c, model::scaled_machine(m, 0.5, 1), naive).seconds_per_step;
  EXPECT_GT(half, 1.7 * t);
  EXPECT_LT(half, 2 * t);
  model::Plan temporal;
  temporal.scheme = stencilc::scheme::CpuTemporal{12, 96, 0};
  const double tt = model::predict(c, m, temporal).seconds_per_step;
  const double faster =
      model::predict(c, model::scaled_machine(m, 1, 1.25), temporal).seconds_per_step;
  const double slower =
      model::predict(c, model::scaled_machine(m, 0.5, 1), temporal).seconds_per_step;
  EXPECT_LT(faster, tt);
  EXPECT_GT(faster, tt / 1.25 - 1e-12);
  EXPECT_GT(slower, tt);
  EXPECT_LT(slower, 2 * tt);
  EXPECT_NEAR(model::predict(c, model::scaled_machine(m, 0.5, 0.5), temporal).seconds_per_step,
              2 * tt, 1e-9 * tt);
  EXPECT_THROW(model::scaled_machine(m, 0, 1), stencilc::Error);
  EXPECT_THROW(model::scaled_machine(m, 1, -1), stencilc::Error);
}

// ---- once known problems (docs/MODEL.md), fixed -------------------------------------------

// A halo of depth k*r deeper than a neighbour's subdomain cannot come from the nearest
// neighbour; today 16^3 on 16 ranks picks procs=16x1x1 (n = 1) with k = 4.
TEST(ModelFixedBugs, HaloNoDeeperThanTheSubdomain) {
  const auto c = heat3d(16, 16, 16);
  for (const auto &p : model::candidates(c, cpu(5e10, 2e10), rules("mpi-openmp"), 16))
    for (int d = 0; d < 3; ++d)
      if (p.plan.distribution->procs[d] > 1)
        EXPECT_LE(p.plan.k() * c.radius, c.extent[d] / p.plan.distribution->procs[d]) << key(p.plan);
}

// A non-string "kind" or "name" escapes as nlohmann::json::type_error, not stencilc::Error.
TEST(ModelFixedBugs, NonStringKindIsAUserError) {
  expect_error([] { model::machine_from_json(R"({"kind": 3, "bandwidth": 1, "flops": 1})", "p"); },
               "p: \"kind\" must be");
}

} // namespace

namespace {

// A step of several kernel calls reaches further than its widest stencil: ghosts k steps deep
// must cover the sum (the lowering's step reach), or a rank computes with stale ghost cells.
TEST(ModelMpi, HaloDepthIsTheStepsSummedReach) {
  model::Cost one = heat3d(64, 64, 64);
  model::Cost three = one;
  three.halo_per_step = 3; // three calls of radius 1 per step (red-black Gauss-Seidel)
  std::string from;
  const auto m = model::load_machine("generic-cpu", stencilc::Platform::Cpu, from);
  const auto p = mpi_plan("mpi-openmp", 2, {4, 1, 1}, false);
  const auto a = model::predict(one, m, p), b = model::predict(three, m, p);
  // Subdomains of 16 x 64 x 64: at step j of k = 2 a rank computes 16 + 2 R (2 - j) planes in x:
  // R = 1: (18 + 16) / 32 = 1.0625; R = 3: (22 + 16) / 32 = 1.1875.
  EXPECT_DOUBLE_EQ(a.redundancy, 34.0 / 32.0);
  EXPECT_DOUBLE_EQ(b.redundancy, 38.0 / 32.0);
  EXPECT_GT(b.seconds_per_step, a.seconds_per_step);
  // k R deeper than a subdomain is no candidate: 4 ranks in x of 16 planes take k <= 16 / 3.
  for (const auto &q : model::candidates(three, m, rules("mpi-openmp"), 4))
    if (q.plan.distribution->procs[0] == 4)
      EXPECT_LE(q.plan.k() * 3, 16) << key(q.plan);
}

// Ranks packed on one CPU node share it: the naive plan on 2 ranks of a 2-core profile is not
// twice one process (each rank has half the bandwidth), while a GPU profile serves each rank
// whole.
TEST(ModelMpi, RanksOnANodeShareIt) {
  model::Machine m = cpu(4e10, 2e10);
  m.threads = 2;
  const model::Cost c = heat3d(256, 256, 256);
  model::Plan one;
  const double t1 = model::predict(c, m, one).seconds_per_step;
  const double t2 = model::predict(c, m, mpi_plan("mpi-openmp", 1, {1, 1, 2}, false)).seconds_per_step;
  // Memory-bound: 2 ranks, each half the cells at half the bandwidth, plus the exchange.
  EXPECT_GE(t2, t1);
  EXPECT_LT(t2, 1.1 * t1);
  model::Machine many = m;
  many.threads = 8; // a node of 8 cores: 2 ranks use a quarter of it each
  const double t8 = model::predict(c, many, mpi_plan("mpi-openmp", 1, {1, 1, 2}, false)).seconds_per_step;
  EXPECT_NEAR(t8, t2, 1e-3 * t2); // the same 2 ranks' shares: each half of a node's bandwidth
  const model::Machine g = gpu();
  const double g1 = model::predict(c, g, plan("cuda", "naive", 1)).seconds_per_step;
  const double g2 = model::predict(c, g, mpi_plan("mpi-cuda", 1, {1, 1, 2}, false)).seconds_per_step;
  EXPECT_LT(g2, 0.75 * g1); // a GPU per rank: about twice the throughput
}

// The CPU engine inside each rank: priced as the openmp temporal plan on the block widened by
// k steps' reach per split face, so on a large memory-bound grid it beats naive across the same
// ranks, and it is offered with the same process grids and depths as naive.
TEST(ModelMpi, TemporalAcrossRanksBeatsNaiveWhenMemoryBound) {
  model::Machine m = cpu_l3();
  m.threads = 2;
  const model::Cost c = heat3d_cpu(510, 510, 510);
  const auto naive = model::predict(c, m, mpi_plan("mpi-openmp", 1, {1, 1, 2}, false));
  model::Plan t;
  t.scheme = stencilc::scheme::CpuTemporal{8, 64, 0};
  t.distribution = stencilc::Distribution{{1, 1, 2, 1}, 8, false};
  const auto blocked = model::predict(c, m, t);
  EXPECT_LT(blocked.seconds_per_step, 0.8 * naive.seconds_per_step);
  // Blocks of 255 planes, step j of 8 computing 255 + 2 (8 - j) of them: 56 redundant planes
  // for 8 x 255 useful ones.
  EXPECT_DOUBLE_EQ(blocked.redundancy, 1.0 + 56.0 / 2040.0);
  bool offered = false;
  for (const auto &q : model::candidates(c, m, rules("mpi-openmp"), 2))
    offered |= q.plan.get<stencilc::scheme::CpuTemporal>() != nullptr && q.plan.k() == 8;
  EXPECT_TRUE(offered);
}

// mpi-cuda's temporal plan (--plan): the fused steps priced as the cuda temporal plan on the
// block widened by k steps' reach per split face, its computing split into the inner part and
// the widened edges in proportion to their cells.
TEST(ModelMpi, GpuTemporalAcrossRanksIsTheDevicePlanOnTheWidenedBlock) {
  const model::Machine g = gpu();
  const model::Cost c = heat3d(256, 256, 256);
  model::Plan t;
  t.scheme = stencilc::scheme::GpuTemporal{4, 32, 16, 0};
  t.distribution = stencilc::Distribution{{1, 1, 2, 1}, 4, false};
  const auto across = model::predict(c, g, t);
  model::Cost wide = c;
  wide.extent[2] = 128 + 2 * 4; // a block of 128 planes, widened by 4 steps' reach once
  model::Plan local;
  local.scheme = t.scheme;
  const double per_step = model::predict(wide, g, local).seconds_per_step;
  EXPECT_NEAR(across.t_inner + across.t_boundary, 4 * per_step, 1e-9 * per_step);
  // Steps 1..4 compute 128 + 2 (4 - j) planes: 12 redundant planes for 4 x 128 useful ones.
  EXPECT_DOUBLE_EQ(across.redundancy, 1.0 + 12.0 / 512.0);
  const auto naive = model::predict(c, g, mpi_plan("mpi-cuda", 1, {1, 1, 2}, false));
  EXPECT_LT(across.t_compute, naive.t_compute); // fewer bytes per cell-update than naive
  // Among the candidates, priced alike.
  bool offered = false;
  for (const auto &q : model::candidates(c, g, rules("mpi-cuda"), 2))
    if (q.plan == t) {
      offered = true;
      EXPECT_DOUBLE_EQ(q.seconds_per_step, across.seconds_per_step);
    }
  EXPECT_TRUE(offered);
}

// A rank-4 program's process grid may split any of its four dimensions: the model offers every
// factorisation and prices the faces each exchanges, so a grid long in w splits w (faces of
// 32^3 cells) rather than x (32^2 x 128).
TEST(ModelMpi, ARank4GridSplitsTheDimensionWithTheSmallestFaces) {
  model::Cost c = heat3d(32, 32, 32);
  c.rank = 4;
  c.extent = {32, 32, 32, 128};
  std::string from;
  const auto m = model::load_machine("generic-cpu", stencilc::Platform::Cpu, from);
  std::set<std::array<int, 4>> grids;
  for (const auto &q : model::candidates(c, m, rules("mpi-openmp"), 4))
    grids.insert(q.plan.distribution->procs);
  EXPECT_TRUE(grids.count({1, 1, 1, 4}));
  EXPECT_TRUE(grids.count({1, 1, 2, 2}));
  EXPECT_TRUE(grids.count({4, 1, 1, 1}));
  EXPECT_EQ(grids.size(), 10u); // the ordered factorisations of 4 over 4 dimensions
  model::Plan w = mpi_plan("mpi-openmp", 1, {1, 1, 1}, false), x = w;
  w.distribution->procs = {1, 1, 1, 2};
  x.distribution->procs = {2, 1, 1, 1};
  const auto pw = model::predict(c, m, w), px = model::predict(c, m, x);
  // 2 messages of 32^3 cells against 2 of 32^2 x 128, each also paying the latency.
  EXPECT_LT(pw.t_comm, 0.3 * px.t_comm) << pw.t_comm << " " << px.t_comm;
  EXPECT_DOUBLE_EQ(pw.redundancy, 1.0);
  const auto best = model::candidates(c, m, rules("mpi-openmp"), 2).front();
  EXPECT_EQ(best.plan.distribution->procs, (std::array<int, 4>{1, 1, 1, 2})) << key(best.plan);
}

// overlap=on on a CPU: the interior hides the messages, but the sweep is cut into 8 slabs and
// two shell boxes per dimension from the first split one on, each a parallel loop whose barrier
// the model charges. So it pays where messages take long against that (a slow network, small
// blocks) and not where they are cheap.
TEST(ModelMpi, OverlapOnACpuPaysOnlyWhenMessagesOutlastItsBarriers) {
  model::Machine m = cpu(1e11, 1e10, 1 << 20, 2e-6);
  const model::Cost c = heat3d(512, 512, 512);
  auto step = [&](bool overlap, std::array<int, 3> procs) {
    return model::predict(c, m, mpi_plan("mpi-openmp", 1, procs, overlap)).seconds_per_step;
  };
  // Messages nearly free (latency 0, 1e15 B/s): overlap costs its barriers, 8 + 2 for a z
  // split (9 more than the one loop of overlap=off), 8 + 2 * 2 for 1x2x2 (x is filled before
  // the sweep; y and z are cut), 8 + 2 * 3 for 2x1x1.
  m.net_latency = 0;
  m.net_bandwidth = 1e15;
  EXPECT_NEAR(step(true, {1, 1, 4}) - step(false, {1, 1, 4}), 9 * 2e-6, 1e-8);
  EXPECT_NEAR(step(true, {1, 2, 2}) - step(false, {1, 2, 2}), 11 * 2e-6, 1e-8);
  EXPECT_NEAR(step(true, {4, 1, 1}) - step(false, {4, 1, 1}), 13 * 2e-6, 1e-8);
  // 1x1x4 on a fast network (1e11 B/s, 1e-7 s): 2 (1e-7 + 512 * 512 * 4 / 1e11) = 2.117152e-5 s
  // of messages hidden, for 1.8e-5 s of barriers.
  m.net_latency = 1e-7;
  m.net_bandwidth = 1e11;
  EXPECT_NEAR(step(false, {1, 1, 4}) - step(true, {1, 1, 4}), 2.117152e-5 - 9 * 2e-6, 1e-9);
  // A slow one (1e8 B/s): 21 ms of messages hidden behind the interior.
  m.net_bandwidth = 1e8;
  EXPECT_LT(step(true, {1, 1, 4}), 0.9 * step(false, {1, 1, 4}));
}

} // namespace

// mpi-cuda on 16 ranks of an a100-40gb profile. Halos k steps deep serve two ends: fewer,
// larger messages, and the device's fused steps, which pay on one GPU already for a
// memory-bound kernel. For a kernel they do not speed up (heat3d with 100 times its flops:
// compute-bound, so fusing steps saves no time and adds the redundant work), small blocks behind
// a slow network take halos several steps deep, large blocks behind a fast network exchange
// every step: no temporal blocking. heat3d itself keeps the fused steps there, their depth
// the one the device alone picks for such a block, the network no longer deepening it.
TEST(ModelMpi, GpuDeepHalosGiveWayToEveryStepWhenTheNetworkIsFastAndBlocksLarge) {
  std::string from;
  model::Machine m = model::load_machine("a100-40gb", stencilc::Platform::Gpu, from);
  model::Cost heavy = heat3d(96, 96, 96);
  heavy.flops_per_cell *= 100;
  auto best = [&](const model::Cost &c) {
    return model::candidates(c, m, rules("mpi-cuda"), 16).front();
  };
  m.net_latency = 2e-5; // a slow network: 20 us a message
  const auto slow = best(heavy);
  EXPECT_GT(slow.plan.k(), 1) << key(slow.plan);
  EXPECT_EQ(slow.bound, "communication");
  const auto slow_mem = best(heat3d(96, 96, 96));
  EXPECT_GT(slow_mem.plan.k(), 1) << key(slow_mem.plan);
  m.net_latency = 1e-7; // fast: 0.1 us, 400 GB/s, and the faces over a fast link
  m.net_bandwidth = 4e11;
  m.link_bandwidth = 4e11;
  heavy.extent = {1024, 1024, 1024, 1};
  const auto fast = best(heavy);
  EXPECT_EQ(fast.plan.k(), 1) << key(fast.plan);
  EXPECT_TRUE(fast.plan.naive()) << key(fast.plan);
  EXPECT_EQ(fast.bound, "compute");
  // With a fast link the host's cores add their flops: the split (overlap=host) pays.
  EXPECT_TRUE(fast.plan.distribution->host) << key(fast.plan);
  const auto fused = best(heat3d(1024, 1024, 1024));
  ASSERT_TRUE(fused.plan.get<stencilc::scheme::GpuTemporal>()) << key(fused.plan);
  model::Cost block = heat3d(1024, 1024, 1024);
  for (int d = 0; d < 3; ++d)
    block.extent[d] /= fused.plan.distribution->procs[d];
  const auto alone = model::candidates(block, m, rules("cuda")).front();
  EXPECT_EQ(fused.plan.k(), alone.plan.k()) << key(fused.plan) << " " << key(alone.plan);
}

// overlap=boundary: the shell first, the exchange of what it wrote beside the interior. The
// same terms and period as overlap=on (the interior hides the same copies and messages, the
// shell runs once either way), so the model does not offer it: a tie it would win only by the
// candidates' key order. It is there to be measured (bench/mpi_gpu.sh).
TEST(ModelMpi, BoundaryFirstHasTheInteriorFirstsPeriodAndIsNotOffered) {
  std::string from;
  const model::Machine m = model::load_machine("a100-40gb", stencilc::Platform::Gpu, from);
  const model::Cost c = heat3d(512, 512, 512);
  model::Plan on = mpi_plan("mpi-cuda", 1, {1, 2, 2}, true), first = on;
  first.distribution->first = true;
  const auto a = model::predict(c, m, on), b = model::predict(c, m, first);
  EXPECT_DOUBLE_EQ(a.seconds_per_step, b.seconds_per_step);
  EXPECT_DOUBLE_EQ(a.t_inner, b.t_inner);
  EXPECT_DOUBLE_EQ(a.t_boundary, b.t_boundary);
  EXPECT_DOUBLE_EQ(a.t_mpi, b.t_mpi);
  for (const auto &q : model::candidates(c, m, rules("mpi-cuda"), 4))
    EXPECT_FALSE(q.plan.distribution->first) << key(q.plan);
}

// overlap=host (mpi-cuda, mpi-hip): the device computes the block's interior while the host's
// cores exchange the ghost cells and compute the shell around it; the ring just inside the
// shell comes to the host first, the ghost cells and the shell go back:
// T = d2h + max(inner, mpi + boundary + h2d) + one launch, the boundary at the host's rate.
TEST(ModelMpi, HostSplitPricesTheBoundaryOnTheHostsCores) {
  model::Machine m = gpu();
  m.host_flops = 1e11;
  m.host_bandwidth = 2e10;
  const model::Cost c = heat3d(256, 256, 256);
  model::Plan p = mpi_plan("mpi-cuda", 1, {1, 1, 2}, true);
  p.distribution->host = true;
  const auto r = model::predict(c, m, p);
  // Blocks of 256 x 256 x 128: the interior 254 x 254 x 126 on the device, the rest on the
  // host at max(8 / 1e11, 12 / 2e10) = 6e-10 s a cell.
  const double all = 256.0 * 256 * 128, interior = 254.0 * 254 * 126;
  EXPECT_NEAR(r.t_boundary, (all - interior) * 6e-10, 1e-12);
  EXPECT_GT(r.t_d2h, 0);
  EXPECT_DOUBLE_EQ(r.t_h2d, 2 * r.t_d2h);
  EXPECT_NEAR(r.seconds_per_step,
              r.t_d2h + std::max(r.t_inner, r.t_mpi + r.t_boundary + r.t_h2d) + m.launch_seconds,
              1e-15);
  EXPECT_DOUBLE_EQ(r.redundancy, 1.0);
  // The device's interior at its naive rate: the cells times those of the block's whole sweep.
  p.distribution->host = p.distribution->overlap = false;
  const auto off = model::predict(c, m, p);
  EXPECT_NEAR(r.t_inner, (off.t_inner + off.t_boundary) * interior / all, 1e-12);
  // A profile without the host's figures: not priced, not offered.
  m.host_flops = 0;
  p.distribution->host = p.distribution->overlap = true;
  EXPECT_TRUE(std::isinf(model::predict(c, m, p).seconds_per_step));
  for (const auto &cand : model::candidates(c, m, rules("mpi-cuda"), 2))
    EXPECT_FALSE(cand.plan.distribution->host) << key(cand.plan);
}

// Whether the split pays, on 16 ranks of heat3d 512^3: not behind an a100-40gb's PCIe link
// with its host's share of a DGX (the ring, the shell and the ghost cells crossing 25 GB/s
// each step cost more than the shell's launches on the device), but with a link and a host
// as fast as a Grace Hopper's (450 GB/s each way, 400 GB/s of host memory); and not with such
// a link beside a slow host. Among the naive plans: heat3d's fused steps beat both here, as
// they do on one GPU (a compute-bound kernel's choice of the split: the test above).
TEST(ModelMpi, HostSplitChosenWhereTheLinkAndTheHostAreFast) {
  std::string from;
  model::Machine m = model::load_machine("a100-40gb", stencilc::Platform::Gpu, from);
  ASSERT_GT(m.host_bandwidth, 0);
  const model::Cost c = heat3d(512, 512, 512);
  auto best = [&]() {
    for (const auto &q : model::candidates(c, m, rules("mpi-cuda"), 16))
      if (q.plan.naive())
        return q;
    return model::Prediction{};
  };
  EXPECT_FALSE(best().plan.distribution->host) << key(best().plan);
  m.link_bandwidth = 4.5e11;
  m.host_bandwidth = 4e11;
  m.host_flops = 3e12;
  const auto fast = best();
  EXPECT_TRUE(fast.plan.distribution->host) << key(fast.plan);
  model::Plan on = fast.plan;
  on.distribution->host = false;
  EXPECT_LT(fast.seconds_per_step, 0.9 * model::predict(c, m, on).seconds_per_step);
  m.host_bandwidth = 1e9;
  m.host_flops = 1e10;
  EXPECT_FALSE(best().plan.distribution->host) << key(best().plan);
}

// overlap=host under the temporal plan (k fused steps): the device's fused steps on the
// interior (k r from every face), the host's k levels of the naive sweep on the block widened
// by (k - j) r at faces between blocks less the box k r + (k - j) r from every face; level 0
// comes to the host within 2 k r of the faces, the shell goes back.
TEST(ModelMpi, HostSplitUnderTheTemporalPlanCountsTheHostsLevels) {
  model::Machine m = gpu();
  m.host_flops = 1e11;
  m.host_bandwidth = 2e10;
  const model::Cost c = heat3d(64, 64, 64);
  model::Plan p = plan("mpi-cuda", "temporal", 2, 32, 8);
  p.distribution = stencilc::Distribution{{1, 1, 2, 1}, 2, true, true};
  const auto r = model::predict(c, m, p);
  // Blocks of 64 x 64 x 32, z split: level 1 on 64 x 64 x 34 less 58 x 58 x 26, level 2 on
  // 64 x 64 x 32 less 60 x 60 x 28, at 6e-10 s a cell.
  const double host = 64.0 * 64 * 34 - 58.0 * 58 * 26 + 64.0 * 64 * 32 - 60.0 * 60 * 28;
  EXPECT_NEAR(r.t_boundary, host * 6e-10, 1e-12);
  auto on = p;
  on.distribution->host = false;
  const auto o = model::predict(c, m, on);
  EXPECT_DOUBLE_EQ(r.t_d2h, 2 * o.t_d2h); // level 0 within 2 k r
  EXPECT_DOUBLE_EQ(r.t_h2d, o.t_d2h);     // the shell, k r deep
  EXPECT_NEAR(r.seconds_per_step * 2,
              r.t_d2h + std::max(r.t_inner, r.t_mpi + r.t_boundary + r.t_h2d) + m.launch_seconds,
              1e-15);
  // The interior at the device's fused steps' rate: 60 x 60 x 28 cells, 2 steps.
  EXPECT_GT(r.t_inner, 0);
  EXPECT_LT(r.t_inner, o.t_inner + o.t_boundary);
}

TEST(ModelCandidates, NearTiesGoToTheNaiveSweepOnACpu) {
  // Sorted fastest first: a temporal plan at 1.00 s per step, naive at 1.02 (within 3%): naive
  // goes first and says why; at 1.04 the order stays.
  auto sorted = [](double naive_seconds) {
    model::Prediction t, n, u;
    t.plan = rows_plan(4, 16);
    t.seconds_per_step = 1.0;
    u.plan = rows_plan(8, 16);
    u.seconds_per_step = 1.01;
    n.plan = plan("openmp", "naive", 1);
    n.seconds_per_step = naive_seconds;
    n.note = "grids in L3";
    return std::vector<model::Prediction>{t, u, n};
  };
  const auto m = cpu_l3(512 * 1024, 10 << 20);
  auto near = sorted(1.02);
  model::prefer_naive(near, m);
  ASSERT_EQ(near.size(), 3u);
  EXPECT_EQ(key(near[0].plan), "scheme=naive");
  EXPECT_EQ(near[0].note, "grids in L3; chosen: temporal plans predicted under 3% faster");
  EXPECT_EQ(key(near[1].plan), key(rows_plan(4, 16)));
  EXPECT_EQ(key(near[2].plan), key(rows_plan(8, 16)));
  auto far = sorted(1.04);
  model::prefer_naive(far, m);
  EXPECT_EQ(key(far[0].plan), key(rows_plan(4, 16)));
  EXPECT_EQ(far[2].note, "grids in L3");
  // A GPU keeps its order.
  auto gpu = sorted(1.02);
  auto g = m;
  g.kind = "gpu";
  model::prefer_naive(gpu, g);
  EXPECT_EQ(key(gpu[0].plan), key(rows_plan(4, 16)));
}
