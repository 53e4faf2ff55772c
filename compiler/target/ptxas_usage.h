// Per-kernel resource usage from `nvcc -Xptxas -v` output: registers, spill bytes and shared
// memory for each (kernel, architecture). Used by the toolchain test to fail a plan that spills,
// and meant to feed the model's occupancy term (docs/GPU.md, "ptxas").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace stencilc::target {

struct KernelUsage {
  std::string kernel; // mangled entry name as ptxas prints it
  std::string arch;   // e.g. "sm_80"
  int registers = 0;
  long spillStoreBytes = 0;
  long spillLoadBytes = 0;
  long stackFrameBytes = 0;
  long sharedBytes = 0; // static shared memory ("smem")

  bool spills() const { return spillStoreBytes > 0 || spillLoadBytes > 0; }
};

// Parses the "Compiling entry function", "N bytes stack frame, N bytes spill stores, N bytes
// spill loads" and "Used N registers, ... N bytes smem" lines. Lines it does not know are
// ignored; a kernel whose "Used" line is missing is still returned with registers = 0.
std::vector<KernelUsage> parsePtxasUsage(std::string_view text);

// One line per spilling kernel: "KERNEL (ARCH): N bytes spill stores, M bytes spill loads";
// empty when nothing spills.
std::vector<std::string> spillReport(const std::vector<KernelUsage> &usage);

} // namespace stencilc::target
