#!/usr/bin/env bash
# Races Loom's and Halide 21's code for the blur app in one process (bench/same_process_blur.cpp):
# both compile the same schedule ahead of time (bench/same_process_gen.cpp), one with the
# runtime and one without, and a driver links both. BENCH_RUNTIME=loom|halide (default halide)
# picks whose runtime (thread pool, allocator) both use. Prints one line per process, with all
# threads and with one. Not part of CI.
# Usage: bench/same_process.sh [processes] [runs per process]
source "$(dirname "$0")/halide_env.sh"
processes=${1:-3}
runs=${2:-40}
runtime=${BENCH_RUNTIME:-halide}
ninja -C "$LOOM_BUILD" -j "${BENCH_JOBS:-2}" loom > /dev/null
dir=$OUT/same_process
mkdir -p "$dir"
$CXX $FLAGS -I include/compat -I include bench/same_process_gen.cpp -o "$dir/gen_loom" \
  -L "$LOOM_BUILD/src" -lloom -Wl,-rpath,"$PWD/$LOOM_BUILD/src"
$CXX $FLAGS -I "$HALIDE_DIR/include" bench/same_process_gen.cpp -o "$dir/gen_halide" \
  -L "$HALIDE_DIR/lib64" -lHalide -Wl,-rpath,"$HALIDE_DIR/lib64" -lpthread -ldl
if [ "$runtime" = loom ]; then
  "$dir/gen_loom" "$dir" loom_blur
  "$dir/gen_halide" "$dir" halide_blur no_runtime
  # Halide's code names one runtime function Loom's runtime does not have (a device-buffer
  # error, never reached on the CPU).
  printf 'int halide_error_device_dirty_with_no_device_support(void *u, const char *n) { return -1; }\n' \
    > "$dir/device_stub.c"
  extra=("$dir/device_stub.c")
else
  "$dir/gen_loom" "$dir" loom_blur no_runtime
  "$dir/gen_halide" "$dir" halide_blur
  extra=()
fi
$CXX $FLAGS -I "$HALIDE_DIR/include" -x c++ bench/same_process_blur.cpp -x c "${extra[@]}" \
  -x none "$dir/loom_blur.a" "$dir/halide_blur.a" -o "$dir/same_process_blur" -lpthread -ldl
echo "runtime: $runtime's; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for threads in all 1; do
  for i in $(seq "$processes"); do
    if [ "$threads" = all ]; then
      echo "threads all: $("$dir/same_process_blur" "$runs")"
    else
      echo "threads 1:   $(LOOM_NUM_THREADS=1 HL_NUM_THREADS=1 "$dir/same_process_blur" "$runs")"
    fi
  done
done
