"""Request files (TC8xx) through ``check_document``: the same findings in ``toolcast check`` and the editor."""

from __future__ import annotations

import json

from toolcast.adapters.checks import check_document

TOOL = {"name": "get_weather", "description": "Current weather.", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}


def _codes(value: dict[str, object]) -> list[tuple[str, str, str]]:
    text = json.dumps(value, indent=2)
    report = check_document(text)
    wanted = [f for f in report.findings if f.code.startswith(("TC8", "TC004"))]
    return [(f.code, f.pointer, text[f.span[0] : f.span[1]]) for f in wanted]


def test_tool_calls_results_and_arguments_are_checked() -> None:
    value = {"model": "claude-sonnet-4-5", "tools": [TOOL], "messages": [
        {"role": "assistant", "content": [
            {"type": "tool_call", "id": "c1", "name": "get_weather", "arguments": {"city": 5}},
            {"type": "tool_call", "id": "c2", "name": "get_time", "arguments": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "call_id": "c9", "content": "?"}]}]}
    assert _codes(value) == [
        ("TC807", "/messages/0/content/0/id", '"c1"'),  # answered by no result in the next message
        ("TC805", "/messages/0/content/0/arguments/city", "5"),
        ("TC807", "/messages/0/content/1/id", '"c2"'),
        ("TC802", "/messages/0/content/1/name", '"get_time"'),
        ("TC803", "/messages/1/content/0/call_id", '"c9"'),
    ]


def test_shape_errors_and_unknown_thinking_models() -> None:
    assert _codes({"model": "m", "messages": [{"role": "system", "content": "x"}]}) == [
        ("TC801", "/messages/0/role", '"system"')]
    assert _codes({"model": "claude-2", "thinking": "high", "messages": []}) == [("TC804", "/thinking", '"high"')]
    assert _codes({"model": "claude-sonnet-4-5", "thinking": "high", "messages": []}) == []  # and not TC004


def test_request_tools_get_the_tool_checks() -> None:
    bad_tool = {"name": "get weather", "parameters": {"type": "object", "required": ["x"]}}
    text = json.dumps({"model": "m", "tools": [bad_tool], "messages": []})
    codes = {f.code for f in check_document(text).findings}
    assert "TC203" in codes  # the name: a tool-level check on a tool inside the request


def test_tools_in_a_request_are_not_duplicate_definitions() -> None:
    from toolcast.adapters.checks import CheckConfig, check_names_across, summarize_document

    tool_file = json.dumps(TOOL)
    request = json.dumps({"model": "m", "tools": [TOOL], "messages": []})
    for summarize in (check_document, summarize_document):
        reports = {"a.tool.json": check_document(tool_file), "chat.request.json": summarize(request)}
        assert all(not found for found in check_names_across(reports, CheckConfig()).values())
    twice = {"a.tool.json": check_document(tool_file), "b.tool.json": check_document(tool_file)}
    assert check_names_across(twice, CheckConfig())["b.tool.json"]  # real duplicates are still found
