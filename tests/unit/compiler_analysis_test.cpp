// Unit tests of analyze(): flops, distinct loads, radii, grids read and written, bytes.
#include "analysis/analyze.h"
#include "analysis/x_shifts.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "frontend/parse.h"
#include "frontend/source.h"
#include "model/model.h"
#include "optimizer/planner.h"
#include "sema/check.h"
#include "sema/params.h"

namespace {

namespace ir = stc::ir;

ir::Program compile_text(const std::string &text) {
  stc::SourceFile file("t.stn", text);
  stc::DiagEngine diags(&file);
  auto ast = stc::parse(file, diags);
  if (!ast) {
    ADD_FAILURE() << diags.render();
    return {};
  }
  auto prog = stc::check(*ast, diags);
  if (!prog) {
    ADD_FAILURE() << diags.render();
    return {};
  }
  return std::move(*prog);
}

const char *kHeat3d = "stencil heat3d;\n"
                      "param int   NX = 16, NY = 16, NZ = 16;\n"
                      "param float c0 = 0.4, c1 = 0.1;\n"
                      "grid float u[NX, NY, NZ] boundary dirichlet(0.0);\n"
                      "grid float v like u;\n"
                      "kernel diffuse(x, y, z) {\n"
                      "  v[x,y,z] = c0*u[x,y,z] + c1*(u[x-1,y,z] + u[x+1,y,z] + u[x,y-1,z]\n"
                      "                             + u[x,y+1,z] + u[x,y,z-1] + u[x,y,z+1]);\n"
                      "}\n"
                      "run steps { diffuse; swap u, v; }\n";

TEST(CompilerAnalysis, Heat3dSevenPointIsEightFlops) {
  auto p = compile_text(kHeat3d);
  auto a = stc::analyze(p);
  ASSERT_EQ(a.kernels.size(), 1u);
  const auto &k = a.kernels[0];
  EXPECT_EQ(k.rank, 3);
  EXPECT_EQ(k.flops, 8); // 2 mul + 6 add
  EXPECT_EQ(k.loads, 7);
  EXPECT_EQ(k.grids_read, 1);
  EXPECT_EQ(k.stores, 1);
  EXPECT_EQ(k.radius, (ir::Offsets{1, 1, 1, 0}));
  // u read once (4 bytes), v read for ownership and written (2 * 4 bytes).
  EXPECT_DOUBLE_EQ(k.bytes_streamed, 12.0);
  ASSERT_EQ(a.grid_radius.size(), 2u);
  EXPECT_EQ(a.grid_radius[0], (ir::Offsets{1, 1, 1, 0}));
  EXPECT_EQ(a.grid_radius[1], (ir::Offsets{0, 0, 0, 0}));
}

TEST(CompilerAnalysis, SevenDistinctWeightsIsThirteenFlops) {
  auto p = compile_text("stencil w7;\n"
                        "param double a0 = 0.1, a1 = 0.2, a2 = 0.3, a3 = 0.4, a4 = 0.5, a5 = 0.6,"
                        " a6 = 0.7;\n"
                        "grid double u[8, 8, 8];\n"
                        "grid double v like u;\n"
                        "kernel k(x, y, z) {\n"
                        "  v[x,y,z] = a0*u[x,y,z] + a1*u[x-1,y,z] + a2*u[x+1,y,z] + a3*u[x,y-1,z]"
                        " + a4*u[x,y+1,z] + a5*u[x,y,z-1] + a6*u[x,y,z+1];\n"
                        "}\n"
                        "run steps { k; swap u, v; }\n");
  auto a = stc::analyze(p);
  ASSERT_EQ(a.kernels.size(), 1u);
  EXPECT_EQ(a.kernels[0].flops, 13); // 7 mul + 6 add
  EXPECT_EQ(a.kernels[0].loads, 7);
  EXPECT_DOUBLE_EQ(a.kernels[0].bytes_streamed, 8.0 + 16.0);
}

TEST(CompilerAnalysis, RepeatedReadsCountOnce) {
  auto p = compile_text("stencil s;\n"
                        "grid double u[8];\n"
                        "grid double v like u;\n"
                        "kernel k(x) { v[x] = u[x] * u[x] + u[x+1] + u[x+1] + u[1+x]; }\n"
                        "run steps { k; }\n");
  auto a = stc::analyze(p);
  ASSERT_EQ(a.kernels.size(), 1u);
  EXPECT_EQ(a.kernels[0].loads, 2);
  EXPECT_EQ(a.kernels[0].flops, 4);
  EXPECT_EQ(a.kernels[0].grids_read, 1);
}

TEST(CompilerAnalysis, NegationCastsAndIntArithmeticAreFree) {
  auto p = compile_text("stencil s;\n"
                        "param int N = 8;\n"
                        "grid float u[N];\n"
                        "grid float v like u;\n"
                        "grid int c like u;\n"
                        "kernel k(x) {\n"
                        "  v[x] = -u[x] * (x + 1);\n"       // 1 flop: the float multiply
                        "  c[x] = (x * 2 - N) / 3 + c[x];\n" // int only: 0 flops
                        "}\n"
                        "run steps { k; }\n");
  auto a = stc::analyze(p);
  ASSERT_EQ(a.kernels.size(), 1u);
  EXPECT_EQ(a.kernels[0].flops, 1);
  EXPECT_EQ(a.kernels[0].loads, 2); // u[x], c[x]
  EXPECT_EQ(a.kernels[0].stores, 2);
  EXPECT_EQ(a.kernels[0].grids_read, 2);
  // u read (4); v and c written (2*4 + 2*4); c is read too but already counted as written.
  EXPECT_DOUBLE_EQ(a.kernels[0].bytes_streamed, 4.0 + 8.0 + 8.0);
}

TEST(CompilerAnalysis, RadiusPerDimensionAndPerGrid) {
  auto p = compile_text("stencil s;\n"
                        "grid float u[9, 9, 9];\n"
                        "grid double w like u;\n"
                        "grid double a like u;\n"
                        "grid int b like u;\n"
                        "grid readonly float r like u;\n"
                        "kernel k(x, y, z) {\n"
                        "  a[x,y,z] = u[x-2,y,z] + u[x,y+1,z] + w[x,y,z-3] + r[x,y,z];\n"
                        "  b[x,y,z] = 1;\n"
                        "}\n"
                        "kernel m(x, y, z) { a[x,y,z] = u[x,y-4,z]; }\n"
                        "run steps { k; m; }\n");
  auto a = stc::analyze(p);
  ASSERT_EQ(a.kernels.size(), 2u);
  const auto &k = a.kernels[0];
  EXPECT_EQ(k.radius, (ir::Offsets{2, 1, 3, 0}));
  EXPECT_EQ(k.loads, 4);
  EXPECT_EQ(k.grids_read, 3);
  EXPECT_EQ(k.stores, 2);
  // u float (4) + w double (8) + r float (4) read; a double (16) and b int (8) written.
  EXPECT_DOUBLE_EQ(k.bytes_streamed, 4 + 8 + 4 + 16 + 8);
  EXPECT_EQ(k.flops, 3); // three adds (the conversions of u and r are not counted)

  const auto &m = a.kernels[1];
  EXPECT_EQ(m.radius, (ir::Offsets{0, 4, 0, 0}));
  EXPECT_EQ(m.flops, 0);
  EXPECT_EQ(m.loads, 1);

  ASSERT_EQ(a.grid_radius.size(), 5u);
  EXPECT_EQ(a.grid_radius[0], (ir::Offsets{2, 4, 0, 0})); // u over both kernels
  EXPECT_EQ(a.grid_radius[1], (ir::Offsets{0, 0, 3, 0})); // w
  EXPECT_EQ(a.grid_radius[2], (ir::Offsets{0, 0, 0, 0})); // a: only written
  EXPECT_EQ(a.grid_radius[4], (ir::Offsets{0, 0, 0, 0})); // r: centre only
}

// (The kernel is not called `init`: that is a keyword since language v2.)
TEST(CompilerAnalysis, KernelThatReadsNothing) {
  auto p = compile_text("stencil s;\ngrid double u[4, 4];\n"
                        "kernel fill(x, y) { u[x,y] = 2.0 * x + y; }\nrun steps { fill; }\n");
  auto a = stc::analyze(p);
  ASSERT_EQ(a.kernels.size(), 1u);
  EXPECT_EQ(a.kernels[0].rank, 2);
  EXPECT_EQ(a.kernels[0].loads, 0);
  EXPECT_EQ(a.kernels[0].grids_read, 0);
  EXPECT_EQ(a.kernels[0].radius, (ir::Offsets{0, 0, 0, 0}));
  EXPECT_EQ(a.kernels[0].flops, 2);
  EXPECT_DOUBLE_EQ(a.kernels[0].bytes_streamed, 16.0);
}

TEST(CompilerAnalysis, Report) {
  auto p = compile_text(kHeat3d);
  auto r = stc::report(p, stc::analyze(p));
  EXPECT_EQ(r, "stencil heat3d\n"
               "kernel diffuse: rank 3, radius [1,1,1], 8 flops, 7 loads from 1 grids, 1 stores, "
               "12 bytes/point streamed, 0.667 flops/byte\n"
               "grid u: float rank 3, halo [1,1,1]\n"
               "grid v: float rank 3, halo [1,1,1]\n");
}

TEST(CompilerAnalysis, Heat3dSampleFile) {
  std::string err;
  auto file = stc::read_source(std::string(STENCILC_SAMPLES_DIR) + "/heat3d.stn", err);
  ASSERT_TRUE(file) << err;
  stc::DiagEngine diags(&*file);
  auto ast = stc::parse(*file, diags);
  ASSERT_TRUE(ast) << diags.render();
  auto prog = stc::check(*ast, diags);
  ASSERT_TRUE(prog) << diags.render();
  auto a = stc::analyze(*prog);
  ASSERT_EQ(a.kernels.size(), 1u);
  EXPECT_EQ(a.kernels[0].flops, 8);
  EXPECT_EQ(a.kernels[0].loads, 7);
  EXPECT_EQ(a.kernels[0].radius, (ir::Offsets{1, 1, 1, 0}));
}

} // namespace

