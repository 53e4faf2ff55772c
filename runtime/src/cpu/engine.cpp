#include "stencilc/cpu/engine.h"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <sstream>

#include "stencilc/error.h"
#include "stencilc/grid.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace stencilc::cpu {
namespace {

// Dimensions as the engine sees them: X = 0 (whole rows), T (tiled: 1 for rank 3, absent for
// rank 2) and S (streamed: the last one).
struct Dims {
  int t = -1, s = 1;
  explicit Dims(int rank) : t(rank == 3 ? 1 : -1), s(rank - 1) {}
};

// A value of a grid during the block: the storage it starts in (producer < 0) or the output
// of one stage.
struct Version {
  int grid = 0;
  int producer = -1;
  bool needed = false;          // a stage the block needs reads it, or it is a result
  bool read = false;            // a stage the block needs reads it
  int depth = 0;                // ring planes
  int final_of = -1;            // the grid whose result it is at the end of the block
  std::size_t offset = 0;       // bytes into the thread's workspace
  std::int64_t rows = 1;        // rows per ring plane
  // A ring row's layout (elements): its cell x = 0 is at x0 from the row's start, on a 64-byte
  // line, and rows are pitch apart. Grid rows align their first ghost cell instead (grid.h), so
  // the row functions' loads of x and of neighbouring rows would each straddle two lines; in
  // the rings, which are read many times per cell, only the x-shifted loads do.
  std::int64_t pitch = 0, x0 = 0;
  // Where this version's carried rows (Stage::carry) wait for the thread's next tile: a block
  // of `carry` rows at this offset in each plane-step's region of the carry store (Schedule).
  std::size_t carry_offset = 0;
};

struct Stage {
  int call = 0;
  int step = 0;           // which of the block's k steps
  std::vector<int> in;    // version per read slot
  std::vector<int> out;   // version per written grid
  std::vector<int> prior; // version each written grid had before (copied where not computed)
  bool full = true;       // the domain is the whole interior: nothing to copy
  int m_t = -1, m_s = -1; // margins it computes; -1: not needed
  std::int64_t lag = 0;   // planes behind the front
  // Rows of T its outputs hand on to the thread's next tile (carried tiles, TileRun): the next
  // tile computes rows [t0 + m_t, t1 + m_t) and takes the `carry` rows below them, which this
  // tile computed at its top, instead of computing a margin below its rows again.
  int carry = 0;
};

std::int64_t floor_mod(std::int64_t a, std::int64_t n) {
  const std::int64_t r = a % n;
  return r < 0 ? r + n : r;
}

struct Schedule {
  int rank = 3;
  Dims dims{3};
  std::vector<Version> versions;
  std::vector<Stage> stages;
  std::vector<int> finals; // per grid: its version at the end (-1: not written by the step)
  std::vector<bool> dead;  // per grid: the block never reads its value from before the block
  std::int64_t n0 = 1, nt = 1, ns = 1;
  bool periodic_t = false, periodic_s = false;
  int halo_s = 0; // widest halo of the streamed dimension
  std::size_t workspace = 0;
  // The carry store: one region per plane-step of a tile, holding the carried rows every stage
  // produces in that plane-step, in the order the stages run. So a tile writes the store, and
  // the next one reads it, as one sequential stream, instead of one stream per stage advancing
  // a few KiB per plane-step (heat3d 510^3, k = 8 and 12, fp32 and fp64: +5 to +16% in medians
  // of alternated rounds, PERFORMANCE.md). Region i is plane-step s0 + carry_first + i.
  std::size_t carry_base = 0, carry_region = 0;
  std::int64_t carry_first = 0;
};

bool periodic(const GridDesc &g, int d) {
  return g.faces[d][0] == Face::Periodic && g.faces[d][1] == Face::Periodic;
}

} // namespace

std::string unsupported(const Step &step, const std::vector<View> &grids) {
  if (step.rank != 2 && step.rank != 3)
    return "rank " + std::to_string(step.rank) + " (temporal blocking covers ranks 2 and 3)";
  for (int d = 0; d < step.rank; ++d) {
    int per = 0, total = 0;
    for (const auto &g : step.grids) {
      ++total;
      if (periodic(g, d))
        ++per;
      else if (g.faces[d][0] == Face::Periodic || g.faces[d][1] == Face::Periodic)
        return "grid '" + g.name + "' is periodic on one face of dimension " +
               std::to_string(d + 1) + " only";
    }
    if (per != 0 && per != total)
      return "dimension " + std::to_string(d + 1) + " is periodic for some grids only";
  }
  for (const auto &c : step.calls)
    if (c.kind == Call::Kind::Swap &&
        (c.a < 0 || c.b < 0 || c.a >= static_cast<int>(step.grids.size()) ||
         c.b >= static_cast<int>(step.grids.size())))
      return "a swap names a grid the step does not describe";
    else if (c.kind == Call::Kind::Swap &&
             step.grids[c.a].boundary_key != step.grids[c.b].boundary_key)
      return "the run block swaps grids '" + step.grids[c.a].name + "' and '" +
             step.grids[c.b].name + "', which have different boundary conditions";
  if (!grids.empty())
    for (std::size_t g = 1; g < grids.size(); ++g)
      for (int d = 0; d < step.rank; ++d)
        if (grids[g].extent[d] != grids[0].extent[d])
          return "grids '" + step.grids[0].name + "' and '" + step.grids[g].name +
                 "' have different shapes";
  return "";
}

