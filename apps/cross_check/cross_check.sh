#!/usr/bin/env bash
# Builds apps/cross_check/cross_check.cpp against Loom (the Release build in LOOM_BUILD, default
# build) and against Halide 21 (the PyPI wheel), runs both, and compares their outputs per app:
# bit-exact, or else the largest absolute and relative difference as float32. By hand, not CI.
# Usage: apps/cross_check/cross_check.sh [app...]
set -euo pipefail
cd "$(dirname "$0")/../.."
LOOM_BUILD=${LOOM_BUILD:-build}
HALIDE_DIR=${HALIDE_DIR:-$(python3 -c "import halide, os; print(os.path.dirname(halide.__file__))")}
OUT=$(mktemp -d /tmp/cross_check.XXXXXX)
mkdir -p "$OUT/loom" "$OUT/halide"
FLAGS="-std=c++17 -O2 -I apps"
g++ $FLAGS -I include/compat -I include apps/cross_check/cross_check.cpp -o "$OUT/cc_loom" \
  -L "$LOOM_BUILD/src" -lloom -Wl,-rpath,"$PWD/$LOOM_BUILD/src" -lpthread
g++ $FLAGS -I "$HALIDE_DIR/include" apps/cross_check/cross_check.cpp -o "$OUT/cc_halide" \
  -L "$HALIDE_DIR/lib64" -lHalide -Wl,-rpath,"$HALIDE_DIR/lib64" -lpthread -ldl
time "$OUT/cc_loom" "$OUT/loom" "$@"
time "$OUT/cc_halide" "$OUT/halide" "$@"
for f in "$OUT"/loom/*.raw; do
  name=$(basename "$f" .raw)
  if cmp -s "$f" "$OUT/halide/$name.raw"; then
    echo "$name: bit-exact ($(stat -c %s "$f") bytes)"
  else
    python3 - "$f" "$OUT/halide/$name.raw" "$name" <<'PY'
import array, sys
a, b = array.array('f'), array.array('f')
a.frombytes(open(sys.argv[1], 'rb').read()); b.frombytes(open(sys.argv[2], 'rb').read())
assert len(a) == len(b), "sizes differ"
absd = max(abs(x - y) for x, y in zip(a, b))
reld = max(abs(x - y) / max(1.0, abs(y)) for x, y in zip(a, b))
diff = sum(1 for x, y in zip(a, b) if x != y)
print(f"{sys.argv[3]}: {diff}/{len(a)} float32 values differ; max abs {absd:.3g}, max rel {reld:.3g}")
PY
  fi
done
rm -rf "$OUT"
