#!/usr/bin/env bash
# cmake --install this build into a fresh prefix (the fixture of the other package tests) and
# check the layout users are promised.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

rm -rf "$PREFIX"
"$CMAKE" --install "$STENCILC_BUILD_DIR" --prefix "$PREFIX"
for f in bin/stencilc lib/libstencilc_rt_core.a lib/libstencilc_rt_cpu.a \
  include/stencilc/program.h include/stencilc/grid.h include/stencilc/cpu/engine.h \
  lib/cmake/stencilc/stencilcConfig.cmake lib/cmake/stencilc/stencilcConfigVersion.cmake \
  lib/cmake/stencilc/stencilcTargets.cmake lib/cmake/stencilc/stencilc_add_stencil.cmake \
  lib/cmake/stencilc/stencilc_check_outputs.cmake; do
  [ -f "$PREFIX/$f" ] || fail "$f is not installed"
done
# Every runtime header generated code may include.
for h in $(cd "$SRC/runtime/include" && find stencilc -name '*.h'); do
  cmp -s "$SRC/runtime/include/$h" "$PREFIX/include/$h" || fail "$h not installed"
done
grep -q '^stencilc [0-9]' <<<"$("$PREFIX/bin/stencilc" --version)" || fail "installed stencilc --version"
echo "installed into $PREFIX"
