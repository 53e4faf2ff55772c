#include "stencilc/summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

using namespace stencilc;

namespace {
Summary example() {
  Summary s;
  s.stencil = "heat3d";
  s.target = "openmp";
  s.plan = "naive";
  s.steps = 10;
  s.seconds = 0.512;
  s.cell_updates = 0.512 * 1.31e8;
  s.threads = 2;
  s.checksums = {{"u", 1234.5678}, {"a", 0.1 + 0.2}};
  return s;
}
} // namespace

TEST(RuntimeSummary, JsonKeysInOrderAndRoundTrip) {
  Summary s = example();
  std::string line = summary_json(s);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_EQ(line.rfind("{\"stencil\":\"heat3d\",\"target\":\"openmp\",\"plan\":\"naive\","
                       "\"steps\":10,\"seconds\":0.512,\"cell_updates\":",
                       0),
            0u)
      << line;
  auto j = nlohmann::ordered_json::parse(line);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it)
    keys.push_back(it.key());
  EXPECT_EQ(keys,
            (std::vector<std::string>{"stencil", "target", "plan", "steps", "seconds",
                                      "cell_updates", "cells_per_second", "threads", "checksums"}));
  EXPECT_EQ(j["cell_updates"].get<double>(), s.cell_updates);
  EXPECT_EQ(j["cells_per_second"].get<double>(), s.cell_updates / s.seconds);
  EXPECT_EQ(j["threads"].get<int>(), 2);
  // Checksums keep declaration order and exact bits.
  EXPECT_EQ(j["checksums"].begin().key(), "u");
  EXPECT_EQ(j["checksums"]["a"].get<double>(), 0.1 + 0.2);
  EXPECT_EQ(j["checksums"]["u"].get<double>(), 1234.5678);
}

TEST(RuntimeSummary, JsonEdgeCases) {
  Summary s;
  s.stencil = "q\"uote\\";
  std::string line = summary_json(s);
  auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["stencil"], "q\"uote\\");
  EXPECT_EQ(j["cells_per_second"].get<double>(), 0.0); // zero seconds
  EXPECT_TRUE(j["checksums"].is_object());
  EXPECT_TRUE(j["checksums"].empty());
  s.stencil = "bad\xff utf8";
  EXPECT_NO_THROW(summary_json(s));
}

// JSON has no NaN or infinity: the documented strings (README, "Run options"), signs kept.
TEST(RuntimeSummary, JsonNonFiniteValuesAreStrings) {
  Summary s = example();
  const double inf = std::numeric_limits<double>::infinity();
  s.checksums = {{"u", inf}};
  s.reductions = {{"res", std::nan("")}, {"lo", -inf}, {"hi", inf}};
  auto j = nlohmann::json::parse(summary_json(s));
  EXPECT_EQ(j["checksums"]["u"], "inf");
  EXPECT_EQ(j["reductions"]["res"], "nan");
  EXPECT_EQ(j["reductions"]["lo"], "-inf");
  EXPECT_EQ(j["reductions"]["hi"], "inf");
}

TEST(RuntimeSummary, Text) {
  Summary s = example();
  EXPECT_EQ(summary_text(s), "heat3d: 10 steps on openmp (plan naive, 2 threads) in 0.512 s\n"
                             "  1.31e+08 cell-updates/s\n"
                             "  checksum u = 1234.5678\n"
                             "  checksum a = 0.30000000000000004\n");
  s.steps = 1;
  s.threads = 1;
  s.plan = "";
  s.seconds = 0;
  s.checksums.clear();
  EXPECT_EQ(summary_text(s), "heat3d: 1 step on openmp (1 thread) in 0.000 s\n"
                             "  0 cell-updates/s\n");
}

TEST(RuntimeSummary, RanksAndMessagesOnlyWhenDistributed) {
  Summary s = example();
  auto j = nlohmann::json::parse(summary_json(s));
  EXPECT_FALSE(j.contains("ranks"));
  EXPECT_FALSE(j.contains("messages"));
  s.ranks = 4;
  s.messages = 20;
  j = nlohmann::json::parse(summary_json(s));
  EXPECT_EQ(j["ranks"], 4);
  EXPECT_EQ(j["messages"], 20);
  EXPECT_NE(summary_text(s).find("\n  4 ranks, at most 20 halo messages sent by one\n"),
            std::string::npos);
  EXPECT_FALSE(j.contains("phases"));
  s.phases = {{"d2h", 0.25}, {"exchange", 0.5}, {"h2d", 0.125}};
  j = nlohmann::json::parse(summary_json(s));
  ASSERT_TRUE(j.contains("phases"));
  EXPECT_EQ(j["phases"].dump(), R"({"d2h":0.25,"exchange":0.5,"h2d":0.125})");
  EXPECT_NE(summary_text(s).find("\n  halo refreshes (slowest rank): d2h 0.25 s, exchange 0.5 s, "
                                 "h2d 0.125 s\n"),
            std::string::npos);
}

TEST(RuntimeSummary, Timer) {
  Timer t;
  double a = t.seconds();
  EXPECT_GE(a, 0.0);
  EXPECT_GE(t.seconds(), a); // steady: never backwards
  Timer started_before_reset;
  t.reset(); // back to zero: t now reads less than a timer started before the reset
  const double since_reset = t.seconds();
  EXPECT_LE(since_reset, started_before_reset.seconds());
}