namespace {

Schedule plan(const Step &step, const Options &o, const std::vector<View> &grids) {
  Schedule sc;
  sc.rank = step.rank;
  sc.dims = Dims(step.rank);
  const Dims &dm = sc.dims;
  const int ng = static_cast<int>(step.grids.size());
  sc.n0 = grids[0].extent[0];
  sc.nt = dm.t >= 0 ? grids[0].extent[dm.t] : 1;
  sc.ns = grids[0].extent[dm.s];
  sc.periodic_t = dm.t >= 0 && periodic(step.grids[0], dm.t);
  sc.periodic_s = periodic(step.grids[0], dm.s);
  for (const auto &v : grids)
    sc.halo_s = std::max(sc.halo_s, v.halo[dm.s]);
  sc.halo_s = std::max(sc.halo_s, 1);

  std::vector<int> cur(ng);
  for (int g = 0; g < ng; ++g) {
    Version v;
    v.grid = g;
    sc.versions.push_back(v);
    cur[g] = g;
  }
  for (int t = 0; t < o.k; ++t)
    for (std::size_t c = 0; c < step.calls.size(); ++c) {
      const Call &call = step.calls[c];
      if (call.kind == Call::Kind::Swap) {
        std::swap(cur[call.a], cur[call.b]);
        continue;
      }
      if (call.kind == Call::Kind::Reduce)
        continue;
      Stage st;
      st.call = static_cast<int>(c);
      st.step = t;
      for (const Slot &s : call.reads)
        st.in.push_back(cur[s.grid]);
      st.full = !call.colour && !call.in_place;
      for (int d = 0; d < step.rank; ++d)
        st.full = st.full && call.lo[d] == 0 && call.hi[d] == grids[0].extent[d];
      const int id = static_cast<int>(sc.stages.size());
      for (int w : call.writes) {
        st.prior.push_back(cur[w]);
        Version v;
        v.grid = w;
        v.producer = id;
        cur[w] = static_cast<int>(sc.versions.size());
        st.out.push_back(cur[w]);
        sc.versions.push_back(v);
      }
      sc.stages.push_back(st);
    }
  sc.finals.assign(ng, -1);
  // Every grid a kernel writes or a swap moves has a result (in its shadow).
  for (const auto &call : step.calls) {
    for (int w : call.writes)
      sc.finals[w] = 0;
    if (call.kind == Call::Kind::Swap)
      sc.finals[call.a] = sc.finals[call.b] = 0;
  }
  // A grid whose value from before the block no stage reads is dead between blocks.
  sc.dead.assign(ng, true);
  for (const auto &st : sc.stages) {
    for (int v : st.in)
      if (v < ng)
        sc.dead[v] = false;
    if (!st.full)
      for (int v : st.prior)
        if (v < ng)
          sc.dead[v] = false;
  }
  for (int g = 0; g < ng; ++g)
    if (sc.finals[g] == 0 && !o.all_results && sc.dead[g])
      sc.finals[g] = -1;
  for (int g = 0; g < ng; ++g)
    if (sc.finals[g] == 0) {
      sc.finals[g] = cur[g];
      sc.versions[cur[g]].final_of = g;
      sc.versions[cur[g]].needed = true;
    }

  // Which stages the block needs, last first: those whose outputs are results or are read by
  // a stage it needs. Their margins are the compiler's (Step::reach, Call::margin); a check
  // that every read is covered guards against a schedule that does not match the step.
  for (int j = static_cast<int>(sc.stages.size()) - 1; j >= 0; --j) {
    Stage &st = sc.stages[j];
    bool needed = false;
    for (int v : st.out)
      needed = needed || sc.versions[v].needed;
    if (!needed)
      continue;
    const Call &call = step.calls[st.call];
    const int later = o.k - 1 - st.step;
    st.m_t = dm.t >= 0 ? later * step.reach[dm.t] + call.margin[dm.t] : 0;
    st.m_s = later * step.reach[dm.s] + call.margin[dm.s];
    for (int v : st.in)
      sc.versions[v].needed = sc.versions[v].read = true;
    if (!st.full)
      for (int p : st.prior)
        sc.versions[p].needed = sc.versions[p].read = true;
  }
  auto st_off = [&](const Slot &s) { return dm.t >= 0 ? std::abs(s.d2) : std::abs(s.d1); };
  auto tt_off = [&](const Slot &s) { return dm.t >= 0 ? std::abs(s.d1) : 0; };
  auto covers = [&](int v, int m_t, int m_s) {
    const int p = sc.versions[v].producer;
    return p < 0 || (sc.stages[p].m_t >= m_t && sc.stages[p].m_s >= m_s);
  };
  for (const Stage &st : sc.stages) {
    if (st.m_t < 0)
      continue;
    const Call &call = step.calls[st.call];
    bool ok = true;
    for (std::size_t i = 0; i < st.in.size(); ++i)
      ok = ok && covers(st.in[i], st.m_t + tt_off(call.reads[i]), st.m_s + st_off(call.reads[i]));
    if (!st.full)
      for (int p : st.prior)
        ok = ok && covers(p, st.m_t, st.m_s);
    if (!ok)
      throw Error("temporal blocking: the step's margins do not cover what kernel '" + call.name +
                  "' reads (the compiler's schedule does not match the step)");
  }
  // Carried rows: a carried tile's reader computes from t0 + m_r and reads |d1| rows below;
  // a result needs rows from t0 on. None without carried tiles (carry=off): no store, no copies.
  const bool carries = dm.t >= 0 && o.carry;
  if (carries)
    for (const Stage &st : sc.stages) {
      if (st.m_t < 0)
        continue;
      const Call &call = step.calls[st.call];
      auto need = [&](int v, int below) {
        const int p = sc.versions[v].producer;
        if (p >= 0)
          sc.stages[p].carry = std::max(sc.stages[p].carry, sc.stages[p].m_t - (st.m_t - below));
      };
      for (std::size_t i = 0; i < st.in.size(); ++i)
        need(st.in[i], std::abs(call.reads[i].d1));
      if (!st.full)
        for (int p : st.prior)
          need(p, 0);
    }
  for (Stage &st : sc.stages)
    for (int v : st.out)
      if (st.m_t >= 0 && sc.versions[v].final_of >= 0 && carries)
        st.carry = std::max(st.carry, st.m_t);
  // Lags: a stage runs halo_s planes behind every stage whose output it uses, so those planes
  // (and the low ghost planes a Neumann face mirrors from them) exist when it reads them.
  for (auto &st : sc.stages) {
    if (st.m_t < 0)
      continue;
    std::int64_t lag = 0;
    auto dep = [&](int v) {
      const int p = sc.versions[v].producer;
      if (p >= 0)
        lag = std::max(lag, sc.stages[p].lag + sc.halo_s);
    };
    for (int v : st.in)
      dep(v);
    if (!st.full)
      for (int v : st.prior)
        dep(v);
    st.lag = lag;
  }
  // Ring depths: from the newest plane of a version to the oldest one its readers still need.
  for (auto &st : sc.stages) {
    if (st.m_t < 0)
      continue;
    // A Neumann face of S mirrors planes within the version: 2h + 1 planes cover that.
    for (int v : st.out) {
      const auto &f = step.grids[sc.versions[v].grid].faces[dm.s];
      const bool mirror = f[0] == Face::Neumann || f[1] == Face::Neumann;
      sc.versions[v].depth = mirror ? 2 * sc.halo_s + 1 : 1;
    }
  }
  for (auto &st : sc.stages) {
    if (st.m_t < 0)
      continue;
    auto use = [&](int v) {
      Version &ver = sc.versions[v];
      if (ver.producer >= 0)
        ver.depth = std::max<int>(ver.depth, static_cast<int>(st.lag - sc.stages[ver.producer].lag +
                                                              sc.halo_s + 1));
    };
    for (int v : st.in)
      use(v);
    if (!st.full)
      for (int v : st.prior)
        use(v);
  }
  return sc;
}

std::size_t round_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }

