"""The conversion envelopes (``adapters/convert/convert_tool.py``), field by field: every target's tool object,
every loss ``convert`` adds itself (names, descriptions, metadata, source-only fields) and what it hands
the walker, written out by hand from docs/design.md and the providers' formats
(``docs/providers.md``; the cited pages are in ``test_hand_written.py``).

Most tests pass a recording ``lowering`` that returns the schema unchanged: the envelopes are then the only
code under test, and the walker's own rewrites (tested in ``test_walker_exact.py``) cannot hide a change."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from toolcast.adapters.canonical import CanonicalTool
from toolcast.adapters.convert import convert, convert_all
from toolcast.adapters.convert.convert_tool import Conversion, ListConversion, _gemini_case, mode_name, sanitize_name
from toolcast.adapters.convert.lowered import Lowered
from toolcast.adapters.convert.profile_mode import Mode, profile_mode
from toolcast.adapters.losses import Action, Effect, Loss
from toolcast.adapters.providers import profile
from toolcast.adapters.targets import TargetOptions

LOWERED, DROPPED, REJECTED = Action.LOWERED, Action.DROPPED, Action.REJECTED
NEUTRAL, NARROWING, WIDENING = Effect.NEUTRAL, Effect.NARROWING, Effect.WIDENING

P = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
P_UPPER = {"type": "OBJECT", "properties": {"q": {"type": "STRING"}}, "required": ["q"]}
R = {"type": "object", "properties": {"hits": {"type": "integer"}}}
R_UPPER = {"type": "OBJECT", "properties": {"hits": {"type": "INTEGER"}}}


class Recorder:
    """A lowering that records its calls and returns the schema as given (plus the losses it is told to): the
    very object, which `convert` takes for a schema no walk lowered and leaves to the envelope rules alone."""

    def __init__(self, losses: list[Loss] | None = None) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.losses = losses or []

    def __call__(self, schema: Any, base: str, target: str, mode: Mode, mode_id: str) -> Lowered:
        self.calls.append((schema, base, target, mode, mode_id))
        return Lowered(schema, list(self.losses) if base == "/parameters" else [], {})  # as given: not judged


def run(tool: CanonicalTool, target: str, strict: bool | None = None, **options: Any) -> Conversion:
    return convert(tool, target, TargetOptions(strict=strict, **options), lowering=Recorder())


def losses(conv: Conversion) -> list[tuple[Any, ...]]:
    return [(x.target, x.pointer, x.keyword, x.value, x.action, x.effect, x.message) for x in conv.losses]


RICH = CanonicalTool(
    name="lookup", description="Look up.", parameters=P, returns=R, title="Lookup", namespace="ns", version="1.0",
    category="search", tags=("a", "b"), timeout=2.5, required_scopes=("read",), annotations={"readOnlyHint": True},
    examples=({"q": "x"},))

#: (pointer, keyword, value) of every metadata field of RICH, in pointer order.
RICH_METADATA = [
    ("/annotations", "annotations", {"readOnlyHint": True}),
    ("/category", "category", "search"),
    ("/examples", "examples", [{"q": "x"}]),
    ("/namespace", "namespace", "ns"),
    ("/required_scopes", "required_scopes", ["read"]),
    ("/returns", "returns", R),
    ("/tags", "tags", ["a", "b"]),
    ("/timeout", "timeout", 2.5),
    ("/title", "title", "Lookup"),
    ("/version", "version", "1.0"),
]


def metadata_losses(target: str, *carried: str) -> list[tuple[Any, ...]]:
    return [(target, p, k, v, DROPPED, NEUTRAL, f"{target} tools have no `{k}`; not sent")
            for p, k, v in RICH_METADATA if k not in carried]


# -- which mode, and what the walker is given --------------------------------------------------------

@pytest.mark.parametrize("target,strict,expected", [
    ("openai", None, "strict"), ("openai-responses", None, "strict"), ("openai", False, "non_strict"),
    ("anthropic", None, "non_strict"), ("anthropic", True, "strict"), ("mistral", None, "non_strict"),
    ("bedrock", None, "non_strict"), ("bedrock", True, "strict"),
    ("gemini", None, "default"), ("gemini", True, "default"), ("gemini-json", False, "default"),
    ("mcp", None, "default"),
])
def test_mode_name(target: str, strict: bool | None, expected: str) -> None:
    assert mode_name(CanonicalTool("t"), target, TargetOptions(strict=strict)) == expected


def test_mode_name_reads_the_tools_own_override() -> None:
    tool = CanonicalTool("t", overrides={"anthropic": {"strict": True}})
    assert mode_name(tool, "anthropic", TargetOptions()) == "strict"
    assert mode_name(tool, "anthropic", TargetOptions(strict=False)) == "non_strict"


def test_mode_name_reads_the_flag_of_the_shape_the_tool_was_written_in() -> None:
    """An OpenAI Chat tool's own ``strict: false`` also holds for Responses (providers.effective_strict)."""
    tool = CanonicalTool("t", source_format="openai", overrides={"openai": {"strict": False}})
    assert mode_name(tool, "openai-responses", TargetOptions()) == "non_strict"
    assert mode_name(CanonicalTool("t", overrides={"openai": {"strict": False}}), "openai-responses",
                     TargetOptions()) == "strict"


