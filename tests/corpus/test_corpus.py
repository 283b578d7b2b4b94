"""Issue 14, build item 3: every real tool of the corpus converts, for every target, to output its provider
accepts (SDK types + documented rules, see harness.py) or to a clean refusal with a message; nothing crashes.

Pairs that are invalid on the converters of this commit are listed in known_invalid.json with the reason;
the test is strict both ways: a failing pair that is not listed fails it, and so does a listed pair that no
longer fails (remove it from the list: `python -m tests.corpus.report --write-known`).
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from toolcast.adapters.convert import convert
from toolcast.adapters.targets import TARGETS

from .harness import (
    Entry,
    all_outcomes,
    corpus,
    corpus_files,
    failing_pairs,
    known_invalid,
    load,
    pair_key,
    problems,
)

warnings.filterwarnings("ignore", message=".* is not a valid Type", category=UserWarning)


def test_the_corpus_is_real_large_and_traceable() -> None:
    assert len(corpus()) >= 1000
    for path in corpus_files():
        data = json.loads(path.read_text(encoding="utf-8"))
        src = data["source"]
        assert data["license"], path.name
        traced = ("repository" in src and len(src.get("commit", "")) == 40) or ("package" in src and src.get("version"))
        assert traced, f"{path.name}: provenance needs repository + commit or package + version"
        assert data["tools"], path.name
        assert data.get("shape") or len(data["shapes"]) == len(data["tools"]), path.name


def test_every_corpus_tool_loads_in_the_shape_it_was_found_in() -> None:
    for entry in corpus():
        loaded = load(entry)
        assert loaded.error is None or loaded.error.kind == "refused", (entry.key, loaded.error)


@pytest.mark.parametrize("target", TARGETS)
def test_every_pair_is_valid_or_a_clean_refusal(target: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outcomes = all_outcomes()
    failing = {k: v for k, v in failing_pairs(outcomes).items() if k.endswith(" " + target)}
    known = {k: v for k, v in known_invalid().items() if k.endswith(" " + target)}
    new = sorted(set(failing) - set(known))
    fixed = sorted(set(known) - set(failing))
    report = []
    if new:
        report.append(f"{len(new)} pair(s) invalid or crashing that known_invalid.json does not list:")
        report.extend(f"  {k}: {failing[k]}" for k in new[:25])
    if fixed:
        report.append(f"{len(fixed)} pair(s) listed in known_invalid.json now pass (remove them):")
        report.extend(f"  {k}: was {known[k]}" for k in fixed[:25])
    assert not report, "\n".join(report)


def _sample(target: str) -> list[tuple[Entry, str]]:
    """Up to three refused pairs and one valid pair for ``target`` (first in corpus order)."""
    outcomes = all_outcomes()
    refused = [e for e in corpus() if outcomes[(e.key, target)].kind == "refused"][:3]
    valid = [e for e in corpus() if outcomes[(e.key, target)].kind in ("valid", "repaired")][:1]
    return [(e, "refused") for e in refused] + [(e, "valid") for e in valid]


@pytest.mark.parametrize("target", ["openai", "gemini", "anthropic", "mcp"])
def test_convert_cli_exits_2_with_a_message_on_refusal_and_0_with_the_output(target: str, tmp_path: Path) -> None:
    for i, (entry, kind) in enumerate(_sample(target)):
        path = tmp_path / f"{i}.json"
        path.write_text(json.dumps(entry.document(), ensure_ascii=False), encoding="utf-8")
        run = subprocess.run([sys.executable, "-m", "toolcast.server.cli", "convert", str(path), "--to", target,
                              "--from", entry.load_shape], capture_output=True, text=True, timeout=60)
        if kind == "refused":
            assert run.returncode == 2 and run.stderr.strip(), (entry.key, run.returncode, run.stderr)
            assert not run.stdout.strip(), (entry.key, run.stdout[:200])
        else:
            assert run.returncode == 0, (entry.key, run.stderr)
            tool = load(entry).tool
            assert tool is not None
            assert json.loads(run.stdout) == convert(tool.tool, target).output, entry.key


# The harness's own rules, on outputs written to break exactly one rule each.

def _openai(params: object, desc: str = "d", strict: bool = True) -> dict[str, object]:
    return {"type": "function", "function": {"name": "t", "description": desc, "parameters": params, "strict": strict}}


CLOSED = {"type": "object", "properties": {}, "required": [], "additionalProperties": False}


@pytest.mark.parametrize("target,out,reason", [
    ("openai", _openai(CLOSED), None),
    ("openai", _openai(CLOSED, desc="x" * 1025), "description over 1,024 characters"),
    ("openai", _openai({"type": "object", "properties": {"a": {"type": "string"}}, "required": []}),
     "openai strict: object not closed with additionalProperties false"),
    ("openai", _openai({**CLOSED, "properties": {"a": {"type": "dict"}}, "required": ["a"]}),
     "type is not a JSON Schema type"),
    ("openai", _openai({**CLOSED, "properties": {"a": {"$ref": "#/$defs/x"}}, "required": ["a"]}),
     "$ref does not resolve"),
    ("openai", _openai({**CLOSED, "required": ["a"]}, strict=False),
     "closed object requires a property it does not define (accepts nothing)"),
    ("openai", _openai({**CLOSED, "properties": {"a": {"type": "array"}}, "required": ["a"]}), "array without items"),
    ("gemini", {"name": "t", "parameters": {"type": "OBJECT", "properties": {"a": {
        "anyOf": [{"type": "STRING"}], "description": "d"}}}}, "gemini: anyOf with sibling fields"),
    ("gemini", {"name": "t", "parameters": {"type": "OBJECT", "properties": {"a": {"type": "OBJECT"}}}},
     "gemini: OBJECT without properties"),
    ("gemini", {"name": "t", "parameters": {"type": "OBJECT", "properties": {"a": {"description": "d"}}}},
     "gemini: node without type"),
    ("anthropic", {"name": "a.b", "input_schema": {"type": "object"}}, "name does not match the provider's pattern"),
    ("anthropic", {"name": "t", "input_schema": {"type": "object", "properties": {"n": {
        "type": "number", "minimum": 0, "exclusiveMinimum": True}}}}, "not a valid Draft202012 schema"),
    ("mcp", {"name": "t", "inputSchema": {"type": "object", "properties": {"s": {"type": "string"}}}}, None),
])
def test_the_harness_rules(target: str, out: dict[str, object], reason: str | None) -> None:
    found = [cls for cls, _ in problems(target, out)]
    assert (reason in found) if reason else not found, found


def test_known_invalid_keys_name_corpus_pairs() -> None:
    keys = {pair_key(e.key, t) for e in corpus() for t in TARGETS}
    assert set(known_invalid()) <= keys
