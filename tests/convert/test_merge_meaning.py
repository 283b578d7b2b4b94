"""`allOf` merged for targets without it keeps what the schema accepts: JSON Schema applies each part's
`additionalProperties` to the keys that part does not list, so closed parts intersect. Judged by a JSON
Schema validator on the source and on the output, never by the walker's own account."""

from __future__ import annotations

import itertools
from typing import Any

import jsonschema
import pytest
from toolcast.adapters.canonical import CanonicalTool
from toolcast.adapters.convert import convert
from toolcast.adapters.losses import Effect

from .sdk import schema_of

STR = {"type": "string"}


def closed(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "additionalProperties": False}


#: The issue's case: a root closed with `outer`, `allOf: [{$ref: T}]`, T closed with `inner`: only {} is valid.
BOTH_CLOSED = {**closed(outer=STR), "allOf": [{"$ref": "#/$defs/T"}], "$defs": {"T": closed(inner=STR)}}
CASES = {
    "both closed": BOTH_CLOSED,
    "both closed, inline": {**closed(outer=STR), "allOf": [closed(inner=STR)]},
    "root closed, branch open": {**closed(outer=STR), "allOf": [{"type": "object", "properties": {"inner": STR}}]},
    "root open, branch closed": {"type": "object", "properties": {"outer": STR}, "allOf": [closed(inner=STR)]},
    "both open": {"type": "object", "properties": {"outer": STR},
                  "allOf": [{"type": "object", "properties": {"inner": STR}}]},
    "shared name, both closed": {**closed(a=STR, outer=STR), "allOf": [closed(a={"maxLength": 3}, inner=STR)]},
    "closed with a map": {**closed(outer=STR), "allOf": [{"type": "object", "properties": {"inner": STR},
                                                           "additionalProperties": {"type": "string",
                                                                                    "maxLength": 5}}]},
}
INSTANCES = [dict(zip(keys, values, strict=True))
             for n in range(4) for keys in itertools.combinations(["outer", "inner", "a"], n)
             for values in itertools.product(["x", 1, "long text"], repeat=n)]
#: Targets that merge `allOf` and keep JSON Schema's `additionalProperties` (strict OpenAI closes every
#: object, so only instances the source accepts can be compared there; its other losses are reported).
MERGING = ["openai", "openai-responses", "gemini-json"]


def _accepted(schema: Any) -> list[bool]:
    validator = jsonschema.Draft202012Validator(schema)
    return [validator.is_valid(i) for i in INSTANCES]


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("target", MERGING)
def test_merged_all_of_accepts_what_the_source_accepts_or_says_it_widens(case: str, target: str) -> None:
    source = CASES[case]
    conv = convert(CanonicalTool("t", "d", source), target)
    assert conv.ok, [loss.message for loss in conv.losses]
    out = schema_of(target, conv.output)
    assert "allOf" not in out
    before, after = _accepted(source), _accepted(out)
    widened = [i for i, b, a in zip(INSTANCES, before, after, strict=True) if a and not b]
    narrowed = [i for i, b, a in zip(INSTANCES, before, after, strict=True) if b and not a]
    effects = {loss.effect for loss in conv.losses}
    assert not widened or Effect.WIDENING in effects, widened
    # Strict mode narrows (closes objects, requires members, nullable for absent): only reported narrowing.
    assert not narrowed or Effect.NARROWING in effects or target != "gemini-json", narrowed


def test_the_issues_case_accepts_only_the_empty_object_everywhere_it_is_merged() -> None:
    for target in MERGING:
        out = schema_of(target, convert(CanonicalTool("t", "d", BOTH_CLOSED), target).output)
        validator = jsonschema.Draft202012Validator(out)
        assert validator.is_valid({})
        assert not validator.is_valid({"outer": "x"}) and not validator.is_valid({"inner": "x"})
        assert not validator.is_valid({"outer": "x", "inner": "y"})


def test_the_merge_says_which_keys_can_never_be_sent() -> None:
    conv = convert(CanonicalTool("t", "d", BOTH_CLOSED), "gemini-json")
    (merge,) = [loss for loss in conv.losses if loss.keyword == "allOf"]
    assert merge.effect == Effect.NEUTRAL and "`outer`" in merge.message and "never be sent" in merge.message


def test_a_closed_part_that_does_not_list_a_required_key_refuses() -> None:
    schema = {**closed(outer=STR), "required": ["outer"], "allOf": [closed(inner=STR)]}
    assert not jsonschema.Draft202012Validator(schema).is_valid({"outer": "x"})  # nothing is valid
    for target in MERGING:
        conv = convert(CanonicalTool("t", "d", schema), target)
        assert not conv.ok and any("accepts nothing" in loss.message for loss in conv.losses)


def test_a_closed_part_with_pattern_properties_is_merged_as_a_reported_widening() -> None:
    schema = {**closed(outer=STR), "allOf": [{**closed(inner=STR), "patternProperties": {"^x": STR}}]}
    conv = convert(CanonicalTool("t", "d", schema), "gemini-json")
    assert any(loss.keyword == "allOf" and loss.effect == Effect.WIDENING for loss in conv.losses)


def test_the_source_schema_is_left_as_it_was() -> None:
    source = {**closed(outer=STR), "allOf": [closed(inner=STR)]}
    tool = CanonicalTool("t", "d", source)
    convert(tool, "openai")
    assert tool.parameters["properties"] == {"outer": STR}


def test_an_open_part_with_pattern_properties_next_to_a_closed_one_is_kept_and_reported() -> None:
    schema = {**closed(outer=STR), "allOf": [{"type": "object", "patternProperties": {"^x": {"type": "integer"}}}]}
    conv = convert(CanonicalTool("t", "d", schema), "gemini-json")
    out = schema_of("gemini-json", conv.output)
    assert out.get("patternProperties") == {"^x": {"type": "integer"}} or any(
        loss.keyword == "patternProperties" for loss in conv.losses)
    assert any(loss.keyword == "allOf" and loss.effect == Effect.WIDENING for loss in conv.losses)