@pytest.mark.parametrize("target,strict,key", [
    ("openai-responses", None, "strict"), ("openai-responses", False, "non_strict"), ("gemini", None, "default"),
    ("gemini-json", None, "default"), ("mcp", None, "default"),
])
def test_parameters_and_returns_are_lowered_in_the_mode_and_returns_neither_required_nor_closed(
        target: str, strict: bool | None, key: str) -> None:
    rec = Recorder()
    convert(RICH, target, TargetOptions(strict=strict), lowering=rec)
    prof = profile(target)
    mode = profile_mode(target, key)
    assert rec.calls == [
        (P, "/parameters", target, mode, prof.mode_ids[key]),
        (R, "/returns", target, replace(mode, all_required=False, closed_objects=False),
         prof.mode_ids[key] + "/returns"),
    ]


@pytest.mark.parametrize("target,key", [("openai", "strict"), ("anthropic", "non_strict"), ("mistral", "non_strict"),
                                        ("bedrock", "non_strict")])
def test_targets_without_return_schemas_lower_only_the_parameters(target: str, key: str) -> None:
    rec = Recorder()
    convert(RICH, target, lowering=rec)
    prof = profile(target)
    assert rec.calls == [(P, "/parameters", target, profile_mode(target, key), prof.mode_ids[key])]


def test_no_returns_no_second_lowering() -> None:
    rec = Recorder()
    convert(RICH.replace(returns=None), "mcp", lowering=rec)
    assert [c[1] for c in rec.calls] == ["/parameters"]


def test_the_real_walker_closes_the_parameters_but_not_the_returns() -> None:
    """OpenAI Responses strict (its default): parameters get every property required and
    ``additionalProperties: false``; a return schema is what the tool sends back, so it stays open."""
    tool = CanonicalTool("t", "d", {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                         returns={"type": "object", "properties": {"b": {"type": "string"}}})
    conv = convert(tool, "openai-responses")
    assert conv.output == {
        "type": "function", "name": "t", "description": "d",
        "parameters": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
                       "additionalProperties": False},
        "strict": True,
        "output_schema": {"type": "object", "properties": {"b": {"type": "string"}}},
    }
    assert [(x.pointer, x.keyword) for x in conv.losses] == [("/parameters/additionalProperties",
                                                              "additionalProperties")]


# -- names ---------------------------------------------------------------------------------------------

def test_sanitize_name() -> None:
    assert sanitize_name("files.read", "openai") == "files_read"
    assert sanitize_name("files.read", "mcp") == "files.read"
    assert sanitize_name("9lives", "gemini") == "_9lives"


def test_a_name_the_target_refuses_is_sent_sanitised_and_mapped_back() -> None:
    conv = run(CanonicalTool("files.read", parameters=P), "openai")
    assert conv.output["function"]["name"] == "files_read"
    assert losses(conv) == [("openai", "/name", "name", "files.read", LOWERED, NEUTRAL,
                             "name `files.read` is not valid for openai; sent as `files_read` "
                             "(mapped back by toolcast)")]
    assert conv.roundtrip == {"name": "files.read"}


