"""Checks of the providers' size limits on a strict tool's ``parameters`` (TC601–TC604: OpenAI's
properties, nesting, enum values and string size), and a tool's effective strictness per target
(``strict_for``, by ``convert.forms``), which decides whether those limits apply."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..convert.accept import StrictSizes, strict_sizes
from ..convert.forms import named_strict, stated_strict
from ..provider_limits import StrictSchemaLimits
from ..providers import profile
from ..rules.codes import (
    OPENAI_STRICT_DEPTH,
    OPENAI_STRICT_ENUM_VALUES,
    OPENAI_STRICT_PROPERTIES,
    OPENAI_STRICT_STRING_SIZE,
)
from ..schema.subschemas import BudgetExceeded
from ..targets import TargetOptions
from .raw import Unplaced
from .tool_context import ToolContext, targets_text


def stated_for(target: str, tool: Any, shape: str | None, options: TargetOptions) -> bool | None:
    """What the configuration or the raw tool states of its strictness for ``target`` (its ``x-toolcast.targets``
    overrides and its own flag under its shape), by the converter's own rule (``convert.forms.stated_strict``)."""
    return stated_strict(target, _raw_overrides(tool, shape), shape, options)


def strict_for(target: str, tool: Any, shape: str | None, options: TargetOptions) -> bool:
    """Effective strictness of the raw tool for a target judged in ``options`` (the chosen form's options
    carry their strictness; a named target's default is its profile's): ``convert.forms.named_strict``."""
    return named_strict(target, _raw_overrides(tool, shape), shape, options)


def _raw_overrides(tool: Any, shape: str | None) -> dict[str, Any]:
    overrides: dict[str, Any] = {}
    if isinstance(tool, dict):
        ext = tool.get("x-toolcast")
        if isinstance(ext, dict) and isinstance(ext.get("targets"), dict):
            overrides.update({k: v for k, v in ext["targets"].items() if isinstance(v, dict)})
        own = tool.get("function", tool).get("strict") if isinstance(tool.get("function"), dict) \
            else tool.get("strict")
        if shape is not None and isinstance(own, bool) and shape not in overrides:
            overrides[shape] = {"strict": own}
    return overrides


def check_openai_limits(ctx: ToolContext, ptr: str, root: Any) -> None:
    """TC601–TC604 on the ``parameters`` at ``ptr``, for the OpenAI targets that take the tool strict."""
    targets = [
        t
        for t in ("openai", "openai-responses")
        if t in ctx.config.targets and strict_for(t, ctx.value, ctx.shape, ctx.config.options_for(t))
    ]
    if not targets or not isinstance(root, dict):
        return
    try:
        # The output's judge counts with the same function (`strict-limits`): a source over a limit is
        # refused by `convert` as well.
        sizes = strict_sizes(root)
    except BudgetExceeded:
        return
    data = {"targets": targets}
    # Both OpenAI APIs share Structured Outputs' limits (tests/checks/test_provider_limits.py holds them equal).
    limits = profile(targets[0]).limits.strict_schema
    if limits is None:
        return
    for code, message, where in over_openai_limits(sizes, limits, targets_text(targets), ptr):
        ctx.add(Unplaced(code, message, where, "key", data=data))


def over_openai_limits(sizes: StrictSizes, limits: StrictSchemaLimits, who: str,
                       ptr: str) -> Iterator[tuple[str, str, str]]:
    """(code, message, pointer) for each of ``limits`` that ``sizes`` exceeds, ``who`` naming the targets."""
    if sizes.properties > limits.properties:
        yield (OPENAI_STRICT_PROPERTIES,
               f"{who} strict: {sizes.properties} object properties (at most {limits.properties:,})", ptr)
    if sizes.depth > limits.depth:
        yield OPENAI_STRICT_DEPTH, f"{who} strict: {sizes.depth} levels of nesting (at most {limits.depth:,})", ptr
    if sizes.enum_values > limits.enum_values:
        yield (OPENAI_STRICT_ENUM_VALUES,
               f"{who} strict: {sizes.enum_values} enum values (at most {limits.enum_values:,})", ptr)
    elif sizes.big_enum is not None:
        yield (
            OPENAI_STRICT_ENUM_VALUES,
            f"{who} strict: an enum of more than {limits.large_enum_threshold:,} values over "
            f"{limits.large_enum_length:,} characters",
            ptr + sizes.big_enum,
        )
    if sizes.string_size > limits.total_string_length:
        yield (
            OPENAI_STRICT_STRING_SIZE,
            f"{who} strict: {sizes.string_size:,} characters of names and enum/const values "
            f"(at most {limits.total_string_length:,})",
            ptr,
        )
