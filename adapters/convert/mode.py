"""A profile mode's settings as one typed record: what the walker and the scan read about a target's mode.

The capability profiles (``schemas/providers/<target>.json``) state each mode as JSON; ``providers.profile``
validates their form, and ``profile_mode`` builds a ``Mode`` from each once. Settings that take a fixed set
of values are ``Literal`` types, checked when the ``Mode`` is built."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cache
from types import MappingProxyType
from typing import Any, Literal, get_args, get_type_hints

from ..providers import profile

#: What a mode does with a keyword it names: keep it, state it in the description, drop it, or refuse the schema.
Fate = Literal["keep", "fold", "drop", "reject"]
EnumKind = Literal["any", "string", "string_or_number", "primitive"]
#: Formats a mode accepts: a list of names, the names per type name, or None for every format.
Formats = Sequence[str] | Mapping[str, Sequence[str]] | None

#: The profiles' JSON names of the settings whose attribute is spelled differently.
_JSON_NAMES = {"one_of": "oneOf", "all_of": "allOf", "additional_properties": "additionalProperties"}


def _no_rules() -> Mapping[str, Fate]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Mode:
    """One mode of a target (strict, non-strict or its only one). The defaults are those of a mode that
    changes nothing, so a partial settings object (``lower``'s callers, the tests) keeps its meaning."""

    keywords: Mapping[str, Fate] = field(default_factory=_no_rules)
    refs: Literal["keep", "inline"] = "keep"
    recursion: bool = True
    one_of: Literal["keep", "anyOf"] = "keep"
    all_of: Literal["keep", "merge"] = "keep"
    const: Literal["keep", "enum"] = "keep"
    type_arrays: Literal["keep", "nullable"] = "keep"
    additional_properties: Literal["keep", "drop"] = "keep"
    closed_objects: bool = False
    all_required: bool = False
    root_composition: bool = True
    needs_items: bool = False
    formats: Formats = None
    enum: EnumKind = "any"
    ref_siblings: bool = True
    unknown_keywords: Literal["keep", "drop"] = "keep"
    min_items_max: int | None = None
    type_case: bool = False
    typed_nodes: bool = False
    any_of_alone: bool = False
    object_properties_nonempty: bool = False

    @classmethod
    def of(cls, settings: Mapping[str, Any]) -> Mode:
        """The mode a profile's settings object states; ``ValueError`` for a setting it does not know or a
        value outside a setting's fixed set."""
        known = {_JSON_NAMES.get(f.name, f.name): f.name for f in fields(cls)}
        unknown = sorted(set(settings) - set(known))
        if unknown:
            raise ValueError(f"unknown mode settings {unknown}")
        values = {known[key]: value for key, value in settings.items()}
        for name, value in values.items():
            allowed = _CHOICES.get(name)
            if allowed is not None and value not in allowed:
                raise ValueError(f"mode setting `{_JSON_NAMES.get(name, name)}` is one of {list(allowed)}")
        if "keywords" in values and any(v not in _FATES for v in values["keywords"].values()):
            raise ValueError(f"keyword fates are {list(_FATES)}")
        return cls(**values)

    @property
    def reshapes(self) -> bool:
        """A setting under which a walk may rewrite a schema whatever it uses (such a mode is never quiet):
        strict mode's closed objects, required members and typed nodes; Gemini's one type per node, `anyOf`
        alone and free-form objects as text."""
        return self.closed_objects or self.all_required or self.typed_nodes or self.any_of_alone \
            or self.type_case or self.object_properties_nonempty

    def inlines_all(self) -> bool:
        """Every ``$ref`` is inlined (and the root's definitions left out)."""
        return self.refs == "inline" or not self.recursion

    def enum_ok(self, values: list[Any]) -> bool:
        """Whether this mode takes these ``enum`` values."""
        kind = self.enum
        if kind == "string":
            return all(isinstance(v, str) for v in values)
        if kind == "string_or_number":
            return all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in values)
        if kind == "primitive":
            return all(v is None or isinstance(v, (str, int, float, bool)) for v in values)
        return True

    def enum_refused(self, values: Any, schema: Mapping[str, Any]) -> bool:
        """An ``enum`` the mode folds: values of a kind it does not take, or (string enums only) on a node whose
        type, as the author wrote it, is not ``string``."""
        return isinstance(values, list) and (not self.enum_ok(values) or (
            self.enum == "string" and schema.get("type", "string") != "string"))

    def format_ok(self, fmt: str, type_: Any) -> bool:
        """Whether this mode takes ``format: fmt`` on a node of type ``type_`` (as the author wrote it)."""
        allowed = self.formats
        if allowed is None:
            return True
        if isinstance(allowed, Mapping):
            # `type` as the author wrote it: a name, a list of names, or anything else (no type to allow it by).
            kinds = [type_] if isinstance(type_, str) else [t for t in type_ if isinstance(t, str)] \
                if isinstance(type_, list) else []
            return any(fmt in allowed.get(k, []) for k in kinds)
        return fmt in allowed


_FATES: tuple[str, ...] = get_args(Fate)
#: The fixed values of each ``Literal`` setting, read from the record's own annotations.
_CHOICES: dict[str, tuple[Any, ...]] = {
    name: get_args(hint) for name, hint in get_type_hints(Mode).items() if getattr(hint, "__origin__", None) is Literal
}


@cache
def profile_mode(target: str, key: str, for_returns: bool = False) -> Mode:
    """Mode ``key`` of ``target``'s profile, built once; ``for_returns``: as applied to a tool's return value
    (never closed, nothing made required: the model does not write it)."""
    mode = Mode.of(profile(target).modes[key])
    return replace(mode, all_required=False, closed_objects=False) if for_returns else mode


def as_mode(mode: Mode | Mapping[str, Any]) -> Mode:
    """``mode`` itself, or the ``Mode`` a settings object states."""
    return mode if isinstance(mode, Mode) else Mode.of(mode)
