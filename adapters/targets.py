"""Target and shape names, shared by the CLI (``--to``/``--from``), configuration, findings and losses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

TARGETS: tuple[str, ...] = (
    "openai", "openai-responses", "anthropic", "gemini", "gemini-json", "mistral", "mcp", "bedrock",
)

#: Input shapes: every target plus the canonical file and the legacy parameter map of seeds 001/002.
SHAPES: tuple[str, ...] = ("canonical", "legacy", *TARGETS)

DISPLAY_NAMES: dict[str, str] = {
    "openai": "OpenAI Chat Completions",
    "openai-responses": "OpenAI Responses",
    "anthropic": "Anthropic",
    "gemini": "Gemini (parameters)",
    "gemini-json": "Gemini (parametersJsonSchema)",
    "mistral": "Mistral",
    "mcp": "MCP",
    "bedrock": "Bedrock Converse",
    "canonical": "toolcast canonical",
    "legacy": "legacy parameter map",
}

#: Targets with a strict mode, and whether it is on when nothing says otherwise.
STRICT_DEFAULT: dict[str, bool] = {
    "openai": True,            # seed 000: toolcast emits strict OpenAI tools by default
    "openai-responses": True,  # Responses normalises to strict when `strict` is omitted; toolcast says so
    "anthropic": False,
    "mistral": False,
    "bedrock": False,
}

TypeCase = Literal["upper", "lower"]


@dataclass(frozen=True)
class TargetOptions:
    """How to convert for one target. ``strict=None`` means the target's default (``STRICT_DEFAULT``);
    a tool's own ``x-toolcast.targets.<target>.strict`` beats that default, an explicit value here beats both.
    ``gemini_type_case`` applies to ``gemini`` only (the API accepts both; the SDK enum is upper case)."""

    strict: bool | None = None
    gemini_type_case: TypeCase = "upper"


def check_target(name: str) -> str:
    if name not in TARGETS:
        raise ValueError(f"unknown target {name!r}; expected one of: {', '.join(TARGETS)}")
    return name
