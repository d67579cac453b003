"""Loom: Halide's language and compiler for image and array processing, from Python.

`import loom as hl` runs Halide 21 Python programs: the names and behaviour follow Halide's
Python bindings. See docs/python.md for the guide.
"""
from ._loom import *  # noqa: F401,F403
from ._loom import _, _0, _1, _2, _3, _4, _5, _6, _7, _8, _9  # noqa: F401
