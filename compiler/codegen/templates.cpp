#include <map>

#include "codegen/codegen.h"
#include "support/diagnostics.h"

namespace stc {

const std::map<std::string, std::string> &embedded_templates();

const std::string &template_text(const std::string &path) {
  const auto &t = embedded_templates();
  auto it = t.find(path);
  if (it == t.end())
    internal_error("no embedded template " + path);
  return it->second;
}

const char *version() { return STENCILC_VERSION; }

} // namespace stc
