// Grid storage: a rank 1..4 array of interior cells surrounded by ghost (halo) cells.
//
// Layout: dimension 0 (x) is contiguous. Every x-row, ghost cells included, starts on a 64-byte
// line: cell (-halo(0), y, z, w) is aligned and the row pitch is halo + extent + halo rounded up
// to whole lines. (Aligning the first interior cell instead would add a mostly unused line to
// every row, which costs a memory-bound sweep a few percent of its bandwidth.)
// Indices run over [-halo(d), extent(d) + halo(d)).
//
// Several grids of one shape may share an allocation instead, their x-rows interleaved (the
// AoSoA layout of a struct's members, interleave() below): row (y, z, w) of every member, one
// after the other, then the next row. Each member then addresses its cells with the same
// strides above dimension 0, which step over the other members' rows; pitch() is its own row.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace stencilc {

constexpr int kMaxRank = 4;
constexpr std::size_t kAlignBytes = 64;

using Extents = std::array<std::int64_t, kMaxRank>;
using Halos = std::array<int, kMaxRank>;

/// One allocation for the grids of a struct's members, their x-rows interleaved: every member's
/// row (y, z, w) (its own halo in x, padded to whole 64-byte lines) follows the row of the
/// member before it. The members share extents and the halos of dimensions 1..3.
struct Interleaved {
  std::shared_ptr<unsigned char> storage;
  int rank = 0;
  Extents extent{1, 1, 1, 1};
  Halos halo{0, 0, 0, 0};             // dimensions 1..3 (halo[0] unused)
  std::vector<int> elem_bytes, halo0; // per member
  std::vector<std::int64_t> offset;   // per member: bytes from a row group's start to its row
  std::vector<std::int64_t> pitch;    // per member: elements of its row, padding included
  std::int64_t row_bytes = 0;         // one row of every member
  std::int64_t rows = 0;              // rows of the allocation (halos included)
};
/// Allocates (zeroed) an Interleaved for members of (element bytes, x halo) each, `what` naming
/// the group in errors. Throws stencilc::Error as a Grid does (bad extents, too large).
Interleaved interleave(const std::string &what, int rank, const Extents &extent,
                       const Halos &halo, const std::vector<std::pair<int, int>> &members);

template <typename T> class Grid {
public:
  using value_type = T;
  Grid() = default;
  // Move-only: a copy would share the storage.
  Grid(const Grid &) = delete;
  Grid &operator=(const Grid &) = delete;
  Grid(Grid &&o) noexcept { *this = std::move(o); }
  Grid &operator=(Grid &&o) noexcept {
    if (this != &o) {
      name_ = std::move(o.name_);
      rank_ = o.rank_;
      extent_ = o.extent_;
      halo_ = o.halo_;
      stride_ = o.stride_;
      origin_offset_ = o.origin_offset_;
      total_ = o.total_;
      pitch_ = o.pitch_;
      rows_ = o.rows_;
      owner_ = std::move(o.owner_);
      base_ = o.base_;
      o.base_ = nullptr;
      o.rows_ = o.total_ = 0;
    }
    return *this;
  }
  /// extent[d] >= 1 for d < rank (unused dims are ignored); halo[d] >= 0.
  /// Throws stencilc::Error on a non-positive extent or a size that overflows.
  /// All cells (interior and halo) start at zero.
  Grid(std::string name, int rank, const Extents &extent, const Halos &halo);
  /// Member `member` of `group`: its extents and its halos above dimension 0 must be the
  /// group's, its x halo and element size the member's (stencilc::Error otherwise).
  Grid(std::string name, int rank, const Extents &extent, const Halos &halo,
       const Interleaved &group, int member);

  const std::string &name() const { return name_; }
  int rank() const { return rank_; }
  std::int64_t extent(int d) const { return d < rank_ ? extent_[d] : 1; }
  int halo(int d) const { return d < rank_ ? halo_[d] : 0; }
  /// Element stride of dimension d; stride(0) == 1.
  std::int64_t stride(int d) const { return stride_[d]; }
  /// Elements of one row, from its first ghost cell, padding included: stride(1) unless the
  /// grid is a member of an Interleaved (then its rows are stride(1) elements apart).
  std::int64_t pitch() const { return pitch_; }
  bool interleaved() const { return pitch_ != stride_[1]; }
  /// The allocation, shared by the members of an Interleaved (null without storage).
  const void *owner() const { return owner_.get(); }
  /// Number of interior cells (product of extents).
  std::int64_t interior_size() const;

  /// The whole allocation, halos and row padding included (storage_size() elements), and
  /// where cell (0,0,0,0) lies in it: what a device copy of the grid mirrors. For a member of an
  /// Interleaved: from its first row to the end of its last, the other members' rows between.
  T *storage() { return base_; }
  const T *storage() const { return base_; }
  std::int64_t storage_size() const { return total_; }
  std::int64_t origin_offset() const { return origin_offset_; }
  /// Rows of the storage (halos included), stride(1) elements apart.
  std::int64_t rows() const { return rows_; }
  /// Pointer to interior cell (0,0,0,0); valid offsets reach into the halo.
  T *origin() { return base_ + origin_offset_; }
  const T *origin() const { return base_ + origin_offset_; }
  T &at(std::int64_t x, std::int64_t y = 0, std::int64_t z = 0, std::int64_t w = 0) {
    return origin()[x + y * stride_[1] + z * stride_[2] + w * stride_[3]];
  }
  const T &at(std::int64_t x, std::int64_t y = 0, std::int64_t z = 0, std::int64_t w = 0) const {
    return origin()[x + y * stride_[1] + z * stride_[2] + w * stride_[3]];
  }

  /// Set every cell, interior and halo.
  void fill(T value);
  /// Set the halo cells only (the cells outside the interior), leaving the interior.
  void fill_halo(T value);
  /// O(1) exchange of storage (and layout: a member of an Interleaved may swap with a grid of
  /// its own); both grids must have the same rank, extents and halos (throws stencilc::Error
  /// otherwise). Names stay with the objects.
  void swap_storage(Grid &other);

private:
  void check_shape(const std::string &who, int rank, const Extents &extent, const Halos &halo);
  std::string name_;
  int rank_ = 0;
  Extents extent_{1, 1, 1, 1};
  Halos halo_{0, 0, 0, 0};
  std::array<std::int64_t, kMaxRank> stride_{1, 0, 0, 0};
  std::int64_t origin_offset_ = 0;
  std::int64_t total_ = 0; // elements from the first row's start to the last row's end
  std::int64_t pitch_ = 0; // elements of a row
  std::int64_t rows_ = 0;
  std::shared_ptr<void> owner_;
  T *base_ = nullptr; // the first row's first element
};

