#!/usr/bin/env bash
# Builds bench/async_overlap.cpp against Loom (LOOM_BUILD, default build) and Halide 21 (the
# PyPI wheel), runs the two binaries alternately BENCH_ROUNDS times (default 5) and prints, for
# the synchronous and the async schedule, the median over the rounds of each binary's median
# time, the Loom/Halide ratio and each library's async/sync ratio (the overlap gained).
source "$(dirname "$0")/halide_env.sh"
$CXX $FLAGS -I include/compat -I include bench/async_overlap.cpp -o "$OUT/async_overlap_loom" \
  -L "$LOOM_BUILD/src" -lloom -Wl,-rpath,"$PWD/$LOOM_BUILD/src" -lpthread
$CXX $FLAGS -I "$HALIDE_DIR/include" bench/async_overlap.cpp -o "$OUT/async_overlap_halide" \
  -L "$HALIDE_DIR/lib64" -lHalide -Wl,-rpath,"$HALIDE_DIR/lib64" -lpthread -ldl

: > "$OUT/async_overlap.txt"
for round in $(seq "$ROUNDS"); do
  echo "round $round/$ROUNDS" >&2
  "$OUT/async_overlap_loom" | sed 's/^/loom /' >> "$OUT/async_overlap.txt"
  "$OUT/async_overlap_halide" | sed 's/^/halide /' >> "$OUT/async_overlap.txt"
done

python3 - "$OUT/async_overlap.txt" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    lib, variant, ms = line.split()
    runs.setdefault((lib, variant), []).append(float(ms))
med = {k: statistics.median(v) for k, v in runs.items()}
print("| schedule | Loom ms | Halide ms | Loom/Halide |")
print("|---|---|---|---|")
for v in ("sync", "async"):
    print(f"| {v} | {med[('loom', v)]:.1f} | {med[('halide', v)]:.1f} | "
          f"{med[('loom', v)] / med[('halide', v)]:.2f} |")
print(f"\nasync/sync: Loom {med[('loom', 'async')] / med[('loom', 'sync')]:.2f}, "
      f"Halide {med[('halide', 'async')] / med[('halide', 'sync')]:.2f}")
PY
