#!/usr/bin/env bash
# The neon SIMD mapping (src/codegen/c/simd/loom_simd_neon.h) compiled for AArch64: the
# standalone test's blur.c and standalone_main.c (see run_standalone.sh) built with
# aarch64-linux-gnu-gcc in strict C99 (-pedantic, warnings as errors) with -DLOOM_SIMD_NEON and,
# for comparison, -DLOOM_SIMD_GENERIC, then run under qemu-aarch64 when it is installed. Skipped
# (exit 0, with a message) without the cross compiler: scripts/setup.sh installs
# gcc-aarch64-linux-gnu and qemu-user.
#
# Usage: check_neon_mapping.sh <c_backend_standalone_generate executable> <source dir>
set -euo pipefail
gen=$1
src=$2
cc=aarch64-linux-gnu-gcc
if ! command -v "$cc" >/dev/null; then
    echo "$cc is not installed: the neon mapping check is skipped"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" "$tmp"
qemu=()
if command -v qemu-aarch64 >/dev/null; then
    qemu=(qemu-aarch64)
    if command -v timeout >/dev/null; then qemu=(timeout 300 qemu-aarch64); fi
else
    echo "qemu-aarch64 is not installed: the AArch64 programs are built, not run"
fi
for mode in -DLOOM_SIMD_NEON -DLOOM_SIMD_GENERIC; do
    echo "aarch64: $cc $mode"
    "$cc" -std=c99 -pedantic -Wall -Werror -O2 "$mode" -static -I"$tmp" -o "$tmp/prog" \
        "$src/tests/c_backend/standalone_main.c" "$tmp/blur.c" -lm -lpthread
    if [[ ${#qemu[@]} -gt 0 ]]; then
        out=$("${qemu[@]}" "$tmp/prog")
        echo "$out"
        grep -q "standalone C pipeline: all checks passed" <<<"$out"
    fi
done
