// The CPU execution layer's checking mode (stencilc/gpu/cpu_layer.h, STENCILC_GPU_CHECK): shared
// memory read outside its array, a shared race between barriers and a global access outside its
// device allocation are errors that name the kernel, the block, the thread(s), the array or
// allocation and the index; correct kernels run unchanged; global traffic is counted per launch
// and per block.
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

// Two shared arrays: thread t writes element t of one and element 31 - t of the other, which is
// no race (each array is checked on its own).
STENCILC_KERNEL void two_arrays(int *out) {
  STENCILC_SHARED(int, a, kThreads);
  STENCILC_SHARED(int, b, kThreads);
  const int t = gpu::thread_in_block();
  a[t] = t;
  b[kThreads - 1 - t] = t;
  gpu::sync_threads();
  out[t] = a[t] + b[t];
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

TEST(GpuCheck, SharedArraysAreCheckedEachOnItsOwn) {
  EXPECT_EQ(error_of(two_arrays, "two_arrays"), "");
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

// Global memory: a 3-point average over n points of `in` (n + 2 long) into `out`.
STENCILC_KERNEL void average(STENCILC_GLOBAL(const float) in, STENCILC_GLOBAL(float) out,
                             std::int64_t n) {
  const std::int64_t i = gpu::global_index();
  if (i >= n)
    return;
  STENCILC_ROW(const float) c = in + 1;
  out[i] = (c[i - 1] + c[i] + c[i + 1]) / 3.0f;
}

TEST(GpuCheck, GlobalReadOutOfBoundsIsLocated) {
  gpu::Buffer<float> in(34), out(32);
  gpu::cpu_layer::label_allocation(in.get(), "grid 'u'");
  const float *pi = in.get();
  float *po = out.get();
  std::string msg;
  try {
    // 33 points: thread 32 of block 1 (the 33rd) reads in[34], one past the end.
    STENCILC_LAUNCH(average, 2, 32, pi, po, std::int64_t(33));
  } catch (const stencilc::Error &e) {
    msg = e.what();
  }
  EXPECT_EQ(msg, "kernel 'average', block (1, 0, 0), thread (0, 0, 0): global memory read at "
                 "byte offset 136 (4 bytes), outside grid 'u' of 136 bytes");
}

TEST(GpuCheck, GlobalWriteOutsideIsLocated) {
  gpu::Buffer<float> in(40), out(32);
  const float *pi = in.get();
  float *po = out.get();
  gpu::set_zero(in.get(), 40 * sizeof(float));
  std::string msg;
  try {
    STENCILC_LAUNCH(average, 2, 32, pi, po, std::int64_t(33));
  } catch (const stencilc::Error &e) {
    msg = e.what();
  }
  EXPECT_EQ(msg, "kernel 'average', block (1, 0, 0), thread (0, 0, 0): global memory written "
                 "at byte offset 128 (4 bytes), outside a device allocation of 128 bytes");
}

// Writes its point, then reads it back: the read comes from the write, not from memory.
STENCILC_KERNEL void write_then_read(STENCILC_GLOBAL(float) a, STENCILC_GLOBAL(float) b) {
  const std::int64_t i = gpu::global_index();
  a[i] = 1.0f;
  b[i] = a[i] * 2.0f;
}

TEST(GpuCheck, TrafficIsCountedPerLaunchAndPerBlock) {
  gpu::cpu_layer::set_counting(true);
  gpu::cpu_layer::reset_traffic();
  gpu::Buffer<float> in(130), out(128), a(64), b(64);
  gpu::set_zero(in.get(), 130 * sizeof(float));
  const float *pi = in.get();
  float *po = out.get(), *pa = a.get(), *pb = b.get();
  STENCILC_LAUNCH(average, 4, 32, pi, po, std::int64_t(128));
  STENCILC_LAUNCH(average, 4, 32, pi, po, std::int64_t(128));
  STENCILC_LAUNCH(write_then_read, 2, 32, pa, pb);
  const auto t = gpu::cpu_layer::traffic();
  gpu::cpu_layer::set_counting(false);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].kernel, "average");
  EXPECT_EQ(t[0].launches, 2);
  EXPECT_EQ(t[0].threads, 256);
  // Each launch reads the 130 inputs once and writes the 128 outputs once; each block of 32
  // reads its 32 points and one more on each side.
  EXPECT_EQ(t[0].read_bytes, 2 * 130 * 4);
  EXPECT_EQ(t[0].written_bytes, 2 * 128 * 4);
  EXPECT_EQ(t[0].block_read_bytes, 2 * 4 * 34 * 4);
  EXPECT_EQ(t[0].block_written_bytes, 2 * 128 * 4);
  EXPECT_EQ(t[1].kernel, "write_then_read");
  EXPECT_EQ(t[1].read_bytes, 0);
  EXPECT_EQ(t[1].written_bytes, 2 * 64 * 4);
  EXPECT_EQ(t[1].block_read_bytes, 0);
}

} // namespace
