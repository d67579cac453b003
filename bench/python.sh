#!/usr/bin/env bash
# The Python package: call overhead against C++ (python_overhead.py) and loom.dask scaling on a
# local cluster (dask_scaling.py). Printed; see bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${LOOM_BUILD:-build}"
export PYTHONPATH="$PWD/$BUILD/python${PYTHONPATH:+:$PYTHONPATH}"
LOOM_BUILD="$BUILD" python3 bench/python_overhead.py
echo
python3 bench/dask_scaling.py
