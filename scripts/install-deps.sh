#!/usr/bin/env bash
# Installs the Debian 12 packages stencilc needs to build and test, and only those that are
# missing. Idempotent: prints nothing and changes nothing when everything is installed.
# Needs root (or sudo) only when something has to be installed.
set -euo pipefail

packages=(
  build-essential         # gcc, g++, make, libc headers
  cmake
  ninja-build
  ccache                  # the tests' builds of generated code (STENCILC_COMPILER_LAUNCHER)
  g++
  clang-14                # clang++-14, a second compiler for the generated code
  llvm-14-tools           # FileCheck, not, lit (tests/lit)
  antlr4                  # the ANTLR tool (Java): grammar/Stn.g4 -> C++ parser at build time
  libantlr4-runtime-dev   # the ANTLR C++ runtime
  libclang-14-dev         # libFormat: formatting of the generated code
  libclang-rt-14-dev      # libFuzzer and the sanitizer runtimes of clang (the parser fuzz test)
  libcli11-dev            # command-line parsing
  nlohmann-json3-dev      # JSON summaries
  libfmt-dev
  libkainjow-mustache-dev # code templates
  libgtest-dev            # unit tests
  libgmock-dev
  libbenchmark-dev        # micro-benchmarks
  libomp-14-dev           # OpenMP for clang
  python3                 # runs lit
  python3-numpy           # reading and writing the .npy grid files from Python
  libhdf5-dev             # HDF5 grid files (serial libhdf5)
  libhdf5-openmpi-dev     # parallel HDF5 (Open MPI flavour): the MPI runtime's collective .h5 I/O
  python3-h5py            # tests and scripts/plot.py read the HDF5 files
  bsdutils                # script(1): tests run the progress line on a pseudo-terminal
  python3-matplotlib      # scripts/plot.py: pictures of grids and residual histories
  libopenmpi-dev          # Open MPI (mpicxx, mpi.h): the mpi-openmp target and its runtime
  openmpi-bin             # mpirun: MPI executables, verify --np, the MPI tests
  libboost-context-dev    # fibers of the GPU targets' CPU execution layer (runtime/src/gpu/)
  hipcc                   # the hip target's compiler (tests compile for gfx90a; needs no GPU)
  libamdhip64-dev         # HIP headers and runtime for hipcc
)
# nvcc is not a Debian package: the cuda target's tests use /usr/local/cuda/bin/nvcc or
# $CUDACXX when present (NVIDIA's CUDA toolkit) and are skipped, saying so, without it.

missing=()
for p in "${packages[@]}"; do
  # dpkg -s also knows removed packages whose config files remain: check the status line.
  if ! dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed$'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: error: these packages are missing and installing them needs root" \
       "(run as root, or install sudo): ${missing[*]}" >&2
  exit 1
fi

# Wait for another apt/dpkg run to finish instead of failing on its lock.
apt_opts=(-o DPkg::Lock::Timeout=600)
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get "${apt_opts[@]}" install -y -qq --no-install-recommends "${missing[@]}"

# Check again: apt can succeed without installing what was asked (e.g. held packages).
still=()
for p in "${missing[@]}"; do
  if ! dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed$'; then
    still+=("$p")
  fi
done
if [ ${#still[@]} -ne 0 ]; then
  echo "install-deps: error: still missing after apt-get install: ${still[*]}" >&2
  exit 1
fi
echo "install-deps: done"