// A few cells (x ghosts): element copies the compiler inlines, not a memcpy call per cell.
inline void copy_cells(unsigned char *dst, const unsigned char *src, std::int64_t n,
                       std::size_t e) {
  if (e == 4)
    for (std::int64_t i = 0; i < n; ++i)
      reinterpret_cast<std::uint32_t *>(dst)[i] = reinterpret_cast<const std::uint32_t *>(src)[i];
  else if (e == 8)
    for (std::int64_t i = 0; i < n; ++i)
      reinterpret_cast<std::uint64_t *>(dst)[i] = reinterpret_cast<const std::uint64_t *>(src)[i];
  else
    std::memcpy(dst, src, static_cast<std::size_t>(n) * e);
}

// Results go to memory that no thread reads during the block: stream them past the caches
// (no read-for-ownership of the destination). Whole 64-byte lines only: a partly written line
// costs the memory controller a read-modify-write.
void stream_lines(unsigned char *dst, const unsigned char *src, std::size_t bytes) {
#if defined(__SSE2__)
  if (reinterpret_cast<std::uintptr_t>(dst) % 64 == 0 && bytes % 64 == 0) {
    for (std::size_t i = 0; i < bytes; i += 16)
      _mm_stream_si128(reinterpret_cast<__m128i *>(dst + i),
                       _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i)));
    return;
  }
#endif
  std::memcpy(dst, src, bytes);
}

// One thread's walk over one tile: rows [t0, t1) of T, planes [s0, s1) of S.
//
// A thread's tiles are consecutive in T and it walks them upwards. Its first tile computes every
// stage's margin on both sides; each later one is carried: stage j computes rows
// [t0 + m_j, t1 + m_j), shifted up by its margin, and takes the Stage::carry rows below those from
// what the tile before computed at its top (kept per plane in the thread's workspace). So the
// overlap is computed twice only where two threads' tiles meet, not at every tile.
class TileRun {
public:
  TileRun(const Step &step, const Schedule &sc, const std::vector<View> &grids,
          const std::vector<View> &shadows, const void *ctx, unsigned char *ws)
      : step_(step), sc_(sc), grids_(grids), shadows_(shadows), ctx_(ctx), ws_(ws) {}

  void run(std::int64_t t0, std::int64_t t1, std::int64_t s0, std::int64_t s1, bool carried) {
    t0_ = t0;
    t1_ = t1;
    s0_ = s0;
    s1_ = s1;
    carried_ = carried;
    std::int64_t p0 = INT64_MAX, p1 = INT64_MIN;
    for (const auto &st : sc_.stages) {
      if (st.m_t < 0)
        continue;
      std::int64_t lo, hi;
      plane_range(st, lo, hi);
      p0 = std::min(p0, lo + st.lag);
      p1 = std::max(p1, hi + st.lag);
    }
    for (std::int64_t p = p0; p < p1; ++p)
      for (std::size_t j = 0; j < sc_.stages.size(); ++j) {
        const Stage &st = sc_.stages[j];
        if (st.m_t < 0)
          continue;
        std::int64_t lo, hi;
        plane_range(st, lo, hi);
        const std::int64_t s = p - st.lag;
        if (s >= lo && s < hi)
          produce(st, s);
      }
    // Results that are a grid's value from before the block (e.g. after an odd number of
    // swaps with k = 1) are copied across.
    for (std::size_t g = 0; g < sc_.finals.size(); ++g) {
      const int v = sc_.finals[g];
      if (v >= 0 && sc_.versions[v].producer < 0)
        for (std::int64_t s = s0_; s < s1_; ++s)
          for (std::int64_t t = t0_; t < t1_; ++t)
            write_row(static_cast<int>(g), global_row(static_cast<int>(g), shadows_, t, s),
                      global_row(sc_.versions[v].grid, grids_, t, s));
    }
  }

private:
  std::size_t elem(int g) const { return static_cast<std::size_t>(step_.grids[g].elem_bytes); }

