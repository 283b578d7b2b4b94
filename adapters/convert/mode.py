"""``profile_mode``: a target's profile mode as the typed ``Mode`` (``adapters/modes.py``), built once."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from typing import Any

from ..consumers import provider_pattern_rules
from ..modes import Mode
from ..providers import mode_pattern_rules, profile


@cache
def profile_mode(target: str, key: str, for_returns: bool = False) -> Mode:
    """Mode ``key`` of ``target``'s profile, built once; ``for_returns``: as applied to a tool's return value
    (never closed, nothing made required: the model does not write it)."""
    mode = Mode.of(profile(target).modes[key])
    # Only rules the profile documents or has observed change what is sent: an unclear one is never acted on.
    provider_pattern_rules(target)  # validated: a rule without a source, an engine or a confidence is an error
    rules = mode_pattern_rules(profile(target).limits.pattern_dialects, key)
    if rules:
        mode = replace(mode, pattern_rules=rules)
    return replace(mode, all_required=False, closed_objects=False) if for_returns else mode


def as_mode(mode: Mode | Mapping[str, Any]) -> Mode:
    """``mode`` itself, or the ``Mode`` a settings object states."""
    return mode if isinstance(mode, Mode) else Mode.of(mode)


__all__ = ["Mode", "as_mode", "profile_mode"]
