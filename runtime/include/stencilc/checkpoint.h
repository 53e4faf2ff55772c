// Checkpoints (--checkpoint FILE --every N, --restart FILE): the state of a run after some
// steps, written atomically, from which a later run continues bitwise as if it never stopped.
//
// The file (format version 1; all integers little-endian):
//   8 bytes   magic "STNCKPT\n"
//   4 bytes   format version (uint32, 1)
//   4 bytes   header length H (uint32)
//   H bytes   a JSON object: {"stencil": NAME, "fingerprint": HEX, "step": M,
//             "state": [HEX, ...], "grids": [{"name": G, "dtype": "<f4", "shape": [NX, ...]}, ...]}
//             "fingerprint": FNV-1a of the program's IR and its param values (fingerprint());
//             "state": the scalars the run carries (Program::run_state()), each double's bits
//             as 16 hex digits, so NaN and -0.0 survive
//   then      each grid's interior in "grids" order, x fastest (numpy's Fortran order, as
//             --save writes it), shape[0] * shape[1] * ... elements of its dtype
//   8 bytes   FNV-1a 64 of every byte before it (uint64)
// A reader refuses a file whose magic, version, length or checksum does not match.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "stencilc/grid.h"

namespace stencilc {

class Program;

/// The state a checkpoint holds, grids aside.
struct CheckpointHeader {
  std::string stencil;
  std::string fingerprint;
  std::int64_t step = 0;
  std::vector<double> state;
};

/// A checkpoint read back: its header and its grids, whole (no halo), in the file's order.
struct Checkpoint {
  CheckpointHeader header;
  std::vector<std::variant<Grid<float>, Grid<double>, Grid<std::int32_t>, Grid<std::int64_t>>>
      grids;
  GridRef grid(std::size_t i) const;
};

/// The fingerprint of a program: FNV-1a 64 (16 hex digits) of `program` (the compiler's hash
/// of its IR) and every param's name and value (param_text).
std::string fingerprint(const std::string &program,
                        const std::vector<std::pair<std::string, std::string>> &params);
/// A param's value as the fingerprint sees it: integers in decimal, floating values by their
/// double's bits (a float param is widened first).
std::string param_text(std::int64_t v);
std::string param_text(double v);

/// Writes `grids` (whole, no halo: what Program::grid() gives) after `header` to `path`
/// atomically: to "PATH.tmp" in the same directory, flushed and fsync'ed, then renamed over
/// PATH, so a write that stops halfway leaves the previous checkpoint valid. Throws
/// stencilc::Error ("--checkpoint PATH: ...") if any of it fails. Test hook: with the
/// environment variable STENCILC_TEST_CHECKPOINT_CRASH=K, the K-th write of this process
/// writes half of the temporary file, then ends the process with exit code 3 (a crash).
void write_checkpoint(const std::string &path, const CheckpointHeader &header,
                      const std::vector<GridRef> &grids);

/// Reads and verifies a checkpoint. Throws stencilc::Error with a one-line message
/// ("--restart PATH: ...") for a missing, truncated, corrupt or foreign file.
Checkpoint read_checkpoint(const std::string &path);

/// Throws stencilc::Error ("--restart PATH: ...") unless the header is of `stencil` with this
/// `fingerprint`.
void check_identity(const std::string &path, const CheckpointHeader &header,
                    const std::string &stencil, const std::string &fingerprint);
/// What an executable checks before it allocates its grids: the file as read_checkpoint
/// does (read a block at a time, so nothing of its size is allocated) and check_identity.
void check_checkpoint(const std::string &path, const std::string &stencil,
                      const std::string &fingerprint);

/// Checks, before the run, that a checkpoint can be written to `path` (its directory exists and
/// is writable); throws stencilc::Error naming --checkpoint.
void check_checkpoint_path(const std::string &path);

/// The grid a restored grid of type T takes its interior from: null where `whole` holds none
/// (MPI ranks other than 0). Throws stencilc::Error if it is of another type or other extents
/// than `extents` (x first).
template <typename T>
const Grid<T> *restored_grid(const GridRef &whole, const std::string &name,
                             const std::vector<std::int64_t> &extents);
/// Copies the interior of `from` into `to` (same extents).
template <typename T> void copy_interior(const Grid<T> &from, Grid<T> &to);
/// Program::restore of one process: `g`'s interior from `whole` (restored_grid's checks).
template <typename T> void restore_grid(Grid<T> &g, const GridRef &whole);

} // namespace stencilc
