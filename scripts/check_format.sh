#!/usr/bin/env bash
# Fails, listing the files, when a tracked C/C++ file differs from clang-format's output.
set -u
cd "$(dirname "$0")/.."
bad=()
while IFS= read -r f; do
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
done < <(git ls-files '*.h' '*.cpp' '*.c')
if [ ${#bad[@]} -ne 0 ]; then
  echo "Not formatted (run 'make format'):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "format: all files formatted"
