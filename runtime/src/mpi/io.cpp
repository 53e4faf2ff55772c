#include "stencilc/mpi/io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

#include "stencilc/hdf5.h"
#include "stencilc/hdf5_common.h"
#include "stencilc/npy.h"
#include "stencilc/xdmf.h"

#ifndef H5_HAVE_PARALLEL
#error "the MPI runtime needs the parallel (Open MPI) flavour of libhdf5's headers"
#endif

namespace stencilc::mpi {

using namespace h5detail;

namespace {

// Runs f on every rank; if it throws stencilc::Error on any, every rank throws the first such
// rank's message (CollectiveError). The ranks' next collective calls then stay matched.
template <typename F> void collectively(const Cart &c, F &&f) {
  std::string message;
  try {
    f();
  } catch (const Error &e) {
    message = e.what();
  }
  c.agree_any(message);
}

std::vector<std::int64_t> global_shape(const Part &p) {
  return std::vector<std::int64_t>(p.global.begin(), p.global.begin() + p.rank);
}

// Rank 0 opens the file as the core's writers do, so that a missing directory or a permission
// reads as the system says it, not as MPI's or libhdf5's generic failure.
void check_creatable(const Cart &c, const std::string &path) {
  collectively(c, [&] {
    if (!c.root())
      return;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT, 0666);
    if (fd < 0)
      throw Error(path + ": cannot open for writing: " + std::strerror(errno));
    ::close(fd);
  });
}

// ---- .npy through MPI-IO ----

template <typename T> MPI_Datatype element_type() {
  if constexpr (std::is_same_v<T, float>)
    return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>)
    return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return MPI_INT64_T;
  else
    return MPI_INT32_T;
}

std::string mpi_error(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int n = 0;
  MPI_Error_string(rc, text, &n);
  return std::string(text, static_cast<std::size_t>(n));
}

void io(int rc, const std::string &path, const char *what) {
  if (rc != MPI_SUCCESS)
    throw Error(path + ": " + what + ": " + mpi_error(rc));
}

int as_int(std::int64_t v, const std::string &path) {
  if (v > INT_MAX)
    throw Error(path + ": an extent of " + std::to_string(v) +
                " cells is larger than MPI's int counts allow");
  return static_cast<int>(v);
}

// A subarray type, slowest dimension first (C order).
class Subarray {
public:
  Subarray(const std::vector<int> &sizes, const std::vector<int> &subsizes,
           const std::vector<int> &starts, MPI_Datatype element) {
    MPI_Type_create_subarray(static_cast<int>(sizes.size()), sizes.data(), subsizes.data(),
                             starts.data(), MPI_ORDER_C, element, &type_);
    MPI_Type_commit(&type_);
  }
  ~Subarray() { MPI_Type_free(&type_); }
  Subarray(const Subarray &) = delete;
  Subarray &operator=(const Subarray &) = delete;
  operator MPI_Datatype() const { return type_; }

private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// The block of a grid as MPI sees it: `file`, the block within the global array (x fastest, as
// the file stores it in either order load_grid accepts); `memory`, the block's interior within
// its storage (ghost cells and row padding included), which starts `base_offset` elements
// before origin(). One of each per transfer, so no count exceeds MPI's int.
struct BlockTypes {
  std::unique_ptr<Subarray> file, memory;
  std::int64_t base_offset = 0;
};

template <typename T>
BlockTypes block_types(const Grid<T> &local, const Part &p, const std::string &path) {
  const int r = p.rank;
  std::vector<int> global(r), count(r), offset(r), whole(r), halo(r);
  BlockTypes t;
  t.base_offset = local.halo(0);
  for (int d = 1; d < r; ++d)
    t.base_offset += local.halo(d) * local.stride(d);
  for (int i = 0; i < r; ++i) {
    const int d = r - 1 - i;
    global[i] = as_int(p.global[d], path);
    count[i] = as_int(p.count[d], path);
    offset[i] = as_int(p.offset[d], path);
    // Rows are padded to whole cache lines: dimension 0 spans the row pitch.
    whole[i] = as_int(d == 0 ? local.stride(1) : local.extent(d) + 2 * local.halo(d), path);
    halo[i] = as_int(local.halo(d), path);
  }
  t.file = std::make_unique<Subarray>(global, count, offset, element_type<T>());
  t.memory = std::make_unique<Subarray>(whole, count, halo, element_type<T>());
  return t;
}

// An MPI file, closed (collectively) when it goes out of scope.
class MpiFile {
public:
  MpiFile(const Cart &c, const std::string &path, int mode) {
    collectively(c, [&] {
      io(MPI_File_open(c.comm(), path.c_str(), mode, MPI_INFO_NULL, &fh_), path,
         mode & MPI_MODE_RDONLY ? "cannot open" : "cannot open for writing");
    });
  }
  ~MpiFile() {
    if (fh_ != MPI_FILE_NULL)
      MPI_File_close(&fh_);
  }
  MpiFile(const MpiFile &) = delete;
  MpiFile &operator=(const MpiFile &) = delete;
  operator MPI_File() const { return fh_; }
  /// Closes the file, reporting what that flushes wrong.
  void close(const std::string &path) {
    MPI_File fh = fh_;
    fh_ = MPI_FILE_NULL;
    io(MPI_File_close(&fh), path, "cannot write");
  }

private:
  MPI_File fh_ = MPI_FILE_NULL;
};

} // namespace

