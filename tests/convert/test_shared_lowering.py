"""The checks' shared lowering (one walk per distinct mode, none for a quiet one) against the walker itself.

The oracle is ``convert`` with its own walker, once per target, as ``toolcast convert`` calls it: the shared
lowering must give every target exactly those losses (target, pointer, keyword, value, action, effect,
message) and that round-trip record, on every real-world corpus tool and on random schemas. ``quiet`` is
held to the walker directly: a mode it calls quiet must record no loss when walked.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolcast.adapters.canonical import CanonicalTool
from toolcast.adapters.convert import convert
from toolcast.adapters.convert.facts import quiet, scan, scanned_lowering
from toolcast.adapters.convert.lowered import Lowered
from toolcast.adapters.convert.profile_mode import Mode, profile_mode
from toolcast.adapters.convert.shared import SharedLowering
from toolcast.adapters.convert.walker import lower
from toolcast.adapters.providers import profile
from toolcast.adapters.targets import TARGETS, TargetOptions

from ..corpus.harness import corpus, load

OPTIONS = (TargetOptions(), TargetOptions(strict=True), TargetOptions(strict=False))
MODES = [(t, key) for t in TARGETS for key in profile(t).modes]
#: LossWording with every failure here: the usual cause is a walker change that convert/facts.py does not mirror.
_MIRROR = "the walker (convert/walker.py) and its scan (convert/facts.py) disagree: mirror the change in facts.py"


def _same_as_convert(tool: CanonicalTool, options: TargetOptions) -> SharedLowering:
    shared = SharedLowering()
    for target in TARGETS:
        expected = convert(tool, target, options)
        got = convert(tool, target, options, lowering=shared)
        assert got.losses == expected.losses, (target, options, _MIRROR)
        assert got.roundtrip == expected.roundtrip, (target, options, _MIRROR)
    return shared


def _corpus_tools() -> list[CanonicalTool]:
    return [lt.tool for e in corpus() if (lt := load(e).tool) is not None]


def _corpus_same_as_convert(options: tuple[TargetOptions, ...]) -> None:
    tools = _corpus_tools()
    assert len(tools) > 2000
    walks = 0
    for tool in tools:
        for opts in options:
            walks += _same_as_convert(tool, opts).walks
    # Not a speed test: the sharing must really happen, or this test would pass for a plain walker.
    assert walks < 0.6 * len(tools) * len(options) * len(TARGETS), walks


def test_every_corpus_tool_gets_the_walkers_losses_for_every_target() -> None:
    _corpus_same_as_convert(OPTIONS[:1])


def test_every_corpus_tool_gets_the_walkers_losses_strict_and_not() -> None:
    _corpus_same_as_convert(OPTIONS[1:])  # slow (tests/conftest.py): every tool strict, then not


def test_quiet_modes_really_record_nothing_on_the_corpus() -> None:
    quiet_seen = 0
    for tool in _corpus_tools():
        facts = scan(tool.parameters)
        for target, key in MODES:
            mode = profile_mode(target, key)
            if quiet(mode, facts):
                quiet_seen += 1
                walked = lower(tool.parameters, "/parameters", target, mode)
                assert walked.losses == [], (tool.name, target, key, _MIRROR)
    assert quiet_seen > 1000, quiet_seen  # the skip is exercised, not only allowed


def _scan_is_the_walkers(params: Any, target: str, key: str, mode: Mode | None = None) -> bool:
    """True when ``scanned_lowering`` answers for this mode, after checking its answer is the walk's own."""
    mode = mode or profile_mode(target, key)
    scanned = scanned_lowering(params, "/parameters", target, mode, scan(params))
    if scanned is None:
        return False
    walked = lower(params, "/parameters", target, mode)
    assert (scanned.losses, scanned.record) == (walked.losses, walked.record), (target, key, _MIRROR)
    return True


