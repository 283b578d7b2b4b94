"""Links must open offline: toolcast has no web site and no public repository, so no file of the tree
(code, schemas, docs, editors, the extension manifest, tests) names one, and rule links lead to the
rules reference the installation holds."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Spelled in pieces so this file does not match itself.
DEAD = ("toolcast" + ".dev", "github.com/" + "toolcast/")
SKIP = {".git", ".venv", "node_modules", "build", "dist", "out", "__pycache__", ".mypy_cache", ".ruff_cache",
        ".pytest_cache", "mutants"}
TEXT = {".py", ".md", ".json", ".jsonc", ".toml", ".yaml", ".yml", ".ts", ".mjs", ".js", ".lua", ".el", ".sh",
        ".txt", ".cfg", ".ini", ".html"}


def tree_files() -> list[Path]:
    found = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP and not d.endswith(".egg-info")]
        for name in names:
            path = Path(folder) / name
            if path.suffix in TEXT or name.startswith(".") or path.parent.name == ".ci":
                found.append(path)
    return found


def test_no_file_names_a_site_or_repository_that_does_not_exist() -> None:
    files = tree_files()
    # The scan reaches what it must: code, schemas, docs, the extension manifest, CI.
    for needed in ("adapters/rules/registry.py", "schemas/tool.schema.json", "docs/rules.md",
                   "editors/vscode/package.json", ".ci/run", ".pre-commit-hooks.yaml"):
        assert ROOT / needed in files, needed
    hits = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
            for p in files for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
            if any(host in line for host in DEAD)]
    assert hits == []


def test_the_tool_schema_id_names_no_site() -> None:
    import json

    schema_id = json.loads((ROOT / "schemas" / "tool.schema.json").read_text(encoding="utf-8"))["$id"]
    assert schema_id.startswith("urn:toolcast:"), schema_id


def test_explain_links_the_installed_rules_reference() -> None:
    """`toolcast explain`'s "More:" is a file: URI of a docs/rules.md that exists and has the rule's heading."""
    from urllib.parse import urlsplit
    from urllib.request import url2pathname

    done = subprocess.run([sys.executable, "-m", "toolcast.server.cli", "explain", "TC302"], capture_output=True,
                          text=True, timeout=60, check=True)
    more = [line.removeprefix("More: ") for line in done.stdout.splitlines() if line.startswith("More: ")]
    assert len(more) == 1, done.stdout
    url = urlsplit(more[0])
    assert url.scheme == "file" and url.fragment == "tc302"
    assert "\n### TC302\n" in Path(url2pathname(url.path)).read_text(encoding="utf-8")


def test_the_wheel_ships_the_rules_reference_where_rule_links_look() -> None:
    """pyproject ships docs/rules.md as toolcast/docs/rules.md: two folders above the registry module in a
    wheel, as docs/rules.md is in a checkout (``RULES_DOC`` is looked for there in both)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert config["package-dir"]["toolcast.docs"] == "docs"
    assert "rules.md" in config["package-data"]["toolcast.docs"]
    assert "toolcast.docs" in config["packages"]
    from toolcast.adapters.rules import registry

    package_root = Path(registry.__file__).resolve().parents[2]  # toolcast/ in a wheel, the checkout here
    assert package_root / "docs" / "rules.md" == registry.RULES_DOC
