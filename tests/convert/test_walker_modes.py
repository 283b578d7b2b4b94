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
from toolcast.adapters.convert import walker
from toolcast.adapters.convert.walker import lower
from toolcast.adapters.losses import Action, Effect

LOWERED, FOLDED, DROPPED, REJECTED = Action.LOWERED, Action.FOLDED, Action.DROPPED, Action.REJECTED
NEUTRAL, WIDENING, NARROWING, UNSAT = Effect.NEUTRAL, Effect.WIDENING, Effect.NARROWING, Effect.UNSATISFIABLE


def run(schema: Any, mode: dict[str, Any], base: str = "/p") -> tuple[Any, list[tuple[Any, ...]], dict[str, Any]]:
    lowered = lower(schema, base, "t", mode)
    out, losses, record = lowered.schema, lowered.losses, lowered.record
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
    # Closed even where nothing says the node is an object.
    out, losses, _ = run(obj(v={"additionalProperties": value}), {"closed_objects": True, "root_composition": True})
    assert out["properties"]["v"] == {"additionalProperties": False}
    assert ("/p/properties/v/additionalProperties", "additionalProperties", value, LOWERED, NARROWING,
            "t strict mode needs closed objects: extra keys (a map) can no longer be sent") in losses


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


# -- keyword rules: fold, drop, reject; unknown keywords ------------------------------------------------

def test_folded_keywords_go_to_the_description_in_schema_order() -> None:
    mode = {"keywords": {"minLength": "fold", "title": "fold", "pattern": "drop", "examples": "drop",
                         "maxLength": "reject"}}
    v = {"type": "string", "title": "Té", "minLength": 1, "pattern": "^a", "examples": ["a"], "maxLength": 3,
         "description": "d"}
    out, losses, _ = run(obj(v=v), mode)
    assert out == obj(v={"type": "string", "description": 'd (constraints: {"title": "Té", "minLength": 1})'})
    p = "/p/properties/v/"
    assert losses == [
        (p + "examples", "examples", ["a"], DROPPED, NEUTRAL, "`examples` is not supported by t; dropped"),
        (p + "maxLength", "maxLength", 3, REJECTED, UNSAT, "t rejects `maxLength`"),
        (p + "minLength", "minLength", 1, FOLDED, WIDENING,
         "`minLength` is not supported by t; stated in the description instead"),
        (p + "pattern", "pattern", "^a", DROPPED, WIDENING, "`pattern` is not supported by t; dropped"),
        (p + "title", "title", "Té", FOLDED, NEUTRAL,
         "`title` is not supported by t; stated in the description instead"),
    ]


@pytest.mark.parametrize("description", [None, ""])
def test_folded_keywords_without_a_description(description: str | None) -> None:
    v = {"type": "string", "minLength": 1} | ({} if description is None else {"description": description})
    out, _, _ = run(obj(v=v), {"keywords": {"minLength": "fold"}})
    assert out == obj(v={"type": "string", "description": '(constraints: {"minLength": 1})'})


def test_unknown_keywords_and_extensions() -> None:
    v = {"type": "string", "foo": 1, "x-ext": 2}
    assert run(obj(v=v), {}) == (obj(v=v), [], {})
    out, losses, _ = run(obj(v=v), {"unknown_keywords": "drop"})
    assert out == obj(v={"type": "string", "x-ext": 2})  # extensions are allowed where the schema is open
    assert losses == [("/p/properties/v/foo", "foo", 1, DROPPED, WIDENING, "`foo` is not supported by t; dropped")]
    out, losses, _ = run(obj(v=v), {"unknown_keywords": "drop", "type_case": True})
    assert out == obj(v={"type": "string"})  # Gemini's Schema is a closed message
    assert [x[:5] for x in losses] == [("/p/properties/v/foo", "foo", 1, DROPPED, WIDENING),
                                       ("/p/properties/v/x-ext", "x-ext", 2, DROPPED, NEUTRAL)]


def test_boolean_schemas() -> None:
    assert run(obj(t=True, f=False), {}) == (obj(t=True, f=False), [], {})
    out, losses, _ = run(obj(t=True, f=False), {"type_case": True})
    assert out == obj(t={}, f={"not": {}})  # what they mean, written as the mode needs: an object
    assert losses == []
    assert run(obj(n=5, s="x"), {}) == (obj(n=5, s="x"), [], {})  # not schemas at all: copied as they are


def test_oneof_becomes_anyof_where_the_target_has_no_oneof() -> None:
    out, losses, _ = run(obj(v={"oneOf": [STR, INT]}), {"oneOf": "anyOf"})
    assert out == obj(v={"anyOf": [STR, INT]})
    assert losses == [("/p/properties/v/oneOf", "oneOf", [STR, INT], LOWERED, WIDENING,
                       '`oneOf` becomes `anyOf` for t: "exactly one" is no longer enforced')]
    out, _, _ = run(obj(v={"anyOf": [NULL], "oneOf": [STR, INT]}), {"oneOf": "anyOf"})
    assert out == obj(v={"anyOf": [NULL, STR, INT]})
    assert run(obj(v={"oneOf": [STR, INT]}), {}) == (obj(v={"oneOf": [STR, INT]}), [], {})


def test_malformed_subschema_containers_are_copied() -> None:
    v = {"anyOf": "x", "properties": 5, "items": True}
    assert run(obj(v=v), {}) == (obj(v=v), [], {})


# -- const, minItems and type lists ------------------------------------------------------------------

def test_const_becomes_a_one_value_enum() -> None:
    out, losses, _ = run(obj(v={"const": "x"}), {"const": "enum"})
    assert out == obj(v={"enum": ["x"]})
    assert losses == [("/p/properties/v/const", "const", "x", LOWERED, NEUTRAL,
                       "`const` becomes a one-value `enum` for t")]
    both = {"const": "x", "enum": ["x", "y"]}
    assert run(obj(v=both), {"const": "enum"}) == (obj(v=both), [], {})
    assert run(obj(v={"const": "x"}), {}) == (obj(v={"const": "x"}), [], {})


def test_a_constant_the_target_cannot_state_is_folded_and_typed() -> None:
    mode = {"const": "enum", "enum": "string"}
    out, losses, _ = run(obj(v={"const": 5}), mode)
    assert out == obj(v={"description": '(constraints: {"const": 5})'})
    assert losses == [("/p/properties/v/const", "const", 5, FOLDED, WIDENING,
                       "t cannot express this constant; stated in the description instead")]
    out, _, _ = run(obj(v={"const": 5}), mode | {"type_case": True})
    assert out == obj(v={"description": '(constraints: {"const": 5})', "type": "integer"})
    out, _, _ = run(obj(v={"type": "integer", "enum": [1, 2]}), mode | {"type_case": True})
    assert out == obj(v={"type": "integer", "description": '(constraints: {"enum": [1, 2]})'})
    out, _, _ = run(obj(v={"enum": [1, "a"]}), {"enum": "string", "type_case": True})
    assert out == obj(v={"description": '(constraints: {"enum": [1, "a"]})'})  # two types: none is added