def test_losses_from_a_scan_are_the_walkers_on_the_corpus() -> None:
    loud: dict[str, int] = {"openai/strict": 0, "anthropic/strict": 0, "gemini-json/default": 0, "gemini/default": 0}
    for tool in _corpus_tools():
        for target, key in MODES:
            if _scan_is_the_walkers(tool.parameters, target, key) and f"{target}/{key}" in loud:
                loud[f"{target}/{key}"] += bool(lower(tool.parameters, "/parameters", target,
                                                      profile_mode(target, key)).losses)
    # The scan answers, for schemas that do lose something, in strict modes (closed objects, required members,
    # typed nodes; 1,160 and 926 tools here), Gemini's (828) and a non-structural one (911).
    assert all(n > 500 for n in loud.values()), loud


@pytest.mark.parametrize(("member", "answered"), [
    ({"type": "string", "const": "x"}, True),             # a constant: strict mode wraps it in `anyOf` with null
    ({"type": ["string", "null"], "enum": ["x", None]}, True),  # an enum with a type list: wrapped too
    ({"type": ["string", "null"]}, True),                  # already nullable: null now also means absent
    ({"type": "null"}, True),
    ({"type": "null", "const": None}, True),                # null, but a constant: wrapped all the same
    ({"type": "object", "properties": {"b": {"type": "integer"}}, "additionalProperties": True}, True),
    ({"type": "object", "additionalProperties": {"type": "string", "minLength": 1}}, True),  # a map: closed
    ({"type": "string", "format": "uri"}, True),           # a format strict mode does not accept
    ({"type": "string", "unknownKeyword": 1, "x-ext": 2}, True),  # unknown keywords dropped, extensions kept
    ({"anyOf": [{"type": "string"}, {"type": "integer"}]}, "anthropic"),  # no type of its own: walked where
    # every node needs a type (OpenAI), scanned where it does not (Anthropic)
    ({"type": "object", "required": ["b"]}, False),         # a required name to declare: walked
    (True, False), (False, False),                          # boolean schemas: rewritten or refused, walked
])
def test_strict_mode_from_a_scan(member: Any, answered: bool | str) -> None:
    # Each member optional, so strict mode's required-and-nullable rewrite applies to it (and the record).
    schema = {"type": "object", "properties": {"a": member, "c": {"type": "string"}}, "required": ["c"]}
    for target in ("openai", "anthropic"):
        expected = answered if isinstance(answered, bool) else answered == target
        assert _scan_is_the_walkers(schema, target, "strict") is expected, target


@pytest.mark.parametrize(("member", "answered"), [
    ({"type": ["string", "null"]}, True),                  # `type` + `nullable`
    ({"type": ["null"]}, False), ({"type": ["string", "integer"]}, False),  # `anyOf` branches: walked
    ({"type": "object"}, True), ({"type": "object", "properties": {}}, True),  # free-form: asked as JSON text
    ({"type": ["object", "null"]}, True),                  # free-form once the list is lowered
    ({"type": "object", "additionalProperties": True}, True),  # `additionalProperties` dropped (neutral)
    ({"type": "object", "properties": {"b": {"type": "string"}}, "additionalProperties": {"type": "string"}}, True),
    ({"type": "string", "x-ext": 1}, True),                # extensions are unknown fields to Gemini
    ({"type": "string", "format": "email"}, True), ({"type": "integer", "enum": [1, 2]}, True),
    ({"anyOf": [{"type": "string"}, {"type": "integer"}]}, False),  # `anyOf` alone: walked
    ({"type": "string", "anyOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}, False),  # and here
])
def test_gemini_from_a_scan(member: Any, answered: bool) -> None:
    schema = {"type": "object", "properties": {"a": member, "c": {"type": "string"}}, "required": ["c"]}
    assert _scan_is_the_walkers(schema, "gemini", "default") is answered


def test_gemini_free_form_root_stays_an_object_from_a_scan() -> None:
    free = {"type": "object", "properties": {}}
    assert _scan_is_the_walkers(free, "gemini", "default")
    assert scanned_lowering(free, "/parameters", "gemini", profile_mode("gemini", "default"),
                            scan(free)) == Lowered(free, [], {})
    # Without `properties` the root is not plain (OpenAI rejects it): walked, so its output is judged.
    assert scanned_lowering({"type": "object"}, "/parameters", "gemini", profile_mode("gemini", "default"),
                            scan({"type": "object"})) is None


def test_required_members_without_typed_nodes_from_a_scan() -> None:
    # No shipped mode makes every member required without also needing a type on every node: an untyped
    # member is then wrapped in `anyOf` with null.
    mode = replace(profile_mode("openai", "strict"), typed_nodes=False)
    schema = {"type": "object", "properties": {"a": {"description": "anything"}, "b": {"type": "string"}}}
    assert _scan_is_the_walkers(schema, "openai", "strict", mode)


_GJ = profile_mode("gemini-json", "default")
_ARRAY = {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}, "default": []}}}


