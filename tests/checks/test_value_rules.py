"""Value rules and complexity budgets (TC910-TC913, and the losses convert reports for a provider's own value
rules), each from a public report: the report's schema (or the schema its code writes, rebuilt from its error
message where it shows none) and its error message, with the link."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from loss_oracle import assert_explained, schema_in
from toolcast.adapters.checks import CheckConfig, check_document
from toolcast.adapters.checks.consumer_checks import measure
from toolcast.adapters.convert import convert
from toolcast.adapters.loading import load_tools
from toolcast.adapters.losses import Action
from toolcast.adapters.rules.codes import (
    CONSUMER_BUDGET,
    CONSUMER_ENUM_VALUE,
    CONSUMER_INTEGER_RANGE,
    CONSUMER_TYPE_WITH_COMPOSITION,
)
from toolcast.adapters.rules.findings import Finding, Severity


def _check(doc: Any, **settings: Any) -> list[Finding]:
    return list(check_document(json.dumps(doc, indent=2), config=replace(CheckConfig(), **settings))
                .findings)


def _runlore_tool() -> dict[str, Any]:
    """Smana/runlore#40: `submit_findings`' `actions[].op` enum is the canonical ops plus "" ("suggestion only");
    Gemini answered "GenerateContentRequest.tools[0].function_declarations[5].parameters.properties[actions]
    .items.properties[op].enum[3]: cannot be empty"."""
    return {"name": "submit_findings", "description": "Submit the investigation's findings.", "parameters": {
        "type": "object", "properties": {"actions": {"type": "array", "items": {
            "type": "object", "properties": {"op": {"type": "string",
                                                    "enum": ["reconcile", "resume", "suspend", ""]}}}}}}}


_OP = "/parameters/properties/actions/items/properties/op/enum"


def test_gemini_leaves_out_an_empty_enum_member_and_says_where() -> None:
    tool = load_tools(_runlore_tool())[0].tool
    conv = convert(tool, "gemini")
    assert conv.ok
    sent = conv.output["parameters"]["properties"]["actions"]["items"]["properties"]["op"]["enum"]
    assert sent == ["reconcile", "resume", "suspend"]
    dropped = [x for x in conv.losses if x.keyword == "enum"]
    assert [(x.pointer, x.value, x.action) for x in dropped] == [(_OP + "/3", "", Action.DROPPED)]
    assert "cannot be empty" in dropped[0].message and "Smana/runlore#40" in dropped[0].message
    # OpenAI and Anthropic take it (the report's words): nothing is left out for them
    assert "" in json.dumps(convert(tool, "anthropic").output) and not \
        [x for x in convert(tool, "anthropic").losses if x.keyword == "enum"]
    # check says the same, at the same place, as the loss of that conversion (no second finding of the rule)
    found = [f for f in _check(_runlore_tool(), targets_named=True) if f.pointer == _OP + "/3"]
    assert [f.target for f in found] == ["gemini"] and found[0].severity == Severity.WARNING
    assert not [f for f in _check(_runlore_tool(), targets_named=True) if f.code == CONSUMER_ENUM_VALUE]


def test_the_member_left_out_is_the_one_change_and_its_loss_explains_it() -> None:
    """The independent loss oracle (tests/loss_oracle.py): the `enum` changed and the loss at its member names it;
    without that loss the change would be silent."""
    tool = load_tools(_runlore_tool())[0].tool
    conv = convert(tool, "gemini")
    original = tool.parameters
    assert_explained(original, schema_in("gemini", conv.output), conv.losses, conv.roundtrip)
    with pytest.raises(AssertionError, match="op/enum"):
        assert_explained(original, schema_in("gemini", conv.output),
                         [x for x in conv.losses if x.keyword != "enum"], conv.roundtrip)


