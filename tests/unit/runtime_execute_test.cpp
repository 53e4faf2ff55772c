// execute() around the run: time series (--save-every), --history, chunks only when needed,
// and the pieces it uses (output file names, the progress line, chunk sizes).
#include "stencilc/execute.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <string>

#include "stencilc/error.h"
#include "stencilc/history.h"
#include "stencilc/npy.h"
#include "stencilc/output.h"
#include "stencilc/progress.h"
#include "test_support.h"

using namespace stencilc;
using stencilc::test::error_of;

namespace {

// One 4x3 float grid; a step adds 1 to every cell. The reduction `total` is the sum after the
// step; with `stop_at`, a `run until` program whose condition holds after that many steps.
class Counter final : public Program {
public:
  explicit Counter(std::int64_t stop_at = 0, bool reduce = true)
      : stop_at_(stop_at), reduce_(reduce), u_("u", 2, {4, 3, 1, 1}, {1, 1, 0, 0}) {}
  std::string name() const override { return "counter"; }
  std::string target() const override { return "test"; }
  std::string plan() const override { return "none"; }
  std::vector<std::string> grid_names() const override { return {"u"}; }
  void load(const std::string &, const std::string &path) override { load_grid(u_, path); }
  void save(const std::string &, const std::string &path) const override { save_grid(u_, path); }
  double checksum(const std::string &) const override { return stencilc::checksum(u_); }
  GridRef grid(const std::string &) const override { return &u_; }
  void init_random(std::uint64_t) override {}
  std::int64_t default_steps() const override { return 10; }
  double cell_updates_per_step() const override { return 12; }
  std::int64_t run(std::int64_t steps) override {
    calls.push_back(steps);
    converged_ = false;
    for (std::int64_t s = 0; s < steps; ++s) {
      for (std::int64_t y = 0; y < 3; ++y)
        for (std::int64_t x = 0; x < 4; ++x)
          u_.at(x, y) += 1;
      total_ = stencilc::checksum(u_);
      if (stop_at_ && ++done_ == stop_at_) {
        converged_ = true;
        return s + 1;
      }
    }
    return steps;
  }
  int threads() const override { return 1; }
  bool has_condition() const override { return stop_at_ > 0; }
  bool converged() const override { return converged_; }
  std::vector<std::pair<std::string, double>> reductions() const override {
    if (!reduce_)
      return {};
    return {{"total", total_}, {"never", std::numeric_limits<double>::quiet_NaN()}};
  }

  std::vector<std::int64_t> calls; // the step counts run() was called with

private:
  std::int64_t stop_at_, done_ = 0;
  bool reduce_;
  bool converged_ = false;
  double total_ = std::numeric_limits<double>::quiet_NaN();
  Grid<float> u_;
};

class RuntimeExecute : public ::testing::Test {
protected:
  std::string path(const std::string &name) const { return scratch_.path(name); }
  static std::string read(const std::string &p) { return test::ScratchDir::read(p); }
  // Runs execute() with the summary going to a scratch file; returns the summary text.
  std::string execute_to_text(Program &p, const RunOptions &opts) {
    const std::string file = path("summary.txt");
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> out(std::fopen(file.c_str(), "w"),
                                                         std::fclose);
    execute(p, opts, out.get());
    out.reset();
    return read(file);
  }
  // The value every cell of a saved .npy has (they are all equal).
  static float value_of(const std::string &file) {
    Grid<float> g("u", 2, {4, 3, 1, 1}, {0, 0, 0, 0});
    load_grid(g, file);
    return g.at(3, 2);
  }

  test::ScratchDir scratch_{"stencilc_exec"};
};

} // namespace

TEST(RuntimeOutputs, SeriesNames) {
  EXPECT_EQ(npy_series_path("out.npy", 40), "out_000040.npy");
  EXPECT_EQ(npy_series_path("d.x/out", 7), "d.x/out_000007");
  EXPECT_EQ(npy_series_path("a/.hidden", 3), "a/.hidden_000003");
  EXPECT_EQ(npy_series_path("u.npy", 12345678), "u_12345678.npy");
  EXPECT_EQ(h5_series_dataset("u", 40), "/u/000040");
}

// Without a progress line, --save-every or --history, the run is one call.
TEST_F(RuntimeExecute, OneCallWhenNothingNeedsChunks) {
  Counter p;
  RunOptions opts;
  opts.steps = 7;
  opts.saves = {{"u", path("u.npy")}};
  execute_to_text(p, opts);
  EXPECT_EQ(p.calls, (std::vector<std::int64_t>{7}));
  EXPECT_EQ(value_of(path("u.npy")), 7.0f);
}

