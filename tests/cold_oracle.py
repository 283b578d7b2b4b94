"""A cold oracle for the warm-vs-cold and incremental-vs-full comparisons.

Every cache of the analysis belongs to an ``Analyzer`` (``adapters/checks/analyzer.py``) and nothing in
``adapters/`` is remembered at module level (``tests/test_module_state.py``), so a fresh ``Analyzer`` is
cold: ``cold_findings()`` checks with one. ``fresh_process_findings()`` runs the check in a new Python
process instead (nothing shared with the caller at all). ``tests/checks/test_cold_oracle.py`` proves a
fresh analyzer is cold: every tool is checked again."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from toolcast.adapters.checks import Analyzer, CheckConfig, DocumentReport, check_document


def cold_report(text: str, config: CheckConfig | None = None, **kwargs: Any) -> DocumentReport:
    """The report of ``text`` from a fresh ``Analyzer`` (thrown away afterwards)."""
    return check_document(text, config=config, analyzer=Analyzer(), **kwargs)


def cold_findings(text: str, config: CheckConfig | None = None, **kwargs: Any) -> tuple[Any, ...]:
    """The findings of ``text`` computed from nothing but the text."""
    return cold_report(text, config, **kwargs).findings


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
    process: nothing this process remembered can answer."""
    done = subprocess.run([sys.executable, "-c", _SCRIPT], input=json.dumps([text, config or {}]),
                          capture_output=True, text=True, timeout=120, check=True)
    result: list[list[Any]] = json.loads(done.stdout)
    return result


def summary(findings: tuple[Any, ...]) -> list[list[Any]]:
    """The same fields as ``fresh_process_findings`` returns, for findings computed here."""
    return [[f.code, f.pointer, list(f.span), f.target, f.tool_index, f.message] for f in findings]
