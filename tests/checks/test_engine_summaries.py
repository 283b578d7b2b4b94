"""The check engine (``adapters/checks/engine.py``), second round (issue 17's mutation review of the functions
the first run never reached: ``run_summary``, ``run_document``, ``_document_checks``, ``_finish`` and the
reuse of the last run after an edit). Every expected value is written out by hand from the document's text:
offsets are counted on the text (``span_of``) or spelled out where the text is short enough to count."""

from __future__ import annotations

import json
from typing import Any

from helpers import span_of
from toolcast.adapters.checks import Analyzer, CheckConfig, ToolSummary, check_document, summarize_document

EMPTY = {"type": "object", "properties": {}}


# -- run_summary -------------------------------------------------------------------------------------------


def test_a_summary_parses_a_jsonc_file_as_jsonc_and_keeps_the_parse_for_the_check() -> None:
    text = '[{"name": "a", /* c */ "parameters": {}},]'
    analyzer = Analyzer()
    report = summarize_document(text, "a.tool.JSONC", analyzer=analyzer)
    assert report.tools == (ToolSummary(0, "a", "/0", (1, 40), (10, 13), "canonical"),)
    # Parsed once, as JSONC: the check of the same file that follows finds that parse (no second one).
    assert [d.jsonc for d in analyzer.documents.recent()] == [True]
    checked = check_document(text, path="a.tool.JSONC", analyzer=analyzer)
    assert [d.jsonc for d in analyzer.documents.recent()] == [True]
    assert [f.code for f in checked.findings if f.code == "TC001"] == []
    # A .json file (or no path) is JSON: a second parse of the same text, the comment an error there.
    for path in ("a.tool.json", None):
        plain = Analyzer()
        assert summarize_document(text, path, analyzer=plain).tools == report.tools  # the value is recovered alike
        assert [d.jsonc for d in plain.documents.recent()] == [False]


def test_a_summary_detects_shapes_through_the_analyzers_memory() -> None:
    text = json.dumps([{"name": "a", "parameters": EMPTY}, {"foo": 1}])
    analyzer = Analyzer()
    assert [t.name for t in summarize_document(text, analyzer=analyzer).tools] == ["a"]
    # Both candidates' shapes are remembered (the check of an unchanged tool then never detects it again).
    assert analyzer.sizes()["shapes"] == 2
    assert summarize_document("3").tools == ()


def test_a_summary_lists_a_tool_without_a_name_with_no_name() -> None:
    text = '[{"type": "function", "function": {"parameters": {}}}, {"input_schema": {}}]'
    report = summarize_document(text)
    assert report.tools == (
        ToolSummary(0, None, "/0", (1, 53), None, "openai"),
        ToolSummary(1, None, "/1", (55, 75), None, "anthropic"),
    )
    assert report.is_tool_file


def test_a_summary_names_a_wrapped_tool_from_its_own_name_field() -> None:
    text = '{"tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}]}'
    report = summarize_document(text)
    tool = '{"type": "function", "function": {"name": "f", "parameters": {}}}'
    assert report.tools == (ToolSummary(0, "f", "/tools/0", span_of(text, tool), span_of(text, '"f"'), "openai"),)
    assert (span_of(text, tool), span_of(text, '"f"')) == ((11, 76), (53, 56))


# -- _document_checks ---------------------------------------------------------------------------------------


def _codes(text: str, config: CheckConfig, *codes: str) -> list[tuple[str, str, tuple[int, int], int | None]]:
    return [(f.code, f.pointer, f.span, f.tool_index) for f in check_document(text, config=config).findings
            if f.code in codes]


def test_a_nameless_tool_before_the_others_does_not_hide_their_duplicates_or_collisions() -> None:
    text = json.dumps([{"name": 3, "description": "d", "parameters": EMPTY},
                       {"name": "a.b", "description": "d", "parameters": EMPTY},
                       {"name": "a.b", "description": "d", "parameters": EMPTY},
                       {"name": "a/b", "description": "d", "parameters": EMPTY}])
    assert _codes(text, CheckConfig(targets=("openai",)), "TC201", "TC205") == [
        ("TC201", "/2/name", span_of(text, '"a.b"', 1), 2),
        ("TC205", "/3/name", span_of(text, '"a/b"'), 3),
    ]