TEST_F(RuntimeExecute, SaveEvery) {
  Counter p;
  RunOptions opts;
  opts.steps = 7;
  opts.save_every = 3;
  opts.saves = {{"u", path("s.npy")}, {"u", path("s.h5")}};
  const std::string text = execute_to_text(p, opts);
  EXPECT_CONTAINS(text, "counter: 7 steps on test");
  EXPECT_EQ(p.calls, (std::vector<std::int64_t>{3, 3, 1}));
  EXPECT_EQ(value_of(path("s_000003.npy")), 3.0f);
  EXPECT_EQ(value_of(path("s_000006.npy")), 6.0f);
  EXPECT_EQ(value_of(path("s_000007.npy")), 7.0f); // the end, though not a multiple of 3
  EXPECT_FALSE(std::filesystem::exists(path("s.npy")));
  EXPECT_FALSE(std::filesystem::exists(path("s_000009.npy")));
  const std::string x = read(path("s.xmf"));
  for (const char *want : {"<Time Value=\"3\"/>", "<Time Value=\"6\"/>", "<Time Value=\"7\"/>",
                           ">s.h5:/u/000003<", ">s.h5:/u/000006<", ">s.h5:/u/000007<"})
    EXPECT_CONTAINS(x, want);
  EXPECT_EQ(x.find("<Time Value=\"9\"/>"), std::string::npos);
}

// A multiple of N at the end is written once; a converged `run until` stops the series.
TEST_F(RuntimeExecute, SaveEveryEndAndConvergence) {
  Counter p;
  RunOptions opts;
  opts.steps = 6;
  opts.save_every = 3;
  opts.saves = {{"u", path("a.h5")}};
  execute_to_text(p, opts);
  const std::string x = read(path("a.xmf"));
  EXPECT_EQ(x.find("<Time Value=\"6\"/>"), x.rfind("<Time Value=\"6\"/>"));

  Counter q(5);
  opts.steps = 100;
  opts.save_every = 2;
  opts.saves = {{"u", path("c.npy")}};
  const std::string text = execute_to_text(q, opts);
  EXPECT_CONTAINS(text, "counter: 5 steps");
  EXPECT_CONTAINS(text, "converged after 5 iterations");
  EXPECT_EQ(q.calls, (std::vector<std::int64_t>{2, 2, 2}));
  EXPECT_EQ(value_of(path("c_000004.npy")), 4.0f);
  EXPECT_EQ(value_of(path("c_000005.npy")), 5.0f);
  EXPECT_FALSE(std::filesystem::exists(path("c_000006.npy")));

  // Converging exactly at a chunk's end stops too.
  Counter r(4);
  opts.saves = {{"u", path("d.npy")}};
  EXPECT_CONTAINS(execute_to_text(r, opts), "converged after 4 iterations");
  EXPECT_EQ(r.calls, (std::vector<std::int64_t>{2, 2}));
}

// A series may replace the file the run loaded: it is created after the load.
TEST_F(RuntimeExecute, SeriesOverTheLoadedFile) {
  Counter p;
  RunOptions opts;
  opts.steps = 5;
  opts.saves = {{"u", path("a.h5")}};
  execute_to_text(p, opts); // every cell 5
  Counter q;
  opts.steps = 2;
  opts.loads = {{"u", path("a.h5")}};
  opts.save_every = 1;
  opts.saves = {{"u", path("a.h5")}, {"u", path("a.npy")}};
  execute_to_text(q, opts);
  EXPECT_EQ(value_of(path("a_000001.npy")), 6.0f);
  EXPECT_EQ(value_of(path("a_000002.npy")), 7.0f);
  EXPECT_CONTAINS(read(path("a.xmf")), ">a.h5:/u/000002<");
}

TEST_F(RuntimeExecute, History) {
  Counter p;
  RunOptions opts;
  opts.steps = 3;
  opts.history = path("h.csv");
  execute_to_text(p, opts);
  EXPECT_EQ(p.calls, (std::vector<std::int64_t>{1, 1, 1}));
  EXPECT_EQ(read(path("h.csv")), "step,total,never\n1,12,nan\n2,24,nan\n3,36,nan\n");

  Counter q(2);
  opts.steps = 10;
  opts.history = path("q.csv");
  EXPECT_CONTAINS(execute_to_text(q, opts), "converged after 2 iterations");
  EXPECT_EQ(read(path("q.csv")), "step,total,never\n1,12,nan\n2,24,nan\n");
}

