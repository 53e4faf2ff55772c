// The param values of a run: the checked program's defaults with --set applied. Apart from
// check.cpp because it reads the runtime's run options (the fuzzer builds sema without them).
#pragma once
#include <vector>

#include "ir/eval.h"
#include "ir/ir.h"
#include "stencilc/options.h"

namespace stc {

/// Throws stencilc::Error for an unknown name or a bad value, ir::EvalError for a param that
/// has no value.
std::vector<ir::Scalar> param_values(const ir::Program &p, const stencilc::RunOptions &run);

} // namespace stc
