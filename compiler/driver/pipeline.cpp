#include "driver/pipeline.h"

#include <cstdio>

#include "frontend/parse.h"
#include "frontend/physis.h"
#include "frontend/source.h"
#include "sema/check.h"
#include "sema/instantiate.h"
#include "sema/structs.h"
#include "target/runtime_paths.h"
#include "target/target.h"

namespace stc {

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
  log("instantiate, split structs");
  const std::optional<ast::Program> bound = split_structs(instantiate(*ast, diags), diags);
  if (!bound) {
    flush();
    return std::nullopt;
  }
  log("check");
  auto prog = check(*bound, diags, reserved_by_targets());
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
