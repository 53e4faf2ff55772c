// What the runtime's HDF5 readers and writers share: the core's (hdf5.cpp, serial libhdf5)
// and the MPI runtime's collective ones (mpi/io.cpp, the Open MPI flavour of libhdf5). For the
// runtime's sources only: it includes hdf5.h, which generated code and users never need.
// Internal linkage (an unnamed namespace): each flavour's files get their own copies.
#pragma once
#include <fcntl.h>
#include <hdf5.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "stencilc/error.h"
#include "stencilc/grid.h"

namespace stencilc::h5detail {
namespace {

// libhdf5 prints its error stack to stderr on every failed call unless told not to; the
// runtime reports errors itself. Restores the caller's setting (an application's) afterwards.
class Quiet {
public:
  Quiet() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~Quiet() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  Quiet(const Quiet &) = delete;
  Quiet &operator=(const Quiet &) = delete;

private:
  H5E_auto2_t func_ = nullptr;
  void *data_ = nullptr;
};

// An HDF5 identifier closed by its own close function.
class Hid {
public:
  Hid(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Hid() {
    if (id_ >= 0)
      close_(id_);
  }
  Hid(Hid &&o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
  Hid(const Hid &) = delete;
  Hid &operator=(const Hid &) = delete;
  operator hid_t() const { return id_; }
  bool ok() const { return id_ >= 0; }

private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// The most specific message on libhdf5's error stack (right after a failed call).
inline std::string hdf5_error() {
  std::string msg;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned, const H5E_error2_t *e, void *data) -> herr_t {
        auto &m = *static_cast<std::string *>(data);
        if (m.empty() && e->desc)
          m = e->desc;
        return 0;
      },
      &msg);
  return msg.empty() ? "unknown HDF5 error" : msg;
}

template <typename T> hid_t memory_type() {
  if constexpr (std::is_same_v<T, float>)
    return H5T_NATIVE_FLOAT;
  else if constexpr (std::is_same_v<T, double>)
    return H5T_NATIVE_DOUBLE;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return H5T_NATIVE_INT64;
  else
    return H5T_NATIVE_INT32;
}

template <typename T> hid_t file_type() {
  if constexpr (std::is_same_v<T, float>)
    return H5T_IEEE_F32LE;
  else if constexpr (std::is_same_v<T, double>)
    return H5T_IEEE_F64LE;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return H5T_STD_I64LE;
  else
    return H5T_STD_I32LE;
}

// numpy's name of an HDF5 type ('<f8', '>i4'), or what kind of type it is.
inline std::string describe_type(hid_t type) {
  const H5T_class_t cls = H5Tget_class(type);
  const std::string order = H5Tget_order(type) == H5T_ORDER_BE ? ">" : "<";
  const std::string size = std::to_string(H5Tget_size(type));
  switch (cls) {
  case H5T_FLOAT: return "'" + order + "f" + size + "'";
  case H5T_INTEGER:
    return "'" + order + (H5Tget_sign(type) == H5T_SGN_NONE ? "u" : "i") + size + "'";
  case H5T_STRING: return "string";
  case H5T_COMPOUND: return "compound";
  case H5T_ENUM: return "enum";
  case H5T_ARRAY: return "array";
  default: return "non-numeric";
  }
}

template <typename T> bool type_matches(hid_t type) {
  const H5T_class_t cls = H5Tget_class(type);
  if (H5Tget_size(type) != sizeof(T))
    return false;
  if constexpr (std::is_integral_v<T>)
    return cls == H5T_INTEGER && H5Tget_sign(type) == H5T_SGN_2;
  else
    return cls == H5T_FLOAT;
}

inline std::string shape_str(const std::vector<hsize_t> &shape) {
  return shape_text(std::vector<std::int64_t>(shape.begin(), shape.end()));
}

// The interior of a grid as HDF5 sees it: `dims`, the dataset's shape (slowest dimension
// first), and `space`, the grid's whole storage (ghosts and row padding included) with the
// interior selected, which starts `base_offset` elements before origin(). Reading and writing
// through it needs no copy.
struct Storage {
  std::vector<hsize_t> dims;
  Hid space;
  std::int64_t base_offset;
};

template <typename T> Storage storage_of(const Grid<T> &g) {
  const int r = g.rank();
  std::vector<hsize_t> dims(r), whole(r), start(r);
  std::int64_t base_offset = g.halo(0);
  for (int d = 1; d < r; ++d)
    base_offset += g.halo(d) * g.stride(d);
  for (int i = 0; i < r; ++i) {
    const int d = r - 1 - i;
    dims[i] = static_cast<hsize_t>(g.extent(d));
    start[i] = static_cast<hsize_t>(g.halo(d));
    // Rows are padded to whole cache lines: dimension 0 spans the row pitch.
    whole[i] = static_cast<hsize_t>(d == 0 ? g.stride(1) : g.extent(d) + 2 * g.halo(d));
  }
  Hid space(H5Screate_simple(r, whole.data(), nullptr), H5Sclose);
  if (!space.ok() ||
      H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, dims.data(), nullptr) < 0)
    throw Error("grid '" + g.name() + "': cannot describe its storage to HDF5: " + hdf5_error());
  return Storage{std::move(dims), std::move(space), base_offset};
}

// Lists the objects at the file's root for an error message.
inline std::string root_contents(hid_t file) {
  H5G_info_t info;
  if (H5Gget_info(file, &info) < 0)
    return "";
  if (info.nlinks == 0)
    return "the file is empty";
  std::string list;
  const hsize_t shown = std::min<hsize_t>(info.nlinks, 8);
  for (hsize_t i = 0; i < shown; ++i) {
    char name[256] = {};
    if (H5Lget_name_by_idx(file, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name,
                           H5P_DEFAULT) < 0)
      break;
    list += std::string(list.empty() ? "" : ", ") + "/" + name;
  }
  return "the file has " + list + (info.nlinks > shown ? ", ..." : "");
}

// Like the .npy reader: a file that cannot be opened is reported with the system's reason.
inline void check_readable(const std::string &path) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    throw Error(path + ": cannot open: " + std::strerror(errno));
  struct stat st;
  const bool dir = ::fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode);
  std::fclose(f);
  if (dir)
    throw Error(path + ": cannot read: it is a directory");
}