@pytest.mark.parametrize("value,folded", [(0, False), (1, False), (2, True)])
def test_min_items_above_the_targets_maximum_is_folded(value: int, folded: bool) -> None:
    v = {"type": "array", "minItems": value}
    out, losses, _ = run(obj(v=v), {"min_items_max": 1})
    if not folded:
        assert (out, losses) == (obj(v=v), [])
        return
    assert out == obj(v={"type": "array", "description": '(constraints: {"minItems": 2})'})
    assert losses == [("/p/properties/v/minItems", "minItems", 2, FOLDED, WIDENING,
                       "t strict mode only enforces minItems 0 or 1; stated in the description instead")]
    assert run(obj(v=v), {"min_items_max": None})[1] == []


@pytest.mark.parametrize("types,expected,message", [
    (["string", "null"], {"type": "string", "nullable": True}, "type list becomes `type` + `nullable` for t"),
    (["null", "integer"], {"type": "integer", "nullable": True}, "type list becomes `type` + `nullable` for t"),
    (["string"], {"type": "string"}, "type list becomes `type` + `nullable` for t"),
    (["string", "integer"], {"anyOf": [STR, INT]}, "type list becomes `anyOf` for t"),
    (["string", "integer", "null"], {"nullable": True, "anyOf": [STR, INT]}, "type list becomes `anyOf` for t"),
])
def test_type_lists_as_nullable(types: list[str], expected: dict[str, Any], message: str) -> None:
    out, losses, _ = run(obj(v={"type": types}), {"type_arrays": "nullable"})
    assert out == obj(v=expected)
    assert next(iter(out["properties"]["v"])) == next(iter(expected))  # `type` first where there is one
    assert losses == [("/p/properties/v/type", "type", types, LOWERED, NEUTRAL, message)]
    assert run(obj(v={"type": "string"}), {"type_arrays": "nullable"})[1] == []


def test_type_lists_split_per_type_where_anyof_stands_alone() -> None:
    v = {"type": ["string", "array", "null"], "minLength": 1, "items": INT, "description": "d"}
    out, losses, _ = run(obj(v=v), ALONE)
    assert out == obj(v={"anyOf": [{"type": "string", "minLength": 1, "description": "d", "nullable": True},
                                   {"type": "array", "items": INT, "description": "d", "nullable": True}]})
    assert [x[:5] for x in losses] == [
        ("/p/properties/v/anyOf", "anyOf", [{"type": "string", "minLength": 1}, {"type": "array", "items": INT}, NULL],
         LOWERED, NEUTRAL),
        ("/p/properties/v/type", "type", ["string", "array", "null"], LOWERED, NEUTRAL),
    ]
    assert losses[1][5] == "type list becomes `anyOf` for t"
    for kept in ({"type": ["string", "null"]}, {"type": ["string", "integer"], "anyOf": [STR]},
                 {"type": ["string", "integer"], "oneOf": [STR]}, {"type": "string"}):
        assert not any(x[5] == "type list becomes `anyOf` for t" for x in run(obj(v=kept), ALONE)[1]), kept


# -- the root ----------------------------------------------------------------------------------------

def test_a_root_without_type_becomes_an_object() -> None:
    out, losses, _ = run({"description": "d"}, {})
    assert out == {"description": "d", "type": "object"}
    assert losses == [("/p/type", "type", None, LOWERED, NEUTRAL,
                       "the parameters have no `type`; tool arguments are always an object: `type: object` added")]
    # Branches, values or a constant that are all objects say the same with `type: object` (the root every
    # target needs); anything else is left as it is, for the output's judge to refuse.
    for shaped, what in (({"anyOf": [obj()]}, "every `anyOf` branch"),
                         ({"oneOf": [obj(), obj()]}, "every `oneOf` branch"),
                         ({"allOf": [obj(), {"required": []}]}, "every `allOf` branch"),
                         ({"enum": [{}]}, "every `enum` value"), ({"const": {}}, "every `const`")):
        out, losses, _ = run(shaped, {})
        assert out == {"type": "object", **shaped}, shaped
        assert losses == [("/p/type", "type", None, LOWERED, NEUTRAL, f"the parameters have no `type`, and {what} is "
                           "an object: `type: object` added")], shaped
    for kept in ({"anyOf": [obj(), {"type": "string"}]}, {"oneOf": [{"type": "array"}]}, {"allOf": [{"minimum": 1}]},
                 {"enum": [{}, 1]}, {"const": "a"}, {"$ref": "#"},
                 {"anyOf": [{"$ref": "#/$defs/a"}], "$defs": {"a": True}}):  # a boolean definition: not an object
        assert run(kept, {})[1] == [], kept


def test_a_root_that_is_only_a_ref_takes_its_definition() -> None:
    defs = {"m": {"type": "object", "properties": {"a": STR}, "description": "model"}}
    schema = {"$ref": "#/$defs/m", "$defs": defs, "description": "root", "title": "T"}
    out, losses, _ = run(schema, {})
    assert out == {"type": "object", "properties": {"a": STR}, "description": "model", "title": "T", "$defs": defs}
    assert losses == [("/p/$ref", "$ref", "#/$defs/m", LOWERED, NEUTRAL,
                       "the root `$ref` #/$defs/m is replaced by its definition")]
    for kept in ({"$ref": "#/$defs/m", "type": "object", "$defs": defs},
                 {"$ref": "#/$defs/r", "$defs": {"r": {"$ref": "#/$defs/m"}, **defs}}):
        assert not any(x[5].startswith("the root") for x in run(kept, {})[1])


# -- strict objects: closed, every property required, declared --------------------------------------------

CLOSED = {"closed_objects": True}
CLOSING = ("t strict mode needs closed objects: keys not listed in `properties` can no longer be sent")


@pytest.mark.parametrize("schema,added", [
    (obj(a=STR), ["/p/additionalProperties"]),
    ({"type": "object"}, ["/p/additionalProperties", "/p/properties"]),
    ({"type": ["object", "null"]}, ["/p/additionalProperties", "/p/properties"]),
])
def test_closed_objects(schema: dict[str, Any], added: list[str]) -> None:
    out, losses, record = run(schema, CLOSED)
    assert out == {**schema, "properties": schema.get("properties", {}), "additionalProperties": False}
    assert list(out)[-2:] == ["properties", "additionalProperties"] or "properties" in schema
    # A root without properties is a tool without parameters: closing it loses nothing the author wrote.
    closing = [("/p/additionalProperties", "additionalProperties", None, LOWERED, NARROWING, CLOSING)]
    assert losses == (closing if "properties" in schema else [])
    assert record == {"added": added}
    assert run({"type": "string"}, CLOSED)[0] == {"type": "string"}


