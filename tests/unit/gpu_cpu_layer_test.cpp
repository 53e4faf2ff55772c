// Unit tests of the CPU execution layer of the cuda and hip targets (stencilc/gpu/cpu_layer.h),
// through the portability header the generated code uses (stencilc/gpu/device.h, which maps
// onto the layer under the host compiler): barriers and shared memory behave as on a GPU, a
// barrier some threads miss is an error naming the kernel and block instead of a hang.
#include "stencilc/gpu/device.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace {

namespace gpu = stencilc::gpu;

constexpr int kThreads = 64;

// Each block reverses its chunk of `in` through shared memory: thread t writes element t and,
// after the barrier, reads element n-1-t, written by another thread. Without a real barrier,
// thread 0 would read before thread 63 wrote.
STENCILC_KERNEL void reverse_chunks(const int *in, int *out, std::int64_t n) {
  STENCILC_SHARED(int, tile, kThreads);
  const std::int64_t i = gpu::global_index();
  const int t = gpu::thread_in_block();
  tile[t] = i < n ? in[i] : -1;
  gpu::sync_threads();
  if (i < n)
    out[i] = tile[kThreads - 1 - t];
}

// A tree sum in shared memory: log2(64) barrier phases, the order fixed by thread indices.
STENCILC_KERNEL void block_sums(const double *in, double *sums) {
  STENCILC_SHARED(double, acc, kThreads);
  const int t = gpu::thread_in_block();
  acc[t] = in[gpu::global_index()];
  gpu::sync_threads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (t < s)
      acc[t] += acc[t + s];
    gpu::sync_threads();
  }
  if (t == 0)
    sums[gpu::block_index()] = acc[0];
}

// Threads with an odd index leave before the barrier the others wait at.
STENCILC_KERNEL void missing_barrier(int *out) {
  const int t = gpu::thread_in_block();
  if (t % 2)
    return;
  gpu::sync_threads();
  out[t] = t;
}

TEST(GpuCpuLayer, SharedMemoryAndBarrier) {
  const std::int64_t n = 3 * kThreads; // whole blocks, so each chunk reverses in place
  gpu::Buffer<int> in(n), out(n);
  std::vector<int> host(n);
  std::iota(host.begin(), host.end(), 0);
  gpu::copy_to_device(in.get(), host.data(), n * sizeof(int));
  const int *pin = in.get();
  int *pout = out.get();
  STENCILC_LAUNCH(reverse_chunks, n / kThreads, kThreads, pin, pout, n);
  std::vector<int> got(n);
  gpu::copy_to_host(got.data(), out.get(), n * sizeof(int));
  for (std::int64_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], (i / kThreads) * kThreads + (kThreads - 1 - i % kThreads)) << "at " << i;
}

TEST(GpuCpuLayer, TreeReductionPerBlock) {
  const int blocks = 5;
  gpu::Buffer<double> in(blocks * kThreads), sums(blocks);
  std::vector<double> host(blocks * kThreads);
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = static_cast<double>(i % 7) + 0.5;
  gpu::copy_to_device(in.get(), host.data(), host.size() * sizeof(double));
  const double *pin = in.get();
  double *psums = sums.get();
  STENCILC_LAUNCH(block_sums, blocks, kThreads, pin, psums);
  std::vector<double> got(blocks);
  gpu::copy_to_host(got.data(), sums.get(), blocks * sizeof(double));
  for (int b = 0; b < blocks; ++b) {
    double want = 0;
    for (int t = 0; t < kThreads; ++t)
      want += host[b * kThreads + t]; // exact: small halves
    EXPECT_EQ(got[b], want) << "block " << b;
  }
}

// Thread 0 leaves before the barrier the others wait at (the layer runs the threads after a
// thread 0 that ended without a barrier on no fiber of their own).
STENCILC_KERNEL void barrier_after_thread0(int *out) {
  const int t = gpu::thread_in_block();
  if (t == 0)
    return;
  gpu::sync_threads();
  out[t] = t;
}

// No barrier at all: every thread's write lands, in every block.
STENCILC_KERNEL void no_barrier(int *out) { out[gpu::global_index()] = 2 * gpu::global_index(); }

TEST(GpuCpuLayer, KernelsWithoutBarriersRunEveryThread) {
  const int blocks = 3;
  gpu::Buffer<int> out(blocks * kThreads);
  int *p = out.get();
  STENCILC_LAUNCH(no_barrier, blocks, kThreads, p);
  std::vector<int> got(blocks * kThreads);
  gpu::copy_to_host(got.data(), out.get(), got.size() * sizeof(int));
  for (int i = 0; i < blocks * kThreads; ++i)
    ASSERT_EQ(got[i], 2 * i) << "at " << i;
}

TEST(GpuCpuLayer, BarrierThreadZeroSkipsIsReported) {
  gpu::Buffer<int> out(kThreads);
  int *p = out.get();
  try {
    STENCILC_LAUNCH(barrier_after_thread0, 2, kThreads, p);
    FAIL() << "no error for a barrier thread 0 skips";
  } catch (const stencilc::Error &e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("kernel 'barrier_after_thread0', block (0, 0, 0)"), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("not reached by every thread"), std::string::npos) << msg;
    EXPECT_NE(msg.find("threads 1 wait at it, threads 0 ended without it"), std::string::npos)
        << msg;
  }
}

TEST(GpuCpuLayer, BarrierNotReachedByAllIsReported) {
  gpu::Buffer<int> out(kThreads);
  int *p = out.get();
  try {
    STENCILC_LAUNCH(missing_barrier, 2, kThreads, p);
    FAIL() << "no error for a barrier half the threads skip";
  } catch (const stencilc::Error &e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("kernel 'missing_barrier'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("block (0, 0, 0)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("not reached by every thread"), std::string::npos) << msg;
    EXPECT_NE(msg.find("threads 0, 2, 4"), std::string::npos) << msg;
  }
}

TEST(GpuCpuLayer, BuiltinsOutsideAKernelAreAnError) {
  EXPECT_THROW(gpu::sync_threads(), stencilc::Error);
  EXPECT_THROW(gpu::global_index(), stencilc::Error);
}

TEST(GpuCpuLayer, BadBlockSizeIsAnError) {
  int *p = nullptr;
  EXPECT_THROW(STENCILC_LAUNCH(missing_barrier, 1, 2048, p), stencilc::Error);
}

TEST(GpuCpuLayer, DeviceGridMirrorsTheHostLayout) {
  stencilc::Grid<float> g("g", 2, stencilc::Extents{5, 3, 1, 1}, stencilc::Halos{1, 1, 0, 0});
  for (std::int64_t y = 0; y < 3; ++y)
    for (std::int64_t x = 0; x < 5; ++x)
      g.at(x, y) = float(10 * y + x);
  gpu::DeviceGrid<float> d(g);
  d.upload(g);
  EXPECT_EQ(d.origin()[2 + 1 * g.stride(1)], 12.0f);
  stencilc::Grid<float> back("b", 2, stencilc::Extents{5, 3, 1, 1}, stencilc::Halos{1, 1, 0, 0});
  d.download(back);
  EXPECT_EQ(back.at(4, 2), 24.0f);
  EXPECT_EQ(std::string(gpu::api()), "the CPU execution layer");
}

} // namespace
