#include "codegen/program_data.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "codegen/c_like.h"

namespace stc {

namespace mus = kainjow::mustache;

mus::data program_data(const ir::Program &p, const lower::Lowered &l, const EmitOptions &opts,
                       const std::string &target) {
  SetupEmitter setup(p);
  // A distributed lowering (mpi-openmp): the templates' mpi sections, checks and cell counts on
  // the global grids.
  const bool mpi = l.distributed;
  mus::data d;
  d.set("mpi", mpi ? mus::data::type::bool_true : mus::data::type::bool_false);
  d.set("version", std::string(version()));
  d.set("source", p.source_path);
  d.set("name", p.name);
  d.set("ns", p.name);
  d.set("target", target);
  d.set("plan", stencilc::to_string(opts.plan));
  d.set("plan_init", cxx_plan(opts.plan));
  d.set("plan_comment", comment_lines(opts.plan_comment));
  d.set("line_comment",
        p.source_path.empty()
            ? std::string()
            : comment_lines("Kernel statements carry #line directives: compiler messages about "
                            "them cite their lines in\n" +
                            p.source_path + "."));
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
  // A checkpoint's fingerprint: the IR's hash and the values of the params.
  d.set("program_hash", ir::program_hash(p));
  std::string param_texts;
  for (const auto &q : p.params)
    param_texts += fmt::format("{}{{\"{}\", stencilc::param_text(static_cast<{}>(params.{}))}}",
                               param_texts.empty() ? "" : ", ", q.name,
                               q.type == ir::Type::Int ? "std::int64_t" : "double", q.name);
  d.set("param_texts", param_texts);
  d.set("state_size", std::to_string(3 * p.reductions.size() + 1 +
                                     std::count_if(p.reductions.begin(), p.reductions.end(),
                                                   ir::integer_reduction)));

  // layout=aosoa: the members of each struct grid in one Interleaved (grid.h), declared before
  // them (`decl`, after the parts on MPI: `mpi_decl`); each member takes it (`group_arg`).
  const bool aosoa = opts.plan.layout == stencilc::Layout::Aosoa;
  std::map<int, std::string> group_arg;
  mus::data groups{mus::data::type::list};
  for (const auto &members : aosoa ? ir::struct_groups(p) : std::vector<std::vector<int>>{}) {
    const ir::Grid &first = p.grids[members.front()];
    const std::string var = "grp__" + first.member_of;
    std::string ext, halo, list;
    for (int k = 0; k < ir::kMaxRank; ++k) {
      ext += (k ? ", " : "") + (k < first.rank ? setup.expr(first.extents[k]) : std::string("1"));
      halo += fmt::format("{}{}", k ? ", " : "", k == 0 ? 0 : first.halo[k]);
    }
    for (std::size_t i = 0; i < members.size(); ++i) {
      const ir::Grid &g = p.grids[members[i]];
      list += fmt::format("{}{{sizeof({}), {}}}", i ? ", " : "", ir::elem_name(g), g.halo[0]);
      group_arg[members[i]] = fmt::format(", {}, {}", var, i);
    }
    auto decl = [&](const std::string &extents) {
      return fmt::format("const stencilc::Interleaved {} = stencilc::interleave(\"{}\", {}, {}, "
                         "stencilc::Halos{{{}}}, {{{}}});",
                         var, first.member_of, first.rank, extents, halo, list);
    };
    mus::data x;
    x.set("decl", decl("stencilc::Extents{" + ext + "}"));
    x.set("mpi_decl", decl("part__" + first.name + "_.count"));
    groups.push_back(x);
  }
  d.set("groups", groups);

  mus::data grids{mus::data::type::list};
  std::string names, list;
  int gi = 0, max_rank = 1;
  const std::set<int> replicated = ir::lower_rank_grids(p);
  for (const auto &g : p.grids) {
    // Read by kernels of higher rank: every rank of the MPI targets holds it whole.
    const bool whole = replicated.count(gi) > 0;
    mus::data x;
    x.set("replicated", whole ? mus::data::type::bool_true : mus::data::type::bool_false);
    x.set("name", g.name);
    x.set("elem", std::string(ir::elem_name(g)));
    x.set("rank", std::to_string(g.rank));
    x.set("index", std::to_string(gi++));
    std::string ext, halo;
    for (int k = 0; k < ir::kMaxRank; ++k) {
      ext += (k ? ", " : "") + (k < g.rank ? setup.expr(g.extents[k]) : std::string("1"));
      halo += fmt::format("{}{}", k ? ", " : "", g.halo[k]);
    }
    x.set("extents", ext);
    x.set("halos", halo);
    const auto ga = group_arg.find(gi - 1);
    x.set("group_arg", ga == group_arg.end() ? std::string() : ga->second);
    x.set("random", g.init ? std::string("false") : std::string("true"));
    // Distributed: the neighbours' ghost cells hold the interior, whatever the faces.
    x.set("refresh_on_change",
          g.time_dependent_ghosts() || mpi ? std::string("true") : std::string("false"));
    std::string periodic;
    for (int k = 0; k < ir::kMaxRank; ++k)
      periodic += fmt::format(
          "{}{}", k ? ", " : "",
          k < g.rank && g.faces[2 * k].kind == ir::BoundaryKind::Periodic ? "true" : "false");
    x.set("periodic", periodic);
    grids.push_back(x);
    names += (names.empty() ? "" : ", ") + cxx_string(g.name);
    list += (list.empty() ? "" : ", ") + g.name;
    max_rank = std::max(max_rank, g.rank);
  }
  d.set("grids", grids);
  d.set("grid_names", names);
  d.set("grid_list", list);
  d.set("grid_count", std::to_string(p.grids.size()));
  d.set("max_rank", std::to_string(max_rank));
  if (const unsigned whole = ir::unsplit_dims(p))
    d.set("whole_dims", fmt::format(", {}u", whole));

  mus::data kernels{mus::data::type::list};
  for (const auto &k : p.kernels) {
    mus::data x;
    x.set("name", k.name);
    kernels.push_back(x);
  }
  mus::data reductions{mus::data::type::list};
  std::string red_list;
  for (const auto &r : p.reductions) {
    mus::data x;
    x.set("name", r.name);
    x.set("type", ir::reduction_cxx_type(r));
    x.set("integer",
          ir::integer_reduction(r) ? mus::data::type::bool_true : mus::data::type::bool_false);
    reductions.push_back(x);
    red_list += fmt::format("{}{{\"{}\", red__{}_}}", red_list.empty() ? "" : ", ", r.name, r.name);
  }
  d.set("kernels", kernels);
  d.set("reductions", reductions);
  d.set("reduction_list", red_list);
  d.set("checks", size_checks(p, l.checks, mpi));
  d.set("default_steps", p.steps ? setup.expr(p.steps)
                                 : fmt::format("{} /* run steps: --steps, default {} */",
                                               ir::kDefaultSteps, ir::kDefaultSteps));
  d.set("has_condition", p.until ? std::string("true") : std::string("false"));
  d.set("until", p.until ? setup.expr(p.until) : std::string("false"));
  std::string updates;
  for (int k : l.schedule.updates)
    updates += (updates.empty() ? "" : " + ") +
               domain_cells(p, p.kernels[k].domain, p.kernels[k].domain_grid, mpi);
  d.set("cell_updates", updates.empty() ? "0.0" : updates);
  return d;
}

void set_blocks(mus::data &d, const ir::Program &p, const std::vector<std::string> &bodies) {
  if (bodies.size() != p.blocks.size())
    internal_error("set_blocks: a body per named run block");
  SetupEmitter setup(p);
  mus::data blocks{mus::data::type::list};
  std::string names, list;
  for (std::size_t i = 0; i < p.blocks.size(); ++i) {
    mus::data b;
    b.set("name", p.blocks[i].name);
    b.set("steps", setup.expr(p.blocks[i].steps));
    b.set("body", bodies[i]);
    blocks.push_back(b);
    names += (names.empty() ? "" : ", ") + cxx_string(p.blocks[i].name);
    list += (list.empty() ? "" : ", ") + p.blocks[i].name;
  }
  d.set("block_list", list);
  d.set("blocks", blocks);
  d.set("block_names", names);
  d.set("has_blocks", p.blocks.empty() ? mus::data::type::bool_false : mus::data::type::bool_true);
}

std::string reduce_statements(const ir::Program &p, int reduction) {
  const ir::Reduction &r = p.reductions[reduction];
  // An integer reduction keeps its exact value beside the double the run block uses.
  const std::string value =
      ir::integer_reduction(r)
          ? fmt::format(
                "  ired__{0}_ = reduce__{0}();\n  red__{0}_ = static_cast<double>(ired__{0}_);\n",
                r.name)
          : fmt::format("  red__{0}_ = reduce__{0}();\n", r.name);
  return value + fmt::format("  if (!seen__{0}_) {{\n    first__{0}_ = "
                             "red__{0}_;\n    seen__{0}_ = true;\n  }}\n",
                             r.name);
}

std::string compute_definitions(const ir::Program &p,
                                const std::function<std::string(const ir::Grid &)> &fill,
                                const std::string &before,
                                const std::function<std::string(const std::set<int> &)> &after) {
  std::string s;
  for (const auto &r : p.reductions) {
    const char *const type = ir::reduction_cxx_type(r);
    s += fmt::format("{} Stencil::compute_{}() {{\n{}", type, r.name, before);
    const std::set<int> read = ir::grids_read(r.value);
    for (int g : read)
      s += fill(p.grids[g]);
    s += fmt::format("  const {} v__ = reduce__{}();\n", type, r.name);
    if (after)
      s += after(read);
    s += "  return v__;\n}\n\n";
  }
  return s;
}

std::string step_statements(const ir::Program &p, const lower::Lowered &l,
                            const std::function<std::string(const ir::Grid &)> &fill,
                            const std::function<std::string(const lower::Action &)> &swap) {
  return step_statements(p, l.step, fill, swap);
}

std::string step_statements(const ir::Program &p, const std::vector<lower::Action> &actions,
                            const std::function<std::string(const ir::Grid &)> &fill,
                            const std::function<std::string(const lower::Action &)> &swap) {
  std::string step;
  for (const lower::Action &act : actions) {
    switch (act.kind) {
    case lower::Action::Kind::FillGhosts:
    case lower::Action::Kind::Exchange: // a distributed target's fill__G exchanges first
      step += fill(p.grids[act.a]);
      break;
    case lower::Action::Kind::Sweep:
      step += fmt::format("  kernel__{}();\n", p.kernels[act.a].name);
      break;
    case lower::Action::Kind::Reduce:
      step += reduce_statements(p, act.a);
      break;
    case lower::Action::Kind::Swap:
      step += swap(act);
      break;
    case lower::Action::Kind::MarkStale:
      step += mark_stale(p.grids[act.a]);
      break;
    case lower::Action::Kind::MarkHaloStale:
      step += fmt::format("  halo__{}_ = true;\n", p.grids[act.a].name);
      break;
    }
  }
  return step;
}

std::string overlapped_step(
    const ir::Program &p, const std::vector<lower::Action> &step,
    const std::function<std::string(const ir::Grid &)> &fill,
    const std::function<std::string(const lower::Action &)> &swap,
    const std::function<std::string(const ir::Kernel &, const std::vector<lower::Action> &,
                                    const std::vector<lower::Action> &)> &overlapped) {
  std::string s;
  std::vector<lower::Action> pending; // exchanges not yet emitted
  auto flush = [&]() {
    s += step_statements(p, pending, fill, swap);
    pending.clear();
  };
  for (std::size_t i = 0; i < step.size(); ++i) {
    const lower::Action &a = step[i];
    if (a.kind == lower::Action::Kind::Exchange) {
      pending.push_back(a);
      continue;
    }
    if (a.kind != lower::Action::Kind::Sweep || pending.empty()) {
      flush();
      s += step_statements(p, {a}, fill, swap);
      continue;
    }
    // The marks of what the sweep wrote, right after it: the overlapped code places them
    // (before it exchanges those grids itself, under overlap=boundary).
    std::vector<lower::Action> marks;
    while (i + 1 < step.size() && (step[i + 1].kind == lower::Action::Kind::MarkStale ||
                                   step[i + 1].kind == lower::Action::Kind::MarkHaloStale))
      marks.push_back(step[++i]);
    const std::string marked = step_statements(p, marks, fill, swap);
    const ir::Kernel &k = p.kernels[a.a];
    s += "  if (overlap__()) {\n" + overlapped(k, pending, marks) + "  } else {\n";
    flush();
    s += fmt::format("  kernel__{}();\n", k.name) + marked + "  }\n";
  }
  flush();
  return s;
}

GeneratedFile render_file(const ir::Program &p, const mus::data &d, const std::string &tpl,
                          const std::string &file, const EmitOptions &opts) {
  mus::mustache m(template_text(tpl));
  std::string out = m.render(d);
  if (!m.is_valid())
    internal_error("template " + tpl + ": " + m.error_message());
  return GeneratedFile{file, fix_line_directives(opts.format ? format_cxx(out, file) : out, p, file)};
}

} // namespace stc