def test_an_object_without_properties_below_the_root_is_still_closed_with_a_loss() -> None:
    out, losses, _ = run(obj(v={"type": "object"}), CLOSED)
    assert out["properties"]["v"] == {"type": "object", "properties": {}, "additionalProperties": False}
    assert ("/p/properties/v/additionalProperties", "additionalProperties", None, LOWERED, NARROWING,
            CLOSING) in losses


def test_an_object_without_type_is_closed_too() -> None:
    out, losses, record = run(obj(v={"properties": {"a": STR}}), CLOSED)
    assert out == {"type": "object", "properties": {"v": {"properties": {"a": STR}, "additionalProperties": False}},
                   "additionalProperties": False}
    assert losses == [("/p/additionalProperties", "additionalProperties", None, LOWERED, NARROWING, CLOSING),
                      ("/p/properties/v/additionalProperties", "additionalProperties", None, LOWERED, NARROWING,
                       CLOSING)]
    assert record == {"added": ["/p/additionalProperties", "/p/properties/v/additionalProperties"]}


def test_closed_object_with_a_required_name_it_does_not_list() -> None:
    schema = {"type": "object", "properties": {"a": STR}, "required": ["a", "b", "c"], "additionalProperties": False}
    out, losses, _ = run(schema, CLOSED)
    assert out == schema
    assert losses == [("/p/required", "required", ["b", "c"], REJECTED, UNSAT,
                       "required `b`, `c` cannot be sent: the object is closed and does not list it, so it accepts "
                       "nothing")]


@pytest.mark.parametrize("extra,declared", [({}, {}), ({"additionalProperties": INT}, INT)])
def test_required_names_missing_from_properties_are_declared(extra: dict[str, Any], declared: Any) -> None:
    schema = {"type": "object", "properties": {"a": STR}, "required": ["a", "b"], **extra}
    out, losses, _ = run(schema, CLOSED)
    assert out["properties"] == {"a": STR, "b": declared} and out["additionalProperties"] is False
    assert losses[0] == ("/p/additionalProperties", "additionalProperties", extra.get("additionalProperties"),
                         LOWERED, NARROWING, CLOSING if not extra else
                         "t strict mode needs closed objects: extra keys (a map) can no longer be sent")
    assert losses[1] == ("/p/required", "required", ["b"], LOWERED, NEUTRAL,
                         "required `b` not among `properties`: declared there for t")
    for kept in ({"type": "string", "required": ["b"]}, {"type": "object", "required": "b"}):
        assert "properties" not in run(obj(v=kept), {"typed_nodes": True})[0]["properties"]["v"]


def test_every_property_required_and_optional_ones_made_nullable() -> None:
    ref_defs = {"s": STR}
    schema = {"type": "object", "required": ["a"], "$defs": ref_defs, "properties": {
        "a": STR, "b": {"type": ["integer", "null"]}, "c": {"enum": ["x"]}, "d": {"anyOf": [STR, NULL], "title": "D"},
        "e": {"anyOf": [STR, INT]}, "f": {"type": "string"}, "g": NULL, "h": {"$ref": "#/$defs/s"},
        "i": {"type": ["integer"]}}}
    out, losses, record = run(schema, {"all_required": True})
    assert out == {"type": "object", "required": ["a", "b", "c", "d", "e", "f", "g", "h", "i"], "$defs": ref_defs,
                   "properties": {
                       "a": STR, "b": {"type": ["integer", "null"]}, "c": {"anyOf": [{"enum": ["x"]}, NULL]},
                       "d": {"anyOf": [STR, NULL], "title": "D"}, "e": {"anyOf": [STR, INT, NULL]},
                       "f": {"type": ["string", "null"]}, "g": NULL, "h": {"anyOf": [{"$ref": "#/$defs/s"}, NULL]},
                       "i": {"type": ["integer", "null"]}}}
    assert record == {"optional": [f"/p/properties/{k}" for k in "bcdefghi"],
                      "nullable": [f"/p/properties/{k}" for k in "cefhi"]}
    absent = "null now also stands for \"absent\""
    mapped = "send null for \"absent\" (mapped back by toolcast)"
    assert [(x[0], x[1], x[2], x[3], x[4]) for x in losses] == [
        (f"/p/properties/{k}", "required", k, LOWERED, NEUTRAL) for k in "bcdefghi"]
    assert [x[5] for x in losses] == [
        f"optional `{k}` is required and nullable for t strict mode: " + (mapped if k in "cefhi" else absent)
        for k in "bcdefghi"]
    out, _, record = run({"type": "object", "properties": {"a": STR}}, {"all_required": True})
    assert out["required"] == ["a"] and record["added"] == ["/p/required"]


def test_root_composition_refused_where_the_target_wants_a_plain_root() -> None:
    two = [{"required": ["a"]}, {"required": ["b"]}]
    _, losses, _ = run({"type": "object", "anyOf": two}, {"root_composition": False})
    assert losses == [("/p/anyOf", "anyOf", two, REJECTED, UNSAT,
                       "t does not accept `anyOf` at the root of the parameters")]
    # what has the same meaning without a root composition is written so: one branch, an `allOf` merged
    schema = {"type": "object", "anyOf": [{"required": ["a"]}], "allOf": [{"required": ["b"]}, {"required": ["c"]}]}
    out, losses, _ = run(schema, {"root_composition": False})
    assert out == {"type": "object", "required": ["a", "b", "c"]}
    assert [x[:4] for x in losses] == [("/p/allOf", "allOf", [*two[1:], {"required": ["c"]}], LOWERED),
                                       ("/p/anyOf", "anyOf", [{"required": ["a"]}], LOWERED)]
    assert run(obj(v={"anyOf": [STR]}), {"root_composition": False})[1] == []  # below the root: fine


@pytest.mark.parametrize("v", [{"type": "array"}, {"type": ["array", "null"]}])
def test_arrays_get_items_where_the_target_needs_them(v: dict[str, Any]) -> None:
    out, losses, _ = run(obj(v=v), {"needs_items": True})
    assert out == obj(v={**v, "items": {}})
    assert losses == [("/p/properties/v/type", "items", None, LOWERED, NEUTRAL,
                       "t requires `items` on arrays; `items: {}` (any item) added")]
    for kept in ({"type": "array", "items": STR}, {"type": "array", "prefixItems": [STR]}):
        assert run(obj(v=kept), {"needs_items": True})[1] == []


# -- types from keywords; constraints moved into untyped branches --------------------------------------------

@pytest.mark.parametrize("v,kind", [
    ({"minLength": 1}, "string"), ({"pattern": "a"}, "string"), ({"minimum": 0}, "number"),
    ({"multipleOf": 2}, "number"), ({"items": STR}, "array"), ({"maxItems": 2}, "array"),
    ({"additionalProperties": STR}, "object"),
])
def test_a_type_is_added_from_the_keywords(v: dict[str, Any], kind: str) -> None:
    out, losses, _ = run(obj(v=v), TYPED)
    assert out == obj(v={**v, "type": kind})
    assert losses == [("/p/properties/v/type", "type", None, LOWERED, NARROWING,
                       f"t needs a `type` on every schema: `{kind}` added from its keywords (values of other types can "
                       "no longer be sent)")]


