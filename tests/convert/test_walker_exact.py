"""The schema walker, mode setting by mode setting: ``lower`` on small schemas with every output, loss and
round-trip record written out by hand (issue 17: the mutants of ``walker.py`` that the broader conversion
tests let through).

Each mode is the smallest one that turns the behaviour on (the settings are those of the capability
profiles in ``schemas/providers``, documented in ``docs/design.md``); the target name is ``t``. Where a
rewrite claims to keep the meaning (a NEUTRAL loss), instances are validated with ``jsonschema`` against
the original and the output; where it narrows or widens, the instances that change sides are named."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from toolcast.adapters.convert.walker import lower
from toolcast.adapters.losses import Action, Effect

LOWERED, FOLDED, DROPPED, REJECTED = Action.LOWERED, Action.FOLDED, Action.DROPPED, Action.REJECTED
NEUTRAL, WIDENING, NARROWING, UNSAT = Effect.NEUTRAL, Effect.WIDENING, Effect.NARROWING, Effect.UNSATISFIABLE


def run(schema: Any, mode: dict[str, Any], base: str = "/p") -> tuple[Any, list[tuple[Any, ...]], dict[str, Any]]:
    out, losses, record = lower(schema, base, "t", mode)
    return out, [(x.pointer, x.keyword, x.value, x.action, x.effect, x.message) for x in losses], record


def obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


def same_instances(a: Any, b: Any, instances: list[Any]) -> None:
    for instance in instances:
        assert jsonschema.Draft202012Validator(a).is_valid(instance) == \
            jsonschema.Draft202012Validator(b).is_valid(instance), instance


# -- $ref: kept or inlined ---------------------------------------------------------------------------

REF = {"type": "object", "properties": {"a": {"$ref": "#/$defs/s"}}, "$defs": {"s": {"type": "string"}}}
REF_INLINED = {"type": "object", "properties": {"a": {"type": "string"}}}
REF_LOSSES = [("/p/$defs", "$defs", {"s": {"type": "string"}}, LOWERED, NEUTRAL,
               "definitions are inlined where they are used for t"),
              ("/p/properties/a/$ref", "$ref", "#/$defs/s", LOWERED, NEUTRAL, "`$ref` #/$defs/s is inlined for t")]


@pytest.mark.parametrize("mode,inlined", [
    ({}, False), ({"refs": "keep", "recursion": True}, False), ({"refs": "inline"}, True),
    ({"recursion": False}, True), ({"refs": "keep", "recursion": False}, True),
])
def test_refs_are_kept_unless_the_mode_inlines_them(mode: dict[str, Any], inlined: bool) -> None:
    out, losses, record = run(REF, mode)
    assert (out, losses, record) == ((REF_INLINED, REF_LOSSES, {}) if inlined else (REF, [], {}))
    same_instances(REF, out, ["x", {"a": "x"}, {"a": 1}, {}])


def test_refs_into_definitions_are_kept_with_the_definitions() -> None:
    schema = {"type": "object", "properties": {"a": {"$ref": "#/definitions/s"}},
              "definitions": {"s": {"type": "string"}}}
    assert run(schema, {}) == (schema, [], {})


def test_a_ref_into_properties_is_inlined_even_where_refs_are_kept() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"$ref": "#/properties/a"}}}
    out, losses, _ = run(schema, {})
    assert out == {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}
    assert losses == [("/p/properties/b/$ref", "$ref", "#/properties/a", LOWERED, NEUTRAL,
                       "`$ref` #/properties/a is inlined for t")]


def test_losses_inside_an_inlined_definition_are_reported_at_the_definition() -> None:
    mode = {"refs": "inline", "keywords": {"minLength": "drop"}}
    defs = {"a": {"type": "object", "properties": {"s": {"type": "string", "minLength": 1}}}}
    schema = {"type": "object", "$ref": "#/$defs/a", "$defs": defs}
    out, losses, _ = run(schema, mode)
    assert out == {"type": "object", "properties": {"s": {"type": "string"}}}
    assert losses == [
        ("/p/$defs", "$defs", defs, LOWERED, NEUTRAL, "definitions are inlined where they are used for t"),
        ("/p/$defs/a/properties/s/minLength", "minLength", 1, DROPPED, WIDENING,
         "`minLength` is not supported by t; dropped"),
        ("/p/$ref", "$ref", "#/$defs/a", LOWERED, NEUTRAL, "`$ref` #/$defs/a is inlined for t"),
    ]
    # The same schema lowered at the document's root: the definition's own pointer.
    _, losses, _ = run(schema, mode, base="")
    assert [x[0] for x in losses] == ["/$defs", "/$defs/a/properties/s/minLength", "/$ref"]


# -- allOf merged ------------------------------------------------------------------------------------

MERGE = {"allOf": "merge"}
MERGED = "`allOf` branches merged into one schema for t"


def test_allof_skips_true_and_empty_branches_and_merges_the_rest() -> None:
    branches = [True, {}, {"type": "string"}, {"minLength": 1}]
    out, losses, _ = run(obj(v={"allOf": branches}), MERGE)
    assert out == obj(v={"type": "string", "minLength": 1})
    assert losses == [("/p/properties/v/allOf", "allOf", branches, LOWERED, NEUTRAL, MERGED)]
    same_instances(obj(v={"allOf": branches}), out, [{"v": ""}, {"v": "a"}, {"v": 1}, {}])


def test_allof_with_a_false_branch_accepts_nothing() -> None:
    branches = [{"type": "string"}, False, {"minLength": 1}]
    out, losses, _ = run(obj(v={"allOf": branches}), MERGE)
    assert out == obj(v={"type": "string"})
    assert losses == [("/p/properties/v/allOf", "allOf", branches, REJECTED, UNSAT,
                       "`allOf` with a `false` branch accepts nothing")]


def test_allof_merges_properties_required_and_keeps_the_first_annotations() -> None:
    branches = [
        {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]},
        {"properties": {"a": {"type": "string"}, "b": {"minimum": 0}, "c": {"type": "boolean"}},
         "required": ["b", "a"], "description": "second", "title": "T2"},
        {"description": "third", "title": "T3"},
    ]
    schema = obj(v={"allOf": branches, "description": "own"})
    out, losses, _ = run(schema, MERGE)
    assert out == obj(v={"description": "own", "type": "object", "title": "T2", "required": ["a", "b"],
                         "properties": {"a": {"type": "string"}, "b": {"type": "integer", "minimum": 0},
                                        "c": {"type": "boolean"}}})
    assert out["properties"]["v"]["required"] == ["a", "b"]  # order of first appearance
    assert losses == [
        ("/p/properties/v/allOf", "allOf", branches, LOWERED, NEUTRAL, MERGED),
        ("/p/properties/v/properties/b/allOf", "allOf", [{"type": "integer"}, {"minimum": 0}], LOWERED, NEUTRAL,
         MERGED),
    ]
    same_instances(schema, out, [{"v": {}}, {"v": {"a": "x"}}, {"v": {"a": "x", "b": 1}}, {"v": {"a": "x", "b": -1}},
                                 {"v": {"a": "x", "b": 1, "c": 2}}, {"v": {"a": "x", "b": 1.5}}])


def test_allof_branches_that_disagree_are_refused() -> None:
    branches = [{"type": "string"}, {"type": "integer"}]
    out, losses, _ = run(obj(v={"allOf": branches}), MERGE)
    assert out == obj(v={"type": "string"})
    assert losses == [("/p/properties/v/allOf/1/type", "allOf", branches, REJECTED, UNSAT,
                       "`allOf` branches disagree on `type` and t has no `allOf`: toolcast will not emit a schema "
                       "that means something else")]


def test_allof_inside_allof_is_merged_with_its_own_pointers() -> None:
    inner = [{"type": "string"}, {"type": "integer"}]
    out, losses, _ = run(obj(v={"allOf": [{"allOf": inner}]}), MERGE)
    assert out == obj(v={"type": "string"})
    assert [x[:4] for x in losses] == [
        ("/p/properties/v/allOf", "allOf", [{"allOf": inner}], LOWERED),
        ("/p/properties/v/allOf/0/allOf/1/type", "allOf", inner, REJECTED),
    ]


def test_allof_branches_that_are_refs_are_resolved_at_their_own_pointer() -> None:
    schema = {"type": "object", "properties": {"v": {"allOf": [{"$ref": "#/$defs/s"}, {"minLength": 1}]}},
              "$defs": {"s": {"type": "string"}}}
    out, losses, _ = run(schema, {"allOf": "merge", "refs": "inline"})
    assert out == obj(v={"type": "string", "minLength": 1})
    assert [x[:4] for x in losses] == [
        ("/p/$defs", "$defs", {"s": {"type": "string"}}, LOWERED),
        ("/p/properties/v/allOf", "allOf", [{"$ref": "#/$defs/s"}, {"minLength": 1}], LOWERED),
        ("/p/properties/v/allOf/0/$ref", "$ref", "#/$defs/s", LOWERED),
    ]


# -- dirty type names --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["any", "unknown", "json", "", "TYPE_UNSPECIFIED", " Any "])
def test_type_names_meaning_any_value_remove_the_type(name: str) -> None:
    out, losses, _ = run(obj(v={"type": name, "description": "d"}), {})
    assert out == obj(v={"description": "d"})
    assert losses == [("/p/properties/v/type", "type", name, LOWERED, NEUTRAL,
                       f"type `{name}` is not a JSON Schema type; read as any value (no `type`)")]


@pytest.mark.parametrize("name,expected", [
    ("List[str]", {"type": "array", "items": {"type": "string"}}),
    ("list<Integer>", {"type": "array", "items": {"type": "integer"}}),
    ("Tuple[dict]", {"type": "array", "items": {"type": "object"}}),
    ("list[any]", {"type": "array", "items": {}}),
    ("list[Widget]", {"type": "array"}),  # an unknown item type: any item
    ("list[str, int]", {"type": "array"}),  # several item types: not guessed
    ("list[list[int]]", {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}),
    ("Dict[str, int]", {"type": "object"}),
    ("Map<String,Integer>", {"type": "object"}),
    ("FLOAT", {"type": "number"}),
    ("NoneType", {"type": "null"}),
])
def test_generic_and_foreign_type_names_are_read_as_json_schema_types(name: str, expected: dict[str, Any]) -> None:
    out, losses, _ = run(obj(v={"type": name}), {})
    assert out == obj(v=expected)
    assert losses == [("/p/properties/v/type", "type", name, LOWERED, NEUTRAL,
                       f"type `{name}` is not a JSON Schema type; read as `{expected['type']}`")]


def test_items_already_there_win_over_the_type_names_item() -> None:
    out, _, _ = run(obj(v={"type": "list[int]", "items": {"type": "string"}}), {})
    assert out == obj(v={"type": "array", "items": {"type": "string"}})


@pytest.mark.parametrize("name", ["widget", "Optional[str]", "Foo<int>", "list["])
def test_unknown_type_names_are_refused_and_left_alone(name: str) -> None:
    out, losses, _ = run(obj(v={"type": name}), {})
    assert out == obj(v={"type": name})
    assert losses == [("/p/properties/v/type", "type", name, REJECTED, UNSAT,
                       f"type `{name}` is not a JSON Schema type and toolcast does not know what it stands for; "
                       "use string, number, integer, boolean, object, array or null")]


def test_type_lists_with_dirty_names() -> None:
    out, losses, _ = run(obj(v={"type": ["str", "none"]}, w={"type": ["int", "integer"]}, x={"type": ["any", "int"]}),
                         {})
    assert out == obj(v={"type": ["string", "null"]}, w={"type": ["integer"]}, x={})
    assert [x[0] for x in losses] == ["/p/properties/v/type", "/p/properties/w/type", "/p/properties/x/type"]
    assert losses[0][5] == 'type `["str", "none"]` is not a JSON Schema type; read as `["string", "null"]`'
    assert losses[2][5] == 'type `["any", "int"]` is not a JSON Schema type; read as any value (no `type`)'
    assert run(obj(v={"type": ["string", "null"]}), {}) == (obj(v={"type": ["string", "null"]}), [], {})


# -- types inferred for modes that need a type on every node -------------------------------------------

TYPED = {"typed_nodes": True}


@pytest.mark.parametrize("values,kind", [
    ([True, False], "boolean"), ([1.5], "number"), ([2, 3], "integer"), (["a"], "string"), ([[1]], "array"),
    ([{"k": 1}], "object"), ([None], "null"),
])
def test_the_type_of_enum_values_is_added(values: list[Any], kind: str) -> None:
    out, losses, _ = run(obj(v={"enum": values}), TYPED)
    assert out == obj(v={"enum": values, "type": kind})
    assert losses == [("/p/properties/v/type", "type", None, LOWERED, NEUTRAL,
                       f"t needs a `type` on every schema: `{kind}`, the type of its values, added")]


def test_const_gives_its_type_and_mixed_values_a_type_list() -> None:
    out, losses, _ = run(obj(c={"const": "x"}, m={"enum": ["a", 1, None, True]}), TYPED)
    assert out == obj(c={"const": "x", "type": "string"}, m={"enum": ["a", 1, None, True],
                                                              "type": ["string", "integer", "boolean", "null"]})
    assert losses[1] == ("/p/properties/m/type", "type", None, LOWERED, NEUTRAL,
                         "t needs a `type` on every schema: the types of its values added")
    same_instances(obj(m={"enum": ["a", 1, None, True]}), out, [{"m": "a"}, {"m": 1}, {"m": None}, {"m": 2}])


def test_a_node_with_no_type_at_all_becomes_a_union() -> None:
    out, losses, _ = run(obj(v={}), TYPED)
    scalar = [{"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}]
    assert out == obj(v={"anyOf": [*scalar, {"type": "array", "items": {"anyOf": scalar}}]})
    assert losses == [("/p/properties/v/type", "type", None, LOWERED, NARROWING,
                       "t needs a `type` on every schema: this one (any value) becomes a union of types; "
                       "objects and nested arrays can no longer be sent")]
    v = jsonschema.Draft202012Validator(out["properties"]["v"])
    assert all(v.is_valid(x) for x in ("s", 1, 1.5, True, None, [1, "a", None]))
    assert not v.is_valid({"k": 1}) and not v.is_valid([[1]])  # what the narrowing loss names


def test_a_node_with_no_type_becomes_a_union_without_null_where_anyof_stands_alone() -> None:
    out, losses, _ = run(obj(v={}), {"typed_nodes": True, "any_of_alone": True})
    assert out == obj(v={"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"},
                                   {"type": "array", "items": {"type": "string"}}]})
    assert losses[0][4:] == (NARROWING, "t needs a `type` on every schema: this one (any value) becomes a union "
                                        "of types; objects, null (unless nullable) and arrays of other than strings "
                                        "can no longer be sent")


# -- enums a target cannot state ---------------------------------------------------------------------

@pytest.mark.parametrize("kind,schema,words", [
    ("primitive", {"enum": [{"a": 1}, "x"]}, "primitive"),
    ("string_or_number", {"enum": [True, 1]}, "string or number"),
    ("string", {"type": "integer", "enum": [1, 2]}, "string"),
    ("string", {"enum": ["a", 2]}, "string"),
])
def test_enums_the_target_cannot_state_are_folded_with_the_kind_it_accepts(kind: str, schema: dict[str, Any],
                                                                          words: str) -> None:
    out, losses, _ = run(obj(e=schema), {"enum": kind})
    text = '{"enum": ' + str(schema["enum"]).replace("'", '"').replace("True", "true") + "}"
    expected = {k: v for k, v in schema.items() if k != "enum"} | {"description": f"(constraints: {text})"}
    assert out == obj(e=expected)
    assert losses == [("/p/properties/e/enum", "enum", schema["enum"], FOLDED, WIDENING,
                       f"t only accepts {words} enum values; stated in the description instead")]


@pytest.mark.parametrize("kind,values", [("primitive", ["a", 1, 1.5, True, None]), ("string_or_number", ["a", 1, 2.5]),
                                         ("string", ["a", "b"]), ("any", [{"a": 1}, [1]])])
def test_enums_the_target_can_state_are_kept(kind: str, values: list[Any]) -> None:
    assert run(obj(e={"enum": values}), {"enum": kind}) == (obj(e={"enum": values}), [], {})


# -- JSON text for free-form objects (Gemini) -----------------------------------------------------------

def test_a_free_form_object_is_asked_for_as_json_text() -> None:
    mode = {"object_properties_nonempty": True}
    schema = obj(m={"type": "object", "additionalProperties": {"type": "string"}, "description": "labels",
                    "title": "L", "nullable": True},
                 e={"type": "object", "properties": {}}, k={"type": "object", "properties": {"x": {"type": "string"}}})
    out, losses, record = run(schema, mode)
    assert out == obj(m={"type": "string", "description": "labels (a JSON object, as text)", "nullable": True,
                         "title": "L"},
                      e={"type": "string", "description": "A JSON object, as text"},
                      k={"type": "object", "properties": {"x": {"type": "string"}}})
    message = ("t cannot declare an object without properties: asked for as a JSON string (parsed back by toolcast; "
               "text that is not a JSON object is no longer refused by the schema)")
    assert losses == [("/p/properties/e/type", "type", "object", LOWERED, WIDENING, message),
                      ("/p/properties/m/type", "type", "object", LOWERED, WIDENING, message)]
    assert record == {"json_text": ["/p/properties/e", "/p/properties/m"]}
    # The root is never turned into text, even without properties.
    assert run({"type": "object"}, mode) == ({"type": "object"}, [], {})
