"""A time budget leaves tools for later calls, which finish them; the finished report equals an
unbudgeted one."""

from __future__ import annotations

import json
import uuid

from cold_oracle import cold_findings, fresh_process_findings, reset_all_caches, summary
from toolcast.adapters.checks import check_document


def _text() -> str:
    tag = uuid.uuid4().hex[:8]  # tools no other test has checked: nothing is cached yet
    return json.dumps([{"name": f"t_{tag}_{i}", "description": "A tool.", "parameters": {
        "type": "object", "properties": {"a": {"type": "string", "pattern": "^x"}}, "required": ["a", "b"]}}
        for i in range(30)], indent=2)


def test_budget_leaves_tools_pending_and_later_calls_finish_them() -> None:
    text = _text()
    reset_all_caches()
    first = check_document(text, budget=0.0)
    assert first.pending == 30 and len(first.tools) == 30 and not first.blocks
    assert [t.name for t in first.tools][:2] == [json.loads(text)[0]["name"], json.loads(text)[1]["name"]]
    rounds = 0
    report = first
    while report.pending:
        report = check_document(text, budget=0.001)
        rounds += 1
        assert rounds < 100
    # The reference is cold: every cache emptied, then one unbudgeted check (the budgeted calls above
    # filled the caches; a warm reference would repeat whatever they got wrong).
    finished = report.findings
    full = cold_findings(text)
    assert report.pending == 0 and finished == full
    assert {f.code for f in full} >= {"TC302", "TC502"}
    # Every tool has its findings: TC302 (`b` is required but undefined) once per tool.
    assert sorted(f.tool_index for f in full if f.code == "TC302") == list(range(30))
    assert summary(finished) == fresh_process_findings(text)
