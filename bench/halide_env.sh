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
# After a table is written to $1: when it landed in bench/results/, bench/README.md's "Latest
# results" links are regenerated (bench/latest.py).
bench_publish() {
  case $1 in
    bench/results/*) python3 bench/latest.py ;;
  esac
}
# The machine, load and commit lines of a table's header: $1 and $2 the load averages before and
# after the runs, $3 the commit.
bench_header_lines() {
  echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs;"
  echo "load average (1, 5, 15 min) before: $1, after: $2."
  echo "Loom commit $3."
}

# Builds the application driver bench/app_bench.cpp against both libraries, setting LOOM_BIN
# (app_bench_loom of the Release build) and HALIDE_BIN (rebuilt when a source under apps/ or the
# driver is newer than it).
build_app_bench_sides() {
  [ -f "$LOOM_BUILD/build.ninja" ] ||
    cmake -S . -B "$LOOM_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
  ninja -C "$LOOM_BUILD" -j "${BENCH_JOBS:-2}" app_bench_loom > /dev/null ||
    { echo "error: building app_bench_loom failed (ninja -C $LOOM_BUILD app_bench_loom)" >&2; exit 1; }
  LOOM_BIN=$LOOM_BUILD/bench/app_bench_loom
  HALIDE_BIN=$OUT/app_bench_halide
  if [ ! -x "$HALIDE_BIN" ] ||
    [ -n "$(find apps bench/app_bench.cpp \( -name '*.h' -o -name '*.cpp' \) -newer "$HALIDE_BIN" | head -1)" ]; then
    echo "building $HALIDE_BIN against Halide 21 ($HALIDE_DIR)" >&2
    $CXX $FLAGS -I "$HALIDE_DIR/include" -I "$HALIDE_DIR/share/tools" bench/app_bench.cpp \
      -o "$HALIDE_BIN" -L "$HALIDE_DIR/lib64" -lHalide -Wl,-rpath,"$HALIDE_DIR/lib64" \
      -lpthread -ldl -lpng -ljpeg
  fi
}

# Builds the same-process race (bench/race.cpp) and its two sides, setting RACE, LOOM_SIDE and
# HALIDE_SIDE (Halide's rebuilt when a source under apps/ or bench/race_app.cpp is newer).
build_race_sides() {
  [ -f "$LOOM_BUILD/build.ninja" ] ||
    cmake -S . -B "$LOOM_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
  ninja -C "$LOOM_BUILD" -j "${BENCH_JOBS:-2}" race race_app_loom app_bench_loom > /dev/null ||
    { echo "error: building the race (ninja -C $LOOM_BUILD race race_app_loom) failed" >&2; exit 1; }
  RACE=$LOOM_BUILD/bench/race
  LOOM_SIDE=$LOOM_BUILD/bench/race_app_loom.so

  # Halide's side, rebuilt when a source under apps/ or the side's source is newer than it.
  HALIDE_SIDE=$OUT/race_app_halide.so
  if [ ! -f "$HALIDE_SIDE" ] ||
    [ -n "$(find apps bench/race_app.cpp \( -name '*.h' -o -name '*.cpp' \) -newer "$HALIDE_SIDE" | head -1)" ]; then
    echo "building $HALIDE_SIDE against Halide 21 ($HALIDE_DIR)" >&2
    $CXX $FLAGS -fPIC -shared -fvisibility=hidden -I "$HALIDE_DIR/include" \
      -I "$HALIDE_DIR/share/tools" bench/race_app.cpp -o "$HALIDE_SIDE" -L "$HALIDE_DIR/lib64" \
      -lHalide -Wl,-rpath,"$HALIDE_DIR/lib64" -lpthread -ldl -lpng -ljpeg
  fi
}

# The apps named ($@), or every app: sets the array `apps`.
select_apps() {
  if [ $# -gt 0 ]; then
    apps=("$@")
  else
    mapfile -t apps < <("$LOOM_BUILD/bench/app_bench_loom" --list)
  fi
}
