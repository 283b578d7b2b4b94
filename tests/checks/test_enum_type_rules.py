"""The providers' rule that an `enum` sits beside a `type` that allows its members (``enum_type`` in the provider
profiles), each from a public report: Gemini's `parameters` refuse an `enum` on a node without `type` ("enum:
only allowed for STRING type"), OpenAI's strict mode refuses an `enum` member its node's `type` refuses ("enum
value javascript does not validate against {'type': 'null'}"). convert lowers without changing meaning where it
can, and says so at the `enum`; check reports that same loss, from the same conversion."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from loss_oracle import assert_explained, schema_in
from toolcast.adapters.checks import CheckConfig, check_document
from toolcast.adapters.consumers import provider_rules
from toolcast.adapters.convert import convert
from toolcast.adapters.loading import load_tools
from toolcast.adapters.losses import Action, Effect
from toolcast.adapters.rules.codes import LOSS_NEUTRAL
from toolcast.adapters.rules.findings import Finding
from toolcast.adapters.targets import TargetOptions


def _check(doc: Any, **settings: Any) -> list[Finding]:
    return list(check_document(json.dumps(doc, indent=2), config=replace(CheckConfig(), **settings)).findings)


def _tool(**properties: Any) -> dict[str, Any]:
    return {"name": "t", "description": "d", "parameters": {"type": "object", "properties": properties}}


def _jetbrains_tool() -> dict[str, Any]:
    """JetBrains/mcp-jetbrains#71: `get_file_text_by_path`'s `truncateMode` is an `enum` without `type`; OpenCode
    sent it to Gemini as it was and Gemini answered "…parameters.properties[truncateMode].enum: only allowed for
    STRING type"."""
    return {"name": "get_file_text_by_path", "description": "Read a file.", "inputSchema": {
        "type": "object", "properties": {"pathInProject": {"type": "string"},
                                         "truncateMode": {"enum": ["START", "MIDDLE", "END", "NONE"]}},
        "required": ["pathInProject"]}}


_MODE = "/parameters/properties/truncateMode"


def test_gemini_types_an_untyped_string_enum_and_says_so_at_the_enum() -> None:
    conv = convert(load_tools(_jetbrains_tool())[0].tool, "gemini")
    assert conv.ok
    assert conv.output["parameters"]["properties"]["truncateMode"] == {
        "enum": ["START", "MIDDLE", "END", "NONE"], "type": "STRING"}
    said = {(x.pointer, x.keyword): x for x in conv.losses}
    loss = said[(_MODE + "/enum", "enum")]
    assert (loss.action, loss.effect, loss.rule) == (Action.LOWERED, Effect.NEUTRAL, "enum-on-untyped-node")
    assert "only allowed for STRING type" in loss.message and "JetBrains/mcp-jetbrains#71" in loss.message
    assert (_MODE + "/type", "type") not in said  # one fact, one loss


def test_gemini_check_reports_the_loss_of_the_same_conversion() -> None:
    """A neutral rewrite is information (TC501, off unless selected), like every other convert does anyway."""
    found = [f for f in _check(_jetbrains_tool(), targets=("gemini",), select=(LOSS_NEUTRAL,))
             if f.pointer == "/inputSchema/properties/truncateMode/enum" and f.target == "gemini"]
    assert found, "check says nothing where convert lowered"
    assert "only allowed for STRING type" in found[0].message
    assert [f.code for f in found] == [LOSS_NEUTRAL]  # a neutral rewrite, not a `pattern` the engine refuses


def test_gemini_folds_an_untyped_enum_of_mixed_members_where_they_are() -> None:
    """Mixed members are a real loss: Gemini's `enum` holds strings only, so the `enum` is stated in the
    description (widening, at the `enum`), and the node gets the union of its members' types."""
    conv = convert(load_tools(_tool(m={"enum": ["a", 1]}))[0].tool, "gemini")
    assert conv.ok
    said = {(x.pointer, x.keyword): x for x in conv.losses}
    assert said[("/parameters/properties/m/enum", "enum")].effect == Effect.WIDENING
    assert "enum" not in conv.output["parameters"]["properties"]["m"]


def test_gemini_json_keeps_an_untyped_enum_as_written() -> None:
    """`parametersJsonSchema` takes JSON Schema: no report shows it refusing an untyped `enum`."""
    conv = convert(load_tools(_jetbrains_tool())[0].tool, "gemini-json")
    assert conv.ok
    assert conv.output["parametersJsonSchema"]["properties"]["truncateMode"] == {
        "enum": ["START", "MIDDLE", "END", "NONE"]}
    assert not [x for x in conv.losses if "truncateMode" in x.pointer]


def _oh_my_pi_tool() -> dict[str, Any]:
    """can1357/oh-my-pi#2652: a nullable `enum` whose null branch got a copy of the `enum`
    (`{"enum": ["A", "B"], "type": "null"}`), sent to OpenAI Responses in strict mode: "400 Invalid schema for
    function"; #1835 names the check: "enum value javascript does not validate against {'type': 'null'}"."""
    return {"name": "set_mode", "description": "Set the mode.", "inputSchema": {
        "type": "object", "properties": {"mode": {"anyOf": [
            {"type": "string", "enum": ["A", "B"]}, {"enum": ["A", "B"], "type": "null"}]}}}}


