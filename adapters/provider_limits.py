"""The providers' documented and observed limits, typed: the one reading of a capability profile's ``limits``
(``schemas/providers/<target>.json``). The checks (TC6xx, TC901) and the rule texts read them from here, through
``providers.profile(target).limits``; the output judge (``convert/accept.py``) keeps its own copies of the same
types on purpose, held equal to these by ``tests/checks/test_provider_limits.py``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, TypeVar


@dataclass(frozen=True)
class StrictSchemaLimits:
    """OpenAI strict (Structured Outputs), per parameter schema: object properties, levels of object nesting,
    enum values, characters of property and definition names and enum and const values, and one enum of more
    than ``large_enum_threshold`` values whose values exceed ``large_enum_length`` characters."""

    properties: int
    depth: int
    enum_values: int
    total_string_length: int
    large_enum_threshold: int
    large_enum_length: int
    sources: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class StrictRequestLimits:
    """Anthropic strict tool use, per request: strict tools, and optional and union-typed parameters across
    them."""

    strict_tools: int
    optional_parameters: int
    union_parameters: int
    sources: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class CountLimit:
    """At most ``max`` of something in one request (Gemini's function declarations)."""

    max: int
    sources: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class ProviderLimits:
    """A provider's limits; None where the profile states none. ``max_tools`` is in the consumers' rule form
    (``consumers.provider_tool_limit`` reads it, with its own effect and confidence)."""

    strict_schema: StrictSchemaLimits | None = None
    strict_request: StrictRequestLimits | None = None
    function_declarations: CountLimit | None = None
    max_tools: Mapping[str, Any] | None = None


class LimitsError(ValueError):
    """A profile's ``limits`` that do not have the form above (``providers`` names the file)."""


_KNOWN = ("strict_schema", "strict_request", "function_declarations", "max_tools")
_Block = TypeVar("_Block", StrictSchemaLimits, StrictRequestLimits, CountLimit)


def read_limits(data: Any) -> ProviderLimits:
    """``limits`` of a profile as ``ProviderLimits``: every block has exactly its numbers (positive integers)
    and a ``source`` list; raises ``LimitsError``."""
    if data is None:
        return ProviderLimits()
    if not isinstance(data, dict):
        raise LimitsError("`limits` must be an object")
    unknown = sorted(set(data) - set(_KNOWN))
    if unknown:
        raise LimitsError(f"`limits` has unknown keys {unknown}; known: {list(_KNOWN)}")
    max_tools = data.get("max_tools")
    if max_tools is not None and not (isinstance(max_tools, dict) and _positive(max_tools.get("max"))):
        raise LimitsError("`limits.max_tools` must be an object with a positive `max`")
    frozen = None if max_tools is None else MappingProxyType(dict(max_tools))
    return ProviderLimits(_block(data, "strict_schema", StrictSchemaLimits),
                          _block(data, "strict_request", StrictRequestLimits),
                          _block(data, "function_declarations", CountLimit), frozen)


def _block(data: dict[str, Any], key: str, kind: type[_Block]) -> _Block | None:
    if key not in data:
        return None
    value = data[key]
    numbers: list[str] = [f.name for f in fields(kind) if f.name != "sources"]
    if not isinstance(value, dict) or set(value) != {*numbers, "source"}:
        raise LimitsError(f"`limits.{key}` must have exactly {numbers} and `source`")
    if not all(_positive(value[n]) for n in numbers):
        raise LimitsError(f"`limits.{key}`: {numbers} must be positive integers")
    source = value["source"]
    if not isinstance(source, list) or not source or not all(isinstance(s, str) and s for s in source):
        raise LimitsError(f"`limits.{key}.source` must be a non-empty list of sources")
    return kind(**{n: value[n] for n in numbers}, sources=tuple(source))


def _positive(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0