def test_a_valid_name_is_sent_as_is_and_needs_no_mapping() -> None:
    conv = run(CanonicalTool("files.read", parameters=P), "mcp")
    assert conv.output["name"] == "files.read"
    assert conv.losses == () and conv.roundtrip == {}


def test_the_targets_name_override_is_sent_and_the_tools_name_mapped_back() -> None:
    tool = CanonicalTool("fetch", parameters=P, overrides={"openai": {"name": "fetch_v2"}, "mcp": {"name": "other"}})
    conv = run(tool, "openai")
    assert conv.output["function"]["name"] == "fetch_v2"
    assert conv.losses == () and conv.roundtrip == {"name": "fetch"}
    # another target's override does not apply
    assert run(tool, "anthropic").output["name"] == "fetch"
    assert run(tool, "anthropic").roundtrip == {}


def test_an_override_name_the_target_refuses_is_sanitised_and_the_tools_name_mapped_back() -> None:
    conv = run(CanonicalTool("orig", parameters=P, overrides={"openai": {"name": "a.b"}}), "openai")
    assert conv.output["function"]["name"] == "a_b"
    assert losses(conv) == [("openai", "/name", "name", "a.b", LOWERED, NEUTRAL,
                             "name `a.b` is not valid for openai; sent as `a_b` (mapped back by toolcast)")]
    assert conv.roundtrip == {"name": "orig"}


def test_an_override_name_that_is_not_a_string_is_ignored() -> None:
    conv = run(CanonicalTool("fetch", parameters=P, overrides={"openai": {"name": 5}}), "openai")
    assert conv.output["function"]["name"] == "fetch"
    assert conv.losses == () and conv.roundtrip == {}


# -- descriptions ----------------------------------------------------------------------------------------

def test_a_description_over_openais_limit_is_cut_with_a_loss() -> None:
    text = "x" * 1025
    conv = run(CanonicalTool("t", text, P), "openai")
    assert conv.output["function"]["description"] == "x" * 1024
    # not neutral: the model no longer reads the text that was cut
    assert losses(conv) == [("openai", "/description", "description", text, DROPPED, WIDENING,
                             "description is 1,025 characters; openai accepts at most 1,024: cut to 1,024")]


def test_a_description_at_the_limit_or_for_a_target_without_one_is_kept() -> None:
    at_limit = run(CanonicalTool("t", "y" * 1024, P), "openai-responses")
    assert at_limit.output["description"] == "y" * 1024 and at_limit.losses == ()
    long = run(CanonicalTool("t", "z" * 5000, P), "anthropic")
    assert long.output["description"] == "z" * 5000 and long.losses == ()


def test_the_targets_description_override_replaces_the_description_and_is_cut_too() -> None:
    tool = CanonicalTool("t", "Long.", P, overrides={"openai": {"description": "Short."}})
    assert run(tool, "openai").output["function"]["description"] == "Short."
    assert run(tool, "mistral").output["function"]["description"] == "Long."
    ignored = CanonicalTool("t", "Long.", P, overrides={"openai": {"description": 7}})
    assert run(ignored, "openai").output["function"]["description"] == "Long."
    cut = run(CanonicalTool("t", "Long.", P, overrides={"openai": {"description": "w" * 2000}}), "openai")
    assert cut.output["function"]["description"] == "w" * 1024
    assert losses(cut) == [("openai", "/description", "description", "w" * 2000, DROPPED, WIDENING,
                            "description is 2,000 characters; openai accepts at most 1,024: cut to 1,024")]


# -- losses: order and outcome -----------------------------------------------------------------------------

def test_losses_are_sorted_by_pointer_then_keyword() -> None:
    def loss(pointer: str, keyword: str) -> Loss:
        return Loss("openai", pointer, keyword, None, LOWERED, NEUTRAL, "m")

    rec = Recorder([loss("/parameters/properties/b", "type"), loss("/parameters/properties/a", "type"),
                    loss("/parameters/properties/a", "enum")])
    conv = convert(CanonicalTool("a.b", parameters=P, title="T"), "openai", lowering=rec)
    assert [(x.pointer, x.keyword) for x in conv.losses] == [
        ("/name", "name"), ("/parameters/properties/a", "enum"), ("/parameters/properties/a", "type"),
        ("/parameters/properties/b", "type"), ("/title", "title")]


