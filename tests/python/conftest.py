"""Shared fixtures of the Python suite: the tests import `loom` built into build/python
(make test-python sets PYTHONPATH), and never write outside pytest's tmp_path."""
import importlib
import os

import pytest

# A test's JIT compilations must not read or fill the user's persistent compile cache.
os.environ.setdefault("LOOM_CACHE_DIR", "off")


@pytest.fixture
def hl():
    import loom

    return loom


# The tests that run a program with both libraries: Loom, and the Halide 21 wheel when installed.
BACKENDS = ["loom"]
if importlib.util.find_spec("halide") is not None:
    BACKENDS.append("halide")


@pytest.fixture(params=BACKENDS)
def hl_backend(request):
    """`loom`, then `halide` when installed: a test using it runs once with each."""
    return importlib.import_module(request.param)
