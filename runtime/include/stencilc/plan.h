// The plan of a stencil program: how it runs (a scheme and its parameters, and for MPI targets
// how the grid is distributed). One type for the compiler (the model's candidates, --plan of
// emit, build and explain), the runtime and the generated code (the compiled-in plan, --plan of
// an executable); one parser and one printer, so the words are the same everywhere.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <variant>

namespace stencilc {

/// The kind of machine a target's kernels run on: it decides which schemes exist.
enum class Platform { Cpu, Gpu };

namespace scheme {

/// CPU: a parallel sweep per kernel call. GPU: a thread per cell.
struct Naive {};
/// CPU 3.5D temporal blocking (the CPU engine): k steps per sweep over memory; tiles of at most
/// `rows` rows of dimension 1 (rank 2: planes of the streamed y) and `chunk` planes of the
/// streamed dimension (0: the engine's choice); row functions of `vec`-bit vectors (256, or 512
/// where the compiler and the CPU have them: engine.h, STENCILC_WIDE_VECTORS); `carry`: a
/// thread's later tiles take the rows below them from the tile before instead of computing
/// them again (engine.h; carry=off: every tile computes its whole ghost zone); `xreg`: row
/// functions that shift x neighbours out of vectors in registers instead of loading them
/// (xshift=reg; 256-bit vectors; kernels that cannot, x_shift_rows.h, keep theirs).
struct CpuTemporal {
  int k = 1;
  int rows = 0;
  int chunk = 0;
  int vec = 256;
  bool carry = true;
  bool xreg = false;
};
/// GPU 2.5D blocking: tile_x x tile_y thread blocks streaming along the third dimension, each
/// block (so each thread) over `chunk` of its planes: the points per thread along the streamed
/// dimension (0: all of them, a block per column of tiles).
struct GpuStreaming {
  int tile_x = 0, tile_y = 0;
  int chunk = 0;
};
/// GPU temporal blocking: k steps fused in a streamed block of tile_x x tile_y, each block over
/// `chunk` output planes of the walked dimension (0: all of them).
struct GpuTemporal {
  int k = 1;
  int tile_x = 0, tile_y = 0;
  int chunk = 0;
};

bool operator==(const Naive &, const Naive &);
bool operator==(const CpuTemporal &, const CpuTemporal &);
bool operator==(const GpuStreaming &, const GpuStreaming &);
bool operator==(const GpuTemporal &, const GpuTemporal &);

} // namespace scheme

/// An MPI target's part: the Cartesian process grid (x first; the fourth count splits the
/// fourth dimension of rank-4 grids), halos deep enough for k steps (exchanged every k steps),
/// and whether communication overlaps the inner region's computation: overlap=on, or
/// overlap=host (`host`; GPU targets, naive plan): the host's cores compute the block's
/// boundary region while the device computes its interior, so what MPI sends is on the host;
/// or overlap=boundary (`first`; GPU targets): the boundary first (under the temporal plan its
/// fused steps), the exchange of what it wrote in flight while the interior runs (overlap=on: the
/// interior first, beside the exchange of what the sweep reads, then the boundary).
struct Distribution {
  std::array<int, 4> procs{1, 1, 1, 1};
  int k = 1;
  bool overlap = false;
  bool host = false;  // (overlap too)
  bool first = false; // (overlap too)
};
bool operator==(const Distribution &, const Distribution &);

/// How the grids of a struct's members are stored: one array per member (structure of arrays),
/// or one allocation with their x-rows interleaved (AoSoA: array of structures of rows; each
/// member's row stays contiguous, so vector loads and coalesced GPU accesses do too, and a
/// point's members are one row group apart, not a whole grid). Chosen when the code is
/// generated; grids of numbers are the same either way.
enum class Layout { Soa, Aosoa };

struct Plan {
  using Scheme =
      std::variant<scheme::Naive, scheme::CpuTemporal, scheme::GpuStreaming, scheme::GpuTemporal>;
  Scheme scheme;
  std::optional<Distribution> distribution; // MPI targets only
  Layout layout = Layout::Soa;

  /// "naive", "temporal" (CPU or GPU) or "streaming".
  const char *scheme_name() const;
  bool naive() const { return std::holds_alternative<scheme::Naive>(scheme); }
  /// Steps per sweep over memory (temporal schemes) or per halo exchange (distributed naive).
  int k() const;
  template <typename S> const S *get() const { return std::get_if<S>(&scheme); }
};
bool operator==(const Plan &, const Plan &);
inline bool operator!=(const Plan &a, const Plan &b) { return !(a == b); }

/// What a target's plans may be: its platform and whether it is distributed (MPI).
struct PlanRules {
  Platform platform = Platform::Cpu;
  bool distributed = false;
  std::string target = "this"; // its name, for messages
};

/// The text of a plan, the words parse_plan reads: "scheme=naive", "scheme=temporal,k=4,rows=64"
/// (",vec=512" when its row functions use 512-bit vectors; vec=256, the default, is not written;
/// ",carry=off" when its tiles are not carried, ",xshift=reg" when its row functions shift x
/// neighbours in registers),
/// "scheme=streaming,tile=32x8,chunk=64", "scheme=temporal,k=2,tile=32x8"; an MPI plan adds
/// ",procs=AxBxC,overlap=on|off|host|boundary" (and k of a naive one: the halo depth in steps); any
/// plan
/// ",layout=aosoa" when its struct grids are interleaved (layout=soa, the default, is not
/// written).
std::string to_string(const Plan &p);

/// Parses --plan KEY=VALUE,... (scheme, k, rows, chunk, vec=256|512, carry=on|off,
/// xshift=load|reg, tile=XxY,
/// procs=AxBxC, overlap=on|off|host|boundary, layout=soa|aosoa) over `base`: keys not given keep
/// base's values, and scheme=naive drops the others; a text that names its scheme is a whole
/// plan as to_string writes it, so chunk, vec, carry and xshift it leaves out take their
/// defaults, not base's; "naive" alone is scheme=naive. Throws stencilc::Error naming the bad key
/// or value, or why the plan is not one of `rules`.
Plan parse_plan(const std::string &text, const PlanRules &rules, const Plan &base = Plan{});

/// The naive plan with `p`'s layout: what an executable's --plan is read over, so that a plan
/// that does not name the layout keeps the compiled-in one.
Plan layout_only(const Plan &p);
/// Throws stencilc::Error if `p` (parsed from --plan `text`) names another layout than
/// `compiled`'s: the grids were allocated in that one when the code was generated.
void check_layout(const std::string &text, const Plan &p, const Plan &compiled);

} // namespace stencilc