template <typename T>
void npy_save(const Cart &c, const Grid<T> &local, const Part &p, const std::string &path) {
  std::string header;
  collectively(c, [&] { header = npy_header(path, npy_descr<T>(), true, global_shape(p)); });
  check_creatable(c, path);
  std::int64_t cells = 1;
  for (int d = 0; d < p.rank; ++d)
    cells *= p.global[d];
  const MPI_Offset size = static_cast<MPI_Offset>(header.size() + cells * sizeof(T));
  try {
    MpiFile f(c, path, MPI_MODE_WRONLY | MPI_MODE_CREATE);
    collectively(c, [&] {
      // The exact size: an older, longer file of the same name leaves nothing behind.
      io(MPI_File_set_size(f, size), path, "cannot write");
      if (c.root())
        io(MPI_File_write_at(f, 0, header.data(), static_cast<int>(header.size()), MPI_CHAR,
                             MPI_STATUS_IGNORE),
           path, "cannot write");
    });
    collectively(c, [&] {
      const BlockTypes t = block_types(local, p, path);
      io(MPI_File_set_view(f, static_cast<MPI_Offset>(header.size()), element_type<T>(), *t.file,
                           "native", MPI_INFO_NULL),
         path, "cannot write");
      // A grid every rank holds whole: rank 0's copy is written.
      const int n = p.replicated && !c.root() ? 0 : 1;
      io(MPI_File_write_all(f, local.origin() - t.base_offset, n, *t.memory, MPI_STATUS_IGNORE),
         path, "cannot write");
    });
    collectively(c, [&] { f.close(path); });
  } catch (const CollectiveError &) {
    if (c.root())
      std::remove(path.c_str()); // no half-written file
    throw;
  }
}

template <typename T>
void npy_load(const Cart &c, Grid<T> &local, const Part &p, const std::string &path) {
  // Rank 0 alone reads the header; every rank gets its verdict (the same message, or where the
  // data start) before any of them opens the file.
  std::uint64_t offset = 0;
  std::string message;
  if (c.root()) {
    try {
      const NpyHeader h = npy_read_header(path);
      npy_check_grid(path, h, local.name(), type_name<T>(), npy_descr<T>(), global_shape(p));
      offset = h.data_offset;
    } catch (const Error &e) {
      message = e.what();
    }
  }
  c.agree(message);
  MPI_Bcast(&offset, 1, MPI_UINT64_T, 0, c.comm());
  MpiFile f(c, path, MPI_MODE_RDONLY);
  collectively(c, [&] {
    const BlockTypes t = block_types(local, p, path);
    io(MPI_File_set_view(f, static_cast<MPI_Offset>(offset), element_type<T>(), *t.file, "native",
                         MPI_INFO_NULL),
       path, "cannot read");
    io(MPI_File_read_all(f, local.origin() - t.base_offset, 1, *t.memory, MPI_STATUS_IGNORE), path,
       "cannot read");
  });
}

// ---- .h5 through parallel HDF5 ----

