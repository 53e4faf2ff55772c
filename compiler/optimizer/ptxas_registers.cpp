#include "optimizer/ptxas_registers.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace stc {

bool add_ptxas_registers(const ir::Program &p,
                         const std::vector<stencilc::target::KernelUsage> &usage,
                         const std::string &arch, model::Cost &cost, std::set<std::string> *archs) {
  bool found = false;
  const auto add = [&](model::KernelRegisters &regs, const stencilc::target::KernelUsage &u) {
    found = true;
    regs.registers = std::max(regs.registers, u.registers);
    regs.spill_bytes =
        std::max(regs.spill_bytes, static_cast<double>(u.spillStoreBytes + u.spillLoadBytes));
  };
  for (const auto &u : usage) {
    if (archs)
      archs->insert(u.arch);
    if (!arch.empty() && u.arch != arch)
      continue;
    for (const auto &k : p.kernels) {
      for (auto [suffix, regs] :
           {std::pair{"__dev", &cost.naive_kernel}, std::pair{"__stream", &cost.stream_kernel}})
        if (u.kernel.find("kernel__" + k.name + suffix) != std::string::npos)
          add(*regs, u);
      // kernel__K__temporal_reg<k> (mangled temporal_regILi<k>EE) and kernel__K__temporal.
      const std::string reg = "kernel__" + k.name + "__temporal_regILi";
      const auto at = u.kernel.find(reg);
      if (at != std::string::npos)
        add(cost.temporal_kernels[std::atoi(u.kernel.c_str() + at + reg.size())], u);
      else if (u.kernel.find("kernel__" + k.name + "__temporal") != std::string::npos)
        add(cost.temporal_kernels[0], u);
    }
  }
  return found;
}

} // namespace stc
