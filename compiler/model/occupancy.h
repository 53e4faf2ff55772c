// GPU occupancy from a kernel's resource use, as CUDA's occupancy calculator (and AN5D) compute
// it: resident blocks per SM are limited by registers, threads, shared memory and the block
// limit; occupancy is resident threads over the SM's maximum. The model uses it when explain is
// given the kernels' registers (--ptxas; model.cpp registers_limit, docs/MODEL.md §3.4).
#pragma once

namespace stc::model {

struct SmLimits {
  int registers_per_sm = 65536;  // 32-bit registers in an SM's register file
  int max_threads_per_sm = 2048; // resident threads
  int max_blocks_per_sm = 32;    // resident blocks
  long shared_bytes_per_sm = 0;  // 0: shared memory does not limit
  int warp_size = 32;
  int register_granularity = 256; // registers are allocated per warp in units of this
};

struct Occupancy {
  int blocks_per_sm = 0;  // resident blocks; 0 when one block does not fit
  double fraction = 0;    // resident threads / max_threads_per_sm
  const char *limit = ""; // "registers", "threads", "shared memory" or "blocks"
};

Occupancy occupancy(const SmLimits &sm, int registers_per_thread, int threads_per_block,
                    long shared_bytes_per_block);

} // namespace stc::model
