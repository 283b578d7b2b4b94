"""``profile_mode``: a target's profile mode as the typed ``Mode`` (``adapters/mode_settings.py``), built once."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from types import MappingProxyType
from typing import Any

from ..consumers import ConsumerRule, forbidden_members, provider_rules
from ..mode_settings import Mode
from ..providers import mode_pattern_rules, profile


@cache
def profile_mode(target: str, key: str, for_returns: bool = False) -> Mode:
    """Mode ``key`` of ``target``'s profile, built once; ``for_returns``: as applied to a tool's return value
    (never closed, nothing made required: the model does not write it)."""
    # provider_rules validates every rule of the profile (a source, a confidence, the kind's settings); only
    # those documented or observed change what is sent: an unclear one is never acted on.
    mode = _with_rules(Mode.of(profile(target).modes[key]), provider_rules(target))
    typed = [r for r in provider_rules(target) if r.kind == "enum_type" and r.confidence != "unclear"
             and key in r.settings.get("modes", (key,))]
    if typed:
        mode = replace(mode, enum_type=(typed[0].id, _why(typed[0]), bool(typed[0].settings.get("untyped"))))
    rules = mode_pattern_rules(profile(target).rules, key)
    if rules:
        mode = replace(mode, pattern_rules=rules)
    return replace(mode, all_required=False, closed_objects=False) if for_returns else mode


def _with_rules(mode: Mode, rules: tuple[ConsumerRule, ...]) -> Mode:
    """``mode`` with the values the provider's documented or observed rules forbid: convert lowers those
    (an unclear rule is left to the checks' warning)."""
    forbidden = {kind: _why(rule) for kind, rule in forbidden_members(rules).items()}
    ranges = [r for r in rules if r.kind == "integer_range" and r.confidence != "unclear"]
    bounds = (int(ranges[0].settings["min"]), int(ranges[0].settings["max"]), _why(ranges[0])) if ranges else None
    return replace(mode, forbidden_members=MappingProxyType(forbidden), integer_range=bounds) \
        if forbidden or bounds else mode


def _why(rule: ConsumerRule) -> str:
    return f"{rule.message} [{rule.cite()}]"


def as_mode(mode: Mode | Mapping[str, Any]) -> Mode:
    """``mode`` itself, or the ``Mode`` a settings object states."""
    return mode if isinstance(mode, Mode) else Mode.of(mode)


__all__ = ["Mode", "as_mode", "profile_mode"]
