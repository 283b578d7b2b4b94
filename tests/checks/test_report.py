"""What a checked document's report answers about places: the tool under an offset (hover and the code actions
ask it), and each finding with its 1-based line and column (``toolcast check``'s formats and ``toolcast.check``)."""

from __future__ import annotations

import json

from toolcast.adapters.checks import CheckConfig, ConfigProblem, check_document, located_config, located_in

_TOOLS = [{"name": "a", "description": "d", "parameters": {"type": "object", "properties": {}}},
          {"name": "b", "description": "d", "parameters": {"type": "object", "properties": {}}}]


def test_the_tool_at_an_offset_is_the_one_whose_block_holds_it() -> None:
    text = json.dumps(_TOOLS, indent=1)
    report = check_document(text)
    first, second = report.tools
    assert report.tool_at(first.span[0]) == first and report.tool_at(first.span[1]) == first  # ends included
    assert report.tool_at(second.span[0] + 3) == second
    assert report.tool_at(first.span[1] + 1) is None  # between the two blocks
    assert report.tool_at(0) is None  # the list's bracket
    assert report.tool_at(len(text) + 10) is None


def test_findings_are_located_in_document_order_with_one_based_code_point_positions() -> None:
    text = '[\n {"name": "é é", "description": "d",\n  "parameters": {"type": "object", "properties": {}}}]'
    report = check_document(text, config=CheckConfig(targets=("openai",)))
    findings = list(report.findings)
    assert findings
    located = located_in("tools.json", text, reversed(findings), line_text=True)
    assert [item.finding for item in located] == sorted(findings, key=lambda f: (f.span[0], f.span[1], f.code))
    name = next(item for item in located if item.finding.span[0] == text.index('"é é"'))
    assert (name.path, name.line, name.column, name.end_line) == ("tools.json", 2, 11, 2)
    assert name.end_column == name.column + len('"é é"')
    assert name.line_text == ' {"name": "é é", "description": "d",'
    assert located_in("t.json", text, findings)[0].line_text == ""  # only when asked for


def test_a_configuration_problem_is_located_at_the_start_of_its_file() -> None:
    [item] = located_config([ConfigProblem("toolcast.toml", "targets", "`targets` must be a list of strings")])
    assert (item.path, item.line, item.column, item.end_line, item.end_column) == ("toolcast.toml", 1, 1, 1, 1)
    assert item.finding.code.startswith("TC7") and "toolcast.toml" in item.finding.message
