#include "stencilc/grid.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "stencilc/error.h"

namespace stencilc {

namespace {

// Sanity cap on one grid's allocation; anything larger is a typo in a size, not a real run.
constexpr double kMaxGridBytes = 17592186044416.0; // 2^44 = 16 TiB

std::int64_t round_up(std::int64_t v, std::int64_t m) { return (v + m - 1) / m * m; }

// "1e+13" -> "1e13": sizes in messages read better without the '+' and leading zeros.
std::string short_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  std::string s = buf;
  auto e = s.find('e');
  if (e == std::string::npos)
    return s;
  std::string mant = s.substr(0, e), exp = s.substr(e + 1);
  bool neg = !exp.empty() && exp[0] == '-';
  if (!exp.empty() && (exp[0] == '+' || exp[0] == '-'))
    exp.erase(0, 1);
  exp.erase(0, std::min(exp.find_first_not_of('0'), exp.size() - 1));
  return mant + "e" + (neg ? "-" : "") + exp;
}

std::string shape_string(int rank, const Extents &e) {
  std::string s = "(";
  for (int d = 0; d < rank; ++d)
    s += (d ? ", " : "") + std::to_string(e[d]);
  return s + (rank == 1 ? ",)" : ")");
}

std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

} // namespace

// Rank, extents and halos in range; the shape stored.
template <typename T>
void Grid<T>::check_shape(const std::string &who, int rank, const Extents &extent,
                          const Halos &halo) {
  if (rank < 1 || rank > kMaxRank)
    throw Error(who + "rank " + std::to_string(rank) + " is not supported (must be 1 to " +
                std::to_string(kMaxRank) + ")");
  rank_ = rank;
  for (int d = 0; d < rank; ++d) {
    if (extent[d] < 1)
      throw Error(who + "extent " + std::to_string(d + 1) + " is " + std::to_string(extent[d]) +
                  "; it must be at least 1");
    if (halo[d] < 0)
      throw Error(who + "halo " + std::to_string(d + 1) + " is " + std::to_string(halo[d]) +
                  "; it must be at least 0");
    extent_[d] = extent[d];
    halo_[d] = halo[d];
  }
}

namespace {

// Cells (padded rows times the other dimensions) of a shape, in double: exact enough below the
// cap, and it cannot overflow. `row` is the padded row's cells.
double cells_of(double row, const Extents &extent, const Halos &halo) {
  double cells = row;
  for (int d = 1; d < kMaxRank; ++d)
    cells *= double(extent[d]) + 2.0 * double(halo[d]);
  return cells;
}

constexpr std::size_t kHugePage = std::size_t(2) << 20;

// STENCILC_HUGE_PAGES=0 keeps grids on small pages (to compare).
bool huge_pages_wanted() {
  const char *v = std::getenv("STENCILC_HUGE_PAGES");
  return !(v && std::strcmp(v, "0") == 0);
}

// Huge allocations start at different offsets into their huge page (a step of 65 lines per
// allocation, 32 of them): on huge pages the address bits that pick an L2 set are the
// virtual ones, and grids all starting on a 2 MiB boundary would put the same cell of every
// grid (himeno reads 14 at once) in the same set.
std::size_t next_colour() {
  static std::atomic<unsigned> count{0};
  return static_cast<std::size_t>(count.fetch_add(1) % 32) * 65 * 64;
}

// Zeroed storage of `bytes`, the pointer to use and the owner that frees it (they differ by
// the colour offset of a huge allocation).
std::shared_ptr<unsigned char> allocate_zeroed(std::size_t bytes, const std::string &what) {
  // A grid of a huge page or more goes on transparent huge pages where the kernel gives them
  // on request (madvise mode; advice only, a refusal leaves small pages): a sweep reads 2r + 1
  // planes a megabyte apart, each on pages of its own, and walks pages 512 times less often.
  const bool huge = bytes >= kHugePage && huge_pages_wanted();
  const std::size_t offset = huge ? next_colour() : 0;
  const std::size_t size = huge ? (bytes + offset + kHugePage - 1) / kHugePage * kHugePage : bytes;
  void *p = std::aligned_alloc(huge ? kHugePage : kAlignBytes, size);
  if (!p)
    throw Error(what);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (huge)
    madvise(p, size, MADV_HUGEPAGE);
#endif
  std::memset(p, 0, size);
  std::shared_ptr<unsigned char> owner(static_cast<unsigned char *>(p),
                                       [](unsigned char *q) { std::free(q); });
  return std::shared_ptr<unsigned char>(owner, owner.get() + offset);
}

} // namespace

