// The portability header of the cuda and hip targets: everything the generated GPU code uses,
// under portable names, mapped onto CUDA (compiled by nvcc), HIP (compiled by hipcc) or the
// CPU execution layer (stencilc/gpu/cpu_layer.h, compiled by the host C++ compiler). The
// generated code is the same text for all three; it never writes `<<<...>>>`, a CUDA or HIP
// API name, or anything only one of them understands. This header is the only difference
// between the cuda and the hip target's output.
//
//   STENCILC_KERNEL            a kernel (__global__)
//   STENCILC_SHARED(T, a, n)   T a[n] in the block's shared memory (__shared__)
//   STENCILC_GLOBAL(T)         a pointer to T in device memory (a kernel argument: T *)
//   STENCILC_ROW(T)            a row pointer into device memory (T *__restrict)
//   STENCILC_LAUNCH(k, blocks, threads, args...)  a 1-D launch of kernel k, checked
//   STENCILC_LAUNCH_SHARED(k, blocks, threads, bytes, args...)  a launch with `bytes` of
//                              dynamic shared memory; blocks and threads are gpu::Dims
//   STENCILC_DYNAMIC_SHARED(T, a, offset, n)  T a[n] at byte `offset` of the dynamic shared
//                              memory (offsets aligned to 16 bytes by the caller)
//   gpu::global_index(), thread_in_block(), block_index()   1-D indices
//   gpu::thread_x(), thread_y(), block_x(), block_y(), block_z()  3-D indices; gpu::Dims
//   gpu::sync_threads()        __syncthreads
//   STENCILC_UNROLL            `#pragma unroll` before a loop of constant trip count (the CPU
//                              layer leaves the loop to the host compiler)
//   gpu::Buffer<T>, gpu::DeviceGrid<T>   device memory: allocation, copies, freed by RAII
//   gpu::check(status, call)   a failed runtime call as stencilc::Error "CALL: MESSAGE"
//
// Every runtime call is checked: a failure throws stencilc::Error naming the call and the
// runtime's message.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include "stencilc/error.h"
#include "stencilc/grid.h"

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define STENCILC_GPU_API "CUDA"
#define STENCILC_GPU_RUNTIME_CALL(x) cuda##x
#elif defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define STENCILC_GPU_API "HIP"
#define STENCILC_GPU_RUNTIME_CALL(x) hip##x
#else
#include "stencilc/gpu/cpu_layer.h"
#define STENCILC_GPU_CPU_LAYER 1
#define STENCILC_GPU_API "the CPU execution layer"
#endif

#if defined(STENCILC_GPU_CPU_LAYER)
#define STENCILC_KERNEL static
// The most threads a kernel's blocks have (a device compiler allocates registers for them).
#define STENCILC_BOUNDS(threads)
#if defined(STENCILC_GPU_CHECK)
// Checking mode: every element access is checked for bounds and races (cpu_layer.h).
#define STENCILC_SHARED(T, name, n) const ::stencilc::gpu::cpu_layer::Checked<T> name((n), #name)
// Global memory through checked pointers: bounds, and the traffic counts.
#define STENCILC_GLOBAL(T) ::stencilc::gpu::cpu_layer::Global<T>
#define STENCILC_ROW(T) ::stencilc::gpu::cpu_layer::Global<T>
#else
#define STENCILC_GLOBAL(T) T *
#define STENCILC_ROW(T) T *__restrict
#define STENCILC_SHARED(T, name, n)                                                                \
  T *const name = static_cast<T *>(::stencilc::gpu::cpu_layer::shared_alloc(sizeof(T) * (n),       \
                                                                            alignof(T)))
#endif
// The launch runs the blocks before it returns, so the arguments are taken by reference and
// each thread evaluates them when it calls the kernel (by value, as a real launch passes them).
#define STENCILC_LAUNCH(kernel, blocks, threads, ...)                                              \
  ::stencilc::gpu::cpu_layer::launch(#kernel, ::stencilc::gpu::cpu_layer::Dim3(blocks),           \
                                     ::stencilc::gpu::cpu_layer::Dim3(threads),                   \
                                     [&] { kernel(__VA_ARGS__); })
