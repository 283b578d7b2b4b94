"""``to_canonical_call`` on calls written by hand from what each target's converted schema asks a model
to send: Gemini's JSON-text stand-ins for free-form objects, and OpenAI strict's nulls for optional
properties where the converter merged ``allOf`` branches. Expected arguments are the original schema's
instances, also written by hand."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from toolcast.adapters.canonical import CanonicalTool
from toolcast.adapters.convert import Conversion, convert
from toolcast.adapters.messages import ToolCall, to_canonical_call
from toolcast.adapters.messages.arguments import argument_errors
from toolcast.adapters.targets import TargetOptions

FREE_FORM = CanonicalTool("t", "d", {"type": "object", "properties": {
    "m": {"type": ["object", "integer"]},   # Gemini: anyOf [STRING (JSON text), INTEGER]
    "mx": {"type": "string"},              # a name that starts like `m`: a plain string
    "o": {"type": "object"},               # Gemini: STRING (JSON text)
    "arr": {"type": "array", "items": {"type": "object"}},
}})


def _back(tool: CanonicalTool, target: str, args: dict[str, Any], **options: Any) -> dict[str, Any]:
    conv = convert(tool, target, TargetOptions(**options) if options else None)
    call, found = to_canonical_call(ToolCall("c1", "t", args), (tool,), (conv,))
    assert found is tool
    return call.arguments


@pytest.mark.parametrize(("sent", "expected"), [
    ({"m": '{"k": 1}', "mx": '{"a": 1}', "o": '{"z": [1]}', "arr": ['{"q": 2}', "nope"]},
     {"m": {"k": 1}, "mx": '{"a": 1}', "o": {"z": [1]}, "arr": [{"q": 2}, "nope"]}),
    ({"m": 5, "o": "[1]"}, {"m": 5, "o": "[1]"}),  # the other branch; JSON text that is not an object
    ({"m": "oops", "o": "{"}, {"m": "oops", "o": "{"}),  # not JSON: left for the schema check to report
])
def test_gemini_json_text_is_read_back_only_where_the_converter_put_it(sent: dict[str, Any],
                                                                        expected: dict[str, Any]) -> None:
    assert _back(FREE_FORM, "gemini", sent) == expected


def test_json_text_is_left_alone_for_targets_that_keep_objects() -> None:
    sent = {"m": '{"k": 1}', "o": '{"z": 1}'}
    assert _back(FREE_FORM, "openai", sent) == sent


ALL_OF = CanonicalTool("t", "d", {
    "type": "object",
    "properties": {
        "a": {"allOf": [{"type": "object", "properties": {"p": {"type": "string"}}, "required": []},
                        {"$ref": "#/$defs/R"},
                        {"allOf": [{"properties": {"q": {"type": "boolean"}}}]}]},
        "n": {"type": ["string", "null"]},
    },
    "required": ["a", "n"],
    "$defs": {"R": {"properties": {"r": {"type": "integer"}, "s": {"type": "object", "properties": {
        "deep": {"type": "string"}}}}, "required": ["r"]}},
})


@pytest.mark.parametrize(("sent", "expected"), [
    ({"a": {"p": None, "r": 3, "s": None, "q": None}, "n": None}, {"a": {"r": 3}, "n": None}),
    ({"a": {"p": "x", "r": 3, "s": {"deep": None}, "q": True}, "n": "v"},
     {"a": {"p": "x", "r": 3, "s": {}, "q": True}, "n": "v"}),
])
def test_openai_strict_nulls_inside_merged_all_of_branches_mean_absent(sent: dict[str, Any],
                                                                      expected: dict[str, Any]) -> None:
    """OpenAI strict has no `allOf`: the branches (a `$ref` and a nested `allOf` among them) are merged
    into `a`, whose optional members are then sent as null; `n` is required and nullable: its null stays."""
    back = _back(ALL_OF, "openai", sent, strict=True)
    assert back == expected
    assert argument_errors(ALL_OF, back) == []


def test_all_of_branches_are_walked_where_the_target_keeps_them() -> None:
    """Anthropic keeps `allOf`; nothing is recorded optional there, so every value is kept as sent."""
    sent = {"a": {"p": None, "r": 3}, "n": None}
    assert _back(ALL_OF, "anthropic", sent) == sent


REF_TEXT = CanonicalTool("t", "d", {"type": "object", "properties": {
    "r": {"$ref": "#/$defs/D"},                                   # Gemini inlines D: JSON text
    "s": {"type": "array", "items": {"$ref": "#/$defs/D"}},
    "a": {"anyOf": [{"$ref": "#/$defs/D"}, {"type": "integer"}]},
    "o": {"oneOf": [{"type": "integer"}, {"type": "object"}]},   # Gemini: anyOf [INTEGER, STRING]
    "n": {"$ref": "#/$defs/N"},                                   # a string definition: never parsed
}, "$defs": {"D": {"type": "object"}, "N": {"type": "string"}}})


@pytest.mark.parametrize(("sent", "expected"), [
    ({"r": '{"k": 1}', "s": ['{"q": 2}'], "a": '{"b": 3}', "o": '{"c": 4}', "n": '{"x": 5}'},
     {"r": {"k": 1}, "s": [{"q": 2}], "a": {"b": 3}, "o": {"c": 4}, "n": '{"x": 5}'}),
    ({"r": "[1]", "a": 7, "o": 8, "n": "plain"}, {"r": "[1]", "a": 7, "o": 8, "n": "plain"}),
])
def test_gemini_json_text_is_read_back_through_refs_and_one_of(sent: dict[str, Any],
                                                               expected: dict[str, Any]) -> None:
    """The converter records a definition's JSON text at the definition (`/parameters/$defs/D`) and a
    `oneOf` branch's at the branch: the string sent for `r`, `s`'s items, `a` and `o` is parsed back there."""
    conv = convert(REF_TEXT, "gemini")
    assert conv.roundtrip["json_text"] == ["/parameters/$defs/D", "/parameters/properties/o/oneOf/1"]
    back = _back(REF_TEXT, "gemini", sent)
    assert back == expected


_ITEM_OBJECT = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["b"]}


@pytest.mark.parametrize("array", [
    {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"}],
     "items": {"anyOf": [{"type": "integer"}, _ITEM_OBJECT]}},
    {"type": "array", "items": [{"type": "integer"}, {"type": "integer"}],   # draft-07 tuple form
     "additionalItems": {"anyOf": [{"type": "integer"}, _ITEM_OBJECT]}},
])
def test_openai_strict_nulls_in_items_after_a_tuple_prefix_mean_absent(array: dict[str, Any]) -> None:
    """OpenAI strict folds the tuple prefix into the description and keeps `items` (or draft-07's
    `additionalItems`) for every item: the items after the prefix are mapped back with it."""
    tool = CanonicalTool("t", "d", {"type": "object", "properties": {"t": array}, "required": ["t"]})
    sent = {"t": [1, 2, {"a": None, "b": 2}, {"a": "x", "b": 3}, 4]}
    back = _back(tool, "openai", sent, strict=True)
    assert back == {"t": [1, 2, {"b": 2}, {"a": "x", "b": 3}, 4]}
    if "prefixItems" in array:  # the 2020-12 validator cannot read draft-07's tuple `items`
        assert argument_errors(tool, back) == []


def test_openai_strict_nulls_in_a_folded_prefix_answer_the_converted_items() -> None:
    """OpenAI strict folds `prefixItems` into the description, so the converted `items` governs the prefix
    items too: their nulls answer its optional `a` and mean absent, although the prefix's own schema was
    not walked (nothing is recorded under `prefixItems`)."""
    item = {"type": "object", "properties": {"a": _STR}}
    tool = CanonicalTool("t", "d", _obj({"t": {"type": "array", "prefixItems": [item], "items": item}}, ["t"]))
    back = _back(tool, "openai", {"t": [{"a": None}, {"a": None}, {"a": "x"}]}, strict=True)
    assert back == {"t": [{}, {}, {"a": "x"}]}
    assert argument_errors(tool, back) == []


def test_a_kept_prefix_maps_its_items_with_their_own_schemas() -> None:
    """A target that kept `prefixItems` (none of the shipped profiles does where calls are mapped back) records
    a prefix item's optional members under it; the items after the prefix answer `items`."""
    item = {"type": "object", "properties": {"a": _STR}}
    tool = CanonicalTool("t", "d", _obj({"t": {"type": "array", "prefixItems": [item], "items": item}}, ["t"]))
    kept = Conversion("t", {}, (), {"optional": ["/parameters/properties/t/prefixItems/0/properties/a"]})
    call, _ = to_canonical_call(ToolCall("c1", "t", {"t": [{"a": None}, {"a": None}]}), (tool,), (kept,))
    assert call.arguments == {"t": [{}, {"a": None}]}


