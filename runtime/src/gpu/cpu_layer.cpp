// The CPU execution layer (stencilc/gpu/cpu_layer.h): blocks on OpenMP threads, the threads of
// a block as Boost.Context fibers scheduled round-robin between barriers.
#include "stencilc/gpu/cpu_layer.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <numeric>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "stencilc/error.h"

namespace stencilc::gpu::cpu_layer {

namespace ctx = boost::context;

namespace {

// Kernel frames are small (a few locals, no recursion); 128 KiB leaves room for unoptimised
// and sanitized builds. Untouched pages of a malloc'ed stack cost no memory.
constexpr std::size_t kStackBytes = 128 * 1024;

// Stacks are reused on the OS thread that ran the block: a launch creates one fiber per
// thread of every block, and allocating a stack each time would dominate small kernels. A
// thread that ends gives its stacks to the process's spare list, which threads take from
// before allocating: freeing them (malloc maps stacks this size, so each is an munmap and a
// TLB shootdown on every core) took a fifth of a 4-rank mpi-cuda run's time in a VM, at the end
// of each stream's thread. The spare list lives as long as the process.
struct SpareStacks {
  std::mutex mutex;
  std::vector<void *> free;
};
SpareStacks &spare_stacks() {
  static SpareStacks *spare = new SpareStacks; // never destroyed: threads may end after main
  return *spare;
}
struct StackPool {
  std::vector<void *> free;
  ~StackPool() {
    SpareStacks &spare = spare_stacks();
    const std::lock_guard<std::mutex> lock(spare.mutex);
    spare.free.insert(spare.free.end(), free.begin(), free.end());
  }
};
thread_local StackPool stack_pool;

// AddressSanitizer cannot see where a fiber's stack ends, so frames a fiber leaves without
// returning (an exception, or Boost unwinding a fiber that is destroyed while suspended) keep
// their poison, which it then reports against the next frames there. Stacks are cleaned when
// they are taken from the pool and before suspended fibers are unwound.
void unpoison_stack(void *base);
thread_local void *last_stack = nullptr; // the stack the newest fiber of this thread got

class PooledStack {
public:
  ctx::stack_context allocate() {
    void *base;
    if (stack_pool.free.empty()) {
      SpareStacks &spare = spare_stacks();
      const std::lock_guard<std::mutex> lock(spare.mutex);
      if (!spare.free.empty()) {
        stack_pool.free.push_back(spare.free.back());
        spare.free.pop_back();
      }
    }
    if (!stack_pool.free.empty()) {
      base = stack_pool.free.back();
      stack_pool.free.pop_back();
    } else if (!(base = std::malloc(kStackBytes))) {
      throw std::bad_alloc();
    }
    unpoison_stack(base);
    last_stack = base;
    ctx::stack_context sc;
    sc.size = kStackBytes;
    sc.sp = static_cast<char *>(base) + kStackBytes; // stacks grow down
    return sc;
  }
  void deallocate(ctx::stack_context &sc) noexcept {
    stack_pool.free.push_back(static_cast<char *>(sc.sp) - sc.size);
  }

};

void unpoison_stack(void *base) {
#if defined(__SANITIZE_ADDRESS__)
  __asan_unpoison_memory_region(base, kStackBytes);
#else
  (void)base;
#endif
}

enum class Where { Running, AtBarrier, Done };

struct Thread {
  ThreadState state;
  ctx::fiber fiber; // the thread, while it is suspended
  ctx::fiber back;  // the block's scheduler, while the thread runs
  void *stack = nullptr; // its stack (PooledStack)
  Where where = Where::Running;
  std::exception_ptr error;
  bool direct = false; // run on the block's own stack, not a fiber (run_block)
};

thread_local Thread *running = nullptr;

std::string dim_text(Dim3 d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

// Threads as linear indices (x fastest), shortened: "0-3, 7".
std::string thread_list(const std::vector<unsigned> &ids) {
  std::string s;
  std::size_t shown = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
      ++j;
    if (shown++ == 8) {
      s += ", ...";
      break;
    }
    s += (s.empty() ? "" : ", ") + std::to_string(ids[i]);
    if (j > i)
      s += "-" + std::to_string(ids[j]);
    i = j;
  }
  return s;
}

} // namespace

struct Block {
  // The last accesses to a shared element in the current barrier phase (checking mode).
  struct Access {
    std::size_t write_phase = ~std::size_t(0), read_phase = ~std::size_t(0);
    unsigned writer = 0, reader = 0, reader2 = 0;
    bool readers = false; // read by a second thread (reader2) in read_phase
  };
  struct Array {
    std::unique_ptr<unsigned char[]> bytes;
    std::size_t size;
    std::vector<Access> access; // checking mode: one per element
  };
  const char *kernel = "";
  Dim3 idx, dim;
  std::size_t phase = 0; // barriers passed by the block
  std::vector<Array> shared;
  // Counting: the global bytes the block's threads touched, [first, last) address ranges.
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> reads, writes;
};

struct Allocation {
  std::uintptr_t base = 0;
  std::size_t size = 0;
  std::string label;
  // Counting: per byte, bit 0 read and bit 1 written in the current launch.
  mutable std::unique_ptr<std::atomic<unsigned char>[]> marks;
  mutable std::atomic<bool> touched{false}; // marks set in the current launch
};

namespace {


// Device allocations by base address (checking mode looks pointers up here).
struct Registry {
  std::shared_mutex mutex;
  std::map<std::uintptr_t, std::unique_ptr<Allocation>> by_base;
  // Bumped by every allocation and free: a thread's cached lookups (find_allocation) hold only
  // while it is unchanged.
  std::atomic<std::uint64_t> generation{0};
};
Registry &registry() {
  static Registry r;
  return r;
}

// Traffic counts per kernel name; written to STENCILC_GPU_TRAFFIC's file at exit.
struct Traffic {
  std::mutex mutex;
  bool counting = false;
  std::string file;
  std::vector<KernelTraffic> kernels;
  Traffic() {
    if (const char *f = std::getenv("STENCILC_GPU_TRAFFIC"); f && *f) {
      file = f;
      counting = true;
    }
  }
  ~Traffic() {
    if (file.empty())
      return;
    std::FILE *out = std::fopen(file.c_str(), "w");
    if (!out) {
      std::fprintf(stderr, "error: cannot write the GPU traffic counts to '%s'\n", file.c_str());
      return;
    }
    for (const KernelTraffic &k : kernels) {
      const nlohmann::json j = {{"kernel", k.kernel},
                                {"launches", k.launches},
                                {"threads", k.threads},
                                {"read_bytes", k.read_bytes},
                                {"written_bytes", k.written_bytes},
                                {"block_read_bytes", k.block_read_bytes},
                                {"block_written_bytes", k.block_written_bytes}};
      std::fprintf(out, "%s\n", j.dump().c_str());
    }
    std::fclose(out);
  }
};
Traffic &traffic_state() {
  static Traffic t;
  return t;
}
std::atomic<bool> counting{traffic_state().counting};

// Bytes covered by a set of [first, last) ranges.
std::int64_t covered(std::vector<std::pair<std::uintptr_t, std::uintptr_t>> &r) {
  std::sort(r.begin(), r.end());
  std::int64_t n = 0;
  std::uintptr_t end = 0;
  for (const auto &[a, b] : r) {
    const std::uintptr_t from = std::max(a, end);
    if (b > from)
      n += static_cast<std::int64_t>(b - from);
    end = std::max(end, b);
  }
  return n;
}

// One launch's counts, added up as its blocks end.
struct LaunchCount {
  std::atomic<std::int64_t> block_read{0}, block_written{0};
};
thread_local LaunchCount *launch_count = nullptr;

// After a counted launch: the distinct bytes of every allocation it touched, then the marks
// cleared for the next launch.
void record_launch(const char *kernel, std::int64_t threads, const LaunchCount &c) {
  std::int64_t read = 0, written = 0;
  {
    Registry &r = registry();
    const std::shared_lock lock(r.mutex);
    for (auto &[base, a] : r.by_base) {
      if (!a->marks || !a->touched.exchange(false))
        continue;
      for (std::size_t i = 0; i < a->size; ++i) {
        const unsigned char m = a->marks[i].exchange(0, std::memory_order_relaxed);
        read += m & 1;
        written += (m >> 1) & 1;
      }
    }
  }
  Traffic &t = traffic_state();
  const std::lock_guard lock(t.mutex);
  auto it = std::find_if(t.kernels.begin(), t.kernels.end(),
                         [&](const KernelTraffic &k) { return k.kernel == kernel; });
  if (it == t.kernels.end()) {
    t.kernels.push_back({kernel});
    it = t.kernels.end() - 1;
  }
  ++it->launches;
  it->threads += threads;
  it->read_bytes += read;
  it->written_bytes += written;
  it->block_read_bytes += c.block_read.load();
  it->block_written_bytes += c.block_written.load();
}

std::string missed_barrier(const char *kernel, Dim3 block_idx, const std::vector<unsigned> &waiting,
                           const std::vector<unsigned> &ended) {
  return std::string("kernel '") + kernel + "', block " + dim_text(block_idx) +
         ": a barrier (__syncthreads) is not reached by every thread of the block: threads " +
         thread_list(waiting) + " wait at it, threads " + thread_list(ended) +
         " ended without it (threads numbered x fastest)";
}

// Runs the threads of one block to their end, barrier phase after barrier phase. Thread 0 runs
// first, on a fiber of its own; where it ends without reaching a barrier the kernel has none
// that every thread reaches, so the others run one after another on this stack, with no fiber
// to switch to (most kernels: the switches were most of the layer's time). One of them that
// reaches a barrier there is the error the fibers would find.
void run_block(const char *kernel, Dim3 grid, Dim3 block_dim, Dim3 block_idx,
               const std::function<void()> &body) {
  Block block;
  block.kernel = kernel;
  block.idx = block_idx;
  block.dim = block_dim;
  const unsigned n = block_dim.x * block_dim.y * block_dim.z;
  std::vector<Thread> threads(n);
  for (unsigned t = 0; t < n; ++t) {
    Thread &th = threads[t];
    th.state.thread_idx = Dim3(t % block_dim.x, t / block_dim.x % block_dim.y,
                               t / (block_dim.x * block_dim.y));
    th.state.block_idx = block_idx;
    th.state.block_dim = block_dim;
    th.state.grid_dim = grid;
    th.state.block = &block;
  }
  auto make_fiber = [&](Thread &th) {
    th.fiber = ctx::fiber(std::allocator_arg, PooledStack(), [&th, &body](ctx::fiber &&back) {
      th.back = std::move(back);
      try {
        body();
      } catch (const ctx::detail::forced_unwind &) {
        throw; // the fiber is being destroyed: let Boost unwind it
      } catch (...) {
        th.error = std::current_exception();
      }
      th.where = Where::Done;
      return std::move(th.back);
    });
    th.stack = last_stack;
  };
  // Before an error leaves: the suspended fibers are unwound as `threads` goes.
  auto clean_suspended = [&] {
    for (Thread &th : threads)
      if (th.stack && th.where != Where::Done)
        unpoison_stack(th.stack);
  };
  auto resume = [&](Thread &th) {
    th.where = Where::Running;
    running = &th;
    th.fiber = std::move(th.fiber).resume();
    running = nullptr;
    if (th.error) {
      clean_suspended();
      std::rethrow_exception(th.error); // the other fibers are unwound as `threads` goes
    }
  };
  auto count = [&] {
    if (launch_count) {
      launch_count->block_read += covered(block.reads);
      launch_count->block_written += covered(block.writes);
    }
  };
  make_fiber(threads[0]);
  resume(threads[0]);
  if (threads[0].where == Where::Done) {
    for (unsigned t = 1; t < n; ++t) {
      Thread &th = threads[t];
      th.direct = true;
      running = &th;
      try {
        body();
      } catch (...) {
        running = nullptr;
        throw;
      }
      running = nullptr;
    }
    count();
    return;
  }
  for (unsigned t = 1; t < n; ++t)
    make_fiber(threads[t]);
  for (unsigned from = 1;; from = 0) { // thread 0 waits at the first barrier already
    for (unsigned t = from; t < n; ++t)
      if (threads[t].where != Where::Done)
        resume(threads[t]);
    std::vector<unsigned> waiting, ended;
    for (unsigned t = 0; t < n; ++t)
      (threads[t].where == Where::Done ? ended : waiting).push_back(t);
    if (waiting.empty()) {
      count();
      return;
    }
    if (!ended.empty()) {
      clean_suspended();
      throw Error(missed_barrier(kernel, block_idx, waiting, ended));
    }
    // Every thread waits at the barrier: the next phase.
    ++block.phase;
  }
}

} // namespace

ThreadState &current() {
  if (!running)
    throw Error("a GPU built-in (thread index, barrier, shared memory) used outside a kernel");
  return running->state;
}

void sync_threads() {
  Thread *th = running;
  if (!th)
    throw Error("__syncthreads called outside a kernel");
  if (th->direct) { // run_block's threads after a thread 0 that ended without this barrier
    const Block &b = *th->state.block;
    const unsigned me = th->state.thread_idx.x + th->state.thread_idx.y * b.dim.x +
                        th->state.thread_idx.z * b.dim.x * b.dim.y;
    std::vector<unsigned> ended(me);
    std::iota(ended.begin(), ended.end(), 0u);
    throw Error(missed_barrier(b.kernel, b.idx, {me}, ended));
  }
  th->where = Where::AtBarrier;
  th->back = std::move(th->back).resume();
  // Resumed by the scheduler: `running` is this thread again.
}

void *shared_alloc(std::size_t bytes, std::size_t align, std::size_t *index) {
  ThreadState &st = current();
  auto &arrays = st.block->shared;
  const std::size_t k = st.shared_calls++;
  if (k == arrays.size()) {
    const std::size_t size = bytes + align;
    Block::Array a{std::unique_ptr<unsigned char[]>(new unsigned char[size]), bytes, {}};
    std::memset(a.bytes.get(), 0xA5, size); // garbage, as a GPU's shared memory holds
    arrays.push_back(std::move(a));
  } else if (k > arrays.size() || arrays[k].size != bytes) {
    throw Error("shared memory: the threads of a block declare different shared arrays");
  }
  if (index)
    *index = k;
  unsigned char *p = arrays[k].bytes.get();
  const std::uintptr_t mis = reinterpret_cast<std::uintptr_t>(p) % align;
  return mis ? p + (align - mis) : p;
}

void shared_access(std::size_t index, const char *name, std::int64_t i, std::int64_t n,
                   bool write) {
  ThreadState &st = current();
  Block &b = *st.block;
  const Dim3 t = st.thread_idx;
  const unsigned me = t.x + t.y * b.dim.x + t.z * b.dim.x * b.dim.y;
  // The messages are built only when one is thrown: this runs on every shared access.
  const auto where = [&] {
    return std::string("kernel '") + b.kernel + "', block " + dim_text(b.idx);
  };
  const auto what = [&] { return std::string("shared array '") + name + "'"; };
  if (i < 0 || i >= n)
    throw Error(where() + ", thread " + dim_text(t) + ": " + what() +
                (write ? " written" : " read") + " at index " + std::to_string(i) +
                ", outside [0, " + std::to_string(n) + ")");
  Block::Array &a = b.shared[index];
  if (a.access.empty())
    a.access.resize(static_cast<std::size_t>(n));
  Block::Access &e = a.access[static_cast<std::size_t>(i)];
  auto race = [&](const char *first, unsigned other, const char *second) {
    return Error(where() + ": " + what() + " element " + std::to_string(i) + " is " + first +
                 " by thread " + std::to_string(other) + " and " + second + " by thread " +
                 std::to_string(me) +
                 " with no barrier between (a race; threads numbered x "
                 "fastest)");
  };
  if (e.write_phase == b.phase && e.writer != me)
    throw race("written", e.writer, write ? "written" : "read");
  if (write && e.read_phase == b.phase && (e.reader != me || e.readers))
    throw race("read", e.reader != me ? e.reader : e.reader2, "written");
  if (write) {
    e.write_phase = b.phase;
    e.writer = me;
  } else if (e.read_phase != b.phase) {
    e.read_phase = b.phase;
    e.reader = me;
    e.readers = false;
  } else if (e.reader != me && !e.readers) {
    e.readers = true;
    e.reader2 = me;
  }
}

void launch(const char *kernel, Dim3 grid, Dim3 block, const std::function<void()> &body) {
  if (block.x * block.y * block.z == 0 || block.x * block.y * block.z > 1024)
    throw Error(std::string("kernel '") + kernel + "': a block of " + dim_text(block) +
                " threads (1 to 1024 allowed)");
  const std::int64_t blocks = std::int64_t(grid.x) * grid.y * grid.z;
  std::exception_ptr first;
  std::int64_t first_block = -1;
  LaunchCount count;
  LaunchCount *const counted = counting.load() ? &count : nullptr;
  const Order *const order = thread_order(); // a stream's launch: what it knows complete
#pragma omp parallel for schedule(dynamic)
  for (std::int64_t b = 0; b < blocks; ++b) {
    launch_count = counted;
    thread_order() = order;
    try {
      const Dim3 idx(unsigned(b % grid.x), unsigned(b / grid.x % grid.y),
                     unsigned(b / (std::int64_t(grid.x) * grid.y)));
      run_block(kernel, grid, block, idx, body);
    } catch (...) {
      // Report the lowest block that failed, whatever the threads' timing.
#pragma omp critical(stencilc_gpu_cpu_layer_error)
      if (first_block < 0 || b < first_block) {
        first_block = b;
        first = std::current_exception();
      }
    }
  }
  launch_count = nullptr;
  thread_order() = order;
  if (counted)
    record_launch(kernel, blocks * block.x * block.y * block.z, count);
  if (first)
    std::rethrow_exception(first);
}

void *device_malloc(std::size_t bytes) {
  const std::size_t rounded = (bytes + 63) / 64 * 64;
  void *p = std::aligned_alloc(64, rounded ? rounded : 64);
  if (!p)
    throw Error("device memory: cannot allocate " + std::to_string(bytes) + " bytes");
  auto a = std::make_unique<Allocation>();
  a->base = reinterpret_cast<std::uintptr_t>(p);
  a->size = bytes;
  if (counting.load())
    a->marks = std::make_unique<std::atomic<unsigned char>[]>(bytes);
  Registry &r = registry();
  const std::unique_lock lock(r.mutex);
  r.by_base[a->base] = std::move(a);
  r.generation.fetch_add(1, std::memory_order_release);
  return p;
}

void device_free(void *p) noexcept {
  if (!p)
    return;
  {
    Registry &r = registry();
    const std::unique_lock lock(r.mutex);
    r.by_base.erase(reinterpret_cast<std::uintptr_t>(p));
    r.generation.fetch_add(1, std::memory_order_release);
  }
  std::free(p);
}

void label_allocation(const void *p, const std::string &label) {
  Registry &r = registry();
  const std::unique_lock lock(r.mutex);
  const auto it = r.by_base.find(reinterpret_cast<std::uintptr_t>(p));
  if (it != r.by_base.end())
    it->second->label = label;
}

const Allocation *find_allocation(const void *p) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  Registry &r = registry();
  // Every kernel thread looks up each of its pointer arguments: the last few allocations found
  // are kept per host thread, so that the shared lock (a contended cache line) is taken only
  // when the allocations changed or a pointer is into another one.
  struct Cached {
    std::uint64_t generation = ~std::uint64_t(0);
    const Allocation *found[4] = {};
    unsigned next = 0;
  };
  thread_local Cached cache;
  const std::uint64_t generation = r.generation.load(std::memory_order_acquire);
  if (cache.generation == generation) {
    // Strictly inside: one past an end may also be the next allocation's base, which the
    // ordered lookup below prefers.
    for (const Allocation *a : cache.found)
      if (a && at >= a->base && at < a->base + a->size)
        return a;
  } else {
    cache = Cached{};
    cache.generation = generation;
  }
  const std::shared_lock lock(r.mutex);
  auto it = r.by_base.upper_bound(at);
  if (it == r.by_base.begin())
    return nullptr;
  --it;
  // One past the end still belongs to it (a row pointer may start there).
  if (at > it->first + it->second->size)
    return nullptr;
  cache.found[cache.next++ % 4] = it->second.get();
  return it->second.get();
}

