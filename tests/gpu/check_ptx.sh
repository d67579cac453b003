#!/usr/bin/env bash
# The ptxas check of the CUDA back end, for machines without a GPU (CI): compiles every GPU
# schedule of tests/correctness/gpu_schedules.cpp for CUDA without running it, keeps each PTX
# module (LOOM_DEVICE_CODE_DIR), and assembles each with ptxas for sm_80 and sm_90. ptxas comes
# from PATH, the CUDA toolkit, or the nvidia-cuda-nvcc-cu12 wheel scripts/setup.sh installs.
#
# Usage: check_ptx.sh <correctness_gpu_schedules binary> <scratch dir>
set -euo pipefail
test_binary=$1
dir=$2
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
mkdir -p "$dir"
LOOM_GPU_TARGET=host-cuda-cuda_capability_80 LOOM_GPU_COMPILE_ONLY=1 LOOM_DEVICE_CODE_DIR="$dir" \
  "$test_binary"
count=0
for ptx in "$dir"/*.ptx; do
  for arch in sm_80 sm_90; do
    "$ptxas" -arch=$arch "$ptx" -o /dev/null
  done
  count=$((count + 1))
done
[ $count -gt 0 ] || { echo "check_ptx: no PTX was written" >&2; exit 1; }
echo "check_ptx: $count PTX modules assemble for sm_80 and sm_90 with $ptxas"
