"""One owner per provider limit: a profile's ``limits`` (``schemas/providers/<target>.json``), read as typed
``ProviderLimits`` (adapters/provider_limits.py). The checks and the rule texts read it, so a profile with other
numbers moves them all; the output judge keeps its own copies (adapters/convert/accept.py), held equal here."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from toolcast.adapters import providers
from toolcast.adapters.checks import CheckConfig, check_document
from toolcast.adapters.convert import accept
from toolcast.adapters.provider_limits import LimitsError, read_limits
from toolcast.adapters.providers import ProfileError, profile
from toolcast.adapters.rules.registry import RULES
from toolcast.adapters.targets import TARGETS

#: A change made to a profile's JSON before it is read.
Edit = Callable[[dict[str, Any]], None]

# ------------------------------------------------------------------------- the judge agrees with the owner


def test_the_judges_limits_are_the_profiles() -> None:
    """A difference between the judge and a profile must be a decision made here, never drift."""
    for target in ("openai", "openai-responses"):
        assert profile(target).limits.strict_schema == accept.OPENAI_STRICT_SCHEMA, target
        assert profile(target).names.description_max == accept.OPENAI_DESCRIPTION_MAX, target
    assert profile("anthropic").limits.strict_request == accept.ANTHROPIC_STRICT_REQUEST
    for target in ("gemini", "gemini-json"):
        limit = profile(target).limits.function_declarations
        assert limit is not None and limit.max == accept.GEMINI_MAX_DECLARATIONS, target
    max_tools = profile("openai").limits.max_tools
    assert max_tools is not None and max_tools["max"] == accept.OPENAI_MAX_TOOLS


def test_the_judges_name_lengths_are_the_profiles() -> None:
    for target in TARGETS:
        assert accept._NAMES[target][1] == profile(target).names.max_length, target


def test_every_limit_names_its_sources() -> None:
    for target in TARGETS:
        limits = profile(target).limits
        for block in (limits.strict_schema, limits.strict_request, limits.function_declarations):
            assert block is None or block.sources, target


# ---------------------------------------------------------------------------- the profile form is checked


@pytest.mark.parametrize(("limits", "message"), [
    ({"strict": {"properties": 1}}, "unknown keys"),
    ({"strict_request": {"strict_tools": 20, "optional_parameters": 24, "source": ["x"]}}, "exactly"),
    ({"strict_request": {"strict_tools": 20, "optional_parameters": 24, "union_parameters": "16", "source": ["x"]}},
     "positive integers"),
    ({"function_declarations": {"max": 512, "source": []}}, "source"),
    ({"function_declarations": {"max": True, "source": ["x"]}}, "positive integers"),
    ({"max_tools": {"effect": "rejected"}}, "positive `max`"),
    ([], "must be an object"),
])
def test_a_profile_with_limits_of_another_form_is_refused(limits: Any, message: str) -> None:
    with pytest.raises(LimitsError, match=message):
        read_limits(limits)
    data = json.loads(providers.profile_text("anthropic"))
    data["limits"] = limits
    with pytest.raises(ProfileError, match=r"anthropic\.json"):
        providers._validate("anthropic", data)


# --------------------------------------------------------- the checks and the texts read the owner


@pytest.fixture
def edited_profiles(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str, Edit], None]]:
    """Profiles changed as the test says, read through the one reading (``providers.profile``)."""
    real = providers.profile_text
    edits: dict[str, Callable[[dict[str, Any]], None]] = {}

    def text(target: str) -> str:
        data = json.loads(real(target))
        if target in edits:
            edits[target](data)
        return json.dumps(data)

    def edit(target: str, change: Callable[[dict[str, Any]], None]) -> None:
        edits[target] = change
        providers.profile.cache_clear()

    monkeypatch.setattr(providers, "profile_text", text)
    providers.profile.cache_clear()
    yield edit
    providers.profile.cache_clear()


def _codes(value: Any, *targets: str) -> list[str]:
    text = json.dumps(value, indent=1)
    return [f.code for f in check_document(text, config=CheckConfig(targets=targets)).findings]


def _tool(parameters: dict[str, Any], name: str = "t", **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "d", "parameters": parameters, **extra}


def _openai_strict(**numbers: int) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["limits"]["strict_schema"].update(numbers)
    return change


def test_openai_strict_checks_read_the_profile(edited_profiles: Any) -> None:
    props = {f"p{i}": {"type": "string", "enum": ["a", "b"]} for i in range(4)}
    tool = _tool({"type": "object", "properties": props})
    assert not {"TC601", "TC603", "TC604"} & set(_codes(tool, "openai"))
    edited_profiles("openai", _openai_strict(properties=3, enum_values=7, total_string_length=10))
    codes = _codes(tool, "openai")
    assert {"TC601", "TC603", "TC604"} <= set(codes)
    nested = _tool({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}}})
    assert "TC602" not in codes
    edited_profiles("openai", _openai_strict(depth=1))
    assert "TC602" in _codes(nested, "openai")


def test_the_checks_message_quotes_the_profile(edited_profiles: Any) -> None:
    edited_profiles("openai", _openai_strict(properties=3))
    tool = _tool({"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(4)}})
    text = json.dumps(tool)
    [finding] = [f for f in check_document(text, config=CheckConfig(targets=("openai",))).findings
                 if f.code == "TC601"]
    assert "(at most 3)" in finding.message


def _strict_anthropic(i: int, properties: dict[str, Any]) -> dict[str, Any]:
    return _tool({"type": "object", "properties": properties}, name=f"t{i}",
                 **{"x-toolcast": {"targets": {"anthropic": {"strict": True}}}})


def test_anthropic_strict_checks_read_the_profile(edited_profiles: Any) -> None:
    tools = [_strict_anthropic(i, {"o": {"type": ["string", "null"]}}) for i in range(3)]
    assert not {"TC605", "TC606", "TC607"} & set(_codes(tools, "anthropic"))

    def smaller(data: dict[str, Any]) -> None:
        data["limits"]["strict_request"].update(strict_tools=2, optional_parameters=2, union_parameters=2)

    edited_profiles("anthropic", smaller)
    assert {"TC605", "TC606", "TC607"} <= set(_codes(tools, "anthropic"))


@pytest.mark.parametrize(("target", "block", "code"), [("gemini", "function_declarations", "TC608"),
                                                       ("openai", "max_tools", "TC901")])
def test_the_tool_counts_read_the_profile(edited_profiles: Any, target: str, block: str, code: str) -> None:
    tools = [_tool({"type": "object", "properties": {"a": {"type": "string"}}}, name=f"f{i}") for i in range(3)]
    assert code not in _codes(tools, target)

    def smaller(data: dict[str, Any]) -> None:
        data["limits"][block]["max"] = 2

    edited_profiles(target, smaller)
    assert code in _codes(tools, target)


def test_the_rule_texts_quote_the_profiles(edited_profiles: Any) -> None:
    """Odd numbers in the profiles show up in every text that states them (summary, reasons and examples)."""
    def openai(data: dict[str, Any]) -> None:
        data["limits"]["strict_schema"].update(properties=4321, depth=17, enum_values=2345, total_string_length=98765,
                                               large_enum_threshold=271, large_enum_length=16161)
        data["limits"]["max_tools"]["max"] = 129
        data["description"]["max_length"] = 1031
        data["name"]["max_length"] = 63

    def anthropic(data: dict[str, Any]) -> None:
        data["limits"]["strict_request"].update(strict_tools=19, optional_parameters=23, union_parameters=15)
        data["name"]["max_length"] = 127

    def gemini(data: dict[str, Any]) -> None:
        data["limits"]["function_declarations"]["max"] = 511

    for target, change in (("openai", openai), ("anthropic", anthropic), ("gemini", gemini)):
        edited_profiles(target, change)
    expected = {
        "TC601": ("4,321", "p4322"), "TC602": ("17 levels", "18 levels"),
        "TC603": ("2,345 enum values", "271 values", "16,161 characters", "v2346"), "TC604": ("98,765",),
        "TC605": ("19 strict tools", "20 tools"), "TC606": ("23 optional", "o24"), "TC607": ("15 union", "u16"),
        "TC608": ("511 function declarations", "512 tools"), "TC609": ("1,031 characters",),
        "TC901": ("maximum length 129", "at most 129 tools"), "TC204": ("up to 127 characters",),
    }
    for code, numbers in expected.items():
        text = RULES[code].summary + "\n" + RULES[code].doc
        for number in numbers:
            assert number in text, (code, number)
    assert "5,000" not in RULES["TC601"].summary and "20 strict" not in RULES["TC605"].summary


def test_the_quoted_name_rule_holds_for_every_target_it_names() -> None:
    """TC204 quotes OpenAI's name pattern for OpenAI, Mistral and Bedrock."""
    patterns = {profile(t).names.pattern.pattern for t in ("openai", "mistral", "bedrock")}
    assert len(patterns) == 1 and patterns.pop() in RULES["TC204"].doc


def test_the_pattern_limits_text_quotes_the_matcher(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolcast.adapters.schema import patterns

    doc = RULES["TC309"].doc
    assert f"{patterns.MATCH_SECONDS} s of CPU time a match, {patterns.TOOL_SECONDS} s for all" in doc
    assert f"no pattern over {patterns.MAX_PATTERN:,} characters" in doc
    monkeypatch.setattr(patterns, "MAX_PATTERN", 12_345)
    assert "no pattern over 12,345 characters" in RULES["TC309"].doc