unsigned char *allocate_buffer(std::size_t bytes) {
  // Rings are many streams at once (every stage's planes, the carried rows): on small pages
  // their page walks cost heat3d's deep plans 15-25% on the AMD EPYC VM, and heat2d's 1 MB of
  // rings 4% (PERFORMANCE.md, 2026-12-03 06:36). From an eighth of a huge page on, a whole one
  // (a thread's buffer, allocated once) is worth its unused part.
  const bool huge = bytes >= kHugePage / 8 && huge_pages_wanted();
  const std::size_t a = huge ? kHugePage : kAlignBytes;
  const std::size_t size = (std::max<std::size_t>(bytes, 1) + a - 1) / a * a;
  void *p = std::aligned_alloc(a, size);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (p && huge)
    madvise(p, size, MADV_HUGEPAGE);
#endif
  return static_cast<unsigned char *>(p);
}

template <typename T>
Grid<T>::Grid(std::string name, int rank, const Extents &extent, const Halos &halo)
    : name_(std::move(name)) {
  const std::string who = "grid '" + name_ + "': ";
  check_shape(who, rank, extent, halo);
  const std::int64_t A = static_cast<std::int64_t>(kAlignBytes / sizeof(T));
  const double cells =
      cells_of(std::ceil((double(extent_[0]) + 2.0 * double(halo_[0])) / double(A)) * A,
               extent_, halo_);
  if (cells * double(sizeof(T)) > kMaxGridBytes)
    throw Error(who + "size " + short_number(cells) + " cells is too large (the limit is " +
                short_number(kMaxGridBytes / double(sizeof(T))) + " cells of " + type_name<T>() +
                ")");

  // Now everything fits comfortably in int64.
  const std::int64_t l0 = halo_[0];
  stride_[0] = 1;
  stride_[1] = round_up(extent_[0] + 2 * std::int64_t(halo_[0]), A);
  for (int d = 2; d < kMaxRank; ++d)
    stride_[d] = stride_[d - 1] * (extent_[d - 1] + 2 * std::int64_t(halo_[d - 1]));
  total_ = stride_[3] * (extent_[3] + 2 * std::int64_t(halo_[3]));
  pitch_ = stride_[1];
  rows_ = total_ / stride_[1];
  origin_offset_ = l0;
  for (int d = 1; d < kMaxRank; ++d)
    origin_offset_ += halo_[d] * stride_[d];

  const std::size_t bytes = static_cast<std::size_t>(
      round_up(total_ * std::int64_t(sizeof(T)), std::int64_t(kAlignBytes)));
  std::shared_ptr<unsigned char> p = allocate_zeroed(
      bytes, who + "cannot allocate " + short_number(double(bytes)) + " bytes (" +
                 shape_string(rank_, extent_) + " cells of " + type_name<T>() + " plus halo)");
  base_ = reinterpret_cast<T *>(p.get());
  owner_ = std::move(p);
}

template <typename T>
Grid<T>::Grid(std::string name, int rank, const Extents &extent, const Halos &halo,
              const Interleaved &group, int member)
    : name_(std::move(name)) {
  const std::string who = "grid '" + name_ + "': ";
  check_shape(who, rank, extent, halo);
  bool fits = member >= 0 && member < static_cast<int>(group.offset.size()) &&
              group.rank == rank && group.elem_bytes[member] == static_cast<int>(sizeof(T)) &&
              group.halo0[member] == halo[0];
  for (int d = 0; d < rank && fits; ++d)
    fits = group.extent[d] == extent[d] && (d == 0 || group.halo[d] == halo[d]);
  if (!fits || !group.storage)
    throw Error(who + "not member " + std::to_string(member) + " of its interleaved storage "
                      "(its shape, halos or element type differ)");
  stride_[0] = 1;
  stride_[1] = group.row_bytes / static_cast<std::int64_t>(sizeof(T));
  for (int d = 2; d < kMaxRank; ++d)
    stride_[d] = stride_[d - 1] * (extent_[d - 1] + 2 * std::int64_t(halo_[d - 1]));
  pitch_ = group.pitch[member];
  rows_ = group.rows;
  total_ = (rows_ - 1) * stride_[1] + pitch_;
  origin_offset_ = halo_[0];
  for (int d = 1; d < kMaxRank; ++d)
    origin_offset_ += halo_[d] * stride_[d];
  owner_ = group.storage;
  base_ = reinterpret_cast<T *>(group.storage.get() + group.offset[member]);
}

