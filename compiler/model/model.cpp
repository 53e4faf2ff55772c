#include "model/model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "model/occupancy.h"
#include "stencilc/cpu/engine.h"
#include "stencilc/error.h"

namespace stc::model {

double cpu_sweep_bytes(const Cost &c) {
  return c.padded_bytes_per_cell > 0 ? c.padded_bytes_per_cell : c.bytes_per_cell;
}

double gpu_min_bytes(const Cost &c) {
  return c.bytes_per_cell - c.written_bytes_per_cell / 2 + c.ghost_read_bytes_per_cell;
}

double Cost::cells() const {
  double n = 1;
  for (int d = 0; d < rank; ++d)
    n *= static_cast<double>(extent[d]);
  return n;
}

double roofline(double cells, double flops_per_cell, double bytes_per_cell, const Machine &m) {
  return std::max(cells * flops_per_cell / m.flops, cells * bytes_per_cell / m.bandwidth);
}

double redundancy(int k, int r, int tx, int ty) {
  double sum = 0;
  for (int j = 1; j <= k; ++j)
    sum += static_cast<double>(tx + 2 * r * (k - j)) * (ty + 2 * r * (k - j));
  return sum / (static_cast<double>(k) * tx * ty);
}

double tile_working_set(const Cost &c, int k, int tx, int ty) {
  return static_cast<double>(2 * c.radius + 1) * k * (tx + 2.0 * c.radius * k) *
         (ty + 2.0 * c.radius * k) * c.elem_bytes * c.grids;
}

double row_redundancy(int k, int r, double rows) {
  double sum = 0;
  for (int j = 1; j <= k; ++j)
    sum += rows + 2.0 * r * (k - j);
  return sum / (static_cast<double>(k) * rows);
}

double carried_redundancy(int k, int r, std::int64_t n, std::int64_t tiles, int threads) {
  const std::int64_t runs = std::min<std::int64_t>(tiles, std::max(1, threads));
  return row_redundancy(k, r, static_cast<double>(n) / static_cast<double>(runs));
}

double carry_bytes(const Cost &c, int k, std::int64_t tiles, int threads, double rows_avg) {
  if (c.rank != 3 || tiles <= threads || k < 2)
    return 0;
  const double carried = 1 - static_cast<double>(threads) / static_cast<double>(tiles);
  // 2R rows out and back in, of cells of written_bytes_per_cell / 2 (a naive write's bytes
  // count the read for ownership): out with that read (ordinary stores into store lines a
  // whole tile cold), back in without, 1.5 written_bytes_per_cell. Measured on the AMD EPYC VM
  // (PERFORMANCE.md, 2026-12-06 06:58): carried 8- and 16-row tiles of heat3d 510^3 ran 1.9-3.0
  // ms a step (their copies at B_s without that read: 1.7-4.3 ms) below their prices, on every
  // depth, the same tiles uncarried at theirs.
  return carried * (2.0 * c.step_radius) / rows_avg * 1.5 * c.written_bytes_per_cell *
         (1 - 1.0 / (static_cast<double>(k) * c.stages));
}

double carry_seconds(const Cost &c, const Machine &m, int k, std::int64_t tiles, double rows_avg,
                     double cells) {
  // The engine lays a tile's carried rows out by plane-step, every stage's in turn (b9102f0):
  // a tile writes its store and the next reads it back as one sequential stream each, which
  // the prefetchers follow as they do a sweep's grids. Measured (PERFORMANCE.md, 2026-12-03
  // 16:32): heat3d 510^3, k=8, 16 rows ran 8% faster with the copies skipped, 3 ms of a 40 ms
  // step, where these bytes at B_s take 2.9 ms (as short copies from random blocks, the
  // pricing of the layout before, 3.7 ms).
  return cells * carry_bytes(c, k, tiles, std::max(1, m.threads), rows_avg) / sweep_bandwidth(m);
}

double input_rows(const Cost &c, int k, std::int64_t tiles, int threads, double rows_avg,
                  bool carry) {
  if (c.rank != 3)
    return 1;
  const double whole = (rows_avg + 2.0 * c.step_radius * k) / rows_avg;
  if (!carry || tiles <= threads)
    return whole;
  const double carried = 1 - static_cast<double>(threads) / static_cast<double>(tiles);
  return carried * (rows_avg + 2.0 * c.step_radius) / rows_avg + (1 - carried) * whole;
}

double ring_working_set(const Cost &c, int k, int rows, bool carried) {
  // Coefficient grids stream through (their planes need not stay); the state's input planes do.
  const double coefficients = std::round(c.readonly_bytes_per_cell / c.elem_bytes);
  const double inputs = std::max(1.0, c.grids - coefficients);
  const double planes = (static_cast<double>(k) * c.stages - 1) * (2 * c.radius + 1) + 1 +
                        (2 * c.radius + 1) * inputs;
  // A carried tile's stages touch only their rows and the 2R below them (taken from the tile
  // before), not the widest ghost zone the rings are sized for.
  const double plane_rows = c.rank >= 3 ? rows + 2.0 * c.step_radius * (carried ? 1 : k) : 1.0;
  return planes * plane_rows * (static_cast<double>(c.extent[0]) + 2 * c.radius) * c.elem_bytes;
}

double l2_miss(double bytes, const Machine &m) {
  const double lo = 0.25 * m.cache_bytes, hi = 0.6 * m.cache_bytes;
  return std::clamp((bytes - lo) / (hi - lo), 0.0, 1.0);
}

namespace {

// A thread's share of the L3 for its rings.
double ring_share(const Machine &m) {
  return m.shared_cache_bytes * kSharedCacheShare / std::max(1, m.threads);
}

} // namespace

double l3_depth_factor(double ws, const Machine &m) {
  const double share = ring_share(m);
  // Where calibrate measured F_3 and B_3: 8 L2s per thread, at most the share.
  const double measured = std::min(share, 8 * m.cache_bytes);
  if (share <= measured || m.l3_bandwidth <= 0 || m.bandwidth <= 0 || m.l3_bandwidth <= m.bandwidth)
    return 1;
  const double x = std::clamp((ws - measured) / (share - measured), 0.0, 1.0);
  return 1 + (m.l3_bandwidth / m.bandwidth - 1) * x;
}

double sweep_bandwidth(const Machine &m) {
  return m.sweep_bandwidth > 0 ? m.sweep_bandwidth : m.bandwidth;
}

// heat2d's naive sweep (4094-cell rows) streamed at 1.17 times heat3d's (510-cell rows) in four
// alternated rounds, heat2d on 510-cell rows at heat3d's rate (PERFORMANCE.md, 2026-12-06 17:50):
// the rows' length, which rank 2 stands for among the sweeps calibrate runs. Naive sweeps only: a
// temporal block's state at B_s,2 put heat2d's k = 2-4 plans at 0.85-0.95 of their prices in two
// tunes, at B_s 0.96-1.04 in four (calibrate fits eta_2 on B_s accordingly).
double sweep_bandwidth(const Cost &c, const Machine &m) {
  return c.rank == 2 && m.sweep_bandwidth_2d > 0 ? m.sweep_bandwidth_2d : sweep_bandwidth(m);
}

// A sweep past the L3 does not fall to memory's rate at once: the L3 keeps part of what it
// streams. Measured (PERFORMANCE.md, 2026-12-03 10:30, the Intel VM, L3 at speed 67 MB):
// poisson_rbgs 128^3 (70 MB of grids) swept at 2.06 times its memory price, where the curve
// read 2.0 times memory at that size. On the AMD EPYC VM (2026-12-07, L3 33.6 MB) the load sums
// read 1.3-1.65 times memory at 70 MB while the sweep itself ran 1.0-1.1 times, and poisson
// 0.56-0.72 of the prices the sums gave in five tunes: the sweep's own curve comes first.
double l3_spill_gain(const Machine &m, double footprint) {
  const auto &curve = m.l3_sweep_curve.empty() ? m.l3_load_curve : m.l3_sweep_curve;
  if (curve.size() < 2 || footprint <= curve.front()[0] || footprint >= curve.back()[0])
    return 1;
  double slowest = curve.front()[1];
  for (const auto &pt : curve)
    slowest = std::min(slowest, pt[1]);
  std::size_t i = 1;
  while (footprint > curve[i][0])
    ++i;
  const auto &a = curve[i - 1], &b = curve[i];
  const double x = std::log(footprint / a[0]) / std::log(b[0] / a[0]);
  return std::max(1.0, (a[1] + (b[1] - a[1]) * x) / slowest);
}

double streams_factor(const Cost &c, const Machine &m) {
  const double slow = 1 + m.stream_slowdown * std::max(0, c.streams - kFewStreams);
  // The sum's memory ran well above the generated sweep's B_s with 9 streams and fell to about
  // B_s with 17, while generated sweeps of 15-17 grids ran at B_s (another host of the AMD EPYC
  // VM, PERFORMANCE.md 2026-12-02 09:56): the slowdown counts from B_s, not from B_9.
  const double q = m.few_streams_bandwidth > 0
                       ? std::min(1.0, sweep_bandwidth(m) / m.few_streams_bandwidth)
                       : 1.0;
  return std::max(1.0, q * slow);
}

// A call costs in proportion to the plane streams it starts (heat3d's 4 weigh 1): fitted to the
// model's residuals on the AMD EPYC VM (MODEL.md "Calls", 2026-12-05 21:45), heat3d's calls
// 0.18 us (calibrate) and himeno M's (17 streams) about 0.95 us, the prefetchers finding each
// stream again at every call; the call's own part came out at about nothing.
double call_weight(const Cost &c) { return std::max(1, c.plane_streams) / kCallStreams; }

// heat2d 8190^2 (k=10, 1024 rows, alternated): 512-bit 8.51e9 cells/s, 256-bit 8.54e9, where
// heat3d's gain priced them 18% faster (PERFORMANCE.md, 2026-12-03 06:36). On the AMD EPYC VM
// the 256-bit twins of heat3d fp64's k=10,rows=48 and of himeno M's k=10,rows=64 ran 1.01-1.17
// times the 512-bit plans in five tunes (2026-12-05, 2026-12-06), equal within the spells in ten
// alternated rounds, where the 512-bit gain of heat3d fp32 priced them 4% faster.
bool wide_priced(const Cost &c) {
  return c.rank == 3 && c.elem_bytes <= 4 && c.streams <= kWideMeasuredStreams;
}

namespace {

// T_rows: each x-row of `cells` a stage computes costs t_row beyond its cells (Machine::
// row_seconds; wide_row_seconds for 512-bit stages where measured), the rows shared by `threads`.
double rows_seconds(const Cost &c, const Machine &m, double cells, int threads, int vec = 256) {
  const double t_row = vec == 512 && m.wide_row_seconds > 0 ? m.wide_row_seconds : m.row_seconds;
  return cells / static_cast<double>(std::max<std::int64_t>(1, c.extent[0])) *
         std::max(1, c.stages) * t_row / std::max(1, threads);
}

// T_calls: each (tile, plane, stage) call of a rank-3 temporal plan costs t_call beyond its
// rows (Machine::call_seconds, a call of heat3d's stage with its kCallStreams plane streams) and
// t_stream (Machine::stream_call_seconds) for each plane stream beyond those; without t_stream,
// t_call times call_weight. tiles · n_z calls per stage and step, shared by `threads`. Measured
// (PERFORMANCE.md, 2026-12-06 12:21): himeno M's calls (17 plane streams) cost about 1.2 us where
// call_weight priced 0.16 (3 alternated rounds of k = 2-12 on 8-64-row tiles: 8-row tiles +0.4
// to +1.0 ms a step slower than priced, 32- and 64-row ones -0.1 to -0.35).
double calls_seconds(const Cost &c, const Machine &m, double cells, double rows_avg, int threads) {
  if (c.rank != 3 || !(rows_avg > 0))
    return 0;
  const double calls =
      cells / (static_cast<double>(std::max<std::int64_t>(1, c.extent[0])) * rows_avg);
  const double call =
      m.stream_call_seconds > 0
          ? m.call_seconds + std::max(0.0, c.plane_streams - kCallStreams) * m.stream_call_seconds
          : call_weight(c) * m.call_seconds;
  return calls * call / std::max(1, threads);
}

} // namespace

double cpu_lanes(const Cost &c) { return c.elem_bytes > 4 ? 4.0 / c.elem_bytes : 1.0; }

double stage_flops(const Machine &m, int vec, int rank, double xreg) {
  const double eta = m.engine_efficiency > 0 ? m.engine_efficiency : 1.0;
  // With the x-shifts in registers, the share `xreg` of the stages runs at its own measured
  // rate: F (256 bits) or F_512 times its η. On 512 bits the x-shifted loads cross a cache line
  // every time (64-byte vectors, 4-byte steps) where half of the 256-bit ones do: on the AMD
  // EPYC VM a heat3d row in the L2 ran 1.22x faster with its shifts in registers
  // (PERFORMANCE.md, 2026-12-04 14:43). 512-bit ones are measured on rank 3 only.
  const double xreg_rate =
      vec == 256  ? m.flops * (rank == 2 ? m.xreg_engine_efficiency_2d : m.xreg_engine_efficiency)
      : rank != 2 ? m.wide_flops * m.wide_xreg_engine_efficiency
                  : 0;
  if (xreg > 0 && xreg_rate > 0) {
    const double plain = stage_flops(m, vec, rank);
    return 1 / (xreg / xreg_rate + (1 - xreg) / plain);
  }
  // calibrate measured heat2d's stages losing less to the engine than heat3d's; why (rank, row
  // length) is not settled (PERFORMANCE.md, 2026-12-01 11:18).
  const double rank_factor =
      rank == 2 && m.engine_efficiency_2d > 0 ? m.engine_efficiency_2d / eta : 1.0;
  // 512-bit rows are measured on heat3d only; a rank-2 program's are priced as its 256-bit ones
  // (heat2d 8190^2, k=10, 1024 rows, alternated: 512-bit 8.51e9 cells/s, 256-bit 8.54e9, where
  // heat3d's gain priced them 18% faster: PERFORMANCE.md, 2026-12-03 06:36).
  if (vec == 512 && m.wide_flops > 0 && rank != 2)
    return m.wide_flops * (m.wide_engine_efficiency > 0 ? m.wide_engine_efficiency : eta);
  return m.flops * eta * rank_factor;
}

// heat3d in double lost more to the engine than cpu_lanes' half of F says: on the AMD EPYC VM
// its temporal plans ran at 0.73-0.85 of their prices where the same plans in float ran at
// 0.82-0.96, and alternated against its naive plan k=4, 16 rows gained 1.07-1.15 where the model
// said 1.30 (PERFORMANCE.md, 2026-12-04 10:20).
double cell_size_factor(const Cost &c, const Machine &m) {
  if (c.elem_bytes <= 4 || !(m.engine_efficiency_f64 > 0) || !(m.engine_efficiency > 0))
    return 1.0;
  return m.engine_efficiency_f64 / m.engine_efficiency;
}

// himeno's stage (32 flops, 12 coefficients) against the row benchmark's heat3d (8 flops): on the
// AMD EPYC VM calibrate fitted its eta at 2.42 where heat3d's was 1.56, and priced at heat3d's
// its 32- and 64-row plans ran 1.05-1.24 times their prices in every grid and tune of
// 2026-12-06, at its own 0.86-1.01 (PERFORMANCE.md, 2026-12-06 12:21).
double coefficient_factor(const Cost &c, const Machine &m) {
  if (c.rank != 3 || !(c.readonly_bytes_per_cell > 0) || !(m.engine_efficiency_coef > 0) ||
      !(m.engine_efficiency > 0))
    return 1.0;
  return m.engine_efficiency_coef / m.engine_efficiency;
}

double xreg_share(const Cost &c, const Machine &m) {
  // calibrate measures the x-shifts' gain on heat3d's and heat2d's stages only; himeno M's (12
  // coefficients, priced at eta_c) ran 0.69-0.82 of the prices heat3d's gain gave them, and
  // alternated, k=10,rows=64 with the shifts in registers 1.10-1.42e9 cells/s against 1.41-1.54e9
  // without (AMD EPYC VM, PERFORMANCE.md 2026-12-06 15:02). On 4-byte cells only: heat3d fp64
  // 510^3 with the shifts in registers ran no faster than without in two alternations (4 and 5
  // rounds, k=8,rows=64 and k=10,rows=48, each variant ahead in some rounds, behind in others)
  // where heat3d fp32's gain priced them 9% faster (PERFORMANCE.md 2026-12-06 17:39, 20:24).
  if (c.stages <= 0 || c.elem_bytes > 4 || coefficient_factor(c, m) != 1.0)
    return 0;
  return static_cast<double>(c.x_shift_stages) / c.stages;
}

namespace {

// A measured curve {x, y} in ascending x at `x`: linear between its points, its ends' y beyond.
double interpolate(const std::vector<std::array<double, 2>> &curve, double x) {
  if (x <= curve.front()[0])
    return curve.front()[1];
  for (std::size_t i = 1; i < curve.size(); ++i)
    if (x <= curve[i][0]) {
      const double f = (x - curve[i - 1][0]) / (curve[i][0] - curve[i - 1][0]);
      return curve[i - 1][1] + f * (curve[i][1] - curve[i - 1][1]);
    }
  return curve.back()[1];
}

} // namespace

double l3_stream_seconds(const Machine &m) {
  if (m.l3_bandwidth > 0 && m.l2_bandwidth > m.l3_bandwidth)
    return kL3StreamShare * (1 / m.l3_bandwidth - 1 / m.l2_bandwidth);
  // Without the load bandwidths: calibrate's kernel (8 flops per cell) streams four planes of
  // 4-byte cells, all from the L3 at F_3, all from the L2 at F.
  if (m.shared_cache_flops > 0 && m.shared_cache_flops < m.flops)
    return (8 / m.shared_cache_flops - 8 / m.flops) / 16;
  return 0;
}

double ring_flops(const Cost &c, const Machine &m, double ws, double l2_flops) {
  const double f = (l2_flops > 0 ? l2_flops : m.flops) * cpu_lanes(c);
  const double missed = (2 * c.radius + 1) * l2_miss(ws / (2 * c.radius + 1), m);
  const double tau = l3_stream_seconds(m) * l3_depth_factor(ws, m);
  if (missed <= 0 || !(tau > 0) || c.flops_per_cell <= 0)
    return f;
  const double t = c.flops_per_cell / f + std::max(1, c.stages) * missed * c.elem_bytes * tau;
  return c.flops_per_cell / t;
}

// Measured (PERFORMANCE.md, 2026-12-06): on the AMD EPYC VM heat3d fp32 510^3's rings of
// 9.6-29 MB a thread ran at 0.93-0.51 of their price in the whole L3, as a probe cycling rings
// of those sizes slowed (0.97-0.55); the step at the share priced them from memory at less
// than half what they ran. The whole rings set it for carried tiles too, which touch less of
// them: heat3d fp64 510^3's k=16 carried plans with rings of 13-15 MB ran 0.86 and 0.94 of
// their price slowed by what the carried tiles touch, 0.94 and 0.97 slowed by the rings whole.
double ring_slowdown(double ws, const Machine &m) {
  const auto &curve = m.l3_ring_curve;
  const double share = ring_share(m);
  if (curve.size() < 2 || ws <= share)
    return 1;
  const double at_share = std::max(interpolate(curve, share), 1e-3);
  return at_share / std::max(interpolate(curve, ws), 1e-3);
}

double ring_limit(const Machine &m) {
  const auto &curve = m.l3_ring_curve;
  const double share = ring_share(m);
  return curve.size() < 2 ? share : std::max(share, curve[curve.size() - 2][0]);
}

namespace {

// What a tile touches between two stages' reads of one coefficient plane (one plane-step):
// every ring gets a plane and every stage reads its own coefficient plane (rows + 2R(k - j) rows
// in a lone tile, rows in a carried one). step: the bytes that push the plane out of the L2
// (the rings' newest planes, ws / (2r+1)); touched: all it reads meanwhile (the rings whole).
struct CoefficientReuse {
  double step = 0, touched = 0;
};

CoefficientReuse coefficient_reuse(const Cost &c, int k, int rows, double ws, bool carried) {
  const double grids = std::round(c.readonly_bytes_per_cell / c.elem_bytes);
  const double row = (static_cast<double>(c.extent[0]) + 2 * c.radius) * c.elem_bytes;
  const double stages = static_cast<double>(k) * std::max(1, c.stages);
  const double plane_rows = carried ? rows : rows + static_cast<double>(c.step_radius) * (k - 1);
  const double planes = stages * grids * plane_rows * row;
  return {ws / (2 * c.radius + 1) + planes, ws + planes};
}

} // namespace

double coefficient_misses(const Cost &c, const Machine &m, int k, int rows, double lone, double ws,
                          double ws_carried) {
  const double grids = std::round(c.readonly_bytes_per_cell / c.elem_bytes);
  if (grids <= 0 || c.rank < 3 || m.shared_cache_bytes <= 0)
    return 1;
  return lone * l2_miss(coefficient_reuse(c, k, rows, ws, false).step, m) +
         (1 - lone) * l2_miss(coefficient_reuse(c, k, rows, ws_carried, true).step, m);
}

double coefficient_memory_share(double touched, const Machine &m) {
  // Measured (PERFORMANCE.md, 2026-12-06 07:00): on the AMD EPYC VM the probe's cyclic re-reads
  // left the L3 from 8-10 MB a thread (shares 0.09, 0.14, 0.32 at 12, 14, 20 MB), where the
  // ramp from M_3 / threads (16.8 MB) gave none; himeno M's deep plans needed 0.02, 0.12, 0.35.
  if (!m.l3_reuse_curve.empty())
    return interpolate(m.l3_reuse_curve, kCoefficientReach * touched);
  const double fits = m.shared_cache_bytes / std::max(1, m.threads);
  return fits > 0 ? std::clamp((touched - fits) / fits, 0.0, 1.0) : 1.0;
}

std::vector<std::array<double, 2>> reuse_shares(const std::vector<std::array<double, 2>> &rates) {
  if (rates.size() < 3)
    return {};
  const double r0 = std::max(rates[0][1], rates[1][1]), rm = rates.back()[1];
  if (!(rm > 0) || !(rm < r0))
    return {};
  std::vector<std::array<double, 2>> out;
  double share = 0;
  for (std::size_t i = 0; i + 1 < rates.size(); ++i) {
    const double s = rates[i][1] > 0 ? (1 / rates[i][1] - 1 / r0) / (1 / rm - 1 / r0) : 1.0;
    share = std::max(share, std::clamp(s, 0.0, 1.0));
    out.push_back({rates[i][0], share});
  }
  out.push_back({rates.back()[0], 1.0});
  return out;
}

std::vector<std::array<double, 2>> relative_rates(const std::vector<std::array<double, 2>> &rates) {
  if (rates.size() < 3)
    return {};
  const double r0 = std::max(rates[0][1], rates[1][1]);
  if (!(rates.back()[1] > 0) || !(rates.back()[1] < r0))
    return {};
  std::vector<std::array<double, 2>> out;
  double rel = 1;
  for (const auto &pt : rates) {
    rel = std::min(rel, std::max(0.0, pt[1] / r0));
    out.push_back({pt[0], rel});
  }
  return out;
}

double coefficient_seconds(const Cost &c, const Machine &m, int k, int rows, double lone, double ws,
                           double ws_carried) {
  const double l3 = m.l3_bandwidth > 0 ? m.l3_bandwidth : m.bandwidth;
  const double grids = std::round(c.readonly_bytes_per_cell / c.elem_bytes);
  if (grids <= 0 || c.rank < 3 || m.shared_cache_bytes <= 0)
    return 1 / l3;
  // The L3 holds the plane until its next reading while all the threads touch meanwhile fits
  // there (M_3 / threads each); past it the re-reads come from memory more and more, all of
  // them at twice the L3 (coefficient_memory_share).
  auto one = [&](double ws_tile, bool carried) {
    const CoefficientReuse u = coefficient_reuse(c, k, rows, ws_tile, carried);
    const double f = coefficient_memory_share(u.touched, m);
    return l2_miss(u.step, m) * ((1 - f) / l3 + f / sweep_bandwidth(m));
  };
  return lone * one(ws, false) + (1 - lone) * one(ws_carried, true);
}

double last_block_seconds(const Cost &c, const Machine &m, double cells) {
  if (c.steps < 1)
    return 0;
  return cells * c.dead_written_bytes_per_cell / sweep_bandwidth(m) / static_cast<double>(c.steps);
}

double effective_k(int k, std::int64_t steps) {
  if (steps < 1 || k < 1)
    return std::max(k, 1);
  const double blocks = std::ceil(static_cast<double>(steps) / k);
  return static_cast<double>(steps) / blocks;
}

int block_depth(int k, std::int64_t steps) {
  if (steps < 1 || k < 1)
    return std::max(k, 1);
  // The runtime's own split, so the price follows what run() executes.
  return static_cast<int>(stencilc::cpu::block_steps(steps, k));
}

double tail_factor(std::int64_t blocks, const Machine &m) {
  const double slots = static_cast<double>(std::max(1, m.sms) * std::max(1, m.max_blocks_per_sm));
  const double waves = std::ceil(static_cast<double>(blocks) / slots);
  return waves > 0 ? static_cast<double>(blocks) / (waves * slots) : 1.0;
}

double period(double t_inner, double t_boundary, double t_comm, bool overlap) {
  return overlap ? std::max(t_inner, t_comm) + t_boundary : t_inner + t_comm + t_boundary;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

const char *bound_of(double compute, double memory, double shared = 0, double comm = 0) {
  const double m = std::max({compute, memory, shared, comm});
  if (m == comm && comm > 0)
    return "communication";
  if (m == shared && shared > 0)
    return "shared memory";
  return m == memory ? "memory" : "compute";
}

// Bytes per cell a GPU tile moves per sweep: its input with the halo, its output without
// (written once: no write-allocate on a GPU).
double tile_bytes(const Cost &c, double halo) {
  const double read = c.bytes_per_cell - c.written_bytes_per_cell;
  // Without the split (a hand-made Cost), every read is taken to be at offsets.
  const double offsets = c.offset_read_bytes_per_cell > 0 ? c.offset_read_bytes_per_cell : read;
  return (read - offsets) + offsets * halo + c.written_bytes_per_cell / 2;
}

// Where data of `bytes` per thread lives on a CPU and the stencil rate there: 2 = the core's
// L2, 3 = its share of the L3, 0 = neither (memory).
struct CacheLevel {
  int level = 0;
  double flops = 0;
  double budget = 0; // bytes of the level it was checked against
};

// The stencil rate with `bytes` per thread past the L2 in an L3 budget of `l3` per thread:
// measured at both ends (calibrate), F in the L2 and F_L3 with a thread's share full; the more
// of it a thread fills, the more of its lines other cores and tenants evict.
double cpu_l3_flops(double bytes, double l3, const Machine &m) {
  const double f3 = m.shared_cache_flops > 0 ? m.shared_cache_flops : m.flops;
  const double x =
      l3 > m.cache_bytes ? std::min(1.0, (bytes - m.cache_bytes) / (l3 - m.cache_bytes)) : 1;
  return m.flops + (f3 - m.flops) * x;
}

CacheLevel cpu_level(double bytes, const Machine &m) {
  const double l3 = ring_share(m);
  if (bytes <= m.cache_bytes)
    return {2, m.flops, m.cache_bytes};
  // Past the share up to ring_limit, ring_flops slows the stages down by the ring probe's curve.
  if (bytes <= ring_limit(m))
    return {3, cpu_l3_flops(std::min(bytes, l3), l3, m), l3};
  return {0, 0, l3 > 0 ? ring_limit(m) : m.cache_bytes};
}

// The storage of every grid a step touches, each once (a hand-made Cost without the planner's
// footprint: its streamed bytes, a written cell once).
double footprint_bytes(const Cost &c, double cells) {
  const double per_cell = c.footprint_bytes_per_cell > 0
                              ? c.footprint_bytes_per_cell
                              : c.bytes_per_cell - c.written_bytes_per_cell / 2;
  return per_cell * cells;
}

// The grids of a whole step stay in cache between steps (`cells` cells, each grid's storage
// once: Cost::footprint_bytes_per_cell): then no sweep goes to memory and the in-cache rate
// bounds every plan. They are the threads' together, so the test is against the whole L3 (as
// calibrate measured it: all threads' buffers at speed), not a thread's share of it, which is
// what rings get beside the grids streaming past them. Measured: heat3d 150^3 fp32 (29 MB of
// 33.6) swept naively at 1.3 times memory's rate, poisson_rbgs 96^3 (4 fp64 grids, 28 MB) at
// 1.65 times (PERFORMANCE.md, 2026-12-03 06:36).
CacheLevel cpu_resident(const Cost &c, const Machine &m, double cells) {
  const double total = footprint_bytes(c, cells);
  const double per_thread = total / std::max(1, m.threads);
  if (per_thread <= m.cache_bytes)
    return {2, m.flops, m.cache_bytes};
  if (m.shared_cache_bytes <= 0 || total > m.shared_cache_bytes)
    return {0, 0, m.shared_cache_bytes > 0 ? m.shared_cache_bytes : m.cache_bytes};
  const double l3 = m.shared_cache_bytes / std::max(1, m.threads);
  return {3, cpu_l3_flops(per_thread, l3, m), m.shared_cache_bytes};
}

// The openmp temporal plan: tiles of whole x-rows streamed along the outer dimension. If a
// tile's rings fit in its thread's L2 or its share of the L3, a block of k steps reads the state
// once and writes it once (streaming stores: no read for ownership), coefficients
// stream at every stage, and the stages compute at that cache's rate; otherwise every stage
// streams from memory.
Prediction cpu_temporal(const Cost &c, const Machine &m, const Plan &p, double cells) {
  Prediction r;
  r.plan = p;
  // The blocks' depth: the rings and ghost zones of k steps where the run's blocks are shorter
  // (a run of 33 steps with k=16 runs blocks of 11).
  const int k = block_depth(p.k(), c.steps);
  // The engine's tiles (runtime tile_count): as even as the rows allow, the same number per
  // thread, consecutive; the largest sets the rings. A thread's first tile computes rows +
  // 2R(k - j) at stage j, its later ones are carried (only rows, taking 2R from the tile
  // before): the margins are computed twice where threads meet (carried_redundancy).
  const int threads = std::max(1, m.threads);
  const std::int64_t n1 = std::max<std::int64_t>(1, c.extent[1]);
  const std::int64_t tiles = stencilc::cpu::tile_count(n1, p.get<stencilc::scheme::CpuTemporal>()->rows, threads);
  const double rows_avg = static_cast<double>(n1) / static_cast<double>(tiles);
  const int rows = static_cast<int>((n1 + tiles - 1) / tiles);
  const bool carry = p.get<stencilc::scheme::CpuTemporal>()->carry;
  r.redundancy = c.rank == 3 && carry ? carried_redundancy(k, c.step_radius, n1, tiles, threads)
                                      : row_redundancy(k, c.step_radius, rows_avg);
  // Fewer rows than threads: the streamed dimension is cut into chunks too, whose ghost
  // planes are computed twice as well.
  if (c.rank == 3 && tiles < threads) {
    const std::int64_t chunks = std::min<std::int64_t>(c.extent[2], (threads + tiles - 1) / tiles);
    r.redundancy *= row_redundancy(k, c.step_radius, static_cast<double>(c.extent[2]) / chunks);
  }
  // The rings are sized for a lone tile (every thread's first); the carried tiles after it
  // touch only ws_carried of them, so fewer of their planes leave the L2. The stages' rate
  // mixes the two by tiles.
  const double ws = ring_working_set(c, k, rows);
  const double lone = c.rank == 3 && carry && tiles > threads
                          ? static_cast<double>(threads) / static_cast<double>(tiles)
                          : 1.0;
  const double ws_carried = lone < 1 ? ring_working_set(c, k, rows, true) : ws;
  // What a missed plane costs is the same bytes' whatever the vectors (tau from F and F_3).
  const auto &t = *p.get<stencilc::scheme::CpuTemporal>();
  const int vec = t.vec == 512 && !wide_priced(c) ? 256 : t.vec; // the width its rates are for
  const double f2 = stage_flops(m, vec, c.rank, t.xreg ? xreg_share(c, m) : 0) *
                    cell_size_factor(c, m) * coefficient_factor(c, m);
  CacheLevel at = cpu_level(ws, m);
  if (at.level > 0) {
    at.flops = 1 /
               (lone / ring_flops(c, m, ws, f2) + (1 - lone) / ring_flops(c, m, ws_carried, f2)) /
               ring_slowdown(ws, m); // the rings whole, carried tiles too (measured: ring_slowdown)
    at.level = at.flops < f2 * cpu_lanes(c) ? 3 : 2;
  }
  CacheLevel resident = cpu_resident(c, m, cells);
  resident.flops *= f2 / m.flops;
  // A run's blocks hold k steps or one fewer (the steps are shared out evenly).
  const double k_eff = effective_k(k, c.steps);
  const double state_read = c.bytes_per_cell - c.written_bytes_per_cell - c.readonly_bytes_per_cell;
  double t_state = 0, t_coefficients = 0, t_carry = 0;
  if (at.level > 0) {
    // A problem whose grids stay in cache gains nothing from rings there: its stages run at
    // the grids' cache rate, as naive sweeps do, and pay the redundant rows on top.
    r.t_compute = cells * c.flops_per_cell * r.redundancy /
                  (resident.level > 0 ? resident.flops * cpu_lanes(c) : at.flops);
    // Once per block from memory: the state, the results and the coefficients' first reading.
    // Results streamed to their shadows after each plane go without a read for ownership (half
    // of b_w); the last stage's, stored straight into the shadows, pay it (b_w whole): heat3d
    // 510^3's temporal plans with k = 2-16 measured 0.99-1.41 times the time the model gave
    // their stages once T_state was taken off, 0.94-1.19 with the read for ownership
    // (PERFORMANCE.md, 2026-12-05 06:55). Grids that would stay in cache are charged the same
    // (measured before the direct stores: heat3d 126x126x62, k=2, 16 rows at 0.48 of a naive
    // loop whose grids stay in the L3; conservative since).
    // A tile's first stage reads the state's rows under its widest ghost zone, rows read by
    // the neighbouring tile too, a whole sweep apart: from memory again (input_rows).
    t_state = cells *
              (state_read * input_rows(c, k, tiles, threads, rows_avg, carry) +
               (c.written_bytes_per_cell + c.direct_written_bytes_per_cell) / 2 +
               (resident.level == 0 ? c.readonly_bytes_per_cell : 0)) /
              k_eff / sweep_bandwidth(m);
    if (resident.level == 0) {
      // Every stage then reads the coefficients again: from the L2 if a plane-step left them
      // there (coefficient_misses), else from the L3 (its bandwidth B_3, memory's without one)
      // if the thread's share holds them until then, else from memory (coefficient_seconds).
      t_coefficients = cells * c.readonly_bytes_per_cell * r.redundancy *
                       coefficient_seconds(c, m, k, rows, lone, ws, ws_carried);
      // The carried rows go out to the thread's carry store and come back a whole tile later:
      // from memory, even where the store would fit the L3 (measured: the copies' share of a
      // heat3d 510^3 k=8, 16-row run moved its bytes at 24 GB/s, PERFORMANCE.md), in chunks too
      // short for the prefetchers (carry_seconds).
      t_carry = carry ? carry_seconds(c, m, k, tiles, rows_avg, cells) : 0;
    }
    r.t_memory = t_state + t_coefficients + t_carry;
    r.bound = bound_of(r.t_compute, r.t_memory);
    const double miss = lone * l2_miss(ws / (2 * c.radius + 1), m) +
                        (1 - lone) * l2_miss(ws_carried / (2 * c.radius + 1), m);
    const std::string touched =
        lone < 1 ? fmt::format(" ({:.2g} MB touched when carried)", ws_carried / 1e6) : "";
    if (m.shared_cache_bytes > 0 && miss > 0)
      r.note = fmt::format("rings {:.2g} MB per thread{}, {:.0f}% of their planes from L3",
                           ws / 1e6, touched, 100 * miss);
    else if (m.shared_cache_bytes > 0)
      r.note = fmt::format("rings {:.2g} MB per thread{} in L2", ws / 1e6, touched);
  } else {
    r.t_compute = cells * c.flops_per_cell * r.redundancy / (f2 * cpu_lanes(c));
    r.t_memory = cells * c.bytes_per_cell * r.redundancy / sweep_bandwidth(m);
    r.bound = "cache";
    r.note = m.shared_cache_bytes > 0
                 ? fmt::format("working set {:.2g} MB > {:.2g} MB of L3 per thread", ws / 1e6,
                               at.budget / 1e6)
                 : fmt::format("working set {:.2g} MB > cache {:.2g} MB", ws / 1e6,
                               m.cache_bytes / 1e6);
  }
  // Each row a stage computes costs t_row beyond its cells (the row function's call and its
  // vector loop's ends, the row's x ghosts, the engine's walk): heat3d with the same cells on
  // 126-cell rows ran k=8, 64 rows at 0.73 of its 510-cell rate, predicted equal without this
  // (PERFORMANCE.md, 2026-12-02 01:55). Compute, in both cases below.
  r.t_calls = calls_seconds(c, m, cells, rows_avg, threads);
  r.t_rows = rows_seconds(c, m, cells * r.redundancy, threads, vec) + r.t_calls;
  r.t_compute += r.t_rows;
  r.t_state = t_state;
  r.t_coefficients = t_coefficients;
  r.t_carry = t_carry;
  if (r.bound != "cache")
    r.bound = bound_of(r.t_compute, r.t_memory);
  // In cache, the state's trip through memory (the first stage reads new planes, results are
  // written) stalls the cores while they would compute: it adds (measured: PERFORMANCE.md).
  // So do the coefficients' re-reads: a stage's row loads a dozen coefficient rows from the L3
  // or memory beside its ring rows, more streams than the prefetchers cover (himeno M, k=6,
  // 32 rows: 1.8 ms per step more than the same kernel on constant coefficients, against
  // T_coef = 2.2 ms; PERFORMANCE.md, 2026-12-01 22:18). Spilled rings stream like naive
  // sweeps, where compute and memory overlap.
  const bool fits = r.bound != "cache";
  r.t_last = last_block_seconds(c, m, cells);
  r.seconds_per_step = (fits ? r.t_compute + t_coefficients + t_state + t_carry
                             : std::max(r.t_compute, r.t_memory)) +
                       m.barrier_seconds / k_eff + r.t_last;
  return r;
}

// The occupancy of a GPU kernel with ptxas's registers: below kSaturatingOccupancy its memory
// time grows in proportion; its spills add their bytes per point to the traffic. Returns the
// resident blocks per SM.
int registers_limit(const KernelRegisters &k, const Machine &m, int threads, double smem,
                    double cells, Prediction &r) {
  SmLimits sm;
  sm.registers_per_sm = m.registers_per_sm;
  sm.max_threads_per_sm = m.max_threads_per_sm;
  sm.shared_bytes_per_sm = static_cast<long>(m.shared_bytes_per_sm);
  const Occupancy o = occupancy(sm, k.registers, threads, static_cast<long>(smem));
  r.occupancy = o.fraction;
  if (o.blocks_per_sm == 0)
    return 0;
  r.t_memory = r.t_memory / std::min(1.0, o.fraction / kSaturatingOccupancy) +
               cells * k.spill_bytes / m.bandwidth;
  r.note = fmt::format("occupancy {:.0f}% ({} registers{}){}", 100 * o.fraction, k.registers,
                       o.limit == std::string("registers") ? ", the limit" : "",
                       k.spill_bytes > 0 ? fmt::format(", spills {:.0f} B", k.spill_bytes) : "");
  return o.blocks_per_sm;
}

// The GPU temporal plan (AN5D-style, codegen/gpu.cpp): a block of tx x ty threads, a column
// each, walks z and fuses k steps; step l is computed on (tx - 2lr) x (ty - 2lr) columns, the
// last on the block's output tile (tx - 2kr) x (ty - 2kr). Per block and plane it reads the
// state (the grid read at offsets) on the whole tile and 2r planes more, the coefficients on
// the first step's columns, and writes the output tile of the swapped grid, all cut at the
// grid's edges: global_bytes per cell-update. In
// shared memory, rings of 2r+1 planes of the tile for steps 0..k-1; every computed cell loads
// the state's reads from them (only those at an x or y offset when the kernel reads no other
// grid: its own column is then in registers) and stores its value, every loaded cell is
// stored once.
Prediction gpu_temporal(const Cost &c, const Machine &m, const Plan &p, double cells) {
  Prediction r;
  r.plan = p;
  const auto &g = *p.get<stencilc::scheme::GpuTemporal>();
  const int k = std::max(1, g.k), rad = c.radius;
  // Rank 2: blocks are rows of x (tile_y 1) walking y; rank 3: x-y tiles walking z.
  const bool three = c.rank == 3;
  const double tx = g.tile_x, ty = three ? g.tile_y : 1.0, ox = tx - 2.0 * k * rad,
               oy = three ? ty - 2.0 * k * rad : 1.0;
  const auto refuse = [&](std::string bound, std::string note) {
    r.seconds_per_step = kInf;
    r.bound = std::move(bound);
    r.note = std::move(note);
    return r;
  };
  if (c.rank != 2 && c.rank != 3)
    return refuse("n/a", "the temporal GPU plan walks the last dimension of rank 2 or 3");
  if (!three && g.tile_y != 1)
    return refuse("n/a", "a rank-2 kernel's blocks are rows of x (tile=TXx1)");
  if (ox < 1 || oy < 1)
    return refuse("n/a",
                  fmt::format("a {}x{} block keeps no cell after {} steps", g.tile_x, g.tile_y, k));
  // The last step of a run is an ordinary one (docs/GPU.md): a block never fuses more.
  if (c.steps > 0 && k > c.steps - 1)
    return refuse("n/a",
                  fmt::format("k={} fuses more than the run's {} steps less the last", k, c.steps));
  const double out = ox * oy;
  // ny: the tiled y (1 for rank 2); nz: the walked dimension.
  const double nx = static_cast<double>(c.extent[0]);
  const double ny = three ? static_cast<double>(c.extent[1]) : 1.0;
  const double nz = static_cast<double>(c.extent[c.rank - 1]);
  r.redundancy = three ? redundancy(k, rad, static_cast<int>(ox), static_cast<int>(oy))
                       : row_redundancy(k, rad, ox);
  // Cells per dimension the blocks of output width o touch, reaching `reach` beyond their output
  // and cut at `edge` beyond the interior (ghost cells: the state's halo, which is r; the
  // interior: 0): what the edge blocks leave out matters on small grids.
  const auto touched = [](double n, double o, double reach, double edge) {
    double sum = 0;
    for (double b = 0; b * o < n; ++b)
      sum += std::max(0.0, std::min(b * o + o + reach, n + edge) - std::max(b * o - reach, -edge));
    return sum;
  };
  const auto area = [&](double reach, double edge) {
    return touched(nx, ox, reach, edge) * (three ? touched(ny, oy, reach, edge) : 1.0) / (nx * ny);
  };
  const double state = area(k * rad, rad), first = area((k - 1.0) * rad, 0);
  // The walked dimension: a block's chunk of cz output planes (all nz without one) loads k r
  // planes of the state beyond each end (cut at the ghost planes) and computes level l on
  // (k - l) r more (cut at the interior's ends).
  const double cz = g.chunk > 0 && g.chunk < nz ? g.chunk : nz;
  const double z_state = touched(nz, cz, k * rad, rad) / nz;
  const double z_first = touched(nz, cz, (k - 1.0) * rad, 0) / nz;
  double z_levels = 0;
  for (int l = 1; l <= k; ++l)
    z_levels += touched(nz, cz, (k - l) * static_cast<double>(rad), 0) / nz / k;
  r.redundancy *= z_levels;
  r.global_bytes =
      (c.offset_read_bytes_per_cell * state * z_state +
       c.centre_read_bytes_per_cell * first * z_first + c.swapped_written_bytes_per_cell) /
      k;
  r.t_memory = cells * r.global_bytes / m.bandwidth;
  r.t_compute = cells * c.flops_per_cell * r.redundancy / m.flops;
  const double smem = k * (2.0 * rad + 1) * tx * ty * c.elem_bytes;
  if (smem > m.shared_bytes_per_block)
    return refuse("shared memory", fmt::format("needs {:.0f} KB of shared memory per block, has "
                                               "{:.0f} KB",
                                               smem / 1024, m.shared_bytes_per_block / 1024));
  // (codegen/gpu.cpp keeps the column in registers up to 5 fused steps: kMaxRegisterFused.)
  const double shared_loads =
      c.single_array && k <= 5 ? c.xy_loads_per_cell : c.offset_loads_per_cell;
  r.t_shared = cells * c.elem_bytes *
               ((shared_loads + 1) * r.redundancy + tx * ty / (out * k) * z_state) /
               m.shared_bandwidth;
  // Resident blocks per SM: the profile's limit, the shared memory and the threads an SM holds,
  // and with ptxas's figures for the kernel this k runs, its registers.
  Machine resident = m;
  const auto known = c.temporal_kernels.find(c.single_array && k <= 5 ? k : 0);
  int by_registers = m.max_blocks_per_sm;
  if (known != c.temporal_kernels.end() && known->second.registers > 0) {
    by_registers = registers_limit(known->second, m, static_cast<int>(tx * ty), smem, cells, r);
    if (by_registers == 0)
      return refuse("registers", fmt::format("{} registers x {} threads do not fit an SM",
                                             known->second.registers, g.tile_x * g.tile_y));
  }
  int blocks = std::min(
      {m.max_blocks_per_sm, by_registers, static_cast<int>(m.max_threads_per_sm / (tx * ty))});
  if (m.shared_bytes_per_sm > 0) // (0: the profile gives the per-block limit only)
    blocks = std::min(blocks, static_cast<int>(m.shared_bytes_per_sm / smem));
  resident.max_blocks_per_sm = std::max(1, blocks);
  const double bx = std::ceil(nx / ox), by = std::ceil(ny / oy), bz = std::ceil(nz / cz);
  const double tf = tail_factor(static_cast<std::int64_t>(bx * by * bz), resident);
  r.seconds_per_step = std::max({r.t_compute, r.t_memory, r.t_shared}) / tf +
                       m.launch_seconds / effective_k(k, c.steps);
  r.bound = bound_of(r.t_compute, r.t_memory, r.t_shared);
  r.note =
      fmt::format("{}x{} cells per block, {} per SM{}", static_cast<int>(ox), static_cast<int>(oy),
                  resident.max_blocks_per_sm, r.note.empty() ? "" : "; " + r.note);
  if (tf < 0.999)
    r.note += fmt::format("; last wave {:.0f}% full", tf * 100);
  return r;
}

// One device (CPU node or GPU) computing `cells` cells per step with the given scheme.
Prediction device(const Cost &c, const Machine &m, const Plan &p, double cells) {
  Prediction r;
  r.plan = p;
  const int rad = c.radius;
  if (p.naive()) {
    // A GPU moves each input and output once, times the re-reads of neighbours that miss L2.
    const double bytes =
        m.kind == "gpu" ? gpu_min_bytes(c) * m.naive_traffic_factor : cpu_sweep_bytes(c);
    r.t_compute = cells * c.flops_per_cell / (m.kind == "gpu" ? m.flops : m.flops * cpu_lanes(c));
    // A CPU sweep streams all its grids at once, and memory slows past a few streams; grids a
    // little past the L3 still come partly from it.
    const double spill = m.kind == "gpu" ? 1.0 : l3_spill_gain(m, footprint_bytes(c, cells));
    r.t_memory =
        cells * bytes /
        (m.kind == "gpu" ? m.bandwidth : sweep_bandwidth(c, m) * spill / streams_factor(c, m));
    if (m.kind == "gpu") {
      r.global_bytes = bytes;
      if (c.naive_kernel.registers > 0)
        registers_limit(c.naive_kernel, m, kNaiveGpuThreads, 0, cells, r);
    }
    // CPU grids that stay in the L2s or the L3 between steps: the sweep runs at that cache's
    // stencil rate and nothing streams from memory.
    const CacheLevel resident = m.kind == "gpu" ? CacheLevel{} : cpu_resident(c, m, cells);
    if (m.kind != "gpu") {
      double rate = (resident.level > 0 ? resident.flops : m.flops) * cpu_lanes(c);
      // Unless the grids stay in the L2s, a sweep re-reads the planes of its outer dimension
      // it read 1..2r planes before, as a ring's stage does (§3.3): those the plane-steps in
      // between pushed out of the L2 come from the L3 (a 4D sweep's hyperplanes do).
      if (resident.level != 2) {
        const double plane = (c.bytes_per_cell - c.written_bytes_per_cell / 2) /
                             std::max(1, c.stages) * cells /
                             static_cast<double>(std::max<std::int64_t>(1, c.extent[c.rank - 1]));
        rate = std::min(rate, ring_flops(c, m, (2 * c.radius + 1) * plane));
      }
      // Each x-row costs t_row beyond its cells, as a temporal stage's (T_rows, §3.3).
      r.t_rows = rows_seconds(c, m, cells, m.threads);
      r.t_compute = cells * c.flops_per_cell / rate + r.t_rows;
      if (resident.level > 0) {
        r.t_memory = 0;
        if (m.shared_cache_bytes > 0)
          r.note = fmt::format("grids in L{}", resident.level);
      } else if (spill > 1) {
        r.note = fmt::format("grids partly in L3 ({:.2f}x memory's rate)", spill);
      }
    }
    // The ghost fills and reductions of a CPU step stream beside the sweep, not under it
    // (boundary.h's fills, the reductions' loops), from where the grids live.
    if (m.kind != "gpu") {
      const double level_bandwidth = resident.level == 2 && m.l2_bandwidth > 0 ? m.l2_bandwidth
                                     : resident.level == 3 && m.l3_bandwidth > 0
                                         ? m.l3_bandwidth
                                         : sweep_bandwidth(c, m) * spill;
      // Their rows cost t_row each, as a sweep's do: gt5d_4d 32^4's x-face copies (4 cells a
      // row) and sum (32 a row) took 16-18 ns a row per thread, 2.6-4x their bytes' time
      // (PERFORMANCE.md, 2026-12-05 01:21).
      r.t_extra =
          std::max(cells * (c.fill_bytes_per_cell + c.reduce_bytes_per_cell) / level_bandwidth,
                   cells * c.extra_rows_per_cell * m.row_seconds / std::max(1, m.threads));
    }
    r.seconds_per_step = std::max(r.t_compute, r.t_memory) + r.t_extra +
                         (m.kind == "gpu" ? m.launch_seconds : m.barrier_seconds);
    r.bound = bound_of(r.t_compute, r.t_memory);
    return r;
  }
  // A blocked scheme runs on the kind of device it was made for; on the other, it does not apply.
  const bool gpu_scheme = !p.get<stencilc::scheme::CpuTemporal>();
  if (gpu_scheme != (m.kind == "gpu")) {
    r.seconds_per_step = kInf;
    r.bound = "n/a";
    r.note = fmt::format("a {} plan on a {} profile", gpu_scheme ? "GPU" : "CPU", m.kind);
    return r;
  }
  if (!gpu_scheme)
    return cpu_temporal(c, m, p, cells);
  if (p.get<stencilc::scheme::GpuTemporal>())
    return gpu_temporal(c, m, p, cells);
  const int k = p.k();
  int tx = 0, ty = 0, chunk = 0;
  if (const auto *s = p.get<stencilc::scheme::GpuStreaming>()) {
    tx = s->tile_x;
    ty = s->tile_y;
    chunk = s->chunk;
  }
  // A block walks cz planes of the third dimension (its chunk, or all nz of them) and loads
  // rad more on each side: chunks trade that traffic for more blocks in flight.
  const double nz = c.rank >= 3 ? static_cast<double>(c.extent[2]) : 1.0;
  const double cz = chunk > 0 && chunk < nz ? chunk : nz;
  const double halo = (tx + 2.0 * rad * k) * (ty + 2.0 * rad * k) / (static_cast<double>(tx) * ty) *
                      (c.rank >= 3 ? (cz + 2.0 * rad) / cz : 1.0);
  r.redundancy = redundancy(k, rad, tx, ty);
  r.t_compute = cells * c.flops_per_cell * r.redundancy / m.flops;
  // GPU 2.5D streaming (k = 1) and temporal blocking of degree k: blocks of tx x ty stream
  // along the outer dimension; planes of every level live in shared memory.
  const double smem = (2.0 * rad + 1) * k * (tx + 2.0 * rad * k) * (ty + 2.0 * rad * k) *
                      c.elem_bytes * c.grids;
  if (smem > m.shared_bytes_per_block) {
    r.seconds_per_step = kInf;
    r.bound = "shared memory";
    r.note = fmt::format("needs {:.0f} KB of shared memory per block, has {:.0f} KB",
                         smem / 1024, m.shared_bytes_per_block / 1024);
    return r;
  }
  const double bx = std::ceil(static_cast<double>(c.extent[0]) / tx);
  const double by = std::ceil(static_cast<double>(c.rank > 1 ? c.extent[1] : 1) / ty);
  r.global_bytes = tile_bytes(c, halo) / k;
  r.t_memory = cells * r.global_bytes / m.bandwidth;
  // With ptxas's registers, the resident blocks per SM come from the occupancy calculator.
  Machine resident = m;
  if (c.stream_kernel.registers > 0) {
    const int blocks_per_sm = registers_limit(c.stream_kernel, m, tx * ty, smem, cells, r);
    if (blocks_per_sm == 0) {
      r.seconds_per_step = kInf;
      r.bound = "registers";
      r.note = "a block does not fit an SM";
      return r;
    }
    resident.max_blocks_per_sm = blocks_per_sm;
  }
  const double bz = std::ceil(nz / cz) * (c.rank == 4 ? static_cast<double>(c.extent[3]) : 1.0);
  const double tf = tail_factor(static_cast<std::int64_t>(bx * by * bz), resident);
  r.t_shared = cells * c.loads_per_cell * c.elem_bytes * r.redundancy / m.shared_bandwidth;
  r.seconds_per_step = std::max({r.t_compute, r.t_memory, r.t_shared}) / tf +
                       m.launch_seconds / k;
  r.bound = bound_of(r.t_compute, r.t_memory, r.t_shared);
  if (tf < 0.999)
    r.note += fmt::format("{}last wave {:.0f}% full", r.note.empty() ? "" : "; ", tf * 100);
  return r;
}

// What one rank of `ranks` has of a machine profile. Ranks are packed onto nodes of the
// profile's cores, as mpirun places them by default: a CPU node's compute, memory bandwidth and
// shared cache are divided between the ranks on it (at most one per core); a GPU serves one.
Machine rank_share(const Machine &m, int ranks) {
  if (m.kind == "gpu")
    return m;
  const int per_node = std::clamp(ranks, 1, std::max(1, m.threads));
  Machine r = m;
  r.flops /= per_node;
  r.bandwidth /= per_node;
  r.sweep_bandwidth /= per_node;
  r.shared_cache_bytes /= per_node;
  r.shared_cache_flops /= per_node;
  r.wide_flops /= per_node;
  r.peak_flops /= per_node;
  r.l1_bandwidth /= per_node;
  r.l2_bandwidth /= per_node;
  r.l3_bandwidth /= per_node;
  r.threads = std::max(1, m.threads / per_node);
  return r;
}

// overlap=host (mpi-cuda, mpi-hip): the device computes the block's interior (k r from every
// face: the cells its k steps compute without ghost cells) while the host's cores exchange the
// ghost cells and compute the shell around it from the host's copies (codegen/gpu.cpp
// host_split_sweep, host_split_block). The naive plan (k = 1): the ring just inside the shell
// comes to the host first (d2h: the bytes of a staged refresh's faces, t_face), the ghost cells
// and the shell go back (h2d: twice those). The temporal plan (k fused steps): the host
// computes level j on the block widened by (k - j) r at faces between blocks, minus the box
// k r + (k - j) r from every face, from level 0 read within 2 k r (d2h: 2 t_face); the shell
// goes back (h2d: t_face). So, per exchange period,
//   T = d2h + max(inner, mpi + boundary + h2d) + one launch,
// inner at the device's per-cell time tau_dev, the boundary at the host's F and B (the
// profile's host_flops, host_bandwidth). Not offered without them (or without a link).
Prediction host_split(const Cost &c, const Machine &m, Prediction r, const std::array<double, 4> &n,
                      const std::array<int, 4> &procs, int k, int rad, double tau_dev,
                      double t_face, double t_mpi) {
  const int dims = std::min(c.rank, 4);
  auto box = [&](double margin, double widen) { // cells of the block widened, less a margin
    double v = 1;
    for (int d = 0; d < dims; ++d)
      v *= std::max(0.0, n[d] + (procs[d] > 1 ? 2 * widen : 0.0) - 2 * margin);
    return v;
  };
  const double interior = box(1.0 * k * rad, 0);
  double host_cells = 0;
  for (int j = 1; j <= k; ++j) {
    const double w = static_cast<double>(k - j) * rad;
    double inner = 1; // the box m + w from every face of the block itself
    for (int d = 0; d < dims; ++d)
      inner *= std::max(0.0, n[d] - 2 * (1.0 * k * rad + w));
    host_cells += box(0, w) - inner;
  }
  const double tau_host =
      m.host_flops > 0 && m.host_bandwidth > 0
          ? std::max(c.flops_per_cell / m.host_flops, c.bytes_per_cell / m.host_bandwidth)
          : kInf;
  r.t_inner = interior * k * tau_dev;
  r.t_boundary = host_cells * tau_host;
  r.t_d2h = (k == 1 ? 1 : 2) * t_face;
  r.t_h2d = (k == 1 ? 2 : 1) * t_face;
  r.t_mpi = t_mpi;
  const double host = t_mpi + r.t_boundary + r.t_h2d;
  const double period = r.t_d2h + std::max(r.t_inner, host) + m.launch_seconds;
  r.seconds_per_step = period / k;
  r.t_compute = (r.t_inner + r.t_boundary) / k;
  r.t_comm = (r.t_d2h + t_mpi + r.t_h2d) / k;
  double block = 1;
  for (int d = 0; d < dims; ++d)
    block *= n[d];
  r.redundancy = (interior * k + host_cells) / std::max(1.0, block * k);
  r.bound = host > r.t_inner ? (r.t_boundary > t_mpi + r.t_h2d ? "host" : "communication")
                             : (c.flops_per_cell / m.flops >= tau_dev ? "compute" : "memory");
  return r;
}

// MPI: ranks own boxes of the domain; every k steps they exchange ghosts k*r deep and then
// compute k steps, the ghost zone shrinking by r each step (redundant work at the edges).
Prediction distributed(const Cost &c, const Machine &node, const Plan &p) {
  Prediction r;
  r.plan = p;
  const stencilc::Distribution &dist = *p.distribution;
  const Machine m = rank_share(node, dist.procs[0] * dist.procs[1] * dist.procs[2] * dist.procs[3]);
  // Ghosts k steps deep: each step reaches as far as its kernel calls together.
  const int k = dist.k, rad = std::max(c.radius, c.halo_per_step);
  // Each rank's block: n cells per dimension (the largest block of an uneven split).
  std::array<double, 4> n{1, 1, 1, 1};
  for (int d = 0; d < std::min(c.rank, 4); ++d)
    n[d] = std::ceil(static_cast<double>(c.extent[d]) / dist.procs[d]);
  // Per-cell time of the device in this rank (its roofline).
  const double traffic = m.kind == "gpu" ? m.naive_traffic_factor : 1.0;
  const double tau =
      std::max(c.flops_per_cell / m.flops, c.bytes_per_cell * traffic / m.bandwidth);
  double inner = 1, cells_total = 0;
  for (int d = 0; d < 4; ++d)
    inner *= std::max(0.0, n[d] - (dist.procs[d] > 1 ? 2.0 * k * rad : 0.0));
  for (int j = 1; j <= k; ++j) {
    double cj = 1;
    for (int d = 0; d < 4; ++d)
      cj *= n[d] + (dist.procs[d] > 1 ? 2.0 * rad * (k - j) : 0.0);
    cells_total += cj;
  }
  double t_inner = inner * k * tau;
  double tau_dev = tau; // the device's time per cell-update (overlap=host's interior)
  double t_boundary = (cells_total - inner * k) * tau;
  if (p.get<stencilc::scheme::CpuTemporal>() || p.get<stencilc::scheme::GpuTemporal>()) {
    // The CPU engine (mpi-openmp) or the GPU's fused steps (mpi-cuda, mpi-hip) inside the
    // rank: k steps over the block widened by k*r per split face, priced as the temporal plan of
    // one process on a grid of that size (its own tiles' ghost zones included). The widened part is
    // the redundant work at the block's edges.
    Cost wide = c;
    for (int d = 0; d < std::min(c.rank, 3); ++d)
      wide.extent[d] = static_cast<std::int64_t>(n[d]) + (dist.procs[d] > 1 ? 2 * k * rad : 0);
    Plan local;
    local.scheme = p.scheme;
    const double per_step = device(wide, m, local, wide.cells()).seconds_per_step;
    tau_dev = per_step / std::max(1.0, wide.cells());
    const double share = inner * k / std::max(1.0, cells_total);
    t_inner = per_step * k * share;
    t_boundary = per_step * k * (1 - share);
  }
  double t_mpi = 0;
  for (int d = 0; d < 4; ++d) {
    if (dist.procs[d] <= 1)
      continue;
    double face = k * rad * c.elem_bytes * c.grids;
    for (int e = 0; e < 4; ++e)
      if (e != d)
        face *= n[e] + (dist.procs[e] > 1 ? 2.0 * k * rad : 0.0);
    t_mpi += 2 * (m.net_latency + face / m.net_bandwidth);
  }
  // Staged through the host (W_link > 0): a ghost refresh copies the faces of every dimension
  // the halo has to the host and the ghost cells back (DeviceGrid::download_faces,
  // upload_halo), each face spanning the ghost-extended block in the other dimensions.
  double link_bytes = 0;
  if (m.link_bandwidth > 0)
    for (int d = 0; d < std::min(c.rank, 4); ++d) {
      double face = k * rad * c.elem_bytes * c.grids;
      for (int e = 0; e < std::min(c.rank, 4); ++e)
        if (e != d)
          face *= n[e] + 2.0 * k * rad;
      link_bytes += 2 * face;
    }
  const double t_d2h = m.link_bandwidth > 0 ? link_bytes / m.link_bandwidth : 0.0;
  const double t_comm = t_d2h + t_mpi + t_d2h;
  // A GPU sweep under overlap: the interior, then the shell as up to two boxes per dimension.
  double launch =
      m.kind == "gpu" ? m.launch_seconds * (dist.overlap ? 1 + 2 * c.rank : 1) : m.barrier_seconds;
  if (m.kind != "gpu" && dist.overlap) {
    // The CPU sweep with the exchange in flight (stencilc::mpi::overlapped_sweep): 8 slabs of
    // the interior, then the shell as two boxes per dimension from the first split one on (the
    // faces before it are filled before the sweep starts), each a parallel loop of its own.
    int first_split = std::min(c.rank, 4);
    for (int d = std::min(c.rank, 4) - 1; d >= 0; --d)
      if (dist.procs[d] > 1)
        first_split = d;
    launch *= 8 + 2 * (c.rank - first_split);
  }
  if (dist.host && m.kind == "gpu")
    return host_split(c, m, r, n, dist.procs, k, rad, tau_dev, t_d2h, t_mpi);
  const double t_period = period(t_inner, t_boundary, t_comm, dist.overlap) + launch * k;
  r.seconds_per_step = t_period / k;
  r.t_compute = (t_inner + t_boundary) / k;
  r.t_comm = t_comm / k;
  r.t_inner = t_inner;
  r.t_boundary = t_boundary;
  r.t_d2h = r.t_h2d = t_d2h;
  r.t_mpi = t_mpi;
  r.redundancy = cells_total / std::max(1.0, n[0] * n[1] * n[2] * n[3] * k);
  // Communication bounds the period when it is on the critical path: with overlap, when it
  // outlasts the inner region; without, when it takes longer than the computing.
  const bool comm_bound = dist.overlap ? t_comm > t_inner : t_comm > t_inner + t_boundary;
  r.bound = comm_bound ? "communication"
                       : (c.flops_per_cell / m.flops >= tau ? "compute" : "memory");
  return r;
}

} // namespace

Prediction predict(const Cost &c, const Machine &m, const Plan &p) {
  if (p.distribution)
    return distributed(c, m, p);
  return device(c, m, p, c.cells());
}

namespace {

// The CPU temporal plan's depths offered, on one process and per rank.
constexpr int temporal_depths[] = {2, 3, 4, 6, 8, 10, 12, 16};

// The GPU temporal plans offered (AN5D): fused steps up to 10 over tiles of the cuda target's
// sizes (rank 2: rows of x walking y), blocks over all of the walked dimension (`walked` cells
// long) or over chunks of it.
template <class Add> void for_each_gpu_temporal(const Cost &c, std::int64_t walked, Add &&add) {
  const auto tiles =
      c.rank == 2
          ? std::vector<std::pair<int, int>>{{128, 1}, {256, 1}, {512, 1}, {1024, 1}}
          : std::vector<std::pair<int, int>>{{32, 8}, {32, 16}, {32, 32}, {64, 8}, {64, 16}};
  for (int k : {2, 3, 4, 6, 8, 10})
    for (auto [tx, ty] : tiles)
      for (int chunk : {0, 64, 128})
        if (chunk == 0 || chunk < walked)
          add(stencilc::scheme::GpuTemporal{k, tx, ty, chunk});
}

// Row counts per tile offered for `ny` rows of dimension 1 (a rank's own): row counts that give
// the engine the same tiles (tile_count) are one plan, the smallest of them stands for it.
std::vector<int> cpu_tile_rows(const Cost &c, const Machine &m, std::int64_t ny) {
  std::vector<int> out;
  std::set<std::int64_t> tilings;
  for (int rows : c.rank == 3 ? std::vector<int>{8, 16, 32, 48, 64, 96, 128, 160, 192, 256}
                              : std::vector<int>{64, 256, 1024})
    if (rows <= ny &&
        tilings.insert(stencilc::cpu::tile_count(ny, rows, std::max(1, m.threads))).second)
      out.push_back(rows);
  return out;
}

} // namespace

// A near tie on a CPU goes to the naive sweep: on an AMD EPYC VM the temporal plans measured
// 0.55-0.75 of their predictions where naive sweeps of grids in cache measured 0.95, and a grid
// in the L3 had temporal predicted 0.8% ahead and measured at 0.67 of naive.
void prefer_naive(std::vector<Prediction> &sorted, const Machine &m) {
  if (m.kind == "gpu" || sorted.empty() || sorted.front().plan.naive())
    return;
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    if (!sorted[i].plan.naive())
      continue;
    if (sorted[i].seconds_per_step <= sorted.front().seconds_per_step * (1 + kNaiveMargin)) {
      Prediction naive = sorted[i];
      naive.note += fmt::format("{}chosen: temporal plans predicted under {:.0f}% faster",
                                naive.note.empty() ? "" : "; ", 100 * kNaiveMargin);
      sorted.erase(sorted.begin() + static_cast<std::ptrdiff_t>(i));
      sorted.insert(sorted.begin(), naive);
    }
    return;
  }
}

