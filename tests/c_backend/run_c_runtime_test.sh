#!/usr/bin/env bash
# Builds and runs tests/c_backend/c_runtime_test.c against the C back end's runtime
# (src/runtime/c), with gcc and clang (those installed), with and without LOOM_C_NO_THREADS, in
# strict C99 with warnings as errors. Each configuration links the test twice: with the runtime
# files compiled on their own, and with two copies of the runtime as the C back end pastes it into
# each generated file (after `#define _POSIX_C_SOURCE 200809L` and the runtime header), which
# only links because the runtime's functions are weak.
#
# Usage: run_c_runtime_test.sh <source dir>
set -euo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: $0 <source dir>" >&2
    exit 2
fi
src=$1
runtime=("$src/src/runtime/c/loom_c_runtime.c" "$src/src/runtime/c/loom_c_threads.c")
test_src=$src/tests/c_backend/c_runtime_test.c
flags=(-std=c99 -pedantic -Wall -Wextra -Werror -O1 "-I$src/include")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The runtime as the C back end pastes it into a generated file.
{
    echo '#define _POSIX_C_SOURCE 200809L'
    cat "$src/include/loom/runtime/loom_runtime.h"
    cat "$src/src/runtime/c/loom_c_common.h" "${runtime[@]}"
} >"$tmp/pasted.c"

# A deadlock must fail the test, not hang it.
run=()
if command -v timeout >/dev/null; then run=(timeout 300); fi

configs=0
for cc in gcc clang; do
    if ! command -v "$cc" >/dev/null; then
        echo "c_runtime_test: $cc not found, skipped"
        continue
    fi
    for mode in threads no_threads; do
        defs=()
        if [[ $mode == no_threads ]]; then defs=(-DLOOM_C_NO_THREADS); fi
        echo "c_runtime_test: $cc, $mode"
        dir=$tmp/$cc-$mode
        mkdir -p "$dir"
        for f in "${runtime[@]}" "$test_src" "$tmp/pasted.c"; do
            name=$(basename "$f" .c)
            "$cc" "${flags[@]}" ${defs[@]+"${defs[@]}"} -c "$f" -o "$dir/$name.o"
        done
        cp "$dir/pasted.o" "$dir/pasted2.o"
        "$cc" -o "$dir/test" "$dir/c_runtime_test.o" "$dir/loom_c_runtime.o" \
            "$dir/loom_c_threads.o" -lm -lpthread
        "$cc" -o "$dir/test_pasted" "$dir/c_runtime_test.o" "$dir/pasted.o" "$dir/pasted2.o" \
            -lm -lpthread
        "${run[@]+"${run[@]}"}" "$dir/test"
        "${run[@]+"${run[@]}"}" "$dir/test_pasted"
        configs=$((configs + 1))
    done
done

if [[ $configs -eq 0 ]]; then
    echo "c_runtime_test: no C compiler (gcc or clang) found" >&2
    exit 1
fi
echo "c_runtime_test: $configs configurations passed"
