// Streams and events of the CPU execution layer (runtime/src/gpu/streams.cpp): a stream's
// operations run in order on a thread of their own; in checking mode a kernel on one stream that
// reads what a copy on another stream writes, with no event wait between, is an error whatever
// the timing, and so is a host read of a copy's destination before the host synchronized.
#define STENCILC_GPU_CHECK 1
#include "stencilc/gpu/device.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace gpu = stencilc::gpu;

// out[i] = 2 * in[i].
STENCILC_KERNEL void twice(STENCILC_GLOBAL(const float) in, STENCILC_GLOBAL(float) out,
                           std::int64_t n) {
  const std::int64_t i = gpu::global_index();
  if (i < n)
    out[i] = 2.0f * in[i];
}

constexpr std::int64_t kN = 256;

// The pipeline of an overlapped exchange, reduced: a copy to the device on the copy stream, then
// a kernel on the compute stream that reads what it copied. `wait`: the compute stream waits for
// the copy's event (the dependency); without it the kernel is unordered with the copy.
std::string pipeline(bool wait, std::vector<float> *result = nullptr) {
  std::vector<float> host(kN);
  for (std::int64_t i = 0; i < kN; ++i)
    host[static_cast<std::size_t>(i)] = static_cast<float>(i);
  gpu::Buffer<float> in(kN), out(kN);
  gpu::cpu_layer::label_allocation(in.get(), "grid 'u'");
  gpu::Stream copy, compute;
  gpu::Event copied;
  // The copy cannot finish before the kernel starts: its stream first waits here.
  std::atomic<bool> go{false};
  copy.enqueue([&](const gpu::cpu_layer::Order &) {
    while (!go.load())
      std::this_thread::yield();
  });
  gpu::copy_rows_async(in.get(), host.data(), kN * sizeof(float), kN * sizeof(float), 1, false,
                       copy, "grid 'u' (device)");
  copied.record(copy);
  if (wait)
    gpu::wait_event(compute, copied);
  const float *pi = in.get();
  float *po = out.get();
  STENCILC_LAUNCH_ON(compute, twice, gpu::blocks_for(kN, 64), 64, pi, po, kN);
  go.store(true);
  std::string msg;
  try {
    compute.synchronize();
  } catch (const stencilc::Error &e) {
    msg = e.what();
  }
  copy.synchronize();
  if (result) {
    result->assign(kN, 0.0f);
    gpu::copy_to_host(result->data(), out.get(), kN * sizeof(float));
  }
  return msg;
}

TEST(GpuStreams, KernelAfterAnEventWaitSeesTheCopy) {
  std::vector<float> out;
  EXPECT_EQ(pipeline(true, &out), "");
  for (std::int64_t i = 0; i < kN; ++i)
    ASSERT_EQ(out[static_cast<std::size_t>(i)], 2.0f * static_cast<float>(i));
}

TEST(GpuStreams, MissingEventWaitIsReported) {
  const std::string msg = pipeline(false);
  EXPECT_NE(msg.find("kernel 'twice', block (0, 0, 0), thread (0, 0, 0): reads grid 'u' "
                     "(device) while a copy to it on stream "),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("is not known complete (a missing event wait or synchronize)"),
            std::string::npos)
      << msg;
}

TEST(GpuStreams, HostReadBeforeSynchronizeIsReported) {
  gpu::Buffer<float> dev(kN);
  gpu::set_zero(dev.get(), kN * sizeof(float));
  std::vector<float> host(kN, 1.0f);
  gpu::Stream copy;
  gpu::copy_rows_async(host.data(), dev.get(), kN * sizeof(float), kN * sizeof(float), 1, true,
                       copy, "grid 'u' (host)");
  std::string msg;
  try {
    gpu::host_ready(host.data() + 10, sizeof(float), "grid 'u'");
  } catch (const stencilc::Error &e) {
    msg = e.what();
  }
  EXPECT_NE(msg.find("the host reads grid 'u': grid 'u' (host) while a copy to it on stream "),
            std::string::npos)
      << msg;
  copy.synchronize();
  EXPECT_NO_THROW(gpu::host_ready(host.data() + 10, sizeof(float), "grid 'u'"));
  EXPECT_EQ(host[10], 0.0f);
}

TEST(GpuStreams, OperationsOfAStreamRunInOrderOnItsOwnThread) {
  gpu::Stream s;
  std::vector<int> order;
  std::thread::id where;
  for (int i = 0; i < 50; ++i)
    s.enqueue([&, i](const gpu::cpu_layer::Order &) {
      order.push_back(i);
      where = std::this_thread::get_id();
    });
  s.synchronize();
  ASSERT_EQ(order.size(), 50u);
  for (int i = 0; i < 50; ++i)
    EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
  EXPECT_NE(where, std::this_thread::get_id());
}

TEST(GpuStreams, AnErrorOnAStreamIsRethrownBySynchronize) {
  gpu::Stream s;
  bool after = false;
  s.enqueue([](const gpu::cpu_layer::Order &) { throw stencilc::Error("boom"); });
  s.enqueue([&](const gpu::cpu_layer::Order &) { after = true; });
  EXPECT_THROW(s.synchronize(), stencilc::Error);
  EXPECT_FALSE(after); // the stream's later work is skipped
}

} // namespace
