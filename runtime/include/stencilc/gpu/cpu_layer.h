// The CPU execution layer: runs CUDA/HIP-style kernels on the host, so that the code the cuda
// and hip targets generate also runs (and is checked) where there is no GPU. Generated code
// does not call this header directly: stencilc/gpu/device.h maps its portable names onto it
// when the host C++ compiler (not nvcc or hipcc) compiles the code.
//
// A launch runs every block of the grid; the blocks run on OpenMP threads, the threads of one
// block as fibers (Boost.Context) on one OS thread, taking turns. A thread runs until it
// reaches a barrier (sync_threads) or ends; once every thread of the block waits at the
// barrier, all go on. So __syncthreads is a real barrier and __shared__ memory is one array
// per block, as on a GPU. A block whose threads do not all reach a barrier (some ended) is
// reported as a stencilc::Error naming the kernel, the block and the threads, not left to hang.
//
// Room to grow (later: a checking mode): every launch goes through launch(), every thread's
// state through current(), every shared allocation through shared_alloc(), every device
// allocation through device_malloc(), which is where byte counts of global memory, bounds of
// global and shared accesses and shared races between barriers will be recorded.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>

namespace stencilc::gpu::cpu_layer {

/// CUDA's dim3.
struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr Dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

struct Block;

/// What a running kernel thread sees: its indices and the launch's shape.
struct ThreadState {
  Dim3 thread_idx, block_idx, block_dim, grid_dim;
  Block *block = nullptr;
  std::size_t shared_calls = 0; // shared_alloc calls so far (the n-th call gets the n-th array)
};

/// The calling kernel thread's state; only valid inside a kernel run by launch().
ThreadState &current();

/// __syncthreads: waits until every thread of the block has reached a barrier.
void sync_threads();

/// __shared__ T name[n]: the block's n-th shared array (n = how many this thread asked for
/// before), `bytes` long, allocated by the first thread that asks, uninitialised (filled with a
/// pattern, as a GPU's would hold garbage). Every thread of a block must ask for the same sizes
/// in the same order (a stencilc::Error otherwise).
void *shared_alloc(std::size_t bytes, std::size_t align);

/// Runs `body` once per thread of every block (grid x block threads). Throws stencilc::Error,
/// naming `kernel`, for a block whose threads do not all reach a barrier, and rethrows the first
/// exception a kernel thread threw.
void launch(const char *kernel, Dim3 grid, Dim3 block, const std::function<void()> &body);

/// Device memory: host memory here, 64-byte aligned. device_malloc throws stencilc::Error when
/// the allocation fails.
void *device_malloc(std::size_t bytes);
void device_free(void *p) noexcept;

} // namespace stencilc::gpu::cpu_layer
