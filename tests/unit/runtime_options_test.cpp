#include "stencilc/options.h"

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "stencilc/error.h"

using namespace stencilc;

namespace {

struct ParseResult {
  int rc;
  RunOptions opts;
  std::string out, err;
};

ParseResult parse(std::vector<std::string> args) {
  args.insert(args.begin(), "prog");
  std::vector<char *> argv;
  for (auto &a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  ParseResult r;
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  r.rc = parse_run_options(int(args.size()), argv.data(), "heat2d: a test stencil", r.opts);
  r.err = ::testing::internal::GetCapturedStderr();
  r.out = ::testing::internal::GetCapturedStdout();
  return r;
}

std::string error_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "<no error>";
}

using Pairs = std::vector<std::pair<std::string, std::string>>;

#define EXPECT_CONTAINS(msg, part)                                                                 \
  EXPECT_NE(std::string(msg).find(part), std::string::npos) << "text: " << (msg)

} // namespace

TEST(RuntimeOptions, Defaults) {
  ParseResult r = parse({});
  EXPECT_EQ(r.rc, -1);
  EXPECT_TRUE(r.opts.sets.empty());
  EXPECT_FALSE(r.opts.steps.has_value());
  EXPECT_TRUE(r.opts.loads.empty());
  EXPECT_TRUE(r.opts.saves.empty());
  EXPECT_EQ(r.opts.plan, "");
  EXPECT_FALSE(r.opts.json);
  EXPECT_FALSE(r.opts.init_random.has_value());
  EXPECT_EQ(r.opts.save_every, 0);
  EXPECT_EQ(r.opts.history, "");
  EXPECT_EQ(r.out + r.err, "");
}

TEST(RuntimeOptions, AllOptions) {
  ParseResult r = parse({"--set", "NX=12", "--set=c0=0.5", "--steps", "10", "--load", "u=in.npy",
                         "--save", "u=out=1.npy", "--save", "v=v.npy", "--plan", "tile=32,unroll=2",
                         "--json", "--init-random", "18446744073709551615"});
  ASSERT_EQ(r.rc, -1) << r.err;
  EXPECT_EQ(r.opts.sets, (Pairs{{"NX", "12"}, {"c0", "0.5"}}));
  EXPECT_EQ(r.opts.steps, 10);
  EXPECT_EQ(r.opts.loads, (Pairs{{"u", "in.npy"}}));
  EXPECT_EQ(r.opts.saves, (Pairs{{"u", "out=1.npy"}, {"v", "v.npy"}}));
  EXPECT_EQ(r.opts.plan, "tile=32,unroll=2");
  EXPECT_TRUE(r.opts.json);
  EXPECT_EQ(r.opts.init_random, 18446744073709551615ULL);

  r = parse({"--steps", "0"});
  ASSERT_EQ(r.rc, -1) << r.err;
  EXPECT_EQ(r.opts.steps, 0);
}

TEST(RuntimeOptions, SeriesAndHistory) {
  ParseResult r = parse(
      {"--save", "u=out.h5", "--save", "u=out.npy", "--save-every", "40", "--history", "res.csv"});
  ASSERT_EQ(r.rc, -1) << r.err;
  EXPECT_EQ(r.opts.saves, (Pairs{{"u", "out.h5"}, {"u", "out.npy"}}));
  EXPECT_EQ(r.opts.save_every, 40);
  EXPECT_EQ(r.opts.history, "res.csv");
}

