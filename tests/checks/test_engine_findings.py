"""The check engine (``adapters/checks/engine.py``) field by field: where each file-level finding is placed,
what it says, which tool it is attributed to, what it relates to, and how the configuration changes it.
Every expected value is written out by hand from the text of the document (issue 17: each test here
was written against a surviving mutant of the engine)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import span_of
from toolcast.adapters.checks import (
    Analyzer,
    CheckConfig,
    ConfigProblem,
    Finding,
    Fix,
    Related,
    Severity,
    TextEdit,
    ToolSummary,
    check_document,
    engine,
    summarize_document,
)
from toolcast.adapters.checks.engine import DocView, config_findings

EMPTY = {"type": "object", "properties": {}}


def _fields(f: Finding) -> tuple[Any, ...]:
    return (f.code, f.severity, f.message, f.pointer, f.span, f.target, f.tool_index, f.tool_name, f.related,
            f.data)


def _of(text: str, code: str, config: CheckConfig | None = None) -> list[tuple[Any, ...]]:
    return [_fields(f) for f in check_document(text, config=config).findings if f.code == code]


def test_a_duplicate_key_is_on_the_repeated_key_and_remembers_the_first() -> None:
    text = '{"name": "a", "name": "b", "description": "x", "parameters": {"type": "object", "properties": {}}}'
    assert _of(text, "TC002") == [
        ("TC002", Severity.WARNING, "duplicate key `name`; only the last value counts", "/name", (14, 20), None, 0,
         "b", (), {"span": (14, 20), "first": (1, 7), "rule": "duplicate-key"}),
    ]
    assert span_of(text, '"name"', 1) == (14, 20)


def test_a_repeated_name_and_a_name_colliding_after_sanitising_point_at_the_first() -> None:
    text = ('[{"name": "a.b", "description": "x"}, {"name": "a/b", "description": "y"}, '
            '{"name": "a.b", "description": "z"}]')
    config = CheckConfig(targets=("openai", "anthropic"))
    first, second, third = span_of(text, '"a.b"'), span_of(text, '"a/b"'), span_of(text, '"a.b"', 1)
    # The third tool repeats the first's name: a duplicate, not a collision (same name before sanitising); an
    # error for the targets that reject the request (convert refuses the list there).
    assert _of(text, "TC201", config) == [
        ("TC201", Severity.ERROR, "duplicate tool name 'a.b': rejected by Anthropic", "/2/name", third, "anthropic",
         2, "a.b", (Related(None, "/0/name", "first defined here", first),),
         {"targets": ["anthropic"], "rule": "duplicate-name"}),
    ]
    # One finding per colliding tool, naming every target where it collides; an error for those that reject it.
    assert _of(text, "TC205", config) == [
        ("TC205", Severity.ERROR, "'a/b' and 'a.b' both become 'a_b' for OpenAI Chat Completions, Anthropic: "
         "rejected by Anthropic", "/1/name", second, "anthropic", 1, "a/b",
         (Related(None, "/0/name", "'a.b' also becomes 'a_b'", first),),
         {"targets": ["anthropic"], "sanitised": "a_b", "rule": "name-collision-after-sanitising"}),
    ]


def test_names_only_collide_for_the_targets_that_sanitise_them() -> None:
    text = '[{"name": "a.b", "description": "x"}, {"name": "a_b", "description": "y"}]'
    assert _of(text, "TC205", CheckConfig(targets=("mcp",))) == []  # MCP accepts `.`
    (hit,) = _of(text, "TC205", CheckConfig(targets=("mcp", "mistral")))
    assert hit[2] == "'a_b' and 'a.b' both become 'a_b' for Mistral: the model cannot tell them apart"
    assert hit[5] == "mistral" and hit[1] == Severity.WARNING  # Mistral takes the list
    assert hit[4] == span_of(text, '"a_b"')


def test_a_document_without_tools_is_reported_once_on_the_whole_text() -> None:
    text = '{"foo": 1}'
    assert [_fields(f) for f in check_document(text).findings] == [
        ("TC004", Severity.WARNING,
         'no tool definition found (expected a tool, a list of tools, {"tools": [...]} or a provider\'s tool shape)',
         "", (0, 10), None, None, None, (), {"rule": "not-a-tool-file"}),
    ]
    report = check_document(text)
    assert (report.tools, report.is_tool_file, report.is_request, report.pending) == ((), False, False, 0)


def test_a_syntax_error_is_not_also_a_missing_tool() -> None:
    text = '{"foo": 1'
    assert [_fields(f) for f in check_document(text).findings] == [
        ("TC001", Severity.ERROR, "`}` expected", "", (0, 1), None, None, None, (), {}),
    ]


def _strict(name: str, properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    parameters: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required is not None:
        parameters["required"] = required
    return {"name": name, "description": "d", "parameters": parameters,
            "x-toolcast": {"targets": {"anthropic": {"strict": True}}}}


ANTHROPIC = CheckConfig(targets=("anthropic",))


def test_the_strict_optional_budget_is_reported_where_it_is_crossed() -> None:
    tools = [_strict("a", {f"o{i}": {"type": "string"} for i in range(24)}),
             _strict("b", {"u": {"type": "string"}, "o": {"type": "string"}}, ["u"])]
    text = json.dumps(tools)
    assert _of(text, "TC606", ANTHROPIC) == [
        ("TC606", Severity.ERROR,
         "Anthropic strict: 25 optional parameters so far across strict tools (at most 24 per request)",
         "/1/parameters", span_of(text, '"parameters"', 1), "anthropic", 1, "b", (),
         {"rule": "anthropic-strict-optional"}),
    ]
    # 24 optional parameters in all: within the budget.
    assert _of(json.dumps(tools[:1]), "TC606", ANTHROPIC) == []
    # A third tool over the budget again: reported once, where it was first crossed.
    text = json.dumps([*tools, _strict("c", {"p": {"type": "string"}})])
    assert [hit[3] for hit in _of(text, "TC606", ANTHROPIC)] == ["/1/parameters"]


def test_the_strict_union_budget_is_reported_where_it_is_crossed() -> None:
    def unions(name: str, n: int) -> dict[str, Any]:
        names = [f"{name}{i}" for i in range(n)]
        return _strict(name, {k: {"type": ["string", "null"]} for k in names}, names)

    text = json.dumps([unions("a", 16), unions("b", 1)])
    assert _of(text, "TC607", ANTHROPIC) == [
        ("TC607", Severity.ERROR,
         "Anthropic strict: 17 union-typed parameters so far across strict tools (at most 16 per request)",
         "/1/parameters", span_of(text, '"parameters"', 1), "anthropic", 1, "b", (),
         {"rule": "anthropic-strict-unions"}),
    ]
    assert _of(json.dumps([unions("a", 16)]), "TC607", ANTHROPIC) == []
    # Tools that are not strict count for nothing, before or after the strict ones.
    loose = {"name": "l", "description": "d", "parameters": {"type": "object", "properties": {
        f"l{i}": {"type": ["string", "null"]} for i in range(20)}}}
    assert _of(json.dumps([loose, unions("a", 16), loose]), "TC607", ANTHROPIC) == []


def test_the_strict_tool_count_is_reported_on_the_first_tool_over_it() -> None:
    tools = [_strict(f"t{i}", {}) for i in range(22)]
    text = json.dumps(tools)
    assert _of(text, "TC605", ANTHROPIC) == [
        ("TC605", Severity.ERROR, "Anthropic strict: more than 20 strict tools in one request", "/20",
         span_of(text, json.dumps(tools[20])), "anthropic", 20, "t20", (), {"rule": "anthropic-strict-tools"}),
    ]
    # The budgets are Anthropic's: another target's file has no such finding.
    codes = {f.code for f in check_document(text, config=CheckConfig(targets=("openai",))).findings}
    assert not codes & {"TC605", "TC606", "TC607"}


def test_the_function_count_is_reported_once_on_the_first_function_over_it() -> None:
    tools = [{"name": f"f{i}", "description": "d", "parameters": {"type": "object", "properties": {
        "a": {"type": "string"}}}} for i in range(514)]
    text = json.dumps(tools)
    # gemini and gemini-json share the limit: one finding, for the first of them configured.
    config = CheckConfig(targets=("gemini", "gemini-json"))
    assert _of(text, "TC608", config) == [
        ("TC608", Severity.ERROR, "Gemini (parameters): 514 function declarations (at most 512 per request)", "/512",
         span_of(text, json.dumps(tools[512])), "gemini", 512, "f512", (), {"rule": "gemini-function-count"}),
    ]


def test_a_configured_severity_changes_a_file_level_finding_and_none_removes_it() -> None:
    tool = {"name": "a", "description": "d", "parameters": EMPTY}
    text = json.dumps([tool, tool])
    warned = CheckConfig(targets=("mcp",), severities={"TC201": Severity.WARNING})
    assert [(f[0], f[1], f[3]) for f in _of(text, "TC201", warned)] == [("TC201", Severity.WARNING, "/1/name")]
    assert _of(text, "TC201", CheckConfig(targets=("mcp",), severities={"TC201": None})) == []
    assert _of(text, "TC201", CheckConfig(targets=("mcp",), ignore=("TC2",))) == []
    # A warning where the list is sent (MCP); configured, the configured severity.
    assert [f[1] for f in _of(text, "TC201", CheckConfig(targets=("mcp",)))] == [Severity.WARNING]
    raised = CheckConfig(targets=("mcp",), severities={"TC2": Severity.ERROR})
    assert [f[1] for f in _of(text, "TC201", raised)] == [Severity.ERROR]


def test_a_configured_severity_changes_a_syntax_finding_and_none_removes_it() -> None:
    text = '{"name": "a" "description": "x"}'
    config = CheckConfig(severities={"TC001": Severity.WARNING})
    assert [(f.code, f.severity, f.span) for f in check_document(text, config=config).findings
            if f.code == "TC001"] == [("TC001", Severity.WARNING, (12, 13))]
    assert "TC001" not in {f.code for f in check_document(text, config=CheckConfig(ignore=("TC001",))).findings}


def test_findings_are_sorted_by_span_then_code_then_target() -> None:
    text = '[{"name": "a.b", "description": "x"}]'
    found = check_document(text, config=CheckConfig(targets=("openai", "anthropic", "mistral"))).findings
    keys = [(f.span, f.code, f.target or "") for f in found]
    assert keys == sorted(keys) and len(keys) > 2
    # Same span: TC203 (no target) before TC204 (openai).
    on_name = [(f.code, f.target) for f in found if f.span == span_of(text, '"a.b"')]
    assert on_name == [("TC203", None), ("TC204", "openai")]


def test_configuration_problems_are_findings_at_the_start_of_the_document() -> None:
    problems = [ConfigProblem("a/toolcast.toml", "targets", "bad target", "TC701"),
                ConfigProblem("b.toml", "x", "m", "TC999")]  # an unknown code: a bad value
    assert config_findings(problems) == [
        Finding("TC701", Severity.ERROR, "a/toolcast.toml: bad target", "", (0, 0),
                data={"source": "a/toolcast.toml", "key": "targets", "rule": "config-unknown-key"}),
        Finding("TC702", Severity.ERROR, "b.toml: m", "", (0, 0),
                data={"source": "b.toml", "key": "x", "rule": "config-bad-value"}),
    ]


def test_a_summary_lists_the_tools_with_a_shape_and_their_names() -> None:
    text = '[{"name": "a", "parameters": {}}, {"foo": 1}, {"type": "function", "function": {"name": 3}}]'
    report = summarize_document(text)
    assert report.tools == (
        ToolSummary(0, "a", "/0", (1, 32), (10, 13), "canonical"),
        ToolSummary(2, None, "/2", (46, 91), None, "openai"),
    )
    assert (report.findings, report.is_tool_file, report.is_request) == ((), True, False)
    empty = summarize_document('{"foo": 1}')
    assert (empty.tools, empty.is_tool_file) == ((), False)


def test_an_oversized_document_is_summarised_as_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    text = '{"name": "abc", "parameters": {}}'
    monkeypatch.setattr(engine, "MAX_TEXT", len(text))  # at the limit: checked
    assert [t.name for t in summarize_document(text).tools] == ["abc"]
    assert [t.name for t in check_document(text).tools] == ["abc"]
    longer = '{"name": "abcd", "parameters": {}}'
    summary = summarize_document(longer)
    assert (summary.findings, summary.tools, summary.is_tool_file) == ((), (), False)
    report = check_document(longer)
    assert [_fields(f) for f in report.findings] == [
        ("TC003", Severity.ERROR, f"document is {len(longer)} characters; toolcast checks at most {len(text)}", "",
         (0, 1), None, None, None, (), {"severity": "error", "rule": "document-too-large"}),
    ]
    assert (report.tools, report.is_tool_file) == ((), False)


def test_an_oversized_document_says_its_size_with_thousands_separators(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "MAX_TEXT", 1000)
    (finding,) = check_document(" " * 1234).findings
    assert finding.message == "document is 1,234 characters; toolcast checks at most 1,000"


def test_the_default_size_limit() -> None:
    assert engine.MAX_TEXT == 32_000_000


def test_a_request_summary_says_it_is_a_request() -> None:
    request = {"model": "m", "messages": [{"role": "user", "content": "hi"}],
               "tools": [{"type": "function", "function": {"name": "f", "parameters": EMPTY}}]}
    report = summarize_document(json.dumps(request))
    assert report.is_request and [t.name for t in report.tools] == ["f"]
    checked = check_document(json.dumps(request))
    assert checked.is_request and checked.is_tool_file


def test_a_finding_is_placed_on_its_value_its_key_or_its_parent() -> None:
    text = '{"a": {"b": [1, {"c": 2}]}, "d": {}}'
    view = DocView(text, Analyzer().parse(text))
    assert view.place("/a/b/1/c", "value") == ("/a/b/1/c", span_of(text, "2"))
    assert view.place("/a/b/1/c", "key") == ("/a/b/1/c", span_of(text, '"c"'))
    # An array item has no key: its value.
    assert view.place("/a/b/1", "key") == ("/a/b/1", span_of(text, '{"c": 2}'))
    # Missing: on the parent's key, or the parent's `{` when it has none.
    assert view.place("/d/x", "missing") == ("/d", span_of(text, '"d"'))
    assert view.place("/a/b/1/c", "missing") == ("/a/b/1", (16, 17))
    assert view.place("/a", "missing") == ("", (0, 1))
    assert view.place("", "missing") == ("", (0, 1))


def test_a_finding_about_an_absent_member_falls_back_to_the_nearest_ancestor() -> None:
    text = '{"a": {"b": [1, {"c": 2}]}, "d": {}}'
    view = DocView(text, Analyzer().parse(text))
    assert view.span("/a/b/1/zz") is None and view.span("/a/b/1", "key") is None
    assert view.place("/a/b/1/zz", "value") == ("/a/b/1", span_of(text, '{"c": 2}'))
    assert view.place("/a/b/1/zz", "key") == ("/a/b/1", span_of(text, '{"c": 2}'))
    assert view.place("/a/zz/yy", "value") == ("/a", span_of(text, '"a"'))  # the ancestor's key first
    assert view.place("/zz/yy", "value") == ("", (0, len(text)))
    # Missing under an absent parent: the parent's nearest ancestor.
    items = '[{"x": 1}]'
    view = DocView(items, Analyzer().parse(items))
    assert view.place("/0/q/r", "missing") == ("/0", (1, 9))
    assert view.place("/5", "value") == ("", (0, 10))


def test_a_document_without_a_value_places_everything_at_its_start() -> None:
    assert DocView("", Analyzer().parse("")).place("/a", "value") == ("", (0, 0))
    assert DocView("  ", Analyzer().parse("  ")).place("/a", "value") == ("", (0, 1))
    assert DocView("  ", Analyzer().parse("  ")).place("/a", "missing") == ("", (0, 1))


def test_an_empty_syntax_error_is_widened_to_one_character_when_there_is_one() -> None:
    assert [(f.code, f.span, f.message) for f in check_document("  ").findings] == [
        ("TC001", (0, 1), "empty document: expected a JSON value")]
    assert [(f.code, f.span, f.message) for f in check_document("").findings] == [
        ("TC001", (0, 0), "empty document: expected a JSON value")]
    text = '{"name": "a"} x'
    assert [(f.code, f.span) for f in check_document(text).findings if f.code == "TC001"] == [("TC001", (14, 15))]


def test_comments_and_trailing_commas_are_accepted_in_jsonc_files_only() -> None:
    text = '{"name": "a", /* c */ "parameters": {"type": "object", "properties": {}},}'
    assert [(f.code, f.span) for f in check_document(text).findings if f.code == "TC001"] == [
        ("TC001", span_of(text, "/* c */")), ("TC001", (72, 73))]  # the trailing comma
    for path in ("a.tool.jsonc", "A.TOOL.JSONC"):
        assert [f.code for f in check_document(text, path=path).findings if f.code == "TC001"] == []
    assert [f.code for f in check_document(text, path="a.tool.json").findings if f.code == "TC001"] == [
        "TC001", "TC001"]


def test_a_parse_of_the_other_dialect_is_not_reused() -> None:
    text = '{"name": "a", /* c */ "parameters": {"type": "object", "properties": {}}}'
    analyzer = Analyzer()
    strict = analyzer.parse(text)  # JSON: the comment is an error
    report = check_document(text, path="a.tool.jsonc", parsed=strict, analyzer=analyzer)
    assert [f.code for f in report.findings if f.code == "TC001"] == []
    loose = analyzer.parse(text, jsonc=True)
    report = check_document(text, path="a.tool.json", parsed=loose, analyzer=analyzer)
    assert [f.code for f in report.findings if f.code == "TC001"] == ["TC001"]


def test_file_references_resolve_from_the_configuration_folder_first(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "conf" / "common.json").write_text('{"$defs": {"City": {"type": "string"}}}', encoding="utf-8")
    text = json.dumps({"name": "t", "description": "d", "parameters": {"type": "object", "properties": {
        "a": {"$ref": "common.json#/$defs/City"}}}})
    doc = str(tmp_path / "docs" / "x.tool.json")
    from_config = CheckConfig(source=str(tmp_path / "conf" / "toolcast.toml"))
    assert [f.code for f in check_document(text, path=doc, config=from_config).findings if f.code == "TC303"] == []
    assert [f.code for f in check_document(text, path=doc).findings if f.code == "TC303"] == ["TC303"]
    # The document's own folder when there is no configuration file.
    beside = str(tmp_path / "conf" / "x.tool.json")
    assert [f.code for f in check_document(text, path=beside).findings if f.code == "TC303"] == []
    assert [f.code for f in check_document(text).findings if f.code == "TC303"] == ["TC303"]


def test_a_document_level_finding_belongs_to_the_tool_around_it_if_any() -> None:
    text = ('{"x": 1, "x": 2, "tools": [{"name": "a", "description": "d", "parameters": {"type": "object", '
            '"properties": {}, "required": [], "required": []}}]}')
    found = [(f.pointer, f.span, f.tool_index, f.tool_name, f.data) for f in check_document(
        text, config=CheckConfig(targets=("mcp",))).findings if f.code == "TC002"]
    assert found == [
        ("/x", (9, 12), None, None, {"span": (9, 12), "first": (1, 4), "rule": "duplicate-key"}),
        ("/tools/0/parameters/required", span_of(text, '"required"', 1), 0, "a",
         {"span": span_of(text, '"required"', 1), "first": span_of(text, '"required"'), "rule": "duplicate-key"}),
    ]


def test_tools_left_pending_by_a_spent_budget_are_listed_with_their_names() -> None:
    tools = [{"type": "function", "function": {"name": "f", "parameters": EMPTY}},
             {"name": 3, "description": "d", "parameters": EMPTY},
             {"name": "g", "description": "d", "input_schema": EMPTY}]
    text = json.dumps(tools)
    analyzer = Analyzer()
    partial = check_document(text, budget=0.0, analyzer=analyzer)
    assert partial.pending == 3 and partial.blocks == ()
    assert partial.tools == (
        ToolSummary(0, "f", "/0", span_of(text, json.dumps(tools[0])), span_of(text, '"f"'), "openai"),
        ToolSummary(1, None, "/1", span_of(text, json.dumps(tools[1])), None, "canonical"),
        ToolSummary(2, "g", "/2", span_of(text, json.dumps(tools[2])), span_of(text, '"g"'), "anthropic"),
    )
    assert partial.resume is not None and partial.resume(60.0) == 0
    # What `resume` checked is found again: no budget is needed any more.
    done = check_document(text, budget=0.0, analyzer=analyzer)
    cold = check_document(text)
    assert (done.pending, done.resume, done.findings, done.tools, done.blocks) == (
        0, None, cold.findings, cold.tools, cold.blocks)
    assert done.findings  # the comparison is not between two empty reports


def test_a_budget_that_is_not_spent_leaves_nothing_pending() -> None:
    text = json.dumps([{"name": f"t{i}", "description": "d", "parameters": EMPTY} for i in range(5)])
    report = check_document(text, budget=60.0)
    cold = check_document(text)
    assert (report.pending, report.resume, report.findings, report.tools) == (0, None, cold.findings, cold.tools)


def test_resume_checks_the_pending_tools_in_order_within_its_budget() -> None:
    text = json.dumps([{"name": f"t{i}", "description": "d", "parameters": EMPTY} for i in range(4)])
    analyzer = Analyzer()
    partial = check_document(text, budget=0.0, analyzer=analyzer)
    assert partial.pending == 4 and partial.resume is not None
    assert partial.resume(-1.0) == 4  # a spent budget checks nothing
    assert partial.resume(60.0) == 0


def _function(name: str) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": "d", "parameters": EMPTY}}


def test_every_name_colliding_with_the_first_points_at_the_first_inside_wrapped_tools() -> None:
    text = json.dumps([_function("a.b"), _function("a/b"), _function("a:b"), _function("a.b")])
    found = check_document(text, config=CheckConfig(targets=("openai", "mistral"))).findings
    first = Related(None, "/0/function/name", "'a.b' also becomes 'a_b'", span_of(text, '"a.b"'))
    data = {"targets": ["openai", "mistral"], "sanitised": "a_b", "severity": "warning",
            "rule": "name-collision-after-sanitising"}
    apart = ": the model cannot tell them apart"  # both targets take the list: warnings
    assert [_fields(f) for f in found if f.code in ("TC201", "TC205")] == [
        ("TC205", Severity.WARNING, "'a/b' and 'a.b' both become 'a_b' for OpenAI Chat Completions, Mistral" + apart,
         "/1/function/name", span_of(text, '"a/b"'), "openai", 1, "a/b", (first,), data),
        ("TC205", Severity.WARNING, "'a:b' and 'a.b' both become 'a_b' for OpenAI Chat Completions, Mistral" + apart,
         "/2/function/name", span_of(text, '"a:b"'), "openai", 2, "a:b", (first,), data),
        ("TC201", Severity.WARNING, "duplicate tool name 'a.b'" + apart, "/3/function/name",
         span_of(text, '"a.b"', 1), "openai", 3, "a.b",
         (Related(None, "/0/function/name", "first defined here", span_of(text, '"a.b"')),),
         {"targets": ["openai", "mistral"], "severity": "warning", "rule": "duplicate-name"}),
    ]


def test_the_first_fix_is_the_preferred_one_and_the_others_follow() -> None:
    text = json.dumps({"name": "a", "description": "d", "parameters": {
        "type": "object", "properties": {"n": {"type": "string"}}, "required": ["n", "ghost"]}})
    (found,) = [f for f in check_document(text, config=CheckConfig(targets=("mcp",))).findings if f.code == "TC302"]
    assert (found.pointer, found.span, found.tool_index, found.tool_name) == (
        "/parameters/required/1", span_of(text, '"ghost"'), 0, "a")
    assert found.fix == Fix("Remove `ghost` from `required`", (TextEdit(span_of(text, ', "ghost"')[0],
                                                                         span_of(text, '"ghost"')[1], ""),))
    assert found.fixes == (Fix("Define property `ghost` (as a string)", (TextEdit(
        span_of(text, '"string"}')[1], span_of(text, '"string"}')[1], ', "ghost": {"type": "string"}'),)),)


def test_an_edit_of_another_document_does_not_reuse_the_last_run_of_the_file() -> None:
    """The last run of the file is reused only for a re-parse of the very document it checked."""
    def tools(names: list[str]) -> str:
        return json.dumps([{"name": n, "description": "d", "parameters": EMPTY} for n in names], indent=2)

    analyzer = Analyzer()
    first = tools(["a", "b b", "c"])
    check_document(first, parsed=analyzer.parse(first), analyzer=analyzer)
    other = analyzer.parse(tools(["a", "b", "c.c"]))  # never checked: not the file's last run
    assert other.value is not None  # its value built, so that the re-parse patches it
    at = other.text.index('"d"') + 1
    edited = analyzer.reparse(other, at, at, "Q")  # inside the first tool
    assert edited.value_patched and edited.changed_pointer is not None
    warm = check_document(edited.text, parsed=edited, analyzer=analyzer)
    assert analyzer.edited_runs == 0
    cold = check_document(edited.text)
    assert (warm.findings, warm.tools) == (cold.findings, cold.tools)
    assert [f.tool_index for f in warm.findings if f.code == "TC203"] == [2]


def _edit_half_typed_tool(old: str, new: str) -> tuple[Analyzer, Any, Any]:
    """A file whose second tool is half-typed (``{"name": "b"}``: no shape, but a tool field), then an edit
    inside that tool: (analyzer, warm report, cold report)."""
    text = json.dumps([{"name": "a", "description": "d", "parameters": EMPTY}, {"name": "b"}], indent=2)
    analyzer = Analyzer()
    doc = analyzer.parse(text)
    check_document(text, config=CheckConfig(targets=("mcp",)), parsed=doc, analyzer=analyzer)
    at = text.index(old, text.index('"b"') - 8)
    doc = analyzer.reparse(doc, at, at + len(old), new)
    warm = check_document(doc.text, config=CheckConfig(targets=("mcp",)), parsed=doc, analyzer=analyzer)
    return analyzer, warm, check_document(doc.text, config=CheckConfig(targets=("mcp",)))


def test_an_edit_inside_a_half_typed_tool_reuses_the_other_tools() -> None:
    analyzer, warm, cold = _edit_half_typed_tool('"b"', '"bQ"')
    assert analyzer.edited_runs == 1
    assert (warm.findings, warm.tools) == (cold.findings, cold.tools)
    assert [(t.index, t.name, t.shape) for t in warm.tools] == [(0, "a", "canonical"), (1, "bQ", None)]


def test_an_edit_that_leaves_no_tool_field_is_a_full_run() -> None:
    analyzer, warm, cold = _edit_half_typed_tool('"name"', '"nam"')
    assert analyzer.edited_runs == 0
    assert (warm.findings, warm.tools) == (cold.findings, cold.tools)
    assert [t.name for t in warm.tools] == ["a"]


def test_tools_without_a_name_are_neither_duplicates_nor_collisions() -> None:
    text = json.dumps([{"name": 3, "description": "d", "parameters": EMPTY},
                       {"name": 3, "description": "d", "parameters": EMPTY}])
    codes = {f.code for f in check_document(text, config=CheckConfig(targets=("openai", "mistral"))).findings}
    assert not codes & {"TC201", "TC205"}


def test_only_toolcasts_tool_schema_marks_a_file_without_tools_as_a_tool_file() -> None:
    for schema, is_tool_file in (("urn:toolcast:tool.schema.json", True),
                                 ("../node_modules/toolcast/schemas/tool.schema.json", True),
                                 ("urn:toolcast:config.schema.json", False),
                                 ("https://example.com/tool.schema.json", False), (3, False)):
        report = check_document(json.dumps({"$schema": schema}))
        assert (report.is_tool_file, [f.code for f in report.findings]) == (
            is_tool_file, [] if is_tool_file else ["TC004"]), schema