// Dynamic shared memory: each array is allocated as a static one is (its size is known when
// the kernel runs); the launch's byte count is what a device would reserve.
#define STENCILC_LAUNCH_SHARED(kernel, blocks, threads, bytes, ...)                                \
  STENCILC_LAUNCH(kernel, blocks, threads, __VA_ARGS__)
#define STENCILC_DYNAMIC_SHARED(T, name, offset, n) STENCILC_SHARED(T, name, n)
// On a stream the launch runs later, on the stream's thread: the arguments are evaluated now.
#define STENCILC_LAUNCH_ON(stream, kernel, blocks, threads, ...)                                   \
  ::stencilc::gpu::cpu_layer::launch_on(                                                           \
      (stream), #kernel, ::stencilc::gpu::cpu_layer::Dim3(blocks),                                 \
      ::stencilc::gpu::cpu_layer::Dim3(threads),                                                   \
      [args__ = std::make_tuple(__VA_ARGS__)] { std::apply(kernel, args__); })
#define STENCILC_LAUNCH_SHARED_ON(stream, kernel, blocks, threads, bytes, ...)                     \
  STENCILC_LAUNCH_ON(stream, kernel, blocks, threads, __VA_ARGS__)
#define STENCILC_UNROLL
#else
#define STENCILC_KERNEL static __global__
#define STENCILC_BOUNDS(threads) __launch_bounds__(threads)
#define STENCILC_UNROLL _Pragma("unroll")
#define STENCILC_SHARED(T, name, n) __shared__ T name[n]
#define STENCILC_GLOBAL(T) T *
#define STENCILC_ROW(T) T *__restrict
// The dynamic shared memory of a block: one buffer, the arrays at offsets within it.
#define STENCILC_DYNAMIC_SHARED(T, name, offset, n)                                                \
  extern __shared__ __align__(16) unsigned char stencilc_dynamic_shared__[];                       \
  T *const name = reinterpret_cast<T *>(stencilc_dynamic_shared__ + (offset))
