// The distributed runtime of the MPI targets (namespace stencilc::mpi), written once for
// mpi-openmp and, later, mpi-cuda and mpi-hip: the process grid (a Cartesian communicator),
// each grid's block of it, halo exchange, reductions, and the gathers behind checksums and
// grid() (--load and --save read and write blocks in parallel: io.h). Links the core only.
//
// Ghost cells: fill_ghosts() refreshes a grid dimension by dimension, as boundary.h does on
// one process: along dimension d, first the exchange with the neighbour blocks (the slab sent
// covers, in the dimensions before d, the ghost layers already filled, so corners arrive too;
// a periodic face whose dimension is split wraps around through the communicator's periods),
// then the faces on the physical boundary from their conditions. Every ghost cell then holds
// the value it has when one process fills the whole grid.
//
// Errors: what every rank finds alike (sizes, a decomposition that does not fit, a bad --load
// file, its header read by rank 0 and the verdict broadcast) is a CollectiveError: every rank
// throws it, rank 0 prints it once and all exit 1. Anything else one rank finds alone aborts the
// job (MPI_Abort), which ends every rank instead of leaving them waiting.
#pragma once
// The C API only: Open MPI's deprecated C++ bindings warn under -Wextra.
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "stencilc/error.h"
#include "stencilc/grid.h"
#include "stencilc/mpi/decompose.h"
#include "stencilc/plan.h"

namespace stencilc::mpi {

/// An error every rank raises with the same message.
struct CollectiveError : Error {
  using Error::Error;
};

/// MPI_Init_thread / MPI_Finalize around main (funneled: OpenMP threads do no MPI).
class Session {
public:
  Session(int &argc, char **&argv);
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;
};

/// The rank in MPI_COMM_WORLD (0 before MPI_Init).
int world_rank();

/// Every rank throws CollectiveError(message of rank 0) if rank 0's `message` is not empty, over
/// MPI_COMM_WORLD: for what is checked before the process grid exists. Collective.
void agree_world(const std::string &message);

/// Prints "error: rank R: message" and ends every rank of the job (MPI_Abort, exit 1).
[[noreturn]] void abort_job(const std::string &message);

/// While it lives, stdout and stderr of ranks other than 0 go to /dev/null (option parsing:
/// --help and usage errors are printed once).
class QuietUnlessRoot {
public:
  explicit QuietUnlessRoot(int rank);
  ~QuietUnlessRoot();
  QuietUnlessRoot(const QuietUnlessRoot &) = delete;
  QuietUnlessRoot &operator=(const QuietUnlessRoot &) = delete;

private:
  int saved_[2] = {-1, -1};
};

/// Removes `--procs TEXT` (or `--procs=TEXT`) from argv and returns the process counts (empty
/// if not given). Throws stencilc::Error for a bad value.
std::vector<int> take_procs_option(int &argc, char **argv);

/// One grid's block: where it lies in the global grid and who its neighbours are.
struct Part {
  int rank = 0; // the grid's
  Extents global{1, 1, 1, 1};
  Extents offset{0, 0, 0, 0};
  Extents count{1, 1, 1, 1};
  /// Rank of the process beyond face (d, side), MPI_PROC_NULL on the physical boundary.
  std::array<std::array<int, 2>, kMaxRank> neighbour{};
  /// Face (d, side) is filled here from its condition (the physical boundary, or a periodic
  /// face of a dimension that is not split).
  std::array<std::array<bool, 2>, kMaxRank> physical{};
  /// Every rank holds the whole grid (Cart::replicated_part): a coefficient that kernels of
  /// higher rank read at global indices. Gathers take rank 0's copy, scatters broadcast, and
  /// saves write rank 0's.
  bool replicated = false;
};

/// The process grid: a Cartesian communicator over the program's dimensions (periodic in all
/// of them; a grid's Part decides which faces wrap).
class Cart {
public:
  /// `ndims`: the most dimensions of the program's grids; `procs`: from --procs, or empty to
  /// let MPI_Dims_create balance them; `whole`: dimensions not to split (order_procs).
  /// Throws CollectiveError.
  Cart(int ndims, const std::vector<int> &procs, unsigned whole = 0);
  ~Cart();
  Cart(const Cart &) = delete;
  Cart &operator=(const Cart &) = delete;

  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }
  /// This rank's index among the ranks on its node (MPI_COMM_TYPE_SHARED): which of the node's
  /// devices a GPU target's rank uses.
  int node_rank() const;
  const std::vector<int> &procs() const { return procs_; }
  /// Messages this rank has sent (halo slabs, not counting those to MPI_PROC_NULL).
  std::int64_t messages() const { return messages_; }
  /// The most messages any rank has sent (collective).
  std::int64_t most_messages() const;
  /// The seconds this rank has spent in halo exchanges: exchange and exchange_storage, and the
  /// calls of an Exchanges (overlap=on: the part of the refresh not hidden behind the sweep).
  double exchange_seconds() const { return exchange_seconds_; }