// The bytes the CPU engine's last stage stores straight into the shadows, read for ownership
// (Cost::direct_written_bytes_per_cell, optimizer/planner.cpp).
TEST(CompilerAnalysis, ResultsTheEnginesLastStageStoresDirectly) {
  auto cost = [](const std::string &run) {
    auto p = compile_text("stencil t;\nparam int N = 16;\n"
                          "grid float u[N, N] boundary dirichlet(0.0);\ngrid double w like u;\n"
                          "grid float v like u;\n"
                          "kernel k(x, y) { v[x,y] = u[x-1,y] + u[x+1,y]; }\n"
                          "kernel inplace(x, y) { u[x,y] = 0.5 * u[x,y]; }\n"
                          "kernel part(x, y) on [1:N-1, 1:N-1] { v[x,y] = u[x,y+1]; }\n"
                          "kernel dbl(x, y) { w[x,y] = u[x,y]; }\n" +
                          run);
    auto a = stc::analyze(p);
    return stc::program_cost(p, a, stc::param_values(p, {}));
  };
  // The step's last kernel writes the whole interior from grids it does not write: its
  // results go straight to the shadows, their read for ownership paid (8 B of float, 16 of
  // double: b_w as a naive sweep counts it).
  const auto heat = cost("run steps { k; swap u, v; }\n");
  EXPECT_DOUBLE_EQ(heat.written_bytes_per_cell, 8);
  EXPECT_DOUBLE_EQ(heat.direct_written_bytes_per_cell, 8);
  EXPECT_DOUBLE_EQ(cost("run steps { inplace; k; dbl; }\n").direct_written_bytes_per_cell, 16);
  // In place (its rows start as copies of the old ones), or on part of the interior: the
  // results stream to the shadows after each plane, no read for ownership.
  EXPECT_DOUBLE_EQ(cost("run steps { k; inplace; }\n").direct_written_bytes_per_cell, 0);
  EXPECT_DOUBLE_EQ(cost("run steps { k; part; }\n").direct_written_bytes_per_cell, 0);
}

