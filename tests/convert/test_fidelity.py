"""Issue 14: real-world schemas come out valid for their provider (checked with the providers' SDK types
and documented rules, ``sdk.py``), and every change of meaning is a reported loss."""

from __future__ import annotations

from typing import Any

import pytest
from toolcast.adapters.canonical import CanonicalTool
from toolcast.adapters.convert import Conversion, convert
from toolcast.adapters.loading import load_tools
from toolcast.adapters.losses import Action, Effect
from toolcast.adapters.targets import TARGETS, TargetOptions

from .sdk import VALIDATORS, check_documented_rules, schema_of

STRICT = ("openai", "openai-responses")


def _tool(props: dict[str, Any], **extra: Any) -> CanonicalTool:
    return CanonicalTool("t", "d", {"type": "object", "properties": props, **extra})


def _valid(conv: Conversion, strict: bool = False) -> dict[str, Any]:
    assert conv.ok, [loss.message for loss in conv.losses if loss.action == Action.REJECTED]
    VALIDATORS[conv.target](conv.output)
    check_documented_rules(conv.target, strict, conv.output)
    return conv.output


def _all_targets(tool: CanonicalTool) -> dict[str, Conversion]:
    return {t: convert(tool, t) for t in TARGETS}


def _check_all(tool: CanonicalTool) -> dict[str, Conversion]:
    convs = _all_targets(tool)
    for target, conv in convs.items():
        _valid(conv, strict=target in STRICT)
    return convs


# --- Gemini `parameters` ------------------------------------------------------------------------------

def test_gemini_pydantic_optional_becomes_nullable_and_keeps_its_annotations() -> None:
    opt = {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None, "title": "Query"}
    props = _valid(convert(_tool({"q": opt}), "gemini"))["parameters"]["properties"]
    assert props["q"] == {"type": "STRING", "default": None, "title": "Query", "nullable": True}
    _check_all(_tool({"q": opt}))


