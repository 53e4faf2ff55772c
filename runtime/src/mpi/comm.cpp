#include "stencilc/mpi/comm.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>

#include "stencilc/npy.h"
#include "stencilc/summary.h"

// Open MPI's extensions: whether it takes CUDA or ROCm device pointers (MPIX_*_AWARE_SUPPORT).
#if defined(OPEN_MPI) && OPEN_MPI && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

namespace stencilc::mpi {

namespace {

// Adds the seconds of its scope to `total` (Cart::exchange_seconds), however the scope ends.
class Timed {
public:
  explicit Timed(double &total) : total_(total) {}
  ~Timed() { total_ += timer_.seconds(); }
  Timed(const Timed &) = delete;
  Timed &operator=(const Timed &) = delete;

private:
  double &total_;
  Timer timer_;
};

// The box of cells [lo, hi) per dimension.
struct Box {
  std::int64_t lo[kMaxRank] = {0, 0, 0, 0};
  std::int64_t hi[kMaxRank] = {1, 1, 1, 1};
  std::int64_t cells() const {
    std::int64_t n = 1;
    for (int d = 0; d < kMaxRank; ++d)
      n *= hi[d] - lo[d];
    return n;
  }
};

// Calls f(x-row's first cell, row length) for every row of the box, in pack order.
template <typename T, typename G, typename F> void for_rows(G &g, const Box &b, F &&f) {
  const std::int64_t n = b.hi[0] - b.lo[0];
  if (n <= 0)
    return;
  for (std::int64_t w = b.lo[3]; w < b.hi[3]; ++w)
    for (std::int64_t z = b.lo[2]; z < b.hi[2]; ++z)
      for (std::int64_t y = b.lo[1]; y < b.hi[1]; ++y)
        f(&g.at(b.lo[0], y, z, w), n);
}

template <typename T> void pack(const Grid<T> &g, const Box &b, std::vector<T> &buf) {
  buf.resize(static_cast<std::size_t>(b.cells()));
  T *out = buf.data();
  for_rows<T>(g, b, [&](const T *row, std::int64_t n) { out = std::copy(row, row + n, out); });
}

template <typename T> void unpack(Grid<T> &g, const Box &b, const std::vector<T> &buf) {
  const T *in = buf.data();
  for_rows<T>(g, b, [&](T *row, std::int64_t n) {
    std::copy(in, in + n, row);
    in += n;
  });
}

// A message buffer kept from one exchange to the next (per thread, element type and use): a
// new vector of megabytes for every halo message costs page faults and zeroing each step.
template <typename T> std::vector<T> &message_buffer(int use) {
  thread_local std::map<int, std::vector<T>> buffers;
  return buffers[use];
}

// A message length in bytes as MPI's int (this phase sends whole slabs and blocks).
template <typename T> int bytes(std::size_t cells) {
  const std::size_t n = cells * sizeof(T);
  if (n > static_cast<std::size_t>(INT_MAX))
    throw Error("a message of " + std::to_string(n) +
                " bytes is larger than MPI's int counts "
                "allow in this version");
  return static_cast<int>(n);
}

// The slab of dimension d that a neighbour's ghost layers on `side` need: in d, the halo
// layers inside the interior next to that side (ghost = false) or the ghost layers themselves
// (ghost = true); in the dimensions before d, the ghost layers too; after d, the interior.
template <typename T> Box slab(const Grid<T> &g, int d, int side, bool ghost) {
  Box b;
  for (int k = 0; k < g.rank(); ++k) {
    b.lo[k] = k < d ? -g.halo(k) : 0;
    b.hi[k] = k < d ? g.extent(k) + g.halo(k) : g.extent(k);
  }
  const std::int64_t n = g.extent(d), h = g.halo(d);
  if (side == 0) {
    b.lo[d] = ghost ? -h : 0;
    b.hi[d] = ghost ? 0 : h;
  } else {
    b.lo[d] = ghost ? n : n - h;
    b.hi[d] = ghost ? n + h : n;
  }
  return b;
}

template <typename T> Box interior(const Grid<T> &g) {
  Box b;
  for (int k = 0; k < g.rank(); ++k)
    b.hi[k] = g.extent(k);
  return b;
}

void check(int rc, const char *what) {
  if (rc != MPI_SUCCESS)
    throw Error(std::string(what) + " failed");
}

} // namespace

namespace {
// The cells of rank r's block of the grid, in global indices.
Box box_of(const Cart &c, const Part &p, int r) {
  Box b;
  for (int d = 0; d < p.rank; ++d) {
    const Block k = c.block_of(p, r, d);
    b.lo[d] = k.offset;
    b.hi[d] = k.offset + k.count;
  }
  return b;
}
} // namespace

Session::Session(int &argc, char **&argv) {
  // Open MPI 4.1's own MPI-IO (OMPIO) sieves data: it reads and rewrites the gaps between a
  // rank's pieces of a file view, without locking. Ranks reading and writing interleaved blocks
  // of one file (io.h) then now and then get or leave another rank's old cells (open-mpi/ompi
  // issue 10546 for reads; the tests here saw it for writes too). Off, unless the user chose.
  ::setenv("OMPI_MCA_fbtl_posix_read_datasieving", "0", 0);
  ::setenv("OMPI_MCA_fbtl_posix_write_datasieving", "0", 0);
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  // Errors are checked and reported by the caller; a broken rank then aborts the job.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

Session::~Session() { MPI_Finalize(); }

int world_rank() {
  int init = 0;
  MPI_Initialized(&init);
  if (!init)
    return 0;
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

void abort_job(const std::string &message) {
  std::fprintf(stderr, "error: rank %d: %s\n", world_rank(), message.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1); // MPI_Abort does not return
}

QuietUnlessRoot::QuietUnlessRoot(int rank) {
  if (rank == 0)
    return;
  std::fflush(stdout);
  std::fflush(stderr);
  const int null = ::open("/dev/null", O_WRONLY);
  if (null < 0)
    return;
  for (int fd = 1; fd <= 2; ++fd) {
    saved_[fd - 1] = ::dup(fd);
    ::dup2(null, fd);
  }
  ::close(null);
}

QuietUnlessRoot::~QuietUnlessRoot() {
  std::fflush(stdout);
  std::fflush(stderr);
  for (int fd = 1; fd <= 2; ++fd)
    if (saved_[fd - 1] >= 0) {
      ::dup2(saved_[fd - 1], fd);
      ::close(saved_[fd - 1]);
    }
}

std::vector<int> take_procs_option(int &argc, char **argv) {
  std::vector<int> procs;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--procs") {
      if (i + 1 >= argc)
        throw Error("--procs: expected process counts per dimension, x first, like 2x1x1");
      procs = parse_procs(argv[++i]);
    } else if (a.rfind("--procs=", 0) == 0) {
      procs = parse_procs(a.substr(8));
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  argv[argc] = nullptr;
  return procs;
}

Cart::Cart(int ndims, const std::vector<int> &given, unsigned whole) {
  int world = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  int free = 0; // the dimensions MPI_Dims_create balances the processes over
  for (int d = 0; d < ndims; ++d)
    free += !((whole >> d) & 1u);
  std::vector<int> balanced(static_cast<std::size_t>(free), 0);
  try {
    if (given.empty() && free > 0)
      check(MPI_Dims_create(world, free, balanced.data()), "MPI_Dims_create");
    procs_ = order_procs(world, ndims, given, balanced, whole);
  } catch (const Error &e) {
    throw CollectiveError(e.what());
  }
  const std::vector<int> periods(static_cast<std::size_t>(ndims), 1);
  check(MPI_Cart_create(MPI_COMM_WORLD, ndims, procs_.data(), periods.data(), 0, &comm_),
        "MPI_Cart_create");
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  coords_.assign(static_cast<std::size_t>(ndims), 0);
  MPI_Cart_coords(comm_, rank_, ndims, coords_.data());
}

int Cart::node_rank() const {
  MPI_Comm node = MPI_COMM_NULL;
  check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
        "MPI_Comm_split_type");
  int r = 0;
  MPI_Comm_rank(node, &r);
  MPI_Comm_free(&node);
  return r;
}

Cart::~Cart() {
  if (comm_ != MPI_COMM_NULL)
    MPI_Comm_free(&comm_);
}

Part Cart::part(const std::string &name, int rank, const Extents &global, const Halos &halo,
                const std::array<bool, kMaxRank> &periodic) const {
  const std::string why = split_error(procs_, name, rank, global, halo);
  if (!why.empty())
    throw CollectiveError(why);
  Part p;
  p.rank = rank;
  p.global = global;
  for (int d = 0; d < kMaxRank; ++d) {
    p.neighbour[d] = {MPI_PROC_NULL, MPI_PROC_NULL};
    p.physical[d] = {true, true};
  }
  for (int d = 0; d < rank; ++d) {
    const int np = d < static_cast<int>(procs_.size()) ? procs_[d] : 1;
    const int c = d < static_cast<int>(coords_.size()) ? coords_[d] : 0;
    const Block b = block(global[d], np, c);
    p.offset[d] = b.offset;
    p.count[d] = b.count;
    if (np == 1)
      continue; // both faces filled here (a periodic one wraps within the block)
    int lo = MPI_PROC_NULL, hi = MPI_PROC_NULL;
    MPI_Cart_shift(comm_, d, 1, &lo, &hi); // the communicator is periodic: wraps
    p.neighbour[d][0] = c > 0 || periodic[d] ? lo : MPI_PROC_NULL;
    p.neighbour[d][1] = c < np - 1 || periodic[d] ? hi : MPI_PROC_NULL;
    p.physical[d][0] = !periodic[d] && c == 0;
    p.physical[d][1] = !periodic[d] && c == np - 1;
  }
  return p;
}

Part Cart::replicated_part(int rank, const Extents &global) const {
  Part p;
  p.rank = rank;
  p.global = global;
  p.replicated = true;
  for (int d = 0; d < kMaxRank; ++d) {
    p.neighbour[d] = {MPI_PROC_NULL, MPI_PROC_NULL};
    p.physical[d] = {true, true};
  }
  for (int d = 0; d < rank; ++d)
    p.count[d] = global[d];
  return p;
}

Block Cart::block_of(const Part &p, int other, int d) const {
  const int nd = static_cast<int>(procs_.size());
  if (d >= nd || p.replicated)
    return {0, p.global[d]};
  std::vector<int> c(static_cast<std::size_t>(nd));
  MPI_Cart_coords(comm_, other, nd, c.data());
  return block(p.global[d], procs_[d], c[d]);
}

template <typename T> void Cart::exchange(Grid<T> &g, const Part &p, int d) const {
  if (g.halo(d) == 0)
    return;
  const Timed timed(exchange_seconds_);
  std::vector<T> &send = message_buffer<T>(-1), &recv = message_buffer<T>(-2);
  // Towards the low neighbour, receiving from the high one; then the other way.
  for (int side = 0; side < 2; ++side) {
    const int to = p.neighbour[d][side], from = p.neighbour[d][1 - side];
    if (to == MPI_PROC_NULL && from == MPI_PROC_NULL)
      continue;
    const Box out = slab(g, d, side, false), in = slab(g, d, 1 - side, true);
    if (to != MPI_PROC_NULL) {
      pack(g, out, send);
      ++messages_;
    }
    recv.resize(static_cast<std::size_t>(in.cells()));
    check(MPI_Sendrecv(send.data(), to == MPI_PROC_NULL ? 0 : bytes<T>(send.size()), MPI_BYTE, to,
                       100 + 2 * d + side, recv.data(),
                       from == MPI_PROC_NULL ? 0 : bytes<T>(recv.size()), MPI_BYTE, from,
                       100 + 2 * d + side, comm_, MPI_STATUS_IGNORE),
          "the halo exchange (MPI_Sendrecv)");
    if (from != MPI_PROC_NULL)
      unpack(g, in, recv);
  }
}

template <typename T>
void Cart::exchange_storage(const Grid<T> &g, T *storage, const Part &p, int d) const {
  const std::int64_t h = g.halo(d), n = g.extent(d), s = g.stride(d);
  if (h == 0)
    return;
  const Timed timed(exchange_seconds_);
  const std::int64_t block = d + 1 < g.rank() ? g.stride(d + 1) : g.storage_size();
  MPI_Datatype face;
  check(MPI_Type_vector(static_cast<int>(g.storage_size() / block),
                        static_cast<int>(h * s * std::int64_t(sizeof(T))),
                        static_cast<int>(block * std::int64_t(sizeof(T))), MPI_BYTE, &face),
        "MPI_Type_vector");
  MPI_Type_commit(&face);
  // Towards the low neighbour (the low face, into its high ghost cells), then the other way.
  for (int side = 0; side < 2; ++side) {
    const int to = p.neighbour[d][side], from = p.neighbour[d][1 - side];
    if (to == MPI_PROC_NULL && from == MPI_PROC_NULL)
      continue;
    T *const out = storage + (side == 0 ? h : n) * s;
    T *const in = storage + (side == 0 ? h + n : 0) * s;
    if (to != MPI_PROC_NULL)
      ++messages_;
    const int rc = MPI_Sendrecv(out, to == MPI_PROC_NULL ? 0 : 1, face, to, 100 + 2 * d + side, in,
                                from == MPI_PROC_NULL ? 0 : 1, face, from, 100 + 2 * d + side,
                                comm_, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
      MPI_Type_free(&face);
    check(rc, "the halo exchange of device memory (MPI_Sendrecv)");
  }
  MPI_Type_free(&face);
}

bool device_aware(bool hip) {
  if (const char *e = std::getenv("STENCILC_MPI_DEVICE_DIRECT"); e && *e)
    return std::string(e) == "1";
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  if (!hip)
    return MPIX_Query_cuda_support() == 1;
#endif
#if defined(MPIX_ROCM_AWARE_SUPPORT) && MPIX_ROCM_AWARE_SUPPORT
  if (hip)
    return MPIX_Query_rocm_support() == 1;
#endif
  (void)hip;
  return false;
}

bool Region::empty() const {
  for (int d = 0; d < kMaxRank; ++d)
    if (hi[d] <= lo[d])
      return true;
  return false;
}

// One grid's refresh: dimension d's slabs in flight (receives first, then sends), completed
// by unpacking and the physical faces of d, then d + 1 posted.
struct Exchanges::Fill {
  virtual ~Fill() = default;
  /// Completes what has arrived (all of it if `wait`); true when every dimension is done.
  virtual bool advance(bool wait) = 0;
  virtual bool complete() const = 0;
  /// The first dimension not yet complete.
  virtual int dim() const = 0;
};

namespace {

template <typename T> struct FillOf final : Exchanges::Fill {
  FillOf(Grid<T> &grid, const Part &part, int tag, std::function<void(int)> faces, MPI_Comm comm,
         std::int64_t &messages)
      : g(grid), p(part), tag0(1000 + 8 * tag), faces(std::move(faces)), comm(comm),
        messages(messages) {
    req.fill(MPI_REQUEST_NULL);
    for (int side = 0; side < 2; ++side) {
      send[side] = &message_buffer<T>(4 * tag0 + side);
      recv[side] = &message_buffer<T>(4 * tag0 + 2 + side);
    }
  }
  ~FillOf() override = default;

  void post() {
    req.fill(MPI_REQUEST_NULL);
    if (g.halo(d) == 0)
      return;
    for (int side = 0; side < 2; ++side) {
      const int to = p.neighbour[d][side], from = p.neighbour[d][1 - side];
      const int tag = tag0 + 2 * d + side;
      if (from != MPI_PROC_NULL) {
        recv[side]->resize(static_cast<std::size_t>(slab(g, d, 1 - side, true).cells()));
        check(MPI_Irecv(recv[side]->data(), bytes<T>(recv[side]->size()), MPI_BYTE, from, tag, comm,
                        &req[side]),
              "the halo exchange (MPI_Irecv)");
      }
      if (to != MPI_PROC_NULL) {
        pack(g, slab(g, d, side, false), *send[side]);
        ++messages;
        check(MPI_Isend(send[side]->data(), bytes<T>(send[side]->size()), MPI_BYTE, to, tag, comm,
                        &req[2 + side]),
              "the halo exchange (MPI_Isend)");
      }
    }
  }

  bool advance(bool wait) override {
    while (d < g.rank()) {
      if (!posted) {
        post();
        posted = true;
      }
      int done = 1;
      if (wait)
        check(MPI_Waitall(4, req.data(), MPI_STATUSES_IGNORE), "the halo exchange (MPI_Waitall)");
      else
        check(MPI_Testall(4, req.data(), &done, MPI_STATUSES_IGNORE),
              "the halo exchange (MPI_Testall)");
      if (!done)
        return false;
      for (int side = 0; side < 2; ++side)
        if (g.halo(d) > 0 && p.neighbour[d][1 - side] != MPI_PROC_NULL)
          unpack(g, slab(g, d, 1 - side, true), *recv[side]);
      faces(d);
      ++d;
      posted = false;
    }
    return true;
  }

  bool complete() const override { return d >= g.rank(); }
  int dim() const override { return d; }

  Grid<T> &g;
  const Part &p;
  int tag0;
  std::function<void(int)> faces;
  MPI_Comm comm;
  std::int64_t &messages;
  int d = 0;
  bool posted = false;
  std::array<MPI_Request, 4> req{}; // receives (sides 0, 1), then sends
  // Kept between steps (message_buffer), one per grid, side and direction: the fills in flight
  // together are of different grids.
  std::array<std::vector<T> *, 2> send{}, recv{};
};

} // namespace

Exchanges::Exchanges(const Cart &c) : cart_(c) {}

Exchanges::~Exchanges() {
  // Left in flight only when an error unwinds past the caller, which then ends the job: MPI may
  // still write into the buffers (message_buffer keeps them), so the fill is not freed either.
  for (auto &f : fills_)
    if (!f->complete())
      (void)f.release();
}

template <typename T>
void Exchanges::add(Grid<T> &g, const Part &p, int tag, std::function<void(int)> faces) {
  const Timed timed(cart_.exchange_seconds_);
  fills_.push_back(
      std::make_unique<FillOf<T>>(g, p, tag, std::move(faces), cart_.comm_, cart_.messages_));
  fills_.back()->advance(false);
  // The dimensions before the first one with messages are complete now (their faces filled,
  // as the blocking fill would before the sweep): the interior may reach into them.
  for (int d = fills_.back()->dim(); d < g.rank(); ++d)
    margin_[d] = std::max<std::int64_t>(margin_[d], g.halo(d));
}

bool Exchanges::progress() {
  // Test hook: a network so slow that nothing arrives before finish(), so that the tests see
  // every interior region computed with the messages still in flight.
  static const bool defer = std::getenv("STENCILC_TEST_OVERLAP_DEFER") != nullptr;
  if (defer)
    return false;
  const Timed timed(cart_.exchange_seconds_);
  bool all = true;
  for (auto &f : fills_)
    all = f->advance(false) && all;
  return all;
}

void Exchanges::finish() {
  const Timed timed(cart_.exchange_seconds_);
  for (auto &f : fills_)
    f->advance(true);
}

Region interior_region(int rank, const Extents &n, const Extents &m) {
  Region in;
  for (int d = 0; d < rank; ++d) {
    in.lo[d] = m[d];
    in.hi[d] = n[d] - m[d];
  }
  return in;
}

std::vector<Region> shell_regions(int rank, const Extents &n, const Region &in) {
  std::vector<Region> v;
  for (int d = rank - 1; d >= 0; --d)
    for (int side = 0; side < 2; ++side) {
      Region r;
      for (int e = 0; e < rank; ++e) {
        r.lo[e] = e > d ? in.lo[e] : 0;
        r.hi[e] = e > d ? in.hi[e] : n[e];
      }
      if (side == 0)
        r.hi[d] = in.lo[d];
      else
        r.lo[d] = in.hi[d];
      if (!r.empty())
        v.push_back(r);
    }
  return v;
}

void overlapped_sweep(Exchanges &ex, int rank, const Extents &n,
                      const std::function<void(const Region &)> &sweep) {
  Region whole;
  for (int d = 0; d < rank; ++d)
    whole.hi[d] = n[d];
  const Region in = interior_region(rank, n, ex.margin());
  if (ex.empty() || in.empty()) {
    ex.finish();
    sweep(whole);
    return;
  }
  // The interior in slabs of the slowest dimension, the messages advanced between them (with
  // one thread a rank, that is when MPI moves them).
  const int s = rank - 1;
  const std::int64_t len = in.hi[s] - in.lo[s], parts = std::min<std::int64_t>(len, 8);
  bool done = false;
  for (std::int64_t i = 0; i < parts; ++i) {
    Region r = in;
    r.lo[s] = in.lo[s] + len * i / parts;
    r.hi[s] = in.lo[s] + len * (i + 1) / parts;
    sweep(r);
    if (!done)
      done = ex.progress();
  }
  ex.finish();
  for (const Region &r : shell_regions(rank, n, in))
    sweep(r);
}

template <typename T>
void Cart::gather(const Grid<T> &local, const Part &p, Grid<T> *global) const {
  std::vector<T> buf;
  if (p.replicated && rank_ != 0)
    return; // rank 0 holds it all
  pack(local, interior(local), buf);
  if (p.replicated) {
    unpack(*global, interior(*global), buf);
    return;
  }
  if (rank_ != 0) {
    check(MPI_Send(buf.data(), bytes<T>(buf.size()), MPI_BYTE, 0, 7, comm_), "MPI_Send");
    return;
  }
  for (int r = 0; r < size_; ++r) {
    const Box b = box_of(*this, p, r);
    if (r != 0) {
      buf.resize(static_cast<std::size_t>(b.cells()));
      check(MPI_Recv(buf.data(), bytes<T>(buf.size()), MPI_BYTE, r, 7, comm_, MPI_STATUS_IGNORE),
            "MPI_Recv");
    }
    unpack(*global, b, buf);
  }
}

template <typename T>
void Cart::scatter(const Grid<T> *global, Grid<T> &local, const Part &p) const {
  std::vector<T> buf;
  if (p.replicated) { // rank 0's whole grid to every rank
    if (rank_ == 0)
      pack(*global, interior(*global), buf);
    else
      buf.resize(static_cast<std::size_t>(interior(local).cells()));
    check(MPI_Bcast(buf.data(), bytes<T>(buf.size()), MPI_BYTE, 0, comm_), "MPI_Bcast");
    unpack(local, interior(local), buf);
    return;
  }
  if (rank_ != 0) {
    buf.resize(static_cast<std::size_t>(interior(local).cells()));
    check(MPI_Recv(buf.data(), bytes<T>(buf.size()), MPI_BYTE, 0, 8, comm_, MPI_STATUS_IGNORE),
          "MPI_Recv");
    unpack(local, interior(local), buf);
    return;
  }
  for (int r = 0; r < size_; ++r) {
    const Box b = box_of(*this, p, r);
    pack(*global, b, buf);
    if (r == 0)
      unpack(local, interior(local), buf);
    else
      check(MPI_Send(buf.data(), bytes<T>(buf.size()), MPI_BYTE, r, 8, comm_), "MPI_Send");
  }
}

std::vector<double> Cart::in_rank_order(double local) const {
  std::vector<double> parts(static_cast<std::size_t>(size_));
  check(MPI_Allgather(&local, 1, MPI_DOUBLE, parts.data(), 1, MPI_DOUBLE, comm_), "MPI_Allgather");
  return parts;
}

double Cart::sum(double local) const {
  double s = 0.0;
  for (double v : in_rank_order(local))
    s += v;
  return s;
}

double Cart::product(double local) const {
  double s = 1.0;
  for (double v : in_rank_order(local))
    s *= v;
  return s;
}

void Cart::barrier() const { check(MPI_Barrier(comm_), "MPI_Barrier"); }

namespace {

// One value combined over every rank of `comm` by an MPI operation (exact for these).
template <typename T> T allreduce(MPI_Comm comm, T local, MPI_Datatype type, MPI_Op op) {
  T r = local;
  check(MPI_Allreduce(&local, &r, 1, type, op, comm), "MPI_Allreduce");
  return r;
}

} // namespace

std::int64_t Cart::most_messages() const {
  return allreduce(comm_, messages_, MPI_INT64_T, MPI_MAX);
}

double Cart::min(double local) const { return allreduce(comm_, local, MPI_DOUBLE, MPI_MIN); }
double Cart::max(double local) const { return allreduce(comm_, local, MPI_DOUBLE, MPI_MAX); }

std::uint64_t Cart::sum(std::uint64_t local) const {
  return allreduce(comm_, local, MPI_UINT64_T, MPI_SUM);
}
std::uint64_t Cart::product(std::uint64_t local) const {
  return allreduce(comm_, local, MPI_UINT64_T, MPI_PROD);
}
std::int64_t Cart::min(std::int64_t local) const {
  return allreduce(comm_, local, MPI_INT64_T, MPI_MIN);
}
std::int64_t Cart::max(std::int64_t local) const {
  return allreduce(comm_, local, MPI_INT64_T, MPI_MAX);
}

namespace {

void agree_over(MPI_Comm comm, const std::string &message) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int n = rank == 0 ? static_cast<int>(message.size()) : 0;
  check(MPI_Bcast(&n, 1, MPI_INT, 0, comm), "MPI_Bcast");
  if (n == 0)
    return;
  std::string text = rank == 0 ? message : std::string(static_cast<std::size_t>(n), ' ');
  check(MPI_Bcast(text.data(), n, MPI_CHAR, 0, comm), "MPI_Bcast");
  throw CollectiveError(text);
}

} // namespace

void agree_world(const std::string &message) { agree_over(MPI_COMM_WORLD, message); }

void Cart::agree(const std::string &message) const { agree_over(comm_, message); }

void Cart::agree_any(const std::string &message) const {
  int mine = message.empty() ? size_ : rank_, first = size_;
  check(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm_), "MPI_Allreduce");
  if (first == size_)
    return;
  int n = rank_ == first ? static_cast<int>(message.size()) : 0;
  check(MPI_Bcast(&n, 1, MPI_INT, first, comm_), "MPI_Bcast");
  std::string text = rank_ == first ? message : std::string(static_cast<std::size_t>(n), ' ');
  check(MPI_Bcast(text.data(), n, MPI_CHAR, first, comm_), "MPI_Bcast");
  throw CollectiveError(text);
}

double Cart::broadcast(double v) const {
  check(MPI_Bcast(&v, 1, MPI_DOUBLE, 0, comm_), "MPI_Bcast");
  return v;
}

std::vector<double> Cart::broadcast(std::vector<double> v) const {
  int n = static_cast<int>(v.size());
  check(MPI_Bcast(&n, 1, MPI_INT, 0, comm_), "MPI_Bcast");
  v.resize(static_cast<std::size_t>(n));
  check(MPI_Bcast(v.data(), n, MPI_DOUBLE, 0, comm_), "MPI_Bcast");
  return v;
}

namespace {
template <typename T> Grid<T> global_grid(const Grid<T> &local, const Part &p) {
  return Grid<T>(local.name(), p.rank, p.global, Halos{0, 0, 0, 0});
}
} // namespace

template <typename T> double checksum(const Cart &c, const Grid<T> &local, const Part &p) {
  Grid<T> global;
  if (c.root())
    global = global_grid(local, p);
  c.gather(local, p, &global);
  return c.broadcast(c.root() ? stencilc::checksum(global) : 0.0);
}

template <typename T>
void fill_random(Grid<T> &local, const Part &p, std::uint64_t seed, std::uint64_t grid_index) {
  for (std::int64_t w = 0; w < local.extent(3); ++w)
    for (std::int64_t z = 0; z < local.extent(2); ++z)
      for (std::int64_t y = 0; y < local.extent(1); ++y) {
        const std::int64_t row =
            ((w + p.offset[3]) * p.global[2] + z + p.offset[2]) * p.global[1] + y + p.offset[1];
        const std::uint64_t first = static_cast<std::uint64_t>(row * p.global[0] + p.offset[0]);
        T *cells = &local.at(0, y, z, w);
        for (std::int64_t x = 0; x < local.extent(0); ++x)
          cells[x] = random_value<T>(seed, grid_index, first + static_cast<std::uint64_t>(x));
      }
}

int process_dims(int max_rank) { return std::min(max_rank, kMaxRank); }

std::vector<int> procs_or_plan(const std::vector<int> &given, const Plan &plan, int ndims,
                               unsigned whole) {
  if (!given.empty() || !plan.distribution)
    return given;
  int world = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  const auto &p = plan.distribution->procs;
  std::vector<int> procs(p.begin(), p.begin() + ndims); // ndims <= 4
  long long product = 1;
  for (int v : p)
    product *= v;
  for (std::size_t d = procs.size(); d < p.size(); ++d)
    if (p[d] != 1)
      return {};
  for (std::size_t d = 0; d < procs.size(); ++d)
    if (((whole >> d) & 1u) && procs[d] != 1)
      return {};
  return product == world ? procs : std::vector<int>{};
}

Plan with_procs(const Plan &compiled, const Cart &c) {
  Plan p = compiled;
  if (!p.distribution)
    p.distribution = Distribution{};
  p.distribution->procs = {1, 1, 1, 1};
  for (std::size_t d = 0; d < c.procs().size() && d < 4; ++d)
    p.distribution->procs[d] = c.procs()[d];
  return p;
}

Plan parse_run_plan(const std::string &text, const Plan &current, const std::string &target,
                    Platform platform) {
  const Plan p = parse_plan(text, {platform, true, target}, current);
  // mpi-cuda, mpi-hip: the fused steps' interior region runs while `in`'s halo travels.
  if (!p.naive() && p.distribution && p.distribution->overlap && platform != Platform::Gpu)
    throw Error("--plan " + text + ": " + target +
                " overlaps the exchange with the interior under scheme=naive only (the temporal "
                "plan exchanges once per k steps, before its block)");
  if (p.naive() && p.distribution && p.distribution->k != 1)
    throw Error("--plan " + text + ": " + target +
                " exchanges every k steps under scheme=temporal only (scheme=temporal,k=" +
                std::to_string(p.distribution->k) + "); scheme=naive takes k=1");
  if (p.distribution && current.distribution &&
      p.distribution->procs != current.distribution->procs)
    throw Error("--plan " + text +
                ": the process grid is chosen when the program starts; give "
                "it with --procs");
  return p;
}

#define STENCILC_MPI_INSTANTIATE(T)                                                                \
  template void Cart::exchange(Grid<T> &, const Part &, int) const;                                \
  template void Cart::exchange_storage(const Grid<T> &, T *, const Part &, int) const;             \
  template void Exchanges::add(Grid<T> &, const Part &, int, std::function<void(int)>);            \
  template void Cart::gather(const Grid<T> &, const Part &, Grid<T> *) const;                      \
  template void Cart::scatter(const Grid<T> *, Grid<T> &, const Part &) const;                     \
  template double checksum(const Cart &, const Grid<T> &, const Part &);                           \
  template void fill_random(Grid<T> &, const Part &, std::uint64_t, std::uint64_t);
STENCILC_MPI_INSTANTIATE(float)
STENCILC_MPI_INSTANTIATE(double)
STENCILC_MPI_INSTANTIATE(std::int32_t)
STENCILC_MPI_INSTANTIATE(std::int64_t)

} // namespace stencilc::mpi