def test_gemini_json_text_in_a_folded_prefix_answers_the_converted_items() -> None:
    """Gemini folds `prefixItems` too: every item answered the converted `items`, a free-form object asked
    for as JSON text, so the prefix items are read back as objects as well."""
    tool = CanonicalTool("t", "d", _obj({"t": {"type": "array", "prefixItems": [{"type": "object"}],
                                               "items": {"type": "object"}}}))
    assert _back(tool, "gemini", {"t": ['{"k": 1}', '{"k": 2}']}) == {"t": [{"k": 1}, {"k": 2}]}
    assert _back(tool, "gemini-json", {"t": ['{"k": 1}']}) == {"t": ['{"k": 1}']}  # kept there: as sent


def test_gemini_extra_keys_are_read_back_with_the_dropped_additional_properties() -> None:
    """Gemini drops `additionalProperties` (any extra key is accepted): an extra key's JSON text is parsed
    back where the original's `additionalProperties` is a definition Gemini asks for as JSON text."""
    tool = CanonicalTool("t", "d", {"type": "object", "properties": {
        "p": {"type": "object", "properties": {"x": {"type": "integer"}},
              "additionalProperties": {"$ref": "#/$defs/D"}},
        "q": {"type": "object", "properties": {"x": {"type": "integer"}}, "additionalProperties": True},
        "r": {"$ref": "#/$defs/D"},
    }, "$defs": {"D": {"type": "object"}}})
    sent = {"p": {"x": 1, "y": '{"k": 1}'}, "q": {"x": 2, "y": '{"k": 2}'}, "r": '{"k": 3}'}
    back = _back(tool, "gemini", sent)
    assert back == {"p": {"x": 1, "y": {"k": 1}}, "q": {"x": 2, "y": '{"k": 2}'}, "r": {"k": 3}}
    assert argument_errors(tool, back) == []