@pytest.mark.parametrize(("schema", "keywords", "answered"), [
    # Definitions: the root's are lowered at their own pointers, nested ones are left out unwalked.
    ({"type": "object", "properties": {"a": {"type": "string"}}, "default": {},
      "$defs": {"d": {"type": "string", "default": "x", "$defs": {"e": {"default": 1}}}}}, {}, True),
    # An extension keyword a profile drops by name is a neutral loss, as an annotation is.
    ({"type": "object", "x-a": 1, "properties": {"b": {"type": "string", "x-a": 2}}}, {"x-a": "drop"}, True),
    ({"type": "object", "properties": {"b": {"type": "string", "examples": ["x"]}}}, {"examples": "reject"}, True),
    # A mode that folds `items` makes the walk add `items: {}` (a loss of its own): such a mode is walked.
    (_ARRAY, {"items": "fold"}, False),
])
def test_losses_from_a_scan_under_other_keyword_fates(schema: dict[str, Any], keywords: dict[str, str],
                                                       answered: bool) -> None:
    mode = replace(_GJ, keywords={**_GJ.keywords, **keywords})
    assert _scan_is_the_walkers(schema, "gemini-json", "default", mode) is answered


# Random schemas: every keyword the walker treats specially, dirty types, draft-04 forms, refs.
KEYWORDS = ["type", "properties", "required", "items", "prefixItems", "additionalProperties", "anyOf", "oneOf",
            "allOf", "enum", "const", "format", "minItems", "maxLength", "exclusiveMinimum", "minimum", "$ref",
            "$defs", "title", "default", "description", "x-extra", "nullable", "patternProperties", "not",
            "unknownKeyword", "additionalItems"]
TYPES = st.sampled_from(["string", "integer", "number", "boolean", "null", "object", "array", "str", "STRING",
                         "List[str]"])
leaf = st.fixed_dictionaries({"type": TYPES | st.lists(TYPES, max_size=3)}) | st.booleans() | st.just({})
values = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["a", "b\x00", "date-time", "uuid",
                                                                          "#/$defs/a", "#", "#/nowhere", "",
                                                                          9007199254740991])