def test_ok_is_false_exactly_when_a_loss_is_rejected() -> None:
    def conv(*actions: Action) -> Conversion:
        return Conversion("openai", {}, tuple(Loss("openai", "/p", "k", None, a, NEUTRAL, "m") for a in actions), {})

    assert conv().ok and conv(DROPPED, LOWERED, Action.FOLDED).ok
    assert not conv(REJECTED).ok and not conv(DROPPED, REJECTED).ok
    assert ListConversion("openai", [], ()).ok
    assert ListConversion("openai", [], (conv(), conv(DROPPED))).ok
    assert not ListConversion("openai", [], (conv(), conv(REJECTED))).ok
    assert not ListConversion("openai", [], (conv(REJECTED), conv())).ok


def test_a_rejected_conversion_is_not_ok() -> None:
    rec = Recorder([Loss("openai", "/parameters", "$ref", "#", REJECTED, NEUTRAL, "m")])
    assert not convert(CanonicalTool("t", parameters=P), "openai", lowering=rec).ok
    assert convert(CanonicalTool("t", parameters=P), "openai", lowering=Recorder()).ok


# -- lists --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("target", ["openai", "gemini", "gemini-json", "bedrock", "mcp"])
def test_convert_all_wraps_each_targets_list(target: str) -> None:
    tools = [CanonicalTool("a", "A.", P), CanonicalTool("b", "B.", P)]
    whole = convert_all(tools, target, TargetOptions(strict=False))
    single = [convert(t, target, TargetOptions(strict=False)) for t in tools]
    items = [c.output for c in single]
    expected = {"gemini": [{"functionDeclarations": items}], "gemini-json": [{"functionDeclarations": items}],
                "bedrock": {"tools": items}}.get(target, items)
    assert whole.target == target
    assert whole.output == expected
    assert whole.conversions == tuple(single)
    assert whole.ok


def test_convert_all_passes_its_options_on() -> None:
    whole = convert_all([CanonicalTool("a", "A.", P)], "openai", TargetOptions(strict=False))
    assert whole.output[0]["function"]["strict"] is False
    assert convert_all([CanonicalTool("a", "A.", P)], "openai").output[0]["function"]["strict"] is True


# -- Gemini type names ---------------------------------------------------------------------------------------

MIXED = {
    "type": "object", "description": "type", "enum": ["string"],
    "properties": {"type": {"type": "string"}, "list": {"type": "array", "items": {"type": "Integer"}}},
    "anyOf": [{"type": "null"}, {"type": ["string", "null"]}],
    "$defs": {"D": {"type": "string"}},
    "format": {"type": "string"},
}


def test_gemini_case_upper_and_lower() -> None:
    assert _gemini_case(MIXED, True) == {
        "type": "OBJECT", "description": "type", "enum": ["string"],
        "properties": {"type": {"type": "STRING"}, "list": {"type": "ARRAY", "items": {"type": "INTEGER"}}},
        "anyOf": [{"type": "NULL"}, {"type": ["string", "null"]}],  # a type list is left as it is
        "$defs": {"D": {"type": "string"}},  # only properties, items and anyOf are walked
        "format": {"type": "string"},
    }
    assert _gemini_case({"type": "OBJECT", "properties": {"a": {"type": "Number"}}, "items": [{"type": "BOOLEAN"}]},
                        False) == {"type": "object", "properties": {"a": {"type": "number"}},
                                   "items": [{"type": "boolean"}]}
    assert _gemini_case([{"type": "string"}, True], True) == [{"type": "STRING"}, True]
    assert _gemini_case("string", True) == "string"
    assert _gemini_case({"properties": ["not", "a", "map"]}, True) == {"properties": ["not", "a", "map"]}