def test_bedrock_calls_by_the_sanitised_name_map_back_to_the_tool() -> None:
    tool = CanonicalTool("get weather!", "d", {"type": "object", "properties": {"a": {"type": "string"}}})
    conv = convert(tool, "bedrock")
    call, found = to_canonical_call(ToolCall("c1", "get_weather_", {"a": "x"}), (tool,), (conv,))
    assert (found, call.name, call.arguments) == (tool, "get weather!", {"a": "x"})


def _obj(props: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required or []}


_STR, _INT = {"type": "string"}, {"type": "integer"}
MERGES = CanonicalTool("t", "d", _obj({
    "own": {"type": "object", "properties": {"x": _STR}, "allOf": [{"properties": {"y": _STR}}]},
    "tb": {"allOf": [True, _obj({"y": _STR})]},
    "arr": {"allOf": [{"type": "array", "items": _obj({"a": _STR, "b": _INT}, ["b"])}]},
    "two": {"allOf": [_obj({"x": _obj({"y": _STR})}), _obj({"x": _obj({"z": _INT})})]},
    "nest": {"allOf": [{"allOf": [{"allOf": [_obj({"y": _STR})]}]}]},
    "one": {"oneOf": [_obj({"a": _STR, "b": _INT}, ["b"]), _INT]},
    "free": {"type": "array"},
    "ref": {"$ref": "#/$defs/D"},
}, ["own", "tb", "arr", "two", "nest", "one", "free", "ref"]) | {"$defs": {
    "D": _obj({"e": {"$ref": "#/$defs/E"}}, ["e"]), "E": _obj({"z": _INT})}})


def test_openai_strict_nulls_map_back_through_every_merged_and_referenced_form() -> None:
    """The node's own properties beside `allOf`, a `true` branch, `items` from a branch, a property two
    branches define differently (merged), `allOf` three deep, `oneOf` branches, a `$ref` inside a
    definition; an array without `items` (any item) keeps its nulls."""
    sent = {"own": {"x": None, "y": None}, "tb": {"y": None}, "arr": [{"a": None, "b": 1}, {"a": "s", "b": 2}],
            "two": {"x": {"y": None, "z": None}}, "nest": {"y": None}, "one": {"a": None, "b": 3},
            "free": [[None, 1], None, "s"], "ref": {"e": {"z": None}}}
    back = _back(MERGES, "openai", sent, strict=True)
    assert back == {"own": {}, "tb": {}, "arr": [{"b": 1}, {"a": "s", "b": 2}], "two": {"x": {}}, "nest": {},
                    "one": {"b": 3}, "free": [[None, 1], None, "s"], "ref": {"e": {}}}
    assert argument_errors(MERGES, back) == []
    two = _back(MERGES, "openai", {**sent, "two": {"x": None}}, strict=True)["two"]
    assert two == {}


