"""``to_canonical_call`` on calls written by hand from what each target's converted schema asks a model
to send: Gemini's JSON-text stand-ins for free-form objects, and OpenAI strict's nulls for optional
properties where the converter merged ``allOf`` branches. Expected arguments are the original schema's
instances, also written by hand."""

from __future__ import annotations

from typing import Any

import pytest
from toolcast.adapters.convert import convert
from toolcast.adapters.messages import ToolCall, to_canonical_call
from toolcast.adapters.messages.arguments import argument_errors
from toolcast.adapters.model import CanonicalTool
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
