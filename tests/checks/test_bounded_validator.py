"""The bounded validator (patterns matched under a time limit) against jsonschema's own 2020-12 validator, the
oracle, on schemas whose patterns are cheap: the same errors, at the same places, with the same messages, for
every keyword it replaces (``pattern``, ``patternProperties``, ``additionalProperties``,
``unevaluatedProperties``) and the keywords whose annotations ``unevaluatedProperties`` reads."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from toolcast.adapters.schema import patterns
from toolcast.adapters.schema.bounded import BoundedValidator, PatternTooCostly, instance_problems, located

KEYS = ["a", "ab", "b", "x1", "Z"]
PATTERNS = ["^a", "b$", r"\d", "^[A-Z]$", "^(a|b)+$"]
leaf = st.sampled_from([{}, {"type": "integer"}, {"type": "string"}, {"pattern": "^a"}, False, True])
properties = st.dictionaries(st.sampled_from(KEYS), leaf, max_size=3)
pattern_properties = st.dictionaries(st.sampled_from(PATTERNS), leaf, max_size=2)


def _object(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    keyword = st.one_of(
        st.tuples(st.just("properties"), properties),
        st.tuples(st.just("patternProperties"), pattern_properties),
        st.tuples(st.sampled_from(["additionalProperties", "unevaluatedProperties"]), leaf),
        st.tuples(st.just("propertyNames"), st.sampled_from([{"pattern": p} for p in PATTERNS])),
        st.tuples(st.sampled_from(["allOf", "anyOf", "oneOf"]), st.lists(children, min_size=1, max_size=2)),
        st.tuples(st.sampled_from(["if", "then", "else", "not"]), children),
        st.tuples(st.just("dependentSchemas"), st.dictionaries(st.sampled_from(KEYS), children, max_size=1)),
        st.tuples(st.just("$ref"), st.just("#/$defs/d")),
    )
    return st.lists(keyword, max_size=4).map(dict)


schemas = st.recursive(_object(leaf), _object, max_leaves=6)
scalars = st.none() | st.integers(-2, 2) | st.sampled_from(["", "a", "ab", "ba", "Z", "9"])
instances = st.dictionaries(st.sampled_from(KEYS), scalars, max_size=4) | scalars


def _errors(validator: Any, instance: Any) -> list[tuple[str, str, str]]:
    return sorted((str(list(e.absolute_path)), str(list(e.absolute_schema_path)), e.message)
                  for e in validator.iter_errors(instance))


DEFS = {"d": {"properties": {"a": {"type": "integer"}}, "patternProperties": {"^x": {}}}}


@settings(max_examples=600, deadline=None)
@given(schema=schemas, instance=instances)
def test_same_errors_as_jsonschema(schema: dict[str, Any], instance: Any) -> None:
    root = {**schema, "$defs": DEFS}
    assert _errors(BoundedValidator(root), instance) == _errors(Draft202012Validator(root), instance)


@settings(max_examples=600, deadline=None)
@given(schema=schemas, instance=st.dictionaries(st.sampled_from(KEYS), scalars, min_size=1, max_size=4))
def test_same_unevaluated_properties_as_jsonschema(schema: dict[str, Any], instance: Any) -> None:
    """Which keys the subschemas evaluated, through every keyword that annotates them."""
    root = {**schema, "unevaluatedProperties": False, "$defs": DEFS}
    assert _errors(BoundedValidator(root), instance) == _errors(Draft202012Validator(root), instance)


@pytest.mark.parametrize("schema", [
    {"if": {"required": ["a"]}, "then": {"properties": {"b": True}}, "else": {"patternProperties": {"^Z": True}}},
    {"if": {"required": ["Z"]}, "then": {"properties": {"b": True}}, "else": {"patternProperties": {"^a": True}}},
    {"if": {"patternProperties": {"^a": True}}, "then": {"properties": {"Z": True}}},
    {"dependentSchemas": {"a": {"patternProperties": {"b$": True}}}},
    {"anyOf": [{"patternProperties": {"^a": True}}, {"properties": {"b": True}}]},
    {"$ref": "#/$defs/d", "patternProperties": {"^Z$": {"type": "integer"}}},
])
@pytest.mark.parametrize("instance", [{"a": 1, "b": 2}, {"ab": 1, "Z": 2}, {"x1": 1, "b": None}])
def test_same_annotations_as_jsonschema(schema: dict[str, Any], instance: Any) -> None:
    root = {**schema, "unevaluatedProperties": False, "$defs": DEFS}
    assert _errors(BoundedValidator(root), instance) == _errors(Draft202012Validator(root), instance)


@pytest.mark.parametrize(("schema", "instance"), [
    ({"pattern": "^(a|aa)+$"}, "a" * 40 + "!"),
    ({"patternProperties": {"^(a|aa)+$": {}}}, {"a" * 40 + "!": 1}),
    ({"propertyNames": {"pattern": "^(a|aa)+$"}}, {"a" * 40 + "!": 1}),
    ({"properties": {"x": True}, "additionalProperties": False, "patternProperties": {"^(a|aa)+$": {}}},
     {"a" * 40 + "!": 1}),
    ({"unevaluatedProperties": False, "patternProperties": {"^(a|aa)+$": {}}}, {"a" * 40 + "!": 1}),
    ({"not": {"pattern": "^(a|aa)+$"}}, "a" * 40 + "!"),  # neither a pass nor a failure: unknown
    ({"anyOf": [{"pattern": "^(a|aa)+$"}, {"type": "integer"}]}, "a" * 40 + "!"),
])
def test_a_pattern_out_of_time_stops_the_validation(schema: dict[str, Any], instance: Any) -> None:
    with pytest.raises(PatternTooCostly):
        list(BoundedValidator(schema).iter_errors(instance))


def test_problems_name_the_value_or_key_out_of_time() -> None:
    evil = "a" * 40 + "!"
    schema = {"properties": {"deep": {"items": {"pattern": "^(a|aa)+$"}}, "m": {"propertyNames": {
        "pattern": "^(b|bb)+$"}}}}
    ((where, message),) = instance_problems(schema, {"ok": "x", "deep": ["aa", evil]})
    assert where == "/deep/1" and "could not be checked" in message and "value" in message
    ((where, message),) = instance_problems(schema, {"m": {"b" * 40 + "!": 1}})
    assert where == "/m/" + "b" * 40 + "!" and "key" in message
    assert located({"k": ["no"]}, PatternTooCostly("p", "absent", False, "why")) is None


def test_a_costly_pattern_is_not_condemned_for_other_values() -> None:
    """A pattern that ran out of time on one value still answers for a value it matches at once: an agent's
    next call is judged, not refused because an earlier argument backtracked."""
    with pytest.raises(PatternTooCostly):
        patterns.search("^(a|aa)+$", "a" * 40 + "!")
    assert patterns.search("^(a|aa)+$", "aaaa")
    assert instance_problems({"pattern": "^(a|aa)+$"}, "aaaa") == []


def test_the_tool_allowance_stops_matching_once_spent() -> None:
    """Within an allowance, a pattern run after the allowance is spent is not run: cheap or not, it is too
    costly at once; outside it the same pattern is matched again."""
    cheap = "^a+$"
    with patterns.pattern_time(0.0), pytest.raises(PatternTooCostly) as stopped:
        patterns.search(cheap, "aaa")
    assert "ran out" in stopped.value.why
    assert patterns.search(cheap, "aaa")
    with pytest.raises(PatternTooCostly) as long:
        patterns.search("a" * (patterns.MAX_PATTERN + 1), "a")
    assert "longer than" in long.value.why
