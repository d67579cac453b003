#!/usr/bin/env bash
# The C back end's code against the LLVM back end's (bench/c_backend.cpp, built with the Loom
# build): four pipelines under hand schedules (blur, unsharp, brighten, matmul), each JIT-compiled
# and also written with compile_to_c and built by gcc and clang (-O3 -march=native) with the
# generic and the scalar SIMD mapping; both run in one process, alternating, BENCH_RUNS runs
# (default 15), outputs compared first. Writes bench/results/<date>-<time>-<host>-c-backend.md.
# Not part of CI.
source "$(dirname "$0")/halide_env.sh"
bin=$LOOM_BUILD/bench/c_backend_bench
[ -x "$bin" ] || { echo "error: build it first (ninja -C $LOOM_BUILD c_backend_bench)" >&2; exit 1; }
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
commit=$(bench_commit)
raw=$("$bin" "${BENCH_RUNS:-15}")
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
  echo '```'
} >"$report"
echo "$raw"
echo "wrote $report"
bench_publish "$report"