// The naive step's other work, as the model counts it (optimizer/planner.cpp): the ghost fills
// the steady state makes and the grids its reductions read.
TEST(CompilerAnalysis, NaiveStepFillsAndReductionsPerCell) {
  const std::string body = "param int NX = 16, NY = 8;\n"
                           "grid float v like u;\n"
                           "kernel k(x, y) {\n"
                           "  v[x,y] = u[x-1,y] + u[x+1,y] + u[x,y-1] + u[x,y+1];\n"
                           "}\n"
                           "reduce s(x, y) = sum(u[x,y]);\n"
                           "run steps { k; swap u, v; s; }\n";
  auto cost = [](const std::string &text) {
    auto p = compile_text(text);
    auto a = stc::analyze(p);
    return stc::program_cost(p, a, stc::param_values(p, {}));
  };
  // Faces that follow the interior: after the swap, u is refilled once per step (before the
  // reduction; the sweep then finds it current). x periodic: 8 rows per side, each a line of
  // ghost cells written (read for ownership) and one read, 3 x 64 B; y Neumann: 18 cells per
  // side (the x ghosts included), 3 x 4 B each. (2 * 8 * 192 + 2 * 18 * 12) / 128 cells.
  const auto copied =
      cost("stencil t;\ngrid float u[NX, NY] boundary(neumann, x: periodic);\n" + body);
  EXPECT_DOUBLE_EQ(copied.fill_bytes_per_cell, (2 * 8 * 192 + 2 * 18 * 12) / 128.0);
  EXPECT_DOUBLE_EQ(copied.reduce_bytes_per_cell, 4);
  // The rows those loops visit: x's 8 rows once for both faces (fill_x_faces), y's one ghost
  // row per side, and the reduction's 8 rows of 16 cells.
  EXPECT_DOUBLE_EQ(copied.extra_rows_per_cell, (8 + 2 + 8) / 128.0);
  // A Dirichlet x- face beside a Neumann x+: fill_dirichlet and fill_neumann visit the 8 rows
  // each (a line written, 2 x 64 B, on the Dirichlet side).
  const auto mixed =
      cost("stencil t;\ngrid float u[NX, NY] boundary(neumann, x-: dirichlet(1.0));\n" + body);
  EXPECT_DOUBLE_EQ(mixed.fill_bytes_per_cell, (8 * 128 + 8 * 192 + 2 * 18 * 12) / 128.0);
  EXPECT_DOUBLE_EQ(mixed.extra_rows_per_cell, (2 * 8 + 2 + 8) / 128.0);
  // Constant Dirichlet faces never go stale: after the first steps, no fill.
  const auto fixed = cost("stencil t;\ngrid float u[NX, NY] boundary dirichlet(0.0);\n" + body);
  EXPECT_DOUBLE_EQ(fixed.fill_bytes_per_cell, 0);
  EXPECT_DOUBLE_EQ(fixed.reduce_bytes_per_cell, 4);
  EXPECT_DOUBLE_EQ(fixed.extra_rows_per_cell, 8 / 128.0);
}

