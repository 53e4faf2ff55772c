// Unit tests of the diagnostics engine: every location names its own file.
#include <gtest/gtest.h>

#include <type_traits>

#include "support/diagnostics.h"

namespace {

using stc::DiagEngine;
using stc::FileId;
using stc::SourceFile;
using stc::SourceLoc;

TEST(CompilerDiagnostics, EachLocationIsPrintedWithItsOwnFile) {
  // A program and a header it includes (as a C front end will have them).
  SourceFile main_c("main.c", "#include \"heat.h\"\nint main() { return f(1); }\n");
  SourceFile header("include/heat.h", "int f(int);\ndouble g;\n");
  DiagEngine diags(&main_c);
  const FileId h = diags.add_file(&header);
  EXPECT_EQ(h, 1);
  EXPECT_EQ(diags.file(0), &main_c);
  EXPECT_EQ(diags.file(h), &header);
  EXPECT_EQ(diags.file(2), nullptr);

  diags.error({2, 21}, "no such function");
  diags.note({1, 5, h}, "declared here");
  diags.warning({2, 8, h}, "unused");
  diags.error({}, "no location"); // line 0: a message about the whole of file 0
  EXPECT_EQ(diags.render(), "main.c: error: no location\n"
                            "main.c:2:21: error: no such function\n"
                            "int main() { return f(1); }\n"
                            "                    ^\n"
                            "include/heat.h:1:5: note: declared here\n"
                            "int f(int);\n"
                            "    ^\n"
                            "include/heat.h:2:8: warning: unused\n"
                            "double g;\n"
                            "       ^\n");
}

TEST(CompilerDiagnostics, ARepeatedMessageIsReportedOnceWithItsNotes) {
  SourceFile f("k.c", "a\nb\n");
  DiagEngine diags(&f);
  diags.error({1, 1}, "bad index");
  diags.note({2, 1}, "here");
  diags.error({1, 1}, "bad index"); // an unrolled loop's second trip
  diags.note({2, 1}, "here");
  diags.error({1, 1}, "another message");
  diags.error({2, 1}, "bad index");
  diags.warning({2, 1}, "odd");
  diags.warning({2, 1}, "odd");
  EXPECT_EQ(diags.error_count(), 3);
  EXPECT_EQ(diags.render(), "k.c:1:1: error: bad index\na\n^\nk.c:2:1: note: here\nb\n^\n"
                            "k.c:1:1: error: another message\na\n^\n"
                            "k.c:2:1: error: bad index\nb\n^\n"
                            "k.c:2:1: warning: odd\nb\n^\n");
}

TEST(CompilerDiagnostics, FilesAreRenderedInTheOrderTheyWereAdded) {
  SourceFile a("a.stn", "x\ny\n"), b("b.h", "z\n");
  DiagEngine diags(&a);
  const FileId fb = diags.add_file(&b);
  diags.error({1, 1, fb}, "in b");
  diags.error({2, 1}, "in a");
  EXPECT_EQ(diags.render(), "a.stn:2:1: error: in a\ny\n^\nb.h:1:1: error: in b\nz\n^\n");
}

TEST(CompilerDiagnostics, WithoutAFileTheLocationIsStillPrinted) {
  DiagEngine diags;
  diags.error({3, 4}, "bad");
  EXPECT_EQ(diags.render(), "<input>:3:4: error: bad\n");
}

TEST(CompilerDiagnostics, ALocationIsThreeIntsCopiedByValue) {
  static_assert(sizeof(SourceLoc) == 3 * sizeof(int));
  static_assert(std::is_trivially_copyable_v<SourceLoc>);
  SUCCEED();
}

} // namespace
