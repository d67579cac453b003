#!/usr/bin/env bash
# `make bench`: runs the Loom build of the benchmarks (made by `make build`) and the same sources
# built here against Halide 21 (PyPI wheel, installed if missing), alternately, several rounds,
# and prints medians and Loom/Halide ratios. Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${BENCH_ROUNDS:-3}

if ! python3 -c "import halide" 2>/dev/null; then
  pip install --quiet halide==21.0.0
fi
HALIDE_DIR=$(python3 -c "import halide, os; print(os.path.dirname(halide.__file__))")
OUT=build/bench
mkdir -p "$OUT"

CXX=${CXX:-g++}
FLAGS="-std=c++17 -O2 -I apps"
$CXX $FLAGS -I "$HALIDE_DIR/include" bench/bench_core.cpp -o $OUT/bench_core_halide \
  -L "$HALIDE_DIR/lib64" -lHalide -Wl,-rpath,"$HALIDE_DIR/lib64" -lpthread -ldl

: > $OUT/core.txt
for round in $(seq "$ROUNDS"); do
  build/bench/bench_core_loom | sed 's/^/loom /' >> $OUT/core.txt
  $OUT/bench_core_halide | sed 's/^/halide /' >> $OUT/core.txt
done
python3 bench/compare.py $OUT/core.txt
