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


#: What a source file's name ends with, longest first; the export is ``<stem>.<target>.json``.
SOURCE_SUFFIXES: tuple[str, ...] = (".request.json", ".tool.json", ".tools.json", ".jsonc", ".json")


def export_file_name(stem: str, target: str) -> str:
    """The name toolcast gives an export (the editor's export action; documented in editors/README.md)."""
    return f"{stem}.{target}.json"


def source_stem(file_name: str) -> str:
    """``get_weather.tool.json`` -> ``get_weather``: the stem an export of the file is named after."""
    for suffix in SOURCE_SUFFIXES:
        if file_name.endswith(suffix):
            return file_name[: -len(suffix)]
    return file_name


def export_target(path: str) -> str | None:
    """The target of a file named as an export (``forecast.anthropic.json`` -> ``anthropic``), else None.
    Such a file is derived from a source: it is checked as that provider's file, but its tools are
    copies and never count as second definitions of a name."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    if not name.endswith(".json"):
        return None
    head = name[: -len(".json")]
    for target in sorted(TARGETS, key=len, reverse=True):  # openai-responses before openai
        if head.endswith("." + target) and len(head) > len(target) + 1:
            return target
    return None


def check_target(name: str) -> str:
    if name not in TARGETS:
        raise ValueError(f"unknown target {name!r}; expected one of: {', '.join(TARGETS)}")
    return name
