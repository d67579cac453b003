#!/usr/bin/env bash
# Testbenches (compile_to_testbench) for the pipelines testbench_generate writes, run against
# every build of each pipeline: the C back end's output built with gcc and clang (the generic and
# scalar mappings, and the sse41 mapping where the CPU has SSE4.1; the generic one once more under
# AddressSanitizer and UndefinedBehaviorSanitizer), the LLVM back end's static
# library for the host, and on AArch64 under qemu (when gcc-aarch64-linux-gnu and
# qemu-user are installed, as scripts/setup.sh does): the C output with the generic and neon
# mappings and the LLVM back end's arm-64-linux library (testbench_lib.sh). A testbench must also
# reject a pipeline with the same signature that computes something else.
#
# Usage: run_testbenches.sh <testbench_generate executable>
set -euo pipefail
gen=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" "$tmp"
cd "$tmp"
# shellcheck source=testbench_lib.sh
source "$here/testbench_lib.sh"
pipelines=(blur int_ops_uint8 int_ops_int16 int_ops_int32 int_ops_uint64 float_math reductions)
mappings=(GENERIC SCALAR)
if grep -qw sse4_1 /proc/cpuinfo 2>/dev/null; then mappings+=(SSE41); fi
for p in "${pipelines[@]}"; do
    for cc in gcc clang; do
        command -v "$cc" >/dev/null || continue
        for mapping in "${mappings[@]}"; do
            mflags=(-DLOOM_SIMD_$mapping)
            if [[ $mapping == SSE41 ]]; then mflags+=(-msse4.1); fi
            "$cc" "${cflags[@]}" "${mflags[@]}" -o "$p-$cc-$mapping" "${p}_tb.c" "$p.c" \
                -lm -lpthread
            check "$p, C back end, $cc, $mapping" "$p-$cc-$mapping"
        done
    done
    check_sanitized "$p"
    gcc "${cflags[@]}" -o "$p-llvm" "${p}_tb.c" "${p}_host.a" -lm -lpthread -ldl
    check "$p, LLVM back end, host" "$p-llvm"
    check_aarch64 "$p"
done
gcc "${cflags[@]}" -o blur-wrong blur_tb.c blur_wrong.c -lm -lpthread
if ./blur-wrong >/dev/null; then
    echo "FAILED: blur's testbench accepted a pipeline that computes something else"
    exit 1
fi
echo "testbenches: $ran runs passed, and a wrong pipeline was rejected"
