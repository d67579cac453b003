#!/usr/bin/env bash
# The application benchmark: builds bench/app_bench.cpp against Loom (target app_bench_loom of
# the Release build in LOOM_BUILD, default build) and against Halide 21 (the PyPI wheel), then
# per app runs the two alternately (BENCH_ROUNDS rounds, default 3; the first library of a round
# alternates too), with all threads and with one (LOOM_NUM_THREADS=1 / HL_NUM_THREADS=1), the
# naive reference once, OpenCV's equivalent where bench/opencv_bench.cpp has one (when OpenCV is
# installed), and prints the table that bench/apps_report.py makes from the runs; it is also
# written to bench/results/<date>-<time>-<host>-apps.md (a run of every app at the benchmark
# sizes) or <LOOM_BUILD>/bench/results/ (some apps, or --small). Not part of CI.
#
# Usage: bench/apps.sh [--small] [app...]      (default: every app in apps/common/all_apps.h)
# Environment: BENCH_ROUNDS (3), BENCH_RUNS (timed runs per process, 5), BENCH_WARMUP (1),
# BENCH_SINGLE=0 skips the single-threaded runs, BENCH_NO_REFERENCE="app..." skips those apps'
# naive references (vgg16's takes ~7 minutes), BENCH_JOBS (ninja -j, 2), LOOM_BUILD (build).
source "$(dirname "$0")/halide_env.sh"
ROUNDS=${BENCH_ROUNDS:-3}
RUNS=${BENCH_RUNS:-5}
WARMUP=${BENCH_WARMUP:-1}
SINGLE=${BENCH_SINGLE:-1}
size_flag=()
if [ "${1:-}" = "--small" ]; then
  size_flag=(--small)
  shift
fi

build_app_bench_sides

# OpenCV's equivalents, where OpenCV is installed (never required).
OPENCV_BIN=$OUT/opencv_bench
if [ -f bench/opencv_bench.cpp ] && pkg-config --exists opencv4 2>/dev/null; then
  if [ ! -x "$OPENCV_BIN" ] || [ bench/opencv_bench.cpp -nt "$OPENCV_BIN" ]; then
    $CXX $FLAGS bench/opencv_bench.cpp -o "$OPENCV_BIN" $(pkg-config --cflags --libs opencv4) \
      -lpthread || rm -f "$OPENCV_BIN"
  fi
else
  OPENCV_BIN=
fi

if [ $# -gt 0 ]; then
  apps=("$@")
else
  mapfile -t apps < <("$LOOM_BIN" --list)
fi

RAW=$OUT/apps_raw
rm -rf "$RAW"
mkdir -p "$RAW"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
commit=$(bench_commit)
settings=(all)
[ "$SINGLE" = 1 ] && settings+=(1)
common=(--warmup "$WARMUP" --runs "$RUNS" "${size_flag[@]}")
for app in "${apps[@]}"; do
  for round in $(seq "$ROUNDS"); do
    for threads in "${settings[@]}"; do
      echo "$app: round $round/$ROUNDS, threads $threads" >&2
      if [ "$threads" = all ]; then
        envs=()
      else
        envs=(LOOM_NUM_THREADS="$threads" HL_NUM_THREADS="$threads")
      fi
      libs=(loom halide)
      [ $((round % 2)) = 0 ] && libs=(halide loom)
      for lib in "${libs[@]}"; do
        extra=(--out "$RAW/$app.$lib.raw")
        # The reference once per app, after Loom's first timed runs (the runs are unaffected).
        if [ "$lib" = loom ] && [ "$round" = 1 ] && [ "$threads" = all ] &&
          [[ " ${BENCH_NO_REFERENCE:-} " != *" $app "* ]]; then
          extra+=(--reference-out "$RAW/$app.reference.raw")
        fi
        bin=$LOOM_BIN
        [ "$lib" = halide ] && bin=$HALIDE_BIN
        # A failing run (an error, or a wrong result against the reference) is reported in the
        # table; the other apps are still worth running.
        env "${envs[@]}" "$bin" "$app" "${common[@]}" "${extra[@]}" \
          > "$RAW/$app.$lib.t$threads.r$round.txt" 2> "$RAW/$app.$lib.t$threads.r$round.err" ||
          { echo "warning: $lib $app failed (round $round, threads $threads):" >&2;
            tail -3 "$RAW/$app.$lib.t$threads.r$round.err" >&2; }
      done
    done
  done
  if [ -n "$OPENCV_BIN" ]; then
    "$OPENCV_BIN" "$app" --runs "$RUNS" "${size_flag[@]}" > "$RAW/$app.opencv.txt" 2> /dev/null || true
  fi
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

host=$(hostname -s 2>/dev/null || hostname)
partial=0
{ [ $# -gt 0 ] || [ ${#size_flag[@]} -gt 0 ]; } && partial=1
report=$(bench_report_path apps "$partial")
{
  echo "# Applications: Loom against Halide 21 ($(date '+%Y-%m-%d %H:%M'), $host)"
  echo
  echo "Command: \`bench/apps.sh${size_flag[*]:+ ${size_flag[*]}}${*:+ $*}\` (${*:-every app}; BENCH_ROUNDS=$ROUNDS, BENCH_RUNS=$RUNS," \
    "BENCH_WARMUP=$WARMUP; Loom from $LOOM_BUILD/, $(grep -m1 CMAKE_BUILD_TYPE: "$LOOM_BUILD/CMakeCache.txt" | cut -d= -f2) build)."
  bench_header_lines "$load_before" "$load_after" "$commit"
  echo
  python3 bench/apps_report.py "$RAW" "${apps[@]}"
} > "$report"
cat "$report"
echo "(written to $report)"
# A run of every app that lands in bench/results/ also rewrites the app READMEs' measured numbers
# (bench/app_readmes.py); a run of some apps, --small or elsewhere leaves them alone.
if [ $# -eq 0 ] && [ ${#size_flag[@]} -eq 0 ]; then
  case $report in
    bench/results/*) python3 bench/app_readmes.py "$report" ;;
  esac
fi
bench_publish "$report"
