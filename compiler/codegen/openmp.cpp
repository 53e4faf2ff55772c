// The openmp target, naive plan: one parallel sweep per kernel call, OpenMP threads over the
// outer dimensions, `omp simd` over x. Rows are reached through per-row pointers so that
// every read is a constant offset from a row pointer, which is what the vectoriser wants.
//
// The mpi-openmp target's naive plan is the same code on each rank's block (`mpi` below): the
// sweeps loop over local indices and add the block's offset (off0__, ...) where the program
// uses an index, a colour's parity or a sub-domain; ghost cells are refilled by exchange and
// physical faces (stencilc/mpi/comm.h); reductions combine over ranks; grids are allocated
// after the global size checks and the decomposition checks.
#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <kainjow/mustache.hpp>

#include "codegen/c_like.h"
#include "codegen/codegen.h"
#include "codegen/openmp_temporal.h"
#include "codegen/program_data.h"
#include "support/diagnostics.h"

namespace stc {

namespace {

namespace mus = kainjow::mustache;

using ir::grids_read;
using ir::grids_written;

// The parts of a sweep over a domain shared by kernels and reductions: ghost refresh of the
// grids read, local copies of params, bounds, row pointers and the loop nest around `body`.
struct Sweep {
  const std::vector<std::string> &indices;
  const ir::Domain &domain;
  int domain_grid;
  std::set<int> read, written;
  std::set<int> params;
  std::string omp_clause; // extra clause of the parallel and simd pragmas, e.g. a reduction
  bool mpi = false;       // a block of a distributed grid (offsets off0__, ... of the domain grid)
  bool region = false;    // mpi kernels: clipped to *box__ when given (overlap=on)
  bool widened = false;   // ... and *box__ (given) may reach beyond faces between blocks, into
                          // the halo (mpi-cuda's temporal plan under overlap=host)
  bool reduction = false; // a reduction's sweep: its vector width is left to the compiler (it
                          // decides how the partial sums are combined)
};

std::string sweep(const ir::Program &p, const Sweep &sw, const std::string &body) {
  SetupEmitter setup(p);
  const int rank = static_cast<int>(sw.indices.size());
  std::string s;
  // Local copies: the compiler then knows stores to grids cannot change them.
  s += param_copies(p, sw.params);
  const std::string &dom = p.grids[sw.domain_grid].name;
  if (sw.mpi)
    for (int d = 0; d < rank; ++d)
      s += fmt::format("  [[maybe_unused]] const std::int64_t off{0}__ = part__{1}_.offset[{0}];\n",
                       d, dom);
  if (sw.domain.kind == ir::Domain::Kind::Range && sw.mpi) {
    // The global sub-domain clipped to this block, in local indices.
    s += "  [[maybe_unused]] const Params &prm__ = params_;\n";
    for (int d = 0; d < rank; ++d)
      s += fmt::format("  {4}std::int64_t lo{0}__ = std::clamp<std::int64_t>(({1}) - off{0}__, "
                       "0, {3}_.extent({0})), hi{0}__ = std::clamp<std::int64_t>(({2}) - off{0}__, "
                       "0, {3}_.extent({0}));\n",
                       d, setup.expr(sw.domain.lo[d]), setup.expr(sw.domain.hi[d]), dom,
                       sw.region ? "" : "const ");
  } else if (sw.domain.kind == ir::Domain::Kind::Range) {
    s += "  [[maybe_unused]] const Params &prm__ = params_;\n";
    for (int d = 0; d < rank; ++d)
      s += fmt::format("  const std::int64_t lo{0}__ = {1}, hi{0}__ = {2};\n", d,
                       setup.expr(sw.domain.lo[d]), setup.expr(sw.domain.hi[d]));
  } else {
    for (int d = 0; d < rank; ++d)
      s += fmt::format("  [[maybe_unused]] {2}std::int64_t lo{0}__ = 0, hi{0}__ = "
                       "{1}_.extent({0});\n",
                       d, dom, sw.region ? "" : "const ");
  }
  if (sw.widened) {
    // The box, cut at the physical faces only (the block's own, beyond it the halo).
    for (int d = 0; d < rank; ++d)
      s += fmt::format("  lo{0}__ = part__{1}_.physical[{0}][0] ? std::max(lo{0}__, "
                       "box__->lo[{0}]) : box__->lo[{0}];\n  hi{0}__ = part__{1}_.physical[{0}][1] "
                       "? std::min(hi{0}__, box__->hi[{0}]) : box__->hi[{0}];\n",
                       d, dom);
  } else if (sw.region) {
    // One region of the block at a time (stencilc::mpi::overlapped_sweep).
    s += "  if (box__) {\n";
    for (int d = 0; d < rank; ++d)
      s += fmt::format("    lo{0}__ = std::max(lo{0}__, box__->lo[{0}]);\n    hi{0}__ = "
                       "std::min(hi{0}__, box__->hi[{0}]);\n",
                       d);
    s += "  }\n";
  }
  std::set<int> used = sw.read;
  used.insert(sw.written.begin(), sw.written.end());
  for (int g : used) {
    const auto &grid = p.grids[g];
    const bool w = sw.written.count(g) > 0;
    s += fmt::format("  {}{} *const {}__o = {}_.origin();\n", w ? "" : "const ",
                     ir::elem_name(grid), grid.name, grid.name);
    for (int d = 1; d < grid.rank; ++d)
      s += fmt::format("  [[maybe_unused]] const std::int64_t {}__s{} = {}_.stride({});\n",
                       grid.name, d, grid.name, d);
  }
  const auto &idx = sw.indices;
  auto loop = [&](int d) {
    return fmt::format("for (std::int64_t {0} = lo{1}__; {0} < hi{1}__; ++{0})", idx[d], d);
  };
  std::string xloop = x_loop(sw.domain, idx, rank);
  if (sw.mpi) { // a colour's parity is that of global coordinates
    std::vector<std::string> global = idx;
    for (int d = 1; d < rank; ++d)
      global[d] = fmt::format("({} + off{}__)", idx[d], d);
    xloop = x_loop(sw.domain, global, rank, "off0__", sw.region);
  }
  // On MPI, grids every rank holds whole are read at global indices (RowBodyEmitter).
  const std::set<int> whole = sw.mpi ? ir::lower_rank_grids(p) : std::set<int>();
  auto row_pointers = [&]() {
    std::string r;
    for (int g : used) {
      const auto &grid = p.grids[g];
      r += fmt::format("{}{} *__restrict {}__r = {};\n", sw.written.count(g) ? "" : "const ",
                       ir::elem_name(grid), grid.name, row_origin(grid, idx, whole.count(g) > 0));
    }
    return r;
  };
  const std::string clause = sw.omp_clause.empty() ? "" : " " + sw.omp_clause;
  // 256-bit vectors, as the temporal plan's row functions without vec=512: left to itself, GCC
  // takes 512 bits where -march has AVX-512, and on an AMD EPYC (Zen 5) VM a naive heat3d
  // 510^3 sweep from memory then ran 15-20% slower (a 512-bit load at x +- 1 straddles two
  // cache lines every time). The same expression per cell either way: the same bits. A
  // reduction keeps the compiler's width: simdlen would regroup its partial sums.
  std::size_t widest = 1;
  for (int g : used)
    widest = std::max(widest, ir::elem_bytes(p.grids[g]));
  const std::string simd =
      sw.reduction ? "simd"
                   : fmt::format("simd simdlen({})", std::max<std::size_t>(1, 32 / widest));
  const std::string inner = "#pragma omp " + simd + clause + "\n" + xloop + " {\n" + body + "}\n";
  switch (rank) {
  case 1:
    s += row_pointers() + "#pragma omp parallel for " + simd + " schedule(static)" + clause + "\n" +
         xloop + " {\n" + body + "}\n";
    break;
  case 2:
    s += "#pragma omp parallel for schedule(static)" + clause + "\n" + loop(1) + " {\n" +
         row_pointers() + inner + "}\n";
    break;
  case 3:
    s += "#pragma omp parallel for collapse(2) schedule(static)" + clause + "\n" + loop(2) + "\n" +
         loop(1) + " {\n" + row_pointers() + inner + "}\n";
    break;
  default:
    s += "#pragma omp parallel for collapse(2) schedule(static)" + clause + "\n" + loop(3) + "\n" +
         loop(2) + "\n" + loop(1) + " {\n" + row_pointers() + inner + "}\n";
    break;
  }
  return s;
}

std::string kernel_definition(const ir::Program &p, const ir::Kernel &k, bool mpi,
                              const char *function = "kernel__", bool widened = false) {
  RowBodyEmitter em(p, k.indices, &k.locals, mpi);
  Sweep sw{k.indices,
           k.domain,
           k.domain_grid,
           grids_read(k.body),
           grids_written(k.body),
           params_of(k.body),
           "",
           mpi,
           mpi,
           widened};
  std::string body = em.kernel_statements(k);
  const bool divmod = ir::any_may_fail(k.body);
  if (divmod)
    sw.omp_clause = "reduction(|:err__)";
  std::string s = fmt::format("void Stencil::{}{}({}) {{\n", function, k.name,
                              mpi ? "const stencilc::mpi::Region *box__" : "");
  if (divmod)
    s += "  int err__ = 0;\n";
  s += sweep(p, sw, body);
  if (divmod)
    s += fmt::format("  if (err__)\n    stencilc::kernel_error({}, err__);\n",
                     cxx_string(fmt::format("kernel '{}'", k.name)));
  return s + "}\n";
}

std::string reduction_definition(const ir::Program &p, const ir::Reduction &r, bool mpi) {
  RowBodyEmitter em(p, r.indices, nullptr, mpi);
  static const char *const clause[] = {"+", "min", "max", "+", "*"};
  static const char *const update[] = {"acc__ += {0};", "acc__ = std::min(acc__, {0});",
                                       "acc__ = std::max(acc__, {0});", "acc__ += {0} * {0};",
                                       "acc__ *= {0};"};
  const int op = static_cast<int>(r.op);
  const bool divmod = ir::any_may_fail(r.value);
  const Accumulator acc = accumulator(r);
  const char *const type = ir::reduction_cxx_type(r);
  Sweep sw{r.indices,
           r.domain,
           r.domain_grid,
           grids_read(r.value),
           {},
           params_of(r.value),
           fmt::format("reduction({}:acc__){}", clause[op], divmod ? " reduction(|:err__)" : ""),
           mpi};
  sw.reduction = true;
  std::string body =
      fmt::format("{}const {} v__ = static_cast<{}>({});\n{}{}\n", expr_line_directive(p, r.value),
                  type, type, em.expr(r.value), generated_line_directive(p, p.name + ".cpp"),
                  fmt::format(fmt::runtime(update[op]), acc.of_value));
  std::string s = fmt::format("{} Stencil::reduce__{}() {{\n  {} acc__ = {};\n", type, r.name,
                              acc.type, acc.identity);
  if (divmod)
    s += "  int err__ = 0;\n";
  s += sweep(p, sw, body);
  if (divmod)
    s += fmt::format("  if (err__)\n    stencilc::kernel_error({}, err__);\n",
                     cxx_string(fmt::format("reduction '{}'", r.name)));
  if (mpi && !ir::lower_rank_grids(p).count(r.domain_grid)) {
    // This rank's part, combined over ranks (min, max and integers exactly; floating sums and
    // products in rank order, the square root of norm2 after: stencilc/mpi/comm.h).
    return s + fmt::format("  return {};\n}}\n", combined_over_ranks(r, "acc__"));
  }
  // (On MPI, a reduction over a grid every rank holds whole is whole on each: nothing to combine.)
  s += r.op == ir::ReduceOp::Norm2 ? "  return std::sqrt(acc__);\n"
                                   : fmt::format("  return {};\n", as_value(r, "acc__"));
  return s + "}\n";
}

// mpi: the step, where every sweep that follows exchanges (of grids it reads) has, under
// overlap=on, those exchanges in flight while it computes its interior
// (stencilc::mpi::overlapped_sweep); the blocking fills and the whole sweep otherwise.
std::string mpi_step(const ir::Program &p, const std::vector<lower::Action> &step,
                     const std::function<std::string(const lower::Action &)> &swap) {
  return overlapped_step(
      p, step, exchange_if_stale, swap,
      [&](const ir::Kernel &k, const std::vector<lower::Action> &pending,
          const std::vector<lower::Action> &marks) {
        std::string add;
        for (const lower::Action &e : pending)
          add += fmt::format("    if (dirty__{0}_ || halo__{0}_) {{\n      ex__.add({0}_, "
                             "part__{0}_, {1}, [this, faces__ = dirty__{0}_](int d__) {{\n"
                             "        if (faces__)\n          dim_faces__{0}({0}_, d__);\n"
                             "      }});\n      dirty__{0}_ = halo__{0}_ = false;\n    }}\n",
                             p.grids[e.a].name, e.a);
        return fmt::format("    stencilc::mpi::Exchanges ex__(*cart__);\n{}"
                           "    stencilc::mpi::overlapped_sweep(ex__, {}, part__{}_.count, "
                           "[this](const stencilc::mpi::Region &r__) {{ kernel__{}(&r__); "
                           "}});\n{}",
                           add, k.rank, p.grids[k.domain_grid].name, k.name,
                           step_statements(p, marks, exchange_if_stale, swap));
      });
}

// Both targets' files; `mpi`: mpi-openmp (the templates' mpi sections).
std::vector<GeneratedFile> emit_cpu(const ir::Program &program, const lower::Lowered &l,
                                    const EmitOptions &opts, bool mpi) {
  // layout=aosoa: a struct's members share rows, so their halos above x (ir::with_group_halos).
  const ir::Program joined = opts.plan.layout == stencilc::Layout::Aosoa
                                 ? ir::with_group_halos(program)
                                 : ir::Program{};
  const ir::Program &p = opts.plan.layout == stencilc::Layout::Aosoa ? joined : program;
  if (l.distributed != mpi)
    internal_error("emit: the lowering is not for this target's kind of process layout");
  mus::data d = program_data(p, l, opts, mpi ? "mpi-openmp" : "openmp");
  const TemporalCode tc = temporal_code(p, l, mpi, opts.plan.layout == stencilc::Layout::Aosoa);
  d.set("temporal", tc.why_not.empty() ? mus::data::type::bool_true : mus::data::type::bool_false);
  d.set("why_not", cxx_string(tc.why_not));
  d.set("row_fns", tc.row_fns);
  d.set("temporal_describe", tc.describe);
  d.set("temporal_block", tc.block);
  d.set("temporal_options", tc.options);
  d.set("temporal_alloc", tc.alloc);
  d.set("temporal_views", tc.views);
  d.set("shadow_members", tc.shadows);
  d.set("temporal_fits", tc.fits);
  d.set("temporal_deepen", tc.deepen);
  d.set("keep_steps", tc.reductions ? std::string("1") : std::string("0"));

  std::string inits, fills, defs;
  for (const auto &g : p.grids) {
    if (g.init)
      inits += init_code(p, g, "#pragma omp parallel for collapse(2) schedule(static)", mpi);
    if (!mpi)
      fills += host_fill_definition(p, g, HostFill::Whole) + "\n";
    else
      for (HostFill k : {HostFill::Exchange, HostFill::DimFaces, HostFill::Across})
        fills += host_fill_definition(p, g, k) + "\n";
  }
  d.set("inits", inits);
  d.set("fill_defs", fills);
  for (const auto &k : p.kernels)
    defs += kernel_definition(p, k, mpi) + "\n";
  for (const auto &r : p.reductions)
    defs += reduction_definition(p, r, mpi) + "\n";
  d.set("kernel_defs", defs);
  d.set("compute_defs", compute_definitions(p, mpi ? exchange_if_stale : fill_if_stale));

  auto swap = [&](const lower::Action &a) {
    return fmt::format("  {0}_.swap_storage({1}_);\n  std::swap(dirty__{0}_, dirty__{1}_);\n{2}",
                       p.grids[a.a].name, p.grids[a.b].name,
                       mpi ? fmt::format("  std::swap(halo__{}_, halo__{}_);\n", p.grids[a.a].name,
                                         p.grids[a.b].name)
                           : "");
  };
  auto body = [&](const std::vector<lower::Action> &actions) {
    return mpi ? mpi_step(p, actions, swap) : step_statements(p, actions, fill_if_stale, swap);
  };
  d.set("step_body", body(l.step));
  std::vector<std::string> blocks;
  for (const auto &b : l.blocks)
    blocks.push_back(body(b));
  set_blocks(d, p, blocks);
  return {render_file(p, d, "cpu/program.h.mustache", p.name + ".h", opts),
          render_file(p, d, "cpu/program.cpp.mustache", p.name + ".cpp", opts),
          render_file(p, d, "cpu/main.cpp.mustache", p.name + "_main.cpp", opts)};
}

} // namespace

std::string host_kernel_definition(const ir::Program &p, const ir::Kernel &k, bool widened) {
  return kernel_definition(p, k, true, widened ? "host_kernel_wide__" : "host_kernel__", widened);
}

std::vector<GeneratedFile> emit_openmp(const ir::Program &p, const Analysis &,
                                       const lower::Lowered &l, const EmitOptions &opts) {
  return emit_cpu(p, l, opts, false);
}

std::vector<GeneratedFile> emit_mpi_openmp(const ir::Program &p, const Analysis &,
                                           const lower::Lowered &l, const EmitOptions &opts) {
  return emit_cpu(p, l, opts, true);
}

} // namespace stc
