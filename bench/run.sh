#!/usr/bin/env bash
# `make bench`: runs the Loom build of the benchmarks (made by `make build`, or the build folder
# named by LOOM_BUILD) and the same source built here against Halide 21 (PyPI wheel, installed if
# missing), alternately, BENCH_ROUNDS rounds (default 5), then prints a markdown report of the
# medians and writes it to bench/results/<date>-<host>.md. Not part of CI.
source "$(dirname "$0")/halide_env.sh"
$CXX $FLAGS -I "$HALIDE_DIR/include" bench/bench_core.cpp -o "$OUT/bench_core_halide" \
  -L "$HALIDE_DIR/lib64" -lHalide -Wl,-rpath,"$HALIDE_DIR/lib64" -lpthread -ldl

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
: > "$OUT/core.txt"
for round in $(seq "$ROUNDS"); do
  echo "round $round/$ROUNDS" >&2
  # A binary that finds a wrong result says so on stderr, reports that row as n/a and exits
  # nonzero; the other rows are still worth reporting, so the run goes on.
  "$LOOM_BUILD/bench/bench_core_loom" | sed 's/^/loom /' >> "$OUT/core.txt" ||
    echo "warning: the Loom benchmark exited nonzero (see above)" >&2
  "$OUT/bench_core_halide" | sed 's/^/halide /' >> "$OUT/core.txt" ||
    echo "warning: the Halide benchmark exited nonzero (see above)" >&2
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

host=$(hostname -s 2>/dev/null || hostname)
report="bench/results/$(date +%Y-%m-%d-%H%M)-$host.md"
{
  echo "# Benchmark: Loom against Halide 21 ($(date '+%Y-%m-%d %H:%M'), $host)"
  echo
  echo "Command: \`make bench\` (bench/run.sh; BENCH_ROUNDS=$ROUNDS; Loom from $LOOM_BUILD/, $(grep -m1 CMAKE_BUILD_TYPE: "$LOOM_BUILD/CMakeCache.txt" | cut -d= -f2) build)."
  echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs;"
  echo "load average (1, 5, 15 min) before: $load_before, after: $load_after."
  src=$(grep -m1 CMAKE_HOME_DIRECTORY: "$LOOM_BUILD/CMakeCache.txt" | cut -d= -f2)
  if commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null); then
    [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ] && commit="$commit + local changes"
  else
    commit="unknown ($src is not a git checkout)"
  fi
  echo "Loom source: $src, commit $commit."
  echo
  python3 bench/compare.py "$OUT/core.txt"
} > "$report"
cat "$report"
echo "(written to $report)"
bench_publish "$report"
