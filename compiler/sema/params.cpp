#include "sema/params.h"

#include <string>

#include "sema/check.h"

namespace stc {

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
