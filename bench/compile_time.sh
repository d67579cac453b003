#!/usr/bin/env bash
# Compile time of long chains of inlined Funcs (bench/compile_time.cpp) under Loom and Halide 21:
# the median of BENCH_ROUNDS (3) runs per chain, each in a fresh process. Writes
# bench/results/<date>-<host>-compile-time.md. Not part of CI.
# Usage: bench/compile_time.sh
source "$(dirname "$0")/halide_env.sh"
RUNS=${BENCH_ROUNDS:-3}
[ -f "$LOOM_BUILD/src/libloom.so" ] ||
  { echo "error: build Loom first (make demo, or ninja -C $LOOM_BUILD)" >&2; exit 1; }
$CXX $FLAGS -I include -I include/compat bench/compile_time.cpp -o "$OUT/compile_time_loom" \
  -L "$LOOM_BUILD/src" -lloom -Wl,-rpath,"$PWD/$LOOM_BUILD/src" -lpthread -ldl
$CXX $FLAGS -I "$HALIDE_DIR/include" -DHALIDE_WITH_EXCEPTIONS bench/compile_time.cpp \
  -o "$OUT/compile_time_halide" -L "$HALIDE_DIR/lib64" -lHalide -Wl,-rpath,"$HALIDE_DIR/lib64" \
  -lpthread -ldl

median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
run() { # <binary> <shape> <stages>: the median seconds, and the checksum
  local times="" sum=""
  for _ in $(seq "$RUNS"); do
    read -r _ _ t sum < <("$1" "$2" "$3")
    times="$times$t"$'\n'
  done
  echo "$(printf '%s' "$times" | median) $sum"
}

RESULT=bench/results/$(date +%Y-%m-%d-%H%M%S)-$(hostname -s)-compile-time.md
{
  echo "# Compile time of chains of inlined Funcs: Loom against Halide 21 ($(date '+%Y-%m-%d %H:%M'))"
  echo
  echo "Command: \`bench/compile_time.sh\` (median of $RUNS runs, each a fresh process; Loom $(bench_commit))."
  echo "Seconds from defining the chain to the end of compile_jit."
  echo
  echo "| chain | stages | Loom s | Halide s | Loom/Halide | same output |"
  echo "| --- | ---: | ---: | ---: | ---: | --- |"
  for spec in "same_point 100" "same_point 400" "stencil3 10" "stencil3 12"; do
    set -- $spec
    read -r loom_s loom_sum < <(run "$OUT/compile_time_loom" "$1" "$2")
    read -r halide_s halide_sum < <(run "$OUT/compile_time_halide" "$1" "$2")
    same=$([ "$loom_sum" = "$halide_sum" ] && echo yes || echo "NO ($loom_sum vs $halide_sum)")
    ratio=$(awk -v a="$loom_s" -v b="$halide_s" 'BEGIN {printf "%.2f", a / b}')
    echo "| $1 | $2 | $loom_s | $halide_s | $ratio | $same |"
  done
} | tee "$RESULT"
echo "(written to $RESULT)"
bench_publish "$RESULT"
