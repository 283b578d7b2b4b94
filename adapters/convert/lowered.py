"""What lowering one schema gives: the walker's result, the scan's, and the checks' shared lowering's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..losses import Loss


@dataclass(frozen=True, slots=True)
class Lowered:
    """A schema lowered for one target and mode.

    ``schema`` is the output (for the checks' fast paths, the original, not meant to be sent); ``losses`` in
    pointer order; ``record`` the round-trip record: ``optional``, the pointers of optional properties strict
    mode made required (a null answer means "absent"), ``nullable``, those of them to which it had to add
    null, ``added``, the pointers of keywords strict mode added, and ``json_text``, the free-form objects asked
    for as JSON text (only the lists that are not empty)."""

    schema: Any
    losses: list[Loss]
    record: dict[str, list[str]]
