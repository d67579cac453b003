#!/usr/bin/env bash
# The C back end's output as a user of a plain C toolchain builds it: standalone_generate writes
# blur.c and blur.h, and standalone_main.c, a C99 program, links with them and only -lm and
# -lpthread. Built with gcc and clang (those installed), with each SIMD mapping (avx2 where the
# CPU has AVX2 and FMA, sse41 where it has SSE4.1) and without threads, in strict C99 (-pedantic,
# warnings as errors), then run.
#
# Usage: run_standalone.sh <standalone_generate executable> <source dir>
set -euo pipefail
gen=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" "$tmp"
run=()
if command -v timeout >/dev/null; then run=(timeout 300); fi
modes=(-DLOOM_SIMD_GENERIC -DLOOM_SIMD_SCALAR "-DLOOM_SIMD_GENERIC -DLOOM_C_NO_THREADS")
if grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo; then
    modes+=("-DLOOM_SIMD_AVX2 -mavx2 -mfma")
fi
if grep -qw sse4_1 /proc/cpuinfo 2>/dev/null; then
    modes+=("-DLOOM_SIMD_SSE41 -msse4.1")
fi
configs=0
for cc in gcc clang; do
    command -v "$cc" >/dev/null || continue
    for mode in "${modes[@]}"; do
        echo "standalone: $cc $mode"
        # shellcheck disable=SC2086
        "$cc" -std=c99 -pedantic -Wall -Werror -O2 $mode -I"$tmp" -o "$tmp/prog" \
            "$src/tests/c_backend/standalone_main.c" "$tmp/blur.c" -lm -lpthread
        "${run[@]+"${run[@]}"}" "$tmp/prog"
        configs=$((configs + 1))
    done
done
[[ $configs -gt 0 ]] || { echo "no C compiler found" >&2; exit 1; }