TEST(RuntimeOptions, Help) {
  ParseResult r = parse({"--help"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_CONTAINS(r.out, "heat2d: a test stencil");
  EXPECT_CONTAINS(r.out, "NAME=VALUE");
  EXPECT_CONTAINS(r.out, "override a param (repeatable)");
  EXPECT_CONTAINS(r.out, "--load GRID=FILE");
  EXPECT_CONTAINS(r.out, "read a grid's interior from a .npy file (indexed [x, y, z] in Fortran "
                         "order as --save writes it, or [z, y, x] in C order unless the grid is "
                         "a cube), or from the dataset GRID of an HDF5 file (.h5, .hdf5)");
  EXPECT_CONTAINS(r.out, "--save GRID=FILE");
  EXPECT_CONTAINS(r.out, "write a grid's interior after the run to a .npy file, or to an HDF5 "
                         "file (.h5, .hdf5) with an XDMF file");
  EXPECT_CONTAINS(r.out, "--save-every N");
  EXPECT_CONTAINS(r.out, "after every N steps and at the end, as a time series");
  EXPECT_CONTAINS(r.out, "--history FILE.csv");
  EXPECT_CONTAINS(r.out, "temporal plans run unblocked");
  EXPECT_CONTAINS(r.out, "KEY=VALUE,...");
  EXPECT_CONTAINS(r.out, "override the optimizer's plan");
  EXPECT_CONTAINS(r.out, "--also-plan KEY=VALUE,...");
  EXPECT_CONTAINS(r.out, "after the run, run again from the same start with this plan");
  EXPECT_CONTAINS(r.out, "print a one-line JSON summary");
  EXPECT_CONTAINS(r.out, "SEED");
  EXPECT_CONTAINS(r.out, "fill every grid that is not loaded");
}

TEST(RuntimeOptions, UsageErrors) {
  struct Case {
    std::vector<std::string> args;
    std::string expect;
  };
  const std::vector<Case> cases = {
      {{"--set", "NX"}, "expected NAME=VALUE"},
      {{"--set", "=3"}, "expected NAME=VALUE"},
      {{"--set", "NX="}, "expected NAME=VALUE"},
      {{"--load", "u.npy"}, "expected GRID=FILE"},
      {{"--save", "u"}, "expected GRID=FILE"},
      {{"--save", "u=u.h5", "--save-every", "0"}, "--save-every: must be >= 1, got 0"},
      {{"--save", "u=u.h5", "--save-every", "-2"}, "--save-every: must be >= 1, got -2"},
      {{"--save", "u=u.h5", "--save-every", "x"}, "--save-every"},
      {{"--save-every", "4"}, "--save-every requires --save"},
      {{"--history"}, "--history"},
      {{"--steps", "-1"}, "must be >= 0"},
      {{"--steps", "abc"}, "--steps"},
      {{"--steps", "1.5"}, "--steps"},
      {{"--steps"}, "--steps"},
      {{"--init-random", "-3"}, "--init-random"},
      {{"--init-random", "x"}, "--init-random"},
      {{"--bogus"}, "--bogus"},
      {{"stray"}, "stray"},
      {{"--json=maybe"}, "--json"},
  };
  for (const Case &c : cases) {
    ParseResult r = parse(c.args);
    EXPECT_EQ(r.rc, 2) << c.args[0];
    EXPECT_CONTAINS(r.err, c.expect);
    EXPECT_EQ(r.out, "");
  }
}

TEST(RuntimeOptions, AlsoPlanRunsTheSameStartAgain) {
  ParseResult r =
      parse({"--steps", "7", "--init-random", "3", "--load", "f=in.npy", "--save", "u=out/u.npy",
             "--save", "v=v.h5", "--save", "w=dir.d/w", "--plan", "scheme=temporal,k=2",
             "--also-plan", "scheme=naive", "--also-plan", "scheme=temporal,k=3", "--json"});
  ASSERT_EQ(r.rc, -1) << r.err;
  EXPECT_EQ(r.opts.also_plans, (std::vector<std::string>{"scheme=naive", "scheme=temporal,k=3"}));
  // Run 0 is the run asked for; runs 1 and 2 the same start with their plan, saved apart.
  const RunOptions first = nth_run(r.opts, 0);
  EXPECT_EQ(first.plan, "scheme=temporal,k=2");
  EXPECT_EQ(first.saves, r.opts.saves);
  EXPECT_TRUE(first.also_plans.empty());
  const RunOptions second = nth_run(r.opts, 2);
  EXPECT_EQ(second.plan, "scheme=temporal,k=3");
  EXPECT_EQ(second.saves, (Pairs{{"u", "out/u.2.npy"}, {"v", "v.2.h5"}, {"w", "dir.d/w.2"}}));
  EXPECT_TRUE(second.also_plans.empty());
  EXPECT_EQ(second.steps, 7);
  EXPECT_EQ(second.init_random, 3U);
  EXPECT_EQ(second.loads, (Pairs{{"f", "in.npy"}}));
  EXPECT_TRUE(second.json);
  EXPECT_EQ(nth_run(r.opts, 1).saves[0].second, "out/u.1.npy");
  EXPECT_EQ(error_of([&] { nth_run(r.opts, 3); }), "run 3: only 2 --also-plan given");
  // An error of a later run names its --also-plan and says the runs before it completed.
  EXPECT_EQ(nth_run_context(r.opts, 0), "");
  EXPECT_EQ(nth_run_context(r.opts, 2),
            "--also-plan scheme=temporal,k=3 (run 3 of 3; the runs before it completed): ");
  // Outputs that are one file for the whole job do not go with several runs.
  for (const std::vector<std::string> &args :
       {std::vector<std::string>{"--also-plan", "scheme=naive", "--history", "h.csv"},
        {"--also-plan", "scheme=naive", "--checkpoint", "c.ckpt"},
        {"--restart", "c.ckpt", "--also-plan", "scheme=naive"},
        {"--save", "u=u.npy", "--save-every", "2", "--also-plan", "scheme=naive"}}) {
    r = parse(args);
    EXPECT_EQ(r.rc, 2) << args[2];
    EXPECT_CONTAINS(r.err, "excludes");
  }
  r = parse({"--also-plan"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_CONTAINS(r.err, "--also-plan");
}

TEST(RuntimeOptions, HostAppWithPositionals) {
  // A repeatable --set must not swallow the positional that follows it.
  CLI::App app{"stencilc run"};
  RunOptions opts;
  std::string file;
  app.add_option("file", file)->required();
  add_run_options(app, opts);
  std::vector<std::string> args{"stencilc", "--set", "N=4", "prog.stn", "--set", "M=5"};
  std::vector<char *> argv;
  for (auto &a : args)
    argv.push_back(a.data());
  app.parse(int(argv.size()), argv.data());
  EXPECT_EQ(file, "prog.stn");
  EXPECT_EQ(opts.sets, (Pairs{{"N", "4"}, {"M", "5"}}));
}

TEST(RuntimeOptions, ParamSetInts) {
  ParamSet p(Pairs{{"NX", "12"}, {"NY", "-7"}, {"NX", "+40"}, {"Z", "0"}});
  EXPECT_TRUE(p.has("NX"));
  EXPECT_FALSE(p.has("nx"));
  EXPECT_EQ(p.get_int("NX"), 40); // last one wins
  EXPECT_EQ(p.get_int("NY"), -7);
  EXPECT_EQ(p.get_int("Z"), 0);
  EXPECT_EQ(ParamSet(Pairs{{"B", "9223372036854775807"}}).get_int("B"), INT64_MAX);
  EXPECT_EQ(ParamSet(Pairs{{"B", "-9223372036854775808"}}).get_int("B"), INT64_MIN);

  auto int_error = [](const std::string &v) {
    return error_of([&] { ParamSet(Pairs{{"NX", v}}).get_int("NX"); });
  };
  EXPECT_EQ(int_error("12x"), "--set NX=12x: '12x' is not an integer");
  for (std::string bad : {"", "x", " 12", "12 ", "1.5", "1e3", "0x10", "+", "-", "+-1", "--1"})
    EXPECT_CONTAINS(int_error(bad), "is not an integer");
  EXPECT_EQ(int_error("9223372036854775808"),
            "--set NX=9223372036854775808: '9223372036854775808' is out of range for a 64-bit "
            "integer");
  EXPECT_CONTAINS(int_error("-99999999999999999999"), "out of range");
  EXPECT_CONTAINS(error_of([&] { p.get_int("MISSING"); }), "MISSING");
}

TEST(RuntimeOptions, ParamSetDoubles) {
  ParamSet p(Pairs{{"a", "0.25"}, {"b", "-1e-3"}, {"c", "3"}, {"d", "+.5"}, {"e", "2."}});
  EXPECT_EQ(p.get_double("a"), 0.25);
  EXPECT_EQ(p.get_double("b"), -1e-3);
  EXPECT_EQ(p.get_double("c"), 3.0);
  EXPECT_EQ(p.get_double("d"), 0.5);
  EXPECT_EQ(p.get_double("e"), 2.0);
  EXPECT_EQ(ParamSet(Pairs{{"x", "0.1"}}).get_double("x"), 0.1); // correctly rounded

  auto dbl_error = [](const std::string &v) {
    return error_of([&] { ParamSet(Pairs{{"c0", v}}).get_double("c0"); });
  };
  EXPECT_EQ(dbl_error("1.5x"), "--set c0=1.5x: '1.5x' is not a number");
  for (std::string bad : {"", "x", " 1", "1 ", "1,5", "1e", "--1", "0.5.5"})
    EXPECT_CONTAINS(dbl_error(bad), "is not a number");
  EXPECT_CONTAINS(dbl_error("1e999"), "out of range");
  EXPECT_CONTAINS(dbl_error("nan"), "not a finite number");
  EXPECT_CONTAINS(dbl_error("inf"), "not a finite number");
}

TEST(RuntimeOptions, ParamSetCheckKnown) {
  ParamSet p(Pairs{{"NX", "1"}, {"FOO", "1"}, {"BAR", "2"}});
  EXPECT_EQ(error_of([&] {
              p.check_known({"NX", "NY", "c0"});
            }),
            "--set FOO=1: no param named 'FOO' (params: NX, NY, c0)");
  EXPECT_NO_THROW(p.check_known({"BAR", "FOO", "NX"}));
  EXPECT_EQ(error_of([&] {
              ParamSet(Pairs{{"A", "1"}}).check_known({});
            }),
            "--set A=1: no param named 'A' (the program has no params)");
  EXPECT_NO_THROW(ParamSet().check_known({}));
  EXPECT_FALSE(ParamSet().has("A"));
}