inline bool is_hdf5_file(const std::string &path) {
#if H5_VERSION_GE(1, 12, 0)
  return H5Fis_accessible(path.c_str(), H5P_DEFAULT) > 0;
#else
  return H5Fis_hdf5(path.c_str()) > 0;
#endif
}

// Dataset creation: no modification times in the object headers (the same grids make the
// same bytes, whenever they were computed), and the contiguous data's space allocated when the
// dataset is created. The mpio driver always does the latter and records it in the dataset's
// fill value message; the serial writer asks for it too, so that files written by one process
// and by many are the same bytes (files of versions before it differ in that one field).
inline Hid dataset_creation() {
  Hid dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  if (!dcpl.ok() || H5Pset_obj_track_times(dcpl, 0) < 0 ||
      H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY) < 0)
    return Hid(-1, H5Pclose);
  return dcpl;
}

// Opens `path` for reading through the file access list `fapl` (H5P_DEFAULT, or mpio),
// reporting a missing file, a directory or another format as the .npy reader does.
inline Hid open_for_reading(const std::string &path, hid_t fapl) {
  check_readable(path);
  if (!is_hdf5_file(path))
    throw Error(path + ": not an HDF5 file");
  Hid file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl), H5Fclose);
  if (!file.ok())
    throw Error(path + ": cannot open as HDF5: " + hdf5_error());
  return file;
}

// The dataset "/NAME" of grid NAME with element type T and shape `dims` (slowest dimension
// first), or an error naming the file, the dataset and both sides.
template <typename T>
Hid open_grid_dataset(hid_t file, const std::string &path, const std::string &grid,
                      const std::vector<hsize_t> &dims) {
  const std::string name = "/" + grid;
  const std::string what = "dataset '" + name + "'";
  auto fail = [&](const std::string &msg) { throw Error(path + ": " + msg); };
  if (H5Lexists(file, grid.c_str(), H5P_DEFAULT) <= 0)
    fail("no " + what + " for grid '" + grid + "' (" + root_contents(file) + ")");
  {
    Hid obj(H5Oopen(file, name.c_str(), H5P_DEFAULT), H5Oclose);
    if (!obj.ok() || H5Iget_type(obj) != H5I_DATASET)
      fail("'" + name + "' is not a dataset" +
           (obj.ok() && H5Iget_type(obj) == H5I_GROUP
                ? " but a group (a time series? its datasets are '" + name + "/STEP')"
                : std::string()));
  }
  Hid dset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose);
  Hid type(dset.ok() ? H5Dget_type(dset) : -1, H5Tclose);
  Hid fspace(dset.ok() ? H5Dget_space(dset) : -1, H5Sclose);
  if (!type.ok() || !fspace.ok())
    fail("cannot read " + what + ": " + hdf5_error());
  if (!type_matches<T>(type))
    fail(what + " of type " + describe_type(type) + " does not match grid '" + grid + "' of type " +
         type_name<T>() + " ('" + npy_descr<T>() + "')");
  const int rank = H5Sget_simple_extent_ndims(fspace);
  std::vector<hsize_t> have(rank > 0 ? rank : 0);
  if (rank > 0)
    H5Sget_simple_extent_dims(fspace, have.data(), nullptr);
  if (have != dims) {
    const std::vector<hsize_t> extents(dims.rbegin(), dims.rend());
    fail(what + " of shape " + shape_str(have) + " does not match grid '" + grid + "' of shape " +
         shape_str(extents) + ": expected " + shape_str(dims) +
         (dims.size() > 1 ? " (the extents reversed: C order, x fastest)" : ""));
  }
  return dset;
}

} // namespace
} // namespace stencilc::h5detail
