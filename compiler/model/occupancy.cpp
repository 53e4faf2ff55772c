#include "model/occupancy.h"

#include <algorithm>

namespace stc::model {

namespace {

int roundUp(int v, int unit) { return unit > 0 ? (v + unit - 1) / unit * unit : v; }

} // namespace

Occupancy occupancy(const SmLimits &sm, int registers_per_thread, int threads_per_block,
                    long shared_bytes_per_block) {
  Occupancy o;
  if (threads_per_block <= 0 || sm.max_threads_per_sm <= 0)
    return o;
  const int warps = (threads_per_block + sm.warp_size - 1) / sm.warp_size;
  // Registers: allocated per warp, rounded up to the granularity; blocks are whole.
  const int regs_per_warp =
      roundUp(std::max(1, registers_per_thread) * sm.warp_size, sm.register_granularity);
  const int by_registers = sm.registers_per_sm / regs_per_warp / warps;
  const int by_threads = sm.max_threads_per_sm / (warps * sm.warp_size);
  const int by_shared = sm.shared_bytes_per_sm > 0 && shared_bytes_per_block > 0
                            ? static_cast<int>(sm.shared_bytes_per_sm / shared_bytes_per_block)
                            : sm.max_blocks_per_sm;
  o.blocks_per_sm = sm.max_blocks_per_sm;
  o.limit = "blocks";
  const auto tighter = [&](int n, const char *why) {
    if (n < o.blocks_per_sm) {
      o.blocks_per_sm = n;
      o.limit = why;
    }
  };
  tighter(by_threads, "threads");
  tighter(by_shared, "shared memory");
  tighter(by_registers, "registers");
  o.fraction = static_cast<double>(o.blocks_per_sm * warps * sm.warp_size) / sm.max_threads_per_sm;
  return o;
}

} // namespace stc::model
