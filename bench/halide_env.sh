# Sourced by the bench scripts: the repository root as the working folder, ROUNDS, LOOM_BUILD,
# the Halide 21 wheel (installed if missing) in HALIDE_DIR, the output folder OUT, and the
# compiler and flags both builds of a benchmark share.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROUNDS=${BENCH_ROUNDS:-5}
LOOM_BUILD=${LOOM_BUILD:-build}
if ! python3 -c "import halide" 2>/dev/null; then
  pip install --quiet halide==21.0.0
fi
# bench/apps_report.py compares the raw outputs with numpy (the wheel depends on it; said here).
python3 -c "import numpy" 2>/dev/null || pip install --quiet numpy
HALIDE_DIR=$(python3 -c "import halide, os; print(os.path.dirname(halide.__file__))")
OUT=$LOOM_BUILD/bench
mkdir -p "$OUT" bench/results
CXX=${CXX:-g++}
# The same flags as the Loom build's Release configuration.
FLAGS="-std=c++17 -O3 -DNDEBUG -I apps"

# For the results tables of bench/apps.sh and bench/race.sh.
# The commit measured, with " + local changes" when tracked files differ from it (read it before
# the runs: others may commit while they last).
bench_commit() {
  local c
  if c=$(git rev-parse --short HEAD 2>/dev/null); then
    [ -n "$(git status --porcelain --untracked-files=no)" ] && c="$c + local changes"
    echo "$c"
  else
    echo unknown
  fi
}
# Where a table of kind $1 (apps, race) goes: bench/results/ for a run of every app (the READMEs
# cite the latest), the build folder when $2 is 1 (some apps, or small inputs); BENCH_RESULTS
# names the file instead.
bench_report_path() {
  local host stamp
  host=$(hostname -s 2>/dev/null || hostname)
  stamp=$(date +%Y-%m-%d-%H%M%S)
  if [ "$2" = 1 ]; then
    mkdir -p "$OUT/results"
    echo "${BENCH_RESULTS:-$OUT/results/$stamp-$host-$1.md}"
  else
    echo "${BENCH_RESULTS:-bench/results/$stamp-$host-$1.md}"
  fi
}
# The machine, load and commit lines of a table's header: $1 and $2 the load averages before and
# after the runs, $3 the commit.
bench_header_lines() {
  echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs;"
  echo "load average (1, 5, 15 min) before: $1, after: $2."
  echo "Loom commit $3."
}
