// The CPU engine (library stencilc_rt_cpu, namespace stencilc::cpu, runtime/src/cpu/): temporal
// blocking for CPUs, k steps of a run block per sweep over memory, on OpenMP threads (the plan
// is stencilc::scheme::CpuTemporal of plan.h). It builds on the core (grid.h, error.h) and
// nothing in the core depends on it.
//
// The scheme (docs/PERFORMANCE.md): x-rows stay whole; rank 3 cuts dimension 1 (y) into tiles of at
// most `rows` rows; the last dimension (z, or y for rank 2) is streamed. A thread owns a tile and
// walks it plane by plane. Every kernel call of every one of the k steps is a stage; stage j
// computes its plane L_j planes behind the front, so the planes it reads were computed by the
// stages before it moments ago and are still in cache. A stage keeps its last few planes in a ring;
// a tile computes an overlap (ghost zone) of the rows and planes around it that shrinks stage by
// stage, so tiles never wait for each other: one barrier per k steps. A thread's tiles are
// consecutive and it walks them upwards: its later tiles are carried, taking the rows below
// each stage's from what the tile before computed at its top instead of computing them again,
// so the overlap is computed twice only where two threads' tiles meet.
//
// Results are bitwise those of the naive plan: every cell is computed by the same row function
// (the same expression) from the same inputs; boundary ghost cells are refilled inside the
// tile by the rules the naive plan uses (boundary.h), in the same order.
//
// Results go to a second set of grids (`shadows`) that the caller then swaps in, so no tile
// ever writes what another tile still reads. A last stage whose outputs no stage of the block
// reads computes its rows straight into them; other results are streamed there from the rings.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stencilc/grid.h"

/// The attribute of the row functions a temporal plan with vec=512 runs: GCC's preference for
/// 512-bit vectors, where the target has them (-march for an AVX-512 CPU). The choice is the
/// machine's: 512-bit vectors compute twice the cells per instruction, but where a core runs
/// them as two halves, or a 512-bit load at x +- 1 always straddles two cache lines, 256 bits
/// are faster; `stencilc calibrate` measures both. Elsewhere (Clang, no AVX-512) the attribute is
/// empty, STENCILC_HAS_WIDE_VECTORS is 0 and the generated code refuses vec=512.
#if defined(__GNUC__) && !defined(__clang__) && defined(__AVX512F__)
#define STENCILC_WIDE_VECTORS __attribute__((target("prefer-vector-width=512")))
#define STENCILC_HAS_WIDE_VECTORS 1
#else
#define STENCILC_WIDE_VECTORS
#define STENCILC_HAS_WIDE_VECTORS 0
#endif

/// Lanes of two vectors a:b (of the vector type the mask type M, of integers of the lanes'
/// size, goes with) as one, lane i being lane `indices[i]` of a:b: the x-shifts of the
/// xshift=reg row functions (GCC and Clang spell it differently).
#if defined(__clang__)
#define STENCILC_SHUFFLE(M, a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
#define STENCILC_SHUFFLE(M, a, b, ...) __builtin_shuffle(a, b, M{__VA_ARGS__})
#endif

