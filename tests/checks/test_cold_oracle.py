"""The cold oracle is cold: after ``reset_all_caches()`` every tool is checked again, and it knows every
module-level cache of the analysis."""

from __future__ import annotations

import functools
import importlib
import json
import pkgutil
from collections import OrderedDict
from typing import Any

import pytest
import toolcast.adapters
from cold_oracle import fresh_process_findings, reset_all_caches, summary
from toolcast.adapters.checks import CheckConfig, check_document, engine, tool_checks

CONFIG = CheckConfig(targets=("openai", "gemini"))


def _text(n: int) -> str:
    params = {"type": "object", "properties": {"n": {"type": "int"}}, "required": ["n", "ghost"]}
    return json.dumps([{"name": f"cold_{i}", "description": "d", "parameters": params} for i in range(n)], indent=2)


def test_reset_makes_every_tool_checked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[int] = []
    real = tool_checks._ToolChecker.run

    def counted(self: Any) -> Any:
        runs.append(1)
        return real(self)

    monkeypatch.setattr(tool_checks._ToolChecker, "run", counted)
    text = _text(5)
    first = check_document(text, config=CONFIG).findings
    runs.clear()
    assert check_document(text, config=CONFIG).findings == first and len(runs) == 0  # warm: nothing re-checked
    assert engine._SEEN and engine._PLACED and tool_checks._CACHE  # the caches the reset must empty
    reset_all_caches()
    assert not (engine._SEEN or engine._SHAPES or engine._PLACED or engine._DOC_CHECKS or engine._CONTEXTS
                or tool_checks._CACHE)
    cold = check_document(text, config=CONFIG).findings
    assert len(runs) == 5  # cold: every tool checked from its text
    assert cold == first


def test_a_fresh_process_agrees_with_a_reset_process() -> None:
    text = _text(3)
    reset_all_caches()
    here = summary(check_document(text, config=CONFIG).findings)
    assert here == fresh_process_findings(text, {"targets": ["openai", "gemini"]})
    assert any(row[0] == "TC302" for row in here)


def test_every_module_level_cache_is_known() -> None:
    """A new module-level cache must be added to ``reset_all_caches`` (and to this list)."""
    known = {"engine._SEEN", "engine._SHAPES", "engine._PLACED", "engine._DOC_CHECKS", "engine._CONTEXTS",
             "tool_checks._CACHE", "parsed._recent", "validation._load_workspace_file", "providers.profile_text",
             "providers.profile", "thinking._table"}
    found = set()
    for info in pkgutil.walk_packages(toolcast.adapters.__path__, "toolcast.adapters."):
        module = importlib.import_module(info.name)
        short = info.name.rsplit(".", 1)[1]
        for name, value in vars(module).items():
            cached_fn = isinstance(value, functools._lru_cache_wrapper) and value.__module__ == info.name
            mutable_store = isinstance(value, OrderedDict) or name in ("_recent", "_CONTEXTS")
            if cached_fn or mutable_store:
                found.add(f"{short}.{name}")
    assert found == known, (found - known, known - found)
