// The cuda and hip targets, one generator: kernels written against the portability header
// stencilc/gpu/device.h (runtime), which maps them onto CUDA, HIP or the CPU execution layer, so
// the two targets' outputs differ only in the target's name. Plans: naive, a thread per point;
// streaming (2.5D, kernels of rank 3 and 4): a block of tile_x x tile_y threads over the first
// two dimensions walks the third (all of it, or a chunk of its planes), each plane of a grid read
// at offsets loaded once into a ring of shared-memory planes (rank 4: a block per index of the
// fourth dimension). The tile is chosen when the program runs (dynamic shared memory), so one
// kernel serves every tile.
//
// Grids live on the device (a DeviceGrid per grid, the host Grid's layout); the host keeps a
// mirror that the API returns, copied only when the host reads or writes it (accessors, load,
// save, init_random) and for reduction results. Every kernel, reduction and ghost fill is a
// kernel launched over a linear index of its points (x fastest); a reduction adds fixed
// chunks of kChunk points in a fixed tree order on the device and the chunks in order on the
// host, whatever the launch shape.
#include <array>
#include <functional>
#include <set>

#include <fmt/format.h>
#include <kainjow/mustache.hpp>

#include "codegen/c_like.h"
#include "codegen/deep_halos.h"
#include "codegen/codegen.h"
#include "codegen/program_data.h"

