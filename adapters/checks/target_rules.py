"""Per-target name and description rules: the one ``NameRule`` of ``adapters/providers.py``, read
from the capability profiles (``schemas/providers/<target>.json``), which the converter uses too."""

from __future__ import annotations

from ..providers import NameRule, name_rule, profile
from ..targets import TARGETS

__all__ = ["MAX_FUNCTIONS", "NameRule", "name_rule"]

#: Tools per request (docs/providers.md §3.1, the profiles' `limits.function_declarations`).
MAX_FUNCTIONS: dict[str, int] = {t: int(profile(t).limits["function_declarations"]) for t in TARGETS
                                 if isinstance(profile(t).limits.get("function_declarations"), int)}

