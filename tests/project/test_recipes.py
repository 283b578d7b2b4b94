"""docs/recipes.md lists what adding a target or a rule touches; this fails when a target or a rule is missing
from a place that can be checked by reading the files (the rest of each recipe is for the reviewer)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from toolcast.adapters.rules.registry import RULES
from toolcast.adapters.targets import TARGETS

ROOT = Path(__file__).resolve().parents[2]

#: Files that name every target as a quoted string (recipe "Adding a target").
_NAMING_FILES = (
    "adapters/convert/convert_tool.py", "adapters/cost.py", "adapters/loading/shapes.py", "tests/convert/sdk.py",
    "tests/corpus/harness.py", "editors/vscode/src/targets.ts", "tests/convert/test_hand_written.py",
)


def _quoted(name: str, text: str) -> bool:
    return f'"{name}"' in text or f"'{name}'" in text


def test_the_recipes_name_files_that_exist() -> None:
    text = (ROOT / "docs" / "recipes.md").read_text(encoding="utf-8")
    # A path is written from the repository's root, or from adapters/ for the core's packages (`checks/…`).
    named = set(re.findall(r"`([\w.-]+/[\w./-]*\w)`", text))
    assert len(named) > 30
    missing = sorted(p for p in named if "NAME" not in p and not (ROOT / p).exists()
                     and not (ROOT / "adapters" / p).exists())
    assert not missing, f"docs/recipes.md names files that do not exist: {missing}"


@pytest.mark.parametrize("target", TARGETS)
def test_a_target_is_in_every_place_the_recipe_lists(target: str) -> None:
    assert (ROOT / "schemas" / "providers" / f"{target}.json").is_file()
    for rel in _NAMING_FILES:
        assert _quoted(target, (ROOT / rel).read_text(encoding="utf-8")), f"{rel} does not name {target!r}"
    tool_schema = json.loads((ROOT / "schemas" / "tool.schema.json").read_text(encoding="utf-8"))
    assert f'"{target}"' in json.dumps(tool_schema), "schemas/tool.schema.json's targets enum"
    package = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    assert f'"{target}"' in json.dumps(package), "editors/vscode/package.json's settings enum"
    assert f"`{target}`" in (ROOT / "README.md").read_text(encoding="utf-8"), "README.md's list of targets"


def test_every_rule_is_held_by_a_test_of_its_own() -> None:
    """Each code (or its constant) is named in a test file besides the registry's own tests."""
    from toolcast.adapters.rules import codes

    constants = {value: name for name, value in vars(codes).items() if isinstance(value, str) and value in RULES}
    registry_tests = {"test_registry.py", "test_codes.py"}
    text = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py")
                     if p.name not in registry_tests)
    unheld = [code for code in RULES if code not in text and constants.get(code, code) not in text]
    assert not unheld, f"rules no test names: {unheld}"