def test_an_enum_of_only_the_empty_string_is_refused_for_gemini() -> None:
    """FMXExpress/PasClaw#294 (`"kind": {"type": "string", "enum": ["", "shell", "prompt"]}`, "enum[0]: cannot
    be empty"), reduced to the sentinel alone: nothing is left that Gemini takes, so convert refuses."""
    tool = {"name": "skills_manage", "description": "Manage skills.", "parameters": {
        "type": "object", "properties": {"kind": {"type": "string", "enum": [""]}}}}
    conv = convert(load_tools(tool)[0].tool, "gemini")
    assert not conv.ok and conv.refusal is not None and conv.refusal.pointer == "/parameters/properties/kind/enum"
    assert any(f.code.startswith("TC5") and f.severity == Severity.ERROR and f.target == "gemini"
               for f in _check(tool, targets_named=True))
    tool["parameters"]["properties"]["kind"]["enum"] = ["", "shell", "prompt"]
    assert convert(load_tools(tool)[0].tool, "gemini").output["parameters"]["properties"]["kind"]["enum"] == \
        ["shell", "prompt"]


def test_a_union_branch_of_only_the_empty_string_is_left_out_for_gemini() -> None:
    """anomalyco/opencode#46676 (from #33316): an MCP server's `""` sentinel for "clear this field" inside a
    union, "link.any_of[0].enum[0]: cannot be empty". The branch stood only for a value Gemini cannot take: it is
    left out and the other branch kept; with nothing but null beside it, the tool is refused."""
    tool = {"name": "update_design", "description": "Update a design.", "parameters": {"type": "object", "properties": {
        "link": {"anyOf": [{"type": "string", "enum": [""]}, {"type": "string", "description": "a URL"}]}}}}
    conv = convert(load_tools(tool)[0].tool, "gemini")
    assert conv.ok
    assert conv.output["parameters"]["properties"]["link"] == {"anyOf": [{"type": "STRING", "description": "a URL"}]}
    said = {x.pointer: x for x in conv.losses}
    assert said["/parameters/properties/link/anyOf/0/enum"].action == Action.DROPPED
    assert "cannot be empty" in said["/parameters/properties/link/anyOf/0/enum/0"].message
    assert "" in json.dumps(convert(load_tools(tool)[0].tool, "gemini-json").output)  # a Gemini Schema rule only
    tool["parameters"]["properties"]["link"]["anyOf"][1] = {"type": "null"}
    assert not convert(load_tools(tool)[0].tool, "gemini").ok


def test_a_const_empty_string_is_not_made_an_enum_for_gemini() -> None:
    """Gemini turns `const` into a one-value `enum`; `""` would be the member it rejects, so it is folded."""
    tool = {"name": "t", "description": "d", "parameters": {"type": "object", "properties": {"s": {"const": ""}}}}
    conv = convert(load_tools(tool)[0].tool, "gemini")
    assert conv.ok and "enum" not in conv.output["parameters"]["properties"]["s"]


def test_xai_rejects_null_in_an_enum() -> None:
    """tailcallhq/forgecode#2809: schemars writes `"enum": ["content", "files_with_matches", "count", null]` for
    the optional `output_mode` of `fs_search`, and xAI answers "Client specified an invalid argument"."""
    tool = {"type": "function", "function": {"name": "fs_search", "description": "Search files.", "parameters": {
        "type": "object", "properties": {"output_mode": {
            "type": ["string", "null"], "enum": ["content", "files_with_matches", "count", None]}}}}}
    found = [f for f in _check(tool, consumers=("xai",)) if f.code == CONSUMER_ENUM_VALUE]
    assert [f.pointer for f in found] == ["/function/parameters/properties/output_mode/enum/3"]
    assert found[0].severity == Severity.ERROR
    assert "Client specified an invalid argument" in found[0].message and "tailcallhq/forgecode#2809" in \
        found[0].message and "(observed)" in found[0].message
    assert not [f for f in _check(tool, consumers=("groq",)) if f.code == CONSUMER_ENUM_VALUE]
    # the form the report's fix sends: null as an `anyOf` branch
    tool["function"]["parameters"]["properties"]["output_mode"] = {"anyOf": [
        {"type": "string", "enum": ["content", "files_with_matches", "count"]}, {"type": "null"}]}
    assert not [f for f in _check(tool, consumers=("xai",)) if f.code == CONSUMER_ENUM_VALUE]


