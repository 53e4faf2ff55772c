// The lowered program: what every target does, decided once and printable (--print-lowered),
// before any target is involved. The run block as actions (fill ghost cells, sweep a kernel
// over its domain, reduce, swap; halo exchanges for distributed targets; room for device
// transfers), the checks a
// generated program makes on its sizes at run time, the cells a step updates, and the temporal
// schedule's margins (how far a step reaches, summed over its kernel calls), which the CPU
// engine, the model and the MPI and GPU plans all need.
//
// One pass per file (run_block.cpp, ghost_fills.cpp, halo_exchanges.cpp, checks.cpp, schedule.cpp); lower.cpp runs
// them in order; print.cpp prints the result. Each pass has a lit test (tests/lit/lower/).
#pragma once
#include <array>
#include <set>
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "ir/ir.h"

namespace stc::lower {

struct Action {
  enum class Kind {
    FillGhosts, // refill grid a's ghost cells from its faces, if they are stale
    Sweep,      // kernel a over its domain
    Reduce,     // reduction a over its domain
    Swap,       // grids a and b exchange storage (ghost cells travel with it)
    MarkStale,  // grid a's ghost cells no longer match its interior (Neumann, periodic faces)
    MarkHaloStale, // distributed: grid a's interior changed under Dirichlet faces only; its
                   // cells in the neighbours' halos are stale, its physical faces are not
    Exchange,   // distributed: refill grid a's ghost cells, if stale, dimension by dimension:
                // its halo exchanged with the neighbour ranks (periodic faces wrapping), then
                // the faces on the physical boundary from their conditions
  };
  Kind kind;
  int a = -1, b = -1;
  SourceLoc loc;
};

/// A check of sizes the generated program makes before it runs (sizes are params).
struct Check {
  enum class Kind {
    SameShape,    // grid `grid` has the extents of grid `other` in the first `rank` dimensions
    MinExtent,    // grid `grid` has at least `width` cells in dimension `dim`
    DomainInside, // the sub-domain of `owner` lies in [0, extent) of grid `grid` in `dim`
    IndexInside,  // `owner` reads grid `grid` at absolute index `width` (or `index`, given by
                  // params) in `dim`: 0 <= it < extent
    SameExtent,   // grid `grid` (of lower rank) has the extent of grid `other` in `dim` and
                  // `other_dim` respectively
  };
  Kind kind;
  std::string owner; // "kernel 'k'" or "reduction 'r'"
  int grid = -1, other = -1;
  int dim = 0, rank = 0, width = 0;
  const ir::Domain *domain = nullptr; // DomainInside
  int other_dim = 0;                  // SameExtent
  ir::ExprPtr index = nullptr;        // IndexInside: the index given by params (null: width)
};

/// How far the kernel calls of one step reach, for schedules that compute several steps at
/// once (CPU and GPU temporal blocking, MPI halos k steps deep).
struct Schedule {
  /// Grids the step changes (written by a kernel or swapped); the others are coefficients.
  std::set<int> state;
  /// Per kernel call of the step, in order: the kernel and its widest offset per dimension.
  std::vector<int> calls;
  std::vector<ir::Offsets> reach;
  /// Per kernel call, per dimension: how far around a tile (or a rank's block) the call must
  /// compute its outputs so that the step's results are right over the tile itself -- the
  /// offsets of the calls after it that read them, summed along the chain.
  std::vector<ir::Offsets> margin;
  /// Per dimension, the reach of a whole step: how far around a tile the state must be known
  /// at the step's start (its calls' offsets summed along the chains of grids they pass on).
  /// A block of k steps computes call c of step i (from 0) over (k - 1 - i) * step_reach +
  /// margin[c]; the CPU engine, the model, MPI halos (k * step_reach) and GPU tiles use it.
  ir::Offsets step_reach{};
  /// Kernel calls whose domains add up to the cells a step updates.
  std::vector<int> updates;
};

struct Lowered {
  bool distributed = false; // lowered for a distributed target (Exchange actions)
  std::vector<Action> step; // one iteration of the (main) run block
  /// One iteration of each named run block (ir::Program::blocks, in order), lowered alike.
  std::vector<std::vector<Action>> blocks;
  std::vector<Check> checks;
  Schedule schedule;
};

// The passes, in the order lower() runs them.
/// The run block as Sweep, Reduce and Swap actions, with MarkStale after a sweep that writes a
/// grid whose ghost cells depend on its interior.
std::vector<Action> lower_run_block(const ir::Program &p, const std::vector<ir::RunStmt> &run);
/// A FillGhosts before every Sweep and Reduce for each grid it reads.
std::vector<Action> insert_ghost_fills(const ir::Program &p, const std::vector<Action> &step);
/// For a distributed target: every FillGhosts of a grid with ghost cells becomes an Exchange
/// (the others go), and a sweep marks every grid it writes stale (its neighbours' ghost cells
/// hold its interior), whatever its faces: MarkHaloStale where its faces are all Dirichlet (a
/// refill then exchanges alone; the physical faces keep their values).
std::vector<Action> insert_halo_exchanges(const ir::Program &p, const std::vector<Action> &step);
/// The size checks: shapes of the grids a kernel or reduction uses, extents at least the
/// stencil's width, sub-domains inside their grid.
std::vector<Check> size_checks(const ir::Program &p);
/// The step's state grids, its calls' reach and the cells it updates.
Schedule step_schedule(const ir::Program &p, const Analysis &a);

/// Runs the passes; `distributed`: for a target whose grids are split over processes (MPI).
Lowered lower(const ir::Program &p, const Analysis &a, bool distributed = false);

/// The lowered program as text (--print-lowered).
std::string print(const ir::Program &p, const Lowered &l);

} // namespace stc::lower
