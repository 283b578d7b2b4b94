"""Conversion to every target: SDK-valid output, documented rules, determinism, purity, round trips."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from toolcast.adapters import pointer as jp
from toolcast.adapters.canonical import CanonicalTool
from toolcast.adapters.convert import convert, convert_all
from toolcast.adapters.loading import load_tools, to_canonical
from toolcast.adapters.losses import Action, Effect
from toolcast.adapters.targets import TARGETS, TargetOptions

from .sdk import VALIDATORS, check_documented_rules

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MODES = [(t, s) for t in TARGETS for s in ((True, False) if t in ("openai", "openai-responses", "anthropic",
                                                                 "mistral", "bedrock") else (None,))]


def fixture_tools() -> list[CanonicalTool]:
    tools = []
    for path in sorted(FIXTURES.glob("*.json")):
        tools.extend(lt.tool for lt in load_tools(json.loads(path.read_text(encoding="utf-8"))))
    return tools


TOOLS = fixture_tools()


@pytest.mark.parametrize("target,strict", MODES)
def test_every_output_validates_against_the_sdk_and_documented_rules(target: str, strict: bool | None) -> None:
    for tool in TOOLS:
        conv = convert(tool, target, TargetOptions(strict=strict))
        VALIDATORS[target](conv.output)
        check_documented_rules(target, bool(strict), conv.output)


@pytest.mark.parametrize("target", TARGETS)
def test_list_wrappers_validate(target: str) -> None:
    whole = convert_all(TOOLS[:3], target)
    if target in ("gemini", "gemini-json"):
        from google.genai import types

        types.Tool.model_validate(whole.output[0])
    elif target == "bedrock":
        assert [set(t) for t in whole.output["tools"]] == [{"toolSpec"}] * 3
    else:
        assert len(whole.output) == 3


def test_output_is_deterministic_and_input_is_never_mutated() -> None:
    for tool in TOOLS:
        before = copy.deepcopy(tool.to_dict())
        for target in TARGETS:
            a = json.dumps(convert(tool, target).output)
            b = json.dumps(convert(CanonicalTool(**vars(tool)), target).output)
            assert a == b
        assert tool.to_dict() == before


def test_openai_strict_keeps_optional_fields_optional_through_null() -> None:
    tool = CanonicalTool("t", "d", {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
                                    "required": ["a"]})
    conv = convert(tool, "openai")
    params = conv.output["function"]["parameters"]
    assert params["required"] == ["a", "b"]
    assert params["properties"]["b"] == {"type": ["integer", "null"]}
    assert conv.roundtrip["nullable"] == conv.roundtrip["optional"] == ["/parameters/properties/b"]
    assert to_canonical(conv.output, "openai", conv.roundtrip).parameters == tool.parameters


def test_multi_branch_all_of_is_merged_or_rejected_never_unsatisfiable() -> None:
    merged = convert(TOOLS[0].replace(parameters={"type": "object", "properties": {"x": {"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"type": "object", "properties": {"b": {"type": "integer"}}},
    ]}}, "required": ["x"]}), "openai")
    x = merged.output["function"]["parameters"]["properties"]["x"]
    assert set(x["properties"]) == {"a", "b"} and merged.ok
    clash = convert(TOOLS[0].replace(parameters={"type": "object", "properties": {"x": {"allOf": [
        {"type": "string"}, {"type": "integer"}]}}}), "openai")
    assert not clash.ok
    assert any(loss.effect == Effect.UNSATISFIABLE and loss.action == Action.REJECTED for loss in clash.losses)


def test_names_are_sanitised_per_target_and_mapped_back() -> None:
    tool = CanonicalTool("admin.tools.list", "d")
    assert convert(tool, "mcp").output["name"] == "admin.tools.list"
    conv = convert(tool, "openai")
    assert conv.output["function"]["name"] == "admin_tools_list"
    # a tool without parameters is a no-argument tool: closing its root loses nothing
    assert [loss.keyword for loss in conv.losses] == ["name"]
    assert to_canonical(conv.output, "openai", conv.roundtrip).name == "admin.tools.list"


def test_remote_ref_is_never_fetched_and_reported() -> None:
    tool = CanonicalTool("t", None, {"type": "object", "properties": {"x": {"$ref": "http://127.0.0.1:9/x.json"}}})
    conv = convert(tool, "gemini")
    assert any(loss.keyword == "$ref" and "never fetched" in loss.message for loss in conv.losses)


def test_hostile_depth_is_rejected_without_recursion_error() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    node = schema
    for _ in range(10_000):
        child: dict[str, Any] = {"type": "object", "properties": {}}
        node["properties"]["a"] = child
        node = child
    for target in TARGETS:  # every envelope and json.dumps must survive the rejected output too
        conv = convert(CanonicalTool("deep", None, schema, returns=schema), target)
        assert not conv.ok, target
        assert any(loss.pointer == "/parameters" and "deeper than" in loss.message for loss in conv.losses)
        json.dumps(conv.output)


# Round trips: canonical -> target -> canonical equals the original, apart from the reported losses.

def _strip(doc: dict[str, Any], ptr: str) -> None:
    parts = jp.parts(ptr)
    if not parts:
        return
    parent = jp.resolve(doc, jp.from_parts(parts[:-1]), None)
    if isinstance(parent, dict):
        parent.pop(parts[-1], None)


def _comparable(tool: CanonicalTool, losses: Any, original: CanonicalTool | None = None) -> dict[str, Any]:
    """The tool's dict form without the keywords a loss names exactly (tests/loss_oracle.py): a loss at a
    schema node, or at a field other than the one it names, excuses nothing else. A keyword lowered into
    other keywords (``allOf`` merged, ``oneOf`` as ``anyOf``, ``const`` as ``enum``) may add keywords to its
    own node that the ``original`` node does not have; those are left out too, nothing else of the node."""
    doc = tool.to_dict()
    doc.pop("x-toolcast", None)
    source = original.to_dict() if original is not None else doc
    for loss in losses:
        if loss.keyword in ("name",) or (loss.keyword == "required" and loss.action == Action.LOWERED):
            continue  # undone by the round-trip metadata
        parts = jp.parts(loss.pointer)
        if not parts or parts[-1] != loss.keyword:
            continue  # names no keyword or field: excuses nothing
        node_ptr = jp.from_parts(parts[:-1])
        if loss.keyword == "$ref" and loss.action == Action.LOWERED:
            _strip(doc, node_ptr)  # inlined: the node is replaced by what it referenced
            continue
        _strip(doc, loss.pointer)
        node = jp.resolve(doc, node_ptr, None)
        if not isinstance(node, dict):
            continue
        if loss.action == Action.FOLDED:  # stated in the node's description instead
            node.pop("description", None)
        if loss.action == Action.LOWERED:
            before = jp.resolve(source, node_ptr, {})
            for key in [k for k in node if not isinstance(before, dict) or k not in before]:
                node.pop(key)
    return doc


@pytest.mark.parametrize("target,strict", MODES)
def test_round_trip_equals_the_original_apart_from_reported_losses(target: str, strict: bool | None) -> None:
    for tool in TOOLS:
        conv = convert(tool, target, TargetOptions(strict=strict))
        back = to_canonical(conv.output, target, conv.roundtrip)
        assert _comparable(back, conv.losses, tool) == _comparable(tool, conv.losses), tool.name


@pytest.mark.parametrize("target", TARGETS)
def test_conversion_is_idempotent(target: str) -> None:
    for tool in TOOLS:
        once = convert(tool, target)
        again = convert(to_canonical(once.output, target, once.roundtrip), target)
        assert json.dumps(again.output) == json.dumps(once.output), tool.name


def test_gemini_nodes_keep_a_type_when_their_values_are_folded() -> None:
    tool = CanonicalTool("t", None, {"type": "object", "properties": {"k": {"const": 1}, "e": {"enum": [1, 2]}}})
    props = convert(tool, "gemini").output["parameters"]["properties"]
    assert props["k"]["type"] == props["e"]["type"] == "INTEGER"
    assert props["e"]["description"] == '(constraints: {"enum": [1, 2]})'