def _node(kids: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.dictionaries(
        st.sampled_from(KEYWORDS),
        kids | st.lists(kids, max_size=3) | st.dictionaries(st.sampled_from(["a", "b", "c\x00"]), kids, max_size=3)
        | values | st.lists(values, max_size=3),
        max_size=6)


schemas = st.recursive(leaf, _node, max_leaves=16)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(params=schemas, typed=st.booleans(), strict=st.sampled_from([None, True, False]))
def test_random_schemas_get_the_walkers_losses(params: Any, typed: bool, strict: bool | None) -> None:
    if typed and isinstance(params, dict):
        params = {"type": "object", **params}
    tool = CanonicalTool(name="t", description="d", parameters=params if isinstance(params, dict) else {})
    _same_as_convert(tool, TargetOptions(strict=strict))
    facts = scan(tool.parameters)
    for target, key in MODES:
        mode = profile_mode(target, key)
        if quiet(mode, facts):
            assert lower(tool.parameters, "/parameters", target, mode).losses == []
        _scan_is_the_walkers(tool.parameters, target, key)


def _mode(target: str, key: str) -> Mode:
    return profile_mode(target, key)


PLAIN = {"type": "object", "properties": {"q": {"type": "string", "description": "query"},
                                          "n": {"type": "integer", "minimum": 1}}, "required": ["q"]}


@pytest.mark.parametrize("schema", [
    {**PLAIN, "properties": {"q": {"$ref": "#/$defs/x"}}, "$defs": {"q": {"type": "string"}}},  # dangling
    {**PLAIN, "properties": {"q": {"$ref": "https://example.com/q.json"}}},  # remote
    {**PLAIN, "properties": {"q": {"$ref": "#/properties/n"}}},              # into properties: inlined
    {**PLAIN, "properties": {"q": {"type": "str"}}},                          # a dirty type name
    {**PLAIN, "properties": {"n": {"type": "integer", "minimum": 1, "exclusiveMinimum": True}}},  # draft-04
    {**PLAIN, "properties": {"p": {"type": "array", "items": [{"type": "string"}]}}},  # draft-07 tuple
    {**PLAIN, "additionalProperties": False, "required": ["q", "gone"]},     # closed, requires an unlisted name
    {"properties": PLAIN["properties"]},                                      # the root says no type
])
def test_what_every_mode_walks(schema: dict[str, Any]) -> None:
    facts = scan(schema)
    assert not any(quiet(_mode(t, k), facts) for t, k in MODES)
    assert all(lower(schema, "/parameters", t, _mode(t, k)).losses for t, k in MODES)  # and each walk reports it


def test_which_modes_are_quiet_for_a_plain_schema() -> None:
    facts = scan(PLAIN)
    assert {f"{t}/{k}" for t, k in MODES if quiet(_mode(t, k), facts)} == {
        "openai/non_strict", "openai-responses/non_strict", "anthropic/non_strict", "mistral/strict",
        "mistral/non_strict", "mcp/default", "bedrock/non_strict", "gemini-json/default"}


def test_references_to_root_definitions_are_quiet_where_references_are_kept() -> None:
    schema = {**PLAIN, "properties": {"q": {"$ref": "#/$defs/q"}, "self": {"$ref": "#"}},
              "$defs": {"q": {"type": "string"}}}
    facts = scan(schema)
    assert quiet(_mode("mcp", "default"), facts)
    assert lower(schema, "/parameters", "mcp", _mode("mcp", "default")).losses == []
    assert not quiet(_mode("gemini", "default"), facts)  # Gemini inlines them


def test_an_array_without_items_is_walked_only_where_items_are_needed() -> None:
    facts = scan({**PLAIN, "properties": {"tags": {"type": "array"}}})
    assert not quiet(_mode("openai", "non_strict"), facts)  # adds `items: {}` with a loss
    assert lower({**PLAIN, "properties": {"tags": {"type": "array"}}}, "", "openai",
                 _mode("openai", "non_strict")).losses
    assert quiet(_mode("mcp", "default"), facts)


def test_deep_schemas_are_walked_per_target_without_recursion_errors() -> None:
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(3000):
        deep = {"type": "object", "properties": {"a": deep}}
    tool = CanonicalTool(name="t", description="d", parameters=deep)
    shared = _same_as_convert(tool, TargetOptions())
    assert shared.walks == len(TARGETS)  # too deep to scan or share: every target walks (and refuses)


@pytest.mark.parametrize(("member", "walks"), [
    ({"type": "string"}, 0),  # strict mode and Gemini scanned per target (not shared)
    ({"anyOf": [{"type": "string"}, {"type": "integer"}]}, 3),  # openai and openai-responses walked apart, gemini
])
def test_a_schema_holding_the_placeholder_is_lowered_per_target(member: dict[str, Any], walks: int) -> None:
    schema = {"type": "object", "properties": {"a\x00b": member}}  # optional: named in a message
    tool = CanonicalTool(name="t", description="d", parameters=schema)
    shared = _same_as_convert(tool, TargetOptions())
    assert any("a\x00b" in x.message for x in convert(tool, "openai", lowering=SharedLowering()).losses)
    assert shared.walks == walks


def test_equal_modes_share_one_walk() -> None:
    tool = CanonicalTool(name="t", description="d", parameters={**PLAIN, "properties": {"q": {"type": "str"}}})
    shared = _same_as_convert(tool, TargetOptions())
    # openai = openai-responses (strict); anthropic = bedrock (non-strict); gemini; gemini-json; mistral; mcp (its
    # pattern rule, ECMAScript with the u flag, makes its mode its own)
    assert shared.walks == 6


@pytest.mark.parametrize(("member", "target", "dropped", "walks"), [
    # Bedrock's integer range (tailcallhq/forgecode#3308): Bedrock walks apart from Anthropic
    ({"type": "string", "maxLength": 9007199254740991}, "bedrock", "/parameters/properties/m/maxLength", 7),
    # Gemini's empty enum member (Smana/runlore#40): Gemini's mode is its own anyway
    ({"type": "string", "enum": ["a", ""]}, "gemini", "/parameters/properties/m/enum/1", 6),
])
def test_a_targets_own_rules_are_not_shared_with_its_modes_twins(member: dict[str, Any], target: str, dropped: str,
                                                                 walks: int) -> None:
    """Bedrock's non-strict mode is Anthropic's, but only Bedrock's rules drop a bound: where the twin walks too
    (the dirty type name), Bedrock walks apart instead of taking the twin's losses."""
    tool = CanonicalTool(name="t", description="d", parameters={**PLAIN, "properties": {"q": {"type": "str"},
                                                                                        "m": member}})
    shared = _same_as_convert(tool, TargetOptions(strict=False))
    assert dropped in [x.pointer for x in convert(tool, target, TargetOptions(strict=False)).losses]
    assert shared.walks == walks


@pytest.mark.parametrize("member", [
    {"type": "string", "enum": ["a", None]},                              # a member its type refuses
    {"anyOf": [{"type": "string", "enum": ["A"]}, {"type": "null", "enum": ["A"]}]},  # a branch that never matches
    {"type": "str", "enum": ["a", 1]},                                     # the same behind a dirty type name
    {"enum": ["a", "b"]},                                                  # no type beside the `enum`
])
def test_the_enum_type_rule_is_walked_per_target_where_it_acts(member: dict[str, Any]) -> None:
    """OpenAI Chat and Responses share a strict mode, but each cites its own sources for the `enum` members a
    `type` refuses: where the rule may act, each walks apart (and the scan leaves it to the walker)."""
    tool = CanonicalTool(name="t", description="d", parameters={**PLAIN, "properties": {"m": member}})
    _same_as_convert(tool, TargetOptions(strict=True))
    assert not _scan_is_the_walkers(tool.parameters, "openai", "strict")


@pytest.mark.parametrize("outcome", ["scanned", "walked"])
def test_a_scan_leaves_no_cycle_for_the_collector(outcome: str) -> None:
    """A check pauses the cycle collector, so whatever a scan leaves in a reference cycle lives until the
    check ends (120,000 objects per 1,000 tools once, when ``node`` kept itself through its closure)."""
    import gc

    schema = {"type": "object", "properties": {"a": {"type": "string", "format": "uri"},
                                               "b": {"type": "object", "properties": {"c": {"type": "integer"}}}}}
    if outcome == "walked":
        schema["required"] = ["missing"]  # a required name to declare: the scan gives up mid-way (raises)
    mode = profile_mode("openai", "strict")
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        gc.set_debug(gc.DEBUG_SAVEALL)
        answer = scanned_lowering(schema, "/parameters", "openai", mode, scan(schema))
        assert (answer is None) == (outcome == "walked")
        del answer
        gc.collect()
        left = [o for o in gc.garbage if callable(o) or type(o).__name__ in ("Loss", "cell")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
    assert left == []
