"""A time budget leaves tools for later calls with the same analyzer, which finish them; the finished
report equals an unbudgeted cold one."""

from __future__ import annotations

import json

from cold_oracle import cold_findings, fresh_process_findings, summary
from toolcast.adapters.checks import Analyzer, check_document


def _text() -> str:
    return json.dumps([{"name": f"t_{i}", "description": "A tool.", "parameters": {
        "type": "object", "properties": {"a": {"type": "string", "pattern": "^x"}}, "required": ["a", "b"]}}
        for i in range(30)], indent=2)


def test_budget_leaves_tools_pending_and_later_calls_finish_them() -> None:
    text = _text()
    analyzer = Analyzer()
    first = check_document(text, budget=0.0, analyzer=analyzer)
    assert first.pending == 30 and len(first.tools) == 30 and not first.blocks
    assert [t.name for t in first.tools][:2] == [json.loads(text)[0]["name"], json.loads(text)[1]["name"]]
    rounds = 0
    report = first
    while report.pending:
        report = check_document(text, budget=0.001, analyzer=analyzer)
        rounds += 1
        assert rounds < 100
    # The reference is cold: a fresh analyzer, one unbudgeted check (the budgeted calls above filled
    # `analyzer`; a warm reference would repeat whatever they got wrong).
    finished = report.findings
    full = cold_findings(text)
    assert report.pending == 0 and finished == full
    codes = {f.code for f in full}
    assert "TC302" in codes and any(c.startswith("TC5") for c in codes)  # a schema finding and a loss
    # Every tool has its findings: TC302 (`b` is required but undefined) once per tool.
    assert sorted(f.tool_index for f in full if f.code == "TC302") == list(range(30))
    assert summary(finished) == fresh_process_findings(text)


def test_resume_finishes_in_the_analyzer_the_check_used() -> None:
    text = _text()
    analyzer = Analyzer()
    first = check_document(text, budget=0.0, analyzer=analyzer)
    assert first.resume is not None
    while first.resume(0.01):
        pass
    done = check_document(text, budget=0.0, analyzer=analyzer)  # everything is remembered: no budget needed
    assert done.pending == 0 and done.findings == cold_findings(text)
    # Without the analyzer the work done is not found: a cold call starts again.
    assert check_document(text, budget=0.0).pending == 30
