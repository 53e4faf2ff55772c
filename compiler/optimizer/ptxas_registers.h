// The registers ptxas reported for a program's kernels, into the model's cost: its occupancy
// term (AN5D's use of ptxas). explain --ptxas reads them from a log; build --target cuda from
// its own compile (-Xptxas -v), and rebuilds when they change the model's choice.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "model/model.h"
#include "target/ptxas_usage.h"

namespace stc {

/// Adds the registers and spills of the program's sweep kernels compiled for `arch` ("" = any)
/// to the cost (the widest instance of each plan's kernel: naive, streaming, each temporal
/// instance). Returns whether any kernel of the program was found; `archs` receives every
/// architecture the usage holds.
bool add_ptxas_registers(const ir::Program &p,
                         const std::vector<stencilc::target::KernelUsage> &usage,
                         const std::string &arch, model::Cost &cost,
                         std::set<std::string> *archs = nullptr);

} // namespace stc
