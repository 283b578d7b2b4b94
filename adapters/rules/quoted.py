"""The facts that rule texts quote from owners too costly to load with the rules: the provider profiles (read
from files) and the pattern matcher's limits (``regex``, jsonschema). Each is imported when a text is read
(``registry.Text``), so the language server answers ``initialize`` without them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..provider_limits import StrictRequestLimits, StrictSchemaLimits
    from ..providers import ProviderProfile


def provider(target: str) -> ProviderProfile:
    from ..providers import profile

    return profile(target)


def openai_strict() -> StrictSchemaLimits:
    """OpenAI strict's limits per schema (OpenAI Chat's profile; Responses' is held equal to it by test)."""
    limits = provider("openai").limits.strict_schema
    if limits is None:
        raise LookupError("schemas/providers/openai.json states no `limits.strict_schema`")
    return limits


def anthropic_strict() -> StrictRequestLimits:
    limits = provider("anthropic").limits.strict_request
    if limits is None:
        raise LookupError("schemas/providers/anthropic.json states no `limits.strict_request`")
    return limits


def gemini_declarations() -> int:
    limit = provider("gemini").limits.function_declarations
    if limit is None:
        raise LookupError("schemas/providers/gemini.json states no `limits.function_declarations`")
    return limit.max


def openai_max_tools() -> int:
    limit = provider("openai").limits.max_tools
    if limit is None:
        raise LookupError("schemas/providers/openai.json states no `limits.max_tools`")
    return int(limit["max"])


@dataclass(frozen=True)
class PatternLimits:
    """How long a pattern may take: one match (CPU seconds), all matches of one tool, and its length."""

    match_seconds: float
    tool_seconds: float
    max_pattern: int


def pattern_limits() -> PatternLimits:
    from ..schema.patterns import MATCH_SECONDS, MAX_PATTERN, TOOL_SECONDS

    return PatternLimits(MATCH_SECONDS, TOOL_SECONDS, MAX_PATTERN)


def consumer_max(name: str, rule_id: str) -> int:
    """The ``max`` of a host's or API's rule (``schemas/consumers/<name>.json``), or of a model family's."""
    from ..consumers import consumer, model_families

    found = next((f for f in model_families() if f.name == name), None) or consumer(name)
    rule = next(r for r in found.rules if r.id == rule_id)
    return int(rule.settings["max"])