// The planes a CPU engine's stage call starts on (the model's T_calls, model.cpp call_weight):
// a grid read at offsets r along the last dimension spans 2r + 1 of them, any other read one, a
// written grid one; summed over the step's kernels.
TEST(CompilerAnalysis, PlaneStreamsCountTheCallsPlanes) {
  auto p =
      compile_text("stencil t;\nparam int N = 8;\n"
                   "grid float u[N, N, N] boundary dirichlet(0.0);\n"
                   "grid float v like u, w like u;\ngrid readonly float c like u;\n"
                   "kernel k(x, y, z) {\n"
                   "  v[x,y,z] = c[x,y,z] * (u[x,y,z-1] + u[x,y+1,z] + u[x,y,z+1]);\n"
                   "  w[x,y,z] = u[x-1,y,z];\n"
                   "}\nkernel copy(x, y, z) { u[x,y,z] = v[x,y,z]; }\nrun steps { k; copy; }\n");
  auto a = stc::analyze(p);
  const auto cost = stc::program_cost(p, a, stc::param_values(p, {}));
  // k: u at z - 1 .. z + 1 (3 planes), c (1), v and w written (2); copy: v read (1, at no
  // offset), u written (1).
  EXPECT_EQ(cost.plane_streams, 3 + 1 + 2 + 1 + 1);
}

