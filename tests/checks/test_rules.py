"""Every rule: a document that triggers it (exact range asserted) and one that does not; every fix
applied to its document yields text that parses and no longer triggers the finding."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from helpers import apply_fix, findings, span_of
from toolcast.adapters.checks import CheckConfig, check_document

P = '"parameters": {"type": "object", "properties": {}}'


def tool(**fields: Any) -> str:
    base: dict[str, Any] = {
        "name": "get_weather",
        "description": "Current weather.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    }
    base.update(fields)
    return json.dumps({k: v for k, v in base.items() if v is not None}, indent=2, ensure_ascii=False)


def params(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, **extra}


@dataclass
class Case:
    code: str
    bad: str
    snippet: str  # the exact text the finding covers
    good: str
    occurrence: int = 0
    config: dict[str, Any] = field(default_factory=dict)
    id: str = ""


CASES = [
    Case(
        "TC002",
        '{"name": "a", "name": "b", "description": "d", ' + P + "}",
        '"name"',
        '{"name": "b", "description": "d", ' + P + "}",
        occurrence=1,
    ),
    Case("TC004", '{"foo": 1, "bar": [1, 2]}', '{"foo": 1, "bar": [1, 2]}', tool()),
    Case("TC101", '{"description": "d", ' + P + "}", "{", '{"name": "n", "description": "d", ' + P + "}"),
    Case(
        "TC101",
        '[{"name": "a", "description": "d", ' + P + '}, {"description": "d", ' + P + "}]",
        "{",
        '[{"name": "a", "description": "d", ' + P + '}, {"name": "b", "description": "d", ' + P + "}]",
        occurrence=3,
        id="TC101-in-list",
    ),
    Case(
        "TC101",
        '{"type": "function", "function": {"description": "d", ' + P + "}}",
        '"function"',
        '{"type": "function", "function": {"name": "n", "description": "d", ' + P + "}}",
        occurrence=1,
        id="TC101-openai-shape",
    ),
    Case("TC102", tool(name=42), "42", tool()),
    Case("TC103", tool(description=None), "{", tool()),
    Case("TC104", tool(description=["a", "b"]), '[\n    "a",\n    "b"\n  ]', tool()),
    Case("TC105", tool(parameters=None), "{", tool()),
    Case("TC106", tool(parameters=[]), "[]", tool()),
    Case("TC107", tool(parameters={"properties": {}}), '"parameters"', tool()),
    Case(
        "TC107", tool(parameters={"type": "string", "properties": {}}), '"string"', tool(), id="TC107-wrong"
    ),
    Case("TC108", tool(parameters={"type": "object"}), '"parameters"', tool()),
    Case("TC109", tool(parameters=params({"city": {"description": "City"}})), '"city"', tool()),
    Case(
        "TC110",
        tool(parameters=params({"count": {"type": "int"}})),
        '"int"',
        tool(parameters=params({"count": {"type": "integer"}})),
    ),
    Case(
        "TC201",
        json.dumps([json.loads(tool()), json.loads(tool())]),
        '"get_weather"',
        json.dumps([json.loads(tool()), json.loads(tool(name="get_forecast"))]),
        occurrence=1,
    ),
    Case("TC203", tool(name="get weather"), '"get weather"', tool()),
    Case(
        "TC204",
        tool(name="files.read"),
        '"files.read"',
        tool(name="files_read"),
        config={"targets": ("openai",)},
    ),
    Case(
        "TC204",
        tool(name="x" * 65),
        '"' + "x" * 65 + '"',
        tool(name="x" * 64),
        config={"targets": ("bedrock",)},
        id="TC204-length",
    ),
    Case(
        "TC205",
        json.dumps([json.loads(tool(name="files.read")), json.loads(tool(name="files_read"))]),
        '"files_read"',
        json.dumps([json.loads(tool(name="files.read")), json.loads(tool(name="files_list"))]),
        config={"targets": ("openai",)},
    ),
    Case(
        "TC301",
        tool(parameters=params({"n": {"type": "number", "exclusiveMinimum": True}})),
        "true",
        tool(parameters=params({"n": {"type": "number", "exclusiveMinimum": 0}})),
    ),
    Case(
        "TC302",
        tool(parameters=params({"city": {"type": "string"}}, required=["city", "country"])),
        '"country"',
        tool(parameters=params({"city": {"type": "string"}}, required=["city"])),
    ),
    Case(
        "TC303",
        tool(parameters=params({"a": {"$ref": "#/$defs/missing"}})),
        '"#/$defs/missing"',
        tool(parameters=params({"a": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": {"type": "string"}}})),
    ),
    Case(
        "TC304",
        tool(parameters=params({"a": {"$ref": "https://example.com/a.json"}})),
        '"https://example.com/a.json"',
        tool(parameters=params({"a": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": {"type": "string"}}})),
    ),
    Case(
        "TC305",
        tool(parameters=params({"n": {"type": "integer", "default": "ten"}})),
        '"ten"',
        tool(parameters=params({"n": {"type": "integer", "default": 10}})),
    ),
    Case(
        "TC306",
        tool(parameters=params({"n": {"type": "integer"}}), examples=[{"n": "x"}]),
        '"x"',
        tool(parameters=params({"n": {"type": "integer"}}), examples=[{"n": 1}]),
    ),
    Case(
        "TC307",
        tool(parameters=params({"tags": {"type": "array"}})),
        '"tags"',
        tool(parameters=params({"tags": {"type": "array", "items": {"type": "string"}}})),
        config={"targets": ("openai",)},
    ),
    Case(
        "TC308",
        tool(parameters=params({"headers": {"type": "object"}})),
        '{\n        "type": "object"\n      }',
        tool(parameters=params({"headers": {"type": "object", "properties": {"a": {"type": "string"}}}})),
        config={"targets": ("gemini",)},
    ),
    Case(
        "TC309",
        tool(parameters=params({"code": {"type": "string", "pattern": "^(a|aa)+$", "default": "a" * 40 + "!"}})),
        '"^(a|aa)+$"',
        tool(parameters=params({"code": {"type": "string", "pattern": "^(a|aa)+$", "default": "aaaa"}})),
    ),
    Case(
        "TC310",
        tool(parameters=params({"a": {"type": "string"}, "b": {"type": "string"}}, dependentRequired={"a": ["b"]},
                               **{"$schema": "http://json-schema.org/draft-07/schema#"})),
        '"dependentRequired"',
        tool(parameters=params({"a": {"type": "string"}, "b": {"type": "string"}}, dependencies={"a": ["b"]},
                               **{"$schema": "http://json-schema.org/draft-07/schema#"})),
        id="TC310-newer-keyword-in-draft-07",
    ),
    Case(
        "TC310",
        tool(parameters=params({"a": {"type": "string"}, "b": {"type": "string"}}, dependencies={"a": ["b"]})),
        '"dependencies"',
        tool(parameters=params({"a": {"type": "string"}, "b": {"type": "string"}}, dependentRequired={"a": ["b"]})),
        id="TC310-draft-07-keyword-read-as-2020-12",
    ),
    Case("TC401", tool(parameters={"path": {"type": "string", "required": True}}), '"parameters"', tool()),
    Case(
        "TC609",
        tool(description="d" * 1100),
        '"' + "d" * 1100 + '"',
        tool(description="d" * 1000),
        config={"targets": ("openai",)},
    ),
]


def _config(case: Case) -> CheckConfig:
    return CheckConfig(**case.config)


def _ids(case: Case) -> str:
    return case.id or case.code


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_rule_triggers_with_exact_range(case: Case) -> None:
    report = check_document(case.bad, config=_config(case))
    hits = [f for f in report.findings if f.code == case.code]
    assert hits, f"{case.code} not reported; got {[f.code for f in report.findings]}"
    expected = span_of(case.bad, case.snippet, case.occurrence)
    assert any(f.span == expected for f in hits), (
        [(f.span, case.bad[f.span[0] : f.span[1]]) for f in hits],
        expected,
    )


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_rule_does_not_trigger_on_the_fixed_document(case: Case) -> None:
    report = check_document(case.good, config=_config(case))
    assert [f for f in report.findings if f.code == case.code] == []
    assert not [f for f in report.findings if f.code == "TC001"]


#: How many fixes each case's finding offers; a case not listed offers none (its rule has no fix).
FIXES = {"TC105": 1, "TC107": 1, "TC107-wrong": 1, "TC108": 1, "TC110": 1, "TC203": 1, "TC204": 1,
         "TC204-length": 1, "TC302": 2, "TC307": 1, "TC401": 1}


@pytest.mark.parametrize("case", [c for c in CASES if c.code != "TC002"], ids=_ids)
def test_every_fix_parses_and_removes_the_finding(case: Case) -> None:
    config = _config(case)
    report = check_document(case.bad, config=config)
    hits = [f for f in report.findings if f.code == case.code]
    assert len(hits) == 1, hits
    applied = 0
    for finding in hits:
        for n, fix in enumerate(finding.all_fixes()):
            fixed = apply_fix(case.bad, finding, n)
            assert fixed != case.bad, fix.title
            json.loads(fixed)  # parses as strict JSON
            after = check_document(fixed, config=config)
            assert not [f for f in after.findings if f.code == "TC001"], fix.title
            assert not [
                f for f in after.findings if f.code == finding.code and f.pointer == finding.pointer
            ], (fix.title, fixed)
            applied += 1
    assert applied == FIXES.get(_ids(case), 0)  # the loop ran once per fix the rule offers


FIXABLE = {"TC105", "TC107", "TC108", "TC110", "TC203", "TC204", "TC302", "TC307", "TC401"}
assert {key.split("-")[0] for key in FIXES} == FIXABLE


@pytest.mark.parametrize("code", sorted(FIXABLE))
def test_fixable_rules_carry_a_fix(code: str) -> None:
    case = next(c for c in CASES if c.code == code)
    hits = [f for f in check_document(case.bad, config=_config(case)).findings if f.code == code]
    assert hits and hits[0].fix is not None


def test_required_undefined_offers_remove_and_define() -> None:
    case = next(c for c in CASES if c.code == "TC302")
    (finding,) = findings(case.bad, "TC302")
    titles = [f.title for f in finding.all_fixes()]
    assert titles == ["Remove `country` from `required`", "Define property `country` (as a string)"]
    defined = json.loads(apply_fix(case.bad, finding, 1))
    assert defined["parameters"]["properties"]["country"] == {"type": "string"}
    removed = json.loads(apply_fix(case.bad, finding, 0))
    assert removed["parameters"]["required"] == ["city"]


def test_legacy_migration_rewrites_to_json_schema_with_matching_indent() -> None:
    bad = tool(parameters={"path": {"type": "string", "required": True}, "n": {"type": "integer"}})
    (finding,) = findings(bad, "TC401")
    fixed = apply_fix(bad, finding)
    assert json.loads(fixed)["parameters"] == {
        "type": "object",
        "properties": {"path": {"type": "string"}, "n": {"type": "integer"}},
        "required": ["path"],
    }
    assert '\n    "type": "object",\n' in fixed  # 2-space unit, nested under a 2-space member


def test_added_member_follows_crlf_and_tabs() -> None:
    bad = '{\r\n\t"name": "t",\r\n\t"description": "d",\r\n\t"parameters": {\r\n\t\t"properties": {}\r\n\t}\r\n}\r\n'
    (finding,) = findings(bad, "TC107")
    fixed = apply_fix(bad, finding)
    assert fixed == (
        '{\r\n\t"name": "t",\r\n\t"description": "d",\r\n\t"parameters": {\r\n\t\t"properties": {},'
        '\r\n\t\t"type": "object"\r\n\t}\r\n}\r\n'
    )


def test_findings_carry_tool_index_and_name() -> None:
    text = json.dumps([json.loads(tool()), json.loads(tool(name="b c"))])
    (finding,) = findings(text, "TC203")
    assert (finding.tool_index, finding.tool_name, finding.pointer) == (1, "b c", "/1/name")


def test_findings_are_sorted_by_position() -> None:
    text = tool(name="a b", parameters=params({"x": {"type": "int"}, "y": {"description": "no type"}}))
    spans = [f.span for f in check_document(text).findings]
    assert spans == sorted(spans)


def test_select_ignore_and_severity_apply() -> None:
    text = tool(name="a b")
    assert {f.code for f in findings(text)} >= {"TC203", "TC204"}
    assert {f.code for f in findings(text, select=("TC203",))} == {"TC203"}
    assert "TC203" not in {f.code for f in findings(text, ignore=("TC2",))}
    from toolcast.adapters.checks import Severity

    (f,) = findings(text, "TC203", severities={"TC203": Severity.ERROR})
    assert f.severity == Severity.ERROR
    assert findings(text, "TC203", severities={"TC2": None}) == []


def test_tool_summaries() -> None:
    text = json.dumps([json.loads(tool()), {"type": "function", "function": json.loads(tool(name="b"))}])
    report = check_document(text)
    assert report.is_tool_file
    assert [(t.index, t.name, t.pointer, t.shape) for t in report.tools] == [
        (0, "get_weather", "/0", "canonical"),
        (1, "b", "/1", "openai"),
    ]
    assert report.tools[1].name_span == span_of(text, '"b"')
    assert text[report.tools[0].span[0]] == "{"


def test_toolcast_schema_marks_a_tool_file() -> None:
    text = '{"$schema": "urn:toolcast:tool.schema.json"}'
    report = check_document(text)
    assert report.is_tool_file
    assert "TC004" not in {f.code for f in report.findings}


def test_workspace_refs_resolve_and_never_leave_the_workspace(tmp_path: Any) -> None:
    (tmp_path / "common.json").write_text('{"$defs": {"City": {"type": "string"}}}', encoding="utf-8")
    good = tool(parameters=params({"a": {"$ref": "common.json#/$defs/City"}}))
    bad = tool(parameters=params({"a": {"$ref": "other.json#/$defs/City"}}))
    path = str(tmp_path / "x.tool.json")
    assert [f for f in check_document(good, path=path).findings if f.code == "TC303"] == []
    assert [f.code for f in check_document(bad, path=path).findings if f.code == "TC303"] == ["TC303"]
    escape = tool(parameters=params({"a": {"$ref": "../outside.json"}}))
    (tmp_path.parent / "outside.json").write_text('{"type": "string"}', encoding="utf-8")
    assert [f.code for f in check_document(escape, path=path).findings if f.code == "TC303"] == ["TC303"]


def test_oversized_document_is_a_finding_not_silence() -> None:
    from toolcast.adapters.checks import engine

    text = " " * (engine.MAX_TEXT + 1)
    (finding,) = check_document(text).findings
    assert finding.code == "TC003"


def test_deep_schema_is_reported_not_a_crash() -> None:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(300):
        node = {"type": "object", "properties": {"a": node}}
    text = tool(parameters=node)
    codes = {f.code for f in check_document(text, config=CheckConfig(targets=("anthropic",))).findings}
    assert "TC003" in codes


def test_strict_closure_offers_to_close_the_object_in_the_source() -> None:
    """OpenAI strict closes every object (TC510, information: almost no tool means to accept keys it does
    not list). The fix says so in the source, after which no target narrows it."""
    bad = tool(parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})
    config = CheckConfig(targets=("openai",))
    (finding,) = [f for f in check_document(bad, config=config).findings
                  if f.code == "TC510" and "closed objects" in f.message]
    assert finding.severity.value == "info"
    assert [f.title for f in finding.all_fixes()] == ["Close the object (`additionalProperties: false`)"]
    fixed = apply_fix(bad, finding, 0)
    assert json.loads(fixed)["parameters"]["additionalProperties"] is False
    assert not [f for f in check_document(fixed, config=config).findings if f.code in ("TC503", "TC510")]


def test_a_null_default_on_a_type_without_null_is_information_and_any_other_bad_default_a_warning() -> None:
    # pydantic's `x: str = None`: the property may be omitted; every provider takes the schema as written.
    from toolcast.adapters.checks import Severity

    (omitted,) = findings(tool(parameters=params({"s": {"type": "string", "default": None}})), "TC305")
    assert omitted.severity == Severity.INFO and omitted.pointer.endswith("/s/default")
    (wrong,) = findings(tool(parameters=params({"n": {"type": "integer", "default": "ten"}})), "TC305")
    assert wrong.severity == Severity.WARNING
    # The user's severity for the code still wins over the information default.
    (raised,) = findings(tool(parameters=params({"s": {"type": "string", "default": None}})), "TC305",
                         severities={"TC305": Severity.ERROR})
    assert raised.severity == Severity.ERROR


def test_a_tool_without_description_is_information_for_the_providers() -> None:
    from toolcast.adapters.checks import Severity

    (f,) = findings('{"name": "get_weather", "parameters": {"type": "object", "properties": {}}}', "TC103")
    assert f.severity == Severity.INFO
