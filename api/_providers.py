"""``targets`` and ``providers``: the targets ``adapt`` takes and what each keeps and loses, read from the
capability profiles (``schemas/providers/<target>.json``) as ``toolcast providers`` prints them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolcast.adapters.consumers import provider_rules
from toolcast.adapters.providers import capability_matrix, profile
from toolcast.adapters.targets import TARGETS


@dataclass(frozen=True)
class Provider:
    """One target. ``modes`` maps each mode (``strict``/``non_strict``, or ``default`` for a target with one) to
    what happens to each schema keyword or feature there: ``kept``, ``folded`` (into the description),
    ``dropped``, ``rejected``, or how it is rewritten (``inlined``, ``as anyOf``, ``merged`` ...);
    ``formats`` lists the string formats kept. Names must match ``name_pattern`` and be at most
    ``name_max_length`` long; ``description_max_length`` is None when there is no limit. ``rules`` maps each
    mode to the provider's own rules that hold there (its profile's ``rules``: id, kind and settings, effect,
    message, ``sources`` and ``confidence``), as ``toolcast providers --format json`` lists them."""

    target: str
    display_name: str
    default_mode: str
    modes: Mapping[str, Mapping[str, str]]
    name_pattern: str
    name_max_length: int
    description_max_length: int | None
    rules: Mapping[str, tuple[Mapping[str, Any], ...]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target, "display_name": self.display_name, "default_mode": self.default_mode,
                "modes": {m: dict(row) for m, row in self.modes.items()}, "name_pattern": self.name_pattern,
                "name_max_length": self.name_max_length, "description_max_length": self.description_max_length,
                "rules": {m: [dict(r) for r in held] for m, held in self.rules.items()}}


def targets() -> tuple[str, ...]:
    """Every target name ``adapt`` takes, in a fixed order."""
    return TARGETS


def providers() -> dict[str, Provider]:
    """Every target's ``Provider``, keyed by target name (the order of ``targets()``)."""
    table = capability_matrix()  # the table `toolcast providers` prints
    out: dict[str, Provider] = {}
    for target in TARGETS:
        prof = profile(target)
        rules = {m: tuple(r.to_dict() for r in provider_rules(target) if r.holds_in(m)) for m in table[target]}
        out[target] = Provider(target, prof.display_name, prof.default_mode, table[target],
                               prof.names.pattern.pattern, prof.names.max_length, prof.names.description_max, rules)
    return out