def _zod_tool() -> dict[str, Any]:
    """tailcallhq/forgecode#3308: MCP servers (zod) write `9007199254740991` as the bound of `maxLength` and
    `maxItems`; Bedrock answers "input_schema: int too big to convert"."""
    return {"name": "write_note", "description": "Write a note.", "inputSchema": {
        "type": "object", "properties": {
            "text": {"type": "string", "maxLength": 9007199254740991},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 9007199254740991},
            "page": {"type": "integer", "minimum": 1, "maximum": 500}}}}


def test_bedrock_drops_zods_safe_integer_bounds() -> None:
    tool = load_tools(_zod_tool())[0].tool
    conv = convert(tool, "bedrock")
    assert conv.ok
    props = conv.output["toolSpec"]["inputSchema"]["json"]["properties"]
    assert "maxLength" not in props["text"] and "maxItems" not in props["tags"]
    assert props["page"] == {"type": "integer", "minimum": 1, "maximum": 500}  # within the range: kept
    dropped = sorted(x.pointer for x in conv.losses if x.action == Action.DROPPED)
    assert dropped == ["/parameters/properties/tags/maxItems", "/parameters/properties/text/maxLength"]
    assert all("int too big to convert" in x.message for x in conv.losses if x.action == Action.DROPPED)
    # every other target keeps them
    assert convert(tool, "mistral").output["function"]["parameters"]["properties"]["text"]["maxLength"] == \
        9007199254740991
    # check reports the same two losses for Bedrock, and no TC911 besides (the provider's rule is lowered)
    found = _check(_zod_tool(), targets_named=True)
    assert sorted(f.pointer for f in found if f.target == "bedrock" and "int too big" in f.message) == [
        "/inputSchema/properties/tags/maxItems", "/inputSchema/properties/text/maxLength"]
    assert not [f for f in found if f.code == CONSUMER_INTEGER_RANGE]


def test_an_integer_range_rule_of_a_consumer_is_a_finding() -> None:
    """A consumer's own `integer_range` rule (not lowered by convert, which knows no consumer) is TC911."""
    from toolcast.adapters.checks import consumer_checks
    from toolcast.adapters.consumers import Consumer, parse_rule

    rule = parse_rule({"id": "int", "rule": "integer_range", "min": -5, "max": 5, "effect": "rejected",
                       "message": "int too big", "source": ["tailcallhq/forgecode#3308"], "confidence": "observed"},
                      "test")
    who = Consumer("x", "X", "api", (rule,))
    found = consumer_checks._integer_range(who, rule, _zod_tool()["inputSchema"], "/inputSchema")
    assert sorted(r.pointer for r in found) == ["/inputSchema/properties/page/maximum",
                                          "/inputSchema/properties/tags/maxItems",
                                          "/inputSchema/properties/text/maxLength"]
    page = next(r for r in found if r.pointer.endswith("/maximum"))
    assert page.code == CONSUMER_INTEGER_RANGE and "`maximum: 500` is outside -5..5" in page.message