def test_gemini_type_case_option() -> None:
    lower = convert(RICH.replace(parameters=P_UPPER, returns=R_UPPER), "gemini",
                    TargetOptions(gemini_type_case="lower"), lowering=Recorder())
    assert lower.output["parameters"] == P and lower.output["response"] == R


# -- every envelope ------------------------------------------------------------------------------------------

def test_openai() -> None:
    conv = run(RICH, "openai", True)
    assert conv.output == {"type": "function", "function": {"name": "lookup", "description": "Look up.",
                                                            "parameters": P, "strict": True}}
    assert losses(conv) == metadata_losses("openai")
    assert run(RICH, "openai", False).output["function"]["strict"] is False
    assert run(CanonicalTool("ping", parameters=P), "openai").output == {
        "type": "function", "function": {"name": "ping", "parameters": P, "strict": True}}
    # an empty description is still a description
    assert run(CanonicalTool("ping", "", P), "openai").output["function"]["description"] == ""


def test_openai_responses() -> None:
    conv = run(RICH, "openai-responses")
    assert conv.output == {"type": "function", "name": "lookup", "description": "Look up.", "parameters": P,
                           "strict": True, "output_schema": R}
    assert losses(conv) == metadata_losses("openai-responses", "returns")
    assert run(CanonicalTool("ping", parameters=P), "openai-responses", False).output == {
        "type": "function", "name": "ping", "parameters": P, "strict": False}


def test_anthropic() -> None:
    conv = run(RICH, "anthropic", True)
    assert conv.output == {"name": "lookup", "description": "Look up.", "input_schema": P, "strict": True,
                           "input_examples": [{"q": "x"}]}
    assert losses(conv) == metadata_losses("anthropic", "examples")
    assert run(RICH, "anthropic", False).output == {"name": "lookup", "description": "Look up.", "input_schema": P,
                                                   "input_examples": [{"q": "x"}]}
    assert run(CanonicalTool("ping", parameters=P), "anthropic").output == {"name": "ping", "input_schema": P}


def test_anthropic_only_fields_go_back_to_anthropic_only() -> None:
    meta = {"cache_control": {"type": "ephemeral"}, "defer_loading": True, "type": "custom"}
    tool = CanonicalTool("t", "d", P, source_format="anthropic", source_meta=meta)
    conv = run(tool, "anthropic")
    assert conv.output == {"name": "t", "description": "d", "input_schema": P, **meta}
    assert conv.losses == ()
    conv.output["cache_control"]["type"] = "changed"  # a copy: the tool keeps its own
    assert tool.source_meta["cache_control"] == {"type": "ephemeral"}
    other = run(tool, "openai")
    assert losses(other) == [
        ("openai", "/cache_control", "cache_control", {"type": "ephemeral"}, DROPPED, NEUTRAL,
         "`cache_control` is a anthropic field; openai has no such field: not sent"),
        ("openai", "/defer_loading", "defer_loading", True, DROPPED, NEUTRAL,
         "`defer_loading` is a anthropic field; openai has no such field: not sent"),
    ]  # `type: custom` is every target's kind of tool: nothing lost


@pytest.mark.parametrize("target", ["gemini", "gemini-json"])
def test_other_targets_fields_are_lost_on_gemini_too(target: str) -> None:
    """Only ``behavior`` is skipped for the Gemini routes; Anthropic's and MCP's fields are lost there."""
    tool = CanonicalTool("t", "d", P, source_meta={"cache_control": {"type": "ephemeral"}, "icons": []})
    assert losses(run(tool, target)) == [
        (target, "/cache_control", "cache_control", {"type": "ephemeral"}, DROPPED, NEUTRAL,
         f"`cache_control` is a anthropic field; {target} has no such field: not sent"),
        (target, "/icons", "icons", [], DROPPED, NEUTRAL,
         f"`icons` is a mcp field; {target} has no such field: not sent"),
    ]


def test_only_the_type_custom_is_not_lost() -> None:
    """``type: custom`` is every target's kind of tool; another field whose value happens to be the string
    "custom" is still an Anthropic field that is not sent."""
    tool = CanonicalTool("t", "d", P, source_meta={"allowed_callers": "custom", "type": "custom"})
    assert losses(run(tool, "mcp")) == [
        ("mcp", "/allowed_callers", "allowed_callers", "custom", DROPPED, NEUTRAL,
         "`allowed_callers` is a anthropic field; mcp has no such field: not sent")]


