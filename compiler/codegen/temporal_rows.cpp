// What every row function of the CPU temporal plan shares (temporal_rows.h): its signature
// and pointers, the rows it reads (slots), and the x loop over one row.
#include "codegen/temporal_rows.h"

#include <algorithm>
#include <functional>
#include <set>

#include <fmt/format.h>

#include "codegen/c_like.h"
#include "codegen/codegen.h"

namespace stc {
namespace {

class RowEmitter : public BodyEmitter {
public:
  RowEmitter(const ir::Program &p, const ir::Kernel &k, const std::map<RowSlot, int> &slots,
             bool global)
      : BodyEmitter(p, k.indices, &k.locals), k_(k), slots_(slots), global_(global) {}

protected:
  // mpi: the engine's coordinates are the widened block's; the program's are global.
  std::string index(const ir::Expr &e) const override {
    return global_ ? fmt::format("({} + off{}__)", indices_[e.id], e.id) : indices_[e.id];
  }
  std::string grid_read(const ir::Expr &e) const override {
    const std::string x = x_index(e);
    if (reads_own_row(k_, e))
      return fmt::format("{}__r[{}]", prog_.grids[e.id].name, x);
    const RowSlot s{e.id, k_.rank > 1 ? e.offset[1] : 0, k_.rank > 2 ? e.offset[2] : 0};
    return fmt::format("{}__t{}[{}]", prog_.grids[e.id].name, slots_.at(s), x);
  }

private:
  const ir::Kernel &k_;
  const std::map<RowSlot, int> &slots_;
  bool global_;
};

} // namespace

// A read of a grid the kernel writes, in the same row: the naive sweep reads it from the row
// it stores to (the value stored earlier in the body, or the old one), and so does the row
// function, from its output row (which then starts as a copy of the old row).
bool reads_own_row(const ir::Kernel &k, const ir::Expr &e) {
  return ir::grids_written(k.body).count(e.id) && (k.rank < 2 || e.offset[1] == 0) &&
         (k.rank < 3 || e.offset[2] == 0);
}

std::set<int> walk_reads(const ir::Kernel &k,
                         const std::function<void(const ir::Expr &, const std::set<int> &)> &read) {
  std::function<void(const std::vector<ir::Stmt> &, std::set<int> &)> visit =
      [&](const std::vector<ir::Stmt> &body, std::set<int> &stored) {
        for (const auto &st : body) {
          ir::walk(st.value, [&](const ir::Expr &e) {
            if (e.op == ir::Op::GridRead)
              read(e, stored);
          });
          if (st.kind == ir::Stmt::Kind::Assign) {
            stored.insert(st.grid);
          } else if (st.kind == ir::Stmt::Kind::If) {
            std::set<int> a = stored, b = stored, both;
            visit(st.then_body, a);
            visit(st.else_body, b);
            for (int g : a)
              if (b.count(g))
                both.insert(g);
            stored = both;
          }
        }
      };
  std::set<int> stored;
  visit(k.body, stored);
  return stored;
}

bool reads_old_row(const ir::Kernel &k) {
  bool old = false;
  walk_reads(k, [&](const ir::Expr &e, const std::set<int> &stored) {
    old |= reads_own_row(k, e) && (e.offset[0] != 0 || !stored.count(e.id));
  });
  return old;
}

std::map<RowSlot, int> row_slots(const ir::Kernel &k) {
  std::map<RowSlot, int> slots;
  ir::walk(k.body, [&](const ir::Expr &e) {
    if (e.op != ir::Op::GridRead || reads_own_row(k, e))
      return;
    const RowSlot s{e.id, k.rank > 1 ? e.offset[1] : 0, k.rank > 2 ? e.offset[2] : 0};
    if (!slots.count(s)) {
      const int n = static_cast<int>(slots.size());
      slots[s] = n;
    }
  });
  return slots;
}

// mpi: what the row and ghost functions get as ctx (RowContext__ of the generated code).
std::string row_context(bool mpi, const char *params) {
  if (!mpi)
    return fmt::format(
        "  [[maybe_unused]] const Params &{} = *static_cast<const Params *>(ctx__);\n", params);
  return fmt::format("  const RowContext__ &rc__ = *static_cast<const RowContext__ *>(ctx__);\n"
                     "  [[maybe_unused]] const Params &{} = *rc__.params;\n"
                     "  [[maybe_unused]] const std::int64_t off0__ = rc__.off[0], off1__ = "
                     "rc__.off[1], off2__ = rc__.off[2];\n",
                     params);
}

std::string row_head(const ir::Program &p, const ir::Kernel &k, bool mpi, bool wide,
                     const std::string &suffix, const std::string &what) {
  const auto slots = row_slots(k);
  RowEmitter em(p, k, slots, mpi);
  const std::string y = k.indices[1], z = k.rank > 2 ? k.indices[2] : "z__";
  std::string s = fmt::format(
      "// Kernel '{}', a run of x-rows, for the temporal plan{}.\n"
      "{}void row__{}{}(void *const *out__, const std::int64_t *out_step__, const void *const "
      "*in__, "
      "const std::int64_t *in_step__, [[maybe_unused]] std::int64_t lo0__, std::int64_t hi0__, "
      "std::int64_t y0__, std::int64_t rows__, [[maybe_unused]] std::int64_t {}, "
      "const void *ctx__) {{\n{}",
      k.name, what, wide ? "STENCILC_WIDE_VECTORS " : "", k.name, suffix, z,
      row_context(mpi, "params_"));
  s += param_copies(p, params_of(k.body));
  // Row r of a slot is r row steps (bytes) past its first row.
  for (const auto &[slot, i] : slots)
    s += fmt::format("  const char *const in{0}__ = static_cast<const char *>(in__[{0}]);\n"
                     "  const std::int64_t in{0}s__ = in_step__[{0}];\n",
                     i);
  const auto written = ir::grids_written(k.body);
  for (std::size_t o = 0; o < written.size(); ++o)
    s += fmt::format("  char *const out{0}__ = static_cast<char *>(out__[{0}]);\n"
                     "  const std::int64_t out{0}s__ = out_step__[{0}];\n",
                     o);
  s += fmt::format("  for (std::int64_t {0} = y0__; {0} < y0__ + rows__; ++{0}) {{\n"
                   "    const std::int64_t r__ = {0} - y0__;\n",
                   y);
  for (const auto &[slot, i] : slots) {
    const auto &g = p.grids[std::get<0>(slot)];
    s +=
        fmt::format("    const {0} *__restrict {1}__t{2} = reinterpret_cast<const {0} *>(in{2}__ + "
                    "r__ * in{2}s__);\n",
                    ir::elem_name(g), g.name, i);
  }
  int o = 0;
  for (int w : written) {
    s += fmt::format(
        "    {0} *__restrict {1}__r = reinterpret_cast<{0} *>(out{2}__ + r__ * out{2}s__);\n",
        ir::elem_name(p.grids[w]), p.grids[w].name, o);
    ++o;
  }
  return s;
}

std::string row_x_loop(const ir::Program &p, const ir::Kernel &k, bool mpi, bool wide,
                       const std::string &from) {
  const auto slots = row_slots(k);
  RowEmitter em(p, k, slots, mpi);
  // The naive sweep's x loop, colours with the same parity of global coordinates.
  std::string xloop = x_loop(k.domain, k.indices, k.rank);
  if (mpi) {
    std::vector<std::string> global = k.indices;
    for (int d = 1; d < k.rank; ++d)
      global[d] = fmt::format("({} + off{}__)", k.indices[d], d);
    xloop = x_loop(k.domain, global, k.rank, "off0__");
  }
  if (!from.empty()) // the rest of a row another loop began (a domain without colours)
    xloop = fmt::format("for (std::int64_t {0} = {1}; {0} < hi0__; ++{0})", k.indices[0], from);
  // 256-bit vectors (simdlen: lanes of the widest element), or 512-bit ones (wide): on AVX-512
  // machines that run 512-bit operations as two halves (Zen 4), a 512-bit load at x +- 1
  // straddles two cache lines every time, and the temporal plan's rows are read from cache,
  // where that is what limits them (measured there: heat3d fp32 510^3, k=10, 256 bits 7%
  // faster); a core with two 512-bit units (this Intel VM) computes 5-9% faster on 512. So the
  // plan chooses (vec), by calibrate's measurement of both.
  std::size_t widest = 1;
  for (const auto &[slot, i] : slots)
    widest = std::max(widest, ir::elem_bytes(p.grids[std::get<0>(slot)]));
  for (int w : ir::grids_written(k.body))
    widest = std::max(widest, ir::elem_bytes(p.grids[w]));
  const std::size_t lanes = (wide ? 64 : 32) / widest;
  const std::string simd = fmt::format("#pragma omp simd simdlen({})\n", lanes),
                    body = em.kernel_statements(k);
  if (!from.empty() || ir::colour_of(k.domain) >= 0 || reads_old_row(k))
    return simd + xloop + " {\n" + body + "}\n";
  // Whole vectors, then the row's last `lanes` cells again as one vector instead of a scalar
  // remainder (up to lanes - 1 cells one by one: 6 of every 510-cell fp32 row, 15% of the row
  // function's time on 126-cell rows). The kernel reads no old value of a row it writes (a read
  // of its own row sees what this cell stored), so a cell computed twice gets the same bits
  // from the same inputs. Rows shorter than a vector: the plain loop.
  const std::string &x = k.indices[0];
  return fmt::format("if (hi0__ - lo0__ >= {0}) {{\n"
                     "  const std::int64_t end__ = hi0__ - (hi0__ - lo0__) % {0};\n"
                     "{1}  for (std::int64_t {2} = lo0__; {2} < end__; ++{2}) {{\n{3}}}\n"
                     "  if (end__ < hi0__) {{\n"
                     "{1}    for (std::int64_t j__ = 0; j__ < {0}; ++j__) {{\n"
                     "      const std::int64_t {2} = hi0__ - {0} + j__;\n{3}}}\n"
                     "  }}\n"
                     "}} else {{\n{1}{4} {{\n{3}}}\n}}\n",
                     lanes, simd, x, body, xloop);
}

} // namespace stc