namespace stc {

namespace {

namespace mus = kainjow::mustache;

constexpr int kThreads = 128; // threads per block of a naive kernel
constexpr int kChunk = 256;   // points a reduction block adds in its fixed tree order
// A kernel launched with a fixed block of `threads` (naive sweeps, reductions, fills, init):
// its launch bounds say so, so that the compiler may give each thread the registers that many
// threads leave (hipcc assumes blocks of 1024 otherwise). The blocked plans' kernels take the
// plan's tile at run time and have none.
std::string bounded_kernel(int threads) {
  return fmt::format("STENCILC_KERNEL void STENCILC_BOUNDS({}) ", threads);
}
constexpr int kMaxFused = 10; // the temporal plan's most fused steps (AN5D scales to 10)
// ... and the most with the column in registers: each unrolled level adds per-level scalars,
// and hipcc (gfx90a) spilled scalar registers from 6 on heat3d_weights and from 8 on heat3d
// (nvcc: none up to 10, at most 72 registers).
constexpr int kMaxRegisterFused = 5;

// Inside a device kernel (RowBodyEmitter): params and reductions are kernel arguments of their
// own names, indices the thread's point, reads through row pointers; integer division and int()
// flag an error bit (a kernel cannot throw; stencilc::kernel_div & co. of error.h are host and
// device functions), reported by the host after the step. A Dirichlet value or an init
// (FlaggedSetupEmitter) sees params as fields of prm__ (passed by value) and the cell's indices
// x0__..x3__.

// What a sweep over a domain hands its kernel: bounds, grids (origin and strides), params,
// reduction values, in this order as arguments of the kernel and of its launch.
struct Sweep {
  const std::vector<std::string> &indices;
  const ir::Domain &domain;
  int domain_grid;
  std::set<int> read, written, params, reductions;
  // mpi-cuda, mpi-hip: a block of a distributed grid, in local indices; the program's indices
  // (and a colour's parity) are global, the block's offsets off0__, ... added.
  bool mpi = false;
};

std::set<int> reductions_of(const std::vector<ir::ExprPtr> &exprs) {
  std::set<int> rs;
  for (const auto &e : exprs)
    ir::walk(e, [&](const ir::Expr &x) {
      if (x.op == ir::Op::Reduction || x.op == ir::Op::ReductionFirst)
        rs.insert(x.id);
    });
  return rs;
}

std::set<int> reductions_of(const std::vector<ir::Stmt> &body) {
  std::set<int> rs;
  ir::walk(body, [&](const ir::Expr &x) {
    if (x.op == ir::Op::Reduction || x.op == ir::Op::ReductionFirst)
      rs.insert(x.id);
  });
  return rs;
}

bool colour(const ir::Domain &d) { return ir::colour_of(d) >= 0; }

std::set<int> used_grids(const Sweep &sw) {
  std::set<int> used = sw.read;
  used.insert(sw.written.begin(), sw.written.end());
  return used;
}

// The kernel's parameters (declarations) and the launch's arguments (host expressions).
struct Signature {
  std::string params, args;
  void add(const std::string &decl, const std::string &name, const std::string &arg) {
    params += std::string(params.empty() ? "" : ", ") + "[[maybe_unused]] " + decl + " " + name;
    args += (args.empty() ? "" : ", ") + arg;
  }
};

// What decides a grid's row stride besides its own shape: under layout=aosoa a struct's
// members interleave their rows, so the members of every grid of that struct (the element
// types and x halos of the group) -- "" for a grid of numbers. (Under layout=soa a member's
// key only keeps it from sharing with a grid of numbers, which costs an argument, not bits.)
std::string layout_key(const ir::Program &p, int g) {
  if (p.grids[g].member_of.empty())
    return "";
  std::string key;
  for (const auto &members : ir::struct_groups(p))
    if (std::find(members.begin(), members.end(), g) != members.end())
      for (int m : members)
        key += fmt::format("{}:{};", ir::elem_name(p.grids[m]), p.grids[m].halo[0]);
  return key;
}

// The grid whose strides grid g shares: the first used grid with g's element type, halos and
// layout key. The lowering checks that the grids of a kernel have its shape (the constructor
// throws otherwise), so such grids have equal strides: a kernel then takes one set of strides
// per layout, not per grid (fewer arguments, which would otherwise spill scalar registers).
int stride_owner(const ir::Program &p, const Sweep &sw, int g) {
  const int rank = static_cast<int>(sw.indices.size());
  if (p.grids[g].rank < rank) // a coefficient of lower rank has a shape of its own
    return g;
  for (int o : used_grids(sw)) {
    bool same = ir::elem_name(p.grids[o]) == std::string(ir::elem_name(p.grids[g])) &&
                p.grids[o].rank == rank && layout_key(p, o) == layout_key(p, g);
    for (int d = 0; d < rank; ++d)
      same = same && p.grids[o].halo[d] == p.grids[g].halo[d];
    if (same)
      return o;
  }
  return g;
}

Signature signature(const ir::Program &p, const Sweep &sw) {
  const int rank = static_cast<int>(sw.indices.size());
  Signature s;
  s.add("const std::int64_t", "n__", "n__");
  for (int d = 0; d < rank; ++d) {
    s.add("const std::int64_t", fmt::format("lo{}__", d), fmt::format("lo{}__", d));
    s.add("const std::int64_t", fmt::format("hi{}__", d), fmt::format("hi{}__", d));
  }
  if (sw.mpi)
    for (int d = 0; d < rank; ++d)
      s.add("const std::int64_t", fmt::format("off{}__", d), fmt::format("off{}__", d));
  for (int g : used_grids(sw)) {
    const auto &grid = p.grids[g];
    const bool w = sw.written.count(g) > 0;
    s.add(fmt::format("STENCILC_GLOBAL({}{}) const", w ? "" : "const ", ir::elem_name(grid)),
          grid.name + "__o", fmt::format("dev__->{}.origin()", grid.name));
    if (stride_owner(p, sw, g) == g)
      for (int d = 1; d < grid.rank; ++d)
        s.add("const std::int64_t", fmt::format("{}__s{}", grid.name, d),
              fmt::format("{}_.stride({})", grid.name, d));
  }
  for (int q : sw.params)
    s.add("const " + std::string(ir::cxx_type_name(p.params[q].type)), p.params[q].name,
          "params_." + p.params[q].name);
  for (int r : sw.reductions)
    for (const char *what : {"red", "first"})
      s.add("const double", fmt::format("{}__{}_", what, p.reductions[r].name),
            fmt::format("{}__{}_", what, p.reductions[r].name));
  return s;
}

// The thread's point from its linear index i__ (x fastest), then the row pointers; `skip` is
// the statement that leaves a thread without a point (a colour's x past the row's end).
std::string point_of_thread(const ir::Program &p, const Sweep &sw, const std::string &skip) {
  const int rank = static_cast<int>(sw.indices.size());
  const auto &idx = sw.indices;
  std::string s = "std::int64_t r__ = i__;\n";
  // A colour visits every other x: (hi0 - lo0 + 1) / 2 slots per row, the row's parity picks
  // which.
  s += colour(sw.domain) ? "const std::int64_t nx__ = (hi0__ - lo0__ + 1) / 2;\n"
                           "const std::int64_t xi__ = r__ % nx__;\nr__ /= nx__;\n"
                         : fmt::format("const std::int64_t {} = lo0__ + r__ % (hi0__ - lo0__);\n"
                                       "r__ /= hi0__ - lo0__;\n",
                                       idx[0]);
  for (int d = 1; d < rank; ++d)
    s += d + 1 < rank ? fmt::format("const std::int64_t {0} = lo{1}__ + r__ % (hi{1}__ - lo{1}__);\n"
                                    "r__ /= hi{1}__ - lo{1}__;\n",
                                    idx[d], d)
                      : fmt::format("const std::int64_t {} = lo{}__ + r__;\n", idx[d], d);
  if (colour(sw.domain)) {
    std::string parity =
        fmt::format("{} + lo0__{}", ir::colour_of(sw.domain), sw.mpi ? " + off0__" : "");
    for (int d = 1; d < rank; ++d)
      parity += " + " + idx[d] + (sw.mpi ? fmt::format(" + off{}__", d) : "");
    s += fmt::format("const std::int64_t {0} = lo0__ + 2 * xi__ + ({1}) % 2;\nif ({0} >= hi0__)\n"
                     "  {2}\n",
                     idx[0], parity, skip);
  }
  // On MPI, grids every rank holds whole are read at global indices (RowBodyEmitter).
  const std::set<int> whole = sw.mpi ? ir::lower_rank_grids(p) : std::set<int>();
  for (int g : used_grids(sw)) {
    const auto &grid = p.grids[g];
    const int owner = stride_owner(p, sw, g);
    if (owner != g)
      for (int d = 1; d < rank; ++d)
        s += fmt::format("[[maybe_unused]] const std::int64_t {}__s{} = {}__s{};\n", grid.name, d,
                         p.grids[owner].name, d);
    s += fmt::format("STENCILC_ROW({}{}) {}__r = {};\n", sw.written.count(g) ? "" : "const ",
                     ir::elem_name(grid), grid.name, row_origin(grid, idx, whole.count(g) > 0));
  }
  return s;
}

// Host side of a sweep: bounds (lo/hi per dimension) and the point count n__.
// `region`: an mpi kernel's, clipped to *box__ when given (the overlapped exchange's regions).
std::string host_bounds(const ir::Program &p, const Sweep &sw, bool region = false) {
  SetupEmitter setup(p);
  const int rank = static_cast<int>(sw.indices.size());
  const std::string &dom = p.grids[sw.domain_grid].name;
  std::string s = "  [[maybe_unused]] const Params &prm__ = params_;\n";
  if (sw.mpi) {
    // This rank's block; a sub-domain clipped to it, in local indices.
    for (int d = 0; d < rank; ++d)
      s += fmt::format("  const std::int64_t off{0}__ = part__{1}_.offset[{0}];\n", d, dom);
    const char *q = region ? "" : "const ";
    for (int d = 0; d < rank; ++d)
      s += sw.domain.kind == ir::Domain::Kind::Range
               ? fmt::format("  {4}std::int64_t lo{0}__ = std::clamp<std::int64_t>(({1}) - "
                             "off{0}__, 0, {3}_.extent({0})), hi{0}__ = std::clamp<std::int64_t>"
                             "(({2}) - off{0}__, 0, {3}_.extent({0}));\n",
                             d, setup.expr(sw.domain.lo[d]), setup.expr(sw.domain.hi[d]), dom, q)
               : fmt::format("  {2}std::int64_t lo{0}__ = 0, hi{0}__ = {1}_.extent({0});\n", d, dom,
                             q);
    if (region) {
      s += "  if (box__) {\n";
      for (int d = 0; d < rank; ++d)
        s += fmt::format("    lo{0}__ = std::max(lo{0}__, box__->lo[{0}]);\n    hi{0}__ = "
                         "std::max(lo{0}__, std::min(hi{0}__, box__->hi[{0}]));\n",
                         d);
      s += "  }\n";
    }
  } else
    for (int d = 0; d < rank; ++d)
      s += sw.domain.kind == ir::Domain::Kind::Range
               ? fmt::format("  const std::int64_t lo{0}__ = {1}, hi{0}__ = {2};\n", d,
                             setup.expr(sw.domain.lo[d]), setup.expr(sw.domain.hi[d]))
               : fmt::format("  const std::int64_t lo{0}__ = 0, hi{0}__ = {1}_.extent({0});\n", d,
                             dom);
  s += "  const std::int64_t n__ = ";
  for (int d = 0; d < rank; ++d)
    s += (d ? " * " : "") + (d == 0 && colour(sw.domain) ? std::string("((hi0__ - lo0__ + 1) / 2)")
                                                         : fmt::format("(hi{0}__ - lo{0}__)", d));
  return s + ";\n";
}

// Slot of the device's error word of each kernel, reduction and grid fill.
struct ErrorSlots {
  int kernels, reductions, grids;
  int kernel(int k) const { return k; }
  int reduction(int r) const { return kernels + r; }
  int fill(int g) const { return kernels + reductions + g; }
  int init(int g) const { return kernels + reductions + grids + g; }
  int count() const { return kernels + reductions + 2 * grids; }
};

// A grid's `init` on the device: a thread per interior cell (ghost cells stay zero, as the
// host's init leaves them), the expression at the cell's indices x0__..x3__.
std::string device_init(const ir::Program &p, const ir::Grid &g, int gi, const ErrorSlots &slots,
                      std::string &host) {
  FlaggedSetupEmitter setup(p);
  const std::string elem = ir::elem_name(g);
  const bool fail = ir::any_may_fail(g.init);
  std::string dev =
      fmt::format("{}init__{}__dev(STENCILC_GLOBAL({}) const o__, const std::int64_t s1__, "
                  "const std::int64_t s2__, const std::int64_t s3__, const std::int64_t n0__, "
                  "const std::int64_t n1__, const std::int64_t n2__, const std::int64_t n3__, "
                  "[[maybe_unused]] const Params prm__, [[maybe_unused]] int *const err_out__) {{\n"
                  "  const std::int64_t i__ = stencilc::gpu::global_index();\n"
                  "  if (i__ >= n0__ * n1__ * n2__ * n3__)\n    return;\n"
                  "  std::int64_t r__ = i__;\n"
                  "  const std::int64_t x0__ = r__ % n0__;\n  r__ /= n0__;\n"
                  "  const std::int64_t x1__ = r__ % n1__;\n  r__ /= n1__;\n"
                  "  const std::int64_t x2__ = r__ % n2__;\n  r__ /= n2__;\n"
                  "  const std::int64_t x3__ = r__;\n",
                  bounded_kernel(kThreads), g.name, elem);
  if (fail)
    dev += "  int err__ = 0;\n";
  dev += fmt::format("  o__[x0__ + x1__ * s1__ + x2__ * s2__ + x3__ * s3__] = static_cast<{}>({});\n",
                     elem, setup.expr(g.init));
  if (fail)
    dev += "  if (err__)\n    stencilc::gpu::flag_error(err_out__, err__);\n";
  dev += "}\n\n";
  host += fmt::format(
      "  {{\n    const std::int64_t n__ = {0}_.interior_size();\n    if (n__ > 0)\n"
      "      STENCILC_LAUNCH(init__{0}__dev, stencilc::gpu::blocks_for(n__, {1}), {1}, "
      "dev__->{0}.origin(), {0}_.stride(1), {0}_.stride(2), {0}_.stride(3), {0}_.extent(0), "
      "{0}_.extent(1), {0}_.extent(2), {0}_.extent(3), params_, dev__->err.get() + {2});\n  }}\n",
      g.name, kThreads, slots.init(gi));
  return dev;
}

std::string stream_kernel_code(const ir::Program &p, const ir::Kernel &k, const Sweep &sw,
                               const Signature &sig, std::string &launch);

// The program the temporal plan fuses: one kernel call writing `out` from `in` at offsets of
// at most r, then `swap in, out` (reductions aside); see temporal_shape().
struct TemporalShape {
  int kernel = -1, in = -1, out = -1;
  int rank = 3; // 3: blocks tile x and y and walk z; 2: blocks are rows of x and walk y
  // Widest offsets of the reads of `in`: in x, in the tiled y (0 for rank 2), in the walked
  // dimension.
  std::array<int, 3> r{};
  // The kernel reads no grid but `in` and its own outputs (AN5D's single-array stencils): the
  // levels unroll and a thread's own column lives in registers. With coefficients, each
  // unrolled level kept its coefficients' addresses in registers (himeno: 255, spilling from
  // k = 5), so their levels stay a loop and the column is read from shared memory.
  bool column_registers = false;
};

// mpi-cuda, mpi-hip under overlap=on: grid g's ghost refresh (if need__G) started (its faces
// queued to the host on the copy stream, unless handed to MPI as device memory) and finished
// (after the copy stream is synchronized: exchanged, the physical faces filled, the ghost cells
// queued back on the copy stream).
struct OverlappedRefresh {
  std::string start, finish;
};
OverlappedRefresh overlapped_refresh(const ir::Grid &g, int gi) {
  OverlappedRefresh r;
  r.start = fmt::format("    if (need__{0} && !direct__)\n      dev__->{0}.download_faces_async({0}_, "
                        "dev__->copy, \"grid '{0}' (host copy)\");\n",
                        g.name);
  r.finish = fmt::format(
      "    if (need__{0} && direct__) {{\n      for (int d__ = 0; d__ < {2}; ++d__) {{\n"
      "        cart__->exchange_storage({0}_, dev__->{0}.storage(), part__{0}_, d__);\n"
      "        if (dirty__{0}_) {{\n          device_faces__{0}(d__, true);\n"
      "          dev__->copy.synchronize(); // the next dimension sends them\n        }}\n"
      "      }}\n      dirty__{0}_ = halo__{0}_ = false;\n      where__[{1}] = "
      "kDeviceNewer;\n    }} else if (need__{0}) {{\n      "
      "stencilc::gpu::host_ready({0}_.storage(), "
      "static_cast<std::size_t>({0}_.storage_size()) * sizeof(*{0}_.storage()), \"grid "
      "'{0}'\");\n      fill__{0}({0}_, dirty__{0}_);\n      "
      "dev__->{0}.upload_halo_async({0}_, "
      "dev__->copy, \"grid '{0}' (device copy)\");\n      dirty__{0}_ = halo__{0}_ = "
      "false;\n"
      "      where__[{1}] = kDeviceNewer;\n    }}\n",
      g.name, gi, g.rank);
  return r;
}

// The radius of the fused steps in dimension d of the grids (shape t's r is x, y, walked).
int temporal_reach(const TemporalShape &t, int d) {
  return d == 0 ? t.r[0] : d == t.rank - 1 ? t.r[2] : t.r[1];
}

std::string temporal_kernel_code(const ir::Program &p, const ir::Kernel &k, const Sweep &sw,
                                 const TemporalShape &t, std::string &host);

std::string kernel_code(const ir::Program &p, const ir::Kernel &k, const ErrorSlots &slots, int ki,
                        bool streaming, const TemporalShape *temporal, bool mpi,
                        std::string &host) {
  RowBodyEmitter em(p, k.indices, &k.locals, mpi);
  Sweep sw{k.indices,
           k.domain,
           k.domain_grid,
           ir::grids_read(k.body),
           ir::grids_written(k.body),
           params_of(k.body),
           reductions_of(k.body),
           mpi};
  const bool fail = ir::any_may_fail(k.body);
  Signature sig = signature(p, sw);
  sig.add("int *const", "err_out__", fmt::format("dev__->err.get() + {}", slots.kernel(ki)));
  std::string dev =
      fmt::format("{}kernel__{}__dev({}) {{\n", bounded_kernel(kThreads), k.name, sig.params);
  dev += "const std::int64_t i__ = stencilc::gpu::global_index();\nif (i__ >= n__)\n  return;\n";
  dev += point_of_thread(p, sw, "return;");
  if (fail)
    dev += "int err__ = 0;\n";
  dev += em.kernel_statements(k);
  if (fail)
    dev += "if (err__)\n  stencilc::gpu::flag_error(err_out__, err__);\n";
  dev += "}\n";
  if (temporal && temporal->kernel == ki)
    dev += "\n" + temporal_kernel_code(p, k, sw, *temporal, host);
  host += fmt::format("void Stencil::kernel__{}({}) {{\n", k.name,
                      mpi ? "const stencilc::mpi::Region *box__, bool async__" : "");
  if (mpi) // (overlap=host's kSplit no longer holds: the host's cells near the faces are older)
    for (int g : sw.written)
      host += fmt::format("  where__[{}] = kDeviceNewer;\n", g);
  host += host_bounds(p, sw, mpi);
  host += "  if (n__ <= 0)\n    return;\n";
  if (streaming) {
    std::string launch;
    dev += "\n" + stream_kernel_code(p, k, sw, sig, launch);
    host += "  if (const auto *st__ = plan__.get<stencilc::scheme::GpuStreaming>()) {\n" + launch +
            "    return;\n  }\n";
  }
  if (mpi) // an overlapped exchange's regions run on the compute stream
    host +=
        fmt::format("  if (async__) {{\n    STENCILC_LAUNCH_ON(dev__->compute, kernel__{}__dev, "
                    "stencilc::gpu::blocks_for(n__, {}), {}, {});\n    return;\n  }}\n",
                    k.name, kThreads, kThreads, sig.args);
  host += fmt::format("  STENCILC_LAUNCH(kernel__{}__dev, stencilc::gpu::blocks_for(n__, {}), {}, "
                      "{});\n}}\n\n",
                      k.name, kThreads, kThreads, sig.args);
  return dev;
}

// " + n", " - n" or nothing: an offset added to an index in generated code.
std::string plus(int n) {
  return n > 0 ? fmt::format(" + {}", n) : n < 0 ? fmt::format(" - {}", -n) : std::string();
}

// A grid the streaming kernel keeps in shared memory: one read at an offset in the first three
// dimensions (and none in the fourth) stages it; its ring holds 2 rz + 1 planes of
// (tile_x + 2 rx) x (tile_y + 2 ry) cells, rz the kernel's widest offset in the third dimension.
struct Staged {
  int grid;
  int rx = 0, ry = 0, rz = 0; // its widest offsets in this kernel (its ghost cells reach that far)
};

struct StreamLayout {
  std::vector<Staged> staged;
  int rz = 0; // planes before and after the computed one, in every ring
  const Staged *find(int g) const {
    for (const auto &st : staged)
      if (st.grid == g)
        return &st;
    return nullptr;
  }
};

// (A read at an absolute index goes to memory: the rings hold the point's neighbourhood.)
bool shared_read(const ir::Expr &e, int rank) {
  return !e.absolute && (e.offset[0] || e.offset[1] || e.offset[2]) &&
         (rank < 4 || e.offset[3] == 0);
}

// (A grid of lower rank, a coefficient, is read from memory.)
StreamLayout stream_layout(const ir::Program &p, const ir::Kernel &k) {
  StreamLayout l;
  ir::walk(k.body, [&](const ir::Expr &e) {
    if (e.op != ir::Op::GridRead || p.grids[e.id].rank < k.rank || !shared_read(e, k.rank))
      return;
    Staged *st = nullptr;
    for (auto &x : l.staged)
      if (x.grid == e.id)
        st = &x;
    if (!st) {
      l.staged.push_back({e.id});
      st = &l.staged.back();
    }
    st->rx = std::max(st->rx, std::abs(e.offset[0]));
    st->ry = std::max(st->ry, std::abs(e.offset[1]));
    st->rz = std::max(st->rz, std::abs(e.offset[2]));
    l.rz = std::max(l.rz, st->rz);
  });
  return l;
}

// Reads of a staged grid come from its ring: the plane of z + dz, the cell of the thread's
// point shifted by (dx, dy) in the tile with its margins.
class StreamBodyEmitter : public RowBodyEmitter {
public:
  StreamBodyEmitter(const ir::Program &p, const ir::Kernel &k, const StreamLayout &l)
      : RowBodyEmitter(p, k.indices, &k.locals), rank_(k.rank), layout_(l) {}

protected:
  std::string grid_read(const ir::Expr &e) const override {
    const Staged *st = layout_.find(e.id);
    if (!st || e.absolute || (rank_ == 4 && e.offset[3] != 0))
      return row_read(e);
    const std::string &g = prog_.grids[e.id].name;
    return fmt::format("{0}__sm[(({1} - lo2__{2}) % {3}) * {0}__pn + (ty__{4}) * {0}__pw + tx__{5}]",
                       g, indices_[2], plus(layout_.rz + e.offset[2]), 2 * layout_.rz + 1,
                       plus(st->ry + e.offset[1]), plus(st->rx + e.offset[0]));
  }

private:
  int rank_;
  const StreamLayout &layout_;
};

// The streaming (2.5D) kernel of a sweep and the host's launch of it (`launch`, which returns
// from the sweep's host function).
std::string stream_kernel_code(const ir::Program &p, const ir::Kernel &k, const Sweep &sw,
                               const Signature &sig, std::string &launch) {
  const StreamLayout l = stream_layout(p, k);
  const int rank = k.rank, np = 2 * l.rz + 1;
  const auto &idx = sw.indices;
  StreamBodyEmitter em(p, k, l);
  std::string dev = fmt::format("STENCILC_KERNEL void kernel__{}__stream({}, const int tx__n, "
                                "const int ty__n, const std::int64_t pz__n) {{\n",
                                k.name, sig.params);
  dev += "const int tx__ = stencilc::gpu::thread_x(), ty__ = stencilc::gpu::thread_y();\n"
         "const std::int64_t bx__ = lo0__ + stencilc::gpu::block_x() * tx__n;\n"
         "const std::int64_t by__ = lo1__ + stencilc::gpu::block_y() * ty__n;\n";
  dev += fmt::format("const std::int64_t {} = bx__ + tx__;\nconst std::int64_t {} = by__ + ty__;\n",
                     idx[0], idx[1]);
  // The block's planes z0__..z1__ of the walked dimension: pz__n of them (its chunk), so blocks
  // in z are chunks (rank 4: chunks of each index of the fourth dimension, chunk fastest).
  dev += "const std::int64_t nc__ = (hi2__ - lo2__ + pz__n - 1) / pz__n;\n";
  if (rank == 4)
    dev +=
        fmt::format("const std::int64_t {} = lo3__ + stencilc::gpu::block_z() / nc__;\n", idx[3]);
  dev += "const std::int64_t z0__ = lo2__ + (stencilc::gpu::block_z() % nc__) * pz__n;\n"
         "const std::int64_t z1__ = z0__ + pz__n < hi2__ ? z0__ + pz__n : hi2__;\n";
  std::string sum_idx = idx[0] + " + " + idx[1] + " + " + idx[2] + (rank == 4 ? " + " + idx[3] : "");
  dev += fmt::format("const bool in__ = {} < hi0__ && {} < hi1__;\n", idx[0], idx[1]);
  // A colour: the points whose coordinates add up to its parity (as the naive x loop's).
  const std::string colour_cond =
      colour(sw.domain) ? fmt::format(" && ({}) % 2 == {}", sum_idx, ir::colour_of(sw.domain)) : "";
  // Strides of grids that share another's layout (as point_of_thread).
  for (int g : used_grids(sw)) {
    const int owner = stride_owner(p, sw, g);
    if (owner != g)
      for (int d = 1; d < rank; ++d)
        dev += fmt::format("[[maybe_unused]] const std::int64_t {}__s{} = {}__s{};\n",
                           p.grids[g].name, d, p.grids[owner].name, d);
  }
  // The rings one after the other in the dynamic shared memory, each on 16 bytes: the kernel
  // and the host compute the same offsets from the tile.
  auto ring_bytes = [&](const Staged &st, const char *tx, const char *ty) {
    return fmt::format("({} * ({} + {}) * ({} + {}) * sizeof({}) + 15) / 16 * 16", np, tx,
                       2 * st.rx, ty, 2 * st.ry, ir::elem_name(p.grids[st.grid]));
  };
  std::string dev_at = "0", host_at = "0";
  for (const auto &st : l.staged) {
    const ir::Grid &g = p.grids[st.grid];
    dev += fmt::format("const std::int64_t {0}__pw = tx__n{1}, {0}__pn = {0}__pw * (ty__n{2});\n"
                       "STENCILC_DYNAMIC_SHARED({3}, {0}__sm, {4}, {5} * {0}__pn);\n",
                       g.name, plus(2 * st.rx), plus(2 * st.ry), ir::elem_name(g), dev_at, np);
    dev_at += " + " + ring_bytes(st, "tx__n", "ty__n");
    host_at += " + " + ring_bytes(st, "st__->tile_x", "st__->tile_y");
  }
  const std::string bytes = fmt::format("static_cast<std::size_t>({})", host_at);
  const bool fail = ir::any_may_fail(k.body);
  if (fail)
    dev += "int err__ = 0;\n";
  dev += fmt::format("for (std::int64_t p__ = z0__{}; p__ < z1__{}; ++p__) {{\n", plus(-l.rz),
                     plus(l.rz));
  // Every thread loads its share of plane p__ of each ring, then the plane p__ - rz is computed.
  for (const auto &st : l.staged) {
    const std::string &g = p.grids[st.grid].name;
    std::string at = fmt::format("gx__ + gy__ * {0}__s1 + p__ * {0}__s2", g);
    if (rank == 4)
      at += fmt::format(" + {} * {}__s3", idx[3], g);
    // Only the planes and cells its reads reach: beyond them its ghost cells may end.
    const std::string planes =
        st.rz == l.rz ? std::string()
                      : fmt::format("p__ >= z0__{} && p__ < z1__{} && ", plus(-st.rz), plus(st.rz));
    dev += fmt::format(
        "  for (std::int64_t i__ = std::int64_t(ty__) * tx__n + tx__; i__ < {0}__pn; i__ += "
        "std::int64_t(tx__n) * ty__n) {{\n"
        "    const std::int64_t gx__ = bx__{1} + i__ % {0}__pw, gy__ = by__{2} + i__ / {0}__pw;\n"
        "    if ({6}gx__ < hi0__{7} && gy__ < hi1__{8})\n"
        "      {0}__sm[((p__ - lo2__{3}) % {4}) * {0}__pn + i__] = {0}__o[{5}];\n  }}\n",
        g, plus(-st.rx), plus(-st.ry), plus(l.rz), np, at, planes, plus(st.rx), plus(st.ry));
  }
  dev += "  stencilc::gpu::sync_threads();\n";
  dev += fmt::format("  const std::int64_t {} = p__{};\n", idx[2], plus(-l.rz));
  dev += fmt::format("  if ({} >= z0__ && in__{}) {{\n", idx[2], colour_cond);
  for (int g : used_grids(sw)) {
    const auto &grid = p.grids[g];
    dev += fmt::format("    [[maybe_unused]] STENCILC_ROW({}{}) {}__r = {};\n",
                       sw.written.count(g) ? "" : "const ", ir::elem_name(grid), grid.name,
                       row_origin(grid, idx));
  }
  dev += em.kernel_statements(k);
  dev += "  }\n  stencilc::gpu::sync_threads();\n}\n";
  if (fail)
    dev += "if (err__)\n  stencilc::gpu::flag_error(err_out__, err__);\n";
  dev += "}\n";
  // Chunks of the plan's planes (0 or more than the extent: all of them).
  launch += "    const std::int64_t pz__ = st__->chunk > 0 && st__->chunk < hi2__ - lo2__ ? "
            "st__->chunk : hi2__ - lo2__;\n";
  std::string blocks = "stencilc::gpu::blocks_for(hi0__ - lo0__, st__->tile_x), "
                       "stencilc::gpu::blocks_for(hi1__ - lo1__, st__->tile_y, 65535), ";
  blocks += rank == 4 ? "stencilc::gpu::blocks_for((hi2__ - lo2__ + pz__ - 1) / pz__ * (hi3__ - "
                        "lo3__), 1, 65535)"
                      : "stencilc::gpu::blocks_for(hi2__ - lo2__, pz__, 65535)";
  launch += fmt::format(
      "    STENCILC_LAUNCH_SHARED(kernel__{}__stream, stencilc::gpu::Dims({}), "
      "stencilc::gpu::Dims(st__->tile_x, st__->tile_y, 1), {}, {}, st__->tile_x, st__->tile_y, "
      "pz__);\n",
      k.name, blocks, bytes, sig.args);
  return dev;
}

// Why the temporal plan cannot fuse the steps of program p ("" if it can), and its shape.
// AN5D fuses the steps of one stencil update: each fused step reads the previous one's values
// from shared memory, so the run block must be one kernel call and the swap that makes its
// output the next step's input. Ghost cells are not recomputed inside a block: they must be
// Dirichlet (constant in time) so that every fused step sees the values the grid holds.
std::string temporal_shape(const ir::Program &p, TemporalShape &t) {
  if (p.until)
    return "the run block stops on a condition (run until), which is tested after every step";
  int calls = 0, swaps = 0;
  bool swap_first = false;
  for (const auto &r : p.run)
    if (r.kind == ir::RunStmt::Kind::Call) {
      ++calls;
      t.kernel = r.a;
    } else if (r.kind == ir::RunStmt::Kind::Swap) {
      ++swaps;
      swap_first = calls == 0;
      t.in = r.a;
      t.out = r.b;
    }
  if (calls != 1 || swaps != 1 || swap_first)
    return fmt::format("the temporal GPU plan fuses the steps of one kernel call followed by one "
                       "swap (a Jacobi-style update); this run block has {} call(s) and {} swap(s)",
                       calls, swaps);
  const ir::Kernel &k = p.kernels[t.kernel];
  if (k.rank != 2 && k.rank != 3)
    return fmt::format("the temporal GPU plan walks the last dimension of kernels of rank 2 or "
                       "3; kernel '{}' is rank {}",
                       k.name, k.rank);
  t.rank = k.rank;
  if (k.domain.kind != ir::Domain::Kind::Interior)
    return fmt::format("kernel '{}' runs over a sub-domain or one colour; the temporal GPU plan "
                       "fuses sweeps of the whole interior",
                       k.name);
  const std::set<int> written = ir::grids_written(k.body);
  if (!written.count(t.out))
    std::swap(t.in, t.out);
  if (!written.count(t.out) || written.count(t.in))
    return fmt::format("kernel '{}' does not write exactly one of the swapped grids '{}' and '{}'",
                       k.name, p.grids[t.in].name, p.grids[t.out].name);
  if (ir::any_may_fail(k.body))
    return fmt::format("kernel '{}' has an int() conversion or an integer division that may fail "
                       "per cell",
                       k.name);
  if (!reductions_of(k.body).empty())
    return fmt::format("kernel '{}' uses a reduction computed every step", k.name);
  for (int g : {t.in, t.out})
    if (p.grids[g].time_dependent_ghosts())
      return fmt::format("grid '{}' has Neumann or periodic faces, whose ghost cells follow the "
                         "interior at every step; the fused steps keep Dirichlet ghost cells only",
                         p.grids[g].name);
  // Written grids live in registers from their write on: every write unconditional, no read
  // of a written grid before its write (that read would want the previous step's value).
  std::function<bool(const std::vector<ir::Stmt> &)> assigns = [&](const std::vector<ir::Stmt> &b) {
    for (const auto &st : b)
      if (st.kind == ir::Stmt::Kind::Assign || assigns(st.then_body) || assigns(st.else_body))
        return true;
    return false;
  };
  std::set<int> done;
  for (const auto &st : k.body) {
    std::string early;
    const auto check = [&](const ir::Expr &e) {
      if (e.op == ir::Op::GridRead && written.count(e.id) && !done.count(e.id) && early.empty())
        early = p.grids[e.id].name;
    };
    ir::walk(st.value, check);
    ir::walk(st.then_body, check);
    ir::walk(st.else_body, check);
    if (!early.empty())
      return fmt::format("kernel '{}' reads grid '{}' before it writes it; the fused steps hold a "
                         "written grid's value from its write on",
                         k.name, early);
    if (st.kind == ir::Stmt::Kind::If && (assigns(st.then_body) || assigns(st.else_body)))
      return fmt::format("kernel '{}' writes a grid under a condition; the fused steps need every "
                         "written value at every cell",
                         k.name);
    if (st.kind == ir::Stmt::Kind::Assign)
      done.insert(st.grid);
  }
  std::string absolute;
  ir::walk(k.body, [&](const ir::Expr &e) {
    if (e.op != ir::Op::GridRead || e.id != t.in)
      return;
    if (e.absolute && absolute.empty())
      absolute = p.grids[e.id].name;
    t.r[0] = std::max(t.r[0], std::abs(e.relative(0)));
    if (k.rank == 3)
      t.r[1] = std::max(t.r[1], std::abs(e.relative(1)));
    t.r[2] = std::max(t.r[2], std::abs(e.relative(k.rank - 1)));
  });
  if (!absolute.empty())
    return fmt::format("kernel '{}' reads grid '{}' at an absolute index, a plane the fused "
                       "block does not hold",
                       k.name, absolute);
  t.column_registers = true;
  for (int g : ir::grids_read(k.body))
    t.column_registers = t.column_registers && (g == t.in || written.count(g));
  return "";
}

// The planes of a ring in shared memory are taken modulo 2 r_z + 1 of the walked index: on
// mpi-cuda and mpi-hip a block widened across a face between blocks walks from -K r_z, so the
// index is raised by a multiple of the ring's size that keeps it positive.
std::string ring_bias(const TemporalShape &t, bool mpi) {
  return mpi ? fmt::format(" + {} * K__", (2 * t.r[2] + 1) * t.r[2] + (2 * t.r[2] + 1))
             : std::string();
}

// Inside the temporal kernel: reads of `in` come from the previous fused step (level l__ - 1):
// at the thread's own column (no x or y offset) from the registers that keep the column's last
// 2 r_z + 1 planes of each level, elsewhere from that level's ring in shared memory; written
// grids from their registers (G__v), other grids from memory. `mpi`: global indices (the
// block's offsets added), grids every rank holds whole indexed whole.
class TemporalBodyEmitter : public RowBodyEmitter {
public:
  TemporalBodyEmitter(const ir::Program &p, const ir::Kernel &k, const TemporalShape &t, bool mpi)
      : RowBodyEmitter(p, k.indices, &k.locals, mpi), shape_(t),
        written_(ir::grids_written(k.body)), mpi_(mpi) {}

protected:
  std::string grid_read(const ir::Expr &e) const override {
    const std::string &g = prog_.grids[e.id].name;
    if (written_.count(e.id))
      return g + "__v";
    if (e.id != shape_.in)
      return row_read(e);
    const int walked = shape_.rank - 1, dy = shape_.rank == 3 ? e.offset[1] : 0;
    if (shape_.column_registers && e.offset[0] == 0 && dy == 0)
      return fmt::format("c__[l__ - 1][{}]", shape_.r[2] + e.offset[walked]);
    return fmt::format("{0}__sm[(l__ - 1) * pl__ + (({1}{2}{6}) % {3}) * pn__ + t__{4}{5}]", g,
                       indices_[walked], plus(shape_.r[2] + e.offset[walked]), 2 * shape_.r[2] + 1,
                       dy ? fmt::format(" + ({}) * tx__n", dy) : "", plus(e.offset[0]),
                       ring_bias(shape_, mpi_));
  }
  std::string store(const ir::Grid &g, const std::string &,
                    const std::string &value) const override {
    return fmt::format("{}__v = {};\n", g.name, value);
  }

private:
  const TemporalShape &shape_;
  std::set<int> written_;
  bool mpi_;
};

// The temporal (AN5D-style) kernel, one instance per number of fused steps K__ (1 to
// kMaxFused: the levels unroll, so the column registers are registers): a block of
// tx__n x ty__n threads, a column (x, y) each, walks z and computes K__ fused steps of the
// kernel. Level 0 is the grid `in` as it is at the start; level l is step l, computed one
// plane behind level l - 1 (r_z planes) and, in x and y, r fewer cells on each side, so the
// last level computes the block's output tile of (tx__n - 2 K__ r_x) x (ty__n - 2 K__ r_y)
// cells, written to `out`. Levels 0..K__-1 keep 2 r_z + 1 planes each in shared memory (for the
// neighbours' reads) and in the column registers c__ (for the thread's own); a cell outside
// the interior (a ghost cell) holds its Dirichlet value at every level, read from `in`. The
// statements are the naive kernel's, so the results are its results bit for bit. Also the
// host's launch of one block of kb__ steps (temporal_block__), which swaps the grids once.
std::string temporal_kernel(const ir::Program &p, const ir::Kernel &k, const Sweep &sw,
                            const TemporalShape &t) {
  const Signature sig = signature(p, sw);
  TemporalBodyEmitter em(p, k, t, sw.mpi);
  const auto &idx = sw.indices;
  const ir::Grid &in = p.grids[t.in], &out = p.grids[t.out];
  const std::string elem = ir::elem_name(in);
  const int np = 2 * t.r[2] + 1, rz = t.r[2];
  // The walked dimension (z; y for rank 2), its index and bounds; the cell (x, y, w) of `in`.
  const bool three = t.rank == 3;
  const int wd = t.rank - 1;
  const std::string &w = idx[wd];
  const std::string lo = fmt::format("lo{}__", wd), hi = fmt::format("hi{}__", wd);
  const auto cell = [&](const std::string &at) {
    return three ? fmt::format("{0}__o[{1} + {2} * {0}__s1 + {3} * {0}__s2]", in.name, idx[0],
                               idx[1], at)
                 : fmt::format("{0}__o[{1} + {2} * {0}__s1]", in.name, idx[0], at);
  };
  // Registers: K__ a template parameter (the levels unroll); otherwise an argument (a
  // constant K__ let the compilers unroll short loops and hoist per-level values: hipcc
  // spilled scalar registers on himeno).
  // mpi: the cells written (the write box wlo..whi: the block, or a region of it under
  // overlap=on) are fewer than those computed (lo..hi: the block widened into the deep halos).
  std::string params = sig.params;
  for (int d = 0; sw.mpi && d < t.rank; ++d)
    params += fmt::format(", const std::int64_t wlo{0}__, const std::int64_t whi{0}__", d);
  std::string dev =
      t.column_registers
          ? fmt::format("template <int K__>\nSTENCILC_KERNEL void kernel__{}__temporal_reg({}, "
                        "const int tx__n, const int ty__n, const std::int64_t pz__n) {{\n",
                        k.name, params)
          : fmt::format("STENCILC_KERNEL void kernel__{}__temporal({}, const int K__, const int "
                        "tx__n, const int ty__n, const std::int64_t pz__n) {{\n",
                        k.name, params);
  const auto wlo = [&](int d) { return fmt::format("{}lo{}__", sw.mpi ? "w" : "", d); };
  const auto whi = [&](int d) { return fmt::format("{}hi{}__", sw.mpi ? "w" : "", d); };
  dev += fmt::format(
      "const int tx__ = stencilc::gpu::thread_x(), ty__ = stencilc::gpu::thread_y();\n"
      "const std::int64_t {0} = {2} + stencilc::gpu::block_x() * (tx__n - 2 * K__ * {1}) - "
      "K__ * {1} + tx__;\n",
      idx[0], t.r[0], wlo(0));
  if (three)
    dev += fmt::format("const std::int64_t {0} = {2} + stencilc::gpu::block_y() * (ty__n - 2 * "
                       "K__ * {1}) - K__ * {1} + ty__;\n",
                       idx[1], t.r[1], wlo(1));
  for (int g : used_grids(sw)) {
    const int owner = stride_owner(p, sw, g);
    if (owner != g)
      for (int d = 1; d < t.rank; ++d)
        dev += fmt::format("[[maybe_unused]] const std::int64_t {}__s{} = {}__s{};\n",
                           p.grids[g].name, d, p.grids[owner].name, d);
  }
  // Columns in [lo, hi) are computed; those within r of them (ghost cells, or on mpi-cuda and
  // mpi-hip cells of the deep halo beyond a widened block) keep in's values at every level.
  // mpi: only within K r of the write box (the last block's threads past it would read cells
  // that may be in flight under overlap=on).
  std::string cone;
  if (sw.mpi)
    dev += fmt::format("const bool cone__ = {0} >= wlo0__ - K__ * {1} && {0} < whi0__ + K__ * "
                       "{1}{2};\n",
                       idx[0], t.r[0],
                       three ? fmt::format(" && {0} >= wlo1__ - K__ * {1} && {0} < whi1__ + K__ "
                                           "* {1}",
                                           idx[1], t.r[1])
                             : std::string());
  if (sw.mpi)
    cone = "cone__ && ";
  dev += three ? fmt::format("const bool inner__ = {4}{0} >= lo0__ && {0} < hi0__ && {1} >= lo1__ "
                             "&& {1} < hi1__;\n"
                             "const bool held__ = {4}{0} >= lo0__ - {2} && {0} < hi0__ + {2} && {1} "
                             ">= lo1__ - {3} && {1} < hi1__ + {3};\n",
                             idx[0], idx[1], t.r[0], t.r[1], cone)
               : fmt::format("const bool inner__ = {2}{0} >= lo0__ && {0} < hi0__;\n"
                             "const bool held__ = {2}{0} >= lo0__ - {1} && {0} < hi0__ + {1};\n",
                             idx[0], t.r[0], cone);
  dev += fmt::format("const std::int64_t pn__ = std::int64_t(tx__n) * ty__n, pl__ = {0} * pn__, "
                     "t__ = std::int64_t(ty__) * tx__n + tx__;\n"
                     "STENCILC_DYNAMIC_SHARED({1}, {2}__sm, 0, K__ * pl__);\n",
                     np, elem, in.name);
  if (t.column_registers)
    dev += fmt::format("// The column's last {0} planes of each level, oldest first.\n"
                       "{1} c__[K__][{0}] = {{}};\n",
                       np, elem);
  // The column registers of level L take the plane it made (v__).
  const auto push = [&](const std::string &level) {
    if (!t.column_registers)
      return std::string();
    std::string s = fmt::format("for (int j__ = 0; j__ < {}; ++j__)\n  c__[{}][j__] = "
                                "c__[{}][j__ + 1];\n",
                                np - 1, level, level);
    return s + fmt::format("c__[{}][{}] = v__;\n", level, np - 1);
  };
  // The block's output planes z0__..z1__ of the walked dimension (its chunk: blocks in z are
  // chunks); level l is needed (K__ - l) r_z planes beyond them, level 0 from s0__ to e0__.
  dev += fmt::format(
      "const std::int64_t z0__ = {5} + std::int64_t(stencilc::gpu::block_z()) * pz__n;\n"
      "const std::int64_t z1__ = z0__ + pz__n < {6} ? z0__ + pz__n : {6};\n"
      "const std::int64_t s0__ = z0__ - K__ * {2} > {0}{3} ? z0__ - K__ * {2} : {0}{3};\n"
      "const std::int64_t e0__ = z1__ + K__ * {2} < {1}{4} ? z1__ + K__ * {2} : {1}{4};\n",
      lo, hi, rz, plus(-rz), plus(rz), wlo(wd), whi(wd));
  const std::string ghost = cell(w);
  dev += fmt::format("for (std::int64_t i__ = s0__; i__ < z1__ + K__ * {0}; ++i__) {{\n"
                     "  if (i__ < e0__) {{\n"
                     "    {3} v__{{}};\n"
                     "    if (held__) {{\n"
                     "      v__ = {4};\n"
                     "      {2}__sm[((i__{1}{12}) % {6}) * pn__ + t__] = v__;\n"
                     "    }}\n{7}"
                     "  }}\n"
                     "  stencilc::gpu::sync_threads();\n{9}"
                     "  for (int l__ = 1; l__ <= K__; ++l__) {{\n"
                     "    const std::int64_t {8} = i__ - l__ * {0};\n",
                     rz, plus(rz), in.name, elem, cell("i__"), "", np, push("0"), w,
                     t.column_registers ? "  STENCILC_UNROLL\n" : "", lo, hi,
                     ring_bias(t, sw.mpi));
  // Level l is valid l * r cells inside the block's edges, on the planes the next level reads.
  const std::string tiled_y =
      three ? fmt::format(" && ty__ >= l__ * {0} && ty__ < ty__n - l__ * {0}", t.r[1]) : "";
  dev += fmt::format("    const std::int64_t m__ = (K__ - l__) * {8};\n"
                     "    if ({0} >= {6}{1} && {0} >= z0__ - m__ && {0} < {7}{2} && {0} < z1__ + "
                     "m__) {{\n"
                     "      {3} v__{{}};\n"
                     "      if (tx__ >= l__ * {4} && tx__ < tx__n - l__ * {4}{5}) {{\n"
                     "        if (inner__ && {0} >= {6} && {0} < {7}) {{\n",
                     w, plus(-rz), plus(rz), elem, t.r[0], tiled_y, lo, hi, rz);
  for (int g : used_grids(sw)) {
    if (g == t.in)
      continue;
    const auto &grid = p.grids[g];
    if (sw.written.count(g))
      dev += fmt::format("          {} {}__v{{}};\n", ir::elem_name(grid), grid.name);
    if (sw.written.count(g) && g != t.out)
      continue;
    dev += fmt::format("          [[maybe_unused]] STENCILC_ROW({}{}) {}__r = {};\n",
                       sw.written.count(g) ? "" : "const ", ir::elem_name(grid), grid.name,
                       row_origin(grid, idx, sw.mpi && ir::lower_rank_grids(p).count(g)));
  }
  dev += em.kernel_statements(k);
  const std::string slot =
      fmt::format("{}__sm[l__ * pl__ + (({}{}{}) % {}) * pn__ + t__]", in.name, w, plus(rz),
                  ring_bias(t, sw.mpi), np);
  // (The output tile of the last block in x or y may pass the write box's end.)
  const std::string written =
      sw.mpi ? fmt::format(" && {} < whi0__{}", idx[0],
                           three ? fmt::format(" && {} < whi1__", idx[1]) : std::string())
             : std::string();
  dev += fmt::format("          v__ = {1}__v;\n"
                     "          if (l__ == K__{5})\n            {1}__r[{2}] = v__;\n"
                     "        }} else if (held__) {{\n          v__ = {3};\n        }}\n"
                     "        if (l__ < K__)\n          {0} = v__;\n"
                     "      }}\n"
                     "{4}"
                     "    }}\n    stencilc::gpu::sync_threads();\n  }}\n}}\n}}\n",
                     slot, out.name, idx[0], ghost,
                     t.column_registers ? "      if (l__ < K__) {\n" + push("l__") + "      }\n"
                                        : std::string(),
                     written);

  return dev;
}

// Dimension d of grid g's block widened by `steps` r beyond its faces between blocks (not
// beyond a physical face): `lo` and `hi` set (or declared), each line after `indent`.
std::string widened_bounds(const std::string &g, const TemporalShape &t, int d,
                           const std::string &steps, const std::string &lo, const std::string &hi,
                           const std::string &indent) {
  return fmt::format(
      "{5}{3} = part__{1}_.physical[{0}][0] ? 0 : -({6}) * {2};\n"
      "{5}{4} = {1}_.extent({0}) + (part__{1}_.physical[{0}][1] ? 0 : ({6}) * {2});\n",
      d, g, temporal_reach(t, d), lo, hi, indent, steps);
}

// mpi-cuda, mpi-hip: the temporal plan's block under overlap=host. The device computes the
// interior region (kb r from every face, m__) with its fused steps while the host exchanges
// `in`'s halos and computes the shell's kb levels with the kernel's naive sweep, level j on the
// block widened by (kb - j) r beyond its faces between blocks, minus the box m + (kb - j) r
// from every face (what level j + 1 reads of it), the host's two grids swapped after each
// level (the other one's physical faces filled first). Level 0 is read within 2 m of each face
// (and `in`'s halo depth, which the exchange sends): the host's copies made current there
// first. The last level goes to the device's `out` (its shell), and `in` is kSplit after the
// swap. An empty interior: the blocking refresh and the whole block on the device. Opens the
// `if` whose `else` is the other strategies'; declares split__ and m__ for the end.
std::string host_split_block(const ir::Program &p, const Sweep &sw, const TemporalShape &t) {
  const ir::Grid &in = p.grids[t.in], &out = p.grids[t.out];
  const ir::Kernel &k = p.kernels[t.kernel];
  const std::set<int> whole = ir::lower_rank_grids(p);
  std::string margin, s;
  for (int d = 0; d < ir::kMaxRank; ++d)
    margin += fmt::format("{}{}", d ? ", " : "",
                          d < t.rank ? fmt::format("kb__ * {}", temporal_reach(t, d)) : "0");
  s += fmt::format("  bool split__ = false;\n  const stencilc::Extents m__{{{}}};\n", margin);
  s += fmt::format(
      "  if (host_split__()) {{\n    const stencilc::mpi::Region in__ = "
      "stencilc::mpi::interior_region({0}, part__{1}_.count, m__);\n    if (in__.empty()) {{\n"
      "      if (need__{1}) {{\n        refresh__{1}(dirty__{1}_);\n        dirty__{1}_ = "
      "halo__{1}_ = false;\n      }}\n      launch__(whole__, false);\n    }} else {{\n"
      "      split__ = true;\n      stencilc::Extents ring__ = m__;\n"
      "      for (int d__ = 0; d__ < {0}; ++d__)\n        ring__[d__] = "
      "std::max<std::int64_t>(2 * m__[d__], {1}_.halo(d__));\n",
      t.rank, in.name);
  for (int g : used_grids(sw)) {
    if (g == t.out)
      continue; // (written level by level; its physical faces filled below)
    s += whole.count(g) ? fmt::format("      pull__({});\n", g)
                        : fmt::format("      host_slabs__({}, ring__);\n", g);
  }
  s += "      dev__->copy.synchronize();\n      launch__(in__, true);\n";
  // (The ghost cells to the device too, which the interior does not read: kSplit's host and
  // device ghost cells stay alike, since slabs copied later carry the device's.)
  s += fmt::format("      if (need__{0}) {{\n        fill__{0}({0}_, dirty__{0}_);\n        "
                   "dev__->{0}.upload_halo_async({0}_, dev__->copy, \"grid '{0}' (device "
                   "copy)\");\n        dirty__{0}_ = halo__{0}_ = false;\n      }}\n"
                   "      fill_faces__{1}({1}_);\n",
                   in.name, out.name);
  for (int g : used_grids(sw))
    s += fmt::format("      stencilc::gpu::host_ready({0}_.storage(), "
                     "static_cast<std::size_t>({0}_.storage_size()) * sizeof(*{0}_.storage()), "
                     "\"grid '{0}'\");\n",
                     p.grids[g].name);
  s += "      for (std::int64_t j__ = 1; j__ <= kb__; ++j__) {\n"
       "        stencilc::Extents mj__ = m__, we__{1, 1, 1, 1};\n"
       "        stencilc::mpi::Region wide__;\n";
  for (int d = 0; d < t.rank; ++d)
    s += fmt::format("        mj__[{0}] += (kb__ - j__) * {1};\n", d, temporal_reach(t, d)) +
         widened_bounds(in.name, t, d, "kb__ - j__", fmt::format("wide__.lo[{}]", d),
                        fmt::format("wide__.hi[{}]", d), "        ") +
         fmt::format("        we__[{0}] = wide__.hi[{0}] - wide__.lo[{0}];\n", d);
  s += fmt::format(
      "        stencilc::mpi::Region inner__ = stencilc::mpi::interior_region({0}, "
      "part__{1}_.count, "
      "mj__);\n        if (inner__.empty()) {{\n          host_kernel_wide__{2}(&wide__);\n"
      "        }} else {{\n          for (int d__ = 0; d__ < {0}; ++d__) {{ // (in wide__'s "
      "coordinates)\n            inner__.lo[d__] -= wide__.lo[d__];\n            inner__.hi[d__] "
      "-= wide__.lo[d__];\n          }}\n          for (stencilc::mpi::Region b__ : "
      "stencilc::mpi::shell_regions({0}, we__, inner__)) {{\n            for (int d__ = 0; d__ < "
      "{0}; ++d__) {{\n              b__.lo[d__] += wide__.lo[d__];\n              b__.hi[d__] += "
      "wide__.lo[d__];\n            }}\n            host_kernel_wide__{2}(&b__);\n          }}\n"
      "        }}\n        {1}_.swap_storage({3}_);\n      }}\n"
      "      {1}_.swap_storage({3}_); // the last level in {3}_, as on the device\n",
      t.rank, in.name, k.name, out.name);
  // The shell of each grid the kernel writes (the last level's: `out`, and any other output).
  for (int g : ir::grids_written(k.body))
    s += fmt::format("      dev__->{0}.upload_slabs_async({0}_, stencilc::Extents{{0, 0, 0, 0}}, "
                     "m__, dev__->copy, \"grid '{0}' (device copy)\");\n",
                     p.grids[g].name);
  return s + "      dev__->compute.synchronize();\n      dev__->copy.synchronize();\n    }\n  } "
             "else ";
}

// The temporal kernels of a sweep (with shared-memory columns, for any k; for a single-array
// kernel also the instances with the column in registers, k up to kMaxRegisterFused) and the
// host's launch of one block of kb__ steps (temporal_block__), which swaps the grids once.
std::string temporal_kernel_code(const ir::Program &p, const ir::Kernel &k, const Sweep &sw,
                                 const TemporalShape &t, std::string &host) {
  TemporalShape shared = t;
  shared.column_registers = false;
  std::string dev = temporal_kernel(p, k, sw, shared);
  if (t.column_registers)
    dev += "\n" + temporal_kernel(p, k, sw, t);
  const Signature sig = signature(p, sw);
  const int np = 2 * t.r[2] + 1;
  const std::string elem = ir::elem_name(p.grids[t.in]);
  const ir::Grid &in = p.grids[t.in], &out = p.grids[t.out];
  // The host: ghost cells current, one launch of kb__ fused steps, the grids swapped once.
  host += fmt::format("void Stencil::temporal_block__(std::int64_t kb__) {{\n");
  if (sw.mpi) {
    // mpi-cuda, mpi-hip: the block widened by (kb - 1) r beyond each face between blocks, into
    // the halos temporal_deepen__ made k r deeper there; exchanged once here, before the block.
    // Level l of the fused steps is wrong only within (l - 1) r of the widened edge, so the
    // last level's cells in the block are the naive plan's.
    const std::string &dom = p.grids[sw.domain_grid].name;
    host += "  [[maybe_unused]] const Params &prm__ = params_;\n";
    for (int d = 0; d < t.rank; ++d)
      host += fmt::format("  const std::int64_t off{0}__ = part__{1}_.offset[{0}];\n", d, dom) +
              widened_bounds(dom, t, d, "kb__ - 1", fmt::format("const std::int64_t lo{}__", d),
                             fmt::format("const std::int64_t hi{}__", d), "  ");
    host += "  const std::int64_t n__ = (hi0__ - lo0__)";
    for (int d = 1; d < t.rank; ++d)
      host += fmt::format(" * (hi{0}__ - lo{0}__)", d);
    host += ";\n  push__();\n";
    // Under overlap=on `in`'s refresh runs beside the interior region (below); the other
    // grids' (their first, or a coefficient's) before.
    host += fmt::format("  const bool need__{0} = dirty__{0}_ || halo__{0}_;\n", in.name);
    for (int g : used_grids(sw))
      host += fmt::format("  if ((dirty__{0}_ || halo__{0}_){1}) {{\n    refresh__{0}(dirty__{0}_);\n"
                          "    dirty__{0}_ = halo__{0}_ = false;\n  }}\n",
                          p.grids[g].name, g == t.in ? " && !overlap__()" : "");
  } else {
    host += host_bounds(p, sw) + "  push__();\n";
    for (int g : used_grids(sw))
      host += fmt::format(
          "  if (dirty__{0}_) {{\n    fill__{0}();\n    dirty__{0}_ = false;\n  }}\n",
          p.grids[g].name);
  }
  // The launch over the write box [wlo, whi) (mpi; else the interior, lo..hi): blocks laid
  // out by their output tiles; `on` a stream or not.
  const std::string wl = sw.mpi ? "wlo" : "lo", wh = sw.mpi ? "whi" : "hi";
  const auto launches = [&](const std::string &indent, const std::string &on) {
    std::string args = sig.args;
    for (int d = 0; sw.mpi && d < t.rank; ++d)
      args += fmt::format(", wlo{0}__, whi{0}__", d);
    const std::string macro =
        on.empty() ? "STENCILC_LAUNCH_SHARED(" : "STENCILC_LAUNCH_SHARED_ON(" + on + ", ";
    std::string c = indent + "switch (kb__) {\n";
    if (t.column_registers)
      for (int kk = 1; kk <= kMaxRegisterFused; ++kk)
        c += fmt::format("{0}case {1}:\n{0}  {2}kernel__{3}__temporal_reg<{1}>, blocks__, "
                         "threads__, bytes__, {4}, tb__->tile_x, tb__->tile_y, pz__);\n{0}  "
                         "break;\n",
                         indent, kk, macro, k.name, args);
    return c + fmt::format("{0}default:\n{0}  {1}kernel__{2}__temporal, blocks__, threads__, "
                           "bytes__, {3}, static_cast<int>(kb__), tb__->tile_x, tb__->tile_y, "
                           "pz__);\n{0}}}\n",
                           indent, macro, k.name, args);
  };
  std::string grid = fmt::format(
      "const std::int64_t ox__ = tb__->tile_x - 2 * kb__ * {0};\n"
      "// Chunks of the plan's planes of the walked dimension (0 or more than it: all).\n"
      "const std::int64_t nw__ = {6}{4}__ - {5}{4}__;\n"
      "const std::int64_t pz__ = tb__->chunk > 0 && tb__->chunk < nw__ ? tb__->chunk : nw__;\n"
      "const stencilc::gpu::Dims blocks__(stencilc::gpu::blocks_for({6}0__ - {5}0__, ox__), {1}, "
      "stencilc::gpu::blocks_for(nw__, pz__, 65535)), threads__(tb__->tile_x, tb__->tile_y, 1);\n"
      "[[maybe_unused]] const std::size_t bytes__ = static_cast<std::size_t>(kb__ * {2} * "
      "tb__->tile_x * tb__->tile_y) * sizeof({3});\n",
      t.r[0],
      t.rank == 3 ? fmt::format("stencilc::gpu::blocks_for({}1__ - {}1__, tb__->tile_y - 2 * kb__ "
                                "* {}, 65535)",
                                wh, wl, t.r[1])
                  : std::string("1"),
      np, elem, t.rank - 1, wl, wh);
  const auto indented = [](const std::string &code, const std::string &indent) {
    std::string out;
    std::size_t at = 0;
    while (at < code.size()) {
      const std::size_t nl = code.find('\n', at);
      out += indent + code.substr(at, nl - at + 1);
      at = nl + 1;
    }
    return out;
  };
  host += "  const auto *tb__ = plan__.get<stencilc::scheme::GpuTemporal>();\n";
  if (!sw.mpi) {
    host += indented(grid, "  ") + "  if (n__ > 0)\n" + launches("    ", "");
  } else {
    // The write box: the whole block (the cells the naive plan computes), or under overlap=on
    // its interior region (on the compute stream while `in`'s faces travel on the copy
    // stream) and then the shell around it.
    std::string box;
    for (int d = 0; d < t.rank; ++d)
      box += fmt::format("    const std::int64_t wlo{0}__ = w__.lo[{0}], whi{0}__ = w__.hi[{0}];\n",
                         d);
    host += "  bool early__ = false; // overlap=boundary: `out`'s halo exchanged here\n";
    host += "  const auto launch__ = [&](const stencilc::mpi::Region &w__, bool async__) {\n" + box +
            "    if (w__.empty() || n__ <= 0)\n      return;\n" + indented(grid, "    ") +
            "    if (async__) {\n" + launches("      ", "dev__->compute") + "    } else {\n" +
            launches("      ", "") + "    }\n  };\n";
    host += fmt::format("  const stencilc::mpi::Region whole__{{{{0, 0, 0, 0}}, {{{0}}}}};\n",
                        [&] {
                          std::string e;
                          for (int d = 0; d < ir::kMaxRank; ++d)
                            e += fmt::format("{}{}", d ? ", " : "",
                                             d < t.rank ? fmt::format("{}_.extent({})", in.name, d)
                                                        : "1");
                          return e;
                        }());
    // The interior region: the cells whose k fused steps read no ghost cell of `in` (kb r
    // from every face), so neither the faces being copied out nor the ghost cells coming in.
    const OverlappedRefresh r = overlapped_refresh(in, t.in);
    std::string margin;
    for (int d = 0; d < ir::kMaxRank; ++d)
      margin += fmt::format("{}{}", d ? ", " : "",
                            d < t.rank ? fmt::format("kb__ * {}", temporal_reach(t, d)) : "0");
    host += host_split_block(p, sw, t);
    // overlap=boundary (the source material's pipeline): `in`'s halos current first (blocking,
    // unless the block before exchanged them), the shell launched first, then the interior
    // region (out's halo from every face: the faces sent lie in the shell) while the copy
    // stream takes `out`'s faces to the host once the shell is done, the host exchanges them and
    // their ghost cells come back: the next block finds its `in` current. Two arrays whatever
    // k is (the levels live in shared memory).
    const OverlappedRefresh ro = overlapped_refresh(out, t.out);
    std::string out_margin;
    for (int d = 0; d < ir::kMaxRank; ++d)
      out_margin += fmt::format("{}{}", d ? ", " : "",
                                d < t.rank ? fmt::format("{}_.halo({})", out.name, d) : "0");
    host += fmt::format(
        "  if (boundary_first__()) {{\n"
        "    if (need__{0}) {{\n      refresh__{0}(dirty__{0}_);\n      dirty__{0}_ = halo__{0}_ "
        "= false;\n    }}\n"
        "    const stencilc::mpi::Region in__ = stencilc::mpi::interior_region({2}, "
        "part__{0}_.count, stencilc::Extents{{{3}}});\n"
        "    if (in__.empty()) {{\n      launch__(whole__, false);\n    }} else {{\n"
        "      stencilc::gpu::synchronize(); // (the kernels and copies before)\n"
        "      for (const stencilc::mpi::Region &s__ : stencilc::mpi::shell_regions({2}, "
        "part__{0}_.count, in__))\n        launch__(s__, true);\n"
        "      dev__->shell_done.record(dev__->compute);\n"
        "      stencilc::gpu::wait_event(dev__->copy, dev__->shell_done);\n"
        "      const bool need__{1} = true;\n{4}"
        "      if (direct__)\n        dev__->shell_done.synchronize();\n"
        "      launch__(in__, true);\n      dev__->copy.synchronize();\n{5}"
        "      dev__->halo_ready.record(dev__->copy);\n"
        "      stencilc::gpu::wait_event(dev__->compute, dev__->halo_ready);\n"
        "      dev__->compute.synchronize();\n      early__ = true;\n    }}\n  }} else ",
        in.name, out.name, t.rank, out_margin, ro.start, ro.finish);
    host += fmt::format(
        "  if (!overlap__() || !need__{0}) {{\n    launch__(whole__, false);\n  }} else {{\n"
        "    if (direct__)\n      stencilc::gpu::synchronize();\n{1}"
        "    const stencilc::mpi::Region in__ = stencilc::mpi::interior_region({2}, "
        "part__{0}_.count, stencilc::Extents{{{3}}});\n"
        "    launch__(in__, true);\n    dev__->copy.synchronize();\n{4}"
        "    dev__->halo_ready.record(dev__->copy);\n"
        "    stencilc::gpu::wait_event(dev__->compute, dev__->halo_ready);\n"
        "    if (in__.empty())\n      launch__(whole__, true);\n    else\n"
        "      for (const stencilc::mpi::Region &s__ : stencilc::mpi::shell_regions({2}, "
        "part__{0}_.count, in__))\n        launch__(s__, true);\n"
        "    dev__->compute.synchronize();\n  }}\n",
        in.name, r.start, t.rank, margin, r.finish);
  }
  host += "  for (Where &w : where__)\n    w = kDeviceNewer;\n";
  std::string split_state;
  if (sw.mpi) // overlap=host: the host's last level is the shell of the new `in`
    split_state = fmt::format("  if (split__) {{\n    where__[{0}] = kSplit;\n    deep__[{0}] = "
                              "m__;\n  }}\n",
                              t.in);
  // mpi: `out` holds the widened block's edge cells in its halo, which the next block's
  // exchange replaces (its physical faces stay as they were filled).
  host += fmt::format(
      "  {0}_.swap_storage({1}_);\n  dev__->{0}.swap(dev__->{1});\n"
      "  std::swap(dirty__{0}_, dirty__{1}_);\n"
      "  std::swap(where__[{2}], where__[{3}]);\n{4}{5}}}\n\n",
      in.name, out.name, t.in, t.out,
      sw.mpi ? fmt::format("  halo__{}_ = !early__;\n  std::swap(halo__{}_, halo__{}_);\n",
                           out.name, in.name, out.name)
             : "",
      split_state);
  return dev;
}

// Why a block of tx x ty threads cannot compute k fused steps of shape t ("" if it can): the
// block must keep an output tile after k steps of shrinking by r on each side.
std::string temporal_tile_problem(const TemporalShape &t, int k, int tx, int ty) {
  if (k < 1 || k > kMaxFused)
    return fmt::format("k={}: the temporal GPU plan fuses 1 to {} steps", k, kMaxFused);
  if (tx < 1 || ty < 1 || static_cast<std::int64_t>(tx) * ty > 1024)
    return fmt::format("a block of {}x{} threads: tile_x * tile_y must be 1 to 1024", tx, ty);
  if (t.rank == 2 && ty != 1)
    return fmt::format("a rank-2 kernel's blocks are rows of x that walk y: tile={}x1, not {}x{}",
                       tx, tx, ty);
  if (tx <= 2 * k * t.r[0] || ty <= 2 * k * t.r[1])
    return fmt::format("a tile of {}x{} threads keeps no cell after k={} fused steps of radius "
                       "{}x{} (it computes (tile_x - {}) x (tile_y - {}) cells)",
                       tx, ty, k, t.r[0], t.r[1], 2 * k * t.r[0], 2 * k * t.r[1]);
  return "";
}

std::string reduction_code(const ir::Program &p, const ir::Reduction &r, const ErrorSlots &slots,
                           int ri, bool mpi, std::string &host) {
  RowBodyEmitter em(p, r.indices, nullptr, mpi);
  Sweep sw{r.indices,
           r.domain,
           r.domain_grid,
           ir::grids_read(r.value),
           {},
           params_of(r.value),
           reductions_of({r.value}),
           mpi};
  const bool fail = ir::any_may_fail(r.value);
  const Accumulator acc = accumulator(r);
  const char *const type = ir::reduction_cxx_type(r);
  static const char *const contribution[] = {"{0}", "{0}", "{0}", "{0} * {0}", "{0}"};
  // As the openmp target's std::min(acc, v) and std::max(acc, v): the left one on ties.
  static const char *const combine[] = {"{0} + {1}", "{1} < {0} ? {1} : {0}",
                                        "{0} < {1} ? {1} : {0}", "{0} + {1}", "{0} * {1}"};
  const int op = static_cast<int>(r.op);
  Signature sig = signature(p, sw);
  sig.add(fmt::format("STENCILC_GLOBAL({}) const", acc.type), "partial__",
          fmt::format("dev__->partials_as<{}>()", acc.type));
  sig.add("int *const", "err_out__", fmt::format("dev__->err.get() + {}", slots.reduction(ri)));
  std::string dev =
      fmt::format("{}reduce__{}__dev({}) {{\n", bounded_kernel(kChunk), r.name, sig.params);
  dev += fmt::format("STENCILC_SHARED({}, acc__, {});\n", acc.type, kChunk);
  dev += "const std::int64_t i__ = stencilc::gpu::global_index();\n"
         "const int t__ = stencilc::gpu::thread_in_block();\n";
  dev += fmt::format("{} c__ = {};\n", acc.type, acc.identity);
  if (fail)
    dev += "int err__ = 0;\n";
  // Every thread reaches the barriers: one without a point adds the identity.
  dev += "if (i__ < n__)\n  do {\n" + point_of_thread(p, sw, "break;");
  dev += fmt::format("{}const {} v__ = static_cast<{}>({});\n{}c__ = {};\n",
                     expr_line_directive(p, r.value), type, type, em.expr(r.value),
                     generated_line_directive(p, p.name + ".cpp"),
                     fmt::format(fmt::runtime(contribution[op]), acc.of_value));
  dev += "  } while (false);\nacc__[t__] = c__;\nstencilc::gpu::sync_threads();\n";
  dev +=
      fmt::format("for (int s__ = {} / 2; s__ > 0; s__ /= 2) {{\n  if (t__ < s__)\n    "
                  "acc__[t__] = {};\n  stencilc::gpu::sync_threads();\n}}\n",
                  kChunk, fmt::format(fmt::runtime(combine[op]), "acc__[t__]", "acc__[t__ + s__]"));
  dev += "if (t__ == 0)\n  partial__[stencilc::gpu::block_index()] = acc__[0];\n";
  if (fail)
    dev += "if (err__)\n  stencilc::gpu::flag_error(err_out__, err__);\n";
  dev += "}\n";
  host += fmt::format("{} Stencil::reduce__{}() {{\n", type, r.name) + host_bounds(p, sw);
  host += fmt::format(
      "  {} acc__ = {};\n  if (n__ > 0) {{\n"
      "    const std::int64_t chunks__ = (n__ + {} - 1) / {};\n"
      "    dev__->need_partials(chunks__);\n"
      "    STENCILC_LAUNCH(reduce__{}__dev, stencilc::gpu::blocks_for(n__, {}), {}, {});\n"
      "    // The chunks' results, combined in chunk order.\n"
      "    for (const {} v__ : dev__->read_partials<{}>(chunks__))\n"
      "      acc__ = {};\n  }}\n",
      acc.type, acc.identity, kChunk, kChunk, r.name, kChunk, kChunk, sig.args, acc.type, acc.type,
      fmt::format(fmt::runtime(combine[op]), "acc__", "v__"));
  if (mpi && !ir::lower_rank_grids(p).count(r.domain_grid)) {
    // This rank's part, combined over ranks as mpi-openmp combines it (stencilc/mpi/comm.h).
    host += fmt::format("  return {};\n}}\n\n", combined_over_ranks(r, "acc__"));
    return dev;
  }
  host += r.op == ir::ReduceOp::Norm2 ? "  return std::sqrt(acc__);\n}\n\n"
                                      : fmt::format("  return {};\n}}\n\n", as_value(r, "acc__"));
  return dev;
}

// The ghost cells of a grid, a kernel per face, launched in the order of stencilc/boundary.h
// (dimension 0 first, low face first) over the same slabs, so corners match the interpreter.
// `mpi` (mpi-cuda, mpi-hip, their exchange handed to an MPI that takes device pointers): the
// physical faces of one dimension of the block, device_faces__G(d, async), Dirichlet values at
// global indices (the block's offsets off0__..off3__ added to the local l0__..l3__), on the
// copy stream when `async`.
std::string fill_code(const ir::Program &p, const ir::Grid &g, int gi, const ErrorSlots &slots,
                      bool mpi, std::string &host) {
  FlaggedSetupEmitter setup(p);
  const std::string elem = ir::elem_name(g);
  const char *const l = mpi ? "l" : "x"; // the cell's local indices
  std::string dev;
  host += mpi ? fmt::format("void Stencil::device_faces__{}(int d__, bool async__) {{\n"
                            "  [[maybe_unused]] const Params &prm__ = params_;\n"
                            "  std::int64_t lo__[4], n__[4];\n",
                            g.name)
              : fmt::format("void Stencil::fill__{}() {{\n  [[maybe_unused]] const Params &prm__ = "
                            "params_;\n  std::int64_t lo__[4], n__[4];\n",
                            g.name);
  for (int d = 0; d < g.rank; ++d)
    for (int side = 0; side < 2; ++side) {
      const ir::Face &f = g.faces[2 * d + side];
      const std::string kname = fmt::format("fill__{}__{}{}__dev", g.name, d, side ? "hi" : "lo");
      const bool dirichlet = f.kind == ir::BoundaryKind::Dirichlet;
      const bool fail = dirichlet && ir::any_may_fail(f.value);
      dev += fmt::format(
          "{0}{1}(STENCILC_GLOBAL({2}) const o__, const std::int64_t s1__, const std::int64_t "
          "s2__, "
          "const std::int64_t s3__, const std::int64_t lo0__, const std::int64_t lo1__, "
          "const std::int64_t lo2__, const std::int64_t lo3__, const std::int64_t n0__, "
          "const std::int64_t n1__, const std::int64_t n2__, const std::int64_t n3__, "
          "[[maybe_unused]] const std::int64_t extent__, [[maybe_unused]] const Params prm__, "
          "[[maybe_unused]] int *const err_out__{3}) {{\n"
          "  const std::int64_t i__ = stencilc::gpu::global_index();\n"
          "  if (i__ >= n0__ * n1__ * n2__ * n3__)\n    return;\n"
          "  std::int64_t r__ = i__;\n"
          "  const std::int64_t {4}0__ = lo0__ + r__ % n0__;\n  r__ /= n0__;\n"
          "  const std::int64_t {4}1__ = lo1__ + r__ % n1__;\n  r__ /= n1__;\n"
          "  const std::int64_t {4}2__ = lo2__ + r__ % n2__;\n  r__ /= n2__;\n"
          "  const std::int64_t {4}3__ = lo3__ + r__;\n"
          "  auto &&cell__ = o__[{4}0__ + {4}1__ * s1__ + {4}2__ * s2__ + {4}3__ * s3__];\n",
          bounded_kernel(kThreads), kname, elem,
          mpi ? ", [[maybe_unused]] const std::int64_t off0__, [[maybe_unused]] const "
                "std::int64_t off1__, [[maybe_unused]] const std::int64_t off2__, "
                "[[maybe_unused]] const std::int64_t off3__"
              : "",
          l);
      if (dirichlet) {
        if (mpi)
          for (int k = 0; k < ir::kMaxRank; ++k)
            dev += fmt::format(
                "  [[maybe_unused]] const std::int64_t x{0}__ = l{0}__ + off{0}__;\n", k);
        if (fail)
          dev += "  int err__ = 0;\n";
        dev += fmt::format("  cell__ = static_cast<{}>({});\n", elem, setup.expr(f.value));
        if (fail)
          dev += "  if (err__)\n    stencilc::gpu::flag_error(err_out__, err__);\n";
      } else {
        // As stencilc::fill_neumann and fill_periodic: the cell this ghost cell copies.
        dev += fmt::format("  std::int64_t p__[4] = {{{0}0__, {0}1__, {0}2__, {0}3__}};\n", l);
        dev += fmt::format("  std::int64_t &c__ = p__[{}];\n", d);
        dev += f.kind == ir::BoundaryKind::Neumann
                   ? "  c__ = c__ < 0 ? -c__ - 1 : 2 * extent__ - 1 - c__;\n"
                   : "  c__ = c__ < 0 ? c__ + extent__ : c__ - extent__;\n";
        dev += "  cell__ = o__[p__[0] + p__[1] * s1__ + p__[2] * s2__ + p__[3] * s3__];\n";
      }
      dev += "}\n\n";
      const std::string args = fmt::format(
          "dev__->{0}.origin(), {0}_.stride(1), {0}_.stride(2), {0}_.stride(3), lo__[0], lo__[1], "
          "lo__[2], lo__[3], n__[0], n__[1], n__[2], n__[3], {0}_.extent({1}), params_, "
          "dev__->err.get() + {2}{3}",
          g.name, d, slots.fill(gi),
          mpi ? fmt::format(", part__{0}_.offset[0], part__{0}_.offset[1], part__{0}_.offset[2], "
                            "part__{0}_.offset[3]",
                            g.name)
              : "");
      const std::string launch = fmt::format(
          "STENCILC_LAUNCH({}, stencilc::gpu::blocks_for(n__[0] * n__[1] * n__[2] * n__[3], {}), "
          "{}, {});\n",
          kname, kThreads, kThreads, args);
      const std::string slab =
          fmt::format("stencilc::gpu::ghost_slab({}_, {}, {}, lo__, n__);\n", g.name, d, side);
      if (mpi)
        host += fmt::format(
            "  if (d__ == {1} && part__{0}_.physical[{1}][{2}]) {{\n    {3}"
            "    if (n__[0] * n__[1] * n__[2] * n__[3] > 0) {{\n      if (async__)\n"
            "        STENCILC_LAUNCH_ON(dev__->copy, {4}, stencilc::gpu::blocks_for(n__[0] * "
            "n__[1] * n__[2] * n__[3], {5}), {5}, {6});\n      else\n        {7}    }}\n  }}\n",
            g.name, d, side, slab, kname, kThreads, args, launch);
      else
        host += "  " + slab + "  if (n__[0] * n__[1] * n__[2] * n__[3] > 0)\n    " + launch;
    }
  host += "}\n\n";
  return dev;
}

// mpi-cuda, mpi-hip, overlap=host: the sweep of kernel k after exchanges (`pending`) with the
// block's interior on the device (compute stream) while the host's cores do the exchange and
// compute the boundary region (the shell, the read grids' widest halo m deep) from the host's
// copies: those are made current within m plus their halo of each face first (kSplit: only
// the slabs the device wrote since are copied, the ring just inside the shell), and the shell
// of each grid written goes back to the device after. What MPI sends is on the host already.
// A block with no interior: the blocking refresh and the device's whole sweep (`blocking`).
std::string host_split_sweep(const ir::Program &p, const ir::Kernel &k,
                             const std::vector<lower::Action> &pending,
                             const std::string &blocking) {
  const std::set<int> whole = ir::lower_rank_grids(p);
  const std::set<int> read = ir::grids_read(k.body), written = ir::grids_written(k.body);
  std::set<int> used = read;
  used.insert(written.begin(), written.end());
  std::string s = "    stencilc::Extents m__{0, 0, 0, 0};\n";
  for (int g : read)
    if (!whole.count(g))
      s += fmt::format("    for (int d__ = 0; d__ < {1}; ++d__)\n      m__[d__] = "
                       "std::max<std::int64_t>(m__[d__], {0}_.halo(d__));\n",
                       p.grids[g].name, p.grids[g].rank);
  const std::string block = fmt::format("part__{}_.count", p.grids[k.domain_grid].name);
  s += fmt::format("    const stencilc::mpi::Region in__ = stencilc::mpi::interior_region({}, {}, "
                   "m__);\n    if (in__.empty()) {{\n{}    kernel__{}();\n    }} else {{\n",
                   k.rank, block, blocking, k.name);
  std::set<int> slabs = used; // (grids every rank holds whole: their host copy whole)
  for (const lower::Action &e : pending)
    slabs.insert(e.a);
  for (int g : slabs) {
    const ir::Grid &grid = p.grids[g];
    if (whole.count(g)) {
      s += fmt::format("    pull__({});\n", g);
      continue;
    }
    if (read.count(g) || !written.count(g))
      s += fmt::format("    {{\n      stencilc::Extents need__ = m__;\n      for (int d__ = 0; "
                       "d__ < {1}; ++d__)\n        need__[d__] += {0}_.halo(d__);\n      "
                       "host_slabs__({2}, need__);\n    }}\n",
                       grid.name, grid.rank, g);
    else // written only: its shell goes back whole, so the host's must be current there
      s += fmt::format("    host_slabs__({}, m__);\n", g);
  }
  // The ghost cells refreshed on the host and sent to the device: those of grids every rank
  // holds whole before the interior starts (it may read them anywhere), the others' while it
  // runs (it reads none of them: the margin is their halo).
  auto refresh = [&](bool whole_grids) {
    for (const lower::Action &e : pending)
      if (whole.count(e.a) == whole_grids)
        s += fmt::format(
            "    if (dirty__{0}_ || halo__{0}_) {{\n      fill__{0}({0}_, dirty__{0}_);\n"
            "      dev__->{0}.upload_halo_async({0}_, dev__->copy, \"grid '{0}' "
            "(device copy)\");\n      dirty__{0}_ = halo__{0}_ = false;\n    }}\n",
            p.grids[e.a].name);
  };
  refresh(true);
  s += fmt::format("    dev__->copy.synchronize();\n    kernel__{}(&in__, true);\n", k.name);
  refresh(false);
  for (int g : used)
    s += fmt::format("    stencilc::gpu::host_ready({0}_.storage(), "
                     "static_cast<std::size_t>({0}_.storage_size()) * sizeof(*{0}_.storage()), "
                     "\"grid '{0}'\");\n",
                     p.grids[g].name);
  s += fmt::format(
      "    for (const stencilc::mpi::Region &r__ : stencilc::mpi::shell_regions({}, {}, "
      "in__))\n      host_kernel__{}(&r__);\n",
      k.rank, block, k.name);
  // A grid the sweep also reads (red/black in place): its shell goes back once the interior,
  // which reads the shell's inner cells, is done.
  auto upload = [&](bool in_place) {
    for (int g : written)
      if (read.count(g) == in_place)
        s += fmt::format("    dev__->{0}.upload_slabs_async({0}_, stencilc::Extents{{0, 0, 0, "
                         "0}}, m__, dev__->copy, \"grid '{0}' (device copy)\");\n",
                         p.grids[g].name);
  };
  upload(false);
  s += "    dev__->compute.synchronize();\n";
  upload(true);
  s += "    dev__->copy.synchronize();\n";
  for (int g : slabs)
    if (!whole.count(g))
      s += fmt::format("    where__[{}] = kSplit;\n", g);
  for (int g : written) // (the device wrote the rest)
    if (!whole.count(g))
      s += fmt::format("    deep__[{}] = m__;\n", g);
  return s + "    }\n";
}

// The interior region's margin m__ widened to grid g's halo.
std::string margin_within(const ir::Grid &g) {
  return fmt::format("for (int d__ = 0; d__ < {1}; ++d__)\n  m__[d__] = "
                     "std::max<std::int64_t>(m__[d__], {0}_.halo(d__));\n",
                     g.name, g.rank);
}

// mpi-cuda, mpi-hip under overlap=boundary: the sweep of kernel k after exchanges (`pending`,
// blocking where still needed: the grids a sweep before exchanged are current) computes the
// block's boundary first (the shell around the cells m from every face, m the widest halo of
// the grids it writes that the step exchanges, or swaps with one it exchanges: their faces lie
// in it), marks what it wrote
// (`marks`), then queues those faces to the host on the copy stream once the shell is done and
// runs the interior on the compute stream while the host exchanges them and sends the ghost
// cells back. The next sweep finds them current. Without such a grid or an interior, the
// blocking refresh and the whole sweep.
std::string boundary_first_sweep(const ir::Program &p, const ir::Kernel &k,
                                 const std::vector<lower::Action> &step, const std::string &pending,
                                 const std::string &marks,
                                 const std::vector<lower::Action> &marked) {
  // Grids the step exchanges, under their own names or the ones a swap gives their storage.
  std::set<int> exchanged, early;
  for (const lower::Action &a : step)
    if (a.kind == lower::Action::Kind::Exchange)
      exchanged.insert(a.a);
  for (const lower::Action &a : step)
    if (a.kind == lower::Action::Kind::Swap && (exchanged.count(a.a) || exchanged.count(a.b)))
      exchanged.insert({a.a, a.b});
  for (const lower::Action &a : marked)
    if (exchanged.count(a.a))
      early.insert(a.a);
  if (early.empty())
    return pending + fmt::format("    kernel__{}();\n", k.name) + marks;
  std::string margin, start, finish;
  for (int g : early) {
    const ir::Grid &grid = p.grids[g];
    const OverlappedRefresh r = overlapped_refresh(grid, g);
    margin += "    " + margin_within(grid);
    start += fmt::format("      const bool need__{0} = dirty__{0}_ || halo__{0}_;\n{1}", grid.name,
                         r.start);
    finish += r.finish;
  }
  const std::string block = fmt::format("part__{}_.count", p.grids[k.domain_grid].name);
  return pending +
         fmt::format(
             "    stencilc::Extents m__{{0, 0, 0, 0}};\n{0}"
             "    const stencilc::mpi::Region in__ = stencilc::mpi::interior_region({1}, {2}, "
             "m__);\n"
             "    if (in__.empty()) {{\n      kernel__{3}();\n{4}    }} else {{\n"
             "      stencilc::gpu::synchronize(); // (the kernels and copies before)\n"
             "      for (const stencilc::mpi::Region &r__ : stencilc::mpi::shell_regions({1}, "
             "{2}, in__))\n        kernel__{3}(&r__, true);\n{4}"
             "      dev__->shell_done.record(dev__->compute);\n"
             "      stencilc::gpu::wait_event(dev__->copy, dev__->shell_done);\n{5}"
             "      if (direct__)\n        dev__->shell_done.synchronize();\n"
             "      kernel__{3}(&in__, true);\n"
             "      dev__->copy.synchronize();\n{6}"
             "      dev__->halo_ready.record(dev__->copy);\n"
             "      stencilc::gpu::wait_event(dev__->compute, dev__->halo_ready);\n"
             "      dev__->compute.synchronize();\n    }}\n",
             margin, k.rank, block, k.name, marks, start, finish);
}

// mpi-cuda, mpi-hip: the step, where under overlap=on a sweep after exchanges (of grids it
// reads) runs its block's interior on the compute stream while the faces of those grids go to
// the host on the copy stream, are exchanged there and their ghost cells come back; the rest of
// the block (the shell) runs once the compute stream has waited for them. overlap=host and
// overlap=boundary: host_split_sweep, boundary_first_sweep. The blocking refresh and the whole
// sweep otherwise.
std::string mpi_step(const ir::Program &p, const std::vector<lower::Action> &step,
                     const std::function<std::string(const ir::Grid &)> &fill,
                     const std::function<std::string(const lower::Action &)> &swap) {
  return overlapped_step(
      p, step, fill, swap,
      [&](const ir::Kernel &k, const std::vector<lower::Action> &pending,
          const std::vector<lower::Action> &marked) {
        const std::string marks = step_statements(p, marked, fill, swap);
        const std::string split =
            "    if (host_split__()) {\n" +
            host_split_sweep(p, k, pending, step_statements(p, pending, fill, swap)) + marks +
            "    } else if (boundary_first__()) {\n" +
            boundary_first_sweep(p, k, step, step_statements(p, pending, fill, swap), marks,
                                 marked) +
            "    } else {\n";
        std::string start, finish;
        for (const lower::Action &e : pending) {
          const ir::Grid &g = p.grids[e.a];
          const OverlappedRefresh r = overlapped_refresh(g, e.a);
          start += fmt::format("    const bool need__{0} = dirty__{0}_ || halo__{0}_;\n{1}"
                               "    if (need__{0})\n      {2}",
                               g.name, r.start, margin_within(g));
          finish += r.finish;
        }
        const std::string block = fmt::format("part__{}_.count", p.grids[k.domain_grid].name);
        // (Direct: MPI reads the device's faces, which the kernels before must have written.)
        return split +
               fmt::format(
                   "    if (direct__)\n      stencilc::gpu::synchronize();\n"
                   "    stencilc::Extents m__{{0, 0, 0, 0}};\n{0}"
                   "    const stencilc::mpi::Region in__ = stencilc::mpi::interior_region({1}, "
                   "{2}, "
                   "m__);\n"
                   "    if (!in__.empty())\n      kernel__{3}(&in__, true);\n"
                   "    dev__->copy.synchronize();\n{4}"
                   "    dev__->halo_ready.record(dev__->copy);\n"
                   "    stencilc::gpu::wait_event(dev__->compute, dev__->halo_ready);\n"
                   "    if (!in__.empty())\n"
                   "      for (const stencilc::mpi::Region &r__ : "
                   "stencilc::mpi::shell_regions({1}, {2}, "
                   "in__))\n"
                   "        kernel__{3}(&r__, true);\n    else\n      kernel__{3}(nullptr, true);\n"
                   "    dev__->compute.synchronize();\n{5}",
                   start, k.rank, block, k.name, finish, marks) +
               "    }\n";
      });
}

// mpi-cuda, mpi-hip: the temporal plan's halos k steps deep (codegen/deep_halos.h). The checks
// of a depth k (temporal_fits__) and the reallocation of the fused kernel's grids with halos
// k r deeper in the split dimensions (temporal_deepen__; k = 0: the grids' own), values kept:
// every grid brought to the host, the device's copies made anew from the host's.
std::string deep_halo_code(const ir::Program &p, const TemporalShape &t) {
  const ir::Kernel &k = p.kernels[t.kernel];
  std::set<int> used = ir::grids_read(k.body);
  for (int g : ir::grids_written(k.body))
    used.insert(g);
  const std::set<int> whole = ir::lower_rank_grids(p);
  std::vector<int> grids;
  for (int g : used)
    if (!whole.count(g)) // every rank holds these whole: no halo between blocks
      grids.push_back(g);
  const auto reach = [&](int d) { return temporal_reach(t, d); };
  std::string s = "std::string Stencil::temporal_fits__(int k) const {\n" +
                  deep_halo_fits(p, grids, t.rank, reach) + "}\n\n";
  s += fmt::format("void Stencil::temporal_deepen__(int k) {{\n  if (k == deep_k__)\n    return;\n"
                   "  for (int i__ = 0; i__ < {}; ++i__)\n    pull__(i__);\n"
                   "  const std::vector<int> &procs__ = cart__->procs();\n"
                   "  auto split__ = [&](int d) {{ return static_cast<int>(procs__.size()) > d && "
                   "procs__[d] > 1; }};\n",
                   p.grids.size());
  for (int g : grids) {
    const auto &grid = p.grids[g];
    std::string periodic;
    for (int d = 0; d < ir::kMaxRank; ++d)
      periodic += fmt::format("{}{}", d ? ", " : "",
                              d < grid.rank && grid.faces[2 * d].kind == ir::BoundaryKind::Periodic);
    s += fmt::format(
        "  {{\n    const stencilc::Halos h__{{{1}}};\n"
        "    part__{0}_ = cart__->part(\"{0}\", {2}, part__{0}_.global, h__, {{{4}}});\n"
        "    stencilc::Grid<{3}> g__(\"{0}\", {2}, part__{0}_.count, h__);\n"
        "    stencilc::copy_interior({0}_, g__);\n    {0}_ = std::move(g__);\n"
        "    dirty__{0}_ = true;\n  }}\n",
        grid.name, deep_halo_list(grid, t.rank, reach), grid.rank, ir::elem_name(grid),
        periodic);
  }
  s += "  dev__.reset(); // (before the new copies: the device holds one set at a time)\n"
       "  dev__ = std::make_unique<Device>(*this);\n"
       "  for (Where &w : where__)\n    w = kHostNewer;\n  deep_k__ = k;\n}\n\n";
  return s;
}

} // namespace

std::string gpu_streaming_unsupported(const ir::Program &p) {
  for (const auto &k : p.kernels)
    if (k.rank < 3)
      return fmt::format("2.5D streaming needs kernels of rank 3 or 4 (a plane to stream); "
                         "kernel '{}' is rank {}",
                         k.name, k.rank);
  if (p.kernels.empty())
    return "the program has no kernel to stream";
  // The rings hold planes of the first three dimensions; reads across the fourth would all go
  // to memory, each neighbour once per point, which is the naive plan's traffic.
  for (const auto &k : p.kernels) {
    std::string far;
    ir::walk(k.body, [&](const ir::Expr &e) {
      if (e.op == ir::Op::GridRead && k.rank == 4 && e.relative(3) != 0 && far.empty())
        far = p.grids[e.id].name;
    });
    if (!far.empty())
      return fmt::format("kernel '{}' reads grid '{}' at offsets in the fourth dimension, which "
                         "2.5D streaming does not keep in shared memory",
                         k.name, far);
  }
  return "";
}

std::string gpu_temporal_unsupported(const ir::Program &p,
                                     const stencilc::scheme::GpuTemporal *plan) {
  TemporalShape t;
  const std::string why = temporal_shape(p, t);
  if (!why.empty() || !plan)
    return why;
  return temporal_tile_problem(t, plan->k, plan->tile_x, plan->tile_y);
}

std::vector<GeneratedFile> emit_gpu(const ir::Program &program, const Analysis &,
                                    const lower::Lowered &l, const EmitOptions &opts,
                                    const std::string &target) {
  // layout=aosoa: a struct's members share rows, so their halos above x (ir::with_group_halos).
  const ir::Program joined = opts.plan.layout == stencilc::Layout::Aosoa
                                 ? ir::with_group_halos(program)
                                 : ir::Program{};
  const ir::Program &p = opts.plan.layout == stencilc::Layout::Aosoa ? joined : program;
  mus::data d = program_data(p, l, opts, target);
  // mpi-cuda, mpi-hip (a distributed lowering): the naive kernels (and the temporal one, on the
  // block widened into deep halos) on each rank's block;
  // ghost cells refreshed on the host by the distributed runtime (exchange, then the physical
  // faces), the block copied from and back to the device around it.
  const bool mpi = l.distributed;
  const ErrorSlots slots{static_cast<int>(p.kernels.size()), static_cast<int>(p.reductions.size()),
                         static_cast<int>(p.grids.size())};
  // After the step (or the constructor's inits): the error bits a slot's kernel flagged.
  std::string errors, init_errors;
  auto report = [](int slot, const std::string &what) {
    return fmt::format("  if (err__[{0}])\n    stencilc::kernel_error({1}, err__[{0}]);\n", slot,
                       cxx_string(what));
  };
  std::string inits, device_code, host_code;
  // Every kernel gets a streaming variant where the plan applies to the program.
  const bool streaming = !mpi && gpu_streaming_unsupported(p).empty();
  d.set("streaming", streaming ? mus::data::type::bool_true : mus::data::type::bool_false);
  // ... and the kernel the temporal plan fuses, where it applies.
  TemporalShape shape;
  const bool temporal = temporal_shape(p, shape).empty();
  d.set("gpu_temporal", temporal ? mus::data::type::bool_true : mus::data::type::bool_false);
  d.set("temporal_rx", std::to_string(shape.r[0]));
  d.set("temporal_ry", std::to_string(shape.r[1]));
  d.set("temporal_max_k", std::to_string(kMaxFused));
  d.set("temporal_kernel", temporal ? p.kernels[shape.kernel].name : std::string());
  if (mpi && temporal) // (overlap=host: the host's levels of the fused steps too)
    host_code +=
        deep_halo_code(p, shape) + host_kernel_definition(p, p.kernels[shape.kernel], true) + "\n";
  int gi = 0;
  for (const auto &g : p.grids) {
    if (g.init && mpi) {
      inits += init_code(p, g, "", true); // on the host, at the block's global indices
    } else if (g.init) {
      device_code += device_init(p, g, gi, slots, inits);
      if (ir::any_may_fail(g.init))
        init_errors += report(slots.init(gi), fmt::format("init of grid '{}'", g.name));
    }
    if (mpi) {
      for (HostFill k : {HostFill::Exchange, HostFill::DimFaces, HostFill::Across})
        host_code += host_fill_definition(p, g, k) + "\n";
      host_code += fmt::format(
          "// The block's ghost cells (the neighbours' halo slabs; the physical faces too if "
          "`faces__`).\n// Handed to an MPI that takes device pointers (direct__): the device's "
          "faces exchanged\n// dimension by dimension, each followed by its physical faces on the "
          "device. Otherwise on the\n// host: the interior cells within the halo's depth of each "
          "face copied from the device, the\n// ghost cells back. Called in a step or a compute_ "
          "(after push__): the device's copy is the\n// current one, and stays so (the host's is "
          "partly older).\nvoid Stencil::refresh__{0}(bool faces__) {{\n"
          "  where__[{1}] = kDeviceNewer;\n  if (direct__) {{\n    stencilc::gpu::synchronize();\n"
          "    for (int d__ = 0; d__ < {2}; ++d__) {{\n      cart__->exchange_storage({0}_, "
          "dev__->{0}.storage(), part__{0}_, d__);\n      if (faces__) {{\n        "
          "device_faces__{0}(d__, false);\n        stencilc::gpu::synchronize(); // the next "
          "dimension sends them\n      }}\n    }}\n    return;\n  }}\n"
          "  stencilc::Timer copy__;\n  dev__->{0}.download_faces({0}_);\n"
          "  d2h_seconds__ += copy__.seconds();\n  fill__{0}({0}_, faces__);\n"
          "  copy__.reset();\n  dev__->{0}.upload_halo({0}_);\n"
          "  h2d_seconds__ += copy__.seconds();\n}}\n\n",
          g.name, gi, g.rank);
    }
    device_code += fill_code(p, g, gi, slots, mpi, host_code);
    for (const auto &f : g.faces)
      if (f.kind == ir::BoundaryKind::Dirichlet && ir::any_may_fail(f.value)) {
        errors += report(slots.fill(gi), fmt::format("ghost cells of grid '{}'", g.name));
        break;
      }
    ++gi;
  }
  for (std::size_t ki = 0; ki < p.kernels.size(); ++ki) {
    const auto &k = p.kernels[ki];
    if (mpi) // overlap=host's boundary region
      host_code += host_kernel_definition(p, k) + "\n";
    device_code += kernel_code(p, k, slots, static_cast<int>(ki), streaming,
                               temporal ? &shape : nullptr, mpi, host_code) +
                   "\n";
    if (ir::any_may_fail(k.body))
      errors += report(slots.kernel(static_cast<int>(ki)), fmt::format("kernel '{}'", k.name));
  }
  for (std::size_t ri = 0; ri < p.reductions.size(); ++ri) {
    const auto &r = p.reductions[ri];
    device_code += reduction_code(p, r, slots, static_cast<int>(ri), mpi, host_code) + "\n";
    if (ir::any_may_fail(r.value))
      errors += report(slots.reduction(static_cast<int>(ri)), fmt::format("reduction '{}'", r.name));
  }
  d.set("inits", inits);
  d.set("init_may_fail", init_errors.empty() ? mus::data::type::bool_false : mus::data::type::bool_true);
  d.set("init_errors", init_errors);
  d.set("device_code", device_code);
  d.set("host_code", host_code);
  d.set("error_slots", std::to_string(slots.count()));
  d.set("may_fail", errors.empty() ? mus::data::type::bool_false : mus::data::type::bool_true);
  d.set("error_checks", errors);

  const auto fill = [mpi](const ir::Grid &g) {
    if (mpi) // a grid whose halo alone is stale (MarkHaloStale) keeps its physical faces
      return fmt::format("  if (dirty__{0}_ || halo__{0}_) {{\n    refresh__{0}(dirty__{0}_);\n"
                         "    dirty__{0}_ = halo__{0}_ = false;\n  }}\n",
                         g.name);
    return fmt::format("  if (dirty__{0}_) {{\n    fill__{0}();\n    dirty__{0}_ = false;\n  }}\n",
                       g.name);
  };
  // By pointer: the device buffers, the host copies and their flags trade places.
  const auto swap = [&](const lower::Action &a) {
    return fmt::format("  {0}_.swap_storage({1}_);\n  dev__->{0}.swap(dev__->{1});\n"
                       "  std::swap(dirty__{0}_, dirty__{1}_);\n"
                       "  std::swap(where__[{2}], where__[{3}]);\n{4}",
                       p.grids[a.a].name, p.grids[a.b].name, a.a, a.b,
                       mpi ? fmt::format("  std::swap(halo__{}_, halo__{}_);\n"
                                         "  std::swap(deep__[{}], deep__[{}]);\n",
                                         p.grids[a.a].name, p.grids[a.b].name, a.a, a.b)
                           : "");
  };
  auto body = [&](const std::vector<lower::Action> &actions) {
    return mpi ? mpi_step(p, actions, fill, swap) : step_statements(p, actions, fill, swap);
  };
  d.set("step_body", body(l.step));
  std::vector<std::string> blocks;
  for (const auto &b : l.blocks)
    blocks.push_back(body(b));
  set_blocks(d, p, blocks);
  // Fills change the device's ghost cells: the host copy of each grid read is then older.
  d.set("compute_defs",
        compute_definitions(p, fill, "  push__();\n", [&](const std::set<int> &read) {
          std::string s;
          for (int g : read)
            s += fmt::format("  where__[{}] = kDeviceNewer;\n", g);
          return s + (errors.empty() ? "" : "  check_errors__();\n");
        }));
  return {render_file(p, d, "gpu/program.h.mustache", p.name + ".h", opts),
          render_file(p, d, "gpu/program.cpp.mustache", p.name + ".cpp", opts),
          render_file(p, d, "cpu/main.cpp.mustache", p.name + "_main.cpp", opts)};
}

} // namespace stc
