// The openmp target's temporal plan: a row function per kernel and a description of the run
// block (stencilc::cpu::Step) that the runtime's blocking engine walks (runtime/src/cpu/
// engine.cpp). The row function prints the kernel body exactly as the naive sweep does; only
// grid reads differ, going through one pointer per row read.
#include <array>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "analysis/x_shifts.h"
#include "codegen/c_like.h"
#include "codegen/codegen.h"
#include "codegen/deep_halos.h"
#include "codegen/openmp_temporal.h"
#include "codegen/temporal_rows.h"
#include "codegen/x_shift_rows.h"
#include "stencilc/cpu/engine.h"

namespace stc {
namespace {

// wide: the vec=512 variant, row__K__wide: STENCILC_WIDE_VECTORS (engine.h) and simdlen of
// 512-bit vectors; the same statements, so the same bits.
std::string row_function(const ir::Program &p, const ir::Kernel &k, bool mpi, bool wide) {
  return row_head(p, k, mpi, wide, wide ? "__wide" : "",
                  wide ? " on 512-bit vectors (vec=512)" : "") +
         row_x_loop(p, k, mpi, wide, "") + "  }\n}\n\n";
}

// Dirichlet ghosts of dimension 0 of one row, computed as the naive plan's fill computes them
// (the same expression and conversion), so the engine need not read them from memory.
std::string x_dirichlet_function(const ir::Program &p, const ir::Grid &g, bool mpi) {
  const char *t = ir::elem_name(g);
  // mpi: the row's coordinates are the widened block's; x0__..x2__ the global ones.
  std::string s = fmt::format(
      "void xghost__{}(void *row__, std::int64_t n0__, [[maybe_unused]] std::int64_t {}, "
      "[[maybe_unused]] std::int64_t {}, const void *ctx__) {{\n{}"
      "  [[maybe_unused]] const std::int64_t x3__ = 0;\n"
      "  {} *r__ = static_cast<{} *>(row__);\n",
      g.name, mpi ? "l1__" : "x1__", mpi ? "l2__" : "x2__", row_context(mpi, "prm__"), t, t);
  if (mpi)
    s += "  [[maybe_unused]] const std::int64_t x1__ = l1__ + off1__, x2__ = l2__ + off2__;\n";
  const std::string x0 = mpi ? "l0__" : "x0__";
  const std::string global = mpi ? "    [[maybe_unused]] const std::int64_t x0__ = l0__ + off0__;\n" : "";
  if (g.faces[0].kind == ir::BoundaryKind::Dirichlet)
    s += fmt::format("  for (std::int64_t {0} = -{1}; {0} < 0; ++{0}) {{\n{2}    r__[{0}] = "
                     "static_cast<{3}>({4});\n  }}\n",
                     x0, g.halo[0], global, t, setup_expr(p, g.faces[0].value));
  if (g.faces[1].kind == ir::BoundaryKind::Dirichlet)
    s += fmt::format("  for (std::int64_t {0} = n0__; {0} < n0__ + {1}; ++{0}) {{\n{2}    r__[{0}] = "
                     "static_cast<{3}>({4});\n  }}\n",
                     x0, g.halo[0], global, t, setup_expr(p, g.faces[1].value));
  return s + "}\n\n";
}

// A grid's faces as the CPU engine takes them, [dimension][low, high], Dirichlet beyond its
// rank: the one mapping from ir::BoundaryKind to the engine's Face, for the step checked here
// (why_not) and the step the generated code describes (temporal_code).
std::array<std::array<stencilc::cpu::Face, 2>, 3> engine_faces(const ir::Grid &g) {
  using F = stencilc::cpu::Face;
  std::array<std::array<F, 2>, 3> faces{};
  for (int dim = 0; dim < std::min(g.rank, 3); ++dim)
    for (int side = 0; side < 2; ++side)
      switch (g.faces[2 * dim + side].kind) {
      case ir::BoundaryKind::Dirichlet: faces[dim][side] = F::Dirichlet; break;
      case ir::BoundaryKind::Neumann: faces[dim][side] = F::Neumann; break;
      case ir::BoundaryKind::Periodic: faces[dim][side] = F::Periodic; break;
      }
  return faces;
}

// A Face as the generated code spells it (`F` is stencilc::cpu::Face there).
const char *face_name(stencilc::cpu::Face f) {
  static const char *const names[] = {"Dirichlet", "Neumann", "Periodic"};
  return names[static_cast<int>(f)];
}

// Grids the run block uses, in declaration order (the engine's grid numbering).
std::vector<int> step_grids(const ir::Program &p) {
  std::set<int> used;
  for (const auto &r : p.run) {
    if (r.kind == ir::RunStmt::Kind::Call) {
      const auto &k = p.kernels[r.a];
      for (int g : ir::grids_read(k.body))
        used.insert(g);
      for (int g : ir::grids_written(k.body))
        used.insert(g);
    } else if (r.kind == ir::RunStmt::Kind::Swap) {
      used.insert(r.a);
      used.insert(r.b);
    }
  }
  return {used.begin(), used.end()};
}

// Why the program's run block cannot be blocked in time ("" if it can).
std::string why_not(const ir::Program &p, const std::vector<int> &grids) {
  if (p.until)
    return "the run block stops on a condition (run until), which is tested after every step";
  // mpi-openmp reallocates the main block's grids with deeper halos, so another block may not
  // swap one of them with a grid the main block leaves alone (their layouts would differ).
  const std::set<int> in_step(grids.begin(), grids.end());
  for (const auto &b : p.blocks)
    for (const auto &r : b.run)
      if (r.kind == ir::RunStmt::Kind::Swap && in_step.count(r.a) != in_step.count(r.b))
        return fmt::format("run block '{}' swaps grids '{}' and '{}', of which the main run "
                           "block uses only one",
                           b.name, p.grids[r.a].name, p.grids[r.b].name);
  bool kernels = false;
  for (const auto &r : p.run) {
    if (r.kind == ir::RunStmt::Kind::Call) {
      kernels = true;
      const auto &k = p.kernels[r.a];
      if (ir::any_may_fail(k.body))
        return fmt::format("kernel '{}' has an int() conversion or an integer division by a "
                           "value that may be 0 or -1, which can fail per cell",
                           k.name);
      bool uses_reduction = false;
      ir::walk(k.body, [&](const ir::Expr &e) {
        uses_reduction |= e.op == ir::Op::Reduction || e.op == ir::Op::ReductionFirst;
      });
      if (uses_reduction)
        return fmt::format("kernel '{}' uses a reduction computed every step", k.name);
      std::string absolute, lower;
      ir::walk(k.body, [&](const ir::Expr &e) {
        if (e.op == ir::Op::GridRead && e.absolute && absolute.empty())
          absolute = p.grids[e.id].name;
        if (e.op == ir::Op::GridRead && p.grids[e.id].rank < k.rank && lower.empty())
          lower = p.grids[e.id].name;
      });
      if (!lower.empty())
        return fmt::format("kernel '{}' reads grid '{}' of lower rank, which the temporal "
                           "engine's rows do not hold (not supported yet)",
                           k.name, lower);
      // The engine's tiles and widened blocks hold a neighbourhood of their cells, not a
      // plane that may lie anywhere.
      if (!absolute.empty())
        return fmt::format("kernel '{}' reads grid '{}' at an absolute index, which the temporal "
                           "engine's tiles do not hold (not supported yet)",
                           k.name, absolute);
      if (ir::grids_written(k.body).size() > 16 || row_slots(k).size() > 64)
        return fmt::format("kernel '{}' writes more than 16 grids or reads more than 64 rows",
                           k.name);
    } else if (r.kind == ir::RunStmt::Kind::Reduce) {
      if (ir::any_may_fail(p.reductions[r.a].value))
        return fmt::format("reduction '{}' has an int() conversion or an integer division by a "
                           "value that may be 0 or -1, which can fail per cell",
                           p.reductions[r.a].name);
    }
  }
  if (!kernels)
    return "the run block calls no kernel";
  const int rank = p.grids[grids.front()].rank;
  for (int g : grids)
    if (p.grids[g].rank != rank)
      return "the run block uses grids of different ranks";
  stencilc::cpu::Step st;
  st.rank = rank;
  for (int g : grids) {
    stencilc::cpu::GridDesc d;
    d.name = p.grids[g].name;
    d.faces = engine_faces(p.grids[g]);
    st.grids.push_back(d);
  }
  for (const auto &r : p.run)
    if (r.kind == ir::RunStmt::Kind::Swap &&
        faces_key(p, p.grids[r.a]) != faces_key(p, p.grids[r.b]))
      return fmt::format("the run block swaps grids '{}' and '{}', which have different boundary "
                         "conditions",
                         p.grids[r.a].name, p.grids[r.b].name);
  return stencilc::cpu::unsupported(st, {});
}

// Where a kernel of the step, or a Dirichlet value of one of its grids, depends on the position
// of a cell (an index, a colour, a sub-domain): "" if nowhere, else what does. A block widened
// across a periodic face would compute cells beyond the global grid with coordinates that are
// not wrapped.
std::string position_use(const ir::Program &p, const std::vector<int> &grids) {
  auto uses_index = [](const ir::ExprPtr &e) {
    bool any = false;
    if (e)
      ir::walk(e, [&](const ir::Expr &x) { any |= x.op == ir::Op::Index; });
    return any;
  };
  for (const auto &r : p.run) {
    if (r.kind != ir::RunStmt::Kind::Call)
      continue;
    const auto &k = p.kernels[r.a];
    bool index = false;
    ir::walk(k.body, [&](const ir::Expr &x) { index |= x.op == ir::Op::Index; });
    if (index)
      return fmt::format("kernel '{}' uses its indices", k.name);
    if (k.domain.kind != ir::Domain::Kind::Interior)
      return fmt::format("kernel '{}' runs on a {}", k.name,
                         k.domain.kind == ir::Domain::Kind::Range ? "sub-domain" : "colour");
  }
  for (int g : grids)
    for (const auto &f : p.grids[g].faces)
      if (f.kind == ir::BoundaryKind::Dirichlet && uses_index(f.value))
        return fmt::format("a Dirichlet value of grid '{}' uses the indices", p.grids[g].name);
  return "";
}

// Grids a kernel writes and also reads the old values of: at an offset, or in its cell before
// storing to it (a read after the store sees the new value). `always`: the grids it stores to
// on every path through its body.
std::set<int> old_reads(const ir::Kernel &k, std::set<int> *always = nullptr) {
  const auto written = ir::grids_written(k.body);
  std::set<int> old;
  const std::set<int> stored = walk_reads(k, [&](const ir::Expr &e, const std::set<int> &now) {
    if (!written.count(e.id))
      return;
    bool centre = true;
    for (int d = 0; d < k.rank; ++d)
      centre &= e.offset[d] == 0;
    if (!centre || !now.count(e.id))
      old.insert(e.id);
  });
  if (always)
    *always = stored;
  return old;
}

// Grids whose values at the start of a block the block reads: the run block followed through
// enough steps that every storage is overwritten or cycles back, storage by storage (swaps
// exchange storages). A kernel on part of the grid (a sub-domain, a colour), or that stores to
// a grid on some paths only, keeps the rest of the old values, so it does not overwrite.
std::set<int> read_before_block(const ir::Program &p) {
  const int n = static_cast<int>(p.grids.size());
  std::vector<int> storage(n); // grid -> the storage it holds now
  std::vector<bool> fresh(n);  // storage -> overwritten during the block
  for (int g = 0; g < n; ++g)
    storage[g] = g;
  std::set<int> needed;
  for (int step = 0; step < 2 * n + 2; ++step)
    for (const auto &r : p.run) {
      if (r.kind == ir::RunStmt::Kind::Swap) {
        std::swap(storage[r.a], storage[r.b]);
      } else if (r.kind == ir::RunStmt::Kind::Call) {
        const auto &k = p.kernels[r.a];
        const auto written = ir::grids_written(k.body);
        std::set<int> always;
        const std::set<int> old = old_reads(k, &always);
        for (int g : ir::grids_read(k.body))
          if ((!written.count(g) || old.count(g)) && !fresh[storage[g]])
            needed.insert(storage[g]);
        if (k.domain.kind == ir::Domain::Kind::Interior)
          for (int g : always)
            fresh[storage[g]] = true;
      }
    }
  return needed;
}

// mpi-openmp: the checks of a depth k (temporal_fits__) and the reallocation of the step's grids
// with halos k * step_reach deeper in the split dimensions (temporal_deepen__), values kept.
void mpi_code(const ir::Program &p, const lower::Lowered &l, const std::vector<int> &grids,
              bool aosoa, TemporalCode &tc) {
  const int rank = p.grids[grids.front()].rank;
  const ir::Offsets &reach = l.schedule.step_reach;
  const std::string position = position_use(p, grids);
  std::string &f = tc.fits;
  f += "  const std::string engine__ = stencilc::cpu::unsupported(step__, temporal_views__());\n"
       "  if (!engine__.empty())\n    return engine__;\n";
  const auto reach_of = [&](int d) { return static_cast<int>(reach[d]); };
  f += deep_halo_fits(p, grids, std::min(rank, 3), reach_of, [&](int d) {
    bool periodic = false;
    for (int g : grids)
      periodic |= p.grids[g].faces[2 * d].kind == ir::BoundaryKind::Periodic;
    if (!periodic || position.empty())
      return std::string();
    return fmt::format("    return \"dimension {} is periodic and split over \" + "
                       "std::to_string(procs__[{}]) + \" processes, and {}: a block widened "
                       "across the periodic face would see coordinates that do not wrap\";\n",
                       d + 1, d, position);
  });

  std::string &e = tc.deepen;
  e += "  if (k == deep_k__)\n    return;\n  const std::vector<int> &procs__ = cart__->procs();\n"
       "  auto split__ = [&](int d) { return static_cast<int>(procs__.size()) > d && procs__[d] > 1; };\n";
  // layout=aosoa: the step's members of a struct are reallocated together, interleaved.
  std::map<int, std::vector<int>> together; // first member -> the step's members of its struct
  std::set<int> grouped;
  for (const auto &members : aosoa ? ir::struct_groups(p) : std::vector<std::vector<int>>{}) {
    std::vector<int> in;
    for (int g : members)
      if (std::find(grids.begin(), grids.end(), g) != grids.end())
        in.push_back(g);
    if (in.empty())
      continue;
    together[in.front()] = in;
    grouped.insert(in.begin(), in.end());
  }
  auto deep_halos = [&](const ir::Grid &grid) { return deep_halo_list(grid, 3, reach_of); };
  for (int g : grids) {
    const auto &grid = p.grids[g];
    std::string periodic;
    for (int d = 0; d < ir::kMaxRank; ++d)
      periodic += fmt::format("{}{}", d ? ", " : "",
                              d < grid.rank && grid.faces[2 * d].kind == ir::BoundaryKind::Periodic
                                  ? "true"
                                  : "false");
    if (grouped.count(g)) {
      e += fmt::format("  const stencilc::Halos dh__{0}{{{2}}};\n  part__{0}_ = cart__->part(\"{0}\", "
                       "{1}, part__{0}_.global, dh__{0}, {{{3}}});\n",
                       grid.name, grid.rank, deep_halos(grid), periodic);
      continue;
    }
    e += fmt::format(
        "  {{\n    const stencilc::Halos h__{{{1}}};\n"
        "    part__{0}_ = cart__->part(\"{0}\", {2}, part__{0}_.global, h__, {{{3}}});\n"
        "    if ({0}_.halo(0) != h__[0] || {0}_.halo(1) != h__[1] || {0}_.halo(2) != h__[2]) {{\n"
        "      stencilc::Grid<{4}> g__(\"{0}\", {2}, part__{0}_.count, h__);\n"
        "      stencilc::copy_interior({0}_, g__);\n      {0}_ = std::move(g__);\n"
        "      dirty__{0}_ = true;\n    }}\n  }}\n",
        grid.name, deep_halos(grid), grid.rank, periodic, ir::elem_name(grid));
  }
  for (const auto &[first, in] : together) {
    const ir::Grid &f0 = p.grids[first];
    std::string list, moves, differ;
    for (std::size_t i = 0; i < in.size(); ++i) {
      const ir::Grid &g = p.grids[in[i]];
      list += fmt::format("{}{{sizeof({}), dh__{}[0]}}", i ? ", " : "", ir::elem_name(g),
                          g.name);
      differ += fmt::format("{}{}_.halo(0) != dh__{}[0]", i ? " || " : "", g.name, g.name);
      moves += fmt::format("    {{\n      stencilc::Grid<{1}> g__(\"{0}\", {2}, part__{0}_.count, "
                           "dh__{0}, grp__, {3});\n      stencilc::copy_interior({0}_, g__);"
                           "\n      {0}_ = std::move(g__);\n      dirty__{0}_ = true;\n    }}\n",
                           g.name, ir::elem_name(g), g.rank, i);
    }
    e += fmt::format("  if ({0} || {1}_.halo(1) != dh__{1}[1] || {1}_.halo(2) != dh__{1}[2]) "
                     "{{\n    const stencilc::Interleaved grp__ = stencilc::interleave(\"{2}\", {3}, "
                     "part__{1}_.count, dh__{1}, {{{4}}});\n{5}  }}\n",
                     differ, f0.name, f0.member_of, f0.rank, list, moves);
  }
  // The widened block: k * reach beyond every face between blocks.
  const std::string &first = p.grids[grids.front()].name;
  e += fmt::format(
      "  for (int d = 0; d < 3; ++d) {{\n"
      "    const std::int64_t r__ = d < {0} && split__(d) ? k * std::array<std::int64_t, 3>{{{1}, "
      "{2}, {3}}}[d] : 0;\n"
      "    ext_lo__[d] = part__{4}_.physical[d][0] ? 0 : r__;\n"
      "    ext_hi__[d] = part__{4}_.physical[d][1] ? 0 : r__;\n"
      "    eoff__[d] = part__{4}_.offset[d] - ext_lo__[d];\n"
      "    eext__[d] = part__{4}_.count[d] + ext_lo__[d] + ext_hi__[d];\n  }}\n"
      "  deep_k__ = k;\n  shadows__ = false;\n  temporal_describe__();\n",
      std::min(rank, 3), reach[0], rank > 1 ? reach[1] : 0, rank > 2 ? reach[2] : 0, first);
}

} // namespace

std::string temporal_unsupported(const ir::Program &p) {
  const std::vector<int> grids = step_grids(p);
  return grids.empty() ? "the run block calls no kernel" : why_not(p, grids);
}

TemporalCode temporal_code(const ir::Program &p, const lower::Lowered &l, bool mpi, bool aosoa) {
  TemporalCode tc;
  const std::vector<int> grids = step_grids(p);
  tc.why_not = grids.empty() ? "the run block calls no kernel" : why_not(p, grids);
  if (!tc.why_not.empty())
    return tc;
  std::map<int, int> index; // program grid -> engine grid
  for (std::size_t i = 0; i < grids.size(); ++i)
    index[grids[i]] = static_cast<int>(i);
  const int rank = p.grids[grids.front()].rank;

  std::string &d = tc.describe;
  d += "  step__ = stencilc::cpu::Step();\n";
  d += fmt::format("  step__.rank = {};\n", rank);
  if (mpi)
    tc.row_fns += "// What the row functions get: the params and the widened block's global offset.\n"
                  "struct RowContext__ {\n  const Params *params;\n  std::int64_t off[3];\n};\n\n";
  for (int g : grids) {
    const auto &grid = p.grids[g];
    std::string faces;
    const auto engine = engine_faces(grid);
    for (int dim = 0; dim < 3; ++dim)
      faces += fmt::format("{}{{F::{}, F::{}}}", dim ? ", " : "", face_name(engine[dim][0]),
                           face_name(engine[dim][1]));
    const bool xd = grid.halo[0] > 0 && (grid.faces[0].kind == ir::BoundaryKind::Dirichlet ||
                                         grid.faces[1].kind == ir::BoundaryKind::Dirichlet);
    d += fmt::format("  step__.grids.push_back({{\"{}\", sizeof({}), {{{{{}}}}}, {}, {}}});\n",
                     grid.name, ir::elem_name(grid), faces, xd ? "xghost__" + grid.name : "nullptr",
                     cxx_string(faces_key(p, grid)));
    if (mpi) // a face between blocks: its ghost cells lie beyond the widened block, whose
             // edge cells the block's own results do not depend on (docs/MPI.md)
      d += fmt::format("  for (int d = 0; d < {}; ++d)\n    for (int side = 0; side < 2; ++side)\n"
                       "      if (!part__{}_.physical[d][side])\n"
                       "        step__.grids.back().faces[d][side] = F::Neumann;\n",
                       std::min(grid.rank, 3), grid.name);
    if (xd)
      tc.row_fns += x_dirichlet_function(p, grid, mpi);
  }
  std::set<int> kernels_done;
  const std::set<int> &state = l.schedule.state;
  // The margins the engine computes each call over: the lowering's schedule.
  auto dims3 = [&](const ir::Offsets &o) {
    return fmt::format("{}, {}, {}", o[0], rank > 1 ? o[1] : 0, rank > 2 ? o[2] : 0);
  };
  d += fmt::format("  step__.reach = {{{}}};\n", dims3(l.schedule.step_reach));
  std::size_t call_index = 0;
  for (const auto &r : p.run) {
    switch (r.kind) {
    case ir::RunStmt::Kind::Call: {
      const auto &k = p.kernels[r.a];
      const bool xreg = why_no_x_shifts(p, k).empty();
      if (!kernels_done.count(r.a))
        tc.row_fns +=
            row_function(p, k, mpi, false) + row_function(p, k, mpi, true) +
            (xreg ? x_shift_row_function(p, k, mpi) + x_shift_row_function(p, k, mpi, true) : "");
      kernels_done.insert(r.a);
      d += fmt::format("  {{\n    Call c;\n    c.name = \"{0}\";\n    c.fn = row__{0};\n"
                       "    c.fn_wide = row__{0}__wide;\n{1}",
                       k.name,
                       xreg ? fmt::format("    c.fn_xreg = row__{0}__xreg;\n"
                                          "    c.fn_xreg_wide = row__{0}__xreg_wide;\n",
                                          k.name)
                            : "");
      std::string writes;
      for (int w : ir::grids_written(k.body)) {
        writes += fmt::format("{}{}", writes.empty() ? "" : ", ", index.at(w));
      }
      d += fmt::format("    c.writes = {{{}}};\n    c.margin = {{{}}};\n", writes,
                       dims3(l.schedule.margin.at(call_index++)));
      const auto slots = row_slots(k);
      std::vector<RowSlot> ordered(slots.size());
      for (const auto &[s, i] : slots)
        ordered[i] = s;
      std::string reads;
      for (const auto &s : ordered)
        reads += fmt::format("{}{{{}, {}, {}}}", reads.empty() ? "" : ", ",
                             index.at(std::get<0>(s)), std::get<1>(s), std::get<2>(s));
      d += fmt::format("    c.reads = {{{}}};\n", reads);
      if (ir::colour_of(k.domain) >= 0)
        d += "    c.colour = true;\n";
      // Reading what it writes: the output rows start as copies of the old ones.
      if (reads_old_row(k))
        d += "    c.in_place = true;\n";
      const std::string &dom = p.grids[k.domain_grid].name;
      for (int dim = 0; dim < std::min(rank, 3); ++dim) {
        if (k.domain.kind == ir::Domain::Kind::Range && mpi) // global, clipped to the widened block
          d += fmt::format("    c.lo[{0}] = std::clamp<std::int64_t>(({1}) - eoff__[{0}], 0, "
                           "eext__[{0}]);\n    c.hi[{0}] = std::clamp<std::int64_t>(({2}) - "
                           "eoff__[{0}], 0, eext__[{0}]);\n",
                           dim, setup_expr(p, k.domain.lo[dim]), setup_expr(p, k.domain.hi[dim]));
        else if (k.domain.kind == ir::Domain::Kind::Range)
          d += fmt::format("    c.lo[{0}] = {1};\n    c.hi[{0}] = {2};\n", dim,
                           setup_expr(p, k.domain.lo[dim]), setup_expr(p, k.domain.hi[dim]));
        else if (mpi)
          d += fmt::format("    c.hi[{0}] = eext__[{0}];\n", dim);
        else
          d += fmt::format("    c.hi[{0}] = {1}_.extent({0});\n", dim, dom);
      }
      d += "    step__.calls.push_back(c);\n  }\n";
      break;
    }
    case ir::RunStmt::Kind::Swap:
      d += fmt::format("  {{\n    Call c;\n    c.kind = Call::Kind::Swap;\n    c.a = {};\n    c.b = "
                       "{};\n    step__.calls.push_back(c);\n  }}\n",
                       index.at(r.a), index.at(r.b));
      break;
    case ir::RunStmt::Kind::Reduce:
      tc.reductions = true;
      break;
    }
  }

  // Views of the current storage, and the shadows the results go to.
  auto halo3 = [&](const ir::Grid &g) {
    return fmt::format("{}, {}, {}", g.halo[0], g.rank > 1 ? g.halo[1] : 0, g.rank > 2 ? g.halo[2] : 0);
  };
  // mpi: the block widened by ext_lo__/ext_hi__ into its (deep) halo, the program's ghost
  // layers around that.
  auto view = [&](const ir::Grid &g, const std::string &storage) {
    return mpi ? fmt::format("stencilc::cpu::widened_view({}, ext_lo__, ext_hi__, {{{}}})", storage,
                             halo3(g))
               : fmt::format("stencilc::cpu::view_of({})", storage);
  };
  for (int g : grids)
    tc.views += fmt::format("  v.push_back({});\n", view(p.grids[g], p.grids[g].name + "_"));
  std::string &b = tc.block;
  if (mpi) {
    // Only grids whose values from before the block it reads are exchanged (k-fold fewer
    // messages than naive, not more); the others get their physical faces, which the engine
    // copies Dirichlet ghost rows from.
    const std::set<int> needed = read_before_block(p);
    // (A Dirichlet-only grid's faces, once filled, stay right; its halo is what is stale then.)
    for (int g : grids)
      b += needed.count(g) ? exchange_if_stale(p.grids[g])
           : p.grids[g].time_dependent_ghosts()
               ? fmt::format("  if (dirty__{0}_)\n    fill_faces__{0}({0}_);\n", p.grids[g].name)
               : fmt::format("  if (dirty__{0}_) {{\n    fill_faces__{0}({0}_);\n    dirty__{0}_ = "
                             "false;\n    halo__{0}_ = true;\n  }}\n",
                             p.grids[g].name);
  } else {
    for (int g : grids)
      b += fill_if_stale(p.grids[g]);
  }
  std::string &a = tc.alloc;
  a += "  if (shadows__)\n    return;\n";
  // layout=aosoa: the shadows of a struct's members interleaved as the members are (a shadow
  // takes its grid's place at every swap).
  std::map<int, std::string> group_arg;
  for (const auto &members : aosoa ? ir::struct_groups(p) : std::vector<std::vector<int>>{}) {
    std::vector<int> in;
    for (int g : members)
      if (state.count(g))
        in.push_back(g);
    if (in.empty())
      continue;
    const std::string &n = p.grids[in.front()].name;
    std::string list;
    for (std::size_t i = 0; i < in.size(); ++i) {
      list += fmt::format("{}{{sizeof({}), {}_.halo(0)}}", i ? ", " : "",
                          ir::elem_name(p.grids[in[i]]), p.grids[in[i]].name);
      group_arg[in[i]] = fmt::format(", sgrp__{}, {}", p.grids[in.front()].member_of, i);
    }
    a += fmt::format("  const stencilc::Interleaved sgrp__{0} = stencilc::interleave(\"{0} (the "
                     "temporal plan's results)\", {1}_.rank(), stencilc::Extents{{{1}_.extent(0), "
                     "{1}_.extent(1), {1}_.extent(2), {1}_.extent(3)}}, stencilc::Halos{{0, "
                     "{1}_.halo(1), {1}_.halo(2), {1}_.halo(3)}}, {{{2}}});\n",
                     p.grids[in.front()].member_of, n, list);
  }
  for (int g : state) {
    const auto &grid = p.grids[g];
    const auto ga = group_arg.find(g);
    a += fmt::format(
        "  shadow__{0}_ = stencilc::Grid<{1}>(\"{0}\", {2}, stencilc::Extents{{{0}_.extent(0), "
        "{0}_.extent(1), {0}_.extent(2), {0}_.extent(3)}}, stencilc::Halos{{{0}_.halo(0), "
        "{0}_.halo(1), {0}_.halo(2), {0}_.halo(3)}}{3});\n",
        grid.name, ir::elem_name(grid), grid.rank, ga == group_arg.end() ? "" : ga->second);
    // Ghost cells stay with a storage: a shadow gets its grid's once, then keeps them unless
    // they follow the interior (Neumann, periodic). (mpi: its physical faces; the cells in
    // the neighbours' halos are stale after every block.)
    a += fmt::format(mpi ? "  fill_faces__{0}(shadow__{0}_);\n" : "  fill__{0}(shadow__{0}_);\n",
                     grid.name);
    tc.shadows += fmt::format("  stencilc::Grid<{}> shadow__{}_; // the temporal plan's results\n",
                              ir::elem_name(grid), grid.name);
  }
  if (mpi)
    tc.shadows += "  // The engine's block: this rank's, widened by ext_lo__/ext_hi__ cells into halos\n"
                  "  // deep_k__ steps deep; eoff__ is its global offset, eext__ its extent.\n"
                  "  std::array<std::int64_t, 3> ext_lo__{}, ext_hi__{}, eoff__{}, eext__{};\n"
                  "  int deep_k__ = -1;\n";
  a += "  shadows__ = true;\n";
  b += "  temporal_alloc__();\n  std::vector<stencilc::cpu::View> s;\n";
  for (int g : grids)
    b += state.count(g) ? fmt::format("  s.push_back({});\n",
                                      view(p.grids[g], "shadow__" + p.grids[g].name + "_"))
                        : "  s.emplace_back();\n";
  tc.options = "  stencilc::cpu::Options o;\n  o.k = static_cast<int>(k);\n"
               "  o.tile = blocked__()->rows;\n  o.chunk = blocked__()->chunk;\n"
               "  o.all_results = last;\n  o.wide = blocked__()->vec == 512;\n"
               "  o.xreg = blocked__()->xreg;\n  o.carry = blocked__()->carry;\n  return o;\n";
  b += "  const stencilc::cpu::Options o = temporal_options__(k, last);\n";
  if (mpi)
    b += "  const RowContext__ ctx__{&params_, {eoff__[0], eoff__[1], eoff__[2]}};\n"
         "  stencilc::cpu::run_block(step__, o, temporal_views__(), s, &ctx__, workspace__);\n";
  else
    b += "  stencilc::cpu::run_block(step__, o, temporal_views__(), s, &params_, workspace__);\n";
  // (Swapped grids have equal boundaries: a result carries the ghost cells its grid needs.
  // mpi: the neighbours' cells in a result's halo are stale; its physical faces are not, the
  // engine writing the interior alone, and x-ghost cells with the values they hold.)
  for (int g : state)
    b += fmt::format("  {0}_.swap_storage(shadow__{0}_);\n{1}", p.grids[g].name,
                     p.grids[g].time_dependent_ghosts() ? mark_stale(p.grids[g])
                     : mpi ? fmt::format("  halo__{}_ = true;\n", p.grids[g].name)
                           : "");
  if (mpi)
    mpi_code(p, l, grids, aosoa, tc);
  return tc;
}

} // namespace stc