namespace {

// The file access list of the mpio driver over the process grid's communicator.
Hid mpio_access(const Cart &c, const std::string &path) {
  Hid fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (!fapl.ok() || H5Pset_fapl_mpio(fapl, c.comm(), MPI_INFO_NULL) < 0)
    throw Error(path + ": cannot set up parallel HDF5: " + hdf5_error());
  return fapl;
}

// Collective transfers: the ranks' blocks go to the file together (MPI-IO's collective
// buffering), not one independent write per rank.
Hid collective_transfer(const std::string &path) {
  Hid dxpl(H5Pcreate(H5P_DATASET_XFER), H5Pclose);
  if (!dxpl.ok() || H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE) < 0)
    throw Error(path + ": cannot set up parallel HDF5: " + hdf5_error());
  return dxpl;
}

// The dataspace of the global grid (slowest dimension first) with the block of `p` selected.
Hid block_in_file(hid_t space, const Part &p, const std::string &path) {
  Hid selected(H5Scopy(space), H5Sclose);
  std::vector<hsize_t> start(p.rank), count(p.rank);
  for (int i = 0; i < p.rank; ++i) {
    const int d = p.rank - 1 - i;
    start[i] = static_cast<hsize_t>(p.offset[d]);
    count[i] = static_cast<hsize_t>(p.count[d]);
  }
  if (!selected.ok() || H5Sselect_hyperslab(selected, H5S_SELECT_SET, start.data(), nullptr,
                                            count.data(), nullptr) < 0)
    throw Error(path + ": cannot select a block: " + hdf5_error());
  return selected;
}

std::vector<hsize_t> dataset_dims(const Part &p) {
  std::vector<hsize_t> dims(p.rank);
  for (int i = 0; i < p.rank; ++i)
    dims[i] = static_cast<hsize_t>(p.global[p.rank - 1 - i]);
  return dims;
}

class H5Blocks final : public GridFile {
public:
  H5Blocks(const Cart &c, const std::string &path, BlockOf blocks)
      : c_(c), path_(path), blocks_(std::move(blocks)) {
    check_creatable(c, path);
    collectively(c, [&] {
      Quiet quiet;
      const Hid fapl = mpio_access(c, path);
      id_ = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
      if (id_ < 0)
        throw Error(path + ": cannot create an HDF5 file: " + hdf5_error());
    });
  }
  ~H5Blocks() override {
    if (id_ >= 0) {
      Quiet quiet;
      H5Fclose(id_);
    }
  }

  GridRef write(const std::string &dataset, const std::string &grid) override {
    const auto [ref, part] = blocks_(grid);
    std::visit([&](const auto *g) { write_block(dataset, *g, *part); }, ref);
    return ref;
  }

  void flush() override {
    collectively(c_, [&] {
      Quiet quiet;
      if (H5Fflush(id_, H5F_SCOPE_LOCAL) < 0)
        throw Error(path_ + ": cannot write: " + hdf5_error());
    });
  }

  void close() override {
    const hid_t id = id_;
    id_ = -1;
    collectively(c_, [&] {
      Quiet quiet;
      if (id >= 0 && H5Fclose(id) < 0)
        throw Error(path_ + ": cannot write: " + hdf5_error());
    });
  }

private:
  // H5File::write of the global grid, each rank writing its block: the dataset is created
  // alike on every rank (collective), then the blocks go in one collective transfer.
  template <typename T> void write_block(const std::string &name, const Grid<T> &g, const Part &p) {
    collectively(c_, [&] {
      Quiet quiet;
      const auto fail = [&](const std::string &what) {
        throw Error(path_ + ": cannot " + what + " dataset '" + name + "': " + hdf5_error());
      };
      const std::vector<hsize_t> dims = dataset_dims(p);
      Hid fspace(H5Screate_simple(p.rank, dims.data(), nullptr), H5Sclose);
      Hid lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
      Hid dcpl = dataset_creation();
      if (!fspace.ok() || !lcpl.ok() || !dcpl.ok() || H5Pset_create_intermediate_group(lcpl, 1) < 0)
        fail("write");
      Hid dset(H5Dcreate2(id_, name.c_str(), file_type<T>(), fspace, lcpl, dcpl, H5P_DEFAULT),
               H5Dclose);
      if (!dset.ok())
        fail("create");
      const Storage s = storage_of(g);
      const Hid block = block_in_file(fspace, p, path_);
      // A grid every rank holds whole: rank 0's copy is written, the others select nothing.
      if (p.replicated && !c_.root() && (H5Sselect_none(s.space) < 0 || H5Sselect_none(block) < 0))
        fail("write");
      const Hid dxpl = collective_transfer(path_);
      if (H5Dwrite(dset, memory_type<T>(), s.space, block, dxpl, g.origin() - s.base_offset) < 0)
        fail("write");
    });
  }