def test_gemini_any_of_with_siblings_moves_them_into_each_branch() -> None:
    node = {"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "id", "title": "Id"}
    conv = convert(_tool({"id": node}), "gemini")
    out = _valid(conv)["parameters"]["properties"]["id"]
    assert out == {"anyOf": [{"type": "STRING", "description": "id"}, {"type": "INTEGER", "description": "id"}]}
    assert any(loss.keyword == "title" and loss.action == Action.DROPPED for loss in conv.losses)


def test_gemini_free_form_object_is_asked_for_as_json_text_and_parsed_back() -> None:
    from toolcast.adapters.messages import ToolCall, to_canonical_call

    tool = _tool({"o": {"type": "object", "properties": {}}, "m": {"type": "object", "additionalProperties":
                                                                    {"type": "string"}, "description": "labels"}})
    conv = convert(tool, "gemini")
    props = _valid(conv)["parameters"]["properties"]
    assert props["o"]["type"] == props["m"]["type"] == "STRING" and "JSON object" in props["m"]["description"]
    assert {loss.pointer for loss in conv.losses if loss.effect == Effect.WIDENING and loss.keyword == "type"} == {
        "/parameters/properties/o/type", "/parameters/properties/m/type"}
    call, _ = to_canonical_call(ToolCall("c", "t", {"o": "{}", "m": '{"k": "v"}'}), (tool,), (conv,))
    assert call.arguments == {"o": {}, "m": {"k": "v"}}


def test_gemini_tool_without_properties_sends_no_parameters_and_loses_nothing() -> None:
    conv = convert(CanonicalTool("t", "d", {"type": "object", "required": [], "properties": {}}), "gemini")
    assert "parameters" not in _valid(conv)
    assert not any(loss.effect == Effect.NARROWING for loss in conv.losses)  # a no-argument tool


def test_gemini_typeless_node_becomes_a_union_with_a_narrowing_loss() -> None:
    conv = convert(_tool({"v": {"description": "anything"}}), "gemini")
    out = _valid(conv)["parameters"]["properties"]["v"]
    assert {b["type"] for b in out["anyOf"]} == {"STRING", "NUMBER", "BOOLEAN", "ARRAY"}
    assert any(loss.pointer == "/parameters/properties/v/type" and loss.effect == Effect.NARROWING
               for loss in conv.losses)


def test_gemini_nested_all_of_is_merged_at_every_depth_and_upper_cased() -> None:
    tool = _tool({"d": {"allOf": [{"allOf": [{"$ref": "#/$defs/X"}]}]}},
                 **{"$defs": {"X": {"type": "object", "properties": {"q": {"type": "string"}}}}})
    out = _valid(convert(tool, "gemini"))["parameters"]["properties"]["d"]
    assert out == {"type": "OBJECT", "properties": {"q": {"type": "STRING"}}}


def test_gemini_type_list_splits_into_typed_branches() -> None:
    node = {"type": ["string", "array", "object", "null"], "items": {"type": "integer"}, "minLength": 1}
    out = _valid(convert(_tool({"v": node}), "gemini"))["parameters"]["properties"]["v"]
    arrays = [b for b in out["anyOf"] if b["type"] == "ARRAY"]
    assert arrays[0]["items"] == {"type": "INTEGER"}
    assert all(b.get("nullable") for b in out["anyOf"])


def test_gemini_x_extensions_and_enum_on_arrays_are_not_sent() -> None:
    tool = _tool({"a": {"type": "array", "items": {"type": "string"}, "enum": ["x"], "x-ui": 1}})
    _valid(convert(tool, "gemini"))


def test_gemini_required_name_without_property_is_declared() -> None:
    conv = convert(_tool({"a": {"type": "string"}}, required=["a", "b"]), "gemini")
    assert "b" in _valid(conv)["parameters"]["properties"]


# --- OpenAI ---------------------------------------------------------------------------------------------

def test_openai_long_description_is_cut_with_a_loss() -> None:
    tool = CanonicalTool("t", "x" * 1500)
    for target in STRICT:
        conv = convert(tool, target)
        out = _valid(conv, strict=True)
        desc = out["function"]["description"] if target == "openai" else out["description"]
        assert len(desc) == 1024
        assert any(loss.keyword == "description" for loss in conv.losses)
    assert convert(tool, "anthropic").output["description"] == "x" * 1500  # no limit there


def test_root_ref_with_sibling_defs_is_inlined() -> None:
    params = {"$ref": "#/$defs/Args", "$defs": {"Args": {"type": "object", "properties": {
        "n": {"type": "integer"}, "child": {"$ref": "#/$defs/Args"}}}}}
    convs = _check_all(CanonicalTool("t", "d", params))
    assert schema_of("openai", convs["openai"].output)["properties"]["n"]["type"] == ["integer", "null"]


def test_ref_whose_target_is_not_kept_is_inlined_not_left_dangling() -> None:
    params = {"type": "object", "properties": {
        "a": {"type": "object", "properties": {"x": {"type": "string"}}},
        "b": {"$ref": "#/properties/a"},
        "c": {"$defs": {"N": {"type": "integer"}}, "$ref": "#/properties/c/$defs/N"}}}
    convs = _check_all(CanonicalTool("t", "d", params))
    props = schema_of("openai", convs["openai"].output)["properties"]
    assert "$ref" not in str(props["b"]) and props["c"]["type"] == ["integer", "null"]


def test_strict_any_of_branches_without_type_get_the_siblings() -> None:
    node = {"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "string"}},
            "anyOf": [{"required": ["x"]}, {"required": ["y"]}]}
    convs = _check_all(_tool({"o": node}))
    branches = schema_of("openai", convs["openai"].output)["properties"]["o"]["anyOf"]
    assert all(b.get("type") in ("object", "null") for b in branches)


def test_array_without_items_gets_items() -> None:
    convs = _check_all(_tool({"a": {"type": "array"}}))
    assert "items" in schema_of("openai", convs["openai"].output)["properties"]["a"]
    assert schema_of("openai", convert(_tool({"a": {"type": "array"}}), "openai",
                                       TargetOptions(strict=False)).output)["properties"]["a"]["items"] == {}


def test_draft04_forms_are_rewritten_in_2020_12() -> None:
    tool = _tool({"n": {"type": "number", "minimum": 0, "exclusiveMinimum": True},
                  "t": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}})
    convs = _check_all(tool)
    props = schema_of("mcp", convs["mcp"].output)["properties"]
    assert props["n"] == {"type": "number", "exclusiveMinimum": 0}
    assert props["t"] == {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}


