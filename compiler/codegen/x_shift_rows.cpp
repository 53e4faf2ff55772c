// The xshift=reg row functions (x_shift_rows.h). Each row's vector loop keeps, per row read at
// x offsets, the vectors at x - W (p), x (c) and x + W (n); a read at x + dx is lanes of p:c
// (dx < 0) or c:n (dx > 0) put together by one shuffle (STENCILC_SHUFFLE, engine.h), so the
// row is loaded once per W cells. The cells the vector loop leaves at the end of the row go
// through the naive loop (row_x_loop), which computes them with the same statements.
#include "codegen/x_shift_rows.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "analysis/x_shifts.h"
#include "codegen/c_like.h"
#include "codegen/codegen.h"
#include "codegen/temporal_rows.h"

namespace stc {
namespace {

// Name of the vector a read at x offset dx of slot i is: G__vI, G__vImD, G__vIpD.
std::string lane_name(const ir::Program &p, int grid, int slot, int dx) {
  const std::string &g = p.grids[grid].name;
  if (dx == 0)
    return fmt::format("{}__v{}", g, slot);
  return fmt::format("{}__v{}{}{}", g, slot, dx < 0 ? 'm' : 'p', std::abs(dx));
}

class VectorEmitter : public BodyEmitter {
public:
  VectorEmitter(const ir::Program &p, const ir::Kernel &k, const std::map<RowSlot, int> &slots,
                const std::vector<std::string> &indices)
      : BodyEmitter(p, indices, &k.locals), k_(k), slots_(slots),
        written_(ir::grids_written(k.body)) {}

