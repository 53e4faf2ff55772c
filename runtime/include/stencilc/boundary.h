// Filling ghost cells from boundary conditions. The interpreter and generated code call these
// same functions in the same order (dimension 0 first, low face before high face), so ghost
// values -- corners included -- are identical in both.
//
// The ghost slab of dimension d covers, in d, the halo layers outside [0, extent); in every
// dimension before d, the full range including ghosts (already filled); in every dimension
// after d, the interior only. Filling d = 0, 1, ... in order therefore fills corners too.
#pragma once
#include <cstdint>
#include <initializer_list>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "stencilc/grid.h"

namespace stencilc {

/// Whether a fill may spread a face over the threads: f must then neither throw nor share
/// state between calls (copies, and Dirichlet values that cannot fail, as generated code says).
enum class Fill { Serial, Parallel };

/// Faces of fewer cells are filled by the calling thread: a team costs more than they do.
constexpr std::int64_t kParallelFillCells = 16384;

/// Calls row(y, z, w, x0, x1) for every row of ghost cells [x0, x1) of face (d, side), side 0 =
/// low, 1 = high; with Fill::Parallel, the rows of a large face on the threads of a new team
/// (not inside one: a fill called from a parallel region stays on its thread). Each ghost cell
/// is written once from cells the face does not write, so the order does not change a bit.
template <typename T, typename F>
void for_each_ghost_row(const Grid<T> &g, int d, int side, F &&row, Fill mode = Fill::Serial) {
  std::int64_t lo[kMaxRank], hi[kMaxRank];
  for (int k = 0; k < kMaxRank; ++k) {
    if (k < d) {
      lo[k] = -g.halo(k);
      hi[k] = g.extent(k) + g.halo(k);
    } else {
      lo[k] = 0;
      hi[k] = g.extent(k);
    }
  }
  if (side == 0) {
    lo[d] = -g.halo(d);
    hi[d] = 0;
  } else {
    lo[d] = g.extent(d);
    hi[d] = g.extent(d) + g.halo(d);
  }
  std::int64_t cells = 1;
  for (int k = 0; k < kMaxRank; ++k)
    cells *= hi[k] - lo[k];
  if (cells <= 0)
    return;
#ifdef _OPENMP
  if (mode == Fill::Parallel && cells >= kParallelFillCells && !omp_in_parallel()) {
#pragma omp parallel for collapse(3) schedule(static)
    for (std::int64_t w = lo[3]; w < hi[3]; ++w)
      for (std::int64_t z = lo[2]; z < hi[2]; ++z)
        for (std::int64_t y = lo[1]; y < hi[1]; ++y)
          row(y, z, w, lo[0], hi[0]);
    return;
  }
#else
  (void)mode;
#endif
  for (std::int64_t w = lo[3]; w < hi[3]; ++w)
    for (std::int64_t z = lo[2]; z < hi[2]; ++z)
      for (std::int64_t y = lo[1]; y < hi[1]; ++y)
        row(y, z, w, lo[0], hi[0]);
}

/// Calls f(x, y, z, w) for every ghost cell of face (d, side), as for_each_ghost_row.
template <typename T, typename F>
void for_each_ghost(const Grid<T> &g, int d, int side, F &&f, Fill mode = Fill::Serial) {
  for_each_ghost_row(
      g, d, side,
      [&](std::int64_t y, std::int64_t z, std::int64_t w, std::int64_t x0, std::int64_t x1) {
        for (std::int64_t x = x0; x < x1; ++x)
          f(x, y, z, w);
      },
      mode);
}

/// Dirichlet: ghost cell = value(x, y, z, w) (the ghost cell's own indices). Fill::Parallel
/// only for a value that cannot throw and keeps no state (generated code: one that cannot fail).
template <typename T, typename F>
void fill_dirichlet(Grid<T> &g, int d, int side, F &&value, Fill mode = Fill::Serial) {
  for_each_ghost_row(
      g, d, side,
      [&](std::int64_t y, std::int64_t z, std::int64_t w, std::int64_t x0, std::int64_t x1) {
        T *const r = &g.at(0, y, z, w);
        for (std::int64_t x = x0; x < x1; ++x)
          r[x] = value(x, y, z, w);
      },
      mode);
}

/// Dirichlet on face (d, side) across the whole storage of the other dimensions, their ghost
/// layers included (fill_dirichlet covers the interior of the dimensions after d, whose ghost
/// layers a block of a distributed grid gets from its neighbours): for a grid whose
/// neighbours' cells are not exchanged (mpi-openmp's temporal plan, a grid it overwrites before
/// reading), the same values the exchange would bring.
template <typename T, typename F>
void fill_dirichlet_across(Grid<T> &g, int d, int side, F &&value) {
  std::int64_t lo[kMaxRank], hi[kMaxRank];
  for (int k = 0; k < kMaxRank; ++k) {
    lo[k] = -g.halo(k);
    hi[k] = g.extent(k) + g.halo(k);
  }
  lo[d] = side == 0 ? -g.halo(d) : g.extent(d);
  hi[d] = side == 0 ? 0 : g.extent(d) + g.halo(d);
  for (std::int64_t w = lo[3]; w < hi[3]; ++w)
    for (std::int64_t z = lo[2]; z < hi[2]; ++z)
      for (std::int64_t y = lo[1]; y < hi[1]; ++y)
        for (std::int64_t x = lo[0]; x < hi[0]; ++x)
          g.at(x, y, z, w) = value(x, y, z, w);
}

namespace detail {
// The coordinate in d of a ghost row (its y, z or w; d > 0).
inline std::int64_t row_coord(int d, std::int64_t y, std::int64_t z, std::int64_t w) {
  return d == 1 ? y : d == 2 ? z : w;
}

// The interior coordinate a ghost coordinate c copies in a dimension of extent n (c < 0 on the
// low face, c >= n on the high one).
inline std::int64_t neumann_source(std::int64_t n, std::int64_t c) {
  return c < 0 ? -c - 1 : 2 * n - 1 - c;
}
inline std::int64_t periodic_source(std::int64_t n, std::int64_t c) {
  return c < 0 ? c + n : c - n;
}

// Each ghost cell of face (d, side) from the interior cell at coordinate source(c) in d:
// in a row for d = 0, a whole row for d > 0 (a row of ghost cells copies one interior row).
template <typename T, typename S>
void fill_copy(Grid<T> &g, int d, int side, Fill mode, S &&source) {
  const std::int64_t sd = g.stride(d);
  for_each_ghost_row(
      g, d, side,
      [&](std::int64_t y, std::int64_t z, std::int64_t w, std::int64_t x0, std::int64_t x1) {
        T *const r = &g.at(0, y, z, w);
        if (d == 0) {
          for (std::int64_t x = x0; x < x1; ++x)
            r[x] = r[source(x)];
          return;
        }
        const std::int64_t c = row_coord(d, y, z, w);
        const T *const from = r + (source(c) - c) * sd;
        for (std::int64_t x = x0; x < x1; ++x)
          r[x] = from[x];
      },
      mode);
}
} // namespace detail

/// Neumann (zero gradient): the ghost layers mirror the interior across the face, so
/// u[-k] = u[k-1] and u[n-1+k] = u[n-k].
template <typename T> void fill_neumann(Grid<T> &g, int d, int side, Fill mode = Fill::Serial) {
  const std::int64_t n = g.extent(d);
  detail::fill_copy(g, d, side, mode, [n](std::int64_t c) { return detail::neumann_source(n, c); });
}

/// Periodic: u[-k] = u[n-k] and u[n-1+k] = u[k-1].
template <typename T> void fill_periodic(Grid<T> &g, int d, int side, Fill mode = Fill::Serial) {
  const std::int64_t n = g.extent(d);
  detail::fill_copy(g, d, side, mode,
                    [n](std::int64_t c) { return detail::periodic_source(n, c); });
}

/// Both faces of dimension 0 copied from the interior, each row's low and high ghost cells in
/// one visit: the same cells and values as the two calls of fill_periodic or fill_neumann with
/// d = 0 (each ghost cell copies an interior one, so neither side reads what the other writes),
/// with each row's ends reached once instead of twice (gt5d_4d's 32-cell rows spent an eighth of
/// a run in the two passes: docs/PERFORMANCE.md, 2026-12-04 18:18). A grid narrower than its
/// halo in x, whose ghost cells copy ghost cells, keeps the two calls.
enum class XFace { Neumann, Periodic };
template <typename T> void fill_x_faces(Grid<T> &g, XFace lo, XFace hi, Fill mode = Fill::Serial) {
  const std::int64_t n = g.extent(0), h = g.halo(0);
  if (n < h) {
    for (int side = 0; side < 2; ++side) {
      if ((side == 0 ? lo : hi) == XFace::Periodic)
        fill_periodic(g, 0, side, mode);
      else
        fill_neumann(g, 0, side, mode);
    }
    return;
  }
  auto source = [n](XFace f, std::int64_t x) {
    return f == XFace::Periodic ? detail::periodic_source(n, x) : detail::neumann_source(n, x);
  };
  // Both faces' rows are the same (y, z, w): for_each_ghost_row of the low face visits them,
  // and its [x0, x1) is the low ghost cells.
  for_each_ghost_row(
      g, 0, 0,
      [&](std::int64_t y, std::int64_t z, std::int64_t w, std::int64_t, std::int64_t) {
        T *const r = &g.at(0, y, z, w);
        for (std::int64_t x = -h; x < 0; ++x)
          r[x] = r[source(lo, x)];
        for (std::int64_t x = n; x < n + h; ++x)
          r[x] = r[source(hi, x)];
      },
      mode);
}

/// Number of cells of the box [lo, hi) (global coordinates, one pair per dimension) of the given
/// colour: half of them, and when every extent is odd, the one left over has the colour of the
/// corner lo.
inline std::int64_t box_colour_cells(std::initializer_list<std::int64_t> lo,
                                     std::initializer_list<std::int64_t> hi, int colour) {
  std::int64_t total = 1, corner = 0;
  bool all_odd = true;
  for (auto l = lo.begin(), h = hi.begin(); l != lo.end() && h != hi.end(); ++l, ++h) {
    const std::int64_t n = *h > *l ? *h - *l : 0;
    total *= n;
    all_odd = all_odd && n % 2 != 0;
    corner += *l;
  }
  if (!all_odd)
    return total / 2;
  return (corner % 2 + 2) % 2 == colour ? total / 2 + 1 : total / 2;
}

/// Number of interior cells of the given colour (0 = red: even index sum, 1 = black).
template <typename T> std::int64_t colour_count(const Grid<T> &g, int colour) {
  std::int64_t count = 0;
  const std::int64_t n0 = g.extent(0);
  for (std::int64_t w = 0; w < g.extent(3); ++w)
    for (std::int64_t z = 0; z < g.extent(2); ++z)
      for (std::int64_t y = 0; y < g.extent(1); ++y)
        count += ((y + z + w) % 2 == colour) ? (n0 + 1) / 2 : n0 / 2;
  return count;
}

} // namespace stencilc
