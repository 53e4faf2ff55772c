#include "driver/pipeline.h"

#include <cstdio>
#include <set>

#include <fmt/format.h>

#include "frontend/parse.h"
#include "frontend/physis.h"
#include "frontend/source.h"
#include "sema/check.h"
#include "target/runtime_paths.h"
#include "target/target.h"

namespace stc {

namespace {

// Not yet on the distributed targets: a grid of lower rank would need its own decomposition,
// following the process grid along the dimensions it has and replicated along the others.
void refuse_lower_rank_reads(const ir::Program &p, DiagEngine &diags) {
  std::set<int> reported;
  auto visit = [&](const std::string &owner, int rank) {
    return [&, owner, rank](const ir::Expr &e) {
      if (e.op == ir::Op::GridRead && p.grids[e.id].rank < rank && reported.insert(e.id).second)
        diags.error(e.loc, fmt::format("{} reads grid '{}' of rank {}: grids of lower rank in a "
                                       "kernel are not supported on the MPI targets yet (the "
                                       "interpreter, openmp, cuda and hip have them)",
                                       owner, p.grids[e.id].name, p.grids[e.id].rank));
    };
  };
  for (const auto &k : p.kernels)
    ir::walk(k.body, visit(fmt::format("kernel '{}'", k.name), k.rank));
  for (const auto &r : p.reductions)
    ir::walk(r.value, visit(fmt::format("reduction '{}'", r.name), r.rank));
}

} // namespace

std::optional<Compiled> compile(const std::string &path, const PipelineOptions &opts) {
  auto log = [&](const char *step) {
    if (opts.verbose)
      std::fprintf(stderr, "stencilc: %s %s\n", step, path.c_str());
  };
  log("read");
  std::string err;
  auto file = read_source(path, err);
  if (!file) {
    std::fprintf(stderr, "error: %s\n", err.c_str());
    return std::nullopt;
  }
  auto src = std::make_unique<SourceFile>(std::move(*file));
  auto headers = std::make_unique<std::vector<std::unique_ptr<SourceFile>>>();
  DiagEngine diags(src.get());
  auto flush = [&] { std::fputs(diags.render().c_str(), stderr); };

  // A Physis C program goes through Clang; the headers its diagnostics point into live as long
  // as the program (declared before `diags`, so they outlive it).
  std::optional<ast::Program> ast;
  std::optional<std::string> host;
  if (is_physis_path(path)) {
    log("parse (Clang, Physis)");
    std::string text;
    ast = parse_physis(*src, diags, {runtime_include_dir()}, *headers,
                       opts.physis_host ? &text : nullptr);
    if (ast && opts.physis_host)
      host = std::move(text);
  } else {
    log("parse");
    ast = parse(*src, diags);
  }
  if (!ast) {
    flush();
    return std::nullopt;
  }
  log("check");
  auto prog = check(*ast, diags, reserved_by_targets());
  if (prog && opts.distributed)
    refuse_lower_rank_reads(*prog, diags);
  flush();
  if (!prog || diags.has_errors())
    return std::nullopt;
  prog->source_path = path;
  if (opts.print_ir)
    std::fputs(ir::print(*prog).c_str(), stdout);
  log("analyze");
  Analysis a = analyze(*prog);
  log("lower");
  lower::Lowered lowered = lower::lower(*prog, a, opts.distributed);
  if (opts.print_lowered)
    std::fputs(lower::print(*prog, lowered).c_str(), stdout);
  return Compiled{std::move(src), std::move(*headers), std::move(*ast), std::move(*prog),
                  std::move(a),   std::move(lowered),  std::move(host)};
}

} // namespace stc
