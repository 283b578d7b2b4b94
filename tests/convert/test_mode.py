"""A profile mode as a typed ``Mode``: every shipped mode builds, each setting reads back as the profile states
it, and settings outside the record's fixed values are refused when the mode is built."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest
from toolcast.adapters.convert.profile_mode import Mode, profile_mode
from toolcast.adapters.providers import profile
from toolcast.adapters.targets import TARGETS

MODES = [(t, key) for t in TARGETS for key in profile(t).modes]
JSON_NAMES = {"one_of": "oneOf", "all_of": "allOf", "additional_properties": "additionalProperties"}


@pytest.mark.parametrize("target,key", MODES)
def test_every_profile_mode_reads_back_as_its_settings(target: str, key: str) -> None:
    settings = profile(target).modes[key]
    mode = profile_mode(target, key)
    for f in fields(Mode):
        if f.metadata.get("derived"):
            continue  # from the provider's rules, below
        name = JSON_NAMES.get(f.name, f.name)
        if name == "pattern_rules":
            continue  # the provider's own pattern rules, from its limits: below
        expected = settings.get(name, f.default)
        assert getattr(mode, f.name) == expected, (target, key, name)
    assert profile_mode(target, key) is mode  # built once


@pytest.mark.parametrize("target,key", MODES)
def test_a_mode_compiles_patterns_with_the_engines_its_provider_rules_name_for_it(target: str, key: str) -> None:
    """The profile's ``pattern_dialect`` rules: each rule documented or observed for this mode (all modes when it names
    none), in profile order; the mode id says so, so two modes with other engines never share a walk."""
    rules = [r for r in profile(target).rules
             if r["rule"] == "pattern_dialect" and r["confidence"] != "unclear" and key in r.get("modes", [key])]
    assert profile_mode(target, key).pattern_rules == tuple((r["id"], r["engine"]) for r in rules)
    assert all(r["id"] in profile(target).mode_ids[key] for r in rules)


def test_openai_strict_refuses_lookaround_and_both_modes_python_re() -> None:
    assert profile_mode("openai", "strict").pattern_rules == (
        ("pattern-python-re", "python-re"), ("pattern-lookaround", "python-re-no-lookaround"))
    assert profile_mode("openai-responses", "non_strict").pattern_rules == (("pattern-python-re", "python-re"),)
    assert profile_mode("anthropic", "strict").pattern_rules == ()


def test_the_provider_rules_a_mode_follows_come_from_its_profile() -> None:
    """`forbidden_members` and `integer_range` are no profile mode's settings: each is a provider rule (with its
    source), and every mode of that target follows it."""
    assert set(profile_mode("gemini", "default").forbidden_members) == {"empty_string"}
    assert "Smana/runlore#40" in profile_mode("gemini", "default").forbidden_members["empty_string"]
    for key in ("strict", "non_strict"):
        bounds = profile_mode("bedrock", key).integer_range
        assert bounds is not None and bounds[:2] == (-2147483648, 2147483647)
    assert not profile_mode("openai", "strict").forbidden_members and profile_mode("mistral", "strict").integer_range \
        is None
    with pytest.raises(ValueError, match="unknown mode settings"):
        Mode.of({"forbidden_members": {"empty_string": "why"}})  # a profile mode cannot state it


def test_return_values_are_neither_closed_nor_all_required() -> None:
    strict = profile_mode("openai", "strict")
    returns = profile_mode("openai", "strict", for_returns=True)
    assert strict.closed_objects and strict.all_required
    assert not returns.closed_objects and not returns.all_required
    assert returns.typed_nodes == strict.typed_nodes and returns.keywords == strict.keywords


@pytest.mark.parametrize("settings,message", [
    ({"refs": "inlined"}, "mode setting `refs` is one of ['keep', 'inline']"),
    ({"oneOf": "any_of"}, "mode setting `oneOf` is one of ['keep', 'anyOf']"),
    ({"enum": "strings"}, "mode setting `enum` is one of ['any', 'string', 'string_or_number', 'primitive']"),
    ({"keywords": {"format": "fold it"}}, "keyword fates are ['keep', 'fold', 'drop', 'reject']"),
    ({"one_of": "anyOf"}, "unknown mode settings ['one_of']"),  # attribute names are not the profile's names
])
def test_settings_outside_the_fixed_values_are_refused(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as err:
        Mode.of(settings)
    assert str(err.value) == message


def test_a_partial_settings_object_means_a_mode_that_changes_nothing_else() -> None:
    mode = Mode.of({"oneOf": "anyOf"})
    assert mode == Mode(one_of="anyOf")
    assert mode.recursion and mode.ref_siblings and mode.root_composition and mode.enum == "any"
    assert not mode.reshapes and not mode.inlines_all()



def test_every_rule_kind_the_checks_leave_to_convert_is_in_the_modes_of_its_provider() -> None:
    """The checks skip a provider rule of a ``LOWERED_KINDS`` kind because convert lowers it: each such rule in a
    profile must show in every mode of its target, or nothing would report it."""
    from toolcast.adapters.consumers import LOWERED_KINDS, provider_rules
    from toolcast.adapters.targets import TARGETS

    seen = set()
    for target in TARGETS:
        for rule in provider_rules(target):
            if rule.kind not in LOWERED_KINDS or rule.confidence == "unclear":
                continue
            for key in profile(target).modes:
                mode = profile_mode(target, key)
                held = {"enum_values": bool(mode.forbidden_members), "integer_range": mode.integer_range is not None,
                        "pattern_dialect": rule.id in {r for r, _ in mode.pattern_rules}
                        or key not in rule.settings.get("modes", (key,)),
                        "enum_type": (mode.enum_type or ("",))[0] == rule.id
                        or key not in rule.settings.get("modes", (key,))}
                assert held[rule.kind], (target, key, rule.id)
            seen.add(rule.kind)
    assert seen == set(LOWERED_KINDS)  # every kind has a shipped rule this test reads