Interleaved interleave(const std::string &what, int rank, const Extents &extent,
                       const Halos &halo, const std::vector<std::pair<int, int>> &members) {
  const std::string who = "grids of '" + what + "': ";
  if (rank < 1 || rank > kMaxRank || members.empty())
    throw Error(who + "rank " + std::to_string(rank) + " or no members");
  Interleaved g;
  g.rank = rank;
  for (int d = 0; d < rank; ++d) {
    if (extent[d] < 1)
      throw Error(who + "extent " + std::to_string(d + 1) + " is " + std::to_string(extent[d]) +
                  "; it must be at least 1");
    if (halo[d] < 0)
      throw Error(who + "halo " + std::to_string(d + 1) + " is " + std::to_string(halo[d]) +
                  "; it must be at least 0");
    g.extent[d] = extent[d];
    g.halo[d] = d == 0 ? 0 : halo[d];
  }
  double row = 0;
  for (const auto &[elem, h0] : members) {
    if ((elem != 4 && elem != 8) || h0 < 0)
      throw Error(who + "a member of " + std::to_string(elem) + " bytes with x halo " +
                  std::to_string(h0));
    const std::int64_t A = static_cast<std::int64_t>(kAlignBytes) / elem;
    const std::int64_t pitch = round_up(extent[0] + 2 * std::int64_t(h0), A);
    g.elem_bytes.push_back(elem);
    g.halo0.push_back(h0);
    g.offset.push_back(g.row_bytes);
    g.pitch.push_back(pitch);
    g.row_bytes += pitch * elem;
    row += double(pitch * elem);
  }
  const double bytes = cells_of(row, g.extent, g.halo);
  if (bytes > kMaxGridBytes)
    throw Error(who + "size " + short_number(bytes) + " bytes is too large (the limit is " +
                short_number(kMaxGridBytes) + ")");
  g.rows = 1;
  for (int d = 1; d < kMaxRank; ++d)
    g.rows *= g.extent[d] + 2 * std::int64_t(g.halo[d]);
  const std::size_t total = static_cast<std::size_t>(g.rows * g.row_bytes);
  g.storage =
      allocate_zeroed(total, who + "cannot allocate " + short_number(double(total)) + " bytes");
  return g;
}

template <typename T> std::int64_t Grid<T>::interior_size() const {
  std::int64_t n = 1;
  for (int d = 0; d < rank_; ++d)
    n *= extent_[d];
  return rank_ ? n : 0;
}

template <typename T> void Grid<T>::fill(T value) {
  for (std::int64_t r = 0; base_ && r < rows_; ++r)
    std::fill(base_ + r * stride_[1], base_ + r * stride_[1] + pitch_, value);
}

template <typename T> void Grid<T>::fill_halo(T value) {
  if (!base_)
    return;
  const std::int64_t h0 = halo(0), e0 = extent(0);
  for (std::int64_t w = -halo(3); w < extent(3) + halo(3); ++w)
    for (std::int64_t z = -halo(2); z < extent(2) + halo(2); ++z)
      for (std::int64_t y = -halo(1); y < extent(1) + halo(1); ++y) {
        T *row = &at(0, y, z, w);
        bool inside = y >= 0 && y < extent(1) && z >= 0 && z < extent(2) && w >= 0 && w < extent(3);
        if (inside) {
          std::fill(row - h0, row, value);
          std::fill(row + e0, row + e0 + h0, value);
        } else {
          std::fill(row - h0, row + e0 + h0, value);
        }
      }
}

