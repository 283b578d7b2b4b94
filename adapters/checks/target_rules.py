"""Per-target name and description rules: the one ``NameRule`` of ``adapters/providers.py``, read
from the capability profiles (``schemas/providers/<target>.json``), which the converter uses too."""

from __future__ import annotations

from ..providers import NameRule, name_rule
from ..targets import TARGETS

__all__ = ["MAX_FUNCTIONS", "NameRule", "all_rules", "name_rule"]

#: Tools per request (providers.md §7.1): only documented figures.
MAX_FUNCTIONS: dict[str, int] = {"gemini": 512, "gemini-json": 512}


def all_rules() -> dict[str, NameRule]:
    return {t: name_rule(t) for t in TARGETS}
