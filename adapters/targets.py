"""Target and shape names, shared by the CLI (``--to``/``--from``), configuration, findings and losses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

TARGETS: tuple[str, ...] = (
    "openai", "openai-responses", "anthropic", "gemini", "gemini-json", "mistral", "mcp", "bedrock",
)

#: Input shapes: every target plus the canonical file and the legacy parameter map of seeds 001/002.
SHAPES: tuple[str, ...] = ("canonical", "legacy", *TARGETS)

# Display names and strict defaults are read from the profiles: ``adapters/providers.py``
# (``DISPLAY_NAMES``, ``ProviderProfile.strict_default``).

TypeCase = Literal["upper", "lower"]


@dataclass(frozen=True)
class TargetOptions:
    """How to convert for one target. ``strict=None`` means the target's default (its profile's ``default_mode``);
    a tool's own ``x-toolcast.targets.<target>.strict`` beats that default, an explicit value here beats both.
    ``gemini_type_case`` applies to ``gemini`` only (the API accepts both; the SDK enum is upper case)."""

    strict: bool | None = None
    gemini_type_case: TypeCase = "upper"


def check_target(name: str) -> str:
    if name not in TARGETS:
        raise ValueError(f"unknown target {name!r}; expected one of: {', '.join(TARGETS)}")
    return name
