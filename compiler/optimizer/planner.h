// The optimizer stage: from the checked program and its analysis to the plan the generated code
// runs. The cost adapter (IR analysis -> the model's Cost), the candidates a target has for a
// program (the model's, less those the target says do not apply), the choice and what the
// generated files say about it. explain, tune, emit and build all plan through here.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "ir/eval.h"
#include "ir/ir.h"
#include "model/machine.h"
#include "model/model.h"
#include "sema/check.h"
#include "sema/params.h"
#include "stencilc/options.h"
#include "target/target.h"

namespace stc {

/// The model's cost of one step of the program with these param values; `steps` is the run's
/// step count (0: the program's default).
model::Cost program_cost(const ir::Program &p, const Analysis &a,
                         const std::vector<ir::Scalar> &params, std::int64_t steps = 0);

/// The model's candidates for the target, fastest first, less the plans the target says cannot
/// run this program. Throws stencilc::Error if none is left.
std::vector<model::Prediction> plan_candidates(const ir::Program &p, const Analysis &a,
                                               const Target &t, const model::Machine &m,
                                               const std::vector<ir::Scalar> &params,
                                               int ranks = 1, std::int64_t steps = 0);

/// The same from a cost already made (explain adds the kernels' registers from ptxas to it).
std::vector<model::Prediction> plan_candidates(const ir::Program &p, const Target &t,
                                               const model::Machine &m, const model::Cost &cost,
                                               int ranks = 1);

/// The plan the model chooses for the program on the target with the machine profile `machine`
/// ("" = the calibrated one, else the target's default) and these --set (and --steps) values.
model::Prediction choose_plan(const ir::Program &p, const Analysis &a, const Target &t,
                              const std::string &machine, const stencilc::RunOptions &run);

/// Where the plan compiled into generated code came from.
enum class PlanSource {
  Model,
  ModelRegisters, // the model's, with the registers ptxas reported for the kernels (build)
  Given,
  Fallback // naive: the model chose none
};

/// The plan emit and build compile in: `given` (--plan text, over naive) if not empty, else
/// the model's choice at the program's default sizes, else naive (a param without a default
/// cannot be sized). Throws stencilc::Error for a bad --plan or one that does not apply.
stencilc::Plan plan_to_emit(const ir::Program &p, const Analysis &a, const Target &t,
                            const std::string &given, const std::string &machine,
                            PlanSource &source);

/// What the generated files say about their plan: where it came from and the model's
/// prediction for it on `machine` ("" = the default profile) at the program's default sizes,
/// or why there is none (a param without a default). Lines of text; codegen makes them a
/// comment.
std::string plan_comment(const ir::Program &p, const Analysis &a, const Target &t,
                         const std::string &machine, const stencilc::Plan &plan,
                         PlanSource source);

} // namespace stc