// What a naive CPU sweep moves through memory (optimizer/planner.cpp): whole padded rows, and
// for a grid read at offsets its ghost rows too.
TEST(CompilerAnalysis, NaiveSweepMovesPaddedRows) {
  auto cost = [](const std::string &nx) {
    auto p = compile_text("stencil t;\nparam int NX = " + nx +
                          ", NY = 8;\n"
                          "grid float u[NX, NY] boundary dirichlet(0.0);\n"
                          "grid float v like u;\ngrid readonly float c like u;\n"
                          "kernel k(x, y) {\n"
                          "  v[x,y] = c[x,y] * (u[x-1,y] + u[x+1,y] + u[x,y-1] + u[x,y+1]);\n"
                          "}\nrun steps { k; }\n");
    auto a = stc::analyze(p);
    return stc::program_cost(p, a, stc::param_values(p, {}));
  };
  // 16-cell rows: u's row with its x ghosts (18 cells) takes 2 lines of 16, twice its cells,
  // and 8 + 2 of its rows are read for 8: 4 * 2 * 10/8; v is written on whole lines of its
  // own 16 cells (read for ownership and written back): 4 * 1 * 2; c is read at the centre:
  // 4 * 1 * 1. The model's bytes_per_cell count 4 + 8 + 4.
  const auto narrow = cost("16");
  EXPECT_DOUBLE_EQ(narrow.bytes_per_cell, 16);
  EXPECT_DOUBLE_EQ(narrow.padded_bytes_per_cell, 4 * 2 * 1.25 + 8 + 4);
  EXPECT_DOUBLE_EQ(stc::model::cpu_sweep_bytes(narrow), 22);
  // The stage streams u, c and v at once; its calls start on u's rows y - 1 .. y + 1 (the
  // last dimension of a rank-2 grid), c's and v's.
  EXPECT_EQ(narrow.streams, 3);
  EXPECT_EQ(narrow.plane_streams, 5);
  // What stays in a cache between steps is the three grids' storage, each once: u's rows of
  // 16 + 2 ghost cells on 2 lines, 8 + 2 rows; v and c, read at no offset, have no ghosts: a
  // line per row, 8 rows. Per 128 cells.
  EXPECT_DOUBLE_EQ(narrow.footprint_bytes_per_cell, (128.0 * 10 + 2 * 64 * 8) / 128);
  // 62-cell rows: u's 64 cells fill 4 lines exactly: 4 * 64/62 * 1.25; v and c 64/62 each.
  const auto wide = cost("62");
  EXPECT_DOUBLE_EQ(wide.padded_bytes_per_cell,
                   4 * 64.0 / 62 * 1.25 + 8 * 64.0 / 62 + 4 * 64.0 / 62);
  // A hand-made Cost without the planner's figure: bytes_per_cell as it is.
  stc::model::Cost plain;
  plain.bytes_per_cell = 12;
  EXPECT_DOUBLE_EQ(stc::model::cpu_sweep_bytes(plain), 12);
}

