// format_cxx formats top-level declarations apart (codegen/format.cpp): on the code generated
// for every sample, with each plan that applies, that must give the same text as libFormat
// over the whole file.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "codegen/codegen.h"
#include "driver/pipeline.h"
#include "target/target.h"

namespace {

std::vector<std::string> samples() {
  std::vector<std::string> out;
  for (const auto &e : std::filesystem::directory_iterator(STENCILC_SAMPLES_DIR))
    if (e.path().extension() == ".stn")
      out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CompilerFormat, PiecesFormatLikeTheWholeFile) {
  const auto specs = samples();
  ASSERT_FALSE(specs.empty());
  for (const auto &spec : specs) {
    const auto c = stc::compile(spec, {});
    ASSERT_TRUE(c) << spec;
    std::vector<std::string> plans = {"scheme=naive"};
    if (stc::temporal_unsupported(c->program).empty())
      plans.push_back("scheme=temporal,k=2,rows=8");
    for (const auto &plan : plans) {
      stc::EmitOptions opts;
      opts.plan = stencilc::parse_plan(plan, stc::find_target("openmp").plan_rules());
      opts.format = false;
      for (const auto &f : stc::emit_openmp(c->program, c->analysis, c->lowered, opts))
        EXPECT_EQ(stc::format_cxx(f.text, f.name), stc::format_cxx_whole(f.text, f.name))
            << spec << " (" << plan << "): " << f.name;
    }
  }
}

// A class whose members start at column 0 after blank lines (as the header template writes
// them) is not cut: only declarations outside braces other than a namespace's are.
TEST(CompilerFormat, CutsOnlyBetweenTopLevelDeclarations) {
  std::string code = "namespace n {\nclass C {\npublic:\n";
  for (int i = 0; i < 100; ++i)
    code += "int f" + std::to_string(i) + "(int x) {\n  if (x) {\n\n  return x;\n  }\n}\n\n\n";
  code += "};\n\nvoid g() {}\n\n} // namespace n\n";
  EXPECT_EQ(stc::format_cxx(code, "t.cpp"), stc::format_cxx_whole(code, "t.cpp"));
}

} // namespace