def _unions(name: str, n: int, strict: bool = True) -> dict[str, Any]:
    """An Anthropic-shaped tool (its parameters under ``input_schema``) with ``n`` required union-typed
    parameters, strict by its own flag."""
    names = [f"{name}{i}" for i in range(n)]
    tool: dict[str, Any] = {"name": name, "description": "d", "input_schema": {
        "type": "object", "properties": {k: {"type": ["string", "null"]} for k in names}, "required": names,
        "additionalProperties": False}}
    if strict:
        tool["strict"] = True
    return tool


def test_the_strict_budgets_count_only_strict_tools_after_a_loose_one_and_point_at_input_schema() -> None:
    text = json.dumps([_unions("l", 20, strict=False), _unions("a", 16), _unions("b", 1)])
    # The loose first tool counts for nothing; the strict ones cross 16 at the third tool, reported on its
    # parameters' key, which is `input_schema` in Anthropic's shape.
    assert _codes(text, CheckConfig(targets=("anthropic",)), "TC605", "TC606", "TC607") == [
        ("TC607", "/2/input_schema", span_of(text, '"input_schema"', 2), 2),
    ]


def test_the_strict_tool_count_skips_a_loose_tool_before_the_strict_ones() -> None:
    tools = [_unions("l", 0, strict=False)] + [_unions(f"t{i}", 0) for i in range(21)]
    text = json.dumps(tools)
    # 21 strict tools after the loose one: the 21st strict tool is the document's 22nd (/21).
    assert _codes(text, CheckConfig(targets=("anthropic",)), "TC605") == [
        ("TC605", "/21", span_of(text, json.dumps(tools[21])), 21),
    ]
    assert _codes(json.dumps(tools[:21]), CheckConfig(targets=("anthropic",)), "TC605") == []


# -- _finish ------------------------------------------------------------------------------------------------


def test_a_disabled_finding_does_not_stop_the_findings_after_it() -> None:
    # The duplicate key (TC002) is the first file-level finding, the duplicate name (TC201) a later one.
    text = '[{"name": "a", "name": "a", "description": "d"}, {"name": "a", "description": "d"}]'
    config = CheckConfig(targets=("mcp",), ignore=("TC002",))
    assert _codes(text, config, "TC002", "TC201") == [("TC201", "/1/name", (58, 61), 1)]
    assert span_of(text, '"a"', 2) == (58, 61)


# -- _edited_tool: an edit inside one tool reuses the others -----------------------------------------------


def _declaration(name: str) -> dict[str, Any]:
    return {"name": name, "description": "d", "parameters": {"type": "object", "properties": {
        "p": {"type": "string"}}}}


def test_an_edit_inside_a_gemini_declaration_keeps_it_a_gemini_declaration() -> None:
    # A bare {"name": ...} inside `functionDeclarations` is a Gemini declaration (on its own it reads as
    # canonical); the edited run must say so as a cold run does.
    text = json.dumps([{"functionDeclarations": [_declaration("a"), _declaration("b")]}], indent=2)
    config = CheckConfig(targets=("gemini",))
    analyzer = Analyzer()
    doc = analyzer.parse(text)
    first = check_document(text, config=config, parsed=doc, analyzer=analyzer)
    expected = [(0, "a", "/0/functionDeclarations/0", "gemini"), (1, "b", "/0/functionDeclarations/1", "gemini")]
    assert [(t.index, t.name, t.pointer, t.shape) for t in first.tools] == expected
    at = text.index('"b"') + 1
    doc = analyzer.reparse(doc, at, at + 1, "bQ")
    assert (doc.value_patched, doc.changed_pointer) == (True, "/0/functionDeclarations/1")
    warm = check_document(doc.text, config=config, parsed=doc, analyzer=analyzer)
    assert analyzer.edited_runs == 1
    assert [(t.index, t.name, t.pointer, t.shape) for t in warm.tools] == [
        expected[0], (1, "bQ", "/0/functionDeclarations/1", "gemini")]
    cold = check_document(doc.text, config=config)
    assert (warm.findings, warm.tools) == (cold.findings, cold.tools)


# -- _document_checks_cached --------------------------------------------------------------------------------


