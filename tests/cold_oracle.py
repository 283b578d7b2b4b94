"""A cold oracle for the warm-vs-cold and incremental-vs-full comparisons.

``reset_all_caches()`` empties every module-level cache the analysis keeps, so the next check computes
everything from the text; ``cold_check()`` runs the check in a fresh Python process instead (nothing
shared with the caller at all). ``tests/checks/test_cold_oracle.py`` proves the reset is cold: after it,
every tool is checked again."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from toolcast.adapters import providers
from toolcast.adapters.checks import CheckConfig, check_document, engine, tool_checks, validation
from toolcast.adapters.document import parsed
from toolcast.adapters.messages import thinking

#: Every module-level cache of the analysis, by name (the test of this module checks that the list covers
#: every ``OrderedDict``/``dict`` cache and ``functools`` cache it knows of).
CACHES = (
    "engine._SEEN", "engine._SHAPES", "engine._PLACED", "engine._DOC_CHECKS", "engine._CONTEXTS",
    "tool_checks._CACHE", "parsed._recent", "validation._load_workspace_file", "providers.profile_text",
    "providers.profile", "thinking._table",
)


def reset_all_caches() -> None:
    """Forget everything a previous check remembered."""
    for store in (engine._SEEN, engine._SHAPES, engine._PLACED, engine._DOC_CHECKS, engine._CONTEXTS,
                  tool_checks._CACHE):
        store.clear()
    with parsed._lock:
        parsed._recent.clear()
    validation._load_workspace_file.cache_clear()
    providers.profile_text.cache_clear()
    providers.profile.cache_clear()
    for name in dir(thinking):
        fn = getattr(thinking, name)
        if hasattr(fn, "cache_clear") and getattr(fn, "__module__", "") == thinking.__name__:
            fn.cache_clear()


def cold_findings(text: str, config: CheckConfig | None = None, **kwargs: Any) -> tuple[Any, ...]:
    """The findings of ``text`` computed with every cache empty (the caches are left empty too)."""
    reset_all_caches()
    return check_document(text, config=config, **kwargs).findings


_SCRIPT = """
import json, sys
from toolcast.adapters.checks import CheckConfig, check_document
text, config = json.loads(sys.stdin.read())
cfg = CheckConfig(**{k: tuple(v) if isinstance(v, list) else v for k, v in config.items()}) if config else None
found = check_document(text, config=cfg).findings
out = [[f.code, f.pointer, list(f.span), f.target, f.tool_index, f.message] for f in found]
print(json.dumps(out))
"""


def fresh_process_findings(text: str, config: dict[str, Any] | None = None) -> list[list[Any]]:
    """``(code, pointer, span, target, tool index, message)`` of each finding, computed by a new Python
    process: nothing this process cached can answer."""
    done = subprocess.run([sys.executable, "-c", _SCRIPT], input=json.dumps([text, config or {}]),
                          capture_output=True, text=True, timeout=120, check=True)
    result: list[list[Any]] = json.loads(done.stdout)
    return result


def summary(findings: tuple[Any, ...]) -> list[list[Any]]:
    """The same fields as ``fresh_process_findings`` returns, for findings computed here."""
    return [[f.code, f.pointer, list(f.span), f.target, f.tool_index, f.message] for f in findings]
