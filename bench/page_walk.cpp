// One random walk over a buffer (bench/page_walk.sh): a hop to a new small page and a new cache
// line each time, so every hop misses the TLB's small-page reach and pays a page walk. On a
// virtual machine the walk is two-dimensional (the guest's tables, then the host's for each of
// their entries), and how long it takes depends on how the host backs the memory, which a guest
// cannot see or choose. Prints ns per hop.
//
//   page_walk MIB huge|small
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 3 || std::atol(argv[1]) <= 0 ||
      (std::strcmp(argv[2], "huge") != 0 && std::strcmp(argv[2], "small") != 0)) {
    std::fprintf(stderr, "usage: page_walk MIB huge|small\n");
    return 2;
  }
  const std::size_t bytes = static_cast<std::size_t>(std::atol(argv[1])) << 20;
  const std::size_t stride = 4096 + 64; // the next small page, another line of it
  const std::size_t n = bytes / stride;
  char *p = static_cast<char *>(std::aligned_alloc(std::size_t(2) << 20, bytes));
  if (!p || n < 2) {
    std::fprintf(stderr, "page_walk: cannot allocate %zu bytes\n", bytes);
    return 1;
  }
  madvise(p, bytes, std::strcmp(argv[2], "huge") == 0 ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  std::memset(p, 1, bytes);
  // One cycle through all n slots in a random order: no prefetcher follows it.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin() + 1, order.end(), std::mt19937_64(1));
  for (std::size_t i = 0; i < n; ++i)
    *reinterpret_cast<char **>(p + order[i] * stride) = p + order[(i + 1) % n] * stride;
  char *q = p;
  constexpr std::size_t kHops = 20000000;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < kHops; ++i)
    q = *reinterpret_cast<char **>(q);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%.1f%s\n", s / kHops * 1e9, q == nullptr ? " (lost)" : ""); // q keeps the walk
  std::free(p);
  return 0;
}