_BRANCH = "/parameters/properties/mode/anyOf/1"


@pytest.mark.parametrize("target", ["openai-responses", "openai"])
def test_openai_strict_leaves_out_a_branch_whose_enum_its_type_refuses(target: str) -> None:
    conv = convert(load_tools(_oh_my_pi_tool())[0].tool, target, TargetOptions(strict=True))
    assert conv.ok
    branches = schema_in(target, conv.output)["properties"]["mode"]["anyOf"]
    assert branches == [{"type": "string", "enum": ["A", "B"]}, {"type": "null"}]  # null: strict's optional
    said = {(x.pointer, x.keyword): x for x in conv.losses}
    loss = said[(_BRANCH + "/enum", "enum")]
    assert (loss.action, loss.effect) == (Action.LOWERED, Effect.NEUTRAL)
    assert loss.rule == "enum-member-off-type" and "does not validate against" in loss.message


@pytest.mark.parametrize("target", ["openai-responses", "openai"])
def test_openai_without_strict_sends_the_branch_as_written(target: str) -> None:
    """The reports are of strict mode; without it the schema is sent as written, unreported."""
    conv = convert(load_tools(_oh_my_pi_tool())[0].tool, target, TargetOptions(strict=False))
    assert conv.ok
    assert schema_in(target, conv.output)["properties"]["mode"]["anyOf"][1] == {"enum": ["A", "B"], "type": "null"}
    assert not [x for x in conv.losses if x.keyword == "enum"]


def test_openai_strict_leaves_out_a_member_its_type_refuses_and_keeps_the_rest() -> None:
    """eric-tramel/moraine#369: `type: "string"` with `null` still in the `enum`, rejected in strict mode. A
    member the type refuses could never be sent: leaving it out changes nothing (neutral, at the member)."""
    tool = _tool(s={"type": "string", "enum": ["a", None, "b"]})
    conv = convert(load_tools(tool)[0].tool, "openai-responses", TargetOptions(strict=True))
    assert conv.ok
    assert conv.output["parameters"]["properties"]["s"]["anyOf"][0] == {"type": "string", "enum": ["a", "b"]}
    said = {(x.pointer, x.keyword): x for x in conv.losses}
    assert said[("/parameters/properties/s/enum/1", "enum")].effect == Effect.NEUTRAL
    assert_explained(tool["parameters"], schema_in("openai-responses", conv.output), conv.losses, conv.roundtrip)


def test_openai_strict_keeps_members_its_type_allows() -> None:
    """An integer is a number, a list type allows each of its types: nothing is left out."""
    tool = _tool(n={"type": "number", "enum": [1, 2.5]}, u={"type": ["string", "null"], "enum": ["a", None]},
                 i={"type": "integer", "enum": [1, 2.0]})
    conv = convert(load_tools(tool)[0].tool, "openai-responses", TargetOptions(strict=True))
    assert conv.ok and not [x for x in conv.losses if x.keyword == "enum"]


@pytest.mark.parametrize("target", ["openai-responses", "gemini"])
def test_an_enum_its_type_refuses_entirely_is_stated_in_the_description(target: str) -> None:
    """Not in a union, an `enum` whose every member its `type` refuses accepts nothing as written (an `enum` put
    on an array instead of its items, can1357/oh-my-pi#2652): it is not sent, but stated in the description
    (widening, at the `enum`), so the provider does not reject the tool."""
    tool = _tool(x={"type": "array", "items": {"type": "string"}, "enum": ["a", "b"]})
    conv = convert(load_tools(tool)[0].tool, target, TargetOptions(strict=True))
    assert conv.ok
    sent = schema_in(target, conv.output)["properties"]["x"]
    sent = sent["anyOf"][0] if "anyOf" in sent else sent
    assert "enum" not in sent and '"enum": ["a", "b"]' in sent["description"]
    loss = {(x.pointer, x.keyword): x for x in conv.losses}[("/parameters/properties/x/enum", "enum")]
    assert (loss.action, loss.effect) == (Action.FOLDED, Effect.WIDENING) and loss.rule is not None


def test_openai_strict_check_reports_the_loss_where_convert_has_it() -> None:
    found = [f for f in _check(_oh_my_pi_tool(), targets=("openai-responses",), select=(LOSS_NEUTRAL,))
             if f.pointer.startswith("/inputSchema/properties/mode/anyOf/1") and f.target == "openai-responses"]
    assert found, "check says nothing where convert left the branch out"
    assert [f.code for f in found] == [LOSS_NEUTRAL]


def test_the_rules_carry_their_sources() -> None:
    for target, rule_id in (("gemini", "enum-on-untyped-node"), ("openai", "enum-member-off-type"),
                            ("openai-responses", "enum-member-off-type")):
        rule = next(r for r in provider_rules(target) if r.id == rule_id)
        assert rule.kind == "enum_type" and rule.confidence == "observed" and rule.sources