#if defined(__CUDACC__)
#define STENCILC_LAUNCH(kernel, blocks, threads, ...)                                              \
  do {                                                                                             \
    kernel<<<dim3(blocks), dim3(threads)>>>(__VA_ARGS__);                                          \
    ::stencilc::gpu::check(cudaGetLastError(), "launch of kernel " #kernel);                       \
  } while (0)
#define STENCILC_LAUNCH_ON(stream, kernel, blocks, threads, ...)                                   \
  do {                                                                                             \
    kernel<<<dim3(blocks), dim3(threads), 0, (stream).get()>>>(__VA_ARGS__);                       \
    ::stencilc::gpu::check(cudaGetLastError(), "launch of kernel " #kernel);                       \
  } while (0)
// Past 48 KiB a kernel must be allowed more dynamic shared memory first; on the default
// stream (0) or a Stream's.
#define STENCILC_LAUNCH_SHARED_RAW__(raw, kernel, blocks, threads, bytes, ...)                     \
  do {                                                                                             \
    if ((bytes) > 48 * 1024)                                                                       \
      ::stencilc::gpu::check(cudaFuncSetAttribute(kernel,                                          \
                                                  cudaFuncAttributeMaxDynamicSharedMemorySize,     \
                                                  static_cast<int>(bytes)),                        \
                             "cudaFuncSetAttribute of kernel " #kernel);                           \
    kernel<<<dim3(blocks), dim3(threads), (bytes), (raw)>>>(__VA_ARGS__);                          \
    ::stencilc::gpu::check(cudaGetLastError(), "launch of kernel " #kernel);                       \
  } while (0)
#define STENCILC_LAUNCH_SHARED(kernel, blocks, threads, bytes, ...)                                \
  STENCILC_LAUNCH_SHARED_RAW__(0, kernel, blocks, threads, bytes, __VA_ARGS__)
#define STENCILC_LAUNCH_SHARED_ON(stream, kernel, blocks, threads, bytes, ...)                     \
  STENCILC_LAUNCH_SHARED_RAW__((stream).get(), kernel, blocks, threads, bytes, __VA_ARGS__)
#else
#define STENCILC_LAUNCH(kernel, blocks, threads, ...)                                              \
  do {                                                                                             \
    hipLaunchKernelGGL(kernel, dim3(blocks), dim3(threads), 0, 0, __VA_ARGS__);                    \
    ::stencilc::gpu::check(hipGetLastError(), "launch of kernel " #kernel);                        \
  } while (0)
#define STENCILC_LAUNCH_ON(stream, kernel, blocks, threads, ...)                                   \
  do {                                                                                             \
    hipLaunchKernelGGL(kernel, dim3(blocks), dim3(threads), 0, (stream).get(), __VA_ARGS__);       \
    ::stencilc::gpu::check(hipGetLastError(), "launch of kernel " #kernel);                        \
  } while (0)
#define STENCILC_LAUNCH_SHARED_RAW__(raw, kernel, blocks, threads, bytes, ...)                     \
  do {                                                                                             \
    if ((bytes) > 64 * 1024)                                                                       \
      ::stencilc::gpu::check(hipFuncSetAttribute(reinterpret_cast<const void *>(&kernel),          \
                                                 hipFuncAttributeMaxDynamicSharedMemorySize,       \
                                                 static_cast<int>(bytes)),                         \
                             "hipFuncSetAttribute of kernel " #kernel);                            \
    hipLaunchKernelGGL(kernel, dim3(blocks), dim3(threads), (bytes), (raw), __VA_ARGS__);          \
    ::stencilc::gpu::check(hipGetLastError(), "launch of kernel " #kernel);                        \
  } while (0)
#define STENCILC_LAUNCH_SHARED(kernel, blocks, threads, bytes, ...)                                \
  STENCILC_LAUNCH_SHARED_RAW__(0, kernel, blocks, threads, bytes, __VA_ARGS__)
#define STENCILC_LAUNCH_SHARED_ON(stream, kernel, blocks, threads, bytes, ...)                     \
  STENCILC_LAUNCH_SHARED_RAW__((stream).get(), kernel, blocks, threads, bytes, __VA_ARGS__)
#endif
#endif

namespace stencilc::gpu {

/// "CUDA", "HIP" or "the CPU execution layer": what this code was compiled for.
inline const char *api() { return STENCILC_GPU_API; }
/// Whether the code is compiled for HIP (its MPI's device awareness is ROCm's).
#if defined(__HIPCC__)
constexpr bool kHip = true;
#else
constexpr bool kHip = false;
#endif

#if defined(STENCILC_GPU_CPU_LAYER)
inline std::int64_t global_index() {
  const auto &t = cpu_layer::current();
  return std::int64_t(t.block_idx.x) * t.block_dim.x + t.thread_idx.x;
}
inline int thread_in_block() { return int(cpu_layer::current().thread_idx.x); }
inline std::int64_t block_index() { return cpu_layer::current().block_idx.x; }
using Dims = cpu_layer::Dim3;
inline int thread_x() { return int(cpu_layer::current().thread_idx.x); }
inline int thread_y() { return int(cpu_layer::current().thread_idx.y); }
inline std::int64_t block_x() { return cpu_layer::current().block_idx.x; }
inline std::int64_t block_y() { return cpu_layer::current().block_idx.y; }
inline std::int64_t block_z() { return cpu_layer::current().block_idx.z; }
inline void sync_threads() { cpu_layer::sync_threads(); }
/// err |= bits, from any thread (a kernel's arithmetic errors, read by the host after it).
inline void flag_error(int *err, int bits) { __atomic_fetch_or(err, bits, __ATOMIC_RELAXED); }
#else
__device__ inline std::int64_t global_index() {
  return std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline int thread_in_block() { return int(threadIdx.x); }
__device__ inline std::int64_t block_index() { return blockIdx.x; }
using Dims = dim3;
__device__ inline int thread_x() { return int(threadIdx.x); }
__device__ inline int thread_y() { return int(threadIdx.y); }
__device__ inline std::int64_t block_x() { return blockIdx.x; }
__device__ inline std::int64_t block_y() { return blockIdx.y; }
__device__ inline std::int64_t block_z() { return blockIdx.z; }
__device__ inline void sync_threads() { __syncthreads(); }
__device__ inline void flag_error(int *err, int bits) { atomicOr(err, bits); }
#endif

#if defined(STENCILC_GPU_CPU_LAYER)
inline void *malloc_bytes(std::size_t bytes) { return cpu_layer::device_malloc(bytes); }
inline void free_bytes(void *p) noexcept { cpu_layer::device_free(p); }
inline void copy_to_device(void *dst, const void *src, std::size_t bytes) {
  if (bytes)
    __builtin_memcpy(dst, src, bytes);
}
inline void copy_to_host(void *dst, const void *src, std::size_t bytes) {
  if (bytes)
    __builtin_memcpy(dst, src, bytes);
}
inline void copy_on_device(void *dst, const void *src, std::size_t bytes) {
  if (bytes)
    __builtin_memcpy(dst, src, bytes);
}
inline void copy_rows(void *dst, const void *src, std::size_t width, std::size_t pitch,
                      std::size_t height, bool) {
  for (std::size_t r = 0; r < height && width; ++r)
    __builtin_memcpy(static_cast<char *>(dst) + r * pitch,
                     static_cast<const char *>(src) + r * pitch, width);
}
inline void set_zero(void *dst, std::size_t bytes) {
  if (bytes)
    __builtin_memset(dst, 0, bytes);
}
inline void synchronize() {}
using Stream = cpu_layer::Stream;
using Event = cpu_layer::Event;
inline void wait_event(Stream &s, const Event &e) { cpu_layer::stream_wait(s, e); }
inline void copy_rows_async(void *dst, const void *src, std::size_t width, std::size_t pitch,
                            std::size_t height, bool, Stream &s, const char *what) {
  cpu_layer::copy_async(s, dst, src, width, pitch, height, what);
}
inline void host_ready(const void *p, std::size_t bytes, const char *what) {
  cpu_layer::host_access(p, bytes, what);
}
class HostPin { // (host memory is all there is here)
public:
  HostPin(const void *, std::size_t) {}
};
inline void require_device() {}
/// The device of index i modulo the devices there are (one here).
inline void select_device(int) {}
/// Device memory free for allocations (the host's here: no limit is checked).
inline std::size_t free_memory() { return ~std::size_t(0); }
#else
using Status = STENCILC_GPU_RUNTIME_CALL(Error_t);

/// A failed runtime call as an Error: "CALL: the runtime's message".
inline void check(Status s, const char *call) {
  if (s != STENCILC_GPU_RUNTIME_CALL(Success))
    throw Error(std::string(call) + ": " + STENCILC_GPU_RUNTIME_CALL(GetErrorString)(s));
}
inline void *malloc_bytes(std::size_t bytes) {
  void *p = nullptr;
  check(STENCILC_GPU_RUNTIME_CALL(Malloc)(&p, bytes ? bytes : 1),
        STENCILC_GPU_API " device memory allocation (" STENCILC_GPU_API "Malloc)");
  return p;
}
/// Freeing cannot throw (it runs in destructors); a failure here means the context is already
/// broken, which the next checked call reports.
inline void free_bytes(void *p) noexcept { (void)STENCILC_GPU_RUNTIME_CALL(Free)(p); }
inline void copy_to_device(void *dst, const void *src, std::size_t bytes) {
  check(STENCILC_GPU_RUNTIME_CALL(Memcpy)(dst, src, bytes,
                                          STENCILC_GPU_RUNTIME_CALL(MemcpyHostToDevice)),
        "copy to the device (Memcpy HostToDevice)");
}
inline void copy_to_host(void *dst, const void *src, std::size_t bytes) {
  check(STENCILC_GPU_RUNTIME_CALL(Memcpy)(dst, src, bytes,
                                          STENCILC_GPU_RUNTIME_CALL(MemcpyDeviceToHost)),
        "copy to the host (Memcpy DeviceToHost)");
}
inline void copy_on_device(void *dst, const void *src, std::size_t bytes) {
  check(STENCILC_GPU_RUNTIME_CALL(Memcpy)(dst, src, bytes,
                                          STENCILC_GPU_RUNTIME_CALL(MemcpyDeviceToDevice)),
        "copy on the device (Memcpy DeviceToDevice)");
}
inline void set_zero(void *dst, std::size_t bytes) {
  check(STENCILC_GPU_RUNTIME_CALL(Memset)(dst, 0, bytes), "Memset");
}
inline void copy_rows(void *dst, const void *src, std::size_t width, std::size_t pitch,
                      std::size_t height, bool to_host) {
  if (width && height)
    check(STENCILC_GPU_RUNTIME_CALL(Memcpy2D)(dst, pitch, src, pitch, width, height,
                                              to_host
                                                  ? STENCILC_GPU_RUNTIME_CALL(MemcpyDeviceToHost)
                                                  : STENCILC_GPU_RUNTIME_CALL(MemcpyHostToDevice)),
          to_host ? "copy of a face to the host (Memcpy2D DeviceToHost)"
                  : "copy of a halo to the device (Memcpy2D HostToDevice)");
}
inline void synchronize() {
  check(STENCILC_GPU_RUNTIME_CALL(DeviceSynchronize)(), "DeviceSynchronize");
}
/// A stream (blocking: ordered with the default stream's work, as the synchronous calls here
/// expect) and an event, owned.
class Stream {
public:
  Stream() { check(STENCILC_GPU_RUNTIME_CALL(StreamCreate)(&s_), "StreamCreate"); }
  ~Stream() { (void)STENCILC_GPU_RUNTIME_CALL(StreamDestroy)(s_); }
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  STENCILC_GPU_RUNTIME_CALL(Stream_t) get() const { return s_; }
  void synchronize() {
    check(STENCILC_GPU_RUNTIME_CALL(StreamSynchronize)(s_), "StreamSynchronize");
  }

private:
  STENCILC_GPU_RUNTIME_CALL(Stream_t) s_{};
};
class Event {
public:
  Event() {
    check(STENCILC_GPU_RUNTIME_CALL(EventCreateWithFlags)(
              &e_, STENCILC_GPU_RUNTIME_CALL(EventDisableTiming)),
          "EventCreate");
  }
  ~Event() { (void)STENCILC_GPU_RUNTIME_CALL(EventDestroy)(e_); }
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  STENCILC_GPU_RUNTIME_CALL(Event_t) get() const { return e_; }
  void record(Stream &s) {
    check(STENCILC_GPU_RUNTIME_CALL(EventRecord)(e_, s.get()), "EventRecord");
  }
  void synchronize() { check(STENCILC_GPU_RUNTIME_CALL(EventSynchronize)(e_), "EventSynchronize"); }

private:
  STENCILC_GPU_RUNTIME_CALL(Event_t) e_{};
};
inline void wait_event(Stream &s, const Event &e) {
  check(STENCILC_GPU_RUNTIME_CALL(StreamWaitEvent)(s.get(), e.get(), 0), "StreamWaitEvent");
}
inline void copy_rows_async(void *dst, const void *src, std::size_t width, std::size_t pitch,
                            std::size_t height, bool to_host, Stream &s, const char *) {
  if (width && height)
    check(STENCILC_GPU_RUNTIME_CALL(Memcpy2DAsync)(
              dst, pitch, src, pitch, width, height,
              to_host ? STENCILC_GPU_RUNTIME_CALL(MemcpyDeviceToHost)
                      : STENCILC_GPU_RUNTIME_CALL(MemcpyHostToDevice),
              s.get()),
          "Memcpy2DAsync");
}
inline void host_ready(const void *, std::size_t, const char *) {}
/// Page-locks host memory while it lives (HostRegister), so that asynchronous copies from and
/// to it are asynchronous for the host too and run at the link's full rate. Pinning is an
/// optimisation: where the runtime refuses (a limit on locked memory), copies still work.
class HostPin {
public:
  HostPin(const void *p, std::size_t bytes) {
    void *q = const_cast<void *>(p);
    if (bytes && STENCILC_GPU_RUNTIME_CALL(HostRegister)(
                     q, bytes, STENCILC_GPU_RUNTIME_CALL(HostRegisterDefault)) ==
                     STENCILC_GPU_RUNTIME_CALL(Success))
      p_ = q;
    else
      (void)STENCILC_GPU_RUNTIME_CALL(GetLastError)(); // not sticky: clear it
  }
  ~HostPin() {
    if (p_)
      (void)STENCILC_GPU_RUNTIME_CALL(HostUnregister)(p_);
  }
  HostPin(const HostPin &) = delete;
  HostPin &operator=(const HostPin &) = delete;

private:
  void *p_ = nullptr;
};
/// Throws "no CUDA device: MESSAGE" (or HIP) when the runtime finds no device.
inline void require_device() {
  int n = 0;
  const Status s = STENCILC_GPU_RUNTIME_CALL(GetDeviceCount)(&n);
  if (s != STENCILC_GPU_RUNTIME_CALL(Success))
    throw Error(std::string("no " STENCILC_GPU_API " device: ") +
                STENCILC_GPU_RUNTIME_CALL(GetErrorString)(s));
  if (n == 0)
    throw Error("no " STENCILC_GPU_API " device");
}
/// Makes device i modulo the devices there are the current one (an MPI rank's on its node).
/// Throws "no CUDA device" (or HIP) when there is none.
inline void select_device(int i) {
  require_device();
  int n = 0;
  check(STENCILC_GPU_RUNTIME_CALL(GetDeviceCount)(&n), "GetDeviceCount");
  check(STENCILC_GPU_RUNTIME_CALL(SetDevice)(i % n), "SetDevice");
}
inline std::size_t free_memory() {
  std::size_t free = 0, total = 0;
  check(STENCILC_GPU_RUNTIME_CALL(MemGetInfo)(&free, &total), "MemGetInfo");
  return free;
}
#endif

/// (Declared for both: `height` rows of `width` bytes, `pitch` bytes apart in both copies,
/// from the device to the host (`to_host`) or back: a face of a grid, whose host and device
/// copies share their layout. copy_rows(dst, src, width, pitch, height, to_host), and
/// copy_rows_async(..., stream, what) queued on a stream. Streams and events: Stream
/// (synchronize()), Event (record(stream), synchronize()), wait_event(stream, event), and
/// STENCILC_LAUNCH_ON(stream, kernel, ...); host_ready(p, bytes, what): in the CPU layer's
/// checking mode, an Error if a copy to [p, p + bytes) is not known complete to the host.)

/// n elements of T in device memory, owned.
template <typename T> class Buffer {
public:
  Buffer() = default;
  explicit Buffer(std::size_t n) : p_(static_cast<T *>(malloc_bytes(n * sizeof(T)))), n_(n) {}
  Buffer(Buffer &&o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  Buffer &operator=(Buffer &&o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer() {
    if (p_)
      free_bytes(p_);
  }
  T *get() const { return p_; }
  std::size_t size() const { return n_; }
  void swap(Buffer &o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
  }

private:
  T *p_ = nullptr;
  std::size_t n_ = 0;
};

/// The device allocation of the host allocation `owner` (an Interleaved's, grid.h): one per
/// host allocation, shared by the DeviceGrids of its members (of any element type) while any of
/// them lives.
inline std::shared_ptr<Buffer<unsigned char>> shared_device_allocation(const void *owner,
                                                                       std::size_t bytes) {
  static std::map<const void *, std::weak_ptr<Buffer<unsigned char>>> live;
  for (auto it = live.begin(); it != live.end();)
    it = it->second.expired() ? live.erase(it) : std::next(it);
  // (A host allocation freed and another made at its address: the old one's is not it.)
  if (auto found = live[owner].lock(); found && found->size() == bytes)
    return found;
  auto made = std::make_shared<Buffer<unsigned char>>(bytes);
  live[owner] = made;
  return made;
}

/// The device copy of a host Grid: the same allocation layout (halos, row padding), so that
/// strides and offsets are the host grid's and a copy is one memcpy. The members of an
/// Interleaved (grid.h, layout=aosoa) share one device allocation, as on the host, and copy
/// their own rows (one pitched copy each way).
template <typename T> class DeviceGrid {
public:
  DeviceGrid() = default;
  explicit DeviceGrid(const Grid<T> &g)
      : origin_(g.origin_offset()), span_(g.storage_size()), pitch_(g.pitch()),
        stride_(g.stride(1)), rows_(g.rows()) {
    std::size_t at = 0; // bytes from the allocation's start to the grid's first row
    if (g.interleaved()) {
      at = static_cast<std::size_t>(reinterpret_cast<const unsigned char *>(g.storage()) -
                                    static_cast<const unsigned char *>(g.owner()));
      mem_ = shared_device_allocation(g.owner(),
                                      static_cast<std::size_t>(rows_ * stride_) * sizeof(T));
    } else {
      mem_ = std::make_shared<Buffer<unsigned char>>(static_cast<std::size_t>(span_) * sizeof(T));
    }
    base_ = reinterpret_cast<T *>(mem_->get() + at);
#if defined(STENCILC_GPU_CPU_LAYER)
    cpu_layer::label_allocation(mem_->get(), "grid '" + g.name() + "'");
#endif
  }
  /// Pointer to interior cell (0, 0, 0, 0).
  T *origin() const { return base_ + origin_; }
  /// The whole allocation, laid out as the host Grid's storage().
  T *storage() const { return base_; }
  void upload(const Grid<T> &g) {
    if (interleaved())
      copy_rows(base_, g.storage(), row_bytes(), pitch_bytes(), rows(), false);
    else
      copy_to_device(base_, g.storage(), bytes());
  }
  /// Every cell zero, halos and padding too (as a new host Grid).
  void zero() {
    if (interleaved())
      set_zero(mem_->get(), mem_->size()); // the members' all: they start together
    else
      set_zero(base_, bytes());
  }
  void download(Grid<T> &g) const {
    if (interleaved())
      copy_rows(g.storage(), base_, row_bytes(), pitch_bytes(), rows(), true);
    else
      copy_to_host(g.storage(), base_, bytes());
  }
  /// The interior cells within the halo's depth of each face, to the host: what a ghost refresh
  /// there reads (the slabs sent to the neighbours, the cells mirrored or wrapped into ghost
  /// cells). 2 * rank row copies, each face spanning the whole allocation in the other
  /// dimensions.
  void download_faces(Grid<T> &g) const {
    for_each_face(g, true,
                  [&](std::size_t at, std::size_t width, std::size_t pitch, std::size_t height) {
                    copy_rows(g.storage() + at, base_ + at, width, pitch, height, true);
                  });
  }
  /// Every ghost cell to the device (what a ghost refresh on the host wrote): the same copies.
  void upload_halo(const Grid<T> &g) {
    for_each_face(g, false,
                  [&](std::size_t at, std::size_t width, std::size_t pitch, std::size_t height) {
                    copy_rows(base_ + at, g.storage() + at, width, pitch, height, false);
                  });
  }
  /// The same two, queued on a stream; `what` names the grid in checking-mode messages.
  void download_faces_async(Grid<T> &g, Stream &s, const char *what) const {
    for_each_face(
        g, true, [&](std::size_t at, std::size_t width, std::size_t pitch, std::size_t height) {
          copy_rows_async(g.storage() + at, base_ + at, width, pitch, height, true, s, what);
        });
  }
  void upload_halo_async(const Grid<T> &g, Stream &s, const char *what) {
    for_each_face(
        g, false, [&](std::size_t at, std::size_t width, std::size_t pitch, std::size_t height) {
          copy_rows_async(base_ + at, g.storage() + at, width, pitch, height, false, s, what);
        });
  }
  /// overlap=host: the slabs of cells from[d] <= i < to[d] (from interior cell 0 of the face;
  /// from[d] = -halo(d) takes the ghost cells too) at both faces of each dimension d where
  /// to[d] > from[d], each spanning the whole allocation in the other dimensions, to the host
  /// (download) or the device (upload), queued on a stream. to[d] is clamped to the extent (the
  /// two faces' slabs then overlap, and copy the same cells twice).
  void download_slabs_async(Grid<T> &g, const Extents &from, const Extents &to, Stream &s,
                            const char *what) const {
    for_each_slab(
        g, from, to, [&](std::size_t at, std::size_t width, std::size_t pitch, std::size_t height) {
          copy_rows_async(g.storage() + at, base_ + at, width, pitch, height, true, s, what);
        });
  }
  void upload_slabs_async(const Grid<T> &g, const Extents &from, const Extents &to, Stream &s,
                          const char *what) {
    for_each_slab(
        g, from, to, [&](std::size_t at, std::size_t width, std::size_t pitch, std::size_t height) {
          copy_rows_async(base_ + at, g.storage() + at, width, pitch, height, false, s, what);
        });
  }
  void swap(DeviceGrid &o) noexcept {
    mem_.swap(o.mem_);
    std::swap(base_, o.base_);
    std::swap(origin_, o.origin_);
    std::swap(span_, o.span_);
    std::swap(pitch_, o.pitch_);
    std::swap(stride_, o.stride_);
    std::swap(rows_, o.rows_);
  }

private:
  bool interleaved() const { return pitch_ != stride_; }
  std::size_t bytes() const { return static_cast<std::size_t>(span_) * sizeof(T); }
  std::size_t row_bytes() const { return static_cast<std::size_t>(pitch_) * sizeof(T); }
  std::size_t pitch_bytes() const { return static_cast<std::size_t>(stride_) * sizeof(T); }
  std::size_t rows() const { return static_cast<std::size_t>(rows_); }

  // The 2 * rank faces of g as row copies f(first element, bytes per row, pitch in bytes, rows):
  // the `interior` cells within the halo's depth of each face, or the ghost cells beyond it.
  // Along dimension d cells are units of stride(d) elements, dense above dimension 0 (only x
  // rows are padded): h cells of dimension d are one run of h * stride(d) elements in each block
  // of stride(d + 1), the face spanning the whole allocation in the other dimensions. (Not for
  // interleaved grids, whose faces above x hold the other members' rows: an Error.)
  template <typename F> static void for_each_face(const Grid<T> &g, bool interior, F f) {
    Extents from{}, to{};
    for (int d = 0; d < g.rank(); ++d) {
      from[d] = interior ? 0 : -g.halo(d);
      to[d] = interior ? g.halo(d) : 0;
    }
    for_each_slab(g, from, to, f);
  }

  // The slabs of download_slabs_async as such row copies (the faces: from 0 to the halo's
  // depth, or from -halo to 0 for the ghost cells beyond them).
  template <typename F>
  static void for_each_slab(const Grid<T> &g, const Extents &from, const Extents &to, F f) {
    if (g.interleaved())
      throw Error("grid '" + g.name() + "': the faces of interleaved grids (layout=aosoa) are "
                  "not copied on their own");
    for (int d = 0; d < g.rank(); ++d) {
      const std::int64_t h = g.halo(d), n = g.extent(d), s = g.stride(d);
      const std::int64_t block = d + 1 < g.rank() ? g.stride(d + 1) : g.storage_size();
      const std::int64_t a = std::max(from[d], -h), b = std::min(to[d], n);
      if (b <= a)
        continue;
      // Allocation index of interior cell i along d: h + i.
      for (const std::int64_t first : std::array<std::int64_t, 2>{h + a, h + n - b})
        f(static_cast<std::size_t>(first * s), static_cast<std::size_t>((b - a) * s) * sizeof(T),
          static_cast<std::size_t>(block) * sizeof(T),
          static_cast<std::size_t>(g.storage_size() / block));
    }
  }

  std::shared_ptr<Buffer<unsigned char>> mem_;
  T *base_ = nullptr;
  std::int64_t origin_ = 0, span_ = 0, pitch_ = 0, stride_ = 0, rows_ = 0;
};

/// Blocks of `threads` for n points of a 1-D launch; an Error beyond what a launch allows
/// (2^31 - 1 blocks in x; `most` = 65535 for y and z).
inline unsigned blocks_for(std::int64_t n, int threads, std::int64_t most = 2147483647) {
  const std::int64_t b = (n + threads - 1) / threads;
  if (b > most)
    throw Error("a launch of " + std::to_string(n) + " threads: more blocks than a grid allows");
  return static_cast<unsigned>(b);
}

/// The ghost cells of face (d, side) of g, as stencilc::for_each_ghost visits them: lo[k] the
/// first index and n[k] the count in each dimension k.
template <typename T>
void ghost_slab(const Grid<T> &g, int d, int side, std::int64_t (&lo)[kMaxRank],
                std::int64_t (&n)[kMaxRank]) {
  for (int k = 0; k < kMaxRank; ++k) {
    lo[k] = k < d ? -g.halo(k) : 0;
    n[k] = k < d ? g.extent(k) + 2 * g.halo(k) : g.extent(k);
  }
  lo[d] = side == 0 ? -g.halo(d) : g.extent(d);
  n[d] = g.halo(d);
}

/// Bytes a Grid's device copy takes (to refuse a problem larger than device memory before
/// allocating anything).
template <typename T> std::size_t device_bytes(const Grid<T> &g) {
  // A member of an Interleaved: its share, its own rows.
  return static_cast<std::size_t>(g.interleaved() ? g.pitch() * g.rows() : g.storage_size()) *
         sizeof(T);
}

} // namespace stencilc::gpu
