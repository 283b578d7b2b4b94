"""Rule texts state the limits the code enforces, taken from their owners: TC003 the document and walk limits,
TC902 and TC903 the consumer profiles' (provider limits: test_provider_limits.py)."""

from __future__ import annotations

from typing import Any

import pytest
from toolcast.adapters.checks import RULES
from toolcast.adapters.consumers import consumer, model_families
from toolcast.adapters.document import MAX_DEPTH, MAX_FILE_BYTES, MAX_TEXT
from toolcast.adapters.rules import codes, quoted
from toolcast.adapters.schema.subschemas import MAX_DEPTH as SCHEMA_DEPTH
from toolcast.adapters.schema.subschemas import MAX_NODES


def test_the_document_too_large_rule_states_the_real_limits() -> None:
    doc = RULES["TC003"].doc
    assert f"at most {MAX_FILE_BYTES:,} bytes of a file" in doc
    assert f"at most {MAX_TEXT:,} characters of a document" in doc
    assert f"the parser stops at {MAX_DEPTH} levels" in doc
    assert f"at {SCHEMA_DEPTH} levels and {MAX_NODES:,} schema nodes per tool" in doc
    assert "10 MB" not in doc


def test_the_consumer_rules_quote_the_consumer_profiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """TC902 and TC903 state the hosts' and model families' limits as their profiles (schemas/consumers) do."""
    gemini_2 = next(f for f in model_families() if f.name == "gemini-2")
    assert quoted.consumer_max("gemini-2", "name-64") == _max(gemini_2.rules, "name-64")
    assert quoted.consumer_max("vscode", "tool-limit") == _max(consumer("vscode").rules, "tool-limit")
    odd = {("vscode", "tool-limit"): 131, ("groq", "tool-limit"): 133, ("xai", "tool-limit"): 207,
           ("claude-code", "prefixed-name"): 61, ("cursor", "combined-name"): 55, ("vscode", "name-cut"): 62,
           ("gemini-2", "name-64"): 67}
    monkeypatch.setattr(codes, "consumer_max", lambda name, rule: odd[(name, rule)])  # what the texts call
    tools, names = RULES["TC902"].doc, RULES["TC903"].doc
    assert "stops at 131 tools, Groq at 133, xAI at 207" in tools and "at most 131 tools" in tools
    assert "over 61 characters" in names and "together reach 56" in names and "silently at 62" in names
    assert "names over 67" in names


def _max(rules: Any, rule_id: str) -> int:
    return int(next(r for r in rules if r.id == rule_id).settings["max"])
