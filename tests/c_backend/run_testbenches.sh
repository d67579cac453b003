#!/usr/bin/env bash
# Testbenches (compile_to_testbench) for the pipelines testbench_generate writes, run against
# every build of each pipeline: the C back end's output built with gcc and clang, the LLVM back
# end's static library for the host, and on AArch64 under qemu (when gcc-aarch64-linux-gnu and
# qemu-user are installed, as scripts/setup.sh does): the C output with the generic mapping (and
# the neon one when the file has it) and the LLVM back end's arm-64-linux library. A testbench
# must also reject a pipeline with the same signature that computes something else.
#
# Usage: run_testbenches.sh <testbench_generate executable>
set -euo pipefail
gen=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" "$tmp"
cd "$tmp"
run=()
if command -v timeout >/dev/null; then run=(timeout 300); fi
cflags=(-std=c99 -O2 -I.)
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
pipelines=(blur int_ops_uint8 int_ops_int16 int_ops_int32 int_ops_uint64 float_math reductions)
arm=0
if command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null; then
    arm=1
else
    echo "aarch64-linux-gnu-gcc or qemu-aarch64 missing: the AArch64 runs are skipped"
fi
for p in "${pipelines[@]}"; do
    for cc in gcc clang; do
        command -v "$cc" >/dev/null || continue
        for mapping in GENERIC SCALAR; do
            "$cc" "${cflags[@]}" -DLOOM_SIMD_$mapping -o "$p-$cc-$mapping" "${p}_tb.c" "$p.c" \
                -lm -lpthread
            check "$p, C back end, $cc, $mapping" "$p-$cc-$mapping"
        done
    done
    gcc "${cflags[@]}" -o "$p-llvm" "${p}_tb.c" "${p}_host.a" -lm -lpthread -ldl
    check "$p, LLVM back end, host" "$p-llvm"
    if [[ $arm == 1 ]]; then
        mappings=(GENERIC)
        if grep -q LOOM_SIMD_NEON "$p.c"; then mappings+=(NEON); fi
        for mapping in "${mappings[@]}"; do
            aarch64-linux-gnu-gcc "${cflags[@]}" -static -DLOOM_SIMD_$mapping \
                -o "$p-arm-$mapping" "${p}_tb.c" "$p.c" -lm -lpthread
            check "$p, C back end, aarch64 $mapping (qemu)" "$p-arm-$mapping" qemu-aarch64
        done
        aarch64-linux-gnu-gcc "${cflags[@]}" -static -o "$p-arm-llvm" "${p}_tb.c" \
            "${p}_arm64.a" -lm -lpthread -ldl 2>/dev/null
        check "$p, LLVM back end, arm-64-linux (qemu)" "$p-arm-llvm" qemu-aarch64
    fi
done
gcc "${cflags[@]}" -o blur-wrong blur_tb.c blur_wrong.c -lm -lpthread
if ./blur-wrong >/dev/null; then
    echo "FAILED: blur's testbench accepted a pipeline that computes something else"
    exit 1
fi
echo "testbenches: $ran runs passed, and a wrong pipeline was rejected"
