// The openmp target, naive plan: one parallel sweep per kernel call, OpenMP threads over the
// outer dimensions, `omp simd` over x. Rows are reached through per-row pointers so that
// every read is a constant offset from a row pointer, which is what the vectoriser wants.
#include <cstdlib>
#include <set>

#include <fmt/format.h>
#include <kainjow/mustache.hpp>

#include "codegen/c_emitter.h"
#include "codegen/codegen.h"

namespace stc {
namespace {

namespace mus = kainjow::mustache;

// Inside a kernel: params are local constants, indices the loop variables, grid reads
// offsets from the grid's row pointer.
class KernelEmitter : public CEmitter {
public:
  KernelEmitter(const ir::Program &p, const ir::Kernel &k) : CEmitter(p), k_(k) {}

protected:
  std::string index(const ir::Expr &e) const override { return k_.indices[e.id]; }
  std::string grid_read(const ir::Expr &e) const override {
    const std::string &g = prog_.grids[e.id].name;
    std::string s = k_.indices[0];
    if (e.offset[0] > 0)
      s += fmt::format(" + {}", e.offset[0]);
    else if (e.offset[0] < 0)
      s += fmt::format(" - {}", -e.offset[0]);
    for (int d = 1; d < k_.rank; ++d) {
      const int o = e.offset[d];
      if (o == 0)
        continue;
      const std::string stride = fmt::format("{}__s{}", g, d);
      s += o > 0 ? " + " : " - ";
      s += std::abs(o) == 1 ? stride : fmt::format("{} * {}", std::abs(o), stride);
    }
    return fmt::format("{}__r[{}]", g, s);
  }

private:
  const ir::Kernel &k_;
};

// Outside kernels (param defaults, extents, boundary values): params are fields of `p`.
class SetupEmitter : public CEmitter {
public:
  using CEmitter::CEmitter;

protected:
  std::string param(const ir::Expr &e) const override {
    return "p." + prog_.params[e.id].name;
  }
  // Sizes come from --set at run time: a zero divisor must be an error, not a crash.
  std::string int_div(const std::string &a, const std::string &b) const override {
    return fmt::format("stencilc::checked_div({}, {})", a, b);
  }
};

std::string kernel_definition(const ir::Program &p, const ir::Kernel &k) {
  KernelEmitter em(p, k);
  std::set<int> params, read, written;
  for (const auto &a : k.body) {
    written.insert(a.grid);
    ir::walk(a.value, [&](const ir::Expr &e) {
      if (e.op == ir::Op::Param)
        params.insert(e.id);
      if (e.op == ir::Op::GridRead)
        read.insert(e.id);
    });
  }
  std::set<int> used = read;
  used.insert(written.begin(), written.end());

  std::string s = fmt::format("void Stencil::kernel__{}() {{\n", k.name);
  // Local copies: the compiler then knows stores to grids cannot change them.
  for (int i : params)
    s += fmt::format("  const {} {} = params_.{};\n", ir::cxx_type_name(p.params[i].type),
                     p.params[i].name, p.params[i].name);
  const std::string &dom = p.grids[k.domain_grid].name;
  for (int d = 0; d < k.rank; ++d)
    s += fmt::format("  const std::int64_t n{}__ = {}_.extent({});\n", d, dom, d);
  for (int g : used) {
    const auto &grid = p.grids[g];
    const bool w = written.count(g) > 0;
    s += fmt::format("  {}{} *const {}__o = {}_.origin();\n", w ? "" : "const ",
                     ir::cxx_elem_name(grid.type), grid.name, grid.name);
    for (int d = 1; d < k.rank; ++d)
      s += fmt::format("  [[maybe_unused]] const std::int64_t {}__s{} = {}_.stride({});\n",
                       grid.name, d, grid.name, d);
  }
  // Loop nest: threads over the outer dimensions, simd over x.
  const auto &idx = k.indices;
  auto loop = [&](int d) {
    return fmt::format("for (std::int64_t {} = 0; {} < n{}__; ++{})", idx[d], idx[d], d, idx[d]);
  };
  auto row_pointers = [&]() {
    std::string r;
    for (int g : used) {
      const auto &grid = p.grids[g];
      const bool w = written.count(g) > 0;
      std::string off = fmt::format("{}__o", grid.name);
      for (int d = 1; d < k.rank; ++d)
        off += fmt::format(" + {} * {}__s{}", idx[d], grid.name, d);
      const char *t = ir::cxx_elem_name(grid.type);
      if (w)
        r += fmt::format("{} *__restrict {}__r = {};\n", t, grid.name, off);
      else
        r += fmt::format("const {} *__restrict {}__r = {};\n", t, grid.name, off);
    }
    return r;
  };
  // Test hook: a deliberately wrong backend, to show that `verify` catches one.
  const char *corrupt = std::getenv("STENCILC_TEST_CORRUPT_CODEGEN");
  const bool wrong = corrupt && *corrupt == '1';
  std::string body;
  for (const auto &a : k.body)
    body += fmt::format("{}__r[{}] = {}{};\n", p.grids[a.grid].name, idx[0], em.expr(a.value),
                        wrong ? " + 1" : "");

  const std::string inner = "#pragma omp simd\n" + loop(0) + " {\n" + body + "}\n";
  switch (k.rank) {
  case 1:
    s += row_pointers() + "#pragma omp parallel for simd schedule(static)\n" + loop(0) + " {\n" +
         body + "}\n";
    break;
  case 2:
    s += "#pragma omp parallel for schedule(static)\n" + loop(1) + " {\n" + row_pointers() +
         inner + "}\n";
    break;
  case 3:
    s += "#pragma omp parallel for collapse(2) schedule(static)\n" + loop(2) + "\n" + loop(1) +
         " {\n" + row_pointers() + inner + "}\n";
    break;
  default:
    s += "#pragma omp parallel for collapse(2) schedule(static)\n" + loop(3) + "\n" + loop(2) +
         "\n" + loop(1) + " {\n" + row_pointers() + inner + "}\n";
    break;
  }
  return s + "}\n";
}

// Run-time checks of sizes, mirroring the interpreter's (same messages).
std::string size_checks(const ir::Program &p) {
  std::string s;
  for (const auto &k : p.kernels) {
    std::set<int> used;
    for (const auto &a : k.body) {
      used.insert(a.grid);
      ir::walk(a.value, [&](const ir::Expr &e) {
        if (e.op == ir::Op::GridRead)
          used.insert(e.id);
      });
    }
    const std::string &dom = p.grids[k.domain_grid].name;
    for (int g : used) {
      const auto &grid = p.grids[g];
      if (g != k.domain_grid) {
        std::string cond;
        for (int d = 0; d < k.rank; ++d)
          cond += fmt::format("{}{}_.extent({}) != {}_.extent({})", d ? " || " : "", grid.name, d,
                              dom, d);
        s += fmt::format("  if ({})\n    throw stencilc::Error({});\n", cond,
                         cxx_string(fmt::format("kernel '{}': grid '{}' and grid '{}' have "
                                                "different shapes",
                                                k.name, grid.name, dom)));
      }
      for (int d = 0; d < k.rank; ++d) {
        const int width = 2 * grid.halo[d] + 1;
        if (width <= 1)
          continue;
        s += fmt::format("  if ({}_.extent({}) < {})\n    throw stencilc::Error({} + "
                         "std::to_string({}_.extent({})) + {});\n",
                         grid.name, d, width,
                         cxx_string(fmt::format("grid '{}': extent ", grid.name)), grid.name, d,
                         cxx_string(fmt::format(" in dimension {} is smaller than the stencil "
                                                "width {}",
                                                d + 1, width)));
      }
    }
  }
  return s;
}

} // namespace

std::vector<GeneratedFile> emit_openmp(const ir::Program &p, const Analysis &,
                                       const EmitOptions &opts) {
  SetupEmitter setup(p);
  const std::string ns = p.name;
  mus::data d;
  d.set("version", std::string(version()));
  d.set("source", p.source_path);
  d.set("name", p.name);
  d.set("ns", ns);
  d.set("target", std::string("openmp"));
  d.set("plan", opts.plan);
  d.set("header_file", p.name + ".h");
  d.set("source_file", p.name + ".cpp");
  d.set("main_file", p.name + "_main.cpp");

  mus::data params{mus::data::type::list};
  std::string param_list;
  for (const auto &q : p.params) {
    mus::data x;
    x.set("name", q.name);
    x.set("ctype", std::string(ir::cxx_type_name(q.type)));
    x.set("from_set", q.type == ir::Type::Int
                          ? fmt::format("set.get_int(\"{}\")", q.name)
                          : fmt::format("static_cast<{}>(set.get_double(\"{}\"))",
                                        ir::cxx_type_name(q.type), q.name));
    x.set("default", q.init ? "(" + setup.expr(q.init) + ")"
                            : fmt::format("missing_param<{}>(\"{}\")",
                                          ir::cxx_type_name(q.type), q.name));
    params.push_back(x);
    param_list += (param_list.empty() ? "" : ", ") + cxx_string(q.name);
  }
  d.set("params", params);
  d.set("param_list", param_list);

  mus::data grids{mus::data::type::list};
  std::string names, list;
  int gi = 0;
  for (const auto &g : p.grids) {
    mus::data x;
    x.set("name", g.name);
    x.set("elem", std::string(ir::cxx_elem_name(g.type)));
    x.set("rank", std::to_string(g.rank));
    x.set("index", std::to_string(gi++));
    std::string ext, halo;
    for (int k = 0; k < ir::kMaxRank; ++k) {
      ext += (k ? ", " : "") + (k < g.rank ? setup.expr(g.extents[k]) : std::string("1"));
      halo += fmt::format("{}{}", k ? ", " : "", g.halo[k]);
    }
    x.set("extents", ext);
    x.set("halos", halo);
    x.set("boundary", setup.expr(g.boundary.value));
    grids.push_back(x);
    names += (names.empty() ? "" : ", ") + cxx_string(g.name);
    list += (list.empty() ? "" : ", ") + g.name;
  }
  d.set("grids", grids);
  d.set("grid_names", names);
  d.set("grid_list", list);

  mus::data kernels{mus::data::type::list};
  std::string defs;
  for (const auto &k : p.kernels) {
    mus::data x;
    x.set("name", k.name);
    kernels.push_back(x);
    defs += kernel_definition(p, k) + "\n";
  }
  d.set("kernels", kernels);
  d.set("kernel_defs", defs);
  d.set("checks", size_checks(p));
  d.set("default_steps", p.steps ? setup.expr(p.steps)
                                 : fmt::format("{} /* run steps: --steps, default {} */",
                                               ir::kDefaultSteps, ir::kDefaultSteps));

  std::string step, updates;
  for (const auto &r : p.run) {
    if (r.kind == ir::RunStmt::Kind::Call) {
      const auto &k = p.kernels[r.a];
      step += fmt::format("  kernel__{}();\n", k.name);
      updates += fmt::format("{}static_cast<double>({}_.interior_size())",
                             updates.empty() ? "" : " + ", p.grids[k.domain_grid].name);
    } else {
      const auto &a = p.grids[r.a], &b = p.grids[r.b];
      step += fmt::format("  {}_.swap_storage({}_);\n", a.name, b.name);
      // Ghost cells travel with the storage; refill them only if the boundaries differ.
      const std::string ba = setup.expr(a.boundary.value), bb = setup.expr(b.boundary.value);
      if (ba != bb)
        step += fmt::format("  {{\n    [[maybe_unused]] const Params &p = params_;\n"
                            "    {}_.fill_halo({});\n    {}_.fill_halo({});\n  }}\n",
                            a.name, ba, b.name, bb);
    }
  }
  d.set("step_body", step);
  d.set("cell_updates", updates.empty() ? "0.0" : updates);

  auto render = [&](const std::string &tpl, const std::string &file) {
    mus::mustache m(template_text(tpl));
    std::string out = m.render(d);
    if (!m.is_valid())
      internal_error("template " + tpl + ": " + m.error_message());
    return GeneratedFile{file, opts.format ? format_cxx(out, file) : out};
  };
  return {render("cpu/program.h.mustache", p.name + ".h"),
          render("cpu/program.cpp.mustache", p.name + ".cpp"),
          render("cpu/main.cpp.mustache", p.name + "_main.cpp")};
}

} // namespace stc
