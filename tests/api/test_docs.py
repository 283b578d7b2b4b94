"""docs/api.md's examples run: each ```python block is executed on its own and must print exactly the ```text
block shown under it."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
_BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.S | re.M)


def examples() -> list[tuple[str, str]]:
    """(code, shown output) of every python block; a python block without an output block is an error."""
    blocks = [(m.group(1), m.group(2)) for m in _BLOCK.finditer(DOC.read_text(encoding="utf-8"))]
    pairs = []
    for i, (lang, body) in enumerate(blocks):
        if lang != "python":
            continue
        assert i + 1 < len(blocks) and blocks[i + 1][0] == "text", f"python block {len(pairs) + 1} shows no output"
        pairs.append((body, blocks[i + 1][1]))
    return pairs


def test_the_doc_has_an_example_for_every_function() -> None:
    import toolcast

    code = "\n".join(body for body, _ in examples())
    functions = [name for name in toolcast.__all__ if name[0].islower()]
    assert functions and all(f"toolcast.{name}(" in code for name in functions), functions


@pytest.mark.parametrize("code, shown", examples(), ids=lambda v: v.split("\n")[0][:40] if "\n" in v else None)
def test_example_prints_what_the_doc_shows(code: str, shown: str) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {"__name__": "docs_api_example"})
    assert out.getvalue() == shown
