"""Differential property test: what the original schema accepts, the converted one accepts too (after the
recorded null-for-absent mapping), unless toolcast reported a narrowing or unsatisfiable loss; and no keyword
changes or disappears without a loss entry."""

from __future__ import annotations

from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from loss_oracle import assert_explained
from toolcast.adapters import pointer as jp
from toolcast.adapters.canonical import CanonicalTool
from toolcast.adapters.convert import convert
from toolcast.adapters.loading.gemini_schema import from_gemini_schema
from toolcast.adapters.losses import Effect
from toolcast.adapters.targets import TARGETS

from .sdk import schema_of

POOL: list[dict[str, Any]] = [
    {"type": "string"},
    {"type": "string", "minLength": 2, "maxLength": 5},
    {"type": "string", "pattern": "^[a-z]+$"},
    {"type": "string", "format": "date"},
    {"type": "string", "enum": ["a", "b"]},
    {"enum": [1, "x", None]},
    {"const": "fixed"},
    {"const": 3},
    {"type": "integer", "minimum": 0, "maximum": 9},
    {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5},
    {"type": ["string", "null"]},
    {"type": "boolean", "default": True},
    {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 3},
    {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
    {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    {"oneOf": [{"type": "string"}, {"type": "boolean"}]},
    {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
    {"type": "object", "properties": {"y": {"type": "integer"}}, "additionalProperties": False},
    {"allOf": [{"type": "object", "properties": {"p": {"type": "string"}}},
               {"type": "object", "properties": {"q": {"type": "integer"}}}]},
]


def instances(schema: Any) -> st.SearchStrategy[Any]:
    """Instances valid against one of POOL's schemas (hypothesis-jsonschema 0.23 does not run with current
    hypothesis, so the generator covers exactly the keywords the pool uses; jsonschema double-checks)."""
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema or "oneOf" in schema:
        return st.one_of(*[instances(s) for s in schema.get("anyOf", schema.get("oneOf"))])
    if "allOf" in schema:
        merged: dict[str, Any] = {"type": "object", "properties": {}}
        for branch in schema["allOf"]:
            merged["properties"].update(branch.get("properties", {}))
        return instances(merged)
    t = schema.get("type")
    if isinstance(t, list):
        return st.one_of(*[instances({**schema, "type": x}) for x in t])
    if t == "null":
        return st.none()
    if t == "boolean":
        return st.booleans()
    if t == "integer":
        return st.integers(schema.get("minimum", -100), schema.get("maximum", 100))
    if t == "number":
        return st.integers(1, 50).map(lambda n: n * 0.5)
    if t == "string":
        if "pattern" in schema:
            return st.from_regex(schema["pattern"], fullmatch=True)
        if schema.get("format") == "date":
            return st.dates().map(lambda d: d.isoformat())
        return st.text(min_size=schema.get("minLength", 0), max_size=schema.get("maxLength", 8))
    if t == "array":
        items = st.lists(instances(schema["items"]), min_size=schema.get("minItems", 0),
                         max_size=schema.get("maxItems", 3), unique=bool(schema.get("uniqueItems")))
        return items
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    return st.fixed_dictionaries({k: instances(v) for k, v in props.items() if k in required},
                                 optional={k: instances(v) for k, v in props.items() if k not in required})


@st.composite
def tools(draw: st.DrawFn) -> CanonicalTool:
    picks = draw(st.lists(st.sampled_from(range(len(POOL))), min_size=1, max_size=4))
    props = {f"p{i}": POOL[k] for i, k in enumerate(picks)}
    required = [name for name in props if draw(st.booleans())]
    params: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        params["required"] = required
    return CanonicalTool("t", "d", params)


def _json_schema(target: str, output: dict[str, Any]) -> Any:
    schema = schema_of(target, output)
    if schema is None:
        return {"type": "object"}
    return from_gemini_schema(schema) if target == "gemini" else schema


def _absent_as_null(instance: Any, optional: list[str]) -> Any:
    for ptr in optional:
        parts = jp.parts(ptr)[1:]  # drop "parameters"
        node = instance
        ok = True
        for i in range(0, len(parts) - 2, 2):
            if parts[i] != "properties" or not isinstance(node, dict) or parts[i + 1] not in node:
                ok = False
                break
            node = node[parts[i + 1]]
        if ok and isinstance(node, dict) and parts[-2] == "properties" and parts[-1] not in node:
            node[parts[-1]] = None
    return instance


def _closure(loss: Any) -> bool:
    return loss.keyword == "additionalProperties" and loss.value is None


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(tool=tools(), target=st.sampled_from(TARGETS), data=st.data())
def test_converted_schema_accepts_what_the_original_accepts(tool: CanonicalTool, target: str,
                                                            data: st.DataObject) -> None:
    conv = convert(tool, target)
    # The strict closure narrows only extra keys, which the instances never have: it does not skip the case.
    if any(loss.effect in (Effect.NARROWING, Effect.UNSATISFIABLE) and not _closure(loss) for loss in conv.losses) \
            or not conv.ok:
        return
    converted = _json_schema(target, conv.output)
    instance = data.draw(instances(tool.parameters))
    jsonschema.validate(instance, tool.parameters, cls=jsonschema.Draft202012Validator)
    instance = _absent_as_null(instance, conv.roundtrip.get("optional", []))
    jsonschema.validate(instance, converted, cls=jsonschema.Draft202012Validator)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(tool=tools(), target=st.sampled_from(TARGETS))
def test_no_keyword_changes_without_a_loss(tool: CanonicalTool, target: str) -> None:
    """Every keyword of the original is in the output unchanged, or a loss names exactly that keyword (an
    enclosing schema's loss excuses nothing: tests/loss_oracle.py)."""
    conv = convert(tool, target)
    if not conv.ok:
        return  # rejected: nothing is sent
    assert_explained(tool.parameters, _json_schema(target, conv.output), conv.losses, conv.roundtrip, target)
