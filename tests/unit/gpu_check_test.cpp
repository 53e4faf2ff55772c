// The CPU execution layer's checking mode (stencilc/gpu/cpu_layer.h, STENCILC_GPU_CHECK): shared
// memory read outside its array and a shared race between barriers are errors that name the
// kernel, the block, the thread(s), the array and the index; correct kernels run unchanged.
#define STENCILC_GPU_CHECK 1
#include "stencilc/gpu/device.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

namespace gpu = stencilc::gpu;

constexpr int kThreads = 32;

// Correct: each thread writes its element, and after the barrier reads its neighbour's.
STENCILC_KERNEL void rotate(int *out) {
  STENCILC_SHARED(int, tile, kThreads);
  const int t = gpu::thread_in_block();
  tile[t] = t;
  gpu::sync_threads();
  out[t] = tile[(t + 1) % kThreads];
}

// One past the end: thread 31 reads tile[32].
STENCILC_KERNEL void read_past_end(int *out) {
  STENCILC_SHARED(int, tile, kThreads);
  const int t = gpu::thread_in_block();
  tile[t] = t;
  gpu::sync_threads();
  out[t] = tile[t + 1];
}

// The barrier is missing: each thread reads the element its neighbour writes in the same phase.
STENCILC_KERNEL void race(int *out) {
  STENCILC_SHARED(int, tile, kThreads);
  const int t = gpu::thread_in_block();
  tile[t] = t;
  out[t] = tile[(t + 1) % kThreads];
}

// Two threads write the same element in one phase.
STENCILC_KERNEL void write_write(int *) {
  STENCILC_SHARED(int, flag, 1);
  flag[0] = gpu::thread_in_block();
}

std::string error_of(void (*kernel)(int *), const char *name) {
  gpu::Buffer<int> out(kThreads);
  int *p = out.get();
  try {
    stencilc::gpu::cpu_layer::launch(name, 2, kThreads, [=] { kernel(p); });
  } catch (const stencilc::Error &e) {
    return e.what();
  }
  return "";
}

TEST(GpuCheck, CorrectKernelPasses) {
  gpu::Buffer<int> out(kThreads);
  int *p = out.get();
  STENCILC_LAUNCH(rotate, 1, kThreads, p);
  std::vector<int> got(kThreads);
  gpu::copy_to_host(got.data(), out.get(), kThreads * sizeof(int));
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(got[t], (t + 1) % kThreads);
}

TEST(GpuCheck, SharedReadOutOfBoundsIsLocated) {
  const std::string msg = error_of(read_past_end, "read_past_end");
  EXPECT_EQ(msg, "kernel 'read_past_end', block (0, 0, 0), thread (31, 0, 0): shared array "
                 "'tile' read at index 32, outside [0, 32)");
}

TEST(GpuCheck, SharedRaceIsLocated) {
  // Thread 0 runs first and reads element 1 before thread 1 writes it: the write is the race.
  const std::string msg = error_of(race, "race");
  EXPECT_EQ(msg, "kernel 'race', block (0, 0, 0): shared array 'tile' element 1 is read by "
                 "thread 0 and written by thread 1 with no barrier between (a race; threads "
                 "numbered x fastest)");
}

TEST(GpuCheck, SharedWriteWriteIsLocated) {
  const std::string msg = error_of(write_write, "write_write");
  EXPECT_EQ(msg, "kernel 'write_write', block (0, 0, 0): shared array 'flag' element 0 is "
                 "written by thread 0 and written by thread 1 with no barrier between (a race; "
                 "threads numbered x fastest)");
}

} // namespace
