"""The normaliser rewrites only what keeps a schema's meaning: each rewrite, and each place it must leave alone."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from .normalise import normalise


def obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


@pytest.mark.parametrize(("given", "expected"), [
    (obj(a=True, b=False), obj(a={}, b={"not": {}})),
    ({**obj(a={"type": "string"}), "additionalProperties": False}, {**obj(a={"type": "string"}),
                                                                  "additionalProperties": False}),
    (obj(x={"anyOf": [{"type": "string"}], "description": "d"}), obj(x={"type": "string", "description": "d"})),
    (obj(x={"allOf": [{"minimum": 1}], "type": "integer"}), obj(x={"minimum": 1, "type": "integer"})),
    (obj(t={"type": "array", "items": [{"type": "string"}], "additionalItems": False}),
     obj(t={"type": "array", "prefixItems": [{"type": "string"}], "items": False})),
    (obj(n={"type": "number", "minimum": 0, "exclusiveMinimum": True}),
     obj(n={"type": "number", "exclusiveMinimum": 0})),
    (obj(a={"type": ["string"]}), obj(a={"type": "string"})),
    ({**obj(a={"$ref": "#/definitions/A"}), "definitions": {"A": {"type": "string"}}},
     {**obj(a={"$ref": "#/$defs/A"}), "$defs": {"A": {"type": "string"}}}),
], ids=["booleans", "additionalProperties-kept", "one-anyOf", "one-allOf", "draft07-tuple", "draft04-bound",
        "one-type-list", "definitions"])
def test_each_rewrite(given: dict[str, Any], expected: dict[str, Any]) -> None:
    assert normalise(given) == expected


@pytest.mark.parametrize("given", [
    # the branch's additionalProperties would start reading the node's properties
    {**obj(a={"type": "string"}), "allOf": [{"additionalProperties": False}]},
    # the same keyword on both sides with different values
    obj(x={"type": "integer", "anyOf": [{"type": "string"}]}),
    # a $ref beside assertions is not the same as the $ref alone
    obj(x={"minimum": 1, "allOf": [{"$ref": "#/$defs/A"}]}),
    # a root union of non-objects stays a union (a tool's parameters are an object)
    {"anyOf": [{"type": "string"}]},
], ids=["adjacent", "clash", "ref-siblings", "root-not-object"])
def test_what_it_leaves_alone(given: dict[str, Any]) -> None:
    assert normalise(given) == given


def test_references_into_rewritten_places_stop_it() -> None:
    given = obj(x={"anyOf": [{"type": "string"}]}, y={"$ref": "#/properties/x/anyOf/0"})
    assert normalise(given) == given


@pytest.mark.parametrize("instance", [
    {"a": "s", "n": 1}, {"a": 1}, {"n": 0}, {"t": ["s"]}, {"t": ["s", 1]}, {"t": []}, {"b": None}, {"x": 5}, {},
])
def test_the_rewritten_schema_accepts_the_same_instances(instance: dict[str, Any]) -> None:
    given = {"type": "object", "properties": {
        "a": {"anyOf": [{"type": "string"}]}, "b": False, "x": True,
        "n": {"type": "number", "minimum": 0, "exclusiveMinimum": True},
        "t": {"type": "array", "items": [{"type": "string"}], "additionalItems": False}}}
    before = jsonschema.Draft4Validator(given).is_valid(instance)  # draft-04 reads every form used above
    after = jsonschema.Draft202012Validator(normalise(given)).is_valid(instance)
    assert before == after
