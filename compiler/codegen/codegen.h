// Code generation entry points and what they share.
#pragma once
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "ir/ir.h"
#include "lower/lowered.h"
#include "stencilc/plan.h"

namespace stc {

struct GeneratedFile {
  std::string name; // file name, no directory
  std::string text;
};

struct EmitOptions {
  stencilc::Plan plan;      // compiled in (the planner's choice or --plan)
  bool format = true;       // run clang-format (libFormat) over the output
  std::string plan_comment; // where the plan came from, the model's prediction (the planner)
};

/// The openmp target: NAME.h (the documented API), NAME.cpp, NAME_main.cpp (the executable).
std::vector<GeneratedFile> emit_openmp(const ir::Program &p, const Analysis &a,
                                       const lower::Lowered &l, const EmitOptions &opts);

/// The mpi-openmp target, naive plan: the same files and API over the distributed runtime
/// (stencilc/mpi/comm.h): each rank sweeps its block with OpenMP threads; indices, colours,
/// sub-domains and boundary values in global coordinates. Needs a distributed lowering.
std::vector<GeneratedFile> emit_mpi_openmp(const ir::Program &p, const Analysis &a,
                                           const lower::Lowered &l, const EmitOptions &opts);

/// mpi-openmp's sweep of kernel k over a rank's block or a region of it (OpenMP threads over
/// the host grids), as Stencil::host_kernel__K(const Region *): mpi-cuda's and mpi-hip's
/// boundary region under overlap=host. `widened`: host_kernel_wide__K, whose box (always given)
/// is cut at the block's physical faces only (the temporal plan's levels reach into the halo).
std::string host_kernel_definition(const ir::Program &p, const ir::Kernel &k, bool widened = false);

/// The cuda and hip targets (one generator, `target` names which): NAME.h (openmp's API),
/// NAME.cpp (kernels and host code over stencilc/gpu/device.h), NAME_main.cpp.
/// Why the cuda/hip streaming (2.5D) plan cannot run program p, or "" when it can.
std::string gpu_streaming_unsupported(const ir::Program &p);
/// Why the cuda/hip temporal (AN5D-style) plan cannot run program p, or "" when it can; with
/// a plan, also why its tile cannot hold k fused steps (no cells left to compute).
std::string gpu_temporal_unsupported(const ir::Program &p,
                                     const stencilc::scheme::GpuTemporal *plan = nullptr);

std::vector<GeneratedFile> emit_gpu(const ir::Program &p, const Analysis &a,
                                    const lower::Lowered &l, const EmitOptions &opts,
                                    const std::string &target);

/// A Physis program's NAME_physis.cpp: the Physis API (PSInit, grids, copies, PSStencilRun,
/// PSReduce) over the generated NAME::Stencil of `target`, for its rewritten host code.
GeneratedFile emit_physis_shim(const ir::Program &p, const lower::Lowered &l,
                               const EmitOptions &opts, const std::string &target);

/// Why the openmp temporal plan cannot run this program ("" if it can): rank, `run until`,
/// arithmetic that can fail per cell, ...
std::string temporal_unsupported(const ir::Program &p);

/// Template text by path under templates/ (embedded at build time).
const std::string &template_text(const std::string &path);

/// Formats C++ with clang's libFormat (LLVM style, 100 columns); returns the input on failure.
/// Top-level declarations are formatted apart, on several threads.
std::string format_cxx(const std::string &code, const std::string &file_name);
/// The same over the whole text at once: what format_cxx must equal (tests).
std::string format_cxx_whole(const std::string &code, const std::string &file_name);

/// `#line` directives (line_directives.cpp): the C++ of a kernel statement or a reduction's
/// value cites its line in the .stn (the path as given on the command line), everything else
/// the generated file. Each returns "" for a program without a source path.
/// The directive before the C++ of a statement (its first .stn line).
std::string stmt_line_directive(const ir::Program &p, const ir::Stmt &st);
/// The directive before the C++ of an expression (its first .stn line).
std::string expr_line_directive(const ir::Program &p, const ir::ExprPtr &e);
/// The directive after such a stretch, back to the generated file `file` (a placeholder
/// number: fix_line_directives sets it).
std::string generated_line_directive(const ir::Program &p, const std::string &file);
/// Over the final text of `file` (after libFormat): numbers every directive back to `file`
/// with the line that follows it, and pins the lines of a statement that libFormat broke into
/// more lines than the statement has in the .stn to the statement's last line.
std::string fix_line_directives(const std::string &text, const ir::Program &p,
                                const std::string &file);

/// Version string of stencilc.
const char *version();

} // namespace stc
