#!/usr/bin/env bash
# The ptxas check of the CUDA back end, for machines without a GPU (CI): compiles every GPU
# schedule of the given test binaries (tests/correctness/gpu_schedules.cpp, and the apps' GPU
# schedules in tests/correctness/gpu_apps.cpp) for CUDA without running it, keeps each PTX
# module (LOOM_DEVICE_CODE_DIR, one folder per binary), and assembles each with ptxas for sm_80
# and sm_90. ptxas comes from PATH, the CUDA toolkit, or the nvidia-cuda-nvcc-cu12 wheel
# scripts/setup.sh installs.
#
# Usage: check_ptx.sh <scratch dir> <test binary>...
set -euo pipefail
dir=$1
shift
ptxas=$(command -v ptxas || true)
[ -z "$ptxas" ] && [ -x /usr/local/cuda/bin/ptxas ] && ptxas=/usr/local/cuda/bin/ptxas
if [ -z "$ptxas" ]; then
  ptxas=$(python3 -c "import nvidia.cuda_nvcc, os; print(os.path.join(list(nvidia.cuda_nvcc.__path__)[0], 'bin', 'ptxas'))" 2>/dev/null || true)
fi
if [ -z "$ptxas" ] || [ ! -x "$ptxas" ]; then
  echo "check_ptx: no ptxas found; run scripts/setup.sh (it installs nvidia-cuda-nvcc-cu12)" >&2
  exit 1
fi
rm -rf "$dir"
count=0
for test_binary in "$@"; do
  # Kernels of different binaries may share a name: each binary writes into its own folder.
  out="$dir/$(basename "$test_binary")"
  mkdir -p "$out"
  # No compile cache: a cached pipeline writes no PTX.
  LOOM_CACHE_DIR=off LOOM_GPU_TARGET=host-cuda-cuda_capability_80 LOOM_GPU_COMPILE_ONLY=1 \
    LOOM_DEVICE_CODE_DIR="$out" \
    "$test_binary"
  written=0
  for ptx in "$out"/*.ptx; do
    [ -e "$ptx" ] || continue
    for arch in sm_80 sm_90; do
      "$ptxas" -arch=$arch "$ptx" -o /dev/null
    done
    written=$((written + 1))
  done
  [ $written -gt 0 ] || { echo "check_ptx: $test_binary wrote no PTX" >&2; exit 1; }
  count=$((count + written))
done
echo "check_ptx: $count PTX modules assemble for sm_80 and sm_90 with $ptxas"
