// The Physis API for a Physis program's own host code (templates/physis/host.cpp.mustache):
// what `stencilc build prog.c` links with the rewritten host code (frontend/physis_host.h) and
// the target's generated code. The same file for every target: it only uses the generated API.
#include "codegen/codegen.h"
#include "codegen/program_data.h"

namespace stc {

GeneratedFile emit_physis_shim(const ir::Program &p, const lower::Lowered &l,
                               const EmitOptions &opts, const std::string &target) {
  return render_file(p, program_data(p, l, opts, target), "physis/host.cpp.mustache",
                     p.name + "_physis.cpp", opts);
}

} // namespace stc