# --- unsatisfiable, closure ------------------------------------------------------------------------------

def test_required_name_missing_from_properties_stays_satisfiable_under_strict() -> None:
    conv = convert(_tool({"a": {"type": "string"}}, required=["a", "ghost"]), "openai")
    out = _valid(conv, strict=True)
    assert "ghost" in schema_of("openai", out)["properties"]


def test_closed_object_requiring_an_unlisted_name_is_reported_unsatisfiable() -> None:
    conv = convert(_tool({"a": {"type": "string"}}, required=["ghost"], additionalProperties=False), "openai")
    assert any(loss.effect == Effect.UNSATISFIABLE and loss.keyword == "required" for loss in conv.losses)
    assert not conv.ok


def test_strict_optional_object_with_one_of_accepts_something() -> None:
    node = {"type": "object", "properties": {"kind": {"type": "string"}},
            "oneOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]},
                      {"properties": {"b": {"type": "integer"}}, "required": ["b"]}]}
    conv = convert(_tool({"o": node}), "openai")
    out = schema_of("openai", _valid(conv, strict=True))["properties"]["o"]
    objects = [b for b in out["anyOf"] if b.get("type") == "object"]
    assert {tuple(sorted(b["properties"])) for b in objects} == {("a", "kind"), ("b", "kind")}
    assert not any(loss.effect == Effect.UNSATISFIABLE for loss in conv.losses)


def test_strict_closure_is_a_narrowing_loss() -> None:
    conv = convert(_tool({"o": {"type": "object", "properties": {"x": {"type": "string"}}}}), "openai")
    closed = {loss.pointer for loss in conv.losses
              if loss.keyword == "additionalProperties" and loss.effect == Effect.NARROWING}
    assert closed == {"/parameters/additionalProperties", "/parameters/properties/o/additionalProperties"}
    already = convert(_tool({}, additionalProperties=False), "openai")
    assert not any(loss.keyword == "additionalProperties" for loss in already.losses)


# --- dirty types ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("dirty,clean", [("dict", "object"), ("float", "number"), ("int", "integer"),
                                         ("str", "string"), ("bool", "boolean"), ("list", "array"),
                                         ("List[str]", "array"), ("String", "string")])
def test_well_known_type_aliases_are_repaired_with_a_loss(dirty: str, clean: str) -> None:
    convs = _check_all(_tool({"v": {"type": dirty}}))
    assert schema_of("mcp", convs["mcp"].output)["properties"]["v"]["type"] == clean
    assert all(any(loss.keyword == "type" and dirty in loss.message for loss in c.losses) for c in convs.values())


def test_any_type_means_no_type() -> None:
    convs = _check_all(_tool({"v": {"type": "any"}}))
    assert schema_of("mcp", convs["mcp"].output)["properties"]["v"] == {}


def test_unknown_type_is_refused_naming_it() -> None:
    for conv in _all_targets(_tool({"v": {"type": "Widget"}})).values():
        assert not conv.ok and any("`Widget`" in loss.message for loss in conv.losses)


# --- silent drops -----------------------------------------------------------------------------------------

def test_snake_case_parameters_json_schema_is_read() -> None:
    raw = {"name": "t", "parameters_json_schema": {"type": "object", "properties": {"a": {"type": "string"}},
                                                   "required": ["a"]}}
    [loaded] = load_tools(raw)
    assert loaded.tool.parameters["required"] == ["a"]