std::vector<Prediction> candidates(const Cost &c, const Machine &m,
                                   const stencilc::PlanRules &rules, int ranks) {
  namespace sch = stencilc::scheme;
  std::vector<Plan> plans;
  auto add = [&](Plan::Scheme scheme) {
    Plan p;
    p.scheme = scheme;
    plans.push_back(p);
  };
  if (rules.distributed) {
    // Process grids: every factorisation of `ranks` over the grid's dimensions.
    const int dims = std::min(c.rank, 4);
    std::vector<std::array<int, 4>> grids;
    for (int px = 1; px <= ranks; ++px)
      for (int py = 1; py <= ranks / px; ++py)
        for (int pz = 1; pz <= ranks / px / py; ++pz) {
          if (ranks % (px * py * pz))
            continue;
          const std::array<int, 4> g{px, py, pz, ranks / (px * py * pz)};
          bool within = true;
          for (int d = 0; d < 4; ++d)
            within = within && (g[d] == 1 || (d < dims && !((c.whole_dims >> d) & 1u)));
          if (within)
            grids.push_back(g);
        }
    // overlap=host where the profile knows the host's cores and the host-device link.
    const bool host_known = rules.platform == stencilc::Platform::Gpu && m.host_flops > 0 &&
                            m.host_bandwidth > 0 && m.link_bandwidth > 0;
    for (const auto &procs : grids) {
      const int px = procs[0];
      // Ghosts k*r deep must come from the nearest neighbour's own cells.
      const auto halo_fits = [&](int k) {
        for (int d = 0; d < dims; ++d)
          if (procs[d] > 1 && static_cast<std::int64_t>(k) * std::max(c.radius, c.halo_per_step) >
                                  c.extent[d] / procs[d])
            return false;
        return true;
      };
      for (int k : {1, 2, 3, 4, 6, 8})
        for (bool overlap : {false, true}) {
          bool fits = halo_fits(k);
          // On a CPU the exchange is in flight during naive sweeps only (k = 1), which then
          // compute their shell as boxes; a split x makes two of them rows of a cell or two,
          // which a barrier count does not price: not offered.
          if (overlap && rules.platform == stencilc::Platform::Cpu &&
              (k > 1 || (c.rank > 1 && px > 1)))
            fits = false;
          if (!fits)
            continue;
          add(sch::Naive{});
          plans.back().distribution = stencilc::Distribution{procs, k, overlap};
          // GPU: the host's cores on the boundary region (overlap=host).
          if (overlap && k == 1 && host_known) {
            add(sch::Naive{});
            plans.back().distribution = stencilc::Distribution{procs, k, true, true};
          }
        }
      // GPU: the device's fused steps inside each rank on halos k steps deep, exchanged
      // blocking, while the block's interior runs (overlap=on), or with the host's cores on the
      // shell's levels (overlap=host), as the naive plan is offered.
      if (rules.platform == stencilc::Platform::Gpu && (c.rank == 2 || c.rank == 3))
        for_each_gpu_temporal(c, c.extent[c.rank - 1] / procs[c.rank - 1], [&](sch::GpuTemporal t) {
          if (!halo_fits(t.k))
            return;
          for (int mode = 0; mode < (host_known ? 3 : 2); ++mode) {
            add(t);
            plans.back().distribution = stencilc::Distribution{procs, t.k, mode > 0, mode == 2};
          }
        });
      // CPU: the engine's temporal plan inside each rank, on halos k steps deep, with the
      // depths and tiles a single process is offered (tiles cut the rank's own rows).
      if (rules.platform == stencilc::Platform::Cpu && (c.rank == 2 || c.rank == 3))
        for (int k : temporal_depths) {
          if (!halo_fits(k))
            continue;
          for (int rows : cpu_tile_rows(c, m, c.extent[1] / procs[1])) {
            add(sch::CpuTemporal{k, rows, 0});
            plans.back().distribution = stencilc::Distribution{procs, k, false};
          }
        }
    }
  } else if (rules.platform == stencilc::Platform::Cpu) {
    add(sch::Naive{});
    // A depth whose run is a shallower one's blocks (k=10 and k=12 over 16 steps both run 2
    // blocks of 8, as k=8 does) is the same plan again: offered once, at the smallest k.
    std::set<int> depths;
    if (c.rank == 2 || c.rank == 3)
      for (int k : temporal_depths) {
        if (!depths.insert(block_depth(k, c.steps)).second)
          continue;
        for (int rows : cpu_tile_rows(c, m, c.extent[1])) {
          // Row functions on 512-bit vectors, where calibrate measured them faster; tiles not
          // carried, where a thread has more than one to carry.
          const bool carries = c.rank == 3 && stencilc::cpu::tile_count(
                                                  std::max<std::int64_t>(1, c.extent[1]), rows,
                                                  std::max(1, m.threads)) > std::max(1, m.threads);
          // And with x-shifts in registers, where kernels have them and calibrate measured
          // them faster.
          const double xreg = xreg_share(c, m);
          auto shifts = [&](int vec) {
            return xreg > 0 && stage_flops(m, vec, c.rank, xreg) > stage_flops(m, vec, c.rank);
          };
          for (int vec : {256, 512})
            for (bool carry : {true, false})
              if ((vec == 256 ||
                   (wide_priced(c) && stage_flops(m, 512, c.rank) > stage_flops(m, 256, c.rank))) &&
                  (carry || carries)) {
                add(sch::CpuTemporal{k, rows, 0, vec, carry});
                if (shifts(vec))
                  add(sch::CpuTemporal{k, rows, 0, vec, carry, true});
              }
        }
      }
  } else {
    add(sch::Naive{});
    // Streaming blocks over all of z, or over chunks of it (points per thread) when the
    // columns of tiles alone leave SMs idle.
    for (auto [tx, ty] : {std::pair{32, 4}, {32, 8}, {32, 16}, {64, 4}, {64, 8}})
      for (int chunk : {0, 16, 32, 64, 128})
        if (chunk == 0 || (c.rank >= 3 && chunk < c.extent[2]))
          add(sch::GpuStreaming{tx, ty, chunk});
    // Fused steps up to 10, as AN5D: blocks keep (tx - 2kr) x (ty - 2kr) cells. A block of
    // 1024 threads launches only with at most 64 registers per thread: the samples' temporal
    // kernels need at most 48 (nvcc, sm_80 and sm_90); with ptxas's figures (explain --ptxas)
    // the registers decide (gpu_temporal), without them a kernel that needs more fails to
    // launch with the runtime's message.
    for_each_gpu_temporal(c, c.extent[c.rank - 1], add);
  }
  std::vector<Prediction> out;
  for (const auto &p : plans) {
    Prediction pr = predict(c, m, p);
    // A CPU temporal plan whose rings spill from every cache moves a naive sweep's bytes and
    // computes its redundant rows on top: never ahead of naive, and measured 1.02-1.65 times
    // slower than even that (heat3d 510^3, AMD EPYC VM, PERFORMANCE.md). Not offered; --plan
    // still runs and prices one.
    if (std::isfinite(pr.seconds_per_step) && pr.bound != "cache")
      out.push_back(pr);
  }
  std::sort(out.begin(), out.end(), [](const Prediction &a, const Prediction &b) {
    if (a.seconds_per_step != b.seconds_per_step)
      return a.seconds_per_step < b.seconds_per_step;
    if (a.plan.k() != b.plan.k()) // equal times: the simpler plan
      return a.plan.k() < b.plan.k();
    return stencilc::to_string(a.plan) < stencilc::to_string(b.plan);
  });
  if (!rules.distributed)
    prefer_naive(out, m);
  return out;
}

} // namespace stc::model
