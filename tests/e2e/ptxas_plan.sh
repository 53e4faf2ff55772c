#!/usr/bin/env bash
# `stencilc build --target cuda` with the model's plan compiles once with -Xptxas -v and gives
# the model the registers ptxas reports for the profile's architecture (as explain --ptxas):
# - tests/e2e/gpu/neumann3d.stn on h100-sxm (sm_90): the streaming kernel's 44 registers leave
#   fewer blocks per SM than the model assumed without them, which changes its choice: the
#   build says so in one line, compiles the new plan, and the generated code names it as the
#   model's choice with ptxas's registers; ptxas's own report is not shown;
# - samples/heat3d.stn on h100-sxm: the temporal kernels' registers keep the choice (--verbose
#   says so), and the executable is the first compile's.
# Exit 77 (ctest SKIP_RETURN_CODE) when nvcc is absent.
#
#   ptxas_plan.sh STENCILC SOURCE_DIR
set -u
stencilc=$1 src=$2
source "$(dirname "$0")/nvcc_common.sh"
unset STENCILC_CUDA_ARCH # --machine chooses the architecture
fail() { echo "FAIL: $*"; exit 1; }

spec=$src/tests/e2e/gpu/neumann3d.stn
"$stencilc" build "$spec" --target cuda --machine h100-sxm --keep-sources "$tmp/n" \
  -o "$tmp/n.exe" >/dev/null 2>"$tmp/n.err" || { cat "$tmp/n.err"; fail "the build failed"; }
cat "$tmp/n.err"
line=$(grep "ptxas's registers (sm_90) change the model's choice on h100-sxm: " "$tmp/n.err") ||
  fail "the build did not say that ptxas's registers changed the plan"
new=$(sed -E 's/.*: (scheme=[^ ]*) instead of (scheme=[^ ;]*); compiling it$/\1/' <<<"$line")
old=$(sed -E 's/.* instead of (scheme=[^ ;]*); compiling it$/\1/' <<<"$line")
[ "$new" != "$old" ] || fail "the new plan '$new' is the old one"
# The old plan is the model's choice without registers, as emit compiles it in.
"$stencilc" emit "$spec" --target cuda --machine h100-sxm -o "$tmp/e" >/dev/null
grep -q "^// Target cuda, plan $old\.$" "$tmp/e/neumann3d.cpp" ||
  fail "emit's plan is not '$old': $(grep '^// Target' "$tmp/e/neumann3d.cpp")"
grep -q "^// Target cuda, plan $new\.$" "$tmp/n/neumann3d.cpp" ||
  fail "the built sources' plan is not '$new': $(grep '^// Target' "$tmp/n/neumann3d.cpp")"
grep -q "^// Plan: the performance model's choice with the registers ptxas reported" \
  "$tmp/n/neumann3d.cpp" || fail "the sources do not say where their plan came from"
grep -q "compute_90,code=\[sm_90,compute_90\]" <("$stencilc" build "$spec" --target cuda \
  --machine h100-sxm --plan scheme=naive --verbose -o "$tmp/v.exe" 2>&1) ||
  fail "--machine h100-sxm did not compile for sm_90"
! grep -q "ptxas info\|bytes stack frame" "$tmp/n.err" || fail "ptxas's report was shown"
[ -x "$tmp/n.exe" ] || fail "no executable"

"$stencilc" build "$src/samples/heat3d.stn" --target cuda --machine h100-sxm --verbose \
  -o "$tmp/h.exe" >/dev/null 2>"$tmp/h.err" || { cat "$tmp/h.err"; fail "the heat3d build failed"; }
grep "ptxas's registers (sm_90) keep the model's choice, scheme=temporal" "$tmp/h.err" ||
  fail "heat3d: --verbose did not say that the registers keep the temporal plan"
[ "$(grep -c '^stencilc: .*nvcc ' "$tmp/h.err")" = 1 ] || fail "heat3d was compiled twice"
echo "ok: ptxas's registers changed $old to $new; heat3d's plan stands"
