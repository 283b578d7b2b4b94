"""docs/design.md's "Where the core does I/O" names exactly the modules of adapters/ that read files, walk
folders, read the clock or write: found here by their calls."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Calls that touch files, folders, the clock or the standard streams (`.resolve()` without arguments is a
#: path's: a JSON pointer's `jp.resolve` takes some).
_IO = re.compile(
    r"\bopen\(|\.read_text\(|\bread_text\(|\bread_regular\(|\.read_bytes\(|\bos\.(?:stat|open|fstat|read|walk|scandir"
    r"|listdir|getcwd)\(|os\.path\.abspath\(|\.iterdir\(|\.r?glob\(|\.is_file\(|\.is_dir\(|\.exists\(|\.stat\(|"
    r"\.resolve\(\)|\btime\.(?:time|monotonic|perf_counter|process_time|thread_time)\(|datetime\.now\(|"
    r"\bsys\.std(?:out|err|in)\b|\bprint\(|\bsubprocess\b|\.write_(?:text|bytes)\(")


def _doing_io() -> set[str]:
    found = set()
    for path in sorted((ROOT / "adapters").rglob("*.py")):
        code = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.lstrip().startswith("#")]
        if any(_IO.search(line) for line in code):
            found.add(path.relative_to(ROOT).as_posix())
    return found


def _listed() -> set[str]:
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    section = design.split("### Where the core does I/O", 1)[1].split("\n#", 1)[0]
    return set(re.findall(r"`(adapters/[\w/]+\.py)`", section))


def test_the_design_lists_exactly_the_core_modules_that_do_io() -> None:
    found, listed = _doing_io(), _listed()
    assert len(found) > 5
    assert not sorted(found - listed), "modules doing I/O that docs/design.md does not list"
    assert not sorted(listed - found), "modules docs/design.md lists as doing I/O that do none"
