"""The Python guide (docs/python.md) runs as written: its code blocks, in order, in one
namespace (each block asserts its own results)."""
import pathlib
import re

GUIDE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_python_guide_runs():
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), flags=re.S)
    assert len(blocks) >= 5
    namespace = {"__name__": "python_guide"}
    for i, block in enumerate(blocks):
        exec(compile(block, f"{GUIDE.name} block {i + 1}", "exec"), namespace)
