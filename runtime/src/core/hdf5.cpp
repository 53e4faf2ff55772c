#include "stencilc/hdf5.h"

#include <optional>
#include <vector>

#include "stencilc/error.h"
#include "stencilc/hdf5_common.h"
#include "stencilc/xdmf.h"

static_assert(std::is_same_v<hid_t, std::int64_t>, "H5File keeps its hid_t in an int64_t");

namespace stencilc {

using namespace h5detail;

namespace {

[[noreturn]] void fail(const std::string &path, const std::string &msg) {
  throw Error(path + ": " + msg);
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
  // As the MPI runtime's parallel writer creates it: the same grids make the same bytes.
  Hid dcpl = dataset_creation();
  if (!fspace.ok() || !lcpl.ok() || !dcpl.ok() || H5Pset_create_intermediate_group(lcpl, 1) < 0)
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
  Quiet quiet;
  Hid file = open_for_reading(path, H5P_DEFAULT);
  const Storage s = storage_of(g);
  const std::string what = "dataset '/" + g.name() + "'";
  Hid dset = open_grid_dataset<T>(file, path, g.name(), s.dims);
  if (H5Dread(dset, memory_type<T>(), s.space, H5S_ALL, H5P_DEFAULT, g.origin() - s.base_offset) <
      0)
    fail(path, "cannot read " + what + ": " + hdf5_error());
}

template void H5File::write<float>(const std::string &, const Grid<float> &);
template void H5File::write<double>(const std::string &, const Grid<double> &);
template void H5File::write<std::int32_t>(const std::string &, const Grid<std::int32_t> &);
template void H5File::write<std::int64_t>(const std::string &, const Grid<std::int64_t> &);
template void h5_save_grid<float>(const Grid<float> &, const std::string &);
template void h5_save_grid<double>(const Grid<double> &, const std::string &);
template void h5_save_grid<std::int32_t>(const Grid<std::int32_t> &, const std::string &);
template void h5_save_grid<std::int64_t>(const Grid<std::int64_t> &, const std::string &);
template void h5_load_grid<float>(Grid<float> &, const std::string &);
template void h5_load_grid<double>(Grid<double> &, const std::string &);
template void h5_load_grid<std::int32_t>(Grid<std::int32_t> &, const std::string &);
template void h5_load_grid<std::int64_t>(Grid<std::int64_t> &, const std::string &);

} // namespace stencilc
