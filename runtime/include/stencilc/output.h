// The grids a run saves (--save, --save-every): .npy files, or HDF5 files with their XDMF
// sidecar, written once after the run or as a time series during it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "stencilc/grid.h"

namespace stencilc {

class Program;

/// An HDF5 file a distributed program writes where its grids are: each process writes its
/// blocks, and every process makes every call alike (collective).
class GridFile {
public:
  virtual ~GridFile() = default;
  /// Writes grid `grid` as the dataset `dataset` ("/u", "/u/000040"). Returns the grid's block
  /// on this process (the grid's name and element type, the block's extents).
  virtual GridRef write(const std::string &dataset, const std::string &grid) = 0;
  /// Pushes what was written to the file, so that readers see every dataset so far.
  virtual void flush() = 0;
  virtual void close() = 0;
};

/// What a Program whose grids are spread over processes (MPI) implements besides Program:
/// RunOutputs then has every process write its blocks (Program::save, create_h5) rather than
/// one process write grid(), which would gather every grid to it.
class BlockOutput {
public:
  virtual ~BlockOutput() = default;
  /// Creates the HDF5 file `path`, replacing an existing one (collective).
  virtual std::unique_ptr<GridFile> create_h5(const std::string &path) const = 0;
  /// A grid's global extents, x first.
  virtual std::vector<std::int64_t> global_extents(const std::string &grid) const = 0;
};

/// The file of a .npy time series at `step`: "out.npy" -> "out_000040.npy" (at least six
/// digits; the name without its extension, then the extension).
std::string npy_series_path(const std::string &path, std::int64_t step);
/// Fails before a run rather than after it: throws stencilc::Error ("PATH: cannot open for
/// writing: ...") unless the file's directory exists and is writable and the file is not a
/// directory. The words are those of the .npy writer.
void check_writable(const std::string &path);
/// The dataset of a grid at `step` in an HDF5 time series: "/u/000040".
std::string h5_series_dataset(const std::string &grid, std::int64_t step);

class RunOutputs {
public:
  /// `saves`: the --save GRID=FILE pairs, grid names already checked. `every`: 0 writes each
  /// file once (write() is called after the run); N >= 1 makes every file a time series (an
  /// entry per write()). Several grids may share an HDF5 file if their extents are equal (one
  /// XDMF mesh carries them); a .npy file holds one grid. Checks before the run that every
  /// file's directory is writable (the files are written by write(), so a
  /// --load of the same file reads it first).
  /// Throws stencilc::Error naming the option.
  RunOutputs(const Program &program, const std::vector<std::pair<std::string, std::string>> &saves,
             std::int64_t every);
  ~RunOutputs();
  RunOutputs(const RunOutputs &) = delete;
  RunOutputs &operator=(const RunOutputs &) = delete;

  /// Writes the state after `step` steps: every file, or every series' entry for this step.
  void write(const Program &program, std::int64_t step);
  /// The step of the latest write(), or -1.
  std::int64_t last_step() const { return last_step_; }
  /// Closes the series files (throws if that fails). The destructor closes them quietly.
  void close();

  struct File; // one output file with the grids it holds

private:
  std::vector<std::unique_ptr<File>> files_;
  std::int64_t every_ = 0;
  std::int64_t last_step_ = -1;
};

} // namespace stencilc
