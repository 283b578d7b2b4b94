"""Per-target name and description rules: the one ``NameRule`` of ``adapters/providers.py``, read
from the capability profiles (``schemas/providers/<target>.json``), which the converter uses too."""

from __future__ import annotations

from ..providers import NameRule, name_rule

__all__ = ["NameRule", "name_rule"]

