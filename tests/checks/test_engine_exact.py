"""The check engine (``adapters/checks/engine.py``), second round (issue 17's mutation review of the functions
the first run never reached: ``run_summary``, ``run_document``, ``_document_checks``, ``_finish`` and the
reuse of the last run after an edit). Every expected value is written out by hand from the document's text:
offsets are counted on the text (``span_of``) or spelled out where the text is short enough to count."""

from __future__ import annotations

import json
from typing import Any

from helpers import span_of
from toolcast.adapters.checks import Analyzer, CheckConfig, ToolSummary, check_document

EMPTY = {"type": "object", "properties": {}}


# -- run_summary -------------------------------------------------------------------------------------------


def test_a_summary_parses_a_jsonc_file_as_jsonc_and_keeps_the_parse_for_the_check() -> None:
    text = '[{"name": "a", /* c */ "parameters": {}},]'
    analyzer = Analyzer()
    report = analyzer.summarize_document(text, "a.tool.JSONC")
    assert report.tools == (ToolSummary(0, "a", "/0", (1, 40), (10, 13), "canonical"),)
    # Parsed once, as JSONC: the check of the same file that follows finds that parse (no second one).
    assert [d.jsonc for d in analyzer.documents.recent()] == [True]
    checked = analyzer.check_document(text, path="a.tool.JSONC")
    assert [d.jsonc for d in analyzer.documents.recent()] == [True]
    assert [f.code for f in checked.findings if f.code == "TC001"] == []
    # A .json file (or no path) is JSON: a second parse of the same text, the comment an error there.
    for path in ("a.tool.json", None):
        plain = Analyzer()
        assert plain.summarize_document(text, path).tools == report.tools  # the value is recovered alike
        assert [d.jsonc for d in plain.documents.recent()] == [False]


def test_a_summary_detects_shapes_through_the_analyzers_memory() -> None:
    text = json.dumps([{"name": "a", "parameters": EMPTY}, {"foo": 1}])
    analyzer = Analyzer()
    assert [t.name for t in analyzer.summarize_document(text).tools] == ["a"]
    # Both candidates' shapes are remembered (the check of an unchanged tool then never detects it again).
    assert analyzer.sizes()["shapes"] == 2
    assert Analyzer().summarize_document("3").tools == ()


def test_a_summary_lists_a_tool_without_a_name_with_no_name() -> None:
    text = '[{"type": "function", "function": {"parameters": {}}}, {"input_schema": {}}]'
    report = Analyzer().summarize_document(text)
    assert report.tools == (
        ToolSummary(0, None, "/0", (1, 53), None, "openai"),
        ToolSummary(1, None, "/1", (55, 75), None, "anthropic"),
    )
    assert report.is_tool_file


def test_a_summary_names_a_wrapped_tool_from_its_own_name_field() -> None:
    text = '{"tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}]}'
    report = Analyzer().summarize_document(text)
    tool = '{"type": "function", "function": {"name": "f", "parameters": {}}}'
    assert report.tools == (ToolSummary(0, "f", "/tools/0", span_of(text, tool), span_of(text, '"f"'), "openai"),)
    assert (span_of(text, tool), span_of(text, '"f"')) == ((11, 76), (53, 56))