  /// The block of a grid on this rank (`periodic[d]`: its faces in d are periodic). Throws
  /// CollectiveError if the grid cannot be split (split_error), on every rank alike.
  Part part(const std::string &name, int rank, const Extents &global, const Halos &halo,
            const std::array<bool, kMaxRank> &periodic) const;
  /// The whole grid on every rank (Part::replicated): offsets 0, every face filled from its
  /// condition, no neighbours. No split to check, so nothing to throw.
  Part replicated_part(int rank, const Extents &global) const;
  /// The offsets and counts of the same grid on another rank.
  Block block_of(const Part &p, int other_rank, int d) const;

  /// Exchanges the halo of `g` along dimension d with the neighbour blocks.
  template <typename T> void exchange(Grid<T> &g, const Part &p, int d) const;
  /// The same on storage laid out as g's but elsewhere (a device copy, handed to an MPI that
  /// takes device pointers): per side, the h cells of the face over the whole allocation in the
  /// other dimensions, as one strided datatype, into the neighbour's ghost cells. Ghost cells of
  /// the later dimensions travel too, stale; their own exchange, after, overwrites them. The
  /// physical faces are the caller's.
  template <typename T>
  void exchange_storage(const Grid<T> &g, T *storage, const Part &p, int d) const;
  /// Gathers the interior of every block of `local` into `global` on rank 0 (global is
  /// ignored elsewhere and may be null).
  template <typename T> void gather(const Grid<T> &local, const Part &p, Grid<T> *global) const;
  /// Scatters the interior of `global` (rank 0) into every block of `local`.
  template <typename T> void scatter(const Grid<T> *global, Grid<T> &local, const Part &p) const;

  /// Sums of the ranks' partial sums, added in rank order on every rank: every rank gets the
  /// same bits, and for one rank count the same bits run after run.
  double sum(double local) const;
  /// The same for products.
  double product(double local) const;
  double min(double local) const;
  double max(double local) const;
  /// Integer reductions: sums and products modulo 2^64 (the same bits in any order), the
  /// smallest and the largest value, exactly.
  std::uint64_t sum(std::uint64_t local) const;
  std::uint64_t product(std::uint64_t local) const;
  std::int64_t min(std::int64_t local) const;
  std::int64_t max(std::int64_t local) const;
  /// Every rank throws CollectiveError(message of rank 0) if rank 0's `message` is not empty.
  void agree(const std::string &message) const;
  /// Every rank throws CollectiveError(message of the first rank whose `message` is not empty)
  /// if any rank's is not.
  void agree_any(const std::string &message) const;
  /// Rank 0's value on every rank.
  double broadcast(double v) const;
  /// Returns once every rank has called it.
  void barrier() const;
  /// Rank 0's values (and their count) on every rank.
  std::vector<double> broadcast(std::vector<double> v) const;

private:
  friend class Exchanges;
  /// Every rank's `local`, in rank order, on every rank.
  std::vector<double> in_rank_order(double local) const;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::vector<int> procs_, coords_;
  mutable std::int64_t messages_ = 0;
  mutable double exchange_seconds_ = 0;
};

/// Cells [lo, hi) per dimension, in a block's local indices.
struct Region {
  std::array<std::int64_t, kMaxRank> lo{0, 0, 0, 0};
  std::array<std::int64_t, kMaxRank> hi{1, 1, 1, 1};
  bool empty() const;
};

/// The cells of a block of `extents` at least margin[d] from its faces in each of its `rank`
/// dimensions (empty if there are none).
Region interior_region(int rank, const Extents &extents, const Extents &margin);
/// The rest of the block around a non-empty interior `in`, as up to 2 * rank disjoint boxes: a
/// cell outside it belongs to the box of the slowest dimension in which it lies outside.
std::vector<Region> shell_regions(int rank, const Extents &extents, const Region &in);

