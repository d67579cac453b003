#!/usr/bin/env bash
# Every app (apps_generate: small size, hand schedule) through the C back end, checked by its
# testbench: the C output built with gcc (generic mapping) and clang (scalar mapping) on this
# machine, and on AArch64 under qemu (when gcc-aarch64-linux-gnu and qemu-user are installed, as
# scripts/setup.sh does) the C output with the generic mapping (and the neon one when the file
# has it) and the LLVM back end's arm-64-linux library.
#
# Usage: run_app_testbenches.sh <apps_generate executable>
set -euo pipefail
gen=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" "$tmp"
cd "$tmp"
run=()
if command -v timeout >/dev/null; then run=(timeout 600); fi
cflags=(-std=c99 -O2 -I. -Wno-psabi)
ran=0
check() { # <description> <binary> [emulator]
    local what=$1 bin=$2
    shift 2
    if ! out=$("${run[@]+"${run[@]}"}" "$@" "./$bin" 2>&1); then
        echo "FAILED: $what"
        echo "$out" | head -20
        exit 1
    fi
    echo "$what: ${out##*$'\n'}"
    ran=$((ran + 1))
}
arm=0
if command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null; then
    arm=1
else
    echo "aarch64-linux-gnu-gcc or qemu-aarch64 missing: the AArch64 runs are skipped"
fi
while read -r app; do
    gcc "${cflags[@]}" -DLOOM_SIMD_GENERIC -o "$app-gcc" "${app}_tb.c" "$app.c" -lm -lpthread
    check "$app, C back end, gcc, generic" "$app-gcc"
    if command -v clang >/dev/null; then
        clang "${cflags[@]}" -Wno-unknown-warning-option -DLOOM_SIMD_SCALAR -o "$app-clang" \
            "${app}_tb.c" "$app.c" -lm -lpthread
        check "$app, C back end, clang, scalar" "$app-clang"
    fi
    if [[ $arm == 1 ]]; then
        mappings=(GENERIC)
        if grep -q LOOM_SIMD_NEON "$app.c"; then mappings+=(NEON); fi
        for mapping in "${mappings[@]}"; do
            aarch64-linux-gnu-gcc "${cflags[@]}" -static -DLOOM_SIMD_$mapping \
                -o "$app-arm-$mapping" "${app}_tb.c" "$app.c" -lm -lpthread
            check "$app, C back end, aarch64 $mapping (qemu)" "$app-arm-$mapping" qemu-aarch64
        done
        aarch64-linux-gnu-gcc "${cflags[@]}" -static -o "$app-arm-llvm" "${app}_tb.c" \
            "${app}_arm64.a" -lm -lpthread -ldl 2>/dev/null
        check "$app, LLVM back end, arm-64-linux (qemu)" "$app-arm-llvm" qemu-aarch64
    fi
done <apps.txt
echo "app testbenches: $ran runs passed"