def test_anthropic_only_fields_are_kept_for_anthropic_and_reported_elsewhere() -> None:
    raw = {"name": "t", "input_schema": {"type": "object", "properties": {}}, "type": "custom",
           "cache_control": {"type": "ephemeral"}, "defer_loading": True, "eager_input_streaming": True}
    [loaded] = load_tools(raw)
    out = _valid(convert(loaded.tool, "anthropic"))
    assert out["cache_control"] == {"type": "ephemeral"} and out["defer_loading"] is True and out["type"] == "custom"
    for target in TARGETS:
        if target == "anthropic":
            continue
        keys = {loss.keyword for loss in convert(loaded.tool, target).losses}
        assert {"cache_control", "defer_loading", "eager_input_streaming"} <= keys, target


def test_unknown_top_level_fields_are_reported() -> None:
    [loaded] = load_tools({"name": "t", "parameters": {"type": "object", "properties": {}}, "handler": "x.y"})
    for target in TARGETS:
        assert any(loss.keyword == "handler" and loss.action == Action.DROPPED
                   for loss in convert(loaded.tool, target).losses), target


def test_from_shape_mismatch_says_so() -> None:
    from toolcast.adapters.errors import ConversionError

    with pytest.raises(ConversionError, match="looks like a canonical tool"):
        load_tools({"name": "t", "parameters": {"type": "object", "properties": {"a": {}}}}, "anthropic")


# --- one truth --------------------------------------------------------------------------------------------

def test_one_sanitiser_for_convert_and_checks() -> None:
    from toolcast.adapters.checks.target_rules import name_rule

    conv = convert(CanonicalTool("ns:tool"), "mcp")
    assert conv.output["name"] == "ns_tool" == name_rule("mcp").sanitise("ns:tool")
    assert any(loss.keyword == "name" for loss in conv.losses)


def test_non_strict_chat_tool_stays_non_strict_for_responses() -> None:
    from toolcast.adapters.checks.tool_checks import strict_for

    raw = {"type": "function", "function": {"name": "t", "strict": False,
                                             "parameters": {"type": "object", "properties": {}}}}
    [loaded] = load_tools(raw)
    out = convert(loaded.tool, "openai-responses").output
    assert out["strict"] is False
    assert strict_for("openai-responses", raw, "openai", TargetOptions()) is False


def test_profiles_are_validated_typed_and_read_by_everyone() -> None:
    import json

    from toolcast.adapters.providers import DISPLAY_NAMES, ProfileError, _validate, profile, profile_text

    for target in TARGETS:
        prof = profile(target)
        raw = json.loads(profile_text(target))
        assert DISPLAY_NAMES[target] == prof.display_name == raw["display_name"]
        assert prof.strict_default == (raw["default_mode"] == "strict")
    assert {t: prof.limits.function_declarations.max for t in TARGETS
            if (prof := profile(t)).limits.function_declarations} == {"gemini": 512, "gemini-json": 512}
    broken = json.loads(profile_text("openai"))
    broken["modes"]["strict"]["closed_object"] = True  # a typo the walker would silently ignore
    with pytest.raises(ProfileError, match="unknown settings"):
        _validate("openai", broken)
    broken = json.loads(profile_text("openai"))
    broken["modes"]["strict"]["keywords"]["minLength"] = "fould"
    with pytest.raises(ProfileError, match="keyword fates"):
        _validate("openai", broken)
    # One list of settings (adapters/mode_settings.py Mode) checks a profile at load: what it leaves out, a JSON
    # type the setting does not take, and a value outside a setting's fixed set.
    for change, message in ((lambda m: m.pop("refs"), r"missing settings \['refs'\]"),
                            (lambda m: m.__setitem__("closed_objects", "yes"), "bad `closed_objects`"),
                            (lambda m: m.__setitem__("min_items_max", True), "bad `min_items_max`"),
                            (lambda m: m.__setitem__("refs", "inlined"), "mode setting `refs` is one of")):
        broken = json.loads(profile_text("openai"))
        change(broken["modes"]["strict"])
        with pytest.raises(ProfileError, match=message):
            _validate("openai", broken)
    optional = json.loads(profile_text("openai"))
    optional["modes"]["strict"].pop("typed_nodes", None)
    assert _validate("openai", optional).modes["strict"].get("typed_nodes") is None  # optional: may be left out