def test_a_type_is_added_from_folded_keywords_too() -> None:
    out, _, _ = run(obj(v={"minLength": 1}, w={"minimum": 1}), TYPED | {"keywords": {"minLength": "fold",
                                                                                     "minimum": "fold"}})
    assert out == obj(v={"type": "string", "description": '(constraints: {"minLength": 1})'},
                      w={"type": "number", "description": '(constraints: {"minimum": 1})'})


def test_mixed_values_become_an_anyof_where_anyof_stands_alone() -> None:
    out, _, _ = run(obj(v={"enum": ["a", 1, None]}), TYPED | ALONE)
    assert out == obj(v={"anyOf": [{"type": "string", "enum": ["a", 1, None], "nullable": True},
                                   {"type": "integer", "enum": ["a", 1, None], "nullable": True}]})


def test_constraints_next_to_oneof_move_into_untyped_branches() -> None:
    branches = [{"required": ["a"]}, {"required": ["b"]}]
    v = {"type": "object", "properties": {"a": STR, "b": INT}, "oneOf": branches, "description": "d"}
    out, losses, _ = run(obj(v=v), TYPED)
    inner = {"type": "object", "properties": {"a": STR, "b": INT}}
    assert out == obj(v={"description": "d", "oneOf": [{**inner, "required": ["a"]}, {**inner, "required": ["b"]}]})
    assert [x[:5] for x in losses] == [
        ("/p/properties/v/oneOf", "oneOf", branches, LOWERED, NEUTRAL),
        ("/p/properties/v/oneOf/0/allOf", "allOf", [inner, {"required": ["a"]}], LOWERED, NEUTRAL),
        ("/p/properties/v/oneOf/1/allOf", "allOf", [inner, {"required": ["b"]}], LOWERED, NEUTRAL),
    ]
    assert losses[0][5] == ("the keywords next to `oneOf` are moved into its branches for t, which needs a type on "
                            "every schema")
    same_instances(obj(v=v), out, [{"v": {"a": "x"}}, {"v": {"b": 1}}, {"v": {"a": "x", "b": 1}}, {"v": {"a": 1}},
                                   {"v": {}}, {"v": 3}])
    for kept in ({"oneOf": [STR, INT], "description": "d"}, {"type": "object", "anyOf": [STR, {"$ref": "#"}]}):
        assert not any(x[1] in ("oneOf", "anyOf") for x in run(obj(v=kept), TYPED)[1])


# -- draft-04 and draft-07 forms -------------------------------------------------------------------------

@pytest.mark.parametrize("v,expected", [
    ({"minimum": 5, "exclusiveMinimum": True}, {"exclusiveMinimum": 5}),
    ({"maximum": 5, "exclusiveMaximum": True}, {"exclusiveMaximum": 5}),
    ({"minimum": 5, "exclusiveMinimum": False}, {"minimum": 5}),
    ({"exclusiveMaximum": True}, {}),
])
def test_draft4_exclusive_bounds(v: dict[str, Any], expected: dict[str, Any]) -> None:
    out, losses, _ = run(obj(v={"type": "number", **v}), {})
    assert out == obj(v={"type": "number", **expected})
    key = next(k for k in v if k.startswith("exclusive"))
    flag = "true" if v[key] else "false"
    assert losses == [(f"/p/properties/v/{key}", key, v[key], LOWERED, NEUTRAL,
                       f"draft-04 `{key}: {flag}` rewritten in the 2020-12 form")]


def test_draft7_tuple_items() -> None:
    v = {"type": "array", "items": [STR, INT], "additionalItems": False}
    out, losses, _ = run(obj(v=v), {})
    assert out == obj(v={"type": "array", "prefixItems": [STR, INT], "items": False})
    assert losses == [("/p/properties/v/items", "items", [STR, INT], LOWERED, NEUTRAL,
                       "tuple `items: [...]` (draft-07) rewritten as `prefixItems`")]
    same_instances({"type": "array", "prefixItems": [STR, INT], "items": False}, out["properties"]["v"],
                   [["a", 1], ["a"], ["a", 1, 2], [1, "a"]])
    out, losses, _ = run(obj(v={"type": "array", "items": STR, "additionalItems": False}), {})
    assert (out, losses) == (obj(v={"type": "array", "items": STR}), [])  # meaningless without tuple items


def test_constraints_next_to_oneof_bind_typed_branches_too() -> None:
    # A ∧ oneOf(B, C) ≡ oneOf(A ∧ B, A ∧ C): a typed branch gets the constraints as well, and one whose type
    # cannot meet them (`integer` next to `object`) can never match, so it is left out.
    branches = [{"required": ["a"]}, INT, {"type": ["object", "null"], "minProperties": 1}, True, False]
    v = {"type": "object", "properties": {"a": STR}, "oneOf": branches}
    out, losses, _ = run(obj(v=v), TYPED)
    a = {"type": "object", "properties": {"a": STR}}
    assert out == obj(v={"oneOf": [{**a, "required": ["a"]}, {**a, "minProperties": 1}, a, False]})
    assert [x[:5] for x in losses] == [
        ("/p/properties/v/oneOf", "oneOf", branches, LOWERED, NEUTRAL),
        ("/p/properties/v/oneOf/0/allOf", "allOf", [a, {"required": ["a"]}], LOWERED, NEUTRAL),
        ("/p/properties/v/oneOf/1", "oneOf", INT, LOWERED, NEUTRAL),
        ("/p/properties/v/oneOf/2/allOf", "allOf", [a, branches[2]], LOWERED, NEUTRAL),
        ("/p/properties/v/oneOf/3/allOf", "allOf", [a, {}], LOWERED, NEUTRAL),
    ]
    assert losses[2][5] == "branch 1 of `oneOf` can never match next to `type` \"object\": left out for t"
    same_instances(obj(v=v), out, [{"v": 3}, {"v": None}, {"v": {}}, {"v": {"a": "x"}}, {"v": {"a": 1}},
                                   {"v": {"b": 1}}, {"v": "x"}])


def test_a_left_out_branch_keeps_the_pointers_of_those_after_it() -> None:
    # Losses inside the branch after the one left out still point at that branch in the source (index 1).
    v = {"type": "object", "oneOf": [INT, {"properties": {"b": {"type": "string", "minLength": 2}}}]}
    out, losses, _ = run(obj(v=v), TYPED | {"keywords": {"minLength": "drop"}})
    assert out == obj(v={"oneOf": [{"type": "object", "properties": {"b": STR}}]})
    assert [x[:2] for x in losses] == [("/p/properties/v/oneOf", "oneOf"), ("/p/properties/v/oneOf/0", "oneOf"),
                                       ("/p/properties/v/oneOf/1/allOf", "allOf"),
                                       ("/p/properties/v/oneOf/1/properties/b/minLength", "minLength")]


