#include "stencilc/output.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "stencilc/error.h"
#include "stencilc/hdf5.h"
#include "stencilc/npy.h"
#include "stencilc/program.h"
#include "stencilc/xdmf.h"

namespace stencilc {

namespace {

std::string step_digits(std::int64_t step) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%06" PRId64, step);
  return buf;
}

} // namespace

void check_writable(const std::string &path) {
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  int err = 0;
  struct stat st;
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    err = errno;
  else if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    err = EISDIR;
  if (err)
    throw Error(path + ": cannot open for writing: " + std::strerror(err));
}

std::string npy_series_path(const std::string &path, std::int64_t step) {
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
  const std::size_t stem = has_ext ? dot : path.size();
  return path.substr(0, stem) + "_" + step_digits(step) + path.substr(stem);
}

std::string h5_series_dataset(const std::string &grid, std::int64_t step) {
  return "/" + grid + "/" + step_digits(step);
}

struct RunOutputs::File {
  std::string path;
  bool hdf5 = false;
  std::vector<std::string> grids;   // with their --save order
  std::unique_ptr<H5File> series;   // an HDF5 time series, open during the run
  std::unique_ptr<GridFile> blocks; // the same written by every process (BlockOutput)
  std::vector<XdmfStep> steps;      // its entries so far, for the XDMF file
};

RunOutputs::RunOutputs(const Program &program,
                       const std::vector<std::pair<std::string, std::string>> &saves,
                       std::int64_t every)
    : every_(every) {
  for (const auto &[grid, path] : saves) {
    const std::string opt = "--save " + grid + "=" + path;
    File *same = nullptr;
    for (const auto &f : files_)
      if (f->path == path)
        same = f.get();
    if (!same) {
      if (program.writes_files())
        check_writable(every && !is_hdf5_path(path) ? npy_series_path(path, 0) : path);
      files_.push_back(std::make_unique<File>());
      files_.back()->path = path;
      files_.back()->hdf5 = is_hdf5_path(path);
      files_.back()->grids.push_back(grid);
      continue;
    }
    const std::string first = same->grids.front();
    if (!same->hdf5)
      throw Error(opt + ": " + path + " is already written by --save " + first + "=" + path +
                  " (a .npy file holds one grid; an HDF5 file can hold several)");
    for (const auto &g : same->grids)
      if (g == grid)
        throw Error(opt + " is given twice");
    // A distributed program's extents without gathering its grids.
    const auto *blocks = dynamic_cast<const BlockOutput *>(&program);
    const auto extents = [&](const std::string &g) {
      return blocks ? blocks->global_extents(g) : grid_extents(program.grid(g));
    };
    const auto mine = extents(grid);
    const auto theirs = extents(first);
    if (mine != theirs)
      throw Error(opt + ": grid '" + grid + "' of shape " + shape_text(mine) + " cannot share " +
                  path + " with grid '" + first + "' of shape " + shape_text(theirs) +
                  " (the grids of one HDF5 file are one XDMF mesh): save it to another file");
    same->grids.push_back(grid);
  }
}

RunOutputs::~RunOutputs() = default;

namespace {

// write() of a distributed program: every process writes its blocks of every grid, each call
// collective; the one that writes_files() also writes the XDMF sidecars.
void write_blocks(const Program &program, const BlockOutput &blocks, RunOutputs::File &f,
                  std::int64_t every, std::int64_t step) {
  if (!f.hdf5)
    return program.save(f.grids.front(), every ? npy_series_path(f.path, step) : f.path);
  const bool root = program.writes_files();
  const std::vector<std::int64_t> extents = blocks.global_extents(f.grids.front());
  const bool xdmf = root && xdmf_describes(static_cast<int>(extents.size()));
  if (!every) {
    std::unique_ptr<GridFile> file = blocks.create_h5(f.path);
    std::vector<XdmfAttribute> attrs;
    try {
      for (const auto &g : f.grids)
        attrs.push_back(xdmf_attribute(file->write("/" + g, g), xdmf_data_ref(f.path, "/" + g)));
      file->close();
    } catch (const Error &) {
      file.reset();
      if (root)
        std::remove(f.path.c_str()); // no half-written file
      throw;
    }
    if (xdmf)
      write_text_file(xdmf_path_of(f.path), xdmf_uniform(program.name(), extents, attrs));
    return;
  }
  // Created at the first entry, not before the run: --load may read the same file.
  if (!f.blocks)
    f.blocks = blocks.create_h5(f.path);
  XdmfStep entry{step, {}};
  for (const auto &g : f.grids) {
    const std::string dataset = h5_series_dataset(g, step);
    entry.attrs.push_back(
        xdmf_attribute(f.blocks->write(dataset, g), xdmf_data_ref(f.path, dataset)));
  }
  f.blocks->flush();
  f.steps.push_back(std::move(entry));
  if (xdmf)
    write_text_file(xdmf_path_of(f.path), xdmf_temporal(program.name(), extents, f.steps));
}

} // namespace

void RunOutputs::write(const Program &program, std::int64_t step) {
  last_step_ = step;
  if (const auto *blocks = dynamic_cast<const BlockOutput *>(&program)) {
    for (auto &f : files_)
      write_blocks(program, *blocks, *f, every_, step);
    return;
  }
  for (auto &f : files_) {
    std::vector<GridRef> grids;
    for (const auto &g : f->grids)
      grids.push_back(program.grid(g)); // collective for an MPI program: every rank calls it
    if (!program.writes_files())
      continue;
    if (!f->hdf5) {
      const std::string path = every_ ? npy_series_path(f->path, step) : f->path;
      std::visit([&](const auto *g) { save_grid(*g, path); }, grids.front());
    } else if (!every_) {
      h5_save_grids(f->path, program.name(), grids);
    } else {
      // Created at the first entry, not before the run: --load may read the same file.
      if (!f->series)
        f->series = std::make_unique<H5File>(f->path);
      XdmfStep entry{step, {}};
      for (const GridRef &g : grids) {
        const std::string dataset = h5_series_dataset(grid_name(g), step);
        std::visit([&](const auto *grid) { f->series->write(dataset, *grid); }, g);
        entry.attrs.push_back(xdmf_attribute(g, xdmf_data_ref(f->path, dataset)));
      }
      f->series->flush();
      f->steps.push_back(std::move(entry));
      const std::vector<std::int64_t> extents = grid_extents(grids.front());
      if (xdmf_describes(static_cast<int>(extents.size())))
        write_text_file(xdmf_path_of(f->path), xdmf_temporal(program.name(), extents, f->steps));
    }
  }
}

void RunOutputs::close() {
  for (auto &f : files_) {
    if (f->series)
      f->series->close();
    if (f->blocks)
      f->blocks->close();
  }
}

} // namespace stencilc
