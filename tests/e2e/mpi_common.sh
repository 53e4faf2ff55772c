# Sourced by mpi.sh and checkpoint.sh: a temporary directory $tmp (removed on exit), the mpirun
# command of the tests, fail and expect_error.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mpirun=(mpirun --allow-run-as-root --oversubscribe)
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# Exactly one line starting with "error: ", equal to $1, and exit code 1, for the command after.
expect_error() {
  local want=$1
  shift
  local rc=0
  timeout 60 "$@" >"$tmp/out" 2>&1 || rc=$?
  cat "$tmp/out"
  [ "$rc" -eq 1 ] || fail "exit $rc, expected 1: $*"
  local n
  n=$(grep -c '^error: ' "$tmp/out" || true)
  [ "$n" -eq 1 ] || fail "$n error lines, expected 1: $*"
  grep -qxF "error: $want" "$tmp/out" || fail "expected 'error: $want'"
}