@pytest.mark.parametrize("siblings,branch,kind", [
    ({"type": ["number", "string"]}, {"type": "integer"}, "integer"),
    ({"type": "integer"}, {"type": ["number", "null"]}, "integer"),
    ({"type": "number"}, {"type": ["integer", "number"]}, "number"),
    ({"type": ["string", "null", "array"]}, {"type": ["array", "string"]}, ["string", "array"]),
    ({"type": ["string", "integer"]}, {"type": "number"}, "integer"),
    ({"type": ["number", "integer"]}, {"type": "integer"}, "integer"),
])
def test_typed_branches_keep_the_types_both_allow(siblings: dict[str, Any], branch: dict[str, Any], kind: Any) -> None:
    v = {**siblings, "minimum": 1, "anyOf": [{"maxLength": 3}, {**branch, "maximum": 5}]}
    out, losses, _ = run(obj(v=v), TYPED)
    assert out == obj(v={"anyOf": [{**siblings, "minimum": 1, "maxLength": 3}, {"type": kind, "minimum": 1,
                                                                                "maximum": 5}]})
    assert [x[0] for x in losses] == ["/p/properties/v/anyOf", "/p/properties/v/anyOf/0/allOf",
                                      "/p/properties/v/anyOf/1/allOf"]
    same_instances(obj(v=v), out, [{"v": x} for x in (0, 1, 2, 5, 6, 2.5, "abc", "abcd", None, [], True, {})])


def test_a_referenced_branch_is_left_out_by_the_type_it_names() -> None:
    defs = {"n": INT, "o": {"type": "object", "properties": {"c": STR}}}
    v = {"type": "object", "properties": {"a": STR}, "anyOf": [{"required": ["a"]}, {"$ref": "#/$defs/n"},
                                                               {"$ref": "#/$defs/o"}]}
    schema = {**obj(v=v), "$defs": defs}
    out, losses, _ = run(schema, TYPED | {"refs": "inline"})
    a = {"type": "object", "properties": {"a": STR}}
    assert out == obj(v={"anyOf": [{**a, "required": ["a"]}, {"type": "object", "properties": {"a": STR, "c": STR}}]})
    assert ("/p/properties/v/anyOf/1", "anyOf") in [x[:2] for x in losses]
    assert not [x for x in losses if x[3] == REJECTED]
    same_instances(schema, out, [{"v": 3}, {"v": {"a": "x"}}, {"v": {"c": 1}}, {"v": {"c": "x"}}, {"v": {}}])


def test_a_true_branch_takes_the_constraints_and_a_false_one_stays_as_it_is() -> None:
    # `true` has no type of its own (it becomes the constraints alone); `false` matches nothing either way, and
    # the branches after it are still distributed.
    v = {"type": "object", "properties": {"a": STR}, "anyOf": [False, INT, True]}
    out, losses, _ = run(obj(v=v), TYPED)
    assert out == obj(v={"anyOf": [False, {"type": "object", "properties": {"a": STR}}]})
    assert [x[:2] for x in losses][:3] == [("/p/properties/v/anyOf", "anyOf"), ("/p/properties/v/anyOf/1", "anyOf"),
                                           ("/p/properties/v/anyOf/2/allOf", "allOf")]
    same_instances(obj(v=v), out, [{"v": 1}, {"v": {}}, {"v": {"a": 1}}, {"v": {"a": "x"}}])
    kept = {"type": "object", "properties": {"a": STR}, "anyOf": [INT, False]}  # every branch typed or false
    assert not any(x[1] == "anyOf" for x in run(obj(v=kept), TYPED)[1])


def test_a_branch_that_refers_to_the_root_is_left_out_by_the_root_s_type() -> None:
    v = {"type": "string", "minLength": 1, "anyOf": [{"maxLength": 3}, {"$ref": "#"}]}
    out, losses, _ = run(obj(v=v), TYPED)
    assert out == obj(v={"anyOf": [{"type": "string", "minLength": 1, "maxLength": 3}]})
    assert ("/p/properties/v/anyOf/1", "anyOf") in [x[:2] for x in losses]


@pytest.mark.parametrize("branch", [{"$ref": "https://example.com/s.json"}, {"$ref": "#/$defs/missing"},
                                    {"$ref": "#/$defs/yes"}, {"type": 5}, {"type": "dict"}, {"type": []}])
def test_a_branch_whose_type_cannot_be_read_is_never_left_out(branch: dict[str, Any]) -> None:
    # A remote or dangling reference, one to a boolean schema, a type that is not a list of JSON Schema names:
    # no type to compare, so the merge decides (and reports); nothing crashes, nothing is left out unseen.
    v = {"type": "object", "properties": {"a": STR}, "anyOf": [{"required": ["a"]}, branch]}
    _, losses, _ = run({**obj(v=v), "$defs": {"yes": True}}, TYPED)
    assert not any(x[5].startswith("branch 1 of `anyOf` can never match") for x in losses)
    assert ("/p/properties/v/anyOf", "anyOf") in [x[:2] for x in losses]


def test_allof_branches_of_overlapping_types_merge_into_the_types_both_allow() -> None:
    out, losses, _ = run(obj(v={"allOf": [{"type": ["number", "string"]}, {"type": "integer", "minimum": 1}]}),
                         {"allOf": "merge"})
    assert out == obj(v={"type": "integer", "minimum": 1})
    assert [x[3:5] for x in losses] == [(LOWERED, NEUTRAL)]
    out, losses, _ = run(obj(v={"allOf": [{"type": "string"}, {"type": "integer"}]}), {"allOf": "merge"})
    assert [x[:2] + x[3:5] for x in losses] == [("/p/properties/v/allOf/1/type", "allOf", REJECTED, UNSAT)]


# -- budgets, the root's definitions, odd roots ------------------------------------------------------------

def _wide(n: int) -> dict[str, Any]:
    return {"type": "object", "properties": {f"p{i}": {} for i in range(n)}}


@pytest.mark.slow
def test_the_node_budget() -> None:
    out, losses, _ = run(_wide(99_999), {})  # the root and 99,999 properties: exactly the budget
    assert losses == [] and len(out["properties"]) == 99_999
    out, losses, _ = run(_wide(100_000), {})
    assert out == {} and losses == [("/p", "", None, REJECTED, UNSAT,
                                     "schema has more than 100,000 nodes; toolcast does not convert it")]


def test_the_node_budget_counts_every_node(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same limit made small (the slow test above uses the real one): every node counts once.
    monkeypatch.setattr(walker, "MAX_NODES", 50)
    out, losses, _ = run(_wide(49), {})
    assert losses == [] and len(out["properties"]) == 49
    out, losses, _ = run(_wide(50), {})
    assert out == {} and losses == [("/p", "", None, REJECTED, UNSAT,
                                     "schema has more than 50 nodes; toolcast does not convert it")]
    assert run({"type": "object", "properties": {"a": {"items": {"items": {}}}}, "$defs": {
        f"d{i}": {} for i in range(46)}}, {})[1] == []  # 1 + 3 + 46 = 50


def test_the_depth_limit_inside_root_definitions() -> None:
    def chain(levels: int) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "string"}
        for _ in range(levels):
            schema = {"items": schema}
        return {"type": "object", "$defs": {"d": schema}}
    assert run(chain(127), {})[1] == []  # the definition is one level down: 1 + 127 = 128
    assert run(chain(128), {})[1][0][3:] == (REJECTED, UNSAT, "schema nested deeper than 128 levels; toolcast "
                                                             "does not convert it")


