#include "driver/pipeline.h"

#include <cstdio>

#include "frontend/parse.h"
#include "frontend/source.h"
#include "sema/check.h"

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
  DiagEngine diags(src.get());
  auto flush = [&] { std::fputs(diags.render().c_str(), stderr); };

  log("parse");
  auto ast = parse(*src, diags);
  if (!ast) {
    flush();
    return std::nullopt;
  }
  log("check");
  auto prog = check(*ast, diags);
  flush();
  if (!prog)
    return std::nullopt;
  prog->source_path = path;
  if (opts.print_ir)
    std::fputs(ir::print(*prog).c_str(), stdout);
  log("analyze");
  Analysis a = analyze(*prog);
  return Compiled{std::move(src), std::move(*prog), std::move(a)};
}

std::vector<ir::Scalar> param_values(const ir::Program &p, const stencilc::RunOptions &run) {
  stencilc::ParamSet set(run.sets);
  std::vector<std::string> names;
  for (const auto &q : p.params)
    names.push_back(q.name);
  set.check_known(names);
  return resolve_params(p, [&](const std::string &name, ir::Type t, ir::Scalar &out) {
    if (!set.has(name))
      return false;
    out = t == ir::Type::Int ? ir::Scalar::of_int(set.get_int(name))
                             : ir::Scalar::of(t, set.get_double(name));
    return true;
  });
}

} // namespace stc