def _chain(levels: int, via_items: bool) -> tuple[CanonicalTool, dict[str, Any]]:
    """Objects nested `levels` deep, each with an optional `n` sent as null (strict) and the next in `c`:
    directly, or as the first `anyOf` branch of an array's items."""
    schema: dict[str, Any] = _obj({"n": _STR})
    value: dict[str, Any] = {"n": None}
    for _ in range(levels - 1):
        child = {"type": "array", "items": {"anyOf": [schema, _INT]}} if via_items else schema
        schema = _obj({"n": _STR, "c": child}, ["c"])
        value = {"n": None, "c": [value] if via_items else value}
    return CanonicalTool("t", "d", schema), value


@pytest.mark.parametrize(("via_items", "kept_from"), [(False, 65), (True, 22)])
def test_nulls_deeper_than_the_walk_limit_are_kept_as_sent(via_items: bool, kept_from: int) -> None:
    """The mapping walks 64 schema levels: a property, an item and an `anyOf` branch are a level each, so
    the nulls are dropped in the first 65 directly nested objects, or the first 22 through items' `anyOf`."""
    tool, sent = _chain(kept_from + 2, via_items)
    back = _back(tool, "openai", sent, strict=True)
    for level in range(kept_from + 2):
        assert ("n" in back) == (level >= kept_from), level
        if level < kept_from + 1:
            back = back["c"][0] if via_items else back["c"]


def test_gemini_json_text_is_read_back_through_definitions_of_one_of_and_all_of_refs() -> None:
    """A definition with a `oneOf` branch asked for as JSON text (recorded at `/parameters/$defs/U/oneOf/1`),
    reached directly or from an `anyOf` branch, and an `allOf` of one `$ref`; a `$ref` that resolves nowhere
    (any value for Gemini) leaves its value as sent."""
    tool = CanonicalTool("t", "d", _obj({
        "r": {"$ref": "#/$defs/U"}, "a": {"anyOf": [{"$ref": "#/$defs/U"}, {"type": "boolean"}]},
        "al": {"allOf": [{"$ref": "#/$defs/D"}]}, "g": {"$ref": "#/$defs/Missing"}, "h": {"$ref": "#/$defs/Missing"},
    }) | {"$defs": {"U": {"oneOf": [_INT, {"type": "object"}]}, "D": {"type": "object"}}})
    assert convert(tool, "gemini").roundtrip["json_text"] == ["/parameters/$defs/D", "/parameters/$defs/U/oneOf/1"]
    sent = {"r": '{"k": 1}', "a": '{"k": 2}', "al": '{"k": 3}', "g": '{"k": 4}', "h": {"k": None}}
    assert _back(tool, "gemini", sent) == {"r": {"k": 1}, "a": {"k": 2}, "al": {"k": 3}, "g": '{"k": 4}',
                                           "h": {"k": None}}


def test_openai_strict_nulls_in_a_tuple_prefix_of_definitions_mean_absent() -> None:
    """A prefix item and the items after it are the same definition: the converted `items` asks for its
    optional members as null in every item, and the prefix item is mapped back through the definition."""
    tool = CanonicalTool("t", "d", _obj({"t": {"type": "array", "prefixItems": [{"$ref": "#/$defs/D"}],
                                               "items": {"$ref": "#/$defs/D"}}}, ["t"])
                         | {"$defs": {"D": _obj({"z": _INT, "w": _STR}, ["w"])}})
    sent = {"t": [{"z": None, "w": "a"}, {"z": None, "w": "b"}, {"z": 1, "w": "c"}]}
    back = _back(tool, "openai", sent, strict=True)
    assert back == {"t": [{"w": "a"}, {"w": "b"}, {"z": 1, "w": "c"}]}
    assert argument_errors(tool, back) == []


