// Unit tests of the typed plan (runtime/include/stencilc/plan.h): its one printer and its one
// parser, the same for the compiler, the runtime and generated code.
#include "stencilc/plan.h"

#include <gtest/gtest.h>

#include <string>

#include "stencilc/error.h"

namespace {

using stencilc::Plan;
using stencilc::PlanRules;
using stencilc::Platform;
namespace sch = stencilc::scheme;

const PlanRules kCpu{Platform::Cpu, false, "openmp"};
const PlanRules kGpu{Platform::Gpu, false, "cuda"};
const PlanRules kMpi{Platform::Cpu, true, "mpi-openmp"};
const PlanRules kMpiGpu{Platform::Gpu, true, "mpi-cuda"};

std::string error_of(const std::string &text, const PlanRules &rules, const Plan &base = Plan{}) {
  try {
    stencilc::parse_plan(text, rules, base);
  } catch (const stencilc::Error &e) {
    return e.what();
  }
  return "(no error)";
}

std::string key(const std::string &text, const PlanRules &rules, const Plan &base = Plan{}) {
  return stencilc::to_string(stencilc::parse_plan(text, rules, base));
}

TEST(Plan, DefaultIsNaive) {
  const Plan p;
  EXPECT_TRUE(p.naive());
  EXPECT_EQ(p.k(), 1);
  EXPECT_STREQ(p.scheme_name(), "naive");
  EXPECT_EQ(stencilc::to_string(p), "scheme=naive");
  for (const char *text : {"scheme=naive", "", "scheme=naive,k=1", "k=1,"})
    EXPECT_EQ(stencilc::parse_plan(text, kCpu), p) << text;
}

TEST(Plan, PrinterNamesOnlyWhatApplies) {
  Plan t;
  t.scheme = sch::CpuTemporal{4, 32, 0};
  EXPECT_EQ(stencilc::to_string(t), "scheme=temporal,k=4,rows=32");
  t.scheme = sch::CpuTemporal{2, 0, 0};
  EXPECT_EQ(stencilc::to_string(t), "scheme=temporal,k=2");
  t.scheme = sch::CpuTemporal{5, 12, 3};
  EXPECT_EQ(stencilc::to_string(t), "scheme=temporal,k=5,rows=12,chunk=3");
  Plan g;
  g.scheme = sch::GpuStreaming{32, 8};
  EXPECT_EQ(stencilc::to_string(g), "scheme=streaming,k=1,tile=32x8");
  g.scheme = sch::GpuStreaming{32, 8, 64};
  EXPECT_EQ(stencilc::to_string(g), "scheme=streaming,k=1,tile=32x8,chunk=64");
  g.scheme = sch::GpuTemporal{2, 64, 4};
  EXPECT_EQ(stencilc::to_string(g), "scheme=temporal,k=2,tile=64x4");
  Plan m;
  m.distribution = stencilc::Distribution{{1, 4, 4, 1}, 3, true};
  EXPECT_EQ(m.k(), 3);
  EXPECT_EQ(stencilc::to_string(m), "scheme=naive,k=3,procs=1x4x4,overlap=on");
  m.distribution = stencilc::Distribution{{2, 1, 1, 1}, 1, false};
  EXPECT_EQ(stencilc::to_string(m), "scheme=naive,procs=2x1x1,overlap=off");
}

TEST(Plan, ParsesEveryKey) {
  const Plan p = stencilc::parse_plan("scheme=temporal,k=4,rows=32,chunk=16", kCpu);
  ASSERT_NE(p.get<sch::CpuTemporal>(), nullptr);
  EXPECT_EQ(p.get<sch::CpuTemporal>()->k, 4);
  EXPECT_EQ(p.get<sch::CpuTemporal>()->rows, 32);
  EXPECT_EQ(p.get<sch::CpuTemporal>()->chunk, 16);
  // Any order; k keeps the base's (1 for naive); the last of a repeated key wins.
  EXPECT_EQ(key("chunk=5,k=3,scheme=temporal", kCpu), "scheme=temporal,k=3,chunk=5");
  EXPECT_EQ(key("scheme=temporal", kCpu), "scheme=temporal,k=1");
  EXPECT_EQ(key("scheme=temporal,k=2,k=6", kCpu), "scheme=temporal,k=6");
  EXPECT_EQ(key("scheme=temporal,k=64", kCpu), "scheme=temporal,k=64");
  // GPU blocks are tile=XxY.
  const Plan g = stencilc::parse_plan("scheme=temporal,k=2,tile=32x8", kGpu);
  ASSERT_NE(g.get<sch::GpuTemporal>(), nullptr);
  EXPECT_EQ(g.get<sch::GpuTemporal>()->tile_x, 32);
  EXPECT_EQ(g.get<sch::GpuTemporal>()->tile_y, 8);
  // A streaming thread's points along the streamed dimension.
  const Plan s = stencilc::parse_plan("scheme=streaming,tile=32x8,chunk=16", kGpu);
  ASSERT_NE(s.get<sch::GpuStreaming>(), nullptr);
  EXPECT_EQ(s.get<sch::GpuStreaming>()->chunk, 16);
  EXPECT_EQ(
      stencilc::parse_plan("scheme=streaming,tile=32x8", kGpu).get<sch::GpuStreaming>()->chunk, 0);
  // ... and a temporal block's output planes.
  const Plan t = stencilc::parse_plan("scheme=temporal,k=3,tile=32x16,chunk=64", kGpu);
  ASSERT_NE(t.get<sch::GpuTemporal>(), nullptr);
  EXPECT_EQ(t.get<sch::GpuTemporal>()->chunk, 64);
  EXPECT_EQ(stencilc::to_string(t), "scheme=temporal,k=3,tile=32x16,chunk=64");
  // ... which another scheme, given over it, drops.
  EXPECT_EQ(key("scheme=temporal,k=2", kGpu, s), "scheme=temporal,k=2,tile=32x8");
  EXPECT_EQ(key("tile=64x4", kGpu, s), "scheme=streaming,k=1,tile=64x4,chunk=16");
  // MPI: the process grid, the halo depth and overlap.
  const Plan q = stencilc::parse_plan("procs=2x4x1,overlap=on,k=2", kMpi);
  ASSERT_TRUE(q.distribution.has_value());
  EXPECT_EQ(q.distribution->procs, (std::array<int, 4>{2, 4, 1, 1}));
  // A rank-4 program's fourth dimension: a fourth count, printed only when it splits.
  const Plan w = stencilc::parse_plan("procs=1x1x2x2", kMpi);
  EXPECT_EQ(w.distribution->procs, (std::array<int, 4>{1, 1, 2, 2}));
  EXPECT_EQ(stencilc::to_string(w), "scheme=naive,procs=1x1x2x2,overlap=off");
  EXPECT_EQ(stencilc::to_string(stencilc::parse_plan("procs=1x1x2x1", kMpi)),
            "scheme=naive,procs=1x1x2,overlap=off");
  EXPECT_TRUE(q.distribution->overlap);
  EXPECT_EQ(q.k(), 2);
  EXPECT_FALSE(stencilc::parse_plan("overlap=off", kMpi, q).distribution->overlap);
}

TEST(Plan, KeysNotGivenKeepTheBase) {
  const Plan rows = stencilc::parse_plan("scheme=temporal,k=4,rows=32", kCpu);
  EXPECT_EQ(key("k=2,", kCpu, rows), "scheme=temporal,k=2,rows=32");
  EXPECT_EQ(key("rows=8", kCpu, rows), "scheme=temporal,k=4,rows=8");
  // Naming scheme=naive drops the base's depth, rows and tile.
  EXPECT_EQ(key("scheme=naive", kCpu, rows), "scheme=naive");
  const Plan gt = stencilc::parse_plan("scheme=temporal,k=3,tile=32x8", kGpu);
  EXPECT_EQ(key("scheme=streaming,k=1", kGpu, gt), "scheme=streaming,k=1,tile=32x8");
  EXPECT_EQ(key("scheme=naive", kGpu, gt), "scheme=naive");
  // The layout is the plan's, whatever the scheme: kept unless given.
  const Plan aos = stencilc::parse_plan("scheme=temporal,k=4,layout=aosoa", kCpu);
  EXPECT_EQ(aos.layout, stencilc::Layout::Aosoa);
  EXPECT_EQ(key("scheme=naive", kCpu, aos), "scheme=naive,layout=aosoa");
  EXPECT_EQ(key("layout=soa", kCpu, aos), "scheme=temporal,k=4");
  EXPECT_EQ(error_of("layout=rows", kCpu), "--plan layout=rows: layout is soa or aosoa");
  EXPECT_NE(aos, stencilc::parse_plan("scheme=temporal,k=4", kCpu));
}

// A text naming its scheme is a whole plan as printed (tune, explain): the keys the printer
// leaves out at their defaults take the defaults, not the base's.
TEST(Plan, NamedSchemeTakesTheDefaultsTheTextLeavesOut) {
  const Plan reg =
      stencilc::parse_plan("scheme=temporal,k=10,rows=48,chunk=4,carry=off,xshift=reg", kCpu);
  EXPECT_EQ(key("scheme=temporal,k=10,rows=48,vec=512", kCpu, reg),
            "scheme=temporal,k=10,rows=48,vec=512");
  EXPECT_EQ(key("scheme=temporal,k=8,rows=48", kCpu, reg), "scheme=temporal,k=8,rows=48");
  // Keys given anywhere in the text count, before or after the scheme.
  EXPECT_EQ(key("carry=off,scheme=temporal,k=8,rows=48", kCpu, reg),
            "scheme=temporal,k=8,rows=48,carry=off");
  // Without a scheme the text edits the base, as before.
  EXPECT_EQ(key("k=8", kCpu, reg), "scheme=temporal,k=8,rows=48,chunk=4,carry=off,xshift=reg");
  const Plan wide = stencilc::parse_plan("scheme=temporal,k=4,rows=16,vec=512", kCpu);
  EXPECT_EQ(key("scheme=temporal,k=4,rows=16,xshift=reg", kCpu, wide),
            "scheme=temporal,k=4,rows=16,xshift=reg");
  // x-shifts in registers go with either vector width (row__K__xreg, row__K__xreg_wide).
  EXPECT_EQ(key("xshift=reg", kCpu, wide), "scheme=temporal,k=4,rows=16,vec=512,xshift=reg");
}

TEST(Plan, PrintedPlansParseBack) {
  for (const char *text :
       {"scheme=naive", "scheme=temporal,k=1", "scheme=temporal,k=8", "scheme=temporal,k=4,rows=32",
        "scheme=temporal,k=3,chunk=7", "scheme=temporal,k=64,rows=1000000,chunk=1",
        "scheme=temporal,k=4,rows=32,vec=512", "scheme=temporal,k=4,rows=32,carry=off",
        "scheme=temporal,k=4,rows=16,vec=512,carry=off", "scheme=temporal,k=4,rows=32,xshift=reg",
        "scheme=temporal,k=2,rows=8,carry=off,xshift=reg",
        "scheme=temporal,k=4,rows=16,vec=512,xshift=reg",
        "scheme=temporal,k=2,rows=8,vec=512,carry=off,xshift=reg"})
    EXPECT_EQ(key(text, kCpu), text);
  // xshift=load is the default and not written; a naive plan over an xshift=reg one drops it,
  // a temporal one keeps it.
  EXPECT_EQ(key("scheme=temporal,k=2,xshift=load", kCpu), "scheme=temporal,k=2");
  const Plan shifted = stencilc::parse_plan("scheme=temporal,k=2,xshift=reg", kCpu);
  EXPECT_TRUE(shifted.get<sch::CpuTemporal>()->xreg);
  EXPECT_FALSE(stencilc::parse_plan("scheme=temporal,k=2", kCpu).get<sch::CpuTemporal>()->xreg);
  EXPECT_EQ(key("k=3", kCpu, shifted), "scheme=temporal,k=3,xshift=reg");
  EXPECT_EQ(key("scheme=naive", kCpu, shifted), "scheme=naive");
  EXPECT_EQ(key("scheme=temporal,k=3,rows=16,xshift=reg,procs=2x1x1", kMpi),
            "scheme=temporal,k=3,rows=16,xshift=reg,procs=2x1x1,overlap=off");
  // carry=on is the default and not written; a naive plan over a carry=off one drops it.
  EXPECT_EQ(key("scheme=temporal,k=2,carry=on", kCpu), "scheme=temporal,k=2");
  const Plan uncarried = stencilc::parse_plan("scheme=temporal,k=2,carry=off", kCpu);
  EXPECT_FALSE(uncarried.get<sch::CpuTemporal>()->carry);
  EXPECT_TRUE(stencilc::parse_plan("scheme=temporal,k=2", kCpu).get<sch::CpuTemporal>()->carry);
  EXPECT_EQ(key("k=3", kCpu, uncarried), "scheme=temporal,k=3,carry=off");
  EXPECT_EQ(key("scheme=naive", kCpu, uncarried), "scheme=naive");
  EXPECT_EQ(key("scheme=temporal,k=3,rows=16,carry=off,procs=2x1x1", kMpi),
            "scheme=temporal,k=3,rows=16,carry=off,procs=2x1x1,overlap=off");
  // vec=256 is the default and not written; a naive plan over a vec=512 one drops it.
  EXPECT_EQ(key("scheme=temporal,k=2,vec=256", kCpu), "scheme=temporal,k=2");
  const Plan wide = stencilc::parse_plan("scheme=temporal,k=2,vec=512", kCpu);
  EXPECT_EQ(wide.get<sch::CpuTemporal>()->vec, 512);
  EXPECT_EQ(key("k=3", kCpu, wide), "scheme=temporal,k=3,vec=512");
  EXPECT_EQ(key("scheme=naive", kCpu, wide), "scheme=naive");
  EXPECT_EQ(key("scheme=temporal,k=3,rows=16,vec=512,procs=2x1x1", kMpi),
            "scheme=temporal,k=3,rows=16,vec=512,procs=2x1x1,overlap=off");
  for (const char *text : {"scheme=streaming,k=1,tile=32x8", "scheme=temporal,k=4,tile=64x8"})
    EXPECT_EQ(key(text, kGpu), text);
  EXPECT_EQ(key("scheme=naive,k=2,procs=1x2x2,overlap=on", kMpi),
            "scheme=naive,k=2,procs=1x2x2,overlap=on");
  // The CPU engine inside each rank: the halo depth is the scheme's k.
  EXPECT_EQ(key("scheme=temporal,k=3,rows=16,procs=2x1x1", kMpi),
            "scheme=temporal,k=3,rows=16,procs=2x1x1,overlap=off");
  // The GPU's fused steps inside each rank (mpi-cuda, mpi-hip): halos k steps deep too.
  EXPECT_EQ(key("scheme=temporal,k=3,tile=32x8,procs=1x1x2", kMpiGpu),
            "scheme=temporal,k=3,tile=32x8,procs=1x1x2,overlap=off");
  // Over a naive plan's overlap=on (the compiled-in one): the temporal plan exchanges before
  // each block, so it leaves overlap off unless told.
  const Plan overlapped = stencilc::parse_plan("overlap=on", kMpiGpu);
  EXPECT_EQ(stencilc::to_string(
                stencilc::parse_plan("scheme=temporal,k=2,tile=16x8", kMpiGpu, overlapped)),
            "scheme=temporal,k=2,tile=16x8,procs=1x1x1,overlap=off");
  EXPECT_TRUE(stencilc::parse_plan("scheme=temporal,k=2,tile=16x8,overlap=on", kMpiGpu, overlapped)
                  .distribution->overlap);
  // The host's cores computing the boundary region (mpi-cuda, mpi-hip): an overlap too.
  const Plan split = stencilc::parse_plan("overlap=host", kMpiGpu);
  EXPECT_TRUE(split.distribution->overlap && split.distribution->host);
  EXPECT_EQ(key("scheme=naive,procs=1x2x2,overlap=host", kMpiGpu),
            "scheme=naive,procs=1x2x2,overlap=host");
  EXPECT_FALSE(stencilc::parse_plan("overlap=on", kMpiGpu, split).distribution->host);
  EXPECT_EQ(key("scheme=temporal,k=3,tile=32x8,procs=1x1x2,overlap=host", kMpiGpu),
            "scheme=temporal,k=3,tile=32x8,procs=1x1x2,overlap=host");
  // The boundary first, its exchange beside the interior (mpi-cuda, mpi-hip, naive): an
  // overlap too, and neither of the others.
  const Plan first = stencilc::parse_plan("overlap=boundary", kMpiGpu);
  EXPECT_TRUE(first.distribution->overlap && first.distribution->first);
  EXPECT_FALSE(first.distribution->host);
  EXPECT_EQ(key("scheme=naive,procs=2x1x1,overlap=boundary", kMpiGpu),
            "scheme=naive,procs=2x1x1,overlap=boundary");
  EXPECT_FALSE(stencilc::parse_plan("overlap=on", kMpiGpu, first).distribution->first);
  EXPECT_FALSE(stencilc::parse_plan("overlap=host", kMpiGpu, first).distribution->first);
  EXPECT_NE(first, stencilc::parse_plan("overlap=on", kMpiGpu));
  // A temporal plan given over it leaves the naive plan's overlap behind.
  EXPECT_FALSE(
      stencilc::parse_plan("scheme=temporal,k=2,tile=32x8", kMpiGpu, first).distribution->overlap);
  EXPECT_FALSE(
      stencilc::parse_plan("scheme=temporal,k=2,tile=16x8", kMpiGpu, split).distribution->overlap);
  EXPECT_EQ(key("scheme=naive,layout=aosoa", kGpu), "scheme=naive,layout=aosoa");
  EXPECT_EQ(key("scheme=naive,procs=2x1x1,layout=aosoa", kMpi),
            "scheme=naive,procs=2x1x1,overlap=off,layout=aosoa");
}

TEST(Plan, SchemesMustSuitTheTarget) {
  // --plan TEXT, the target's rules, why the plan is not one of them.
  const struct {
    const char *text;
    const PlanRules &rules;
    const char *why;
  } cases[] = {
      {"k=2", kCpu, "scheme naive takes k=1"},
      {"scheme=streaming,tile=32x8", kCpu, "scheme streaming is not a plan of the openmp target"},
      {"scheme=streaming,k=2,tile=32x8", kGpu,
       "streaming takes k=1 (temporal blocking is scheme=temporal)"},
      {"scheme=streaming,tile=32x8", kMpi,
       "scheme streaming is not a plan of the mpi-openmp target"},
      {"scheme=streaming,tile=32x8", kMpiGpu,
       "scheme streaming is not a plan of the mpi-cuda target"},
      {"scheme=temporal,k=4,tile=64x32", kCpu,
       "the openmp temporal plan keeps x-rows whole; give its tile as rows=N"},
      {"scheme=temporal,k=2,tile=32x8,rows=16", kGpu,
       "rows belongs to the CPU temporal plan; GPU plans take tile=XxY"},
      {"chunk=16", kGpu,
       "chunk (the planes a block walks) belongs to scheme=streaming and scheme=temporal on cuda"},
      {"scheme=temporal,k=4", kGpu, "scheme temporal needs tile=XxY"},
      {"scheme=naive,tile=32x8", kGpu, "tile belongs to scheme=streaming and scheme=temporal"},
      {"rows=8", kCpu, "rows and chunk belong to scheme=temporal"},
      {"chunk=8", kCpu, "rows and chunk belong to scheme=temporal"},
      {"vec=512", kCpu, "vec belongs to the CPU temporal plan (its row functions' vectors)"},
      {"carry=off", kCpu,
       "carry belongs to the CPU temporal plan (how a thread's tiles share their rows)"},
      {"xshift=reg", kCpu,
       "xshift belongs to the CPU temporal plan (how its row functions read x neighbours)"},
      {"scheme=temporal,k=2,tile=32x8,xshift=reg", kGpu,
       "xshift belongs to the CPU temporal plan (how its row functions read x neighbours)"},
      {"scheme=temporal,k=2,tile=32x8,carry=off", kGpu,
       "carry belongs to the CPU temporal plan (how a thread's tiles share their rows)"},
      {"scheme=naive,vec=512", kMpi,
       "vec belongs to the CPU temporal plan (its row functions' vectors)"},
      {"scheme=temporal,k=2,tile=32x8,vec=512", kGpu,
       "vec belongs to the CPU temporal plan (its row functions' vectors)"},
      {"procs=2x1x1", kCpu, "procs and overlap belong to MPI targets"},
      {"overlap=on", kGpu, "procs and overlap belong to MPI targets"},
      {"overlap=host", kMpi,
       "overlap=host (the host's cores compute the boundary while the device computes the "
       "interior) belongs to mpi-cuda and mpi-hip; mpi-openmp overlaps with overlap=on"},
      {"overlap=boundary", kMpi,
       "overlap=boundary (the boundary first, its exchange beside the interior) belongs to "
       "mpi-cuda and mpi-hip; mpi-openmp overlaps with overlap=on"},
  };
  for (const auto &c : cases)
    EXPECT_EQ(error_of(c.text, c.rules), std::string("--plan ") + c.text + ": " + c.why);
}

TEST(Plan, NaiveAloneIsTheNaiveScheme) {
  // `build --plan naive`, `tune --plan naive` and an executable's --plan naive alike; over a
  // base it keeps the base's layout, as scheme=naive does.
  EXPECT_TRUE(stencilc::parse_plan("naive", kCpu).naive());
  Plan base = stencilc::parse_plan("scheme=temporal,k=4,rows=8,layout=aosoa", kCpu);
  EXPECT_EQ(stencilc::parse_plan("naive", kCpu, base),
            stencilc::parse_plan("scheme=naive", kCpu, base));
  EXPECT_EQ(stencilc::to_string(stencilc::parse_plan("naive", kCpu, base)),
            "scheme=naive,layout=aosoa");
  EXPECT_EQ(error_of("naive,k=2", kCpu), "--plan naive,k=2: 'naive' is not KEY=VALUE");
}

TEST(Plan, RejectsBadKeysAndValues) {
  EXPECT_EQ(error_of("k", kCpu), "--plan k: 'k' is not KEY=VALUE");
  EXPECT_EQ(error_of("k=2,,rows=8", kCpu), "--plan k=2,,rows=8: '' is not KEY=VALUE");
  EXPECT_EQ(
      error_of("depth=2", kCpu),
      "--plan depth=2: unknown key 'depth' (scheme, k, rows, chunk, vec, carry, xshift, tile, "
      "procs, overlap, layout)");
  for (const char *bad : {"on", "registers", ""})
    EXPECT_EQ(error_of(std::string("scheme=temporal,xshift=") + bad, kCpu),
              std::string("--plan scheme=temporal,xshift=") + bad +
                  ": xshift (how row functions read their x neighbours: a load each, or shifted "
                  "out of vectors in registers) is load or reg");
  for (const char *bad : {"0", "1", "yes", ""})
    EXPECT_EQ(error_of(std::string("scheme=temporal,carry=") + bad, kCpu),
              std::string("--plan scheme=temporal,carry=") + bad +
                  ": carry (a thread's tiles take the rows below them from the tile before) is "
                  "on or off");
  for (const char *bad : {"128", "1024", "wide", ""})
    EXPECT_EQ(error_of(std::string("scheme=temporal,vec=") + bad, kCpu),
              std::string("--plan scheme=temporal,vec=") + bad +
                  ": vec (the bits of the row functions' vectors) is 256 or 512");
  for (const char *bad : {"0", "-3", "two", "4z", "2000000"})
    EXPECT_EQ(error_of(std::string("scheme=temporal,k=") + bad, kCpu),
              std::string("--plan scheme=temporal,k=") + bad + ": bad value '" + bad + "' for k");
  EXPECT_EQ(error_of("scheme=temporal,k=65", kCpu),
            "--plan scheme=temporal,k=65: k must be in 1..64");
  EXPECT_EQ(error_of("k=", kCpu), "--plan k=: k needs 1 number separated by 'x'");
  EXPECT_EQ(error_of("k=2x2", kCpu), "--plan k=2x2: k needs 1 number separated by 'x'");
  EXPECT_EQ(error_of("scheme=temporal,tile=64", kGpu),
            "--plan scheme=temporal,tile=64: tile needs 2 numbers separated by 'x'");
  EXPECT_EQ(error_of("scheme=temporal,tile=x64", kGpu),
            "--plan scheme=temporal,tile=x64: bad value 'x64' for tile");
  EXPECT_EQ(error_of("procs=2x2", kMpi),
            "--plan procs=2x2: procs needs 3 or 4 numbers separated by 'x'");
  EXPECT_EQ(error_of("procs=1x1x1x2x2", kMpi),
            "--plan procs=1x1x1x2x2: procs needs 3 or 4 numbers separated by 'x'");
  EXPECT_EQ(error_of("overlap=yes", kMpi),
            "--plan overlap=yes: overlap is on, off, host or boundary");
  EXPECT_EQ(error_of("scheme=fast", kCpu),
            "--plan scheme=fast: scheme is naive, temporal or streaming");
  EXPECT_EQ(error_of("scheme=temporal,rows=0", kCpu),
            "--plan scheme=temporal,rows=0: bad value '0' for rows");
  EXPECT_EQ(error_of("scheme=temporal,chunk=many", kCpu),
            "--plan scheme=temporal,chunk=many: bad value 'many' for chunk");
  EXPECT_EQ(error_of("scheme=temporal,rows=8x8", kCpu),
            "--plan scheme=temporal,rows=8x8: rows needs 1 number separated by 'x'");
}

TEST(Plan, Equality) {
  const Plan a = stencilc::parse_plan("scheme=temporal,k=2,rows=8", kCpu);
  EXPECT_EQ(a, stencilc::parse_plan("rows=8,k=2,scheme=temporal", kCpu));
  EXPECT_NE(a, stencilc::parse_plan("scheme=temporal,k=2,rows=8,chunk=1", kCpu));
  EXPECT_NE(a, Plan{});
  EXPECT_NE(a, stencilc::parse_plan("scheme=temporal,k=2,rows=8,vec=512", kCpu));
  EXPECT_NE(a, stencilc::parse_plan("scheme=temporal,k=2,rows=8,carry=off", kCpu));
  EXPECT_NE(a, stencilc::parse_plan("scheme=temporal,k=2,rows=8,xshift=reg", kCpu));
  EXPECT_NE(stencilc::parse_plan("procs=2x1x1", kMpi), stencilc::parse_plan("procs=1x2x1", kMpi));
}

} // namespace
