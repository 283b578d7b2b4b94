"""Null for "absent" holds at every depth: an instance of the original schema, sent exactly as OpenAI strict
mode says (every optional property that is absent becomes null, in nested objects, array items and
definitions alike) and mapped back by ``to_canonical_call``, is valid against the original schema."""

from __future__ import annotations

from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolcast.adapters.canonical import CanonicalTool
from toolcast.adapters.convert import convert
from toolcast.adapters.messages import ToolCall, to_canonical_call
from toolcast.adapters.targets import TargetOptions

LEAVES: list[dict[str, Any]] = [
    {"type": "string"}, {"type": "integer", "minimum": 0, "maximum": 9}, {"type": "boolean"},
    {"type": "string", "enum": ["a", "b"]},
]


def _object(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        props = draw(st.dictionaries(st.sampled_from("abcd"), children, min_size=1, max_size=3))
        required = [k for k in props if draw(st.booleans())]
        return {"type": "object", "properties": props, "required": required}
    return build()


def _all_of(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """Two object branches with their own property names (targets without `allOf` get them merged)."""
    return st.tuples(_object(children), _object(children)).map(lambda pair: {"allOf": [
        pair[0], {**pair[1], "properties": {k.upper(): v for k, v in pair[1]["properties"].items()},
                  "required": [k.upper() for k in pair[1]["required"]]}]})


def _any_of(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return _object(children).map(lambda obj: {"anyOf": [obj, {"type": "integer", "minimum": 100}]})


SCHEMAS = st.recursive(st.sampled_from(LEAVES), lambda inner: st.one_of(
    _object(inner), inner.map(lambda s: {"type": "array", "items": s, "maxItems": 2}), _all_of(inner),
    _any_of(inner)), max_leaves=8)


@st.composite
def tools(draw: st.DrawFn) -> CanonicalTool:
    """A root object; sometimes one of its properties is a `$ref` to a definition (an object)."""
    root = draw(_object(SCHEMAS))
    if draw(st.booleans()):
        root["$defs"] = {"D": draw(_object(SCHEMAS))}
        ref: dict[str, Any] = {"$ref": "#/$defs/D"}
        root["properties"]["r"] = ref if draw(st.booleans()) else {"type": "array", "items": ref, "maxItems": 2}
    return CanonicalTool("t", "d", root)


def instances(schema: dict[str, Any], root: dict[str, Any]) -> st.SearchStrategy[Any]:
    if "$ref" in schema:
        return instances(root["$defs"][schema["$ref"].rsplit("/", 1)[1]], root)
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "allOf" in schema:
        first, second = (instances(b, root) for b in schema["allOf"])
        return st.tuples(first, second).map(lambda pair: {**pair[0], **pair[1]})
    if "anyOf" in schema:
        return st.one_of(*(instances(b, root) for b in schema["anyOf"]))
    if "minimum" in schema and schema["minimum"] == 100:
        return st.integers(100, 102)
    t = schema["type"]
    if t == "string":
        return st.text(max_size=3)
    if t == "integer":
        return st.integers(0, 9)
    if t == "boolean":
        return st.booleans()
    if t == "array":
        return st.lists(instances(schema["items"], root), max_size=2)
    props, required = schema["properties"], set(schema["required"])
    return st.fixed_dictionaries({k: instances(v, root) for k, v in props.items() if k in required},
                                 optional={k: instances(v, root) for k, v in props.items() if k not in required})


def strict_rule(value: Any, schema: Any, root: Any) -> Any:
    """What a model following the converted (strict) schema sends: absent properties are null."""
    if not isinstance(schema, dict):
        return value
    if "$ref" in schema:
        return strict_rule(value, root["$defs"][schema["$ref"].rsplit("/", 1)[1]], root)
    if "anyOf" in schema and value is not None:
        # The model answers with a branch its value fits: the first one whose rule-made value is valid.
        for branch in (b for b in schema["anyOf"] if b.get("type") != "null"):
            sent = strict_rule(value, branch, root)
            if jsonschema.Draft202012Validator({**branch, "$defs": root.get("$defs", {})}).is_valid(sent):
                return sent
        return value
    if isinstance(value, dict):
        return {k: strict_rule(value[k], sub, root) if k in value else None
                for k, sub in schema.get("properties", {}).items()}
    if isinstance(value, list):
        return [strict_rule(v, schema.get("items"), root) for v in value]
    return value


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(tool=tools(), data=st.data())
def test_calls_made_by_the_strict_rule_map_back_to_valid_arguments(tool: CanonicalTool, data: st.DataObject) -> None:
    original = tool.parameters
    instance = data.draw(instances(original, original))
    jsonschema.validate(instance, original, cls=jsonschema.Draft202012Validator)
    conv = convert(tool, "openai", TargetOptions(strict=True))
    converted = conv.output["function"]["parameters"]
    sent = strict_rule(instance, converted, converted)
    jsonschema.validate(sent, converted, cls=jsonschema.Draft202012Validator)  # the rule makes valid calls
    call, found = to_canonical_call(ToolCall("c1", "t", sent), (tool,), (conv,))
    assert found is tool
    jsonschema.validate(call.arguments, original, cls=jsonschema.Draft202012Validator)
    assert call.arguments == instance  # exactly the nulls the strict rule added are gone (instances hold none)


def test_nested_nulls_in_items_and_definitions_are_dropped() -> None:
    params = {"type": "object", "properties": {
        "rows": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}},
        "ref": {"$ref": "#/$defs/D"}},
        "$defs": {"D": {"type": "object", "properties": {"b": {"type": "integer"}}}}}
    tool = CanonicalTool("t", None, params)
    conv = convert(tool, "openai")
    call, _ = to_canonical_call(ToolCall("c", "t", {"rows": [{"a": None}, {"a": "x"}], "ref": {"b": None}}),
                                (tool,), (conv,))
    assert call.arguments == {"rows": [{}, {"a": "x"}], "ref": {}}
