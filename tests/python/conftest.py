"""Shared fixtures of the Python suite: the tests import `loom` built into build/python
(make test-python sets PYTHONPATH), and never write outside pytest's tmp_path."""
import os

import pytest

# A test's JIT compilations must not read or fill the user's persistent compile cache.
os.environ.setdefault("LOOM_CACHE_DIR", "off")


@pytest.fixture
def hl():
    import loom

    return loom