  // Assignments and lets only (why_no_x_shifts), every value a vector of V__.
  std::string vector_statements() const {
    std::string s;
    for (const auto &st : k_.body) {
      s += stmt_line_directive(prog_, st);
      if (st.kind == ir::Stmt::Kind::Assign) {
        s += store(prog_.grids[st.grid], indices_[0], expr(st.value));
        continue;
      }
      const ir::Local &l = k_.locals[st.local];
      s += st.reassign ? fmt::format("{} = {};\n", l.name, expr(st.value))
                       : fmt::format("[[maybe_unused]] {}V__ {} = {};\n", l.mut ? "" : "const ",
                                     l.name, expr(st.value));
    }
    return s + generated_line_directive(prog_, prog_.name + ".cpp");
  }

protected:
  std::string grid_read(const ir::Expr &e) const override {
    if (written_.count(e.id)) // the cell's new value, stored before (why_no_x_shifts)
      return prog_.grids[e.id].name + "__w";
    const int slot =
        slots_.at(RowSlot{e.id, k_.rank > 1 ? e.offset[1] : 0, k_.rank > 2 ? e.offset[2] : 0});
    return lane_name(prog_, e.id, slot, e.offset[0]);
  }
  std::string store(const ir::Grid &g, const std::string &x,
                    const std::string &value) const override {
    return fmt::format(
        "const V__ {0}__w = {2};\n*reinterpret_cast<VU__ *>({0}__r + {1}) = {0}__w;\n", g.name, x,
        value);
  }

private:
  const ir::Kernel &k_;
  const std::map<RowSlot, int> &slots_;
  std::set<int> written_;
};

// A list of lane indices for STENCILC_SHUFFLE: lane i of the result is `first + i`, or for the
// first vector of a row (`first` < 0) lane i >= W + first is lane i - (W + first) of a load
// at x + first, lanes below it anything (0).
std::string lanes(int w, int first) {
  std::string s;
  for (int i = 0; i < w; ++i) {
    const int from = first >= 0 ? first + i : std::max(0, i - (w + first));
    s += fmt::format("{}{}", i ? ", " : "", from);
  }
  return s;
}

} // namespace

std::string x_shift_row_function(const ir::Program &p, const ir::Kernel &k, bool mpi, bool wide) {
  const ir::Type t = x_shift_type(p, k);
  const char *elem = t == ir::Type::Float ? "float" : "double";
  const int bytes = wide ? 2 * kXShiftVectorBytes : kXShiftVectorBytes;
  const int w = bytes / (t == ir::Type::Float ? 4 : 8);
  const auto slots = row_slots(k);
  // Per slot, the x offsets it is read at.
  std::map<int, std::set<int>> dxs;
  std::map<int, int> grid_of;
  const std::set<int> written = ir::grids_written(k.body);
  ir::walk(k.body, [&](const ir::Expr &e) {
    if (e.op != ir::Op::GridRead || written.count(e.id))
      return;
    const int i =
        slots.at(RowSlot{e.id, k.rank > 1 ? e.offset[1] : 0, k.rank > 2 ? e.offset[2] : 0});
    dxs[i].insert(e.offset[0]);
    grid_of[i] = e.id;
  });
  bool any_next = false;
  for (const auto &[i, d] : dxs)
    any_next |= *d.rbegin() > 0;
  std::string s =
      row_head(p, k, mpi, wide, wide ? "__xreg_wide" : "__xreg",
               wide ? " with x-shifts in registers on 512-bit vectors (vec=512,xshift=reg)"
                    : " with x-shifts in registers (xshift=reg)");
  // typedef, not using: Clang 14 drops `aligned` from an alias declaration, and its loads then
  // assume whole vectors' alignment (vmovapd on a row at x - 1: a crash, seen).
  s += fmt::format("    typedef {0} V__ __attribute__((vector_size({1}), unused));\n"
                   "    typedef {0} VU__ __attribute__((vector_size({1}), aligned(sizeof({0})), "
                   "may_alias, unused));\n"
                   "    typedef {2} M__ __attribute__((vector_size({1}), unused));\n"
                   "    std::int64_t xv__ = lo0__;\n"
                   "    if (hi0__ - lo0__ >= {3}) {{\n",
                   elem, bytes, t == ir::Type::Float ? "std::int32_t" : "std::int64_t", 2 * w);
  auto load = [&](int i, const std::string &at) {
    return fmt::format("*reinterpret_cast<const VU__ *>({}__t{} + {})", p.grids[grid_of[i]].name, i,
                       at);
  };
  auto name = [&](int i, const char *what) {
    return fmt::format("{}__{}{}", p.grids[grid_of[i]].name, what, i);
  };
  // Before the first vector: p with lanes W - L .. W - 1 at x - L .. x - 1, c where n follows.
  for (const auto &[i, d] : dxs) {
    const int lo = *d.begin(), hi = *d.rbegin();
    if (lo < 0)
      s += fmt::format("      V__ {0} = STENCILC_SHUFFLE(M__, {1}, {1}, {2});\n", name(i, "p"),
                       load(i, fmt::format("xv__ - {}", -lo)), lanes(w, lo));
    if (hi > 0)
      s += fmt::format("      V__ {} = {};\n", name(i, "c"), load(i, "xv__"));
  }
  // A load at x + W reads up to x + 2W - 1: at most hi0__, the first ghost past the domain,
  // which the naive loop reads too (at x + dx, dx >= 1).
  s += fmt::format("      for (; xv__ + {} <= hi0__{}; xv__ += {}) {{\n", any_next ? 2 * w : w,
                   any_next ? " + 1" : "", w);
  for (const auto &[i, d] : dxs) {
    const int lo = *d.begin(), hi = *d.rbegin();
    if (lo == 0 && hi == 0) {
      s += fmt::format("        const V__ {} = {};\n", lane_name(p, grid_of[i], i, 0),
                       load(i, "xv__"));
      continue;
    }
    if (hi > 0)
      s += fmt::format("        const V__ {} = {};\n", name(i, "n"),
                       load(i, fmt::format("xv__ + {}", w)));
    else
      s += fmt::format("        const V__ {} = {};\n", name(i, "c"), load(i, "xv__"));
    for (int dx : d)
      if (dx == 0)
        s += fmt::format("        const V__ {} = {};\n", lane_name(p, grid_of[i], i, 0),
                         name(i, "c"));
      else
        s += fmt::format("        const V__ {} = STENCILC_SHUFFLE(M__, {}, {}, {});\n",
                         lane_name(p, grid_of[i], i, dx), name(i, dx < 0 ? "p" : "c"),
                         name(i, dx < 0 ? "c" : "n"), lanes(w, dx < 0 ? w + dx : dx));
  }
  std::vector<std::string> indices = k.indices;
  indices[0] = "xv__";
  s += VectorEmitter(p, k, slots, indices).vector_statements();
  for (const auto &[i, d] : dxs) {
    const int lo = *d.begin(), hi = *d.rbegin();
    if (lo < 0)
      s += fmt::format("        {} = {};\n", name(i, "p"), name(i, "c"));
    if (hi > 0)
      s += fmt::format("        {} = {};\n", name(i, "c"), name(i, "n"));
  }
  s += "      }\n    }\n";
  return s + row_x_loop(p, k, mpi, wide, "xv__") + "  }\n}\n\n";
}

} // namespace stc