  const Cart &c_;
  std::string path_;
  BlockOf blocks_;
  hid_t id_ = -1;
};

} // namespace

std::unique_ptr<GridFile> create_h5(const Cart &c, const std::string &path, BlockOf blocks) {
  return std::make_unique<H5Blocks>(c, path, std::move(blocks));
}

template <typename T>
void h5_load(const Cart &c, Grid<T> &local, const Part &p, const std::string &path) {
  // Each step is agreed before the next collective call: a bad file stops every rank at the
  // same point, with the same message.
  collectively(c, [&] {
    check_readable(path);
    Quiet quiet;
    if (!is_hdf5_file(path))
      throw Error(path + ": not an HDF5 file");
  });
  Quiet quiet;
  std::optional<Hid> file, dset;
  collectively(c, [&] {
    const Hid fapl = mpio_access(c, path);
    file.emplace(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl), H5Fclose);
    if (!file->ok())
      throw Error(path + ": cannot open as HDF5: " + hdf5_error());
  });
  collectively(
      c, [&] { dset.emplace(open_grid_dataset<T>(*file, path, local.name(), dataset_dims(p))); });
  collectively(c, [&] {
    Hid fspace(H5Dget_space(*dset), H5Sclose);
    if (!fspace.ok())
      throw Error(path + ": cannot read dataset '/" + local.name() + "': " + hdf5_error());
    const Storage s = storage_of(local);
    const Hid block = block_in_file(fspace, p, path);
    const Hid dxpl = collective_transfer(path);
    if (H5Dread(*dset, memory_type<T>(), s.space, block, dxpl, local.origin() - s.base_offset) < 0)
      throw Error(path + ": cannot read dataset '/" + local.name() + "': " + hdf5_error());
  });
}

namespace {

// h5_save_grid of the global grid: the file with its one dataset, then rank 0's sidecar.
template <typename T>
void h5_save(const Cart &c, const Grid<T> &local, const Part &p, const std::string &path) {
  const std::string dataset = "/" + local.name();
  std::unique_ptr<GridFile> file = create_h5(
      c, path, [&](const std::string &) { return std::pair<GridRef, const Part *>(&local, &p); });
  try {
    file->write(dataset, local.name());
    file->close();
  } catch (const CollectiveError &) {
    file.reset();
    if (c.root())
      std::remove(path.c_str()); // no half-written file
    throw;
  }
  collectively(c, [&] {
    if (c.root() && xdmf_describes(p.rank))
      write_text_file(xdmf_path_of(path),
                      xdmf_uniform(local.name(), global_shape(p),
                                   {xdmf_attribute(&local, xdmf_data_ref(path, dataset))}));
  });
}

} // namespace

template <typename T>
void load(const Cart &c, Grid<T> &local, const Part &p, const std::string &path) {
  if (is_hdf5_path(path))
    return h5_load(c, local, p, path);
  npy_load(c, local, p, path);
}

template <typename T>
void save(const Cart &c, const Grid<T> &local, const Part &p, const std::string &path) {
  if (is_hdf5_path(path))
    return h5_save(c, local, p, path);
  npy_save(c, local, p, path);
}

#define STENCILC_MPI_IO_INSTANTIATE(T)                                                             \
  template void npy_save(const Cart &, const Grid<T> &, const Part &, const std::string &);        \
  template void npy_load(const Cart &, Grid<T> &, const Part &, const std::string &);              \
  template void h5_load(const Cart &, Grid<T> &, const Part &, const std::string &);               \
  template void load(const Cart &, Grid<T> &, const Part &, const std::string &);                  \
  template void save(const Cart &, const Grid<T> &, const Part &, const std::string &);
STENCILC_MPI_IO_INSTANTIATE(float)
STENCILC_MPI_IO_INSTANTIATE(double)
STENCILC_MPI_IO_INSTANTIATE(std::int32_t)
STENCILC_MPI_IO_INSTANTIATE(std::int64_t)

} // namespace stencilc::mpi
