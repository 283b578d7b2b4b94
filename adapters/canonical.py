"""The canonical tool: one provider-neutral definition whose parameters are JSON Schema 2020-12.

A ``CanonicalTool`` owns deep copies of everything it is given and hands out deep copies through
``to_dict``; converters never mutate it. Its JSON form is the canonical tool file format described by
``schemas/tool.schema.json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .jsonvalue import copy_json

JSON = Any
JSONObject = dict[str, Any]

#: The extension key that holds per-target overrides and round-trip metadata in a canonical file.
EXTENSION_KEY = "x-toolcast"

#: Key of ``source_meta`` holding a tool's top-level fields that its shape does not define (reported as
#: losses on conversion, never dropped silently).
UNKNOWN_KEY = "unknown"

#: Anthropic tool fields no other target has (kept in ``source_meta``, sent back to Anthropic only).
ANTHROPIC_ONLY = ("cache_control", "defer_loading", "allowed_callers", "eager_input_streaming", "type")

#: Canonical top-level keys, in the order ``to_dict`` writes them.
CANONICAL_KEYS = (
    "name", "namespace", "version", "title", "description", "category", "tags", "parameters",
    "returns", "timeout", "required_scopes", "annotations", "examples", EXTENSION_KEY,
)

EMPTY_PARAMETERS: JSONObject = {"type": "object", "properties": {}}


@dataclass(frozen=True)
class CanonicalTool:
    """One tool. ``parameters`` and ``returns`` are JSON Schema (2020-12; draft-07 input accepted).

    ``overrides`` maps a target name to settings for that target only (``strict``, ``name``,
    ``description``). ``source_format`` names the shape the tool was read from and ``source_meta``
    keeps what that shape had and the canonical form does not, so a round trip can restore it.
    """

    name: str
    description: str | None = None
    parameters: JSONObject = field(default_factory=lambda: copy_json(EMPTY_PARAMETERS))
    returns: JSON | None = None
    title: str | None = None
    namespace: str | None = None
    version: str | None = None
    category: str | None = None
    tags: tuple[str, ...] = ()
    timeout: float | None = None
    required_scopes: tuple[str, ...] = ()
    annotations: JSONObject | None = None
    examples: tuple[JSONObject, ...] = ()
    overrides: dict[str, JSONObject] = field(default_factory=dict)
    source_format: str = "canonical"
    source_meta: JSONObject = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Own every mutable value: callers keep theirs, and nobody can reach ours through them.
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, (dict, list)):
                object.__setattr__(self, f.name, copy_json(value))
            elif isinstance(value, tuple):
                object.__setattr__(self, f.name, tuple(copy_json(v) for v in value))

    @property
    def id(self) -> str:
        """``namespace:name`` when there is a namespace, else ``name``."""
        return f"{self.namespace}:{self.name}" if self.namespace else self.name

    def override(self, target: str) -> JSONObject:
        """The per-target settings for ``target`` (a copy; empty when there are none)."""
        settings: JSONObject = copy_json(self.overrides.get(target, {}))
        return settings

    def replace(self, **changes: Any) -> CanonicalTool:
        """A new tool with ``changes`` applied (this one is unchanged)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return CanonicalTool(**values)

    def to_dict(self) -> JSONObject:
        """The canonical file form: only keys with a value, in a fixed order, deep-copied."""
        out: JSONObject = {"name": self.name}
        optional: list[tuple[str, Any]] = [
            ("namespace", self.namespace), ("version", self.version), ("title", self.title),
            ("description", self.description), ("category", self.category),
            ("tags", list(self.tags) or None), ("parameters", self.parameters),
            ("returns", self.returns), ("timeout", self.timeout),
            ("required_scopes", list(self.required_scopes) or None),
            ("annotations", self.annotations), ("examples", list(self.examples) or None),
        ]
        for key, value in optional:
            if value is not None:
                out[key] = copy_json(value)
        ext: JSONObject = {}
        if self.overrides:
            ext["targets"] = copy_json(self.overrides)
        if self.source_format != "canonical" or self.source_meta:
            ext["source"] = {"format": self.source_format}
            if self.source_meta:
                ext["source"]["meta"] = copy_json(self.source_meta)
        if ext:
            out[EXTENSION_KEY] = ext
        return out