def test_root_definitions_of_either_name_anywhere_in_the_root() -> None:
    schema = {"definitions": {"s": STR}, "type": "object", "properties": {"a": {"$ref": "#/definitions/s"}}}
    assert run(schema, {}) == (schema, [], {})
    out, losses, _ = run(schema, {"refs": "inline"})
    assert out == obj(a=STR)
    assert [x[:2] for x in losses] == [("/p/definitions", "definitions"), ("/p/properties/a/$ref", "$ref")]
    both = {"$defs": {"x": INT}, "type": "object", "definitions": {"s": STR}}
    assert run(both, {})[0] == both
    # A `$defs` that is not a map holds no definitions (and is not sent); `definitions` after it still counts.
    assert run({"$defs": 5, "type": "object", "definitions": {"s": STR}}, {})[0] == {
        "type": "object", "definitions": {"s": STR}}


@pytest.mark.parametrize("mode", [{"type_case": True}, {"closed_objects": True}])
def test_a_boolean_root_where_the_target_needs_objects(mode: dict[str, Any]) -> None:
    kept = lower(True, "/p", "t", mode)
    assert (kept.schema, kept.losses) == ({}, [])
    lowered = lower(False, "/p", "t", mode)
    assert (lowered.schema, lowered.losses) == ({"not": {}}, [])  # `false` is `{"not": {}}`, not a refusal
    assert lower([1], "/p", "t", mode).schema == [1]


def test_allof_of_a_kept_ref_with_siblings_is_resolved_where_refs_take_no_siblings() -> None:
    schema = {"type": "object", "properties": {"v": {"allOf": [{"$ref": "#/$defs/s"}], "description": "d"}},
              "$defs": {"s": STR}}
    out, losses, _ = run(schema, {"allOf": "merge", "ref_siblings": False})
    assert out == {"type": "object", "properties": {"v": {"type": "string", "description": "d"}}, "$defs": {"s": STR}}
    assert [x[:4] for x in losses] == [("/p/properties/v/$ref", "$ref", "#/$defs/s", LOWERED),
                                       ("/p/properties/v/allOf", "allOf", [{"$ref": "#/$defs/s"}], LOWERED)]


def test_a_folded_enum_types_a_node_only_when_it_has_no_type_or_anyof() -> None:
    mode = {"enum": "string", "type_case": True}
    out, _, _ = run(obj(v={"type": "number", "enum": [1, 2]}, w={"anyOf": [INT, STR], "enum": [1]}), mode)
    assert out == obj(v={"type": "number", "description": '(constraints: {"enum": [1, 2]})'},
                      w={"anyOf": [INT, STR], "description": '(constraints: {"enum": [1]})'})


def test_values_of_numbers_and_malformed_enums_when_inferring_types() -> None:
    out, _, _ = run(obj(v={"enum": [1.5, "a"]}), TYPED)
    assert out == obj(v={"enum": [1.5, "a"], "type": ["string", "number"]})
    out, losses, _ = run(obj(v={"enum": "x"}), TYPED)  # not a list: no values to go by
    assert "anyOf" in out["properties"]["v"] and losses[0][4] == NARROWING


def test_strict_nullable_keeps_refs_whole() -> None:
    schema = {"type": "object", "properties": {"j": {"$ref": "#/$defs/s", "type": "string"},
                                               "k": {"$ref": "#/$defs/s", "type": ["string"]}},
              "$defs": {"s": STR}}
    out, _, _ = run(schema, {"all_required": True})
    assert out["properties"] == {"j": {"anyOf": [{"$ref": "#/$defs/s", "type": "string"}, NULL]},
                                 "k": {"anyOf": [{"$ref": "#/$defs/s", "type": ["string"]}, NULL]}}


# -- more edges: the survivors of the first mutation run ----------------------------------------------------

def test_recursion_beyond_the_interpreter_limit_is_a_rejection_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    monkeypatch.setattr(walker, "MAX_DEPTH", 10 ** 9)  # the depth limit off: the defence behind it answers
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(2 * sys.getrecursionlimit()):
        schema = {"not": schema}
    out, losses, _ = run({"type": "object", **schema}, {})
    assert out == {} and losses == [("/p", "", None, REJECTED, UNSAT, "schema too deeply nested")]


def test_the_one_branchs_annotations_give_way_to_the_nodes_own() -> None:
    branch = {"type": "string", "description": "branch", "title": "B", "default": "b"}
    out, losses, _ = run(obj(v={"anyOf": [branch, NULL], "description": "node", "title": "N", "default": "n"}), ALONE)
    assert out == obj(v={"type": "string", "description": "node", "title": "N", "default": "n", "nullable": True})
    assert [x[3] for x in losses] == [LOWERED]


def test_required_names_are_declared_in_a_properties_map_that_is_not_there_yet() -> None:
    out, losses, _ = run(obj(v={"type": "object", "required": ["a", "b"]}), CLOSED)
    assert out["properties"]["v"] == {"type": "object", "required": ["a", "b"], "properties": {"a": {}, "b": {}},
                                      "additionalProperties": False}
    assert ("/p/properties/v/required", "required", ["a", "b"], LOWERED, NEUTRAL,
            "required `a`, `b` not among `properties`: declared there for t") in losses


def test_distributing_skips_definitions_and_goes_on_to_oneof() -> None:
    v = {"type": "object", "properties": {"a": STR}, "$defs": {"x": STR}, "definitions": {"y": STR},
         "anyOf": [{"type": "object"}], "oneOf": [{"required": ["a"]}]}
    out, losses, _ = run(obj(v=v), TYPED)
    siblings = {"type": "object", "properties": {"a": STR}, "anyOf": [{"type": "object"}]}
    assert out == obj(v={"oneOf": [{**siblings, "required": ["a"]}]})
    assert [x[:3] for x in losses] == [("/p/properties/v/oneOf", "oneOf", [{"required": ["a"]}]),
                                       ("/p/properties/v/oneOf/0/allOf", "allOf", [siblings, {"required": ["a"]}])]


@pytest.mark.parametrize("v,kind", [({"properties": {"x": STR}}, "object"), ({"required": []}, "object"),
                                    ({"prefixItems": [STR]}, "array"), ({"minItems": 1}, "array")])
def test_more_keywords_that_say_the_type(v: dict[str, Any], kind: str) -> None:
    out, _, _ = run(obj(v=v), TYPED)
    assert out["properties"]["v"]["type"] == kind


