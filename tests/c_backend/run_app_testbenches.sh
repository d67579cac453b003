#!/usr/bin/env bash
# Every app (apps_generate: small size, hand schedule) through the C back end, checked by its
# testbench: the C output built with gcc (generic mapping; and once more under AddressSanitizer
# and UndefinedBehaviorSanitizer, testbench_lib.sh) and clang (scalar mapping) on this machine,
# and on AArch64 under qemu (when gcc-aarch64-linux-gnu and qemu-user are installed, as
# scripts/setup.sh does) the C output with the generic and neon mappings and the LLVM back end's
# arm-64-linux library (testbench_lib.sh).
#
# Usage: run_app_testbenches.sh <apps_generate executable>
set -euo pipefail
gen=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" "$tmp"
cd "$tmp"
# shellcheck source=testbench_lib.sh
source "$here/testbench_lib.sh"
while read -r app; do
    gcc "${cflags[@]}" -DLOOM_SIMD_GENERIC -o "$app-gcc" "${app}_tb.c" "$app.c" -lm -lpthread
    check "$app, C back end, gcc, generic" "$app-gcc"
    check_sanitized "$app"
    if command -v clang >/dev/null; then
        clang "${cflags[@]}" -Wno-unknown-warning-option -DLOOM_SIMD_SCALAR -o "$app-clang" \
            "${app}_tb.c" "$app.c" -lm -lpthread
        check "$app, C back end, clang, scalar" "$app-clang"
    fi
    check_aarch64 "$app"
done <apps.txt
echo "app testbenches: $ran runs passed"
