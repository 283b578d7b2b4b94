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


# -- anyOf alone (Gemini: "When using any_of, it must be the only field set") ----------------------------

ALONE = {"any_of_alone": True}
STR, INT, NULL = {"type": "string"}, {"type": "integer"}, {"type": "null"}


def test_anyof_of_one_schema_and_null_becomes_that_schema_and_nullable() -> None:
    v = {"anyOf": [STR, NULL], "default": None, "title": "Query", "description": "q"}
    out, losses, _ = run(obj(v=v), ALONE)
    assert out == obj(v={"type": "string", "default": None, "title": "Query", "description": "q", "nullable": True})
    assert losses == [("/p/properties/v/anyOf", "anyOf", [STR, NULL], LOWERED, NEUTRAL,
                       "`anyOf` of one schema and null becomes that schema + `nullable` for t")]


def test_a_sibling_that_disagrees_with_the_one_branch_is_refused() -> None:
    v = {"anyOf": [{"type": "string", "minLength": 2}, NULL], "minLength": 1}
    out, losses, _ = run(obj(v=v), ALONE)
    assert out == obj(v={"type": "string", "minLength": 2, "nullable": True})
    assert losses == [
        ("/p/properties/v/anyOf", "anyOf", [{"type": "string", "minLength": 2}, NULL], LOWERED, NEUTRAL,
         "`anyOf` of one schema and null becomes that schema + `nullable` for t"),
        ("/p/properties/v/minLength", "minLength", 1, REJECTED, UNSAT,
         "`minLength` next to `anyOf` disagrees with its branch and t accepts `anyOf` only alone"),
    ]


@pytest.mark.parametrize("extra", [{}, {"description": "d"}])
def test_a_nested_anyof_left_with_siblings_is_lowered_again(extra: dict[str, Any]) -> None:
    out, _, _ = run(obj(v={"anyOf": [{"anyOf": [STR, INT]}, NULL], **extra}), ALONE)
    assert out == obj(v={"anyOf": [{**STR, **extra, "nullable": True}, {**INT, **extra, "nullable": True}]})


def test_siblings_move_into_each_branch_and_whole_node_annotations_are_dropped() -> None:
    v = {"anyOf": [STR, {"description": "own", "type": "integer"}, True], "title": "T", "default": 1, "example": 2,
         "examples": [3], "description": "d", "minimum": 0}
    out, losses, _ = run(obj(v=v), ALONE)
    branches = out["properties"]["v"]["anyOf"]
    assert out == obj(v={"anyOf": [{"type": "string", "description": "d", "minimum": 0},
                                   {"type": "integer", "description": "own", "minimum": 0},
                                   {"description": "d", "minimum": 0}]})
    assert [list(b) for b in branches] == [["type", "description", "minimum"], ["type", "description", "minimum"],
                                          ["description", "minimum"]]  # `type` first, then the branch's order
    assert losses == [("/p/properties/v/anyOf", "anyOf", v["anyOf"], LOWERED, NEUTRAL,
                       "the keywords next to `anyOf` are moved into each branch for t")] + [
        (f"/p/properties/v/{k}", k, v[k], DROPPED, NEUTRAL,
         f"t accepts `anyOf` only alone: `{k}` next to it is not sent")
        for k in ("default", "example", "examples", "title")]
    same_instances(obj(v=v), out, [{"v": "a"}, {"v": 5}, {"v": -1}, {"v": 1.5}, {"v": None}])


def test_a_sibling_that_a_branch_has_its_own_value_for_is_refused() -> None:
    v = {"anyOf": [{"type": "integer", "minimum": 5}, {"type": "string", "nullable": False}], "minimum": 0,
         "nullable": True, "description": "d"}
    out, losses, _ = run(obj(v=v), ALONE)
    assert out == obj(v={"anyOf": [{"type": "integer", "minimum": 5, "nullable": True, "description": "d"},
                                   {"type": "string", "nullable": False, "minimum": 0, "description": "d"}]})
    assert losses == [
        ("/p/properties/v/anyOf", "anyOf", v["anyOf"], LOWERED, NEUTRAL,
         "the keywords next to `anyOf` are moved into each branch for t"),
        ("/p/properties/v/minimum", "minimum", 0, REJECTED, UNSAT,
         "`minimum` next to `anyOf` cannot be moved into a branch that has its own; t accepts `anyOf` only alone"),
    ]


