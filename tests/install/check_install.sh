#!/usr/bin/env bash
# Installs the Loom build in $1 into a temporary prefix, then builds the out-of-tree project
# tests/install/consumer against it with CMake (find_package(Loom), Loom::loom,
# loom_add_aot_library) and its JIT program with pkg-config alone, and runs each program.
# Usage: check_install.sh <loom build dir> <loom source dir>
set -euo pipefail
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

cmake --install "$build" --prefix "$prefix" > "$tmp/install.log"
for f in include/loom/loom.h include/loom/runtime/loom_runtime.h include/loom/compat/Halide.h \
  lib/cmake/Loom/LoomConfig.cmake lib/pkgconfig/loom.pc; do
  [ -f "$prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done
ls "$prefix"/lib/libloom.so* > /dev/null

generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
cmake -S "$src/tests/install/consumer" -B "$tmp/cmake" "${generator[@]}" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release > "$tmp/configure.log" ||
  { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/cmake" > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
"$tmp/cmake/jit_consumer"
"$tmp/cmake/aot_consumer"

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# shellcheck disable=SC2046
${CXX:-g++} -O1 "$src/tests/install/consumer/jit_consumer.cpp" -o "$tmp/jit_consumer_pc" \
  $(pkg-config --cflags --libs loom)
"$tmp/jit_consumer_pc"
echo "install: CMake and pkg-config consumers built and ran against $prefix"