  void plane_range(const Stage &st, std::int64_t &lo, std::int64_t &hi) const {
    lo = s0_ - st.m_s;
    hi = s1_ + st.m_s;
    if (!sc_.periodic_s) {
      lo = std::max<std::int64_t>(lo, -sc_.halo_s);
      hi = std::min<std::int64_t>(hi, sc_.ns + sc_.halo_s);
    }
  }
  // Rows of T a stage's planes hold in this tile; computed from `first` (above the carried rows).
  void row_range(const Stage &st, std::int64_t &lo, std::int64_t &hi, std::int64_t &first) const {
    lo = carried_ ? t0_ + st.m_t - st.carry : t0_ - st.m_t;
    hi = t1_ + st.m_t;
    first = carried_ ? t0_ + st.m_t : lo;
  }
  // Row r of the carried rows of a version's plane s, which its producer computes in plane-step
  // s + lag.
  unsigned char *carry_row(int vid, std::int64_t s, std::int64_t r) const {
    const Version &v = sc_.versions[vid];
    const Stage &st = sc_.stages[v.producer];
    const std::int64_t region = s + st.lag - s0_ - sc_.carry_first;
    return ws_ + sc_.carry_base + static_cast<std::size_t>(region) * sc_.carry_region +
           v.carry_offset + static_cast<std::size_t>(r * v.pitch + v.x0) * elem(v.grid);
  }
  int halo(int g, int d) const { return d < 0 ? 0 : grids_[g].halo[d]; }

  // Cell x = 0 of row (t, s) of a grid's storage; periodic coordinates wrap.
  unsigned char *global_row(int g, const std::vector<View> &views, std::int64_t t,
                            std::int64_t s) const {
    const View &v = views[g];
    const Dims &dm = sc_.dims;
    if (sc_.periodic_s)
      s = floor_mod(s, sc_.ns);
    std::int64_t off = s * v.stride[dm.s];
    if (dm.t >= 0) {
      if (sc_.periodic_t)
        t = floor_mod(t, sc_.nt);
      off += t * v.stride[dm.t];
    }
    return static_cast<unsigned char *>(v.origin) + off * static_cast<std::int64_t>(elem(g));
  }
  // Cell x = 0 of row (t, s) of a version.
  unsigned char *row(int vid, std::int64_t t, std::int64_t s) const {
    const Version &v = sc_.versions[vid];
    if (v.producer < 0)
      return global_row(v.grid, grids_, t, s);
    const Stage &st = sc_.stages[v.producer];
    const std::int64_t slot = floor_mod(s, v.depth);
    const std::int64_t r = sc_.dims.t >= 0 ? t - (t0_ - st.m_t) : 0;
    const std::int64_t cell = (slot * v.rows + r) * v.pitch + v.x0;
    return ws_ + v.offset + static_cast<std::size_t>(cell) * elem(v.grid);
  }
  // Rows of one plane of a version: cell x = 0 of row t is at(c, t). Trivial (no member
  // initialisers): produce's arrays of 96 would otherwise be zeroed on every call, 4 KB of
  // stores per stage and plane (perf, heat3d k=4,rows=16 on 126-cell rows: 15% of produce, 4-5%
  // of the run).
  struct Cursor {
    unsigned char *base; // row t = first
    std::int64_t first, row_bytes, shift;
    bool wrap; // a periodic T in global storage
  };
  Cursor cursor(int vid, std::int64_t s) const {
    const Version &v = sc_.versions[vid];
    Cursor c{};
    const std::int64_t e = static_cast<std::int64_t>(elem(v.grid));
    if (v.producer < 0) {
      c.base = global_row(v.grid, grids_, 0, s);
      c.row_bytes = sc_.dims.t >= 0 ? grids_[v.grid].stride[sc_.dims.t] * e : 0;
      c.wrap = sc_.periodic_t;
      return c;
    }
    c.first = sc_.dims.t >= 0 ? t0_ - sc_.stages[v.producer].m_t : 0;
    c.base = row(vid, c.first, s);
    c.row_bytes = sc_.dims.t >= 0 ? v.pitch * e : 0;
    return c;
  }
  unsigned char *at(const Cursor &c, std::int64_t t) const {
    t += c.shift;
    if (c.wrap && (t < 0 || t >= sc_.nt))
      t = floor_mod(t, sc_.nt);
    return c.base + (t - c.first) * c.row_bytes;
  }

  // Whether stage `st` computes plane s straight into the results' shadows instead of its
  // rings: a last stage (no margins, nothing carried) of a whole-interior kernel whose outputs
  // are all results no stage of the block reads, on a plane of the tile. Its row function's
  // stores then go out beside its loads and arithmetic, as a naive sweep's do; computed into
  // a ring and streamed to the shadow after the plane, the results stalled the core for about
  // twice their bytes' time at B_s (heat3d 510x256x256, k=4, 16 rows: 15% faster so, same bits).
  bool writes_shadows(const Stage &st, std::int64_t s) const {
    if (!st.full || st.carry != 0 || st.m_t > 0 || st.m_s != 0 || s < s0_ || s >= s1_)
      return false;
    for (int v : st.out) {
      const Version &ver = sc_.versions[v];
      if (ver.final_of < 0 || ver.read || ver.depth != 1)
        return false;
    }
    return true;
  }
  // Rows of plane s of grid g's shadow, as cursor() gives a version's.
  Cursor shadow_cursor(int g, std::int64_t s) const {
    Cursor c{};
    c.base = global_row(g, shadows_, 0, s);
    c.first = 0;
    c.row_bytes =
        sc_.dims.t >= 0 ? shadows_[g].stride[sc_.dims.t] * static_cast<std::int64_t>(elem(g)) : 0;
    c.shift = 0;
    c.wrap = false;
    return c;
  }