def test_gemini_cli_refuses_type_beside_any_of() -> None:
    """evcc-io/evcc#22400 (Gemini CLI 0.1.12): "Failed to list or register tools for MCP server 'evcc': Error:
    type and anyOf cannot be both populated. No tools registered from MCP server 'evcc'." The report shows no
    schema; this is a node of the shape the error names."""
    tool = {"name": "set_mode", "description": "Set the charge mode.", "inputSchema": {
        "type": "object", "properties": {"mode": {"type": "string", "anyOf": [
            {"const": "off"}, {"const": "now"}, {"const": "pv"}]}}}}
    found = [f for f in _check(tool, consumers=("gemini-cli",)) if f.code == CONSUMER_TYPE_WITH_COMPOSITION]
    assert [f.pointer for f in found] == ["/inputSchema/properties/mode/anyOf"]
    assert found[0].severity == Severity.ERROR
    assert "type and anyOf cannot be both populated" in found[0].message and "evcc-io/evcc#22400" in \
        found[0].message
    assert not [f for f in _check(tool, consumers=("vscode",)) if f.code == CONSUMER_TYPE_WITH_COMPOSITION]
    tool["inputSchema"]["properties"]["mode"] = {"anyOf": [{"type": "string", "const": c} for c in ("off", "now")]}
    assert not [f for f in _check(tool, consumers=("gemini-cli",)) if f.code == CONSUMER_TYPE_WITH_COMPOSITION]


def _arrays(fields: int, max_items: int) -> dict[str, Any]:
    """googleapis/python-genai#2170's notebook: one tool with N array properties, each with the same `maxItems`."""
    return {"name": "search_crm", "description": "Search.", "parameters": {"type": "object", "properties": {
        f"field_{i}": {"type": "array", "items": {"type": "string"}, "maxItems": max_items} for i in range(fields)}}}


@pytest.mark.parametrize(("fields", "max_items", "over"), [(8, 120, True), (8, 119, False), (10, 98, True),
                                                           (50, 19, False)])
def test_gemini_3s_max_items_budget(fields: int, max_items: int, over: bool) -> None:
    """googleapis/python-genai#2170 (gemini-3-flash-preview, `parametersJsonSchema`): INVALID_ARGUMENT with no
    diagnostic once the `maxItems` add up to about 960: 8 × 120 = 960 and 10 × 98 = 980 failed, 8 × 119 = 952
    and 50 × 19 = 950 passed."""
    tool = _arrays(fields, max_items)
    found = [f for f in _check(tool, models=("gemini-3-flash-preview",), targets=("gemini-json",))
             if f.code == CONSUMER_BUDGET]
    assert bool(found) is over
    if over:
        assert found[0].pointer == "/parameters" and found[0].severity == Severity.ERROR
        assert f"`maxItems` added up is {fields * max_items}, over 959" in found[0].message
        assert "observed in public reports, not documented" in found[0].message
        assert "googleapis/python-genai#2170" in found[0].message
    # Gemini 2.5 has no such rule in its profile; the budget concerns `parametersJsonSchema` only
    assert not [f for f in _check(tool, models=("gemini-2.5-pro",), targets=("gemini-json",))
                if f.code == CONSUMER_BUDGET]
    assert not [f for f in _check(tool, models=("gemini-3-flash-preview",), targets=("gemini",))
                if f.code == CONSUMER_BUDGET]


def test_every_budget_measure() -> None:
    schema = {"type": "object", "properties": {
        "a": {"type": "array", "maxItems": 3, "items": {"type": "object", "properties": {"b": {"enum": ["xy", ""]}}}},
        "c": {"type": "string", "enum": ["abc", 1]}}}
    assert measure("depth", schema) == 3
    assert measure("max_items_sum", schema) == 3
    assert measure("enum_chars", schema) == 5
    assert measure("property_count", schema) == 3
    assert measure("schema_chars", schema) == len(json.dumps(schema, separators=(",", ":")))


def test_an_unclear_budget_is_a_warning() -> None:
    from toolcast.adapters.checks.consumer_checks import severity
    from toolcast.adapters.consumers import parse_rule

    rule = parse_rule({"id": "b", "rule": "budget", "measure": "depth", "max": 5, "effect": "rejected",
                       "message": "too deep", "source": ["google-gemini/gemini-cli#5923"], "confidence": "unclear"},
                      "test")
    assert severity(rule) == Severity.WARNING
