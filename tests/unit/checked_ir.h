// Helper shared by the compiler's unit tests of sema passes: a .stn text through the front end as
// the pipeline runs it (parse, instantiate, split_structs, check), its checked IR printed.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "frontend/parse.h"
#include "frontend/stn_print.h"
#include "ir/ir.h"
#include "sema/check.h"
#include "sema/instantiate.h"
#include "sema/structs.h"

namespace stc::test {

/// The checked IR of `text` printed; empty, with a test failure showing the diagnostics, if the
/// program has errors.
inline std::string checked_ir(const std::string &text) {
  SourceFile file("t.stn", text);
  DiagEngine diags(&file);
  auto ast = parse(file, diags);
  if (!ast) {
    ADD_FAILURE() << diags.render();
    return "";
  }
  auto split = split_structs(instantiate(*ast, diags), diags);
  if (!split) {
    ADD_FAILURE() << diags.render();
    return "";
  }
  auto prog = check(*split, diags);
  if (!prog || diags.has_errors()) {
    ADD_FAILURE() << diags.render();
    return "";
  }
  return ir::print(*prog);
}

/// `text` parsed and written back by the .stn printer (`stencilc import`'s); empty, with a test
/// failure showing the diagnostics, if it does not parse.
inline std::string printed_stn(const std::string &text) {
  SourceFile file("t.stn", text);
  DiagEngine diags(&file);
  auto ast = parse(file, diags);
  if (!ast) {
    ADD_FAILURE() << diags.render();
    return "";
  }
  return print_stn(*ast, "t.stn");
}

} // namespace stc::test
