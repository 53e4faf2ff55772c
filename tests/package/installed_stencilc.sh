#!/usr/bin/env bash
# An installed stencilc compiles generated code against the runtime of its own prefix (found
# from its executable, so a moved prefix works too), the environment overrides it, and the
# stencilc of the build tree keeps using the build tree. `--cxx true` shows the command line
# that `build -v` runs without compiling anything.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
work=$STENCILC_WORK_DIR/installed_stencilc
fresh_dir "$work"
cd "$work"
sample=$SRC/samples/heat2d.stn

# The runtime paths `stencilc build -v` compiles and links with.
command_of() { # STENCILC [env...]
  local stencilc=$1
  shift
  env "$@" "$stencilc" build "$sample" --cxx true -o "$work/unused" -v 2>&1 | grep '^stencilc: true '
}
expect_paths() { # COMMAND INCLUDE_DIR LIBRARY_DIR: the CPU engine, then the core it uses
  grep -q -- " -I$2 " <<<"$1" || fail "expected -I$2 in: $1"
  grep -q -- " $3/libstencilc_rt_cpu.a $3/libstencilc_rt_core.a " <<<"$1" ||
    fail "expected $3/libstencilc_rt_cpu.a $3/libstencilc_rt_core.a in: $1"
}

expect_paths "$(command_of "$PREFIX/bin/stencilc")" "$PREFIX/include" "$PREFIX/lib"
expect_paths "$(command_of "$STENCILC_BUILD_DIR/bin/stencilc")" "$SRC/runtime/include" \
  "$STENCILC_BUILD_DIR/lib"
expect_paths "$(command_of "$PREFIX/bin/stencilc" STENCILC_RT_INCLUDE_DIR="$SRC/runtime/include" \
  STENCILC_RT_LIBRARY_DIR="$STENCILC_BUILD_DIR/lib")" \
  "$SRC/runtime/include" "$STENCILC_BUILD_DIR/lib"
# The variable of the single library of old is refused, not ignored.
if out=$(STENCILC_RT_LIBRARY=/x/libstencilc_rt.a "$PREFIX/bin/stencilc" build "$sample" \
  --cxx true -o "$work/unused" 2>&1); then
  fail "built with STENCILC_RT_LIBRARY set"
fi
grep -q "^error: STENCILC_RT_LIBRARY is no longer read: .*set STENCILC_RT_LIBRARY_DIR" <<<"$out" ||
  fail "unexpected message: $out"

# A moved prefix: its stencilc builds, runs and verifies against the moved runtime.
cp -a "$PREFIX" moved
out=$(moved/bin/stencilc verify "$sample" -v 2>&1) || fail "verify with the moved prefix: $out"
echo "$out"
expect_paths "$(grep '^stencilc: .*libstencilc_rt_core\.a' <<<"$out")" \
  "$work/moved/include" "$work/moved/lib"
grep -q 'the generated code agrees with the interpreter' <<<"$out" || fail "verify did not agree"

# Without its runtime an installed stencilc says where it looked and what to set.
rm -r moved/include
if out=$(moved/bin/stencilc build "$sample" -o unused 2>&1); then
  fail "built without the runtime headers"
fi
grep -q "^error: the stencilc runtime headers are missing: no stencilc/program.h in '$work/moved/include' (next to the installed $work/moved/bin/stencilc); set STENCILC_RT_INCLUDE_DIR" <<<"$out" ||
  fail "unexpected message: $out"
echo "ok"
