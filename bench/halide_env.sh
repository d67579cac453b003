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
