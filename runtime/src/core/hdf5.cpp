#include "stencilc/hdf5.h"

#include <fcntl.h>
#include <hdf5.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

#include "stencilc/error.h"
#include "stencilc/xdmf.h"

static_assert(std::is_same_v<hid_t, std::int64_t>, "H5File keeps its hid_t in an int64_t");

namespace stencilc {

namespace {

[[noreturn]] void fail(const std::string &path, const std::string &msg) {
  throw Error(path + ": " + msg);
}

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
std::string hdf5_error() {
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
  else
    return H5T_NATIVE_INT32;
}

template <typename T> hid_t file_type() {
  if constexpr (std::is_same_v<T, float>)
    return H5T_IEEE_F32LE;
  else if constexpr (std::is_same_v<T, double>)
    return H5T_IEEE_F64LE;
  else
    return H5T_STD_I32LE;
}

// numpy's name of an HDF5 type ('<f8', '>i4'), or what kind of type it is.
std::string describe_type(hid_t type) {
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

std::string shape_str(const std::vector<hsize_t> &shape) {
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
std::string root_contents(hid_t file) {
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
void check_readable(const std::string &path) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    fail(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st;
  const bool dir = ::fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode);
  std::fclose(f);
  if (dir)
    fail(path, "cannot read: it is a directory");
}

bool is_hdf5_file(const std::string &path) {
#if H5_VERSION_GE(1, 12, 0)
  return H5Fis_accessible(path.c_str(), H5P_DEFAULT) > 0;
#else
  return H5Fis_hdf5(path.c_str()) > 0;
#endif
}

bool ends_with(const std::string &s, const std::string &tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

} // namespace

bool is_hdf5_path(const std::string &path) {
  return ends_with(path, ".h5") || ends_with(path, ".hdf5");
}

std::string xdmf_path_of(const std::string &h5_path) {
  const std::size_t ext = ends_with(h5_path, ".hdf5") ? 5 : ends_with(h5_path, ".h5") ? 3 : 0;
  return h5_path.substr(0, h5_path.size() - ext) + ".xmf";
}

std::string xdmf_data_ref(const std::string &h5_path, const std::string &dataset) {
  return h5_path.substr(h5_path.find_last_of('/') + 1) + ":" + dataset; // npos + 1 == 0
}

H5File::H5File(const std::string &path) : path_(path) {
  Quiet quiet;
  // Opened by hand first, so that a missing directory or a permission reads as the system
  // says it (as for .npy files), not as libhdf5's generic failure.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT, 0666);
  if (fd < 0)
    fail(path, std::string("cannot open for writing: ") + std::strerror(errno));
  ::close(fd);
  id_ = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (id_ < 0)
    fail(path, "cannot create an HDF5 file: " + hdf5_error());
}

H5File::~H5File() {
  if (id_ >= 0) {
    Quiet quiet;
    H5Fclose(id_);
  }
}

template <typename T> void H5File::write(const std::string &name, const Grid<T> &g) {
  if (g.rank() == 0)
    fail(path_, "grid '" + g.name() + "' has no storage");
  Quiet quiet;
  const Storage s = storage_of(g);
  Hid fspace(H5Screate_simple(g.rank(), s.dims.data(), nullptr), H5Sclose);
  Hid lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
  // No modification times in the object headers: the same grids make the same bytes, whenever
  // and on however many MPI ranks they were computed.
  Hid dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  if (!fspace.ok() || !lcpl.ok() || !dcpl.ok() || H5Pset_create_intermediate_group(lcpl, 1) < 0 ||
      H5Pset_obj_track_times(dcpl, 0) < 0)
    fail(path_, "cannot write dataset '" + name + "': " + hdf5_error());
  Hid dset(H5Dcreate2(id_, name.c_str(), file_type<T>(), fspace, lcpl, dcpl, H5P_DEFAULT),
           H5Dclose);
  if (!dset.ok())
    fail(path_, "cannot create dataset '" + name + "': " + hdf5_error());
  if (H5Dwrite(dset, memory_type<T>(), s.space, H5S_ALL, H5P_DEFAULT, g.origin() - s.base_offset) <
      0)
    fail(path_, "cannot write dataset '" + name + "': " + hdf5_error());
}

void H5File::flush() {
  Quiet quiet;
  if (H5Fflush(id_, H5F_SCOPE_LOCAL) < 0)
    fail(path_, "cannot write: " + hdf5_error());
}

void H5File::close() {
  Quiet quiet;
  const hid_t id = id_;
  id_ = -1;
  if (id >= 0 && H5Fclose(id) < 0)
    fail(path_, "cannot write: " + hdf5_error());
}

void h5_save_grids(const std::string &path, const std::string &mesh,
                   const std::vector<GridRef> &grids) {
  std::optional<H5File> f(std::in_place, path);
  try {
    for (const GridRef &g : grids)
      std::visit([&](const auto *grid) { f->write("/" + grid->name(), *grid); }, g);
    f->close();
  } catch (const Error &) {
    f.reset();
    std::remove(path.c_str()); // no half-written file
    throw;
  }
  const std::vector<std::int64_t> extents = grid_extents(grids.front());
  if (!xdmf_describes(static_cast<int>(extents.size())))
    return;
  std::vector<XdmfAttribute> attrs;
  for (const GridRef &g : grids)
    attrs.push_back(xdmf_attribute(g, xdmf_data_ref(path, "/" + grid_name(g))));
  write_text_file(xdmf_path_of(path), xdmf_uniform(mesh, extents, attrs));
}

template <typename T> void h5_save_grid(const Grid<T> &g, const std::string &path) {
  if (g.rank() == 0)
    fail(path, "grid '" + g.name() + "' has no storage");
  h5_save_grids(path, g.name(), {&g});
}

template <typename T> void h5_load_grid(Grid<T> &g, const std::string &path) {
  if (g.rank() == 0)
    fail(path, "grid '" + g.name() + "' has no storage");
  check_readable(path);
  Quiet quiet;
  if (!is_hdf5_file(path))
    fail(path, "not an HDF5 file");
  Hid file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.ok())
    fail(path, "cannot open as HDF5: " + hdf5_error());
  const std::string name = "/" + g.name();
  const std::string what = "dataset '" + name + "'";
  if (H5Lexists(file, g.name().c_str(), H5P_DEFAULT) <= 0)
    fail(path, "no " + what + " for grid '" + g.name() + "' (" + root_contents(file) + ")");
  {
    Hid obj(H5Oopen(file, name.c_str(), H5P_DEFAULT), H5Oclose);
    if (!obj.ok() || H5Iget_type(obj) != H5I_DATASET)
      fail(path, "'" + name + "' is not a dataset" +
                     (obj.ok() && H5Iget_type(obj) == H5I_GROUP
                          ? " but a group (a time series? its datasets are '" + name + "/STEP')"
                          : std::string()));
  }
  Hid dset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose);
  Hid type(dset.ok() ? H5Dget_type(dset) : -1, H5Tclose);
  Hid fspace(dset.ok() ? H5Dget_space(dset) : -1, H5Sclose);
  if (!type.ok() || !fspace.ok())
    fail(path, "cannot read " + what + ": " + hdf5_error());
  if (!type_matches<T>(type))
    fail(path, what + " of type " + describe_type(type) + " does not match grid '" + g.name() +
                   "' of type " + type_name<T>() + " ('" + npy_descr<T>() + "')");

  const Storage s = storage_of(g);
  const int rank = H5Sget_simple_extent_ndims(fspace);
  std::vector<hsize_t> have(rank > 0 ? rank : 0);
  if (rank > 0)
    H5Sget_simple_extent_dims(fspace, have.data(), nullptr);
  if (have != s.dims) {
    const std::vector<hsize_t> extents(s.dims.rbegin(), s.dims.rend());
    fail(path, what + " of shape " + shape_str(have) + " does not match grid '" + g.name() +
                   "' of shape " + shape_str(extents) + ": expected " + shape_str(s.dims) +
                   (s.dims.size() > 1 ? " (the extents reversed: C order, x fastest)" : ""));
  }
  if (H5Dread(dset, memory_type<T>(), s.space, H5S_ALL, H5P_DEFAULT, g.origin() - s.base_offset) <
      0)
    fail(path, "cannot read " + what + ": " + hdf5_error());
}

template void H5File::write<float>(const std::string &, const Grid<float> &);
template void H5File::write<double>(const std::string &, const Grid<double> &);
template void H5File::write<std::int32_t>(const std::string &, const Grid<std::int32_t> &);
template void h5_save_grid<float>(const Grid<float> &, const std::string &);
template void h5_save_grid<double>(const Grid<double> &, const std::string &);
template void h5_save_grid<std::int32_t>(const Grid<std::int32_t> &, const std::string &);
template void h5_load_grid<float>(Grid<float> &, const std::string &);
template void h5_load_grid<double>(Grid<double> &, const std::string &);
template void h5_load_grid<std::int32_t>(Grid<std::int32_t> &, const std::string &);

} // namespace stencilc
