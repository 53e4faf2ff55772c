#include "stencilc/plan.h"

#include <cstdlib>
#include <sstream>
#include <vector>

#include "stencilc/error.h"

namespace stencilc {

namespace scheme {
bool operator==(const Naive &, const Naive &) { return true; }
bool operator==(const CpuTemporal &a, const CpuTemporal &b) {
  return a.k == b.k && a.rows == b.rows && a.chunk == b.chunk && a.vec == b.vec &&
         a.carry == b.carry && a.xreg == b.xreg;
}
bool operator==(const GpuStreaming &a, const GpuStreaming &b) {
  return a.tile_x == b.tile_x && a.tile_y == b.tile_y && a.chunk == b.chunk;
}
bool operator==(const GpuTemporal &a, const GpuTemporal &b) {
  return a.k == b.k && a.tile_x == b.tile_x && a.tile_y == b.tile_y && a.chunk == b.chunk;
}
} // namespace scheme

bool operator==(const Distribution &a, const Distribution &b) {
  return a.procs == b.procs && a.k == b.k && a.overlap == b.overlap && a.host == b.host &&
         a.first == b.first;
}

bool operator==(const Plan &a, const Plan &b) {
  return a.scheme == b.scheme && a.distribution == b.distribution && a.layout == b.layout;
}

namespace {

// Every key's value side by side: parse_plan edits this, then builds the variant from it.
struct Flat {
  std::string scheme = "naive";
  int k = 1, rows = 0, chunk = 0, tile_x = 0, tile_y = 0, vec = 256;
  bool carry = true, xreg = false;
  std::array<int, 4> procs{1, 1, 1, 1};
  bool overlap = false, host = false, first = false;
  bool distribution_given = false;
};

Flat flatten(const Plan &p) {
  Flat f;
  f.scheme = p.scheme_name();
  f.k = p.k();
  if (const auto *t = p.get<scheme::CpuTemporal>()) {
    f.rows = t->rows;
    f.chunk = t->chunk;
    f.vec = t->vec;
    f.carry = t->carry;
    f.xreg = t->xreg;
  } else if (const auto *s = p.get<scheme::GpuStreaming>()) {
    f.tile_x = s->tile_x;
    f.tile_y = s->tile_y;
    f.chunk = s->chunk;
  } else if (const auto *g = p.get<scheme::GpuTemporal>()) {
    f.tile_x = g->tile_x;
    f.tile_y = g->tile_y;
    f.chunk = g->chunk;
  }
  if (p.distribution) {
    f.procs = p.distribution->procs;
    f.overlap = p.distribution->overlap;
    f.host = p.distribution->host;
    f.first = p.distribution->first;
  }
  return f;
}

} // namespace

const char *Plan::scheme_name() const {
  static const char *const names[] = {"naive", "temporal", "streaming", "temporal"};
  return names[scheme.index()];
}

int Plan::k() const {
  if (const auto *t = get<scheme::CpuTemporal>())
    return t->k;
  if (const auto *g = get<scheme::GpuTemporal>())
    return g->k;
  return naive() && distribution ? distribution->k : 1;
}

std::string to_string(const Plan &p) {
  std::string s = std::string("scheme=") + p.scheme_name();
  const Flat f = flatten(p);
  if (f.k != 1 || !p.naive())
    s += ",k=" + std::to_string(f.k);
  if (f.tile_x)
    s += ",tile=" + std::to_string(f.tile_x) + "x" + std::to_string(f.tile_y);
  if (f.rows)
    s += ",rows=" + std::to_string(f.rows);
  if (f.chunk)
    s += ",chunk=" + std::to_string(f.chunk);
  if (f.vec != 256)
    s += ",vec=" + std::to_string(f.vec);
  if (!f.carry)
    s += ",carry=off";
  if (f.xreg)
    s += ",xshift=reg";
  if (p.distribution)
    s += ",procs=" + std::to_string(f.procs[0]) + "x" + std::to_string(f.procs[1]) + "x" +
         std::to_string(f.procs[2]) + (f.procs[3] != 1 ? "x" + std::to_string(f.procs[3]) : "") +
         ",overlap=" +
         (f.host      ? "host"
          : f.first   ? "boundary"
          : f.overlap ? "on"
                      : "off");
  if (p.layout == Layout::Aosoa)
    s += ",layout=aosoa";
  return s;
}

Plan parse_plan(const std::string &text, const PlanRules &rules, const Plan &base) {
  if (text == "naive") // the word `build --plan` and the summaries' readers use
    return parse_plan("scheme=naive", rules, base);
  auto bad = [&](const std::string &why) { return Error("--plan " + text + ": " + why); };
  Flat f = flatten(base);
  const std::string base_scheme = f.scheme;
  Layout layout = base.layout;
  bool chunk_given = false, overlap_given = false, scheme_given = false;
  bool vec_given = false, carry_given = false, xshift_given = false;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw bad("'" + item + "' is not KEY=VALUE");
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    // `count` (or up to `most`) whole numbers in 1..2^20 separated by 'x'.
    auto ints = [&](int count, int most = 0) {
      std::vector<int> v;
      std::stringstream vs(value);
      std::string part;
      while (std::getline(vs, part, 'x')) {
        char *end = nullptr;
        const long n = std::strtol(part.c_str(), &end, 10);
        if (part.empty() || *end || n < 1 || n > 1 << 20)
          throw bad("bad value '" + value + "' for " + key);
        v.push_back(static_cast<int>(n));
      }
      if (static_cast<int>(v.size()) < count || static_cast<int>(v.size()) > std::max(count, most))
        throw bad(key + " needs " + std::to_string(count) +
                  (most > count ? " or " + std::to_string(most) : "") + " number" +
                  (count > 1 ? "s" : "") + " separated by 'x'");
      return v;
    };
    if (key == "scheme") {
      if (value != "naive" && value != "temporal" && value != "streaming")
        throw bad("scheme is naive, temporal or streaming");
      f.scheme = value;
      scheme_given = true;
      if (value == "streaming") // (a base plan's k belongs to its own scheme)
        f.k = 1;
      if (value == "naive") {
        f.k = 1;
        f.rows = f.chunk = f.tile_x = f.tile_y = 0;
        f.vec = 256;
        f.carry = true;
        f.xreg = false;
      }
    } else if (key == "k") {
      f.k = ints(1)[0];
      if (f.k > 64)
        throw bad("k must be in 1..64");
    } else if (key == "rows") {
      f.rows = ints(1)[0];
    } else if (key == "vec") {
      if (value != "256" && value != "512")
        throw bad("vec (the bits of the row functions' vectors) is 256 or 512");
      f.vec = std::stoi(value);
      vec_given = true;
    } else if (key == "carry") {
      if (value != "on" && value != "off")
        throw bad("carry (a thread's tiles take the rows below them from the tile before) is on "
                  "or off");
      f.carry = value == "on";
      carry_given = true;
    } else if (key == "xshift") {
      if (value != "load" && value != "reg")
        throw bad("xshift (how row functions read their x neighbours: a load each, or shifted "
                  "out of vectors in registers) is load or reg");
      f.xreg = value == "reg";
      xshift_given = true;
    } else if (key == "chunk") {
      f.chunk = ints(1)[0];
      chunk_given = true;
    } else if (key == "tile") {
      const auto v = ints(2);
      f.tile_x = v[0];
      f.tile_y = v[1];
    } else if (key == "procs") {
      const auto v = ints(3, 4);
      f.procs = {v[0], v[1], v[2], v.size() > 3 ? v[3] : 1};
      f.distribution_given = true;
    } else if (key == "overlap") {
      if (value != "on" && value != "off" && value != "host" && value != "boundary")
        throw bad("overlap is on, off, host or boundary");
      f.overlap = value != "off";
      f.host = value == "host";
      f.first = value == "boundary";
      f.distribution_given = overlap_given = true;
    } else if (key == "layout") {
      if (value != "soa" && value != "aosoa")
        throw bad("layout is soa or aosoa");
      layout = value == "aosoa" ? Layout::Aosoa : Layout::Soa;
    } else {
      throw bad("unknown key '" + key +
                "' (scheme, k, rows, chunk, vec, carry, xshift, tile, procs, overlap, layout)");
    }
  }

