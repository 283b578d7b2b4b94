"""Provider truth read from the capability profiles (``schemas/providers/<target>.json``): the one
name rule (pattern, sanitiser, description limit) that convert and the checks both use, so that they cannot
disagree. A tool's strictness per target is ``convert.forms``'s."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from types import MappingProxyType
from typing import Any

from .errors import ConversionError, ToolcastError
from .listing import listed
from .mode_settings import settings_problem
from .provider_limits import LimitsError, ProviderLimits, read_limits
from .targets import TARGETS


@cache
def profile_text(target: str) -> str:
    return files("toolcast.schemas").joinpath("providers", f"{target}.json").read_text(encoding="utf-8")


def load_profile(target: str) -> dict[str, Any]:
    """The capability profile of ``target`` as JSON (a fresh copy), validated by ``profile``."""
    profile(target)
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
                return "contains " + listed(map(repr, bad), len(bad))
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


class ProfileError(ToolcastError, ValueError):
    """A capability profile that does not have the form convert and the checks rely on."""


@dataclass(frozen=True)
class ProviderProfile:
    """One target's capability profile, validated once: what convert, the checks, hover and the
    ``providers`` command read about a provider (``modes``: the validated settings per mode, read-only at every
    depth, lists as tuples)."""

    target: str
    display_name: str
    names: NameRule
    limits: ProviderLimits
    default_mode: str
    modes: Mapping[str, Mapping[str, Any]]
    #: Each mode's settings as canonical JSON: equal for equal modes of any target, so a walk of one can
    #: serve the others (``convert.shared``).
    mode_ids: Mapping[str, str]
    #: The provider's own rules as written (``rules``): read and validated only by ``consumers.provider_rules``,
    #: like the consumers' rules, so every rule is held to one form.
    rules: tuple[Any, ...] = ()

    @property
    def has_strict(self) -> bool:
        return "strict" in self.modes

    @property
    def strict_default(self) -> bool:
        return self.default_mode == "strict"


def _frozen(value: Any) -> Any:
    """``value`` with every object read-only and every list a tuple: a mode's settings are handed to every
    conversion as they are (no copy per call), so nothing may change them."""
    if isinstance(value, dict):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _validate(target: str, data: Any) -> ProviderProfile:
    def need(ok: bool, what: str) -> None:
        if not ok:
            raise ProfileError(f"schemas/providers/{target}.json: {what}")

    need(isinstance(data, dict) and data.get("target") == target, "`target` must name the file's target")
    need(isinstance(data.get("display_name"), str), "`display_name` must be a string")
    name, desc = data.get("name"), data.get("description")
    need(isinstance(name, dict) and isinstance(name.get("pattern"), str) and isinstance(name.get("max_length"), int),
         "`name` needs `pattern` and `max_length`")
    need(isinstance(desc, dict) and isinstance(desc.get("max_length", None), (int, type(None))),
         "`description.max_length` must be a number or null")
    try:
        pattern = re.compile(name["pattern"])
    except re.error as exc:
        raise ProfileError(f"schemas/providers/{target}.json: bad name pattern: {exc}") from None
    modes = data.get("modes")
    need(isinstance(modes, dict) and bool(modes), "`modes` must be a non-empty object")
    need(data.get("default_mode") in modes, "`default_mode` must name a mode")
    need(set(modes) <= {"strict", "non_strict", "default"}, "modes are strict/non_strict or default")
    for key, mode in modes.items():
        need(isinstance(mode, dict), f"mode {key} must be an object")
        problem = settings_problem(mode)
        need(problem is None, f"mode {key}: {problem}")
    need(isinstance(data.get("rules", []), list), "`rules` must be a list")
    limit = desc.get("max_length")
    rule = NameRule(target, pattern, name["max_length"], limit if isinstance(limit, int) else None)
    try:
        limits = read_limits(data.get("limits"))
    except LimitsError as exc:
        raise ProfileError(f"schemas/providers/{target}.json: {exc}") from None
    return ProviderProfile(target, data["display_name"], rule, limits,
                           data["default_mode"], MappingProxyType({k: _frozen(v) for k, v in modes.items()}),
                           MappingProxyType({k: _mode_id(k, v, data.get("rules")) for k, v in modes.items()}),
                           tuple(_frozen(r) for r in data.get("rules", [])))


def mode_pattern_rules(rules: Any, key: str) -> tuple[tuple[str, str], ...]:
    """The provider's ``pattern_dialect`` rules (among its profile's ``rules``) that hold in mode ``key``: those
    documented or
    observed, naming the mode or none, as (rule id, engine): what
    ``convert.profile_mode.profile_mode`` adds to the mode.
    Read as written; ``consumers.provider_pattern_rules`` validates them."""
    return tuple((str(r.get("id")), str(r.get("engine"))) for r in rules or ()
                 if isinstance(r, Mapping) and r.get("rule") == "pattern_dialect" and r.get("confidence") != "unclear"
                 and key in r.get("modes", [key]))


def _mode_id(key: str, settings: Any, rules: Any) -> str:
    """One mode's id: its settings, and the provider's pattern rules for it; equal ids lower a schema alike, so
    one walk serves both."""
    mine = [list(r) for r in mode_pattern_rules(rules if isinstance(rules, list) else None, key)]
    return json.dumps([settings, mine] if mine else settings, sort_keys=True, separators=(",", ":"))


@cache
def profile(target: str) -> ProviderProfile:
    """The validated profile of ``target``; raises ``ConversionError`` for an unknown target and
    ``ProfileError`` for a profile of the wrong form."""
    if target not in TARGETS:
        raise ConversionError(target, "from_canonical", f"unknown target; expected one of: {', '.join(TARGETS)}")
    return _validate(target, json.loads(profile_text(target)))


def name_rule(target: str) -> NameRule:
    return profile(target).names


def display_name(target: str) -> str:
    """A target's or input shape's name for people (hover, code lens, check messages)."""
    return profile(target).display_name if target in TARGETS else _SHAPE_NAMES.get(target, target)


_SHAPE_NAMES = {"canonical": "toolcast canonical", "legacy": "legacy parameter map"}


class _DisplayNames(Mapping[str, str]):
    """``DISPLAY_NAMES`` read from the profiles on use (so importing it loads no profile)."""

    def __getitem__(self, key: str) -> str:
        if key not in TARGETS and key not in _SHAPE_NAMES:
            raise KeyError(key)
        return display_name(key)

    def __iter__(self) -> Iterator[str]:
        return iter((*TARGETS, *_SHAPE_NAMES))

    def __len__(self) -> int:
        return len(TARGETS) + len(_SHAPE_NAMES)


DISPLAY_NAMES: Mapping[str, str] = _DisplayNames()


def has_strict(target: str) -> bool:
    return target in TARGETS and profile(target).has_strict


def capability_matrix() -> dict[str, dict[str, dict[str, str]]]:
    """target → mode → keyword → what happens to it: the table ``toolcast providers`` prints and the
    library's ``providers()`` returns."""
    out: dict[str, dict[str, dict[str, str]]] = {}
    for target in TARGETS:
        profile = load_profile(target)
        for name, mode in profile["modes"].items():
            row = {k: {"fold": "folded", "drop": "dropped", "reject": "rejected"}.get(v, v)
                   for k, v in mode.get("keywords", {}).items()}
            row["$ref"] = "inlined" if mode.get("refs") == "inline" or not mode.get("recursion") else "kept"
            row["recursion"] = "kept" if mode.get("recursion") and mode.get("refs") != "inline" else "cut"
            row["oneOf"] = "as anyOf" if mode.get("oneOf") == "anyOf" else "kept"
            row["allOf"] = "merged" if mode.get("allOf") == "merge" else "kept"
            row["const"] = "as enum" if mode.get("const") == "enum" else "kept"
            row["type arrays"] = "as nullable" if mode.get("type_arrays") == "nullable" else "kept"
            row["additionalProperties"] = ("dropped" if mode.get("additionalProperties") == "drop"
                                           else "false only" if mode.get("closed_objects") else "kept")
            formats = mode.get("formats")
            row["formats"] = "all" if formats is None else ", ".join(
                sorted(formats) if isinstance(formats, list) else sorted(f for v in formats.values() for f in v))
            engines = [engine for _, engine in mode_pattern_rules(profile.get("rules"), name)]
            if engines and "pattern" not in row:
                row["pattern"] = f"compiled with {', '.join(engines)}; folded where refused"
            out.setdefault(target, {})[name] = row
    return out