def test_gemini_a_string_branch_is_not_read_as_json_text_for_text_recorded_below_it() -> None:
    """`p`'s object branch has a free-form member (JSON text recorded at `.../anyOf/1/properties/m`): a
    string sent for `p` answers the string branch and is kept as sent."""
    tool = CanonicalTool("t", "d", _obj({"p": {"anyOf": [_STR, _obj({"m": {"type": "object"}})]}}))
    assert convert(tool, "gemini").roundtrip["json_text"] == ["/parameters/properties/p/anyOf/1/properties/m"]
    assert _back(tool, "gemini", {"p": '{"m": 1}'}) == {"p": '{"m": 1}'}
    assert _back(tool, "gemini", {"p": {"m": '{"k": 1}'}}) == {"p": {"m": {"k": 1}}}


LOOP = CanonicalTool("t", "d", {
    "type": "object",
    "properties": {"v": {"$ref": "#/$defs/D"}, "s": {"type": "string"}},
    "$defs": {"D": {"anyOf": [{"$ref": "#/$defs/D"}, {"$ref": "#/$defs/D"},
                              {"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "object"}}}]}},
})


@pytest.mark.timeout(20)
@pytest.mark.parametrize("target", ["openai", "gemini"])
def test_a_definition_that_refers_to_itself_in_every_branch_is_mapped_back_at_once(target: str) -> None:
    # Followed naively, each level doubles the walk: 2^64 steps before the depth limit stops it.
    sent: dict[str, Any] = {"v": {"x": "a"}, "s": "plain"}
    back = _back(LOOP, target, sent)
    assert back["s"] == "plain" and back["v"]["x"] == "a"


def _levels(back: dict[str, Any], step: Any, count: int) -> list[dict[str, Any]]:
    """The `count` nested objects of a mapped-back chain, outermost first (`step` reaches the next)."""
    out = [back]
    for _ in range(count - 1):
        out.append(step(out[-1]))
    return out


def _ref_chain(child: dict[str, Any], next_value: Any, levels: int) -> tuple[CanonicalTool, dict[str, Any]]:
    """A root and a definition `D` of the same shape: an optional `n` (sent as null, strict) and an optional
    `c` (`child`, which reaches `D` again); the value is `levels` objects deep, the last one's `c` null."""
    shape = _obj({"n": _STR, "c": child})
    value: dict[str, Any] = {"n": None, "c": None}
    for _ in range(levels - 1):
        value = {"n": None, "c": next_value(value)}
    return CanonicalTool("t", "d", shape | {"$defs": {"D": shape}}), value


_PREFIXED = {"type": "array", "prefixItems": [{"$ref": "#/$defs/D"}], "items": {"$ref": "#/$defs/D"}}


@pytest.mark.parametrize(("via_prefix", "kept_prefix", "kept_from"), [(False, False, 33), (True, False, 22),
                                                                      (True, True, 22)])
def test_nulls_deeper_than_the_walk_limit_along_refs_and_prefix_items_are_kept_as_sent(
        via_prefix: bool, kept_prefix: bool, kept_from: int) -> None:
    """A recursive definition: a property and its `$ref` are two of the 64 levels the mapping walks, so
    the nulls are dropped in the root and the first 32 definitions (the object at level 32 is 64 deep);
    through a one-item tuple prefix (a property, the array's `items` or prefix item, a `$ref`: three levels)
    in the first 22 objects (the one at level 21 is 63 deep; its item is a `$ref` at level 65, past the
    limit). OpenAI strict folds the prefix (its `items` is walked); ``kept_prefix`` is a target that kept it
    (the same conversion without the fold), whose first item is walked through the prefix."""
    child = _PREFIXED if via_prefix else {"$ref": "#/$defs/D"}
    tool, sent = _ref_chain(child, (lambda v: [v]) if via_prefix else (lambda v: v), kept_from + 2)
    conv = convert(tool, "openai", TargetOptions(strict=True))
    if kept_prefix:
        conv = replace(conv, losses=tuple(x for x in conv.losses if x.keyword != "prefixItems"))
    back, found = to_canonical_call(ToolCall("c1", "t", sent), (tool,), (conv,))
    assert found is tool
    levels = _levels(back.arguments, (lambda v: v["c"][0]) if via_prefix else (lambda v: v["c"]), kept_from + 2)
    assert ["n" in level for level in levels] == [False] * kept_from + [True, True]
    assert levels[-1] == {"n": None, "c": None}


def _extra_key_chain(definition: dict[str, Any], levels: int) -> tuple[CanonicalTool, dict[str, Any]]:
    """Objects `levels` deep, the next in `c`, each taking extra keys of the definition `X` (through
    `additionalProperties`: a `$ref`); the root's `r` is an `X` too, which is where Gemini records it."""
    schema: dict[str, Any] = {"type": "object", "properties": {"x": _INT},
                              "additionalProperties": {"$ref": "#/$defs/X"}}
    value: dict[str, Any] = {"x": 1, "e": '{"k": 1}'}
    for _ in range(levels - 1):
        schema = {"type": "object", "properties": {"x": _INT, "c": schema},
                  "additionalProperties": {"$ref": "#/$defs/X"}}
        value = {"x": 1, "e": '{"k": 1}', "c": value}
    schema["properties"]["r"] = {"$ref": "#/$defs/X"}
    return CanonicalTool("t", "d", schema | {"$defs": {"X": definition}}), value


@pytest.mark.parametrize(("definition", "recorded", "kept_from"), [
    ({"type": "object"}, "/parameters/$defs/X", 64),
    ({"oneOf": [_INT, {"type": "object"}]}, "/parameters/$defs/X/oneOf/1", 63),
])
def test_gemini_json_text_of_extra_keys_is_read_back_down_to_the_walk_limit(
        definition: dict[str, Any], recorded: str, kept_from: int) -> None:
    """Gemini drops `additionalProperties`; an extra key whose original schema is a free-form definition
    (or such a `oneOf` branch of one) is sent as JSON text and parsed back. The object at level k is k
    deep, its extra key k + 1, the definition k + 2 and its branch k + 3: the text is read wherever the
    last node before the recorded one is at most 64 deep (the extra key for `X` itself, the definition
    for its branch), so in the first 64 objects, or the first 63."""
    tool, sent = _extra_key_chain(definition, kept_from + 2)
    assert convert(tool, "gemini").roundtrip["json_text"] == [recorded]
    back = _back(tool, "gemini", sent)
    levels = _levels(back, lambda v: v["c"], kept_from + 2)
    assert [level["e"] for level in levels] == [{"k": 1}] * kept_from + ['{"k": 1}'] * 2
    assert all(level["x"] == 1 for level in levels)


@pytest.mark.parametrize(("nesting", "dropped"), [(64, True), (65, False)])
def test_openai_strict_nulls_in_all_of_nested_past_the_walk_limit_are_kept_as_sent(nesting: int,
                                                                                   dropped: bool) -> None:
    """`allOf` inside `allOf`, `nesting` deep, around an object with an optional `y`: OpenAI strict merges
    them all (and records `y` at `a`); the mapping merges a nested `allOf` while it is at most 64 deep, so
    `y`'s null is dropped for 64 levels of `allOf` (the innermost is 64 deep) and kept for 65."""
    inner: dict[str, Any] = _obj({"y": _STR})
    for _ in range(nesting):
        inner = {"allOf": [inner]}
    tool = CanonicalTool("t", "d", _obj({"a": inner}, ["a"]))
    assert "/parameters/properties/a/properties/y" in convert(
        tool, "openai", TargetOptions(strict=True)).roundtrip["optional"]
    back = _back(tool, "openai", {"a": {"y": None}}, strict=True)
    assert back == ({"a": {}} if dropped else {"a": {"y": None}})


@pytest.mark.timeout(20)
def test_gemini_a_string_for_a_definition_that_refers_to_itself_is_kept_at_once() -> None:
    """Gemini cuts the recursion into branches that take any value, so `v` may be sent as a string; no JSON
    text is recorded at `D` or its branches (only at the object branch's `y`), so the string is kept as sent,
    and at once: each reference is followed once per value on the way to the branches."""
    assert convert(LOOP, "gemini").roundtrip["json_text"] == ["/parameters/$defs/D/anyOf/2/properties/y"]
    sent = {"v": '{"x": "a"}', "s": "plain"}
    assert _back(LOOP, "gemini", sent) == sent
    assert _back(LOOP, "gemini", {"v": {"x": "a", "y": '{"k": 1}'}}) == {"v": {"x": "a", "y": {"k": 1}}}
