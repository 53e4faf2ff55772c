// What every C-like target's generated files share, as template data: the names, the plan and
// where it came from, the params (with their --set parsing and defaults), the grids (extents,
// halos, flags), the kernels and reductions by name, the run's steps, condition and size
// checks, the cells a step updates, and the Reduce action's statements. A target adds its own
// keys (its kernels, its step) and renders its templates with render_file.
#pragma once
#include <functional>
#include <set>
#include <string>

#include <kainjow/mustache.hpp>

#include "codegen/codegen.h"
#include "ir/ir.h"
#include "lower/lowered.h"

namespace stc {

/// The shared keys for `target` (see the templates under templates/ for their use); for a
/// distributed lowering (l.distributed) also the `mpi` section and global checks and counts.
kainjow::mustache::data program_data(const ir::Program &p, const lower::Lowered &l,
                                     const EmitOptions &opts, const std::string &target);

/// The named run blocks (ir::Program::blocks) as the list `blocks` (name, steps: its count as
/// an expression of prm__, body: `bodies[i]`, one iteration) and `has_blocks`.
void set_blocks(kainjow::mustache::data &d, const ir::Program &p,
                const std::vector<std::string> &bodies);

/// The statements of a lowered Reduce action: the value, and the first value once.
std::string reduce_statements(const ir::Program &p, int reduction);

/// The host API's compute_NAME() of every reduction (the value now, over the grids as they
/// are, between runs too): the ghost cells of the grids it reads refreshed by `fill` (as before
/// a Reduce action), then reduce__NAME(). `before` and `after(grids read)` are the GPU targets'
/// copies and checks: the host's changes to the device first; after, the filled grids newer
/// there and the device's error flags.
std::string
compute_definitions(const ir::Program &p, const std::function<std::string(const ir::Grid &)> &fill,
                    const std::string &before = "",
                    const std::function<std::string(const std::set<int> &)> &after = nullptr);

/// One step's statements from the lowered actions: a sweep calls kernel__K(), a reduction is
/// reduce_statements, MarkStale flags the grid; the target says how it refills a stale grid
/// (FillGhosts, and Exchange of a distributed lowering, whose fill exchanges) and swaps two
/// (Swap).
std::string step_statements(const ir::Program &p, const lower::Lowered &l,
                            const std::function<std::string(const ir::Grid &)> &fill,
                            const std::function<std::string(const lower::Action &)> &swap);
/// The same for some of the step's actions.
std::string step_statements(const ir::Program &p, const std::vector<lower::Action> &actions,
                            const std::function<std::string(const ir::Grid &)> &fill,
                            const std::function<std::string(const lower::Action &)> &swap);
/// A distributed target's step under a plan that may overlap the exchange: each sweep that
/// follows exchanges (of grids it reads) is `if (overlap__()) { OVERLAPPED } else { the
/// exchanges' own statements; kernel__K(); MARKS }`, OVERLAPPED being `overlapped(kernel,
/// those exchanges, marks)`, marks the mark-stale actions right after the sweep (MARKS their
/// statements, which OVERLAPPED must contain); the other actions as step_statements writes them.
std::string overlapped_step(
    const ir::Program &p, const std::vector<lower::Action> &step,
    const std::function<std::string(const ir::Grid &)> &fill,
    const std::function<std::string(const lower::Action &)> &swap,
    const std::function<std::string(const ir::Kernel &, const std::vector<lower::Action> &,
                                    const std::vector<lower::Action> &)> &overlapped);

/// Template `tpl` (a path under templates/) rendered with `d` as file `file`: formatted with
/// libFormat unless opts.format is off, its #line directives numbered.
GeneratedFile render_file(const ir::Program &p, const kainjow::mustache::data &d,
                          const std::string &tpl, const std::string &file,
                          const EmitOptions &opts);

} // namespace stc