def test_types_from_folded_constants_and_from_objects_and_arrays_among_the_values() -> None:
    out, losses, _ = run(obj(v={"const": 5}), TYPED | {"const": "enum", "enum": "string"})
    assert out == obj(v={"description": '(constraints: {"const": 5})', "type": "integer"})
    assert losses[-1][:5] == ("/p/properties/v/type", "type", None, LOWERED, NEUTRAL)
    out, _, _ = run(obj(v={"enum": [[1], {"a": 1}]}), TYPED)
    assert out == obj(v={"enum": [[1], {"a": 1}], "type": ["object", "array"]})
    out, _, _ = run(obj(v={"enum": [1, 2]}), {"enum": "string", "type_case": True})
    assert out == obj(v={"description": '(constraints: {"enum": [1, 2]})', "type": "integer"})


def test_json_text_with_an_empty_description() -> None:
    out, _, _ = run(obj(m={"type": "object", "description": ""}), {"object_properties_nonempty": True})
    assert out == obj(m={"type": "string", "description": "A JSON object, as text"})


def test_allof_merges_only_properties_and_required_member_by_member() -> None:
    for branches, key in (([{"type": "array", "items": STR}, {"items": {"minLength": 1}}], "items"),
                          ([{"enum": [1, 2]}, {"enum": [2, 3]}], "enum")):
        out, losses, _ = run(obj(v={"allOf": branches}), MERGE)
        assert [x[:4] for x in losses] == [(f"/p/properties/v/allOf/1/{key}", "allOf", branches, REJECTED)]
        assert out == obj(v=branches[0])
    out, losses, _ = run(obj(v={"allOf": [{"properties": 5}, {"properties": {"a": STR}}]}), MERGE)
    assert [x[3] for x in losses] == [REJECTED]  # not a map: compared as a whole, never a crash


def test_strict_nullable_of_a_node_with_only_annotations() -> None:
    out, _, _ = run({"type": "object", "properties": {"a": {"description": "x"}}}, {"all_required": True})
    assert out["properties"]["a"] == {"anyOf": [{"description": "x"}, NULL]}


def test_type_lists_split_with_a_type_that_has_no_keywords_of_its_own() -> None:
    out, _, _ = run(obj(v={"type": ["string", "boolean"], "minLength": 1}), ALONE)
    assert out == obj(v={"anyOf": [{"type": "string", "minLength": 1}, {"type": "boolean"}]})


def test_generic_item_types_with_a_comma_are_not_guessed() -> None:
    out, _, _ = run(obj(v={"type": "list[dict[str, int]]"}), {})
    assert out == obj(v={"type": "array"})


def test_allof_counts_as_a_type_for_modes_that_need_one() -> None:
    assert run(obj(v={"allOf": [STR]}), TYPED) == (obj(v={"allOf": [STR]}), [], {})


def test_a_bare_type_list_split_leaves_nothing_next_to_anyof() -> None:
    out, losses, _ = run(obj(v={"type": ["string", "integer"]}), ALONE)
    assert out == obj(v={"anyOf": [STR, INT]})
    assert losses == [("/p/properties/v/type", "type", ["string", "integer"], LOWERED, NEUTRAL,
                       "type list becomes `anyOf` for t")]


def test_root_composition_refused_for_oneof_too_with_the_values_the_user_wrote() -> None:
    mode = {"root_composition": False, "oneOf": "anyOf", "keywords": {"minLength": "drop"}}
    branches = [{"properties": {"a": {"type": "string", "minLength": 1}}}, {"required": ["b"]}]
    _, losses, _ = run({"type": "object", "oneOf": branches}, mode)
    assert ("/p/anyOf", "anyOf", [{"properties": {"a": {"type": "string"}}}, {"required": ["b"]}], REJECTED, UNSAT,
            "t does not accept `anyOf` at the root of the parameters") in losses  # only in the output: its value
    _, losses, _ = run({"type": "object", "oneOf": branches}, {"root_composition": False})
    assert [x[:4] for x in losses] == [("/p/oneOf", "oneOf", branches, REJECTED)]
    _, losses, _ = run({"type": "object", "allOf": branches}, {"root_composition": False, "keywords": {
        "minLength": "drop"}})
    assert ("/p/allOf", "allOf", branches, LOWERED) in [x[:4] for x in losses]  # merged: the same meaning


def test_added_items_are_lowered_at_their_own_pointer() -> None:
    out, losses, _ = run(obj(v={"type": "array"}), TYPED | {"needs_items": True})
    assert "anyOf" in out["properties"]["v"]["items"]
    assert [x[:2] for x in losses] == [("/p/properties/v/items/type", "type"), ("/p/properties/v/type", "items")]


def test_empty_properties_are_left_out_below_the_root_where_they_must_not_be_empty() -> None:
    mode = {"object_properties_nonempty": True}
    assert run(obj(v={"properties": {}}), mode)[0] == obj(v={})
    assert run({"type": "object", "properties": {}}, mode) == ({"type": "object", "properties": {}}, [], {})


def test_a_closed_object_without_properties_that_requires_a_name() -> None:
    schema = {"type": "object", "additionalProperties": False, "required": ["a"]}
    out, losses, _ = run(schema, {})
    assert out == schema
    assert [x[:4] for x in losses] == [("/p/required", "required", ["a"], REJECTED)]


@pytest.mark.parametrize("wrap", ["properties", "anyOf", "prefixItems"])
def test_the_depth_limit_in_maps_and_lists(wrap: str) -> None:
    def nested(levels: int) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "string"}
        for _ in range(levels):
            schema = {wrap: {"x": schema}} if wrap == "properties" else {wrap: [schema]}
        return {"type": "object", **schema}
    assert run(nested(128), {})[1] == []
    assert run(nested(129), {})[1][0][5] == "schema nested deeper than 128 levels; toolcast does not convert it"


def test_tuple_items_that_arrive_through_allof_are_lowered_item_by_item() -> None:
    v = {"allOf": [{"type": "array", "items": [{"type": "string", "minLength": 1}, INT]}]}
    out, losses, _ = run(obj(v=v), MERGE | {"keywords": {"minLength": "drop"}})
    lowered = out["properties"]["v"]
    assert lowered.get("items", lowered.get("prefixItems")) == [STR, INT]
    assert ("/p/properties/v/items/0/minLength", "minLength") in [x[:2] for x in losses]


def test_oneof_lowered_next_to_a_malformed_anyof_replaces_it() -> None:
    out, _, _ = run(obj(v={"anyOf": "x", "oneOf": [STR]}), {"oneOf": "anyOf"})
    assert out == obj(v={"anyOf": [STR]})


def test_string_only_enums_on_a_node_of_another_type_are_folded() -> None:
    out, losses, _ = run(obj(v={"type": "integer", "enum": ["1", "2"]}), {"enum": "string"})
    assert out == obj(v={"type": "integer", "description": '(constraints: {"enum": ["1", "2"]})'})
    assert [x[:4] for x in losses] == [("/p/properties/v/enum", "enum", ["1", "2"], FOLDED)]
    assert run(obj(v={"enum": ["1", "2"]}), {"enum": "string"})[1] == []  # no type: strings are fine