  // The bytes of a whole row, x ghosts included, from its cell x = 0.
  void copy_row(int g, unsigned char *dst, const unsigned char *src) const {
    const std::size_t e = elem(g);
    const std::int64_t h = halo(g, 0);
    std::memcpy(dst - h * e, src - h * e, (sc_.n0 + 2 * h) * e);
  }

  // A result row into a shadow: the whole pitch from the first ghost cell (rows start on a
  // 64-byte line). The x ghosts it carries are the boundary values of this very row. A view
  // widened in x has more storage around its rows: only the row and its ghosts are written.
  void write_row(int g, unsigned char *dst, const unsigned char *src) const {
    const std::size_t e = elem(g);
    const std::int64_t h = halo(g, 0);
    const std::int64_t cells = grids_[g].whole_pitch ? grids_[g].pitch : sc_.n0 + 2 * h;
    stream_lines(dst - h * static_cast<std::int64_t>(e), src - h * static_cast<std::int64_t>(e),
                 static_cast<std::size_t>(cells) * e);
  }

  // Ghost cells of dimension 0 of rows [lo, hi) of a computed plane s (boundary.h: fill_* for
  // d = 0). A run of rows at a time, with the grid's faces looked up once: per row, the lookups
  // stalled on loads the row function had pushed out of L1 (perf, heat3d k=4,rows=16 on
  // 126-cell rows: a seventh of produce).
  void x_ghosts(int g, const Cursor &c, std::int64_t lo, std::int64_t hi, std::int64_t s) const {
    const std::int64_t h = halo(g, 0), n = sc_.n0;
    if (h == 0 || lo >= hi)
      return;
    const GridDesc &grid = step_.grids[g];
    const std::int64_t e = static_cast<std::int64_t>(elem(g));
    if (GhostFn fn = grid.x_dirichlet) {
      const bool has_t = sc_.dims.t >= 0;
      const std::int64_t gs = sc_.periodic_s ? floor_mod(s, sc_.ns) : s;
      for (std::int64_t t = lo; t < hi; ++t) {
        const std::int64_t gt = sc_.periodic_t ? floor_mod(t, sc_.nt) : t;
        fn(at(c, t), n, has_t ? gt : gs, has_t ? gs : 0, ctx_);
      }
    }
    for (int side = 0; side < 2; ++side) {
      const Face f = grid.faces[0][side];
      if (f == Face::Dirichlet)
        continue; // above
      const std::int64_t first = side == 0 ? -h : n;
      for (std::int64_t x = first; x < first + h; ++x) {
        const std::int64_t m = f == Face::Neumann ? (x < 0 ? -x - 1 : 2 * n - 1 - x)
                                                  : (x < 0 ? x + n : x - n); // periodic
        for (std::int64_t t = lo; t < hi; ++t) {
          unsigned char *r = at(c, t);
          copy_cells(r + x * e, r + m * e, 1, static_cast<std::size_t>(e));
        }
      }
    }
  }

  bool in_domain_s(const Call &c, std::int64_t s) const {
    const std::int64_t gs = sc_.periodic_s ? floor_mod(s, sc_.ns) : s;
    return gs >= c.lo[sc_.dims.s] && gs < c.hi[sc_.dims.s];
  }
  bool in_domain_t(const Call &c, std::int64_t t) const {
    const int d = sc_.dims.t;
    if (d < 0)
      return true;
    const std::int64_t gt = sc_.periodic_t ? floor_mod(t, sc_.nt) : t;
    return gt >= c.lo[d] && gt < c.hi[d];
  }
  // The first row after t where rows stop being one run for the kernel: the domain starts or
  // ends, or (periodic T) the coordinate or a read of global storage wraps around.
  std::int64_t next_break(const Call &c, const Cursor *ic, std::size_t nin, std::int64_t t) const {
    const int d = sc_.dims.t;
    std::int64_t next = INT64_MAX;
    if (d < 0)
      return next;
    auto at_or_after = [&](std::int64_t base) { // the first base + q nt > t (q = 0 if not periodic)
      if (!sc_.periodic_t) {
        if (base > t)
          next = std::min(next, base);
        return;
      }
      const std::int64_t q = (t - base) >= 0 ? (t - base) / sc_.nt + 1 : -((base - t - 1) / sc_.nt);
      next = std::min(next, base + q * sc_.nt);
    };
    at_or_after(c.lo[d]);
    at_or_after(c.hi[d]);
    if (sc_.periodic_t) {
      at_or_after(0);
      for (std::size_t i = 0; i < nin; ++i)
        if (ic[i].wrap)
          at_or_after(-ic[i].shift);
    }
    return next;
  }

