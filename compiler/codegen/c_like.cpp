#include "codegen/c_like.h"

#include <algorithm>

#include <fmt/format.h>

#include "codegen/codegen.h"

namespace stc {

std::string BodyEmitter::statements(const std::vector<ir::Stmt> &body) const {
  const ir::Program &p = prog_;
  const std::string &x = indices_[0];
  std::string s;
  for (const auto &st : body) {
    s += stmt_line_directive(p, st);
    switch (st.kind) {
    case ir::Stmt::Kind::Assign:
      s += store(p.grids[st.grid], x, expr(st.value));
      break;
    case ir::Stmt::Kind::Let: {
      const ir::Local &l = (*locals_)[st.local];
      if (st.reassign)
        s += fmt::format("{} = {};\n", l.name, expr(st.value));
      else
        s += fmt::format("[[maybe_unused]] {}{} {} = {};\n", l.mut ? "" : "const ",
                         ir::cxx_type_name(l.type), l.name, expr(st.value));
      break;
    }
    case ir::Stmt::Kind::If:
      s += fmt::format("if ({}) {{\n{}}}", expr(st.value), statements(st.then_body));
      if (!st.else_body.empty())
        s += fmt::format(" else {{\n{}}}", statements(st.else_body));
      s += "\n";
      break;
    }
  }
  return s;
}

std::string BodyEmitter::kernel_statements(const ir::Kernel &k) const {
  // The statements cite the .stn; what follows is the generated file's again.
  return statements(k.body) + generated_line_directive(prog_, prog_.name + ".cpp");
}

std::string BodyEmitter::store(const ir::Grid &g, const std::string &x,
                               const std::string &value) const {
  return fmt::format("{}__r[{}] = {};\n", g.name, x, value);
}

std::string BodyEmitter::row_read(const ir::Expr &e) const {
  const ir::Grid &grid = prog_.grids[e.id];
  const std::string &g = grid.name;
  if (indexed_whole(e)) {
    // A grid of lower rank: its row pointer is its origin, and each subscript the index of the
    // kernel's dimension it follows plus the offset, or the absolute index.
    std::string s;
    for (int d = 0; d < grid.rank; ++d) {
      std::string sub = e.absolute_in(d) ? absolute_index(e, d) : axis_index(e.axis[d]);
      if (!e.absolute_in(d) && e.offset[d] != 0)
        sub = fmt::format("{} {} {}", sub, e.offset[d] > 0 ? '+' : '-', std::abs(e.offset[d]));
      s += d == 0 ? sub : fmt::format(" + ({}) * {}__s{}", sub, g, d);
    }
    return fmt::format("{}__r[{}]", g, s);
  }
  std::string s = x_index(e);
  for (std::size_t d = 1; d < indices_.size(); ++d) {
    const std::string stride = fmt::format("{}__s{}", g, d);
    if (e.absolute_in(static_cast<int>(d))) {
      // From the row's index to the absolute one. A dimension read at an absolute index is
      // never split among ranks, so the local index is the global one there.
      s += fmt::format(" + ({} - {}) * {}", absolute_index(e, static_cast<int>(d)), indices_[d],
                       stride);
      continue;
    }
    const int o = e.offset[d];
    if (o == 0)
      continue;
    s += o > 0 ? " + " : " - ";
    s += std::abs(o) == 1 ? stride : fmt::format("{} * {}", std::abs(o), stride);
  }
  return fmt::format("{}__r[{}]", g, s);
}

std::string BodyEmitter::absolute_index(const ir::Expr &e, int d) const {
  return e.at[d] ? "(" + expr(e.at[d]) + ")" : std::to_string(e.offset[d]);
}

bool BodyEmitter::indexed_whole(const ir::Expr &e) const {
  return prog_.grids[e.id].rank < static_cast<int>(indices_.size());
}

std::string row_origin(const ir::Grid &grid, const std::vector<std::string> &idx, bool whole) {
  std::string off = grid.name + "__o";
  if (whole || grid.rank < static_cast<int>(idx.size()))
    return off;
  for (int d = 1; d < grid.rank; ++d)
    off += fmt::format(" + {} * {}__s{}", idx[d], grid.name, d);
  return off;
}

std::string BodyEmitter::x_index(const ir::Expr &e) const {
  if (e.absolute_in(0))
    return absolute_index(e, 0);
  std::string s = indices_[0];
  if (e.offset[0] > 0)
    s += fmt::format(" + {}", e.offset[0]);
  else if (e.offset[0] < 0)
    s += fmt::format(" - {}", -e.offset[0]);
  return s;
}

std::string SetupEmitter::param(const ir::Expr &e) const {
  return "prm__." + prog_.params[e.id].name;
}

std::string SetupEmitter::index(const ir::Expr &e) const { return fmt::format("x{}__", e.id); }

// Sizes come from --set at run time: a zero divisor must be an error, not a crash.
std::string SetupEmitter::int_divmod(const char *op, const std::string &a,
                                     const std::string &b) const {
  return fmt::format("stencilc::checked_{}({}, {})", op[0] == '/' ? "div" : "mod", a, b);
}

std::string SetupEmitter::int_cast(const std::string &a) const {
  return fmt::format("stencilc::checked_to_int({})", a);
}

std::string RowBodyEmitter::index(const ir::Expr &e) const {
  return global_ ? fmt::format("({} + off{}__)", indices_[e.id], e.id) : indices_[e.id];
}

bool RowBodyEmitter::indexed_whole(const ir::Expr &e) const {
  return BodyEmitter::indexed_whole(e) || replicated_.count(e.id) > 0;
}

std::string RowBodyEmitter::axis_index(int d) const {
  return global_ ? fmt::format("({} + off{}__)", indices_[d], d) : indices_[d];
}

std::string RowBodyEmitter::int_divmod(const char *op, const std::string &a,
                                       const std::string &b) const {
  return flagged_divmod(op, a, b);
}

std::string RowBodyEmitter::int_cast(const std::string &a) const { return flagged_to_int(a); }

std::string FlaggedSetupEmitter::int_divmod(const char *op, const std::string &a,
                                            const std::string &b) const {
  return flagged_divmod(op, a, b);
}

std::string FlaggedSetupEmitter::int_cast(const std::string &a) const {
  return flagged_to_int(a);
}

std::string setup_expr(const ir::Program &p, const ir::ExprPtr &e) {
  return SetupEmitter(p).expr(e);
}

std::string faces_key(const ir::Program &p, const ir::Grid &g) {
  SetupEmitter setup(p);
  std::string k;
  for (int f = 0; f < 2 * g.rank; ++f)
    k += std::string(ir::boundary_name(g.faces[f].kind)) + "(" +
         (g.faces[f].kind == ir::BoundaryKind::Dirichlet ? setup.expr(g.faces[f].value) : "") + ")";
  return k;
}

std::set<int> params_of(const std::vector<ir::Stmt> &body) {
  std::set<int> ps;
  ir::walk(body, [&](const ir::Expr &e) {
    if (e.op == ir::Op::Param)
      ps.insert(e.id);
  });
  return ps;
}

std::set<int> params_of(const ir::ExprPtr &value) {
  std::set<int> ps;
  ir::walk(value, [&](const ir::Expr &e) {
    if (e.op == ir::Op::Param)
      ps.insert(e.id);
  });
  return ps;
}

const char *reduction_identity(ir::ReduceOp op) {
  static const char *const identity[] = {"0.0", "std::numeric_limits<double>::infinity()",
                                         "-std::numeric_limits<double>::infinity()", "0.0", "1.0"};
  return identity[static_cast<int>(op)];
}

std::string combined_over_ranks(const ir::Reduction &r, const std::string &acc) {
  static const char *const combine[] = {"cart__->sum({})", "cart__->min({})", "cart__->max({})",
                                        "std::sqrt(cart__->sum({}))", "cart__->product({})"};
  return as_value(r, fmt::format(fmt::runtime(combine[static_cast<int>(r.op)]), acc));
}

std::string as_value(const ir::Reduction &r, const std::string &acc) {
  return ir::integer_reduction(r) ? "static_cast<std::int64_t>(" + acc + ")" : acc;
}

Accumulator accumulator(const ir::Reduction &r) {
  if (!ir::integer_reduction(r))
    return {"double", reduction_identity(r.op), "v__"};
  switch (r.op) {
  case ir::ReduceOp::Min:
    return {"std::int64_t", "std::numeric_limits<std::int64_t>::max()", "v__"};
  case ir::ReduceOp::Max:
    return {"std::int64_t", "std::numeric_limits<std::int64_t>::min()", "v__"};
  case ir::ReduceOp::Prod:
    return {"std::uint64_t", "std::uint64_t{1}", "static_cast<std::uint64_t>(v__)"};
  default: return {"std::uint64_t", "std::uint64_t{0}", "static_cast<std::uint64_t>(v__)"};
  }
}

std::string param_copies(const ir::Program &p, const std::set<int> &params) {
  std::string s;
  for (int i : params)
    s += fmt::format("  const {} {} = params_.{};\n", ir::cxx_type_name(p.params[i].type),
                     p.params[i].name, p.params[i].name);
  return s;
}

std::string x_loop(const ir::Domain &domain, const std::vector<std::string> &idx, int rank,
                   const std::string &x_offset, bool from_lo) {
  const int colour = ir::colour_of(domain);
  if (colour >= 0) {
    std::string parity = colour == 0 ? "0" : "1";
    if (!x_offset.empty())
      parity += " + " + x_offset;
    for (int d = 1; d < rank; ++d)
      parity += " + " + idx[d];
    if (from_lo || domain.kind == ir::Domain::Kind::Range) // a box's x starts at lo0__
      return fmt::format(
          "for (std::int64_t {0} = lo0__ + ({1} + lo0__) % 2; {0} < hi0__; {0} += 2)", idx[0],
          parity);
    return fmt::format("for (std::int64_t {0} = ({1}) % 2; {0} < hi0__; {0} += 2)", idx[0],
                       parity);
  }
  return fmt::format("for (std::int64_t {0} = lo0__; {0} < hi0__; ++{0})", idx[0]);
}

std::string flagged_divmod(const char *op, const std::string &a, const std::string &b) {
  return fmt::format("stencilc::kernel_{}({}, {}, err__)", op[0] == '/' ? "div" : "mod", a, b);
}

std::string flagged_to_int(const std::string &a) {
  return fmt::format("stencilc::kernel_to_int({}, err__)", a);
}

std::string fill_if_stale(const ir::Grid &g) {
  return fmt::format("  if (dirty__{0}_) {{\n    fill__{0}({0}_);\n    dirty__{0}_ = false;\n  }}\n",
                     g.name);
}

std::string exchange_if_stale(const ir::Grid &g) {
  return fmt::format("  if (dirty__{0}_ || halo__{0}_) {{\n    fill__{0}({0}_, dirty__{0}_);\n    "
                     "dirty__{0}_ = halo__{0}_ = false;\n  }}\n",
                     g.name);
}

std::string mark_stale(const ir::Grid &g) { return fmt::format("  dirty__{}_ = true;\n", g.name); }

// The lowering's size checks as statements of the constructor.
std::string size_checks(const ir::Program &p, const std::vector<lower::Check> &checks,
                        bool distributed) {
  SetupEmitter setup(p);
  std::string s;
  auto extent = [&](const std::string &g, int d) {
    return distributed ? fmt::format("gext__{}[{}]", g, d) : fmt::format("{}_.extent({})", g, d);
  };
  for (const lower::Check &c : checks) {
    const std::string &name = p.grids[c.grid].name;
    switch (c.kind) {
    case lower::Check::Kind::SameShape: {
      const std::string &other = p.grids[c.other].name;
      std::string cond;
      for (int d = 0; d < c.rank; ++d)
        cond += fmt::format("{}{} != {}", d ? " || " : "", extent(name, d), extent(other, d));
      s += fmt::format("  if ({})\n    throw stencilc::Error({});\n", cond,
                       cxx_string(fmt::format("{}: grid '{}' and grid '{}' have different shapes",
                                              c.owner, name, other)));
      break;
    }
    case lower::Check::Kind::MinExtent:
      s += fmt::format("  if ({} < {})\n    throw stencilc::Error({} + "
                       "std::to_string({}) + {});\n",
                       extent(name, c.dim), c.width,
                       cxx_string(fmt::format("grid '{}': extent ", name)), extent(name, c.dim),
                       cxx_string(fmt::format(" in dimension {} is smaller than the stencil "
                                              "width {}",
                                              c.dim + 1, c.width)));
      break;
    case lower::Check::Kind::SameExtent: {
      const std::string &other = p.grids[c.other].name;
      s += fmt::format("  if ({} != {})\n    throw stencilc::Error({});\n", extent(name, c.dim),
                       extent(other, c.other_dim),
                       cxx_string(fmt::format("{}: grid '{}' has another extent in dimension {} "
                                              "than grid '{}' in dimension {}, which it follows",
                                              c.owner, name, c.dim + 1, other, c.other_dim + 1)));
      break;
    }
    case lower::Check::Kind::IndexInside:
      if (c.index) { // given by params: known now
        s += fmt::format(
            "  {{\n    const std::int64_t i__ = {};\n    if (i__ < 0 || i__ >= {})\n      throw "
            "stencilc::Error({} + std::to_string(i__) + {} + std::to_string({}));\n  }}\n",
            setup.expr(c.index), extent(name, c.dim),
            cxx_string(fmt::format("{}: reads grid '{}' at index ", c.owner, name)),
            cxx_string(fmt::format(" of dimension {}, but its extent there is ", c.dim + 1)),
            extent(name, c.dim));
        break;
      }
      s += fmt::format("  if ({} <= {})\n    throw stencilc::Error({} + std::to_string({}));\n",
                       extent(name, c.dim), c.width,
                       cxx_string(fmt::format("{}: reads grid '{}' at index {} of dimension {}, "
                                              "but its extent there is ",
                                              c.owner, name, c.width, c.dim + 1)),
                       extent(name, c.dim));
      break;
    case lower::Check::Kind::DomainInside:
      s += fmt::format(
          "  {{\n    const std::int64_t lo = {}, hi = {};\n    if (lo < 0 || lo > hi || hi > "
          "{})\n      throw stencilc::Error({} + std::to_string(lo) + \":\" + "
          "std::to_string(hi) + {} + std::to_string({}) + \"]\");\n  }}\n",
          setup.expr(c.domain->lo[c.dim]), setup.expr(c.domain->hi[c.dim]), extent(name, c.dim),
          cxx_string(fmt::format("{}: domain [", c.owner)),
          cxx_string(fmt::format("] in dimension {} is not inside [0:", c.dim + 1)),
          extent(name, c.dim));
      break;
    }
  }
  return s;
}

std::string init_code(const ir::Program &p, const ir::Grid &g, const std::string &pragma,
                      bool distributed) {
  FlaggedSetupEmitter setup(p);
  const bool fail = ir::any_may_fail(g.init);
  std::string s = fmt::format("  {{\n    stencilc::Grid<{}> &g = {}_;\n", ir::elem_name(g), g.name);
  if (fail)
    s += "    int err__ = 0;\n";
  if (distributed) // local loops; the program's indices are global
    s += fmt::format("    const stencilc::Extents &o__ = part__{}_.offset;\n", g.name);
  if (!pragma.empty())
    s += pragma + (fail ? " reduction(|:err__)\n" : "\n");
  if (distributed) {
    s += "    for (std::int64_t l3__ = 0; l3__ < g.extent(3); ++l3__)\n"
         "      for (std::int64_t l2__ = 0; l2__ < g.extent(2); ++l2__)\n"
         "        for (std::int64_t l1__ = 0; l1__ < g.extent(1); ++l1__)\n"
         "          for (std::int64_t l0__ = 0; l0__ < g.extent(0); ++l0__) {\n"
         "            [[maybe_unused]] const std::int64_t x0__ = l0__ + o__[0], x1__ = l1__ + "
         "o__[1], x2__ = l2__ + o__[2], x3__ = l3__ + o__[3];\n";
    s += fmt::format(
        "            g.at(l0__, l1__, l2__, l3__) = static_cast<{}>({});\n          }}\n",
        ir::elem_name(g), setup.expr(g.init));
  } else {
    s += "    for (std::int64_t x3__ = 0; x3__ < g.extent(3); ++x3__)\n"
         "      for (std::int64_t x2__ = 0; x2__ < g.extent(2); ++x2__)\n"
         "        for (std::int64_t x1__ = 0; x1__ < g.extent(1); ++x1__)\n"
         "          for (std::int64_t x0__ = 0; x0__ < g.extent(0); ++x0__)\n";
    s += fmt::format("            g.at(x0__, x1__, x2__, x3__) = static_cast<{}>({});\n",
                     ir::elem_name(g), setup.expr(g.init));
  }
  if (fail)
    s += fmt::format("    if (err__)\n      stencilc::kernel_error({}, err__);\n",
                     cxx_string(fmt::format("init of grid '{}'", g.name)));
  return s + "  }\n";
}

std::string domain_cells(const ir::Program &p, const ir::Domain &d, int g, bool distributed) {
  SetupEmitter setup(p);
  const std::string &name = p.grids[g].name;
  if (distributed && d.kind != ir::Domain::Kind::Range) { // of the global grid
    const int rank = p.grids[g].rank;
    if (d.kind != ir::Domain::Kind::Interior)
      return fmt::format(
          "static_cast<double>(stencilc::mpi::colour_cells({}, part__{}_.global, {}))", rank, name,
          d.kind == ir::Domain::Kind::Red ? 0 : 1);
    std::string s;
    for (int k = 0; k < rank; ++k)
      s += fmt::format("{}static_cast<double>(part__{}_.global[{}])", k ? " * " : "", name, k);
    return s;
  }
  switch (d.kind) {
  case ir::Domain::Kind::Interior:
    return fmt::format("static_cast<double>({}_.interior_size())", name);
  case ir::Domain::Kind::Red:
    return fmt::format("static_cast<double>(stencilc::colour_count({}_, 0))", name);
  case ir::Domain::Kind::Black:
    return fmt::format("static_cast<double>(stencilc::colour_count({}_, 1))", name);
  case ir::Domain::Kind::Range: break;
  }
  if (d.colour >= 0) {
    std::string lo, hi;
    for (std::size_t k = 0; k < d.lo.size(); ++k) {
      lo += fmt::format("{}static_cast<std::int64_t>({})", k ? ", " : "", setup.expr(d.lo[k]));
      hi += fmt::format("{}static_cast<std::int64_t>({})", k ? ", " : "", setup.expr(d.hi[k]));
    }
    return fmt::format("static_cast<double>(stencilc::box_colour_cells({{{}}}, {{{}}}, {}))", lo,
                       hi, d.colour);
  }
  std::string s = "1.0";
  for (std::size_t k = 0; k < d.lo.size(); ++k)
    s += fmt::format(" * static_cast<double>(({}) - ({}))", setup.expr(d.hi[k]),
                     setup.expr(d.lo[k]));
  return s;
}

// Each line of text as a `// ` comment line, never re-flowed: a path (the .stn, a machine
// profile) stays whole on the line its author put it on, so the layout does not depend on
// where the files live.
std::string comment_lines(const std::string &text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t end = std::min(text.find('\n', i), text.size());
    if (end > i)
      out += "// " + text.substr(i, end - i) + "\n";
    i = end + 1;
  }
  return out;
}