# -- $ref resolution: remote, unresolvable, recursive, boolean, with siblings ----------------------------------

@pytest.mark.parametrize("ref,message", [
    ("https://example.com/s.json", "remote `$ref` is never fetched; any value is accepted in its place"),
    ("#/$defs/missing", "`$ref` #/$defs/missing does not resolve inside the schema; any value is accepted in its "
                        "place"),
    ("#anchor", "`$ref` #anchor does not resolve inside the schema; any value is accepted in its place"),
])
def test_refs_that_cannot_be_followed_are_dropped(ref: str, message: str) -> None:
    out, losses, _ = run(obj(v={"$ref": ref, "description": "d"}), {})
    assert out == obj(v={"description": "d"})
    assert losses == [("/p/properties/v/$ref", "$ref", ref, DROPPED, WIDENING, message)]


def test_a_recursive_ref_is_cut_where_refs_are_inlined() -> None:
    node = {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}
    schema = {"type": "object", "properties": {"n": {"$ref": "#/$defs/node"}}, "$defs": {"node": node}}
    out, losses, _ = run(schema, {"refs": "inline"})
    assert out == obj(n={"type": "object", "properties": {"next": {}}})
    assert ("/p/$defs/node/properties/next/$ref", "$ref", "#/$defs/node", DROPPED, WIDENING,
            "recursive `$ref` #/$defs/node cannot be inlined for t; the recursion is cut here") in losses


def test_refs_to_boolean_schemas_inline_as_their_meaning() -> None:
    schema = {"type": "object", "properties": {"t": {"$ref": "#/$defs/t"}, "f": {"$ref": "#/$defs/f"}},
              "$defs": {"t": True, "f": False}}
    out, _, _ = run(schema, {"refs": "inline"})
    assert out == obj(t={}, f={"not": {}})
    same_instances(schema, out, [{"t": 1}, {"f": 1}, {}])


@pytest.mark.parametrize("mode,expected", [
    ({"refs": "inline"}, {"allOf": [{"type": "string", "maxLength": 5}, {"maxLength": 3, "description": "d"}]}),
    ({"refs": "inline", "allOf": "merge"}, {"type": "string", "maxLength": 5}),
])
def test_a_sibling_that_contradicts_the_inlined_definition(mode: dict[str, Any], expected: dict[str, Any]) -> None:
    schema = {"type": "object", "properties": {"v": {"$ref": "#/$defs/s", "maxLength": 3, "description": "d"}},
              "$defs": {"s": {"type": "string", "maxLength": 5}}}
    out, losses, _ = run(schema, mode)
    assert out == obj(v=expected)
    if "allOf" in mode:
        assert ("/p/properties/v/allOf/1/maxLength", "allOf") in [x[:2] for x in losses]
    else:
        same_instances(schema, out, [{"v": "ab"}, {"v": "abcd"}, {"v": "abcdef"}, {"v": 1}])


def test_annotation_siblings_override_the_definition_and_dollar_siblings_keep_the_ref() -> None:
    schema = {"type": "object", "properties": {"v": {"$ref": "#/$defs/s", "description": "mine"}},
              "$defs": {"s": {"type": "string", "description": "theirs"}}}
    assert run(schema, {"refs": "inline"})[0] == obj(v={"type": "string", "description": "mine"})
    kept = {"type": "object", "properties": {"v": {"$ref": "#/$defs/s", "$comment": "c"}}, "$defs": {"s": STR}}
    assert run(kept, {"ref_siblings": False}) == (kept, [], {})
    out, _, _ = run({**kept, "properties": {"v": {"$ref": "#/$defs/s", "description": "d"}}}, {"ref_siblings": False})
    assert out["properties"]["v"] == {"type": "string", "description": "d"}


def test_the_depth_limit_counts_an_inlined_ref_as_one_level() -> None:
    def chain(k: int) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "string"}
        for _ in range(k):
            schema = {"not": schema}
        return {"type": "object", "properties": {"v": {"$ref": "#/$defs/d"}}, "$defs": {"d": schema}}
    assert not [x for x in run(chain(126), {"refs": "inline"})[1] if x[3] == REJECTED]
    assert [x[5] for x in run(chain(127), {"refs": "inline"})[1] if x[3] == REJECTED] == [
        "schema nested deeper than 128 levels; toolcast does not convert it"]


def test_a_root_ref_to_a_missing_definition_is_left_to_the_ref_rules() -> None:
    out, losses, _ = run({"$ref": "#/$defs/missing", "$defs": {}}, {})
    assert out == {"$defs": {}} and [x[:4] for x in losses] == [("/p/$ref", "$ref", "#/$defs/missing", DROPPED)]
    for anchor in ("#a", "#anchor"):  # not pointers: never resolved (resolving them would raise)
        out, losses, _ = run({"$ref": anchor}, {})
        assert out == {} and [x[:4] for x in losses] == [("/p/$ref", "$ref", anchor, DROPPED)]


def test_losses_inside_anyof_branches_name_the_branch() -> None:
    _, losses, _ = run(obj(v={"anyOf": [INT, {"type": "string", "minLength": 1}]}), {"keywords": {"minLength": "drop"}})
    assert [x[0] for x in losses] == ["/p/properties/v/anyOf/1/minLength"]


def test_a_lone_anyof_of_one_branch_stays_as_it_is() -> None:
    assert run(obj(v={"anyOf": [STR]}), ALONE) == (obj(v={"anyOf": [STR]}), [], {})


def test_the_depth_limit_through_tuple_items_merged_from_allof() -> None:
    def nested(levels: int) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "string"}
        for _ in range(levels):
            schema = {"allOf": [{"items": [schema]}]}
        return {"type": "object", **schema}
    assert not [x for x in run(nested(128), MERGE)[1] if x[3] == REJECTED]
    assert [x[5] for x in run(nested(129), MERGE)[1] if x[3] == REJECTED] == [
        "schema nested deeper than 128 levels; toolcast does not convert it"]


@pytest.mark.parametrize("type_", [True, False, 5, None, {"a": "string"}])
def test_a_format_beside_a_type_that_is_not_a_name_is_not_allowed_by_any_type(type_: Any) -> None:
    """`format` is allowed per type name where the mode lists formats by type (a crash on `type: true`
    before); a `type` that is no name, nor list of names, allows none, so the format is folded."""
    mode = {"formats": {"string": ["date"]}}
    out, losses, _ = run({"type": type_, "format": "date"}, mode)
    assert out.get("format") is None and "date" in out.get("description", "")
    assert ("/p/format", "format", "date") in [loss[:3] for loss in losses]
    kept, _, _ = run({"type": ["integer", "string"], "format": "date"}, mode)  # a list: its names count
    assert kept["format"] == "date"
