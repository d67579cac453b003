#!/usr/bin/env bash
# `make demo`: runs every app with Loom (apps/demo/loom_demo.cpp, from the Release build in
# LOOM_BUILD, default build) on a real photograph from ../shared/images at its natural size
# (synthetic inputs for matmul, conv_layer and vgg16; the snake also iterates until its contour
# settles), writes each app's input and output as demo_output/<app>_before.png and
# <app>_after.png, and, when the Halide 21 wheel is installed (pip install halide==21.0.0), runs
# the same driver built against Halide on the same inputs. apps/demo/report.py then prints both
# libraries' times side by side and writes demo_output/index.html (pictures and times per app).
# Benchmark sizes are timed by `make bench`.
# Usage: apps/demo/demo.sh [--small | --benchmark] [--runs N] [app...]
#   (--small: the apps' small inputs, a quick run; --benchmark: the benchmark sizes)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${LOOM_BUILD:-build}
OUT=${DEMO_OUT:-demo_output}
IMAGES=${DEMO_IMAGES:-../shared/images}
START=$(date +%s)
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)
mkdir -p "$OUT"
rm -f "$OUT"/*_before.png "$OUT"/*_after.png "$OUT"/index.html
status=0
"$BUILD/apps/loom_demo" --images "$IMAGES" --out "$OUT" --tsv "$BUILD/apps/demo_loom.tsv" "$@" ||
  status=1

rm -f "$BUILD/apps/demo_halide.tsv"
HALIDE_VERSION=
if python3 -c "import halide" 2>/dev/null; then
  HALIDE_DIR=$(python3 -c "import halide, os; print(os.path.dirname(halide.__file__))")
  HALIDE_VERSION=$(python3 -c "import importlib.metadata as m; print(m.version('halide'))" \
    2>/dev/null || echo 21)
  BIN=$BUILD/apps/loom_demo_halide
  if [ ! -x "$BIN" ] ||
    [ -n "$(find apps \( -name '*.h' -o -name '*.cpp' \) -newer "$BIN" | head -1)" ]; then
    echo
    echo "building the demo against Halide $HALIDE_VERSION ($HALIDE_DIR)"
    ${CXX:-g++} -std=c++17 -O3 -DNDEBUG -I apps -I "$HALIDE_DIR/include" \
      -I "$HALIDE_DIR/share/tools" apps/demo/loom_demo.cpp -o "$BIN" -L "$HALIDE_DIR/lib64" \
      -lHalide -Wl,-rpath,"$HALIDE_DIR/lib64" -lpthread -ldl -lpng -ljpeg || {
      rm -f "$BIN"
      status=1
    }
  fi
  if [ -x "$BIN" ]; then
    echo
    echo "the same apps with Halide $HALIDE_VERSION ..."
    "$BIN" --images "$IMAGES" --no-pictures --tsv "$BUILD/apps/demo_halide.tsv" "$@" >/dev/null ||
      echo "(the Halide build of an app failed; see its row)"
  else
    echo "(the demo did not build against Halide: Loom's times only)"
    HALIDE_VERSION=
  fi
else
  echo
  echo "(Halide 21 is not installed: pip install halide==21.0.0 adds its column)"
fi
echo
python3 apps/demo/report.py --loom "$BUILD/apps/demo_loom.tsv" \
  ${HALIDE_VERSION:+--halide "$BUILD/apps/demo_halide.tsv" --halide-version "$HALIDE_VERSION"} \
  --out "$OUT" --load-before "$LOAD_BEFORE" --seconds "$(($(date +%s) - START))"
exit $status
