"""Provider truth read from the capability profiles (``schemas/providers/<target>.json``): the one
name rule (pattern, sanitiser, description limit) and the one effective strictness that convert and
the checks both use, so that they cannot disagree."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from .errors import ConversionError
from .targets import STRICT_DEFAULT, TARGETS, TargetOptions


@cache
def profile_text(target: str) -> str:
    return files("toolcast.schemas").joinpath("providers", f"{target}.json").read_text(encoding="utf-8")


def load_profile(target: str) -> dict[str, Any]:
    """The capability profile of ``target`` (a fresh copy)."""
    if target not in TARGETS:
        raise ConversionError(target, "from_canonical", f"unknown target; expected one of: {', '.join(TARGETS)}")
    data: dict[str, Any] = json.loads(profile_text(target))
    return data


@dataclass(frozen=True)
class NameRule:
    """A target's tool-name pattern and maximum length, and its description limit (None: no limit)."""

    target: str
    pattern: re.Pattern[str]
    max_length: int
    description_max: int | None

    def problem(self, name: str) -> str | None:
        """Why ``name`` breaks this rule, or None."""
        if not name:
            return "is empty"
        if len(name) > self.max_length:
            return f"is {len(name)} characters long (at most {self.max_length})"
        if not self.pattern.fullmatch(name):
            bad = sorted({c for c in name if not self._char_ok(c)})
            if bad:
                return "contains " + ", ".join(repr(c) for c in bad)
            return f"must match {self.pattern.pattern}"
        return None

    def _char_ok(self, c: str) -> bool:
        return bool(self.pattern.fullmatch("a" + c) or self.pattern.fullmatch("a" + c + "a"))

    def sanitise(self, name: str) -> str:
        """The closest name this target accepts: bad characters become ``_``, a bad first character gets
        a ``_`` prefix, and the result is cut to the maximum length."""
        if self.pattern.fullmatch(name):
            return name
        out = "".join(c if self._char_ok(c) else "_" for c in name) or "_"
        if not self.pattern.fullmatch(out[: self.max_length]) and self.pattern.fullmatch("_" + out[:1] + "a"):
            out = "_" + out
        return out[: self.max_length]


@cache
def name_rule(target: str) -> NameRule:
    prof = load_profile(target)
    name, desc = prof["name"], prof.get("description") or {}
    limit = desc.get("max_length")
    return NameRule(target, re.compile(name["pattern"]), int(name["max_length"]),
                    limit if isinstance(limit, int) else None)


def effective_strict(target: str, overrides: Mapping[str, Any], source_shape: str | None,
                     options: TargetOptions) -> bool:
    """Strictness for ``target``: the option given > the tool's override for the target > the tool's own
    flag when it was written for this target (an OpenAI Chat tool's flag also holds for Responses, the
    same API family) > the target's default."""
    if options.strict is not None:
        return options.strict
    over = overrides.get(target)
    if isinstance(over, Mapping) and isinstance(over.get("strict"), bool):
        return bool(over["strict"])
    if source_shape is not None and (source_shape == target or (target == "openai-responses"
                                                                 and source_shape == "openai")):
        own = overrides.get(source_shape)
        if isinstance(own, Mapping) and isinstance(own.get("strict"), bool):
            return bool(own["strict"])
    return STRICT_DEFAULT.get(target, False)