/// Calls f(pointer to cell (0, y, z, w)) for every interior x-row of `g` (a Grid<T> or a const
/// one), in x-fastest order: rows of `g.extent(0)` contiguous cells. Nothing for a
/// default-constructed grid (no storage).
template <typename G, typename F> void for_each_interior_row(G &g, F &&f) {
  if (g.rank() == 0)
    return;
  for (std::int64_t w = 0; w < g.extent(3); ++w)
    for (std::int64_t z = 0; z < g.extent(2); ++z)
      for (std::int64_t y = 0; y < g.extent(1); ++y)
        f(&g.at(0, y, z, w));
}

extern template class Grid<float>;
extern template class Grid<double>;
extern template class Grid<std::int32_t>;
extern template class Grid<std::int64_t>;

/// A grid of any element type, by reference: what code that handles every type takes (the
/// writers of a run's outputs, Program::grid).
using GridRef = std::variant<const Grid<float> *, const Grid<double> *, const Grid<std::int32_t> *,
                             const Grid<std::int64_t> *>;
/// A shape as numpy prints it: "(4, 3)", "(12,)".
std::string shape_text(const std::vector<std::int64_t> &shape);
/// The name and the extents (x first; empty without storage) of any grid.
const std::string &grid_name(const GridRef &g);
std::vector<std::int64_t> grid_extents(const GridRef &g);

/// Sum of the interior cells in double, in a fixed order (x fastest), so that the same data
/// always gives the same bits.
template <typename T> double checksum(const Grid<T> &g);

/// Deterministic pseudo-random interior values (halo untouched): cell with linear interior
/// index i (x fastest) gets splitmix64(seed * 0x9E3779B97F4A7C15 + grid_index * 0xBF58476D1CE4E5B9
/// + i) mapped to [0, 1) for floating types (top 53 bits * 2^-53, then converted) and to 0..99 for
/// int32 and int64. Both the interpreter and generated code call this, so inputs are identical.
template <typename T> void fill_random(Grid<T> &g, std::uint64_t seed, std::uint64_t grid_index);
/// The value fill_random gives the cell of linear interior index i (for a block of a grid
/// split over processes, i of the whole grid).
template <typename T> T random_value(std::uint64_t seed, std::uint64_t grid_index, std::uint64_t i);

/// Uninitialised working storage of at least `bytes` (a thread's rings in the CPU engine): of
/// 256 KiB or more on transparent huge pages where the kernel gives them on request, as grids
/// are (whole 2 MiB pages, 2 MiB aligned, madvised; STENCILC_HUGE_PAGES=0 keeps small pages),
/// else 64-byte aligned.
/// Free it with std::free; nullptr if it cannot be had.
unsigned char *allocate_buffer(std::size_t bytes);

/// numpy dtype string of T: "<f4", "<f8", "<i4", "<i8".
template <typename T> const char *npy_descr();
/// The language's name of the element type: "float", "double", "int", "long".
template <typename T> const char *type_name();

} // namespace stencilc