  void produce(const Stage &st, std::int64_t s) {
    const Call &call = step_.calls[st.call];
    const Dims &dm = sc_.dims;
    std::int64_t rlo, rhi, first;
    row_range(st, rlo, rhi, first);
    const bool ghost_plane = !sc_.periodic_s && (s < 0 || s >= sc_.ns);
    if (ghost_plane) {
      for (int v : st.out) {
        const int g = sc_.versions[v].grid;
        const int h = halo(g, dm.s);
        if (s < -h || s >= sc_.ns + h)
          continue;
        const int side = s < 0 ? 0 : 1;
        const Face f = step_.grids[g].faces[dm.s][side];
        const int ht = halo(g, dm.t);
        const std::int64_t lo = sc_.periodic_t ? rlo : std::max<std::int64_t>(rlo, -ht);
        const std::int64_t hi = sc_.periodic_t ? rhi : std::min<std::int64_t>(rhi, sc_.nt + ht);
        if (f == Face::Dirichlet) {
          for (std::int64_t t = lo; t < hi; ++t)
            copy_row(g, row(v, t, s), global_row(g, grids_, t, s));
        } else if (side == 1) { // Neumann, high: the mirrored plane is already there
          for (std::int64_t t = lo; t < hi; ++t)
            copy_row(g, row(v, t, s), row(v, t, 2 * sc_.ns - 1 - s));
        } // Neumann, low: filled when the plane it mirrors is computed (below)
      }
      return;
    }
    void *out[16];
    const void *in[64];
    std::int64_t out_step[16], in_step[64];
    const std::int64_t tlo = sc_.periodic_t ? rlo : std::max<std::int64_t>(rlo, 0);
    const std::int64_t thi = sc_.periodic_t ? rhi : std::min<std::int64_t>(rhi, sc_.nt);
    const std::int64_t clo = sc_.periodic_t ? first : std::max<std::int64_t>(first, 0);
    const std::int64_t gs = sc_.periodic_s ? floor_mod(s, sc_.ns) : s;
    // Row addresses per plane, not per row: a ring slot costs a division.
    Cursor oc[16], pc[16], ic[64];
    const std::size_t nout = st.out.size(), nin = st.in.size();
    const bool direct = writes_shadows(st, s);
    for (std::size_t i = 0; i < nout; ++i) {
      oc[i] = direct ? shadow_cursor(sc_.versions[st.out[i]].final_of, s) : cursor(st.out[i], s);
      out_step[i] = oc[i].row_bytes;
      if (!st.full)
        pc[i] = cursor(st.prior[i], s);
    }
    for (std::size_t i = 0; i < nin; ++i) {
      const Slot &sl = call.reads[i];
      ic[i] = cursor(st.in[i], s + (dm.t >= 0 ? sl.d2 : sl.d1));
      ic[i].shift = dm.t >= 0 ? sl.d1 : 0;
      in_step[i] = ic[i].row_bytes;
    }
    // The rows the tile before computed (x ghosts included), before the kernel, which may
    // read them in place.
    if (carried_)
      for (std::size_t i = 0; i < nout; ++i)
        for (std::int64_t t = rlo; t < first; ++t)
          copy_row(sc_.versions[st.out[i]].grid, at(oc[i], t), carry_row(st.out[i], s, t - rlo));
    // The old rows, x ghosts included: an in-place kernel reads them as the naive sweep does.
    if (!st.full)
      for (std::int64_t t = clo; t < thi; ++t)
        for (std::size_t i = 0; i < nout; ++i)
          copy_row(sc_.versions[st.out[i]].grid, at(oc[i], t), at(pc[i], t));
    // The kernel over the plane's rows in as few calls as the domain and periodic wrapping
    // allow: per call and per row the engine costs more than the stores it saves by streaming
    // results from L1 (measured: whole planes run 6% faster than batches of 8 rows).
    if (in_domain_s(call, s))
      for (std::int64_t t = clo; t < thi;) {
        const std::int64_t run_end = std::min(thi, next_break(call, ic, nin, t));
        if (in_domain_t(call, t)) {
          for (std::size_t i = 0; i < nout; ++i)
            out[i] = at(oc[i], t);
          for (std::size_t i = 0; i < nin; ++i)
            in[i] = at(ic[i], t);
          if (dm.t >= 0)
            call.fn(out, out_step, in, in_step, call.lo[0], call.hi[0],
                    sc_.periodic_t ? floor_mod(t, sc_.nt) : t, run_end - t, gs, ctx_);
          else
            call.fn(out, out_step, in, in_step, call.lo[0], call.hi[0], gs, 1, 0, ctx_);
        }
        t = run_end;
      }
    // Then each row's x ghosts, and the results on to their shadows (a row's ghosts first).
    for (std::size_t i = 0; i < nout; ++i) {
      const Version &v = sc_.versions[st.out[i]];
      x_ghosts(v.grid, oc[i], std::max(tlo, clo), thi, s);
      if (!direct && v.final_of >= 0 && s >= s0_ && s < s1_)
        for (std::int64_t t = std::max(tlo, t0_); t < std::min(thi, t1_); ++t)
          write_row(v.final_of, global_row(v.final_of, shadows_, t, s), at(oc[i], t));
    }
    // Ghost rows of dimension T (whole rows, x ghosts included), after the interior rows.
    if (dm.t >= 0 && !sc_.periodic_t)
      for (int v : st.out) {
        const int g = sc_.versions[v].grid;
        const int ht = halo(g, dm.t);
        for (int side = 0; side < 2; ++side) {
          const std::int64_t lo = side == 0 ? std::max<std::int64_t>(rlo, -ht) : std::max<std::int64_t>(rlo, sc_.nt);
          const std::int64_t hi = side == 0 ? std::min<std::int64_t>(rhi, 0) : std::min<std::int64_t>(rhi, sc_.nt + ht);
          const Face f = step_.grids[g].faces[dm.t][side];
          for (std::int64_t t = lo; t < hi; ++t) {
            if (f == Face::Dirichlet)
              copy_row(g, row(v, t, s), global_row(g, grids_, t, s));
            else
              copy_row(g, row(v, t, s), row(v, t < 0 ? -t - 1 : 2 * sc_.nt - 1 - t, s));
          }
        }
      }
    // A low Neumann ghost plane mirrors this plane: fill it now that the plane exists.
    if (!sc_.periodic_s)
      for (int v : st.out) {
        const int g = sc_.versions[v].grid;
        std::int64_t lo, hi;
        plane_range(st, lo, hi);
        const std::int64_t ghost = -s - 1;
        if (s >= halo(g, dm.s) || ghost < lo || step_.grids[g].faces[dm.s][0] != Face::Neumann)
          continue;
        const int ht = halo(g, dm.t);
        const std::int64_t a = sc_.periodic_t ? rlo : std::max<std::int64_t>(rlo, -ht);
        const std::int64_t b = sc_.periodic_t ? rhi : std::min<std::int64_t>(rhi, sc_.nt + ht);
        for (std::int64_t t = a; t < b; ++t)
          copy_row(g, row(v, t, ghost), row(v, t, s));
      }
    // The top rows, finished, for the thread's next tile (it is carried if there is one).
    if (dm.t >= 0 && st.carry > 0)
      for (std::size_t i = 0; i < nout; ++i)
        for (std::int64_t r = 0; r < st.carry; ++r)
          copy_row(sc_.versions[st.out[i]].grid, carry_row(st.out[i], s, r),
                   at(oc[i], rhi - st.carry + r));
  }