TEST_F(RuntimeExecute, Errors) {
  Counter p(0, false);
  RunOptions opts;
  opts.history = path("h.csv");
  EXPECT_EQ(error_of([&] { execute_to_text(p, opts); }),
            "--history " + path("h.csv") +
                ": counter has no reductions to record (declare one with `reduce`)");
  EXPECT_TRUE(p.calls.empty());

  Counter q;
  opts = RunOptions();
  opts.save_every = 2;
  EXPECT_EQ(error_of([&] { execute_to_text(q, opts); }),
            "--save-every 2: needs N >= 1 and at least one --save");
  // Outputs are checked before the run.
  opts.saves = {{"u", path("no/dir/u.h5")}};
  EXPECT_EQ(error_of([&] { execute_to_text(q, opts); }),
            path("no/dir/u.h5") + ": cannot open for writing: No such file or directory");
  opts.save_every = 0;
  opts.saves = {{"u", path("no/dir/u.npy")}};
  EXPECT_EQ(error_of([&] { execute_to_text(q, opts); }),
            path("no/dir/u.npy") + ": cannot open for writing: No such file or directory");
  opts.history = path("no/dir/h.csv");
  opts.saves.clear();
  EXPECT_EQ(error_of([&] { execute_to_text(q, opts); }),
            path("no/dir/h.csv") + ": cannot open for writing: No such file or directory");
  EXPECT_TRUE(q.calls.empty());
}

TEST(RuntimeProgress, Text) {
  EXPECT_EQ(progress_text("heat3d", 1200, 5000, false, 3.0),
            "heat3d: 1200/5000 steps (24%), 400 steps/s, ETA 10 s");
  EXPECT_EQ(progress_text("p", 50, 20000, true, 2.0),
            "p: 50/20000 steps (0%), 25 steps/s, ETA <= 13m18s");
  EXPECT_EQ(progress_text("p", 1, 100000, false, 4.0),
            "p: 1/100000 steps (0%), 0.25 steps/s, ETA 111h06m");
  EXPECT_EQ(progress_text("p", 0, 10, false, 0.5), "p: 0/10 steps (0%)");
}

TEST(RuntimeProgress, LineRewrittenAndErased) {
  std::FILE *f = std::tmpfile();
  Clock clock = Clock::fake(0); // moved by advance() only
  {
    Progress quiet("q", 10, false, false, clock, f);
    clock.advance(1);
    quiet.update(5);
  }
  EXPECT_EQ(std::ftell(f), 0); // disabled: nothing

  Clock clock2 = Clock::fake(0);
  Progress p("heat", 10, false, true, clock2, f);
  clock2.advance(0.19);
  p.update(1); // too early: the first 0.2 s show nothing
  EXPECT_EQ(std::ftell(f), 0);
  clock2.advance(0.06);
  p.update(4);
  clock2.advance(0.19);
  p.update(5); // too soon after the last one
  p.finish();
  std::rewind(f);
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;)
    s += static_cast<char>(c);
  std::fclose(f);
  ASSERT_EQ(s.substr(0, 21), "\rheat: 4/10 steps (40");
  EXPECT_EQ(s.find("5/10"), std::string::npos);
  const std::size_t line = s.find('\r', 1);
  ASSERT_NE(line, std::string::npos);
  // Erased: '\r', as many spaces as the line was long, '\r'.
  EXPECT_EQ(s.substr(line), "\r" + std::string(line - 1, ' ') + "\r");
}

TEST(RuntimeProgress, FakeClockTicks) {
  Clock c = Clock::fake(0.5);
  EXPECT_EQ(c.seconds(), 0.5);
  EXPECT_EQ(c.seconds(), 1.0);
  c.advance(2);
  EXPECT_EQ(c.seconds(), 3.5);
  Clock r = Clock::real();
  const double a = r.seconds(), b = r.seconds();
  EXPECT_LE(a, b);
  EXPECT_GE(a, 0);
}

TEST(RuntimeProgress, ChunkSizes) {
  ChunkSizer c(0.25);
  EXPECT_EQ(c.next(), 1);
  c.observe(1, 1e-6); // fast: at most eightfold
  EXPECT_EQ(c.next(), 8);
  c.observe(8, 0.0);
  EXPECT_EQ(c.next(), 64);
  c.observe(64, 0.125); // half the target: twice as many
  EXPECT_EQ(c.next(), 128);
  c.observe(128, 0.25);
  EXPECT_EQ(c.next(), 128);
  c.observe(128, 10.0); // slow: at most halved
  EXPECT_EQ(c.next(), 64);
  c.observe(1, 10.0);
  EXPECT_EQ(c.next(), 1);
}

TEST(RuntimeHistory, FormatAndErrors) {
  test::ScratchDir dir("stencilc_hist");
  const std::string file = dir.path("h.csv");
  {
    History h(file, {"res", "err"});
    h.record(1, {{"res", 0.1}, {"err", -std::numeric_limits<double>::infinity()}});
    h.record(2, {{"res", 1e-300}, {"err", 3.0}});
    h.close();
  }
  EXPECT_EQ(test::ScratchDir::read(file), "step,res,err\n1,0.10000000000000001,-inf\n2,1e-300,3\n");
  EXPECT_EQ(error_of([&] { History(dir.path("no/h.csv"), {"r"}); }),
            dir.path("no/h.csv") + ": cannot open for writing: No such file or directory");
}