def test_an_anthropic_server_tool_is_sent_as_a_custom_tool_with_a_loss() -> None:
    tool = CanonicalTool("bash", None, P, source_format="anthropic", source_meta={"type": "bash_20250124"})
    conv = run(tool, "anthropic")
    assert conv.output == {"name": "bash", "input_schema": P}
    assert losses(conv) == [("anthropic", "/type", "type", "bash_20250124", DROPPED, NEUTRAL,
                             "`type: bash_20250124` is not a custom tool; sent as a custom tool")]
    assert losses(run(tool, "mistral")) == [("mistral", "/type", "type", "bash_20250124", DROPPED, NEUTRAL,
                                             "`type` is a anthropic field; mistral has no such field: not sent")]


def test_gemini() -> None:
    conv = run(RICH, "gemini")
    assert conv.output == {"name": "lookup", "description": "Look up.", "parameters": P_UPPER, "response": R_UPPER}
    assert losses(conv) == metadata_losses("gemini", "returns")
    assert run(CanonicalTool("ping", parameters=P), "gemini").output == {"name": "ping", "parameters": P_UPPER}


def test_gemini_without_declared_properties_sends_no_parameters() -> None:
    conv = run(CanonicalTool("ping", "d", {"type": "object", "properties": {}}), "gemini")
    assert conv.output == {"name": "ping", "description": "d"}
    assert losses(conv) == []  # a tool without parameters: Gemini takes it as a function with no arguments
    # a declared map (keys the author lets through) is what cannot be sent without `parameters`
    mapped = run(CanonicalTool("ping", "d", {"type": "object", "additionalProperties": {"type": "string"}}), "gemini")
    assert mapped.output == {"name": "ping", "description": "d"}
    assert ("gemini", "/parameters", "properties", None, LOWERED, NARROWING,
            "no declared properties: sent without `parameters` (gemini rejects an object without "
            "properties), so no argument can be sent") in losses(mapped)
    # already closed: nothing could be sent anyway, so nothing is lost
    closed = run(CanonicalTool("ping", "d", {"type": "object", "additionalProperties": False}), "gemini")
    assert closed.output == {"name": "ping", "description": "d"} and closed.losses == ()
    # an anyOf root declares its arguments in its branches
    union = {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}]}
    kept = run(CanonicalTool("u", "d", union), "gemini")
    assert kept.output["parameters"] == {"anyOf": [{"type": "OBJECT", "properties": {"a": {"type": "STRING"}}}]}
    assert kept.losses == ()


def test_gemini_json() -> None:
    conv = run(RICH, "gemini-json")
    assert conv.output == {"name": "lookup", "description": "Look up.", "parametersJsonSchema": P,
                           "responseJsonSchema": R}
    assert losses(conv) == metadata_losses("gemini-json", "returns")
    assert run(CanonicalTool("ping", parameters=P), "gemini-json").output == {"name": "ping",
                                                                              "parametersJsonSchema": P}


def test_gemini_behavior_goes_back_to_either_gemini_route_only_and_is_lost_once_elsewhere() -> None:
    tool = CanonicalTool("t", "d", P, source_format="gemini", source_meta={"behavior": "NON_BLOCKING"})
    assert run(tool, "gemini").output == {"name": "t", "description": "d", "parameters": P_UPPER,
                                          "behavior": "NON_BLOCKING"}
    assert run(tool, "gemini").losses == ()
    assert run(tool, "gemini-json").output == {"name": "t", "description": "d", "parametersJsonSchema": P,
                                               "behavior": "NON_BLOCKING"}
    assert run(tool, "gemini-json").losses == ()
    # one loss, not one per Gemini route (both routes used to report it)
    assert losses(run(tool, "openai")) == [("openai", "/behavior", "behavior", "NON_BLOCKING", DROPPED, NEUTRAL,
                                            "`behavior` is a gemini field; openai has no such field: not sent")]


