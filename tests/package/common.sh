# Shared by the package tests: their environment (tests/package/CMakeLists.txt) and helpers.
set -euo pipefail
: "${STENCILC_BUILD_DIR:?}" "${STENCILC_SOURCE_DIR:?}" "${STENCILC_PREFIX:?}"
: "${STENCILC_WORK_DIR:?}" "${CMAKE:?}" "${CMAKE_MAKE_PROGRAM:?}" "${PYTHON:?}" "${CXX:?}"
SRC=$STENCILC_SOURCE_DIR
PREFIX=$STENCILC_PREFIX

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# A fresh, empty work directory of this test.
fresh_dir() {
  rm -rf "$1"
  mkdir -p "$1"
}

# Configures a project against a prefix as a user would: Release, Ninja, this build's compiler.
configure() { # SOURCE_DIR BUILD_DIR PREFIX [cmake args...]
  local src=$1 bin=$2 prefix=$3
  shift 3
  "$CMAKE" -S "$src" -B "$bin" -G Ninja -DCMAKE_MAKE_PROGRAM="$CMAKE_MAKE_PROGRAM" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_PREFIX_PATH="$prefix" "$@"
}

# Two .npy files hold the same array, bit for bit (dtype, shape and every value).
same_bits() { # A.npy B.npy
  "$PYTHON" - "$1" "$2" <<'PY'
import sys
import numpy as np
a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
if a.dtype != b.dtype or a.shape != b.shape:
    sys.exit(f"{sys.argv[1]} is {a.dtype}{a.shape}, {sys.argv[2]} is {b.dtype}{b.shape}")
if a.tobytes() != b.tobytes():
    d = np.abs(a.astype(np.float64) - b.astype(np.float64))
    sys.exit(f"{sys.argv[1]} and {sys.argv[2]} differ in {np.count_nonzero(d)} cells "
             f"(max |diff| {d.max():.3e})")
PY
}

# The nanosecond modification time of a file.
mtime() { "$PYTHON" -c 'import os, sys; print(os.stat(sys.argv[1]).st_mtime_ns)' "$1"; }