def test_file_level_results_are_reused_only_for_the_same_tool_pointers(monkeypatch: Any) -> None:
    from toolcast.adapters.checks import engine

    calls: list[int] = []
    real = engine.file_raws

    def counted(facts: Any, config: CheckConfig) -> Any:
        calls.append(len(facts))
        return real(facts, config)

    monkeypatch.setattr(engine, "file_raws", counted)
    tool = {"name": "a", "description": "d", "parameters": EMPTY}
    config = CheckConfig(targets=("mcp",))
    analyzer = Analyzer()
    listed = json.dumps([tool, tool])
    assert _pointers(analyzer, listed, config) == ["/1/name"]
    # An edit that leaves every tool's facts as they were (a description): the last result, not a new one.
    assert _pointers(analyzer, listed.replace('"d"', '"e"', 1), config) == ["/1/name"]
    assert calls == [2]
    # The same facts under other pointers: checked again, and placed there.
    assert _pointers(analyzer, json.dumps({"tools": [tool, tool]}), config) == ["/tools/1/name"]
    assert calls == [2, 2]


def _pointers(analyzer: Analyzer, text: str, config: CheckConfig) -> list[str]:
    return [f.pointer for f in check_document(text, config=config, analyzer=analyzer).findings if f.code == "TC201"]


def test_a_key_repeated_twice_is_reported_on_each_repeat_not_on_the_last() -> None:
    text = ('{"name": "a", "name": "b", "name": "c", "description": "x", '
            '"parameters": {"type": "object", "properties": {}}}')
    # "name" at 1-7, 14-20 and 27-33: each repeat is on its own key and remembers the one before it.
    assert [(f.pointer, f.span, f.data, f.tool_index, f.tool_name) for f in check_document(text).findings
            if f.code == "TC002"] == [
        ("/name", (14, 20), {"span": (14, 20), "first": (1, 7), "rule": "duplicate-key"}, 0, "c"),
        ("/name", (27, 33), {"span": (27, 33), "first": (14, 20), "rule": "duplicate-key"}, 0, "c"),
    ]


def test_a_missing_member_keeps_its_own_pointer_and_is_shown_on_its_parent() -> None:
    text = '[{"name": "a", "parameters": {"type": "object", "properties": {}}}]'
    found = [(f.code, f.pointer, f.span, f.tool_index, f.tool_name, f.message)
             for f in check_document(text, config=CheckConfig(targets=("mcp",))).findings if f.code == "TC103"]
    # The tool is an array item (no key): its `{` at offset 1.
    assert found == [("TC103", "/0/description", (1, 2), 0, "a", "the tool has no `description`")]


# -- _sorted ------------------------------------------------------------------------------------------------


def test_findings_outside_the_tools_blocks_are_sorted_by_where_they_start() -> None:
    tools = [_unions(f"t{i}", 0) for i in range(21)]
    text = json.dumps(tools)
    last = json.dumps(tools[20])
    # The 21st strict tool repeats its `description`: a duplicate key inside the span of TC605.
    repeated = last.replace('"description": "d"', '"description": "d", "description": "d"')
    text = text.replace(last, repeated)
    report = check_document(text, config=CheckConfig(targets=("anthropic",)))
    tool_span = span_of(text, repeated)
    key_span = span_of(text, '"description"', 21)
    assert tool_span[0] < key_span[0] and key_span[1] < tool_span[1]
    # The tool's span starts first (and ends last): it comes first.
    assert [(f.code, f.span) for f in report.outside_tools if f.code in ("TC002", "TC605")] == [
        ("TC605", tool_span), ("TC002", key_span)]


# -- run_document -------------------------------------------------------------------------------------------


def _named(name: str) -> dict[str, Any]:
    return {"name": name, "description": "d", "parameters": EMPTY}


def test_a_tool_recognised_only_by_its_shape_is_checked_as_a_tool() -> None:
    # No `name`, `description` or `parameters`: Gemini's JSON-schema field alone makes it a tool.
    text = '{"parametersJsonSchema": {"type": "object", "properties": {}}}'
    report = check_document(text)
    assert report.tools == (ToolSummary(0, None, "", (0, 62), None, "gemini-json"),)
    assert len(text) == 62 and report.is_tool_file
    assert "TC004" not in {f.code for f in report.findings}


def test_the_parse_a_caller_hands_in_is_used_as_it_is() -> None:
    from toolcast.adapters.document.parsed import reparse

    text = json.dumps([_named("a"), _named("b")], indent=2)
    analyzer = Analyzer()
    doc = analyzer.parse(text)
    check_document(text, parsed=doc, analyzer=analyzer)
    at = text.index('"b"') + 1
    edited = reparse(doc, at, at + 1, "bQ")  # an incremental re-parse the analyzer never saw
    assert edited.value_patched and edited.changed_pointer == "/1"  # the container re-parsed: the tool
    warm = check_document(edited.text, parsed=edited, analyzer=analyzer)
    # Used as handed in: it is a re-parse of the last run's document, so only the edited tool is new.
    assert analyzer.edited_runs == 1
    cold = check_document(edited.text)
    assert (warm.findings, warm.tools) == (cold.findings, cold.tools)
    assert [t.name for t in warm.tools] == ["a", "bQ"]


