#!/bin/sh
# Doxygen's input filter (docs/Doxyfile): Loom's headers open with "/// \file <description>";
# Doxygen reads the first word after \file as a file name, so the description moves to the next
# line.
sed -e 's|^/// \\file \(.*\)$|/// \\file\n/// \1|' "$1"