namespace stencilc::cpu {

enum class Face : std::uint8_t { Dirichlet, Neumann, Periodic };

/// Computes `rows` consecutive x-rows of a kernel: cells [x_lo, x_hi) of the kernel's domain (or
/// its colour) in rows y, y + 1, ..., y + rows - 1 of dimension 1 at z -- global interior
/// coordinates (rank 2: y is the streamed dimension, rows is 1 and z is 0). out[i] points at
/// cell x = 0 of the first row of the i-th written grid, out_step[i] is the bytes from one row
/// to the next; in[s] and in_step[s] likewise for the s-th read slot. ctx is the generated
/// program's params. One call covers a run of rows, so the call and the row addressing cost
/// little next to the cells.
using RowFn = void (*)(void *const *out, const std::int64_t *out_step, const void *const *in,
                       const std::int64_t *in_step, std::int64_t x_lo, std::int64_t x_hi,
                       std::int64_t y, std::int64_t rows, std::int64_t z, const void *ctx);

/// Why a plan with vec=512 cannot run in this build (STENCILC_HAS_WIDE_VECTORS is 0).
inline constexpr const char *kNoWideVectors =
    "vec=512 (row functions on 512-bit vectors) needs a build by GCC for a CPU with AVX-512 "
    "(-march=native on one, or -mavx512f); this one has none: use vec=256";

/// A row a kernel reads: grid `grid` at offsets (d1, d2) in dimensions 1 and 2.
struct Slot {
  int grid = 0;
  int d1 = 0, d2 = 0;
};

struct Call {
  enum class Kind { Kernel, Swap, Reduce } kind = Kind::Kernel;
  std::string name;
  RowFn fn = nullptr;
  /// The same row function on 512-bit vectors (the plan's vec=512; nullptr: fn only). It
  /// computes every cell with the same expression, so the results are the same bits.
  RowFn fn_wide = nullptr;
  /// The same row function with x-shifts in registers (the plan's xshift=reg, 256-bit vectors;
  /// nullptr: the kernel has none, fn runs): the same expression, the same bits.
  RowFn fn_xreg = nullptr;
  /// fn_xreg on 512-bit vectors (the plan's vec=512,xshift=reg; nullptr: fn_wide runs).
  RowFn fn_xreg_wide = nullptr;
  std::vector<int> writes;
  std::vector<Slot> reads;
  bool colour = false;   // red/black: fn steps over one colour of the row
  bool in_place = false; // fn reads its output rows: they start as copies of the old rows
  // Domain in interior coordinates, [lo, hi) per dimension; set before each block.
  std::array<std::int64_t, 3> lo{0, 0, 0}, hi{0, 0, 0};
  /// Per dimension: how far around a tile the call computes its outputs in the last step of a
  /// block (the compiler's schedule, lower::Schedule::margin).
  std::array<int, 3> margin{0, 0, 0};
  int a = -1, b = -1; // Swap
};

/// Fills the Dirichlet ghost cells of dimension 0 of one row (y, z) whose cell x = 0 is at
/// `row`, n0 = extent of dimension 0 -- with the values the naive plan's fill gives them.
using GhostFn = void (*)(void *row, std::int64_t n0, std::int64_t y, std::int64_t z,
                         const void *ctx);

struct GridDesc {
  std::string name;
  int elem_bytes = 4;
  std::array<std::array<Face, 2>, 3> faces{}; // [dimension][low, high]
  GhostFn x_dirichlet = nullptr;              // needed if a face of dimension 0 is Dirichlet
  /// The boundary conditions as text (kinds and Dirichlet values): a swap may exchange only
  /// grids with equal keys, since a block fills a value's ghost cells by the rules of the grid
  /// that computed it.
  std::string boundary_key;
};

/// One run-block iteration, as the generated code describes it.
struct Step {
  int rank = 3;
  /// Per dimension: how far a step reaches (lower::Schedule::step_reach). Call c of step i of
  /// a block of k computes over (k - 1 - i) * reach + c.margin around its tile; run_block
  /// checks that this covers every read and throws if it does not.
  std::array<int, 3> reach{0, 0, 0};
  std::vector<GridDesc> grids;
  std::vector<Call> calls;
};

/// Storage of one grid: the element pointer of interior cell (0, 0, 0) and the layout.
struct View {
  void *origin = nullptr;
  std::array<std::int64_t, 3> extent{1, 1, 1};
  std::array<int, 3> halo{0, 0, 0};
  std::array<std::int64_t, 3> stride{1, 0, 0}; // elements
  /// Elements of a row from its first ghost cell, padding included (Grid::pitch(): stride[1]
  /// unless the grid's rows are interleaved with other grids').
  std::int64_t pitch = 0;
  /// A row's storage pitch starts at its first ghost cell (x = -halo[0]), so a result row may be
  /// written pitch-wide with streaming stores; false for a view widened in x or into deeper
  /// x halos (widened_view), whose rows are then written cell by cell.
  bool whole_pitch = true;
};

template <typename T> View view_of(Grid<T> &g) {
  View v;
  v.origin = g.origin();
  for (int d = 0; d < 3; ++d) {
    v.extent[d] = g.extent(d);
    v.halo[d] = g.halo(d);
    v.stride[d] = g.stride(d);
  }
  v.pitch = g.pitch();
  return v;
}

/// The view of `g` widened by lo[d] cells below and hi[d] cells above its interior in each
/// dimension, into its ghost cells, with `halo` ghost layers around that: mpi-openmp's block
/// grown into halos k steps deep, which the engine then takes as the whole grid.
template <typename T>
View widened_view(Grid<T> &g, const std::array<std::int64_t, 3> &lo,
                  const std::array<std::int64_t, 3> &hi, const std::array<int, 3> &halo) {
  View v = view_of(g);
  T *origin = g.origin();
  for (int d = 0; d < 3; ++d) {
    origin -= lo[d] * v.stride[d];
    v.extent[d] += lo[d] + hi[d];
    v.halo[d] = halo[d];
  }
  v.origin = origin;
  v.whole_pitch = lo[0] == 0 && hi[0] == 0 && halo[0] == g.halo(0);
  return v;
}

struct Options {
  int k = 1;    // steps per block
  int tile = 0; // at most this many rows of dimension 1 per tile (rank 3; rank 2: planes of
                // the streamed y, like chunk); 0: the whole extent. Tiles are even (tile_count)
  int chunk = 0; // at most this many planes of the streamed dimension per tile (0: the whole
                 // extent, cut only when there are fewer rows than threads)
  /// false: skip results the next block does not read (a grid whose old value the step
  /// overwrites before reading, like the target of a ping-pong swap), leaving them stale in
  /// both storages. Every block but the last of a run can do that.
  bool all_results = true;
  /// Kernels run their fn_wide row functions where they have one (the plan's vec=512).
  bool wide = false;
  /// Kernels run their fn_xreg row functions where they have one (the plan's xshift=reg).
  bool xreg = false;
  /// A thread's tiles after its first are carried (the plan's carry; off: every tile computes
  /// its whole ghost zone).
  bool carry = true;
};

/// Per-thread ring buffers, kept by the caller between blocks.
struct FreeBytes {
  void operator()(unsigned char *p) const;
};
struct Workspace {
  std::vector<std::unique_ptr<unsigned char, FreeBytes>> buffers;
  std::vector<std::size_t> bytes;
};

/// Why `step` cannot be blocked ("" if it can): checked by the compiler before it offers the
/// plan, and again here at run time against the actual sizes.
std::string unsupported(const Step &step, const std::vector<View> &grids);

/// Runs k steps of `step` over `grids` (current storage, ghost cells filled), writing every grid
/// that a kernel of the step writes into the same-shaped `shadows` entry (interior cells only;
/// other entries are ignored). Kernel calls only: reductions in the step are skipped (the
/// caller runs the steps whose reductions are observed without blocking). Throws
/// stencilc::Error if `unsupported` says so or the options are out of range.
void run_block(const Step &step, const Options &opts, const std::vector<View> &grids,
               const std::vector<View> &shadows, const void *ctx, Workspace &ws);

/// Allocates the workspace a block of `opts` needs (run_block does so in its first block
/// otherwise) and touches it, each thread its own buffer: the pages fault in here, before a
/// run's clock starts, not in its first block (up to ~80 MB a thread for heat3d fp64 510^3,
/// k=16). Checks and throws as run_block does.
void reserve_workspace(const Step &step, const Options &opts, const std::vector<View> &grids,
                       Workspace &ws);

/// How the engine cuts `n` rows (or planes) into tiles of at most `most` for `threads` threads:
/// the fewest tiles that hold them, raised to a multiple of the thread count where n allows,
/// so every thread gets the same number of tiles; tile i covers [i n / c, (i + 1) n / c), so
/// sizes differ by at most one (510 rows, at most 160 each, 2 threads: 4 tiles of 127 or 128).
/// `most` <= 0 means n. Returns the count c (>= 1 for n >= 1).
std::int64_t tile_count(std::int64_t n, std::int64_t most, int threads);

/// Steps of the next block when `remaining` steps are left to block with blocks of at most k:
/// ceil(remaining / ceil(remaining / k)), so a run splits into the fewest blocks, of sizes that
/// differ by at most one (100 steps with k = 8: nine blocks of 8 and four of 7), instead of
/// whole blocks of k and a remainder of naive steps. 0 when nothing remains.
std::int64_t block_steps(std::int64_t remaining, int k);

} // namespace stencilc::cpu
