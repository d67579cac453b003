#!/usr/bin/env bash
# Installs every dependency Loom needs from Debian's packages, and nothing when they are all
# present. Used by `make demo`, `make test` and CI; safe to run repeatedly.
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache pkg-config make
  llvm-19-dev clang-19 libzstd-dev zlib1g-dev libedit-dev libxml2-dev libffi-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libpng-dev libjpeg-dev
  clang-format
  # OpenCL through the ICD loader (the runtime dlopens libOpenCL.so.1), with PoCL running the
  # kernels on the CPU for the tests; clinfo to see which platforms and devices exist.
  ocl-icd-libopencl1 ocl-icd-opencl-dev pocl-opencl-icd clinfo
  # AArch64: the C back end's output and the LLVM back end's arm-64 objects are cross-compiled
  # and their testbenches run under user-mode emulation (tests/c_backend/).
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
)
# `make bench` also times OpenCV's equivalents of the apps; never needed by the build or CI.
if [ "${LOOM_SETUP_BENCH:-0}" = 1 ]; then packages+=(libopencv-dev); fi
# `make docs` generates the API reference with Doxygen; never needed by the build or CI.
if [ "${LOOM_SETUP_DOCS:-0}" = 1 ]; then packages+=(doxygen); fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# The Halide 21 wheel (PyPI): the compatibility tests also build against Halide itself, and the
# benchmarks race it. Optional: without it those builds are skipped.
install_halide_wheel() {
  if ! python3 -c "import halide" 2>/dev/null; then
    echo "setup: installing the halide==21.0.0 wheel"
    python3 -m pip install --quiet halide==21.0.0 || echo "setup: no Halide wheel (optional)"
  fi
}

# The Python package's build and tests (PyPI): nanobind for the bindings, scikit-build-core for
# `pip install .`, pytest, NumPy, Dask and PyTorch (DLPack round trips; the CPU side of its wheel
# is what the tests use, about a minute to install) for the tests.
install_python_packages() {
  local need=()
  python3 -c "import nanobind" 2>/dev/null || need+=(nanobind)
  python3 -c "import scikit_build_core" 2>/dev/null || need+=(scikit-build-core)
  python3 -c "import pytest" 2>/dev/null || need+=(pytest)
  python3 -c "import numpy" 2>/dev/null || need+=(numpy)
  python3 -c "import dask.array, distributed" 2>/dev/null || need+=("dask[array,distributed]")
  python3 -c "import torch" 2>/dev/null || need+=(torch)
  # ptxas, which checks the PTX of the CUDA back end in CI (no GPU needed), and CUDA's
  # libdevice, which the CUDA back end links its math functions from.
  python3 -c "import nvidia.cuda_nvcc" 2>/dev/null || need+=(nvidia-cuda-nvcc-cu12)
  if [ ${#need[@]} -gt 0 ]; then
    echo "setup: installing ${need[*]} (pip)"
    python3 -m pip install --quiet "${need[@]}"
  fi
}

if [ ${#missing[@]} -eq 0 ]; then
  install_python_packages
  install_halide_wheel
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
install_python_packages
install_halide_wheel
