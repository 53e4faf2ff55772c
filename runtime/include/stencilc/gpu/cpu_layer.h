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
// Checking mode (STENCILC_GPU_CHECK defined where the kernels are compiled; `stencilc build
// --cpu-layer` and verify define it): shared arrays are Checked<T>, whose every access is
// recorded, so an index outside the array or a race -- an element that one thread writes and
// another reads or writes with no barrier between -- is a stencilc::Error naming the kernel,
// the block, the thread(s), the array and the index. Not checked yet: global memory (bounds,
// byte counts per launch); every launch, index and device allocation already goes through
// this header (launch, current, device_malloc), which is where they will be recorded.
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
void *shared_alloc(std::size_t bytes, std::size_t align, std::size_t *index = nullptr);

/// Checking mode: records the calling thread's access to element i of the block's shared array
/// `index` (n elements, called `name` in the kernel); throws stencilc::Error for an index outside
/// [0, n) or a race with another thread's access since the last barrier.
void shared_access(std::size_t index, const char *name, std::int64_t i, std::int64_t n,
                   bool write);

/// A shared array in checking mode: element accesses go through shared_access.
template <typename T> class Checked {
public:
  Checked(std::int64_t n, const char *name)
      : p_(static_cast<T *>(shared_alloc(sizeof(T) * n, alignof(T), &index_))), n_(n),
        name_(name) {}
  class Ref {
  public:
    Ref(const Checked *a, std::int64_t i) : a_(a), i_(i) {}
    operator T() const {
      shared_access(a_->index_, a_->name_, i_, a_->n_, false);
      return a_->p_[i_];
    }
    Ref &operator=(T v) {
      shared_access(a_->index_, a_->name_, i_, a_->n_, true);
      a_->p_[i_] = v;
      return *this;
    }
    Ref &operator=(const Ref &r) { return *this = static_cast<T>(r); }

  private:
    const Checked *a_;
    std::int64_t i_;
  };
  Ref operator[](std::int64_t i) const { return Ref(this, i); }

private:
  T *p_;
  std::size_t index_ = 0;
  std::int64_t n_;
  const char *name_;
};

/// Runs `body` once per thread of every block (grid x block threads). Throws stencilc::Error,
/// naming `kernel`, for a block whose threads do not all reach a barrier, and rethrows the first
/// exception a kernel thread threw.
void launch(const char *kernel, Dim3 grid, Dim3 block, const std::function<void()> &body);

/// Device memory: host memory here, 64-byte aligned. device_malloc throws stencilc::Error when
/// the allocation fails.
void *device_malloc(std::size_t bytes);
void device_free(void *p) noexcept;

} // namespace stencilc::gpu::cpu_layer