  const Step &step_;
  const Schedule &sc_;
  const std::vector<View> &grids_, &shadows_;
  const void *ctx_;
  unsigned char *ws_;
  std::int64_t t0_ = 0, t1_ = 1, s0_ = 0, s1_ = 1;
  bool carried_ = false;
};

} // namespace

void FreeBytes::operator()(unsigned char *p) const { std::free(p); }

namespace {

// A block's schedule, its tiles and the workspace each thread needs (Schedule::workspace).
struct Layout {
  Schedule sc;
  std::int64_t ntiles_t = 1, nchunks = 1;
};

// Checks the block's options against `step` and `grids` (throws as run_block documents) and
// lays out its tiles and every thread's workspace.
Layout lay_out(const Step &step, const Options &o, const std::vector<View> &grids) {
  const std::string why = unsupported(step, grids);
  if (!why.empty())
    throw Error("temporal blocking does not apply: " + why);
  if (o.k < 1 || o.k > 64)
    throw Error("temporal blocking: k = " + std::to_string(o.k) + " is outside 1..64");
  if (o.tile < 0 || o.chunk < 0)
    throw Error("temporal blocking: tile sizes must not be negative");
  bool negative = false;
  for (int d = 0; d < 3; ++d) {
    negative = negative || step.reach[d] < 0;
    for (const auto &c : step.calls)
      negative = negative || c.margin[d] < 0;
  }
  if (negative)
    throw Error("temporal blocking: a margin of the step's schedule is negative");
  for (const auto &c : step.calls)
    if (c.kind == Call::Kind::Kernel && (c.writes.size() > 16 || c.reads.size() > 64))
      throw Error("temporal blocking: kernel '" + c.name + "' writes more than 16 grids or "
                  "reads more than 64 rows");
  Schedule sc = plan(step, o, grids);
  const Dims &dm = sc.dims;

  // Tiles: T cut into even tiles, as many per thread for every thread; S is streamed whole
  // unless chunks are asked for (or rank 2, where chunks of S are the tiles), or T has fewer
  // rows than there are threads.
  const int threads = omp_get_max_threads();
  const std::int64_t ntiles_t = dm.t >= 0 ? tile_count(sc.nt, o.tile, threads) : 1;
  std::int64_t nchunks = 1;
  if (o.chunk > 0)
    nchunks = tile_count(sc.ns, o.chunk, 1);
  else if (dm.t < 0)
    nchunks = tile_count(sc.ns, o.tile, threads);
  else if (ntiles_t < threads)
    nchunks = std::min<std::int64_t>(sc.ns, (threads + ntiles_t - 1) / ntiles_t);
  const std::int64_t tile = (sc.nt + ntiles_t - 1) / ntiles_t; // the largest tile

  // Workspace layout, the same for every tile (sized for a whole tile).
  // Rings start at different offsets within a 4 KiB page (5 lines apart): a stage stores row t
  // of its ring while it loads row t of the ring before, and equal page offsets would make the
  // loads wait for the stores (4K aliasing) and crowd the same cache sets.
  std::size_t bytes = 0;
  int skew = 0;
  for (auto &v : sc.versions) {
    if (v.producer < 0 || sc.stages[v.producer].m_t < 0)
      continue;
    v.rows = dm.t >= 0 ? tile + 2 * sc.stages[v.producer].m_t : 1;
    // Room for what write_row reads: a whole grid pitch from the first ghost cell.
    const std::int64_t line = std::max<std::int64_t>(1, 64 / step.grids[v.grid].elem_bytes);
    const std::int64_t h = grids[v.grid].halo[0];
    v.x0 = (h + line - 1) / line * line;
    v.pitch = (v.x0 - h + grids[v.grid].pitch + line - 1) / line * line;
    bytes = round_up(bytes, 4096) + static_cast<std::size_t>(skew++ % 12 + 1) * 5 * 64;
    v.offset = bytes;
    const std::size_t e = static_cast<std::size_t>(step.grids[v.grid].elem_bytes);
    bytes = round_up(bytes + static_cast<std::size_t>(v.depth * v.rows * v.pitch) * e, 64);
  }
  // The carry store: per plane-step of the largest chunk and the margins around it, `carry`
  // rows of every version whose producer carries (Schedule::carry_region). A stage computes
  // planes [s0 - m_s, s1 + m_s) in plane-steps [s0 - m_s + lag, s1 + m_s + lag).
  const std::int64_t chunk_planes = (sc.ns + nchunks - 1) / nchunks;
  std::int64_t first = INT64_MAX, last = INT64_MIN;
  for (auto &v : sc.versions) {
    if (v.producer < 0 || sc.stages[v.producer].m_t < 0 || sc.stages[v.producer].carry == 0)
      continue;
    const Stage &st = sc.stages[v.producer];
    if (st.carry > 2 * st.m_t)
      throw Error("temporal blocking: carried rows beyond a stage's margins (the engine's "
                  "schedule is inconsistent)");
    first = std::min(first, st.lag - st.m_s);
    last = std::max(last, st.lag + st.m_s);
    v.carry_offset = sc.carry_region;
    const std::size_t e = static_cast<std::size_t>(step.grids[v.grid].elem_bytes);
    sc.carry_region =
        round_up(sc.carry_region + static_cast<std::size_t>(st.carry * v.pitch) * e, 64);
  }
  if (sc.carry_region > 0) {
    sc.carry_first = first;
    sc.carry_base = bytes = round_up(bytes, 4096);
    bytes += sc.carry_region * static_cast<std::size_t>(chunk_planes + last - first);
  }
  sc.workspace = bytes;
  return Layout{std::move(sc), ntiles_t, nchunks};
}

// Each thread's rings; kept in `ws` between blocks, since fresh memory would fault its pages
// in every block. On huge pages where they are 256 KiB or more (allocate_buffer). Returns
// whether any buffer is new.
bool reserve(Workspace &ws, std::size_t bytes, int threads) {
  if (ws.buffers.size() < static_cast<std::size_t>(threads)) {
    ws.buffers.resize(threads);
    ws.bytes.resize(threads, 0);
  }
  bool fresh = false;
  for (int i = 0; i < threads; ++i)
    if (ws.bytes[i] < bytes) {
      ws.buffers[i].reset(allocate_buffer(bytes));
      if (!ws.buffers[i])
        throw std::bad_alloc();
      ws.bytes[i] = bytes;
      fresh = true;
    }
  return fresh;
}

} // namespace

