"""Per-target name and description rules, read from the converter's capability profiles
(``schemas/providers/<target>.json``) with the values of ``reference/providers.md`` as a fallback for a
profile that is missing or incomplete."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..targets import TARGETS

# providers.md §1.2, §2.2, §3.2, §4, §5.2, §6.1.
_FALLBACK: dict[str, tuple[str, int, int | None]] = {
    "openai": (r"^[a-zA-Z0-9_-]+$", 64, 1024),
    "openai-responses": (r"^[a-zA-Z0-9_-]+$", 64, 1024),
    "anthropic": (r"^[a-zA-Z0-9_-]+$", 128, None),
    "gemini": (r"^[A-Za-z_][A-Za-z0-9_.:-]*$", 128, None),
    "gemini-json": (r"^[A-Za-z_][A-Za-z0-9_.:-]*$", 128, None),
    "mistral": (r"^[a-zA-Z0-9_-]+$", 64, None),
    "mcp": (r"^[A-Za-z0-9_.-]+$", 128, None),
    "bedrock": (r"^[a-zA-Z0-9_-]+$", 64, None),
}

#: Tools per request (providers.md §7.1): only documented figures.
MAX_FUNCTIONS: dict[str, int] = {"gemini": 512, "gemini-json": 512}


@dataclass(frozen=True)
class NameRule:
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
        out = "".join(c if self._char_ok(c) else "_" for c in name) or "_"
        if not self.pattern.fullmatch(out[: self.max_length]) and self.pattern.fullmatch("_" + out[:1] + "a"):
            out = "_" + out
        return out[: self.max_length]


def _profile(target: str) -> dict[str, Any]:
    try:
        from ..convert import load_profile  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return {}
    try:
        prof = load_profile(target)
    except Exception:  # a missing or broken profile: fall back, the converter reports it
        return {}
    return prof if isinstance(prof, dict) else {}


@cache
def name_rule(target: str) -> NameRule:
    pattern, max_len, desc_max = _FALLBACK[target]
    prof = _profile(target)
    name = prof.get("name") if isinstance(prof.get("name"), dict) else {}
    assert isinstance(name, dict)
    if isinstance(name.get("pattern"), str):
        pattern = name["pattern"]
    if isinstance(name.get("max_length"), int):
        max_len = name["max_length"]
    desc = prof.get("description")
    if isinstance(desc, dict) and "max_length" in desc:
        value = desc["max_length"]
        desc_max = value if isinstance(value, int) else None
    try:
        compiled = re.compile(pattern)
    except re.error:
        compiled = re.compile(_FALLBACK[target][0])
    return NameRule(target, compiled, max_len, desc_max)


def all_rules() -> dict[str, NameRule]:
    return {t: name_rule(t) for t in TARGETS}