// Which kernels get xshift=reg row functions (analysis/x_shifts.h), and the planner's count of
// the step's calls that have them (the model prices those stages at the xreg rate).
TEST(CompilerAnalysis, XShiftsInRegistersWhereTheKernelIsArithmeticOnOneType) {
  auto why = [](const std::string &grids, const std::string &body, const std::string &domain = "") {
    auto p = compile_text("stencil t;\nparam int N = 32;\nparam float a = 0.5;\n" + grids +
                          "kernel k(x, y, z)" + domain + " {\n" + body + "\n}\nrun steps { k; }\n");
    return stc::why_no_x_shifts(p, p.kernels.at(0));
  };
  const std::string f = "grid float u[N, N, N] boundary dirichlet(0.0);\n"
                        "grid float v like u;\ngrid float s like u;\n";
  // heat3d's kernel: yes, and the analysis counts its one call.
  auto heat = compile_text(kHeat3d);
  EXPECT_EQ(stc::why_no_x_shifts(heat, heat.kernels[0]), "");
  const auto c = stc::program_cost(heat, stc::analyze(heat), stc::param_values(heat, {}));
  EXPECT_EQ(c.stages, 1);
  EXPECT_EQ(c.x_shift_stages, 1);
  // A let, negation, division, and the cell stored before read back.
  EXPECT_EQ(why(f, "let d = u[x-1,y,z] - u[x+1,y,z];\ns[x,y,z] = a * d / 2.0;\n"
                   "v[x,y,z] = -s[x,y,z] + u[x,y,z];"),
            "");
  EXPECT_EQ(why(f, "v[x,y,z] = a * u[x,y+1,z];"), "it reads no row at an x offset");
  EXPECT_EQ(why(f, "v[x,y,z] = v[x,y,z] + u[x+1,y,z];"),
            "it reads grid 'v', which it writes, other than at the cell it stored before");
  EXPECT_EQ(why(f, "v[x,y,z] = u[x+8,y,z] + u[x,y,z];"),
            "it reads grid 'u' 8 cells away in x, a vector or more");
  EXPECT_EQ(why(f, "v[x,y,z] = sqrt(u[x+1,y,z]);"),
            "it uses an operation other than + - * / on values");
  EXPECT_EQ(why(f, "if (a > 0.0) { v[x,y,z] = u[x+1,y,z]; }"), "it has an if statement");
  EXPECT_EQ(why(f, "v[x,y,z] = a;\ns[x,y,z] = u[x+1,y,z];"), "a value it assigns reads no grid");
  EXPECT_EQ(why(f, "v[x,y,z] = u[x+1,y,z];\nv[x,y,z] = u[x-1,y,z];"),
            "it stores to grid 'v' twice");
  EXPECT_EQ(why(f, "v[x,y,z] = u[x+1,y,z] * float(x);"), "it converts a value to another type");
  EXPECT_EQ(why("grid float u[N, N, N] boundary dirichlet(0.0);\ngrid double v[N, N, N];\n",
                "v[x,y,z] = u[x+1,y,z];"),
            "its grids are not all float or all double");
  EXPECT_EQ(why("grid double u[N, N, N] boundary dirichlet(0.0);\ngrid double v like u;\n",
                "v[x,y,z] = a * u[x+1,y,z];"),
            "it converts a value to another type");
  EXPECT_EQ(why(f, "v[x,y,z] = u[x+1,y,z];", " on red"),
            "its domain has colours (it steps over every other x)");
}

// The grids a CPU temporal run's last block writes and the blocks before it skip (the model's
// T_last, optimizer/planner.cpp dead_written_bytes): written or swapped grids whose value from
// before the step no kernel reads.
TEST(CompilerAnalysis, DeadWrittenGridsAreTheOnesTheStepOverwritesUnread) {
  auto dead = [](const std::string &grids, const std::string &kernels, const std::string &run) {
    auto p = compile_text("stencil t;\nparam int N = 16;\n" + grids + kernels + "run steps { " +
                          run + " }\n");
    return stc::program_cost(p, stc::analyze(p), stc::param_values(p, {}))
        .dead_written_bytes_per_cell;
  };
  const std::string g = "grid double u[N, N] boundary dirichlet(0.0);\ngrid double v like u;\n"
                        "grid float w[N, N] boundary dirichlet(0.0);\n";
  const std::string k = "kernel k(x, y) { v[x,y] = u[x-1,y] + u[x,y+1]; }\n"
                        "kernel copy(x, y) { u[x,y] = v[x,y]; }\n"
                        "kernel half(x, y) { u[x,y] = 0.5 * u[x,y]; }\n"
                        "kernel part(x, y) on [1:N-1, 1:N-1] { w[x,y] = u[x,y]; }\n";
  // A ping-pong swap: v's old value is never read (fp64: 8 bytes); u's is.
  EXPECT_DOUBLE_EQ(dead(g, k, "k; swap u, v;"), 8);
  // Copied back: v is written before copy reads it; u is read by k first.
  EXPECT_DOUBLE_EQ(dead(g, k, "k; copy;"), 8);
  // In place: u's old value is read.
  EXPECT_DOUBLE_EQ(dead(g, k, "half;"), 0);
  // A kernel on part of the domain keeps the rest of w's old values; w written over the whole
  // interior by a kernel that does not read it is dead (fp32: 4 bytes).
  EXPECT_DOUBLE_EQ(dead(g, k, "part;"), 0);
  EXPECT_DOUBLE_EQ(dead(g, k + "kernel all(x, y) { w[x,y] = u[x,y]; }\n", "all;"), 4);
  // Swapped around k: k reads v's old value and its result lands in u, whose old value is
  // dead (followed over two steps, as the engine follows its k).
  EXPECT_DOUBLE_EQ(dead(g, k, "swap u, v; k; swap u, v;"), 8);
}