void reserve_workspace(const Step &step, const Options &o, const std::vector<View> &grids,
                       Workspace &ws) {
  const Layout l = lay_out(step, o, grids);
  const int threads = omp_get_max_threads();
  if (!reserve(ws, l.sc.workspace, threads))
    return;
#pragma omp parallel num_threads(threads)
  {
    // Each thread touches its own buffer, as its tiles would: its pages fault in here, and
    // where the machine has nodes they are the thread's.
    const int i = omp_get_thread_num();
    std::memset(ws.buffers[i].get(), 0, ws.bytes[i]);
  }
}

void run_block(const Step &step, const Options &o, const std::vector<View> &grids,
               const std::vector<View> &shadows, const void *ctx, Workspace &ws) {
  if (grids.size() != step.grids.size() || shadows.size() != step.grids.size())
    throw Error("temporal block: expected one view and one shadow per grid");
  Layout l = lay_out(step, o, grids);
  Schedule &sc = l.sc;
  const Dims &dm = sc.dims;
  const std::int64_t ntiles_t = l.ntiles_t, nchunks = l.nchunks;
  const std::int64_t ntiles = ntiles_t * nchunks;
  const int threads_now = omp_get_max_threads();
  reserve(ws, sc.workspace, threads_now);
  // vec=512, xshift=reg: the kernels' other row functions (the same cells, the same bits).
  Step other;
  if (o.wide || o.xreg) {
    other = step;
    for (auto &c : other.calls)
      if (RowFn fn = o.wide && o.xreg && c.fn_xreg_wide ? c.fn_xreg_wide
                     : o.wide                           ? c.fn_wide
                                                        : c.fn_xreg)
        c.fn = fn;
  }
  const Step &run_step = o.wide || o.xreg ? other : step;
#pragma omp parallel num_threads(threads_now)
  {
    TileRun tr(run_step, sc, grids, shadows, ctx, ws.buffers[omp_get_thread_num()].get());
    // The tile before in this thread, if it was the one below in T: then this one is carried.
    std::int64_t last = -1;
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < ntiles; ++i) {
      const std::int64_t ti = i % ntiles_t, ci = i / ntiles_t;
      const bool carried = o.carry && dm.t >= 0 && ti > 0 && last == i - 1;
      tr.run(ti * sc.nt / ntiles_t, (ti + 1) * sc.nt / ntiles_t, ci * sc.ns / nchunks,
             (ci + 1) * sc.ns / nchunks, carried);
      last = i;
    }
#if defined(__SSE2__)
    _mm_sfence(); // the streamed results are visible before the caller swaps them in
#endif
  }
}

std::int64_t tile_count(std::int64_t n, std::int64_t most, int threads) {
  if (n <= 0)
    return 1;
  if (most <= 0 || most > n)
    most = n;
  std::int64_t c = (n + most - 1) / most;
  if (threads > 1 && c % threads != 0)
    c = std::min<std::int64_t>(n, (c + threads - 1) / threads * threads);
  return c;
}

std::int64_t block_steps(std::int64_t remaining, int k) {
  if (remaining <= 0)
    return 0;
  k = std::max(k, 1);
  const std::int64_t blocks = (remaining + k - 1) / k;
  return (remaining + blocks - 1) / blocks;
}

} // namespace stencilc::cpu