def test_the_last_run_is_kept_per_file() -> None:
    analyzer = Analyzer()
    first = json.dumps([_named("a"), _named("b")], indent=2)
    doc = analyzer.parse(first)
    check_document(first, path="a.tool.json", parsed=doc, analyzer=analyzer)
    check_document(json.dumps([_named("c")]), path="b.tool.json", analyzer=analyzer)  # another file in between
    at = first.index('"b"') + 1
    doc = analyzer.reparse(doc, at, at + 1, "bQ")
    warm = check_document(doc.text, path="a.tool.json", parsed=doc, analyzer=analyzer)
    assert analyzer.edited_runs == 1  # a.tool.json's own last run, not b.tool.json's
    assert [t.name for t in warm.tools] == ["a", "bQ"]


def test_a_request_files_own_findings_are_reported_with_its_tools() -> None:
    request = {"model": "m", "tools": [_named("f")], "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "tool_call", "id": "c1", "name": "g", "arguments": {}}]}]}
    text = json.dumps(request)
    report = check_document(text, config=CheckConfig(targets=("mcp",)))
    assert [(f.code, f.pointer, f.span, f.message, f.tool_index) for f in report.findings if f.code >= "TC8"] == [
        ("TC802", "/messages/1/content/0/name", span_of(text, '"g"'),
         "tool call names 'g', which `tools` does not define", None)]
    assert (report.is_request, report.is_tool_file, [t.name for t in report.tools]) == (True, True, ["f"])


def test_a_tool_starting_where_the_edited_one_ended_moves_with_the_edit() -> None:
    # No comma between the tools (a syntax error): the second starts exactly where the first ends. Each tool
    # is 85 characters long, so the tools are at 1-86 and 86-171, and at 1-87 and 87-172 after one more
    # character in the first one's description. Neither has a finding under MCP: no blocks.
    tool = '{"name": "%s", "description": "d", "parameters": {"type": "object", "properties": {}}}'
    text = "[" + tool % "a" + tool % "b" + "]"
    config = CheckConfig(targets=("mcp",))
    analyzer = Analyzer()
    doc = analyzer.parse(text)
    first = check_document(text, config=config, parsed=doc, analyzer=analyzer)
    assert [(t.name, t.span) for t in first.tools] == [("a", (1, 86)), ("b", (86, 171))]
    assert [(f.code, f.span) for f in first.findings] == [("TC001", (86, 87))]
    assert first.blocks == ()  # checked tools without findings have no block either
    at = text.index('"d"') + 1
    doc = analyzer.reparse(doc, at, at + 1, "dQ")
    warm = check_document(doc.text, config=config, parsed=doc, analyzer=analyzer)
    assert analyzer.edited_runs == 1
    assert [(t.name, t.span, t.name_span) for t in warm.tools] == [
        ("a", (1, 87), (10, 13)), ("b", (87, 172), (96, 99))]
    assert [(f.code, f.span) for f in warm.findings] == [("TC001", (87, 88))]
    assert warm.blocks == ()
    cold = check_document(doc.text, config=config)
    assert (warm.findings, warm.tools, warm.blocks) == (cold.findings, cold.tools, cold.blocks)


def test_a_checked_tool_is_listed_with_its_name_field_wherever_its_shape_keeps_it() -> None:
    text = ('[{"type": "function", "function": {"name": "f", "parameters": {}}}, '
            '{"name": 3, "description": "d", "parameters": {}}]')
    report = check_document(text, config=CheckConfig(targets=("mcp",)))
    assert [(t.index, t.name, t.pointer, t.span, t.name_span, t.shape) for t in report.tools] == [
        (0, "f", "/0", (1, 66), (43, 46), "openai"),
        # A name that is not a string: no name, and no name span (not the span of the 3).
        (1, None, "/1", (68, 117), None, "canonical"),
    ]
    assert (span_of(text, '"f"'), text[65:68], text[116:]) == ((43, 46), "}, ", "}]")


def test_a_pending_tool_without_a_name_is_listed_without_one() -> None:
    text = '[{"input_schema": {"type": "object", "properties": {}}}]'
    report = check_document(text, budget=0.0)
    assert report.pending == 1
    assert report.tools == (ToolSummary(0, None, "/0", (1, 55), None, "anthropic"),)


def test_a_lone_surrogate_in_a_tool_is_checked_like_any_other_character() -> None:
    # An editor can hand over text with a lone surrogate (half of an emoji being typed).
    text = '{"name": "a", "description": "x\ud800y", "parameters": {"type": "object", "properties": {}}}'
    report = check_document(text, config=CheckConfig(targets=("mcp",)))
    assert [(t.name, t.span) for t in report.tools] == [("a", (0, len(text)))]
    assert len(text) == 87


def test_tools_the_parser_kept_are_reused_without_hashing_their_text(monkeypatch: Any) -> None:
    import hashlib
    import types

    from toolcast.adapters.checks import engine

    digests: list[int] = []

    def blake2b(data: bytes, **kwargs: Any) -> Any:
        digests.append(len(data))
        return hashlib.blake2b(data, **kwargs)

    monkeypatch.setattr(engine, "hashlib", types.SimpleNamespace(blake2b=blake2b))
    text = json.dumps([_named("a"), {"name": 3, "description": "d", "parameters": EMPTY}], indent=2)
    analyzer = Analyzer()
    doc = analyzer.parse(text)
    first = check_document(text, parsed=doc, analyzer=analyzer)
    assert len(digests) == 2  # each tool's text, once
    assert analyzer.sizes()["placed"] == 2  # each tool's placed findings, remembered by its own key
    again = check_document(text, parsed=doc, analyzer=analyzer)
    # The very same parsed objects: recognised by identity, not by their text.
    assert len(digests) == 2
    assert (again.findings, again.tools) == (first.findings, first.tools)
    assert [(t.name, t.name_span) for t in again.tools] == [("a", span_of(text, '"a"')), (None, None)]
    # Another parse of the same text: new objects, so each tool's text is hashed (and its findings found by it).
    other = Analyzer().parse(text)
    assert check_document(text, parsed=other, analyzer=analyzer).findings == first.findings
    assert len(digests) == 4


def test_a_tool_moved_to_a_deeper_indent_gets_fixes_laid_out_at_its_new_indent() -> None:
    # The same tool text (two lines; the empty `properties` on its first line) after a 2- or a 4-space prefix:
    # the fix that defines `p` lays out its lines from the indent of the line the tool starts on.
    tool = ('{"name": "a", "description": "d", "parameters": {"type": "object", "properties": {},\n'
            '"required": ["p"]}}')

    def document(prefix: str) -> str:
        return '[\n  {"name": "z", "description": "d"},\n' + prefix + tool + "\n]"

    def define_p(report: Any) -> str:
        (found,) = [f for f in report.findings if f.code == "TC302"]
        (edit,) = found.all_fixes()[1].edits
        return str(edit.new_text)

    config = CheckConfig(targets=("mcp",))
    analyzer = Analyzer()
    assert define_p(check_document(document("  "), config=config, analyzer=analyzer)) == (
        '{\n    "p": {\n      "type": "string"\n    }\n  }')
    # Checked after the first: nothing of the first's layout is reused for the deeper tool.
    assert define_p(check_document(document("    "), config=config, analyzer=analyzer)) == (
        '{\n      "p": {\n        "type": "string"\n      }\n    }')


def test_a_run_that_left_tools_pending_is_the_base_of_the_next_edit_which_without_a_budget_finishes() -> None:
    text = json.dumps([_named("a"), _named("b")], indent=2)
    analyzer = Analyzer()
    doc = analyzer.parse(text)
    partial = check_document(text, parsed=doc, budget=0.0, analyzer=analyzer)
    assert partial.pending == 2
    at = text.index('"b"') + 1
    doc = analyzer.reparse(doc, at, at + 1, "bQ")
    warm = check_document(doc.text, parsed=doc, analyzer=analyzer)
    # The pending run is the edit's base (tool "a" carried over, still waiting); without a budget the
    # waiting tool is checked in the same call, so the report is complete and equals a cold check.
    assert (analyzer.edited_runs, warm.pending) == (1, 0)
    cold = check_document(doc.text)
    assert (warm.findings, warm.tools) == (cold.findings, cold.tools)
    assert [t.name for t in warm.tools] == ["a", "bQ"]
