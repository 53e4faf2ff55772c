# Sourced by the tests that run the real nvcc: exit 77 (ctest SKIP_RETURN_CODE) without it, and
# a temporary directory $tmp, removed at exit.
compiler=${CUDACXX:-/usr/local/cuda/bin/nvcc}
if ! command -v "$compiler" >/dev/null 2>&1; then
  echo "SKIP: the cuda toolchain '$compiler' is not installed (set CUDACXX)"
  exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