def test_mistral() -> None:
    conv = run(RICH, "mistral", True)
    assert conv.output == {"type": "function", "function": {"name": "lookup", "description": "Look up.",
                                                            "parameters": P, "strict": True}}
    assert losses(conv) == metadata_losses("mistral")
    assert run(RICH, "mistral", False).output == {
        "type": "function", "function": {"name": "lookup", "description": "Look up.", "parameters": P}}
    assert run(CanonicalTool("ping", parameters=P), "mistral").output == {
        "type": "function", "function": {"name": "ping", "parameters": P}}


def test_mcp() -> None:
    conv = run(RICH, "mcp")
    assert conv.output == {"name": "lookup", "title": "Lookup", "description": "Look up.", "inputSchema": P,
                           "outputSchema": R, "annotations": {"readOnlyHint": True}}
    assert losses(conv) == metadata_losses("mcp", "title", "annotations", "returns")
    assert run(CanonicalTool("ping", parameters=P), "mcp").output == {"name": "ping", "inputSchema": P}


def test_mcp_only_fields_go_back_to_mcp_only() -> None:
    meta = {"_meta": {"k": 1}, "icons": [{"src": "x.png"}], "execution": {"taskSupport": "optional"}}
    tool = CanonicalTool("t", "d", P, source_format="mcp", source_meta=meta)
    conv = run(tool, "mcp")
    assert conv.output == {"name": "t", "description": "d", "inputSchema": P, **meta}
    assert conv.losses == ()
    assert losses(run(tool, "bedrock")) == [
        ("bedrock", "/_meta", "_meta", {"k": 1}, DROPPED, NEUTRAL,
         "`_meta` is a mcp field; bedrock has no such field: not sent"),
        ("bedrock", "/execution", "execution", {"taskSupport": "optional"}, DROPPED, NEUTRAL,
         "`execution` is a mcp field; bedrock has no such field: not sent"),
        ("bedrock", "/icons", "icons", [{"src": "x.png"}], DROPPED, NEUTRAL,
         "`icons` is a mcp field; bedrock has no such field: not sent"),
    ]


def test_bedrock() -> None:
    conv = run(RICH, "bedrock", True)
    assert conv.output == {"toolSpec": {"name": "lookup", "description": "Look up.", "inputSchema": {"json": P},
                                        "strict": True}}
    assert losses(conv) == metadata_losses("bedrock")
    assert run(RICH, "bedrock", False).output == {
        "toolSpec": {"name": "lookup", "description": "Look up.", "inputSchema": {"json": P}}}
    # Bedrock's description must be at least one character: an empty one is left out
    assert run(CanonicalTool("ping", "", P), "bedrock").output == {"toolSpec": {"name": "ping",
                                                                                "inputSchema": {"json": P}}}


# -- fields no target has ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("target", ["openai", "mcp"])
def test_unknown_tool_fields_are_lost_everywhere(target: str) -> None:
    tool = CanonicalTool("t", "d", P, source_meta={"unknown": {"x-vendor": {"a": 1}, "color": "red"}})
    assert losses(run(tool, target)) == [
        (target, "/color", "color", "red", DROPPED, NEUTRAL, f"unknown tool field `color`: not sent to {target}"),
        (target, "/x-vendor", "x-vendor", {"a": 1}, DROPPED, NEUTRAL,
         f"unknown tool field `x-vendor`: not sent to {target}"),
    ]
    assert run(CanonicalTool("t", "d", P, source_meta={"unknown": 5}), target).losses == ()


def test_empty_metadata_is_not_a_loss() -> None:
    tool = CanonicalTool("t", "d", P, tags=(), required_scopes=(), examples=(), annotations=None, timeout=None)
    assert run(tool, "openai").losses == ()
    assert losses(run(CanonicalTool("t", "d", P, tags=("x",), timeout=0), "openai")) == [
        ("openai", "/tags", "tags", ["x"], DROPPED, NEUTRAL, "openai tools have no `tags`; not sent"),
        ("openai", "/timeout", "timeout", 0, DROPPED, NEUTRAL, "openai tools have no `timeout`; not sent"),
    ]
