#!/usr/bin/env bash
# The C back end's code against the LLVM back end's, in one process, alternating, outputs
# compared: four small pipelines under hand schedules (bench/c_backend.cpp; BENCH_RUNS runs,
# default 15; gcc and clang -O3 -march=native, generic and scalar mappings), then every app at
# its benchmark size under its hand schedule (bench/c_backend_apps.cpp; BENCH_APP_RUNS runs,
# default 5; gcc with the generic, avx2 and scalar mappings, clang generic), then a blur and a
# Sobel run separately against fused into one pipeline (bench/pipeline_fusion.cpp;
# BENCH_FUSION_RUNS runs, default 21; JIT, gcc and clang). Writes
# bench/results/<date>-<time>-<host>-c-backend.md. Not part of CI.
source "$(dirname "$0")/halide_env.sh"
bin=$LOOM_BUILD/bench/c_backend_bench
apps_bin=$LOOM_BUILD/bench/c_backend_apps_bench
fusion_bin=$LOOM_BUILD/bench/pipeline_fusion_bench
for b in "$bin" "$apps_bin" "$fusion_bin"; do
  [ -x "$b" ] || { echo "error: build it first (ninja -C $LOOM_BUILD $(basename "$b"))" >&2; exit 1; }
done
export LOOM_SHARED_IMAGES=${LOOM_SHARED_IMAGES:-$(cd .. && pwd)/shared/images}
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
commit=$(bench_commit)
raw=$("$bin" "${BENCH_RUNS:-15}")
raw_apps=$("$apps_bin" --runs "${BENCH_APP_RUNS:-5}" 2>/dev/null)
raw_fusion=$("$fusion_bin" "${BENCH_FUSION_RUNS:-21}")
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
report=$(bench_report_path c-backend 0)
{
  echo "# The C back end vs the LLVM back end"
  echo
  bench_header_lines "$load_before" "$load_after" "$commit"
  echo "gcc $(gcc -dumpversion), $(clang --version | head -1)."
  echo
  echo '```'
  echo "$raw"
  echo
  echo "$raw_apps"
  echo
  echo "$raw_fusion"
  echo '```'
} >"$report"
echo "$raw"
echo "$raw_apps"
echo "$raw_fusion"
echo "wrote $report"
bench_publish "$report"
