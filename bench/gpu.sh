#!/usr/bin/env bash
# Builds the GPU checks and benchmarks ahead of time (bench/gpu/): the pipelines of
# bench/gpu/gpu_pipelines.h compiled for CUDA by Loom and by Halide 21, each with its runner,
# into build/gpu_bench/{loom,halide}/gpu_run. Those binaries need only the NVIDIA driver, so
# they run on a machine without a compiler or LLVM; bench/gpu_device.sh runs them there and
# writes the results table. Also checks here that every kernel's PTX assembles with ptxas.
#
# Usage: bench/gpu.sh [gpu target]   (default host-cuda-cuda_capability_80; GPU_BENCH_DEST
# overrides the output folder, e.g. for an OpenCL build run here on PoCL)
source "$(dirname "${BASH_SOURCE[0]}")/halide_env.sh"
TARGET=${1:-host-cuda-cuda_capability_80}
DEST=${GPU_BENCH_DEST:-$LOOM_BUILD/gpu_bench}
rm -rf "$DEST"
mkdir -p "$DEST/loom" "$DEST/halide"

flock /tmp/loom-build.lock nice ninja -C "$LOOM_BUILD" -j2 gpu_generate_loom
"$LOOM_BUILD/bench/gpu_generate_loom" "$DEST/loom" "$TARGET"

$CXX $FLAGS -I bench -I "$HALIDE_DIR/include" bench/gpu/gpu_generate.cpp -o "$DEST/halide/gen" \
  -L "$HALIDE_DIR/lib64" -lHalide -Wl,-rpath,"$HALIDE_DIR/lib64" -lpthread -ldl
"$DEST/halide/gen" "$DEST/halide" "$TARGET"

# The runners: static libstdc++, so they run wherever the driver does.
for side in loom halide; do
  if [ $side = loom ]; then inc="include/compat -I include"; else inc=$HALIDE_DIR/include; fi
  $CXX $FLAGS -I $inc -I "$DEST/$side" bench/gpu/gpu_run.cpp "$DEST/$side"/*.a \
    -o "$DEST/$side/gpu_run" -static-libstdc++ -static-libgcc -lpthread -ldl -lm
done
ls -la "$DEST"/*/gpu_run
