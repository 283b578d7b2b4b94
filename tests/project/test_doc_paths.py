"""Every Python file docs/testing.md and docs/design.md name can be found in the repository: a path (`tests/x.py`,
`checks/entry.py`) is the end of a file's path, a bare name (`walker.py`) some file's name. Two kinds of name are
left alone, each marked where it is written: a file of another repository, written after it
(pydantic/pydantic-ai `pydantic_ai_slim/…/openai.py`), and a file's old name, written after "was"
(`rules/codes.py` (was `checks/rules.py`)), beside the name it has now."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("docs/testing.md", "docs/design.md")
#: The folders of the repository's own files (not the virtualenv, build output or editor packages' dependencies).
FOLDERS = ("adapters", "api", "server", "tests", "scripts", "bench", "examples", "editors", "docs")
_CODE = re.compile(r"`([^`]+)`")
_PY = re.compile(r"[\w./-]*\w\.py\b")
#: What marks the code span after it: another repository (`owner/name` or `owner/name@commit`), or an old name.
_OTHER_REPO = re.compile(r"[\w.-]+/[\w.-]+(?:@[0-9a-f]{7,40})?\s+$")
_OLD_NAME = re.compile(r"\b(?:was|were)\s+$")


def named_files(text: str) -> list[tuple[int, str]]:
    """(line, name) of each `.py` name in a code span of ``text``, but those marked as another repository's or as
    an old name."""
    out = []
    for span in _CODE.finditer(text):
        before = text[max(0, span.start() - 80):span.start()]
        if _OTHER_REPO.search(before) or _OLD_NAME.search(before):
            continue
        for name in _PY.findall(span.group(1)):
            out.append((text.count("\n", 0, span.start()) + 1, name))
    return out


def _own_files() -> set[str]:
    return {p.relative_to(ROOT).as_posix() for folder in FOLDERS for p in (ROOT / folder).rglob("*.py")
            if "node_modules" not in p.parts} | {p.name for p in ROOT.glob("*.py")}


def found(name: str, files: set[str]) -> bool:
    return any(f == name or f.endswith("/" + name.lstrip("./")) for f in files)


def test_every_python_file_the_docs_name_exists() -> None:
    files = _own_files()
    missing = [f"{doc}:{line}: {name}" for doc in DOCS
               for line, name in named_files((ROOT / doc).read_text(encoding="utf-8")) if not found(name, files)]
    assert not missing, "files named in the docs that the repository does not have (write an old name after " \
                        "\"was\", beside the current one):\n" + "\n".join(missing)


def test_marks_are_read_and_a_missing_file_is_caught() -> None:
    files = {"adapters/rules/codes.py", "tests/checks/test_cli.py"}
    text = ("`rules/codes.py` (was `checks/rules.py`); pydantic/pydantic-ai `pydantic_ai_slim/x.py`; "
            "`scripts/gone.py --budget 9`, `test_cli.py`\nand `caches.py`")
    named = named_files(text)
    assert named == [(1, "rules/codes.py"), (1, "scripts/gone.py"), (1, "test_cli.py"), (2, "caches.py")]
    assert [name for _, name in named if not found(name, files)] == ["scripts/gone.py", "caches.py"]
