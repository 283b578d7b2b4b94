"""A profile mode's settings as one typed record, the one list of those settings: the walker and the scan read
it (``convert.profile_mode.profile_mode`` builds one per mode, once) and ``providers`` checks a profile's modes against
it when the profile is loaded (``settings_problem``). Settings that take a fixed set of values are ``Literal``
types; each field's metadata gives the JSON types a profile may write it with, and whether a profile may leave
it out. Below ``providers`` on purpose: it imports nothing of toolcast."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, Literal, get_args, get_type_hints

#: What a mode does with a keyword it names: keep it, state it in the description, drop it, or refuse the schema.
Fate = Literal["keep", "fold", "drop", "reject"]
EnumKind = Literal["any", "string", "string_or_number", "primitive"]
#: Formats a mode accepts: a list of names, the names per type name, or None for every format.
Formats = Sequence[str] | Mapping[str, Sequence[str]] | None

#: The profiles' JSON names of the settings whose attribute is spelled differently.
_JSON_NAMES = {"one_of": "oneOf", "all_of": "allOf", "additional_properties": "additionalProperties"}


def _setting(json_types: tuple[type, ...], optional: bool = False) -> dict[str, Any]:
    """A field's metadata: the JSON types a profile may give the setting, and whether it may leave it out."""
    return {"json": json_types, "optional": optional}


def _no_rules() -> Mapping[str, Fate]:
    return MappingProxyType({})


def _none_forbidden() -> Mapping[str, str]:
    return MappingProxyType({})


#: A setting taken from the provider's rules (``consumers.provider_rules``) by ``convert.profile_mode.profile_mode``,
#: never written in a profile mode: the rule, with its source and confidence, is the one owner of the fact.
_DERIVED: Mapping[str, Any] = MappingProxyType({"json": (), "optional": True, "derived": True})


@dataclass(frozen=True, slots=True)
class Mode:
    """One mode of a target (strict, non-strict or its only one). The defaults are those of a mode that
    changes nothing, so a partial settings object (``lower``'s callers, the tests) keeps its meaning."""

    keywords: Mapping[str, Fate] = field(default_factory=_no_rules, metadata=_setting((dict,)))
    refs: Literal["keep", "inline"] = field(default="keep", metadata=_setting((str,)))
    recursion: bool = field(default=True, metadata=_setting((bool,)))
    one_of: Literal["keep", "anyOf"] = field(default="keep", metadata=_setting((str,)))
    all_of: Literal["keep", "merge"] = field(default="keep", metadata=_setting((str,)))
    const: Literal["keep", "enum"] = field(default="keep", metadata=_setting((str,)))
    type_arrays: Literal["keep", "nullable"] = field(default="keep", metadata=_setting((str,)))
    additional_properties: Literal["keep", "drop"] = field(default="keep", metadata=_setting((str,)))
    closed_objects: bool = field(default=False, metadata=_setting((bool,)))
    all_required: bool = field(default=False, metadata=_setting((bool,)))
    root_composition: bool = field(default=True, metadata=_setting((bool,)))
    needs_items: bool = field(default=False, metadata=_setting((bool,)))
    formats: Formats = field(default=None, metadata=_setting((list, dict, type(None))))
    enum: EnumKind = field(default="any", metadata=_setting((str,)))
    ref_siblings: bool = field(default=True, metadata=_setting((bool,)))
    unknown_keywords: Literal["keep", "drop"] = field(default="keep", metadata=_setting((str,)))
    min_items_max: int | None = field(default=None, metadata=_setting((int, type(None))))
    type_case: bool = field(default=False, metadata=_setting((bool,), optional=True))
    typed_nodes: bool = field(default=False, metadata=_setting((bool,), optional=True))
    any_of_alone: bool = field(default=False, metadata=_setting((bool,), optional=True))
    object_properties_nonempty: bool = field(default=False, metadata=_setting((bool,), optional=True))
    #: The provider's ``pattern_dialect`` rules for this mode, as (rule id, engine) pairs: a ``pattern`` one of
    #: those engines does not compile is stated in the description instead. Filled from the profile's
    #: ``rules`` (``convert.profile_mode.profile_mode``), where each rule has its sources.
    pattern_rules: tuple[tuple[str, str], ...] = field(default=(), metadata=_setting((list,), optional=True))
    #: `enum` members the provider rejects (``empty_string``, ``null``), each with why (the rule cited).
    forbidden_members: Mapping[str, str] = field(default_factory=_none_forbidden, metadata=_DERIVED)
    #: The integers the provider takes as bounds (min, max) and why, or None for any.
    integer_range: tuple[int, int, str] | None = field(default=None, metadata=_DERIVED)
    #: The provider's ``enum_type`` rule for this mode (rule id, why, whether a node without `type` breaks it):
    #: an `enum` must sit beside a `type` that allows each member; None where the provider takes any `enum`.
    enum_type: tuple[str, str, bool] | None = field(default=None, metadata=_DERIVED)

    @classmethod
    def of(cls, settings: Mapping[str, Any]) -> Mode:
        """The mode a profile's settings object states; ``ValueError`` for a setting it does not know or a
        value outside a setting's fixed set."""
        unknown = sorted(set(settings) - set(_BY_JSON))
        if unknown:
            raise ValueError(f"unknown mode settings {unknown}")
        values = {_BY_JSON[key]: value for key, value in settings.items()}
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

    def forbids(self, value: Any) -> str | None:
        """Why the provider rejects ``value`` as an `enum` member (its rule cited), or None."""
        kind = "empty_string" if value == "" else "null" if value is None else None
        return self.forbidden_members.get(kind) if kind is not None else None

    def bound_refused(self, key: str, value: Any) -> bool:
        """An integer bound (``INTEGER_BOUNDS``) outside the integers the provider takes."""
        bounds = self.integer_range
        return bounds is not None and key in INTEGER_BOUNDS and isinstance(value, int) \
            and not isinstance(value, bool) and not bounds[0] <= value <= bounds[1]

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


#: The keywords whose value is an integer bound, what an ``integer_range`` rule limits.
INTEGER_BOUNDS = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
                            "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains",
                            "maxContains"})
_FATES: tuple[str, ...] = get_args(Fate)
#: Each setting's attribute, by the name the profiles give it.
_BY_JSON: dict[str, str] = {_JSON_NAMES.get(f.name, f.name): f.name for f in fields(Mode)
                             if not f.metadata.get("derived")}
#: The fixed values of each ``Literal`` setting, read from the record's own annotations.
_CHOICES: dict[str, tuple[Any, ...]] = {
    name: get_args(hint) for name, hint in get_type_hints(Mode).items() if getattr(hint, "__origin__", None) is Literal
}


def settings_problem(settings: Mapping[str, Any]) -> str | None:
    """What is wrong with a profile mode's settings object as a profile states it (every setting but the optional
    ones, each of its JSON types), or None: ``providers`` reports it as a ``ProfileError``."""
    unknown = sorted(set(settings) - set(_BY_JSON))
    if unknown:
        return f"unknown settings {unknown}"
    meta = {key: Mode.__dataclass_fields__[name].metadata for key, name in _BY_JSON.items()}
    missing = sorted(key for key, m in meta.items() if not m["optional"] and key not in settings)
    if missing:
        return f"missing settings {missing}"
    for key, value in settings.items():
        types = meta[key]["json"]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            return f"bad `{key}`"
    try:
        Mode.of(settings)
    except ValueError as exc:
        return str(exc)
    return None
