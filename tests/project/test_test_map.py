"""tests/README.md maps every module to the tests that hold it (scripts/test_map.py rebuilds the map): a module
without a row, a row without tests, or a row naming a test file that is gone fails here."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import test_map  # noqa: E402


def _rows() -> dict[str, list[str]]:
    text = (ROOT / "tests" / "README.md").read_text(encoding="utf-8")
    body = text[text.index(test_map.BEGIN):text.index(test_map.END)]
    rows = re.findall(r"^\| `([^`]+)` \| (.*) \|$", body, re.MULTILINE)
    return {module: re.findall(r"`([^`]+)`", tests) for module, tests in rows}


def test_every_module_has_a_row_with_tests() -> None:
    rows = _rows()
    modules = test_map.modules()
    assert len(modules) > 100
    assert not [m for m in modules if m not in rows], "modules without a row: run scripts/test_map.py"
    assert not [m for m in modules if not rows[m]], "modules no test holds"
    assert not [m for m in rows if m not in modules], "rows for modules that are gone: run scripts/test_map.py"


def test_every_named_test_file_exists() -> None:
    named = {f for files in _rows().values() for f in files} | {
        f for files in test_map.BY_HAND.values() for f in files}
    assert not sorted(f for f in named if not (ROOT / f).is_file())
