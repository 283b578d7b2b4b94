"""The wheel must ship every sub-package: pyproject's explicit package list has to match the tree."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_source_package_is_listed_in_pyproject() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    mapped: dict[str, str] = config["tool"]["setuptools"]["package-dir"]  # package -> its folder
    assert mapped["toolcast"] == "api" and mapped["toolcast.adapters"] == "adapters"
    found = set()
    for name, folder in mapped.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            found.add(".".join([name, *rel.parts]))
    # Data-only packages (no __init__.py): the rules reference that rule links open (docs/rules.md).
    assert found | {"toolcast.docs"} == listed


def test_core_does_not_import_the_language_server() -> None:
    offenders = []
    for path in (ROOT / "adapters").rglob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            words = line.split()
            if words[:1] in (["import"], ["from"]) and len(words) > 1 and (
                words[1].split(".")[0] in ("pygls", "lsprotocol") or words[1].startswith("toolcast.server")
            ):
                offenders.append(f"{path.relative_to(ROOT)}: {line.strip()}")
    assert offenders == []


def test_no_example_points_schema_at_a_url_that_does_not_resolve() -> None:
    """An editor fetches a `$schema` URL it meets (VS Code: "Unable to load schema … ENOTFOUND"); toolcast's
    schema reaches editors through the extension's jsonValidation or a local path instead."""
    import json as _json

    root = Path(__file__).resolve().parents[2]
    meta = ("https://json-schema.org/", "http://json-schema.org/")
    for folder in ("examples", "editors/nvim", "docs", "tests/fixtures"):
        for path in (root / folder).rglob("*.json*"):
            text = path.read_text(encoding="utf-8", errors="replace")
            if '"$schema"' not in text:
                continue
            try:
                value = _json.loads(text)
            except ValueError:
                continue
            schema = value.get("$schema") if isinstance(value, dict) else None
            assert not (isinstance(schema, str) and schema.startswith("http") and not schema.startswith(meta)), (
                f"{path.relative_to(root)} points $schema at {schema}")
    # No file names toolcast's nonexistent site at all: tests/project/test_links.py.