def test_anyof_alone_leaves_a_lone_anyof_and_other_modes_alone() -> None:
    assert run(obj(v={"anyOf": [STR, INT]}), ALONE) == (obj(v={"anyOf": [STR, INT]}), [], {})
    assert run(obj(v={"anyOf": [STR, NULL], "title": "x"}), {}) == (obj(v={"anyOf": [STR, NULL], "title": "x"}), [], {})


# -- additionalProperties ----------------------------------------------------------------------------

@pytest.mark.parametrize("value,effect", [(True, NEUTRAL), (False, WIDENING), ({"type": "string"}, WIDENING)])
def test_additional_properties_dropped(value: Any, effect: Effect) -> None:
    out, losses, _ = run({"type": "object", "additionalProperties": value}, {"additionalProperties": "drop"})
    assert out == {"type": "object"}
    assert losses == [("/p/additionalProperties", "additionalProperties", value, DROPPED, effect,
                       "`additionalProperties` is not supported by t; dropped")]


@pytest.mark.parametrize("value", [True, {"type": "string"}])
def test_closed_objects_close_open_maps(value: Any) -> None:
    out, losses, record = run({"type": "object", "properties": {}, "additionalProperties": value},
                              {"closed_objects": True})
    assert out == {"type": "object", "properties": {}, "additionalProperties": False}
    assert losses == [("/p/additionalProperties", "additionalProperties", value, LOWERED, NARROWING,
                       "t strict mode needs closed objects: extra keys (a map) can no longer be sent")]
    assert record == {}  # nothing added: the keyword was there
    assert not jsonschema.Draft202012Validator(out).is_valid({"k": "v"})


def test_additional_properties_schemas_are_lowered_and_already_closed_objects_stay() -> None:
    mode = {"keywords": {"minLength": "drop"}}
    out, losses, _ = run({"type": "object", "additionalProperties": {"type": "string", "minLength": 1}}, mode)
    assert out == {"type": "object", "additionalProperties": {"type": "string"}}
    assert [x[0] for x in losses] == ["/p/additionalProperties/minLength"]
    closed = {"type": "object", "properties": {}, "additionalProperties": False}
    assert run(closed, {"closed_objects": True}) == (closed, [], {})


@pytest.mark.parametrize("key", ["additionalProperties", "items", "not"])
def test_the_depth_limit_counts_one_level_per_subschema(key: str) -> None:
    def nested(levels: int) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "string"}
        for _ in range(levels):
            schema = {key: schema}
        return {"type": "object", **schema}  # the innermost schema is `levels` below the root
    ok, losses, _ = run(nested(128), {})
    assert losses == [] and ok == nested(128)
    out, losses, _ = run(nested(129), {})
    assert out == {} and losses == [("/p", "", None, REJECTED, UNSAT,
                                     "schema nested deeper than 128 levels; toolcast does not convert it")]


# -- formats -----------------------------------------------------------------------------------------

GEMINI_FORMATS = {"formats": {"string": ["date-time", "enum"], "integer": ["int32"]}}


@pytest.mark.parametrize("schema,kept", [
    ({"type": "string", "format": "date-time"}, True),
    ({"type": ["string", "null"], "format": "date-time"}, True),
    ({"type": ["null", "integer"], "format": "int32"}, True),
    ({"type": "integer", "format": "date-time"}, False),
    ({"type": "boolean", "format": "date-time"}, False),  # a type with no formats at all
    ({"format": "date-time"}, False),  # no type: no format applies
    ({"type": [1, "string"], "format": "date-time"}, True),  # only the type names count
])
def test_formats_allowed_per_type(schema: dict[str, Any], kept: bool) -> None:
    out, losses, _ = run(obj(v=schema), GEMINI_FORMATS)
    if kept:
        assert (out, losses) == (obj(v=schema), [])
    else:
        rest = {k: v for k, v in schema.items() if k != "format"}
        assert out == obj(v={**rest, "description": '(constraints: {"format": "date-time"})'})
        assert losses == [("/p/properties/v/format", "format", "date-time", FOLDED, WIDENING,
                           "format `date-time` is not supported by t; stated in the description instead")]


def test_formats_allowed_for_every_type() -> None:
    mode = {"formats": ["email"]}
    assert run(obj(v={"type": "string", "format": "email"}), mode)[1] == []
    out, losses, _ = run(obj(v={"type": "string", "format": "uri", "description": "link"}), mode)
    assert out == obj(v={"type": "string", "description": 'link (constraints: {"format": "uri"})'})
    assert [x[:4] for x in losses] == [("/p/properties/v/format", "format", "uri", FOLDED)]
    assert run(obj(v={"type": "string", "format": "anything"}), {})[1] == []  # no list: every format