// fill_x_faces's name for an x face that copies interior cells; nullptr for any other face.
static const char *x_face(const ir::Face &f) {
  switch (f.kind) {
  case ir::BoundaryKind::Neumann: return "stencilc::XFace::Neumann";
  case ir::BoundaryKind::Periodic: return "stencilc::XFace::Periodic";
  default: return nullptr;
  }
}

// The ghost cells of a grid from its faces on the host, in the order the interpreter fills
// them (a distributed block: the exchange and the physical faces).
std::string host_fill_definition(const ir::Program &p, const ir::Grid &g, HostFill kind) {
  SetupEmitter setup(p);
  const std::string elem = ir::elem_name(g);
  const std::string part = "part__" + g.name + "_";
  if (kind == HostFill::Exchange) {
    std::string s = fmt::format(
        "void Stencil::fill__{}(stencilc::Grid<{}> &g__, bool faces__) {{\n", g.name, elem);
    for (int d = 0; d < g.rank; ++d)
      s += fmt::format(
          "  cart__->exchange(g__, {0}, {1});\n  if (faces__)\n    dim_faces__{2}(g__, {1});\n",
          part, d, g.name);
    return s + "}\n";
  }
  const bool mpi = kind != HostFill::Whole;
  static const char *const names[] = {"fill", "", "dim_faces", "fill_faces"};
  std::string s = fmt::format(
      "void Stencil::{}__{}(stencilc::Grid<{}> &g__{}) {{\n  [[maybe_unused]] "
      "const Params &prm__ = params_;\n",
      names[static_cast<int>(kind)], g.name, elem, kind == HostFill::DimFaces ? ", int d__" : "");
  // A block of a distributed grid: the faces on the physical boundary, with the ghost cell's
  // global indices in a Dirichlet value.
  for (int d = 0; d < g.rank; ++d) {
    if (kind == HostFill::DimFaces)
      s += fmt::format("  if (d__ == {}) {{\n", d);
    // A whole grid's x faces that both copy interior cells: each row's two ends in one visit.
    if (!mpi && d == 0 && x_face(g.faces[0]) && x_face(g.faces[1])) {
      s += fmt::format("  stencilc::fill_x_faces(g__, {}, {}, stencilc::Fill::Parallel);\n",
                       x_face(g.faces[0]), x_face(g.faces[1]));
      continue;
    }
    for (int side = 0; side < 2; ++side) {
      const ir::Face &f = g.faces[2 * d + side];
      if (mpi)
        s += fmt::format("  if ({}.physical[{}][{}])\n  ", part, d, side);
      if (mpi && f.kind == ir::BoundaryKind::Dirichlet) {
        s += fmt::format(
            "  stencilc::fill_dirichlet{}(g__, {}, {}, [&](std::int64_t l0__, std::int64_t "
            "l1__, std::int64_t l2__, std::int64_t l3__) {{\n",
            kind == HostFill::Across ? "_across" : "", d, side);
        for (int k = 0; k < ir::kMaxRank; ++k)
          s += fmt::format(
              "    [[maybe_unused]] const std::int64_t x{0}__ = l{0}__ + {1}.offset[{0}];\n", k,
              part);
        s += fmt::format("    return static_cast<{}>({});\n  }});\n", elem, setup.expr(f.value));
        continue;
      }
      // A whole grid's large faces spread over the threads (the fill of a 4D grid's ghost
      // cells is as large as half its sweep); a value that can fail throws, so stays serial.
      const char *const parallel = mpi ? "" : ", stencilc::Fill::Parallel";
      switch (f.kind) {
      case ir::BoundaryKind::Neumann:
        s += fmt::format("  stencilc::fill_neumann(g__, {}, {}{});\n", d, side, parallel);
        break;
      case ir::BoundaryKind::Periodic:
        s += fmt::format("  stencilc::fill_periodic(g__, {}, {}{});\n", d, side, parallel);
        break;
      case ir::BoundaryKind::Dirichlet:
        s += fmt::format(
            "  stencilc::fill_dirichlet(g__, {}, {}, [&]([[maybe_unused]] std::int64_t "
            "x0__, [[maybe_unused]] std::int64_t x1__, [[maybe_unused]] std::int64_t "
            "x2__, [[maybe_unused]] std::int64_t x3__) {{ return static_cast<{}>({}); "
            "}}{});\n",
            d, side, elem, setup.expr(f.value), ir::any_may_fail(f.value) ? "" : parallel);
        break;
      }
    }
    if (kind == HostFill::DimFaces)
      s += "  }\n";
  }
  return s + "}\n";
}

} // namespace stc