  const bool gpu = rules.platform == Platform::Gpu;
  // A base plan's chunk belongs to its own scheme (the CPU tile's planes, a GPU thread's).
  if (!chunk_given && f.scheme != base_scheme)
    f.chunk = 0;
  // A text that names its scheme is a whole plan as to_string writes it, which leaves out
  // the keys at their defaults: those are the defaults, not the base's (tune's
  // "scheme=temporal,k=10,rows=48,vec=512" over explain's xshift=reg choice was refused).
  if (scheme_given) {
    if (!chunk_given)
      f.chunk = 0;
    if (!vec_given)
      f.vec = 256;
    if (!carry_given)
      f.carry = true;
    if (!xshift_given)
      f.xreg = false;
  }
  // ... and its overlap to the naive plan: a temporal one exchanges before each block.
  if (!overlap_given && f.scheme == "temporal" && base_scheme != "temporal")
    f.overlap = f.host = f.first = false;
  // A distributed target's temporal plan is the CPU engine's (mpi-openmp) or the GPU's fused
  // steps (mpi-cuda, mpi-hip) inside each rank; streaming is not generated across ranks.
  if ((f.scheme == "streaming" && !gpu) || (rules.distributed && f.scheme == "streaming"))
    throw bad("scheme " + f.scheme + " is not a plan of the " + rules.target + " target");
  if (f.distribution_given && !rules.distributed)
    throw bad("procs and overlap belong to MPI targets");
  if (f.scheme == "streaming" && f.k != 1)
    throw bad("streaming takes k=1 (temporal blocking is scheme=temporal)");
  if (f.scheme == "naive" && !rules.distributed && f.k != 1)
    throw bad("scheme naive takes k=1");
  if (!gpu && f.tile_x)
    throw bad("the " + rules.target + " temporal plan keeps x-rows whole; give its tile as rows=N");
  if (gpu && f.rows)
    throw bad("rows belongs to the CPU temporal plan; GPU plans take tile=XxY");
  if (gpu && f.chunk && f.scheme == "naive")
    throw bad("chunk (the planes a block walks) belongs to scheme=streaming and scheme=temporal "
              "on " +
              rules.target);
  if (f.host && !gpu)
    throw bad("overlap=host (the host's cores compute the boundary while the device computes "
              "the interior) belongs to mpi-cuda and mpi-hip; " +
              rules.target + " overlaps with overlap=on");
  if (f.first && !gpu)
    throw bad("overlap=boundary (the boundary first, its exchange beside the interior) belongs "
              "to mpi-cuda and mpi-hip; " +
              rules.target + " overlaps with overlap=on");
  if (f.scheme == "naive" && (f.rows || f.chunk))
    throw bad("rows and chunk belong to scheme=temporal");
  if (f.vec != 256 && (gpu || f.scheme != "temporal"))
    throw bad("vec belongs to the CPU temporal plan (its row functions' vectors)");
  if (f.xreg && (gpu || f.scheme != "temporal"))
    throw bad("xshift belongs to the CPU temporal plan (how its row functions read x neighbours)");
  if (!f.carry && (gpu || f.scheme != "temporal"))
    throw bad("carry belongs to the CPU temporal plan (how a thread's tiles share their rows)");
  if (gpu && f.scheme != "naive" && f.tile_x == 0)
    throw bad("scheme " + f.scheme + " needs tile=XxY");
  if (gpu && f.scheme == "naive" && f.tile_x)
    throw bad("tile belongs to scheme=streaming and scheme=temporal");

  Plan p;
  if (f.scheme == "temporal" && gpu)
    p.scheme = scheme::GpuTemporal{f.k, f.tile_x, f.tile_y, f.chunk};
  else if (f.scheme == "temporal")
    p.scheme = scheme::CpuTemporal{f.k, f.rows, f.chunk, f.vec, f.carry, f.xreg};
  else if (f.scheme == "streaming")
    p.scheme = scheme::GpuStreaming{f.tile_x, f.tile_y, f.chunk};
  if (rules.distributed)
    p.distribution = Distribution{f.procs, f.k, f.overlap, f.host, f.first};
  p.layout = layout;
  return p;
}

Plan layout_only(const Plan &p) {
  Plan q;
  q.layout = p.layout;
  return q;
}

void check_layout(const std::string &text, const Plan &p, const Plan &compiled) {
  auto name = [](Layout l) { return l == Layout::Aosoa ? "aosoa" : "soa"; };
  if (p.layout != compiled.layout)
    throw Error("--plan " + text + ": the layout is chosen when the code is generated (this "
                "build's is layout=" + name(compiled.layout) + "); emit or build it with --plan "
                "layout=" + name(p.layout));
}

} // namespace stencilc