void global_access(const Allocation *a, std::uintptr_t address, std::size_t bytes, bool write) {
  if (!a || address < a->base || address + bytes > a->base + a->size) {
    const ThreadState &st = current();
    std::string what = std::string("global memory ") + (write ? "written" : "read");
    if (!a) {
      what += " through a pointer that is not into device memory";
    } else {
      const auto off = static_cast<std::int64_t>(address - a->base);
      what += " at byte offset " + std::to_string(off) + " (" + std::to_string(bytes) +
              " bytes), outside " + (a->label.empty() ? std::string("a device allocation") : a->label) +
              " of " + std::to_string(a->size) + " bytes";
    }
    throw Error(std::string("kernel '") + st.block->kernel + "', block " +
                dim_text(st.block_idx) + ", thread " + dim_text(st.thread_idx) + ": " + what);
  }
  if (const std::string why = unordered_copy(thread_order(), address, bytes); !why.empty()) {
    const ThreadState &st = current();
    throw Error(std::string("kernel '") + st.block->kernel + "', block " + dim_text(st.block_idx) +
                ", thread " + dim_text(st.thread_idx) + ": " + (write ? "writes " : "reads ") +
                why);
  }
  if (!launch_count || !a->marks)
    return;
  // A read of bytes this launch wrote before comes from the cache the write went through, not
  // from memory: not counted.
  const std::size_t first = address - a->base;
  if (!write && (a->marks[first].load(std::memory_order_relaxed) & 2))
    return;
  const unsigned char bit = write ? 2 : 1;
  for (std::size_t i = first; i < first + bytes; ++i)
    a->marks[i].fetch_or(bit, std::memory_order_relaxed);
  a->touched.store(true, std::memory_order_relaxed);
  Block &b = *current().block;
  (write ? b.writes : b.reads).emplace_back(address, address + bytes);
}

void set_counting(bool on) {
  Registry &r = registry();
  const std::unique_lock lock(r.mutex);
  if (on)
    for (auto &[base, a] : r.by_base)
      if (!a->marks)
        a->marks = std::make_unique<std::atomic<unsigned char>[]>(a->size);
  counting.store(on);
}

std::vector<KernelTraffic> traffic() {
  Traffic &t = traffic_state();
  const std::lock_guard lock(t.mutex);
  return t.kernels;
}

void reset_traffic() {
  Traffic &t = traffic_state();
  const std::lock_guard lock(t.mutex);
  t.kernels.clear();
}

} // namespace stencilc::gpu::cpu_layer
