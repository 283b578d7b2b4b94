"""`toolcast providers` through the real CLI: besides what each mode keeps and loses, the provider's own rules
(the `rules` of `schemas/providers/<target>.json`) that hold in that mode, each with its sources and confidence,
so a user sees what their tools are held to."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PROFILES = ROOT / "schemas" / "providers"


def _providers(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "toolcast.server.cli", "providers", *args], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return done.stdout


def _written(target: str, mode: str) -> list[dict[str, Any]]:
    """The profile's rules as written that hold in ``mode``: all but those whose `modes` leave it out."""
    rules: list[dict[str, Any]] = json.loads((PROFILES / f"{target}.json").read_text(encoding="utf-8")).get("rules", [])
    return [r for r in rules if mode in r.get("modes", [mode])]


def test_json_lists_each_modes_rules_with_sources_and_confidence() -> None:
    table = json.loads(_providers("--format", "json"))
    for target, modes in table.items():
        for mode, row in modes.items():
            shown = row["rules"]
            written = _written(target, mode)
            assert [r["id"] for r in shown] == [r["id"] for r in written], (target, mode)
            for rule, source in zip(shown, written, strict=True):
                assert (rule["rule"], rule["effect"], rule["message"], rule["sources"], rule["confidence"]) == (
                    source["rule"], source["effect"], source["message"], source["source"], source["confidence"])
    # Gemini's empty enum member and untyped enum, and OpenAI's lookaround and enum-type rules only where they hold
    # (strict mode).
    gemini = table["gemini"]["default"]["rules"]
    assert [(r["id"], r.get("members"), r["confidence"]) for r in gemini] == [
        ("enum-empty-string", ["empty_string"], "observed"), ("enum-on-untyped-node", None, "observed")]
    assert {r["id"] for r in table["openai"]["strict"]["rules"]} == {"pattern-python-re", "pattern-lookaround",
                                                                      "enum-member-off-type"}
    assert [r["id"] for r in table["openai"]["non_strict"]["rules"]] == ["pattern-python-re"]
    assert table["anthropic"]["strict"]["rules"] == []
    assert table["gemini"]["default"]["const"] == "as enum"  # the keyword rows are still there


def _block(text: str, header: str) -> list[str]:
    """The lines of one `target (mode)` block of the text output."""
    lines = text.splitlines()
    start = lines.index(header) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith(" ")), len(lines))
    return lines[start:end]


def test_text_says_each_rule_under_its_mode() -> None:
    text = _providers()
    gemini = _block(text, "gemini (default)")
    rule = _written("gemini", "default")[0]
    assert "  rules:" in gemini
    assert (f"    {rule['id']} (enum_values members=empty_string; {rule['effect']}): {rule['message']} "
            f"[{', '.join(rule['source'])} ({rule['confidence']})]") in gemini
    strict = "\n".join(_block(text, "openai (strict)"))
    non_strict = "\n".join(_block(text, "openai (non_strict)"))
    assert "pattern-lookaround (pattern_dialect engine=python-re-no-lookaround modes=strict; rejected)" in strict
    assert "pattern-lookaround" not in non_strict
    assert "pattern-python-re (pattern_dialect engine=python-re; rejected)" in non_strict
    assert not any("rules:" in line for line in _block(text, "anthropic (strict)"))
