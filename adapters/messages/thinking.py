"""Thinking configuration per provider and model, from ``schemas/models.json`` (seed 004's formulas)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from types import MappingProxyType
from typing import Any

from ..errors import ToolcastError
from .conversation import ThinkingLevel


@cache
def _table() -> Mapping[str, Any]:
    """``schemas/models.json``, read on first use and frozen: a constant of the package, not a memo of
    anything a user wrote (see "Who owns the caches" in docs/design.md)."""
    data = json.loads(files("toolcast.schemas").joinpath("models.json").read_text(encoding="utf-8"))
    frozen: Mapping[str, Any] = _frozen(data)
    return frozen


def _frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


#: The model a request is sent for when its own model belongs to another provider (and no ``--model``).
DEFAULT_MODELS = {"anthropic": "claude-sonnet-4-5", "openai": "gpt-5", "openai-responses": "gpt-5",
                  "gemini": "gemini-2.5-flash", "mistral": "mistral-medium-latest"}
_FAMILIES = (("claude", "anthropic"), ("gemini", "gemini"), ("gpt", "openai"), ("o1", "openai"), ("o3", "openai"),
             ("o4", "openai"), ("chatgpt", "openai"), ("mistral", "mistral"), ("magistral", "mistral"),
             ("codestral", "mistral"), ("devstral", "mistral"), ("ministral", "mistral"), ("pixtral", "mistral"),
             ("open-mistral", "mistral"))


def model_provider(model: str) -> str | None:
    """The provider whose model this is, by its name's prefix (None for a name toolcast does not know:
    a fine-tune or a deployment name is then taken as meant for any target)."""
    lowered = model.lower()
    return next((provider for prefix, provider in _FAMILIES if lowered.startswith(prefix)), None)


def model_entry(provider: str, model: str) -> Mapping[str, Any] | None:
    """The table's entry for ``model`` (longest matching prefix; read-only), or None."""
    best: Mapping[str, Any] | None = None
    for entry in _table().get(provider, ()):
        if model.startswith(entry["prefix"]) and (best is None or len(entry["prefix"]) > len(best["prefix"])):
            best = entry
    return best


def budget_tokens(minimum: int, maximum: int, level: ThinkingLevel) -> int:
    """Seed 004: none → min, low → a third of the way, medium → two thirds, high → max."""
    span = maximum - minimum
    return {"none": minimum, "low": minimum + span // 3, "medium": minimum + 2 * span // 3, "high": maximum}[level]


def anthropic_budget(model: str, level: ThinkingLevel) -> int:
    entry = model_entry("anthropic", model)
    if entry is None or "budget" not in entry:
        raise ToolcastError(f"no thinking budget is known for Anthropic model {model!r} (schemas/models.json)")
    return budget_tokens(entry["budget"]["min"], entry["budget"]["max"], level)


def anthropic_max_output(model: str) -> int | None:
    entry = model_entry("anthropic", model)
    return int(entry["max_output"]) if entry is not None and "max_output" in entry else None


def gemini_thinking(model: str, level: ThinkingLevel) -> dict[str, Any]:
    """``thinkingConfig`` for a Gemini model: a token budget (2.5) or a thinking level (3)."""
    entry = model_entry("gemini", model)
    if entry is None:
        raise ToolcastError(f"no thinking configuration is known for Gemini model {model!r} (schemas/models.json)")
    if "levels" in entry:
        return {"thinkingLevel": entry["levels"][level], "includeThoughts": True}
    return {"thinkingBudget": budget_tokens(entry["budget"]["min"], entry["budget"]["max"], level),
            "includeThoughts": True}


def openai_effort(model: str, level: ThinkingLevel) -> str:
    entry = model_entry("openai", model)
    effort = entry["effort"] if entry is not None else {}
    return str(effort.get(level, level))