/// Ghost refreshes in flight (the overlap=on plan): each grid added is filled as fill__G does
/// it with Cart::exchange, dimension by dimension (the slabs of dimension d, then its physical
/// faces through `faces(d)`, then dimension d + 1, whose slabs carry the ghost layers of d), but
/// with non-blocking messages, so the caller computes between progress() calls. Every ghost cell
/// ends with the value the blocking fill gives it. The buffers are owned here; what the caller
/// computes meanwhile must neither read the ghost cells still to be filled nor write the cells
/// within a grid's halo depth of those faces (they are sent, or mirrored into ghosts, later):
/// margin() says how far.
class Exchanges {
public:
  explicit Exchanges(const Cart &c);
  ~Exchanges();
  Exchanges(const Exchanges &) = delete;
  Exchanges &operator=(const Exchanges &) = delete;

  /// Starts the refresh of `g` (its first dimension's messages are posted). `tag` tells this
  /// grid's messages from the others' (the grid's index in the program).
  template <typename T>
  void add(Grid<T> &g, const Part &p, int tag, std::function<void(int d)> faces);
  /// Advances every refresh as far as the messages that have arrived allow (MPI_Testall):
  /// unpacks, fills faces and posts the next dimension's messages. True when all are complete.
  bool progress();
  /// Waits for every refresh to complete.
  void finish();
  bool empty() const { return fills_.empty(); }
  /// Per dimension, the deepest halo of the grids added whose refresh had not completed that
  /// dimension when added (those before their first dimension with messages had: 0 there).
  Extents margin() const { return margin_; }

  struct Fill; // one grid's refresh (comm.cpp)

private:
  const Cart &cart_;
  std::vector<std::unique_ptr<Fill>> fills_;
  Extents margin_{0, 0, 0, 0};
};

/// A sweep over a block of `extents` with `ex` in flight (overlap=on): the interior (the cells
/// at least ex.margin() from every face) first, in slabs along the slowest of `rank`
/// dimensions with ex.progress() between them, then ex.finish(), then the rest of the block
/// (the shell, as up to 2 * rank boxes). `sweep(r)` computes the cells of region r. With
/// nothing in flight, or no interior, the whole block is one region after ex.finish().
void overlapped_sweep(Exchanges &ex, int rank, const Extents &extents,
                      const std::function<void(const Region &)> &sweep);

/// Whether ghost refreshes of the GPU targets hand device memory to MPI directly: the
/// environment's STENCILC_MPI_DEVICE_DIRECT (1 or 0) if set, else whether this Open MPI says,
/// at run time, that it takes CUDA (`hip`: ROCm) device pointers (MPIX_Query_cuda_support,
/// MPIX_Query_rocm_support; false where the library cannot say).
bool device_aware(bool hip);

/// The dimensions a process grid spans for grids of at most `max_rank` dimensions: all of them.
int process_dims(int max_rank);
/// The process grid to ask Cart for: `given` (--procs) if not empty; else the plan's procs if
/// they make as many processes as the job has (the model's choice, when it was made for this
/// count); else empty (MPI_Dims_create balances them).
/// `whole`: the dimensions not to split (order_procs); a plan that splits one is not used.
std::vector<int> procs_or_plan(const std::vector<int> &given, const Plan &plan, int ndims,
                               unsigned whole = 0);
/// `compiled` (the compiled-in plan) with the process grid of `c`.
Plan with_procs(const Plan &compiled, const Cart &c);
/// --plan TEXT over `current` for an executable of `target`: naive (k = 1, overlap on or off)
/// or the temporal plan of the target's `platform` (halos k steps deep, exchanged every k
/// steps; overlap off on a CPU, on or off on a GPU), and the process grid it runs on (given
/// by --procs). Throws stencilc::Error.
Plan parse_run_plan(const std::string &text, const Plan &current, const std::string &target,
                    Platform platform = Platform::Cpu);

/// fill_random() of the global grid, on this rank's block: the same values as one process.
template <typename T>
void fill_random(Grid<T> &local, const Part &p, std::uint64_t seed, std::uint64_t grid_index);
/// checksum() of the global grid, on every rank (gathered to rank 0, which sums it).
template <typename T> double checksum(const Cart &c, const Grid<T> &local, const Part &p);

} // namespace stencilc::mpi