template <typename T> void Grid<T>::swap_storage(Grid &other) {
  bool same = rank_ == other.rank_;
  for (int d = 0; d < kMaxRank && same; ++d)
    same = extent(d) == other.extent(d) && halo(d) == other.halo(d);
  if (!same) {
    auto describe = [](const Grid &g) {
      std::string s =
          "grid '" + g.name_ + "' (shape " + shape_string(g.rank_, g.extent_) + ", halo (";
      for (int d = 0; d < g.rank_; ++d)
        s += (d ? ", " : "") + std::to_string(g.halo_[d]);
      return s + (g.rank_ == 1 ? ",))" : "))");
    };
    throw Error("cannot swap storage of " + describe(*this) + " with " + describe(other) +
                ": rank, extents and halos must all match");
  }
  std::swap(owner_, other.owner_);
  std::swap(base_, other.base_);
  std::swap(stride_, other.stride_);
  std::swap(origin_offset_, other.origin_offset_);
  std::swap(total_, other.total_);
  std::swap(pitch_, other.pitch_);
  std::swap(rows_, other.rows_);
}

template class Grid<float>;
template class Grid<double>;
template class Grid<std::int32_t>;
template class Grid<std::int64_t>;

std::string shape_text(const std::vector<std::int64_t> &shape) {
  std::string s = "(";
  for (std::size_t d = 0; d < shape.size(); ++d)
    s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

const std::string &grid_name(const GridRef &g) {
  return std::visit([](const auto *grid) -> const std::string & { return grid->name(); }, g);
}

std::vector<std::int64_t> grid_extents(const GridRef &g) {
  return std::visit(
      [](const auto *grid) {
        std::vector<std::int64_t> e;
        for (int d = 0; d < grid->rank(); ++d)
          e.push_back(grid->extent(d));
        return e;
      },
      g);
}

template <typename T> double checksum(const Grid<T> &g) {
  double sum = 0;
  const std::int64_t n = g.extent(0);
  for_each_interior_row(g, [&](const T *row) {
    for (std::int64_t x = 0; x < n; ++x)
      sum += static_cast<double>(row[x]);
  });
  return sum;
}

template <typename T>
T random_value(std::uint64_t seed, std::uint64_t grid_index, std::uint64_t i) {
  const std::uint64_t base = seed * 0x9E3779B97F4A7C15ULL + grid_index * 0xBF58476D1CE4E5B9ULL;
  const std::uint64_t r = splitmix64(base + i);
  if constexpr (std::is_floating_point_v<T>) {
    T v = static_cast<T>(static_cast<double>(r >> 11) * 0x1.0p-53);
    // Rounding to float can reach 1.0; keep the documented half-open range.
    return v < T(1) ? v : std::nextafter(T(1), T(0));
  } else {
    return static_cast<T>(r % 100);
  }
}

template <typename T> void fill_random(Grid<T> &g, std::uint64_t seed, std::uint64_t grid_index) {
  const std::int64_t n = g.extent(0);
  std::uint64_t i = 0;
  for_each_interior_row(g, [&](T *row) {
    for (std::int64_t x = 0; x < n; ++x, ++i)
      row[x] = random_value<T>(seed, grid_index, i);
  });
}

template <typename T> const char *npy_descr() {
  if constexpr (std::is_same_v<T, float>)
    return "<f4";
  else if constexpr (std::is_same_v<T, double>)
    return "<f8";
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return "<i8";
  else
    return "<i4";
}

template <typename T> const char *type_name() {
  if constexpr (std::is_same_v<T, float>)
    return "float";
  else if constexpr (std::is_same_v<T, double>)
    return "double";
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return "long";
  else
    return "int";
}

#define STENCILC_INSTANTIATE(T)                                                                    \
  template double checksum<T>(const Grid<T> &);                                                    \
  template void fill_random<T>(Grid<T> &, std::uint64_t, std::uint64_t);                           \
  template T random_value<T>(std::uint64_t, std::uint64_t, std::uint64_t);                         \
  template const char *npy_descr<T>();                                                             \
  template const char *type_name<T>();
STENCILC_INSTANTIATE(float)
STENCILC_INSTANTIATE(double)
STENCILC_INSTANTIATE(std::int32_t)
STENCILC_INSTANTIATE(std::int64_t)
#undef STENCILC_INSTANTIATE

} // namespace stencilc
