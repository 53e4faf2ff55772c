#include <fmt/format.h>

#include "lower/lowered.h"

namespace stc::lower {

namespace {

std::string offsets(const ir::Offsets &o, int rank) {
  std::string s;
  for (int d = 0; d < rank; ++d)
    s += fmt::format("{}{}", d ? ", " : "", o[d]);
  return "[" + s + "]";
}

std::string domain(const ir::Program &p, const ir::Domain &d, int grid) {
  switch (d.kind) {
  case ir::Domain::Kind::Interior: return "interior of " + p.grids[grid].name;
  case ir::Domain::Kind::Red: return "red cells of " + p.grids[grid].name;
  case ir::Domain::Kind::Black: return "black cells of " + p.grids[grid].name;
  case ir::Domain::Kind::Range: break;
  }
  std::string s;
  for (std::size_t k = 0; k < d.lo.size(); ++k)
    s += fmt::format("{}{}:{}", k ? ", " : "", ir::print(p, d.lo[k]), ir::print(p, d.hi[k]));
  const char *colour = d.colour == 0 ? "red cells of " : d.colour == 1 ? "black cells of " : "";
  return colour + ("[" + s + "] of ") + p.grids[grid].name;
}

} // namespace

std::string print(const ir::Program &p, const Lowered &l) {
  std::string s = fmt::format("lowered {}{}\n", p.name, l.distributed ? " (distributed)" : "");
  auto actions = [&](const std::vector<Action> &step) {
    for (const Action &a : step) {
      switch (a.kind) {
      case Action::Kind::FillGhosts:
        s += fmt::format("  fill-ghosts {}\n", p.grids[a.a].name);
        break;
      case Action::Kind::Sweep: {
        const ir::Kernel &k = p.kernels[a.a];
        s += fmt::format("  sweep {} over {}\n", k.name, domain(p, k.domain, k.domain_grid));
        break;
      }
      case Action::Kind::Reduce: {
        const ir::Reduction &r = p.reductions[a.a];
        s += fmt::format("  reduce {} = {} over {}\n", r.name, ir::reduce_name(r.op),
                         domain(p, r.domain, r.domain_grid));
        break;
      }
      case Action::Kind::Swap:
        s += fmt::format("  swap {}, {}\n", p.grids[a.a].name, p.grids[a.b].name);
        break;
      case Action::Kind::MarkStale:
        s += fmt::format("  mark-stale {}\n", p.grids[a.a].name);
        break;
      case Action::Kind::MarkHaloStale:
        s += fmt::format("  mark-halo-stale {}\n", p.grids[a.a].name);
        break;
      case Action::Kind::Exchange: {
        const ir::Grid &g = p.grids[a.a];
        std::string halo;
        for (int d = 0; d < g.rank; ++d)
          halo += fmt::format("{}{}", d ? ", " : "", g.halo[d]);
        s += fmt::format("  exchange {} (halo {})\n", g.name, halo);
        break;
      }
      }
    }
  };
  s += "step:\n";
  actions(l.step);
  // Named blocks after the main one's step (a program without them prints as before).
  for (std::size_t b = 0; b < l.blocks.size() && b < p.blocks.size(); ++b) {
    s += fmt::format("step {}:\n", p.blocks[b].name);
    actions(l.blocks[b]);
  }
  s += "checks:\n";
  for (const Check &c : l.checks) {
    const std::string &g = p.grids[c.grid].name;
    switch (c.kind) {
    case Check::Kind::SameShape:
      s += fmt::format("  {}: same-shape {} {} (dimensions 1..{})\n", c.owner, g,
                       p.grids[c.other].name, c.rank);
      break;
    case Check::Kind::MinExtent:
      s += fmt::format("  {}: extent {} dimension {} >= {}\n", c.owner, g, c.dim + 1, c.width);
      break;
    case Check::Kind::SameExtent:
      s += fmt::format("  {}: extent {} dimension {} = extent {} dimension {}\n", c.owner, g,
                       c.dim + 1, p.grids[c.other].name, c.other_dim + 1);
      break;
    case Check::Kind::IndexInside:
      if (c.index)
        s += fmt::format("  {}: 0 <= {} < extent {} dimension {}\n", c.owner, ir::print(p, c.index),
                         g, c.dim + 1);
      else
        s += fmt::format("  {}: extent {} dimension {} > {}\n", c.owner, g, c.dim + 1, c.width);
      break;
    case Check::Kind::DomainInside:
      s += fmt::format("  {}: 0 <= {} <= {} <= extent {} dimension {}\n", c.owner,
                       ir::print(p, c.domain->lo[c.dim]), ir::print(p, c.domain->hi[c.dim]), g,
                       c.dim + 1);
      break;
    }
  }
  const Schedule &sc = l.schedule;
  std::string state;
  for (int g : sc.state)
    state += (state.empty() ? "" : ", ") + p.grids[g].name;
  s += fmt::format("schedule:\n  state {}\n", state.empty() ? "(none)" : state);
  int rank = 1;
  for (std::size_t i = 0; i < sc.calls.size(); ++i) {
    const ir::Kernel &k = p.kernels[sc.calls[i]];
    rank = std::max(rank, k.rank);
    s += fmt::format("  call {} reach {} margin {}\n", k.name, offsets(sc.reach[i], k.rank),
                     offsets(sc.margin[i], k.rank));
  }
  s += fmt::format("  step reach {}\n", offsets(sc.step_reach, rank));
  std::string updates;
  for (int k : sc.updates)
    updates += (updates.empty() ? "" : " + ") +
               domain(p, p.kernels[k].domain, p.kernels[k].domain_grid);
  s += fmt::format("  cell updates per step: {}\n", updates.empty() ? "0" : updates);
  return s;
}

} // namespace stc::lower
