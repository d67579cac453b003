#!/usr/bin/env bash
# The JIT's disk cache on camera_pipe (bench/jit_cache.cpp, built with the Loom build): compile
# time in a new process with an empty cache directory against one an earlier process filled,
# BENCH_ROUNDS processes each (default 5), and the phases the time goes to. Printed, not saved.
set -euo pipefail
cd "$(dirname "$0")/.."
LOOM_BUILD=${LOOM_BUILD:-build}
bin=$LOOM_BUILD/bench/jit_cache_bench
[ -x "$bin" ] || { echo "error: build it first (ninja -C $LOOM_BUILD jit_cache_bench)" >&2; exit 1; }
"$bin" --runs "${BENCH_ROUNDS:-5}"
