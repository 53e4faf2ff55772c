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
// Thread 0 runs first; where it ends without a barrier, the others run one after another with
// no fiber of their own (a kernel without barriers: most), and one of them reaching a barrier
// is that error.
//
// Checking mode (STENCILC_GPU_CHECK defined where the kernels are compiled; `stencilc build
// --cpu-layer` and verify define it): shared arrays are Checked<T>, whose every access is
// recorded, so an index outside the array or a race -- an element that one thread writes and
// another reads or writes with no barrier between -- is a stencilc::Error naming the kernel,
// the block, the thread(s), the array and the index. Pointers into device memory that kernels
// take are Global<T> there (STENCILC_GLOBAL in device.h): every element access is checked
// against the device allocation it points into (an Error naming the kernel, block, thread,
// allocation and offset) and, when traffic counting is on (STENCILC_GPU_TRAFFIC=FILE, or
// set_counting), counted: the distinct bytes each launch reads and writes, and the distinct
// bytes each block reads and writes summed over the blocks (what a launch moves when nothing
// is shared between blocks), per kernel name.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

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
  // index_ before p_: shared_alloc, which initialises p_, writes it (a default member
  // initializer after p_ would then reset it to 0, and every array would be checked as the first).
  std::size_t index_;
  T *p_;
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
/// Names the allocation at `p` in checking-mode messages (e.g. "grid 'u'").
void label_allocation(const void *p, const std::string &label);

/// A device allocation, as checking mode knows it (opaque).
struct Allocation;
/// The allocation that holds address `p`, or nullptr.
const Allocation *find_allocation(const void *p);

/// Checking mode: the calling kernel thread accesses `bytes` bytes at `address` through a
/// pointer into allocation `a`; throws stencilc::Error when they are not all inside it, and
/// counts them when counting is on.
void global_access(const Allocation *a, std::uintptr_t address, std::size_t bytes, bool write);

/// A pointer into device memory in checking mode: arithmetic as a T*, every element access
/// checked by global_access. Converts from T* (a kernel argument) by finding its allocation.
template <typename T> class Global {
public:
  Global(T *p) : a_(find_allocation(p)), at_(reinterpret_cast<std::uintptr_t>(p)) {}
  Global operator+(std::int64_t i) const { return Global(a_, at_ + i * std::int64_t(sizeof(T))); }
  Global operator-(std::int64_t i) const { return *this + (-i); }
  class Ref {
  public:
    Ref(const Allocation *a, std::uintptr_t at) : a_(a), at_(at) {}
    operator T() const {
      global_access(a_, at_, sizeof(T), false);
      return *reinterpret_cast<const T *>(at_);
    }
    template <typename V> const Ref &operator=(V v) const {
      global_access(a_, at_, sizeof(T), true);
      *reinterpret_cast<T *>(at_) = static_cast<T>(v);
      return *this;
    }
    const Ref &operator=(const Ref &r) const { return *this = static_cast<T>(r); }

  private:
    const Allocation *a_;
    std::uintptr_t at_;
  };
  Ref operator[](std::int64_t i) const { return Ref(a_, at_ + i * std::int64_t(sizeof(T))); }

private:
  Global(const Allocation *a, std::uintptr_t at) : a_(a), at_(at) {}
  const Allocation *a_;
  std::uintptr_t at_; // an address, not a pointer: it may point outside until accessed
};

/// Streams and events with CUDA's ordering rules (streams.cpp): a Stream runs its operations in
/// order on a host thread of its own; another stream's work is ordered before them only through
/// an Event they wait for (stream_wait), and the host knows them complete only after
/// Stream::synchronize or Event::synchronize. Checking mode follows that ordering, not the
/// threads' timing: a kernel (launch_on, or a synchronous launch, which knows what the host
/// knows) that touches the destination of a copy_async it is not ordered after, or a host read
/// (host_access) of one the host has not synchronized with, is a stencilc::Error.
struct Order; // per stream, how many of its operations are known complete
class Event;
class Stream {
public:
  Stream();
  ~Stream(); // runs what is queued, then stops
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  int id() const;
  /// Queues `op`, called with what it knows complete when it runs.
  void enqueue(std::function<void(const Order &)> op);
  std::uint64_t queued() const;
  /// Waits for every operation queued so far; rethrows the first exception one threw (the
  /// stream's later operations were skipped).
  void synchronize();

private:
  friend class Event;
  friend void stream_wait(Stream &s, const Event &e);
  friend void copy_async(Stream &s, void *dst, const void *src, std::size_t width,
                         std::size_t pitch, std::size_t height, const char *what);
  struct State;
  std::unique_ptr<State> s_;
};
class Event {
public:
  /// Marks the work queued on `s` so far (cudaEventRecord).
  void record(Stream &s);
  /// The host waits for it (cudaEventSynchronize).
  void synchronize();

private:
  friend void stream_wait(Stream &s, const Event &e);
  Stream *stream_ = nullptr;
  std::uint64_t target_ = 0;
  std::shared_ptr<Order> known_;
};
/// Later work on `s` waits for the event's work (cudaStreamWaitEvent).
void stream_wait(Stream &s, const Event &e);
/// A launch queued on `s` (body called with the arguments already evaluated).
void launch_on(Stream &s, const char *kernel, Dim3 grid, Dim3 block, std::function<void()> body);
/// `height` rows of `width` bytes, `pitch` apart on both sides, queued on `s` (device to host
/// or back); `what` names the destination in checking-mode messages.
void copy_async(Stream &s, void *dst, const void *src, std::size_t width, std::size_t pitch,
                std::size_t height, const char *what);
/// Checking mode: throws if the host reads [p, p + bytes) while a copy to it is not known
/// complete to the host.
void host_access(const void *p, std::size_t bytes, const char *what);
/// (Internal: the ordering the calling thread's kernel knows, null for the host's; and why
/// touching [address, address + bytes) then is unordered with a copy, or "".)
const Order *&thread_order();
std::string unordered_copy(const Order *known, std::uintptr_t address, std::size_t bytes);

/// Global-memory traffic of every launch of one kernel (checking mode with counting on).
struct KernelTraffic {
  std::string kernel;
  std::int64_t launches = 0, threads = 0;
  std::int64_t read_bytes = 0, written_bytes = 0;             // distinct per launch, summed
  std::int64_t block_read_bytes = 0, block_written_bytes = 0; // distinct per block, summed
};
/// Turns counting on or off (on at start when STENCILC_GPU_TRAFFIC names a file; at exit the
/// counts are written there, a JSON object per kernel and line).
void set_counting(bool on);
/// The counts so far, in the order the kernels were first launched; reset_traffic clears them.
std::vector<KernelTraffic> traffic();
void reset_traffic();

} // namespace stencilc::gpu::cpu_layer
