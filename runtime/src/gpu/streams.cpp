// Streams and events of the CPU execution layer (stencilc/gpu/cpu_layer.h), with CUDA's
// ordering rules: a stream runs its operations in order on a host thread of its own, so work on
// two streams really runs at the same time, and an operation is ordered after another stream's
// work only through an event the stream waits for (or the host's synchronizing with it).
//
// Checking mode tracks that ordering, not the timing: every operation is queued with what its
// stream knows to be complete (per stream, the last operation known done: from the stream's own
// order, the events it waited for, and the host's knowledge when it was queued). An
// asynchronous copy marks its destination pending until the host knows it complete; a kernel
// that touches a pending destination its launch does not know complete, or a host read of one
// (host_access), is an Error, however the threads happened to run.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "stencilc/error.h"
#include "stencilc/gpu/cpu_layer.h"

namespace stencilc::gpu::cpu_layer {

// Per stream id, the number of its operations known complete.
struct Order {
  std::vector<std::uint64_t> done;
  void merge(const Order &o) {
    if (done.size() < o.done.size())
      done.resize(o.done.size(), 0);
    for (std::size_t i = 0; i < o.done.size(); ++i)
      done[i] = std::max(done[i], o.done[i]);
  }
  std::uint64_t of(int stream) const {
    return static_cast<std::size_t>(stream) < done.size() ? done[static_cast<std::size_t>(stream)]
                                                          : 0;
  }
  void set(int stream, std::uint64_t n) {
    if (done.size() <= static_cast<std::size_t>(stream))
      done.resize(static_cast<std::size_t>(stream) + 1, 0);
    done[static_cast<std::size_t>(stream)] = std::max(done[static_cast<std::size_t>(stream)], n);
  }
};

namespace {

// A copy's destination (rows of `width` bytes, `pitch` apart from `lo`), pending until the host
// knows the copy complete.
struct Pending {
  std::uintptr_t lo, hi;
  std::size_t width, pitch;
  bool overlaps(std::uintptr_t a, std::size_t bytes) const {
    if (a + bytes <= lo || a >= hi)
      return false;
    if (a < lo)
      return true;
    const std::size_t within = (a - lo) % pitch;
    return within < width || within + bytes > pitch;
  }
  int stream;
  std::uint64_t seq; // the copy is operation `seq` of its stream (from 1)
  std::string what;
};

struct Tracker {
  std::mutex mutex;
  int streams = 0;
  Order host; // what the host thread knows complete
  std::vector<Pending> pending;
  std::atomic<int> pending_count{0};
  // Drops what the host knows complete (every later operation is ordered after it).
  void prune() {
    pending.erase(std::remove_if(pending.begin(), pending.end(),
                                 [&](const Pending &p) { return host.of(p.stream) >= p.seq; }),
                  pending.end());
    pending_count.store(static_cast<int>(pending.size()));
  }
};
Tracker &tracker() {
  static Tracker t;
  return t;
}

thread_local const Order *current_order = nullptr;

} // namespace

const Order *&thread_order() { return current_order; }

std::string unordered_copy(const Order *known, std::uintptr_t address, std::size_t bytes) {
  Tracker &t = tracker();
  if (t.pending_count.load(std::memory_order_relaxed) == 0)
    return "";
  const std::lock_guard lock(t.mutex);
  const Order &k = known ? *known : t.host;
  for (const Pending &p : t.pending)
    if (p.overlaps(address, bytes) && k.of(p.stream) < p.seq)
      return p.what + " while a copy to it on stream " + std::to_string(p.stream) +
             " is not known complete (a missing event wait or synchronize)";
  return "";
}

void host_access(const void *p, std::size_t bytes, const char *what) {
  const std::string why = unordered_copy(nullptr, reinterpret_cast<std::uintptr_t>(p), bytes);
  if (!why.empty())
    throw Error(std::string("the host reads ") + what + ": " + why);
}

struct Stream::State {
  int id = 0;
  std::uint64_t queued = 0; // operations queued so far
  Order tail;               // what an operation queued now will know complete
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<std::function<void()>> ops;
  std::uint64_t ran = 0;
  bool stop = false;
  std::exception_ptr error;
  std::thread worker;
};

Stream::Stream() : s_(std::make_unique<State>()) {
  Tracker &t = tracker();
  {
    const std::lock_guard lock(t.mutex);
    s_->id = ++t.streams;
  }
  s_->worker = std::thread([s = s_.get()] {
    for (;;) {
      std::function<void()> op;
      {
        std::unique_lock lock(s->mutex);
        s->cv.wait(lock, [&] { return s->stop || !s->ops.empty(); });
        if (s->ops.empty())
          return;
        op = std::move(s->ops.front());
      }
      // After an error the stream's later work is skipped (as a failed CUDA stream's).
      if (!s->error) {
        try {
          op();
        } catch (...) {
          s->error = std::current_exception();
        }
      }
      {
        const std::lock_guard lock(s->mutex);
        s->ops.pop_front();
        ++s->ran;
      }
      s->cv.notify_all();
    }
  });
}

Stream::~Stream() {
  {
    const std::lock_guard lock(s_->mutex);
    s_->stop = true;
  }
  s_->cv.notify_all();
  s_->worker.join();
}

int Stream::id() const { return s_->id; }

void Stream::enqueue(std::function<void(const Order &)> op) {
  Tracker &t = tracker();
  auto known = std::make_shared<Order>();
  {
    const std::lock_guard lock(t.mutex);
    s_->tail.merge(t.host); // queued by the host after what it knows complete
    s_->tail.set(s_->id, s_->queued);
    *known = s_->tail;
    ++s_->queued;
  }
  {
    const std::lock_guard lock(s_->mutex);
    s_->ops.push_back([op = std::move(op), known] { op(*known); });
  }
  s_->cv.notify_all();
}

std::uint64_t Stream::queued() const { return s_->queued; }

void Stream::synchronize() {
  std::uint64_t target = 0;
  Order tail;
  {
    const std::lock_guard lock(tracker().mutex);
    target = s_->queued;
    tail = s_->tail;
  }
  {
    std::unique_lock lock(s_->mutex);
    s_->cv.wait(lock, [&] { return s_->ran >= target; });
  }
  Tracker &t = tracker();
  {
    const std::lock_guard lock(t.mutex);
    t.host.merge(tail);
    t.host.set(s_->id, target);
    t.prune();
  }
  if (s_->error)
    std::rethrow_exception(std::exchange(s_->error, nullptr));
}

void Event::record(Stream &s) {
  // Known at the event: what the stream's next operation would know, and everything queued on
  // it so far.
  const std::lock_guard lock(tracker().mutex);
  known_ = std::make_shared<Order>(s.s_->tail);
  known_->set(s.s_->id, s.s_->queued);
  stream_ = &s;
  target_ = s.s_->queued;
}

void Event::synchronize() {
  if (!stream_)
    return;
  {
    std::unique_lock lock(stream_->s_->mutex);
    stream_->s_->cv.wait(lock, [&] { return stream_->s_->ran >= target_; });
  }
  Tracker &t = tracker();
  const std::lock_guard lock(t.mutex);
  t.host.merge(*known_);
  t.prune();
}

void stream_wait(Stream &s, const Event &e) {
  if (!e.stream_)
    return;
  // Later work on s knows what the event knew, once the event's stream has reached it.
  {
    const std::lock_guard lock(tracker().mutex);
    s.s_->tail.merge(*e.known_);
  }
  Stream *const other = e.stream_;
  const std::uint64_t target = e.target_;
  s.enqueue([other, target](const Order &) {
    std::unique_lock lock(other->s_->mutex);
    other->s_->cv.wait(lock, [&] { return other->s_->ran >= target; });
  });
}

void launch_on(Stream &s, const char *kernel, Dim3 grid, Dim3 block, std::function<void()> body) {
  s.enqueue([kernel, grid, block, body = std::move(body)](const Order &known) {
    current_order = &known;
    try {
      launch(kernel, grid, block, body);
    } catch (...) {
      current_order = nullptr;
      throw;
    }
    current_order = nullptr;
  });
}

void copy_async(Stream &s, void *dst, const void *src, std::size_t width, std::size_t pitch,
                std::size_t height, const char *what) {
  if (!width || !height)
    return;
  Tracker &t = tracker();
  {
    const std::lock_guard lock(t.mutex);
    const auto lo = reinterpret_cast<std::uintptr_t>(dst);
    t.pending.push_back(
        {lo, lo + (height - 1) * pitch + width, width, pitch, s.s_->id, s.s_->queued + 1, what});
    t.pending_count.store(static_cast<int>(t.pending.size()));
  }
  s.enqueue([=](const Order &) {
    for (std::size_t r = 0; r < height; ++r)
      std::memcpy(static_cast<char *>(dst) + r * pitch, static_cast<const char *>(src) + r * pitch,
                  width);
  });
}

} // namespace stencilc::gpu::cpu_layer
