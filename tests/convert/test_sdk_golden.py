"""Every golden output is checked by something independent of toolcast: the providers' own SDK types
(tests/convert/sdk.py: openai, anthropic, google-genai, mistralai, mcp; Bedrock's documented shape) and each
target's documented rules (names, strict mode, Gemini's schema subset)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .sdk import VALIDATORS, check_documented_rules

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FILES = sorted(GOLDEN.glob("*/*.json"))


def _target(folder: str) -> tuple[str, bool]:
    for suffix, strict in (("-strict", True), ("-nonstrict", False)):
        if folder.endswith(suffix):
            return folder.removesuffix(suffix), strict
    return folder, False


def test_every_golden_folder_is_checked() -> None:
    assert len(FILES) == 48
    assert {_target(p.parent.name)[0] for p in FILES} == set(VALIDATORS)


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden_outputs_pass_the_sdk_validators(path: Path) -> None:
    target, strict = _target(path.parent.name)
    entries = json.loads(path.read_text(encoding="utf-8"))
    assert entries
    for entry in entries:
        if any(loss["action"] == "rejected" for loss in entry["losses"]):
            continue  # not sendable (the conversion says so): the output is a placeholder
        VALIDATORS[target](entry["output"])
        check_documented_rules(target, strict, entry["output"])
