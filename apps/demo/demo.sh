#!/usr/bin/env bash
# `make demo`: runs every app with Loom (apps/demo/loom_demo.cpp, from the Release build in
# LOOM_BUILD, default build) on the photographs in ../shared/images, writes the pictures to
# demo_output/, and, when the Halide 21 wheel is installed (pip install halide==21.0.0), runs the
# same driver built against Halide and prints both libraries' times side by side.
# Usage: apps/demo/demo.sh [--small] [app...]   (--small: the apps' small inputs)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${LOOM_BUILD:-build}
OUT=${DEMO_OUT:-demo_output}
IMAGES=${DEMO_IMAGES:-../shared/images}
mkdir -p "$OUT"
status=0
"$BUILD/apps/loom_demo" --images "$IMAGES" --out "$OUT" --tsv "$BUILD/apps/demo_loom.tsv" "$@" ||
  status=1

if ! python3 -c "import halide" 2>/dev/null; then
  echo
  echo "(Halide 21 is not installed: pip install halide==21.0.0 adds its column)"
  exit $status
fi
HALIDE_DIR=$(python3 -c "import halide, os; print(os.path.dirname(halide.__file__))")
BIN=$BUILD/apps/loom_demo_halide
if [ ! -x "$BIN" ] ||
  [ -n "$(find apps \( -name '*.h' -o -name '*.cpp' \) -newer "$BIN" | head -1)" ]; then
  echo
  echo "building the demo against Halide 21 ($HALIDE_DIR)"
  ${CXX:-g++} -std=c++17 -O3 -DNDEBUG -I apps -I "$HALIDE_DIR/include" \
    -I "$HALIDE_DIR/share/tools" apps/demo/loom_demo.cpp -o "$BIN" -L "$HALIDE_DIR/lib64" \
    -lHalide -Wl,-rpath,"$HALIDE_DIR/lib64" -lpthread -ldl -lpng -ljpeg
fi
echo
"$BIN" --images "$IMAGES" --no-pictures --tsv "$BUILD/apps/demo_halide.tsv" "$@" > /dev/null ||
  echo "(the Halide build of an app failed; see its row)"
echo
python3 - "$BUILD/apps/demo_loom.tsv" "$BUILD/apps/demo_halide.tsv" <<'PY'
import sys
def read(path):
    rows = {}
    for line in open(path):
        name, size, jit, run, status = line.rstrip("\n").split("\t", 4)
        rows[name] = (size, float(jit), float(run), status)
    return rows
loom, halide = read(sys.argv[1]), read(sys.argv[2])
def ms(v):
    return "-" if v < 0 else (f"{v:.0f}" if v >= 100 else f"{v:.1f}")
print(f"{'app':16} {'JIT ms Loom':>11} {'Halide':>7} {'run ms Loom':>11} {'Halide':>7} {'ratio':>6}  input")
for name, (size, jit, run, status) in loom.items():
    h = halide.get(name, ("", -1.0, -1.0, "missing"))
    ratio = f"{run / h[2]:.2f}" if run > 0 and h[2] > 0 else "-"
    note = "" if status == "ok" and h[3] == "ok" else f"  {status if status != 'ok' else h[3]}"
    print(f"{name:16} {ms(jit):>11} {ms(h[1]):>7} {ms(run):>11} {ms(h[2]):>7} {ratio:>6}  {size}{note}")
print("(run ms: median of 3 runs after a warm-up, 1 run above 0.5 s; ratio = Loom / Halide; the same schedule on both)")
PY
exit $status
