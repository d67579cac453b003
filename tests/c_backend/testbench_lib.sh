# Sourced by run_testbenches.sh and run_app_testbenches.sh, in the folder that holds <name>.c,
# <name>_tb.c and <name>_arm64.a for each pipeline: running a testbench and the AArch64 builds.
run=()
if command -v timeout >/dev/null; then run=(timeout 600); fi
cflags=(-std=c99 -O2 -I. -Wno-psabi)
ran=0
arm=0
if command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null; then
    arm=1
else
    echo "aarch64-linux-gnu-gcc or qemu-aarch64 missing: the AArch64 runs are skipped"
fi

# check <description> <binary> [emulator]: runs the testbench; its last line, or exit on failure.
check() {
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

# check_sanitized <name>: the C output (generic mapping) built by gcc with AddressSanitizer and
# UndefinedBehaviorSanitizer. The testbench's inputs are arrays of exactly the region the outputs
# need, so any read outside that region, or outside a buffer the pipeline allocates, stops the
# run with a report (nothing when gcc lacks the sanitizers' runtimes).
sanitize=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
if ! echo 'int main(void) { return 0; }' | gcc "${sanitize[@]}" -x c -o /dev/null - 2>/dev/null; then
    echo "gcc cannot build with -fsanitize=address,undefined: the sanitized runs are skipped"
    sanitize=()
fi
check_sanitized() {
    local p=$1
    [[ ${#sanitize[@]} -gt 0 ]] || return 0
    gcc "${cflags[@]}" -O1 "${sanitize[@]}" -DLOOM_SIMD_GENERIC -o "$p-asan" "${p}_tb.c" "$p.c" \
        -lm -lpthread
    check "$p, C back end, gcc, generic, ASan+UBSan" "$p-asan"
}

# check_aarch64 <name>: under qemu, the C output with the generic and neon mappings and the LLVM
# back end's arm-64-linux library (nothing without the cross tools).
check_aarch64() {
    local p=$1 mapping
    [[ $arm == 1 ]] || return 0
    for mapping in GENERIC NEON; do
        aarch64-linux-gnu-gcc "${cflags[@]}" -static -DLOOM_SIMD_$mapping \
            -o "$p-arm-$mapping" "${p}_tb.c" "$p.c" -lm -lpthread
        check "$p, C back end, aarch64 $mapping (qemu)" "$p-arm-$mapping" qemu-aarch64
    done
    aarch64-linux-gnu-gcc "${cflags[@]}" -static -o "$p-arm-llvm" "${p}_tb.c" "${p}_arm64.a" \
        -lm -lpthread -ldl 2>/dev/null
    check "$p, LLVM back end, arm-64-linux (qemu)" "$p-arm-llvm" qemu-aarch64
}
