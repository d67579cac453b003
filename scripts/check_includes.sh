#!/usr/bin/env bash
# Fails, listing the offending #include lines, when the source tree breaks DESIGN.md §3's
# layering:
#  - a file in src/<layer> includes a header of a layer above it (support < ir < arith <
#    simplify < analysis < lang < lower < codegen < driver; autoschedule and autodiff sit beside
#    lower and may not include lower, codegen or driver; the runtime includes only itself);
#  - a lowering pass includes another pass's header. The passes are the headers lower.cpp
#    includes; what several passes share lives in utilities (lower_utils.h, loop_names.h, ...).
set -u
cd "$(dirname "$0")/.."
rank() {
  case "$1" in
  support) echo 0 ;; ir) echo 1 ;; arith) echo 2 ;; simplify) echo 3 ;; analysis) echo 4 ;;
  lang) echo 5 ;; lower | autoschedule | autodiff) echo 6 ;; codegen) echo 7 ;; driver) echo 8 ;;
  *) echo -1 ;;
  esac
}
bad=()
while IFS= read -r f; do
  layer=$(echo "$f" | cut -d/ -f2)
  while IFS= read -r line; do
    inc=$(echo "$line" | sed -E 's/^#include "([^"]+)".*/\1/')
    dir=${inc%%/*}
    [ "$dir" = "$inc" ] && continue
    if [ "$layer" = runtime ]; then
      [ "$dir" = runtime ] || bad+=("$f: $line (the runtime includes only itself)")
      continue
    fi
    [ "$dir" = runtime ] && continue
    r=$(rank "$dir")
    [ "$r" -lt 0 ] && continue
    if [ "$r" -gt "$(rank "$layer")" ] ||
      { [ "$layer" != "$dir" ] && [ "$r" -eq 6 ] && [ "$(rank "$layer")" -eq 6 ]; }; then
      bad+=("$f: $line (upward include from $layer)")
    fi
  done < <(grep -E '^#include "' "$f")
done < <(git ls-files --cached --others --exclude-standard 'src/*.h' 'src/*.cpp')

passes=$(grep -E '^#include "lower/' src/lower/lower.cpp | sed -E 's/^#include "([^"]+)".*/\1/' |
  grep -v -x -e lower/lower.h)
for f in $(git ls-files --cached --others --exclude-standard 'src/lower/*.cpp' 'src/lower/*.h'); do
  [ "$f" = src/lower/lower.cpp ] && continue
  own="lower/$(basename "${f%.*}").h"
  for p in $passes; do
    [ "$p" = "$own" ] && continue
    if grep -q -E "^#include \"$p\"" "$f"; then bad+=("$f: includes the pass header $p"); fi
  done
done
if [ ${#bad[@]} -ne 0 ]; then
  echo "Include rules broken (DESIGN.md §3):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "includes: layering and pass independence hold"
