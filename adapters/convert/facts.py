"""What a schema uses, found in one scan, and the modes that certainly report no loss for it.

The checks need every target's losses for every tool, and most tools use nothing a permissive mode
(OpenAI, Anthropic, Mistral and Bedrock without strict mode; MCP) would change. ``SchemaFacts`` records,
in one scan of the schema, each fact the walker (``walker.py``) turns into a loss in some mode; ``quiet``
answers whether a mode's walk of that schema certainly records none. It errs one way only: "not quiet"
means "walk it", never "it has losses". ``tests/convert/test_shared_lowering.py`` holds it to the walker
on the real-world corpus and on random schemas.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import pointer as jp
from ..jsonvalue import copy_json
from ..losses import Loss
from ..mode_settings import INTEGER_BOUNDS
from ..schema.dialects import first_refusal
from ..schema.fast_meta import certainly_valid
from . import wording
from .accept import OPENAI_STRICT_SCHEMA
from .keywords import JSON_TYPES, KNOWN, ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP
from .lowered import Lowered
from .nodes import allows, kept_ref, no_arguments, type_names, with_null
from .profile_mode import Mode
from .wording import LossWording

#: Beyond these the scan stops and the schema is never quiet: far below the walker's own limits
#: (128 levels, 100,000 nodes), so the walker's budget losses cannot be missed.
_MAX_DEPTH = 64
_MAX_NODES = 20_000


@dataclass(frozen=True)
class SchemaFacts:
    """The facts of one schema that decide whether some mode's walk records a loss."""

    keywords: frozenset[str]     # every key of every schema node (not property names)
    unknown: bool                # a key the walker does not know and that is not an `x-` extension
    dirty_type: bool             # a `type` that is not a JSON Schema type name (`dict`, `List[str]`, `STRING`)
    type_list: bool              # `type` as a list
    draft4_exclusive: bool       # boolean `exclusiveMinimum`/`exclusiveMaximum`
    tuple_items: bool            # `items` as a list (draft-07 tuples)
    one_branch: bool             # `anyOf`, `oneOf` or `allOf` of one schema (read as that schema where lowered)
    array_without_items: bool    # an array type with neither `items` nor `prefixItems`
    closed_missing: bool         # `additionalProperties: false` with a required name not in `properties`
    foreign_refs: bool           # a `$ref` other than to the root or to one of the root's definitions
    root_typed: bool             # the root is an object with `type`
    plain_root: bool             # `type: "object"` and `properties` at the root, no root `$ref` or composition,
                                 # certainly valid JSON Schema, well within OpenAI strict's limits: what a fast
                                 # path's unjudged output needs
    root_composition: bool       # the root has `anyOf`, `oneOf` or `allOf`
    too_big: bool                # deeper or larger than the scan looks
    members: frozenset[str] = frozenset()  # the `enum` members a provider rule may forbid (`""`, `null`)
    untyped_enum: bool = False             # an `enum` on a node without `type`, or with a member its `type` refuses
    bounds: tuple[int, int] = (0, 0)       # the lowest and highest integer bound (``modes.INTEGER_BOUNDS``)


def scan(schema: Any) -> SchemaFacts:
    """One pass over ``schema``'s nodes (the positions the walker descends into, and a few more)."""
    census = _Census(schema)
    too_big = not census.visit_all()
    root = schema if isinstance(schema, dict) else {}
    plain = root.get("type") == "object" and isinstance(root.get("properties"), dict) and not any(
        k in root for k in ("$ref", "anyOf", "oneOf", "allOf")) and not too_big and census.small() \
        and certainly_valid(schema)
    return SchemaFacts(
        keywords=frozenset(census.keywords), root_typed=isinstance(schema, dict) and "type" in schema,
        plain_root=plain, root_composition=any(k in root for k in ("anyOf", "oneOf", "allOf")), too_big=too_big,
        members=frozenset(census.members), bounds=(census.low, census.high), **census.flags)


class _Census:
    """What ``scan`` counts and flags while it visits a schema's nodes."""

    __slots__ = ("big_enum", "chars", "deepest", "enum_total", "flags", "high", "keywords", "low", "members",
                 "props_total", "schema")

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        self.keywords: set[str] = set()
        self.flags = dict.fromkeys(("unknown", "dirty_type", "type_list", "draft4_exclusive", "tuple_items",
                                    "one_branch", "array_without_items", "closed_missing", "foreign_refs",
                                    "untyped_enum"), False)
        # Within OpenAI strict's limits (``accept.strict_sizes``), counted generously: nesting of any kind,
        # every property and enum value, the characters of names and values.
        self.deepest = self.props_total = self.enum_total = self.chars = 0
        self.big_enum = False
        self.members: set[str] = set()
        self.low = self.high = 0

    def small(self) -> bool:
        limits = OPENAI_STRICT_SCHEMA  # the judge's: a plain root's unjudged output must pass it
        return self.deepest < limits.depth and self.props_total <= limits.properties \
            and self.enum_total <= limits.enum_values and self.chars <= limits.total_string_length \
            and not self.big_enum

    def visit_all(self) -> bool:
        """Every node visited and counted; False when the schema is deeper or larger than the scan looks."""
        flags = self.flags
        count = 0
        stack: list[tuple[Any, int]] = [(self.schema, 0)]
        while stack:
            node, depth = stack.pop()
            count += 1
            if depth > _MAX_DEPTH or count > _MAX_NODES:
                return False
            if not isinstance(node, dict):
                continue
            self.keywords.update(node)
            self.deepest = max(self.deepest, depth)
            self.measure(node)
            for key, value in node.items():
                if key not in KNOWN and not key.startswith("x-"):
                    flags["unknown"] = True
                if key in ONE_SCHEMA or key == "additionalItems":
                    if isinstance(value, list):  # tuple `items` (and anything else listed there)
                        flags["tuple_items"] = True
                        stack.extend((v, depth + 1) for v in value)
                    else:
                        stack.append((value, depth + 1))
                elif key in SCHEMA_MAP:
                    if isinstance(value, dict):
                        stack.extend((v, depth + 1) for v in value.values())
                elif key in SCHEMA_LIST and isinstance(value, list):
                    stack.extend((v, depth + 1) for v in value)
            self.flag(node)
        return True

    def measure(self, node: dict[str, Any]) -> None:
        """The node's names and values counted towards OpenAI strict's size limits."""
        for key in ("properties", "$defs", "definitions"):
            names = node.get(key)
            if isinstance(names, dict):
                self.props_total += len(names)
                self.chars += sum(len(k) for k in names)
        values = node.get("enum")
        if isinstance(values, list):
            self.enum_total += len(values)
            self.big_enum = self.big_enum or len(values) > OPENAI_STRICT_SCHEMA.large_enum_threshold
            self.chars += sum(len(v) for v in values if isinstance(v, str))
            self.members.update(k for k, v in (("empty_string", ""), ("null", None)) if v in values)
        for key in INTEGER_BOUNDS.intersection(node):
            bound = node[key]
            if isinstance(bound, int) and not isinstance(bound, bool):
                self.low, self.high = min(self.low, bound), max(self.high, bound)
        if isinstance(node.get("const"), str):
            self.chars += len(node["const"])

    def flag(self, node: dict[str, Any]) -> None:
        """The facts about one node's own keywords: references, types, draft-04 forms, closed objects."""
        flags = self.flags
        if "$ref" in node and not _root_ref(self.schema, node["$ref"]):
            flags["foreign_refs"] = True
        t = node.get("type")
        if isinstance(t, list):
            flags["type_list"] = True
            if any(not isinstance(x, str) or x not in JSON_TYPES for x in t):
                flags["dirty_type"] = True
        elif t is not None and (not isinstance(t, str) or t not in JSON_TYPES):
            flags["dirty_type"] = True
        if any(isinstance(node.get(k), list) and len(node[k]) == 1 for k in ("anyOf", "oneOf", "allOf")):
            flags["one_branch"] = True
        if isinstance(node.get("exclusiveMinimum"), bool) or isinstance(node.get("exclusiveMaximum"), bool):
            flags["draft4_exclusive"] = True
        if (t == "array" or (isinstance(t, list) and "array" in t)) and "items" not in node \
                and "prefixItems" not in node:
            flags["array_without_items"] = True
        values = node.get("enum")
        if isinstance(values, list) and not _typed_enum(t, values):
            flags["untyped_enum"] = True
        if node.get("additionalProperties") is False and isinstance(node.get("required"), list):
            props = node.get("properties", {})
            if not isinstance(props, dict) or any(isinstance(r, str) and r not in props for r in node["required"]):
                flags["closed_missing"] = True


def _typed_enum(type_: Any, values: list[Any]) -> bool:
    """An `enum` beside a `type` of JSON Schema names that allows every member: one a provider's ``enum_type``
    rule leaves alone (any other, the walker's ``_typed_members`` or ``_infer_type`` may lower)."""
    names = type_names(type_)
    return names is not None and all(allows(names, v) for v in values)


def _root_ref(root: Any, ref: Any) -> bool:
    """``ref`` resolves and names the root or one of the root's definitions: a reference every mode that
    keeps references keeps as it is (the walker's own test, ``nodes.kept_ref``)."""
    if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")):
        return False
    return jp.resolve(root, ref[1:], None) is not None and kept_ref(root, ref)


def quiet(mode: Mode, facts: SchemaFacts) -> bool:
    """True only when lowering a schema with these facts in ``mode`` certainly records no loss."""
    return not mode.reshapes and _quiet_but_for_what_a_scan_follows(mode, facts) \
        and not _scanned_settings_act(mode, facts)


def unchanged(mode: Mode, facts: SchemaFacts, schema: Any) -> bool:
    """True only when lowering ``schema`` in ``mode`` certainly gives ``schema`` itself, key order included, so a
    caller that needs the output (the token counts) may skip the walk: a quiet mode changes nothing but moves the
    root's definitions after the rest (``walker.lower``)."""
    return quiet(mode, facts) and not (isinstance(schema, dict) and ("$defs" in schema or "definitions" in schema))


def _quiet_but_for_what_a_scan_follows(mode: Mode, facts: SchemaFacts) -> bool:
    """``quiet`` for ``mode`` with every setting ``scanned_lowering`` follows itself turned off (those that
    reshape a schema, and those ``_scanned_settings_act`` reads)."""
    # Not walked, the output is not judged (``accept``): only a plain, valid root may skip the walk.
    if facts.too_big or not facts.root_typed or not facts.plain_root:
        return False
    if provider_rules_act(mode, facts):
        return False
    used = facts.keywords
    if "$ref" in used and (facts.foreign_refs or mode.inlines_all() or not mode.ref_siblings):
        return False  # inlined (and reported), cut or dropped; only references kept as they are stay quiet
    if "$dynamicRef" in used:
        return False
    if facts.dirty_type or facts.draft4_exclusive or facts.tuple_items or facts.closed_missing or facts.one_branch \
            or "dependencies" in used:
        return False  # rewritten (and reported) in every mode, or refused in every mode
    if ("$defs" in used or "definitions" in used) and mode.inlines_all():
        return False
    checks = (("allOf", mode.all_of == "merge"), ("oneOf", mode.one_of == "anyOf"),
              ("const", mode.const == "enum"), ("minItems", mode.min_items_max is not None))
    if any(acts and key in used for key, acts in checks):
        return False
    if facts.array_without_items and mode.needs_items:
        return False
    return not (facts.root_composition and not mode.root_composition)


def provider_rules_act(mode: Mode, facts: SchemaFacts) -> bool:
    """Whether the provider's rules the walker follows (``Mode.forbidden_members``, ``Mode.integer_range``)
    may drop something of this schema: then it is walked."""
    if facts.members & set(mode.forbidden_members):
        return True
    if mode.enum_type is not None and facts.untyped_enum:
        return True
    bounds = mode.integer_range
    return bounds is not None and (facts.bounds[0] < bounds[0] or facts.bounds[1] > bounds[1])


def _scanned_settings_act(mode: Mode, facts: SchemaFacts) -> bool:
    """Whether a setting a scan can follow may record a loss for these facts: keywords the mode folds, drops
    or refuses by name, unknown keywords it drops, enums, formats and extra keys it does not take, type lists."""
    used = facts.keywords
    rules = mode.keywords
    if any(rules.get(key, "keep") != "keep" for key in used):
        return True
    if facts.unknown and mode.unknown_keywords == "drop":
        return True
    checks = (("enum", mode.enum != "any"), ("format", mode.formats is not None),
              ("additionalProperties", mode.additional_properties == "drop"), ("pattern", bool(mode.pattern_rules)))
    return any(acts and key in used for key, acts in checks) or (facts.type_list and mode.type_arrays == "nullable")


#: Keywords whose absence changes what the walker does next to them (an array's `items`, an object's members,
#: the type): a mode that folds or drops one of these is walked.
_SHAPING = frozenset({"type", "items", "prefixItems", "properties", "required", "additionalProperties", "$ref"})
#: The keywords a kept value of may still mean a loss or hold schemas to scan.
_LOOKED_AT = frozenset({"enum", "format", "additionalProperties", "pattern", *ONE_SCHEMA, *SCHEMA_MAP, *SCHEMA_LIST})


class _Walk(Exception):
    """The schema needs the walker after all (found during the scan)."""


def scanned_lowering(schema: Any, base: str, target: str, mode: Mode,
                     facts: SchemaFacts) -> Lowered | None:
    """The losses and round-trip record of lowering ``schema`` in ``mode`` without the walker, for schemas where
    all a walk would do is follow keywords the mode folds, drops or refuses by name (``keywords``), unknown
    keywords it drops, enums and formats it does not accept, and strict mode's closed objects and required
    members; None when the walk may do more (then it must be walked). The rest must be quiet: ``quiet``
    answers True for the mode with all of that turned off. Held to the walker like ``quiet``."""
    rules = mode.keywords
    # The scan follows every setting that reshapes a schema, but leaves every `anyOf` to the walker where
    # it must stand alone.
    if any(rules.get(k, "keep") != "keep" for k in _SHAPING & facts.keywords) \
            or (mode.any_of_alone and "anyOf" in facts.keywords):
        return None
    if not _quiet_but_for_what_a_scan_follows(mode, facts):
        return None
    scanned = _LossScan(target, mode)
    try:
        scanned.node(schema, base, is_root=True)
        for key in ("$defs", "definitions"):
            defs = schema.get(key) if isinstance(schema, dict) else None
            if isinstance(defs, dict):
                for name, item in defs.items():
                    scanned.node(item, jp.join(base, key, name))
    except _Walk:
        return None
    return scanned.lowered(schema)


class _LossScan:
    """One scanned lowering: the mode's settings it follows, read once, and the losses and round-trip record
    it finds (what the walker's ``Walk`` would hold). A class, not a closure: a closure that calls itself is a
    cycle only the collector frees, holding every loss until then (checks pause the collector)."""

    __slots__ = ("added", "cased", "closed", "drop_extra", "drop_unknown", "every", "found", "free_form",
                 "json_text", "mode", "nullable", "nullable_lists", "optional", "reshapes", "rules", "target", "typed")

    def __init__(self, target: str, mode: Mode) -> None:
        self.target, self.mode, self.rules = target, mode, mode.keywords
        self.closed, self.every, self.typed = mode.closed_objects, mode.all_required, mode.typed_nodes
        self.cased, self.free_form, self.reshapes = mode.type_case, mode.object_properties_nonempty, mode.reshapes
        self.drop_unknown = mode.unknown_keywords == "drop"
        self.drop_extra = mode.additional_properties == "drop"
        self.nullable_lists = mode.type_arrays == "nullable"
        self.found: dict[tuple[str, str], Loss] = {}
        self.optional: list[str] = []
        self.nullable: list[str] = []
        self.added: list[str] = []
        self.json_text: list[str] = []

    def loss(self, ptr: str, key: str, value: Any, said: LossWording, rule: str | None = None) -> None:
        self.found.setdefault((ptr, key), Loss(self.target, ptr, key, copy_json(value), *said, rule))

    def lowered(self, schema: Any) -> Lowered:
        record = {"optional": sorted(set(self.optional)), "nullable": sorted(set(self.nullable)),
                  "added": sorted(set(self.added)), "json_text": sorted(set(self.json_text))}
        return Lowered(schema, sorted(self.found.values(), key=lambda x: (x.pointer, x.keyword)),
                       {k: v for k, v in record.items() if v})

    def node(self, value: Any, ptr: str, is_root: bool = False) -> None:
        """One schema node: its own losses, its sub-schemas', then the structural rules' (``walker._after``)."""
        if not isinstance(value, dict):
            if self.reshapes:
                raise _Walk  # boolean schemas: closed and typed modes rewrite or refuse them
            return
        t = value.get("type")
        props = value.get("properties")
        if self.typed and t is None:
            raise _Walk  # a type to infer
        lowered_type = t
        if self.nullable_lists and isinstance(t, list):
            kinds = [k for k in t if k != "null"]
            if len(kinds) != 1:
                raise _Walk  # split into `anyOf` branches
            lowered_type = kinds[0]
            self.loss(jp.join(ptr, "type"), "type", t, wording.type_list_said(self.target))
        req = value.get("required")
        if (self.closed or self.typed) and isinstance(req, list) and any(
                isinstance(r, str) and r not in (props if isinstance(props, dict) else {}) for r in req):
            raise _Walk  # a required name to declare (or an object that accepts nothing)
        self.keywords(value, ptr, t)
        is_object = t == "object" or (isinstance(t, list) and "object" in t) or "properties" in value
        if is_object and self.closed:
            props = self.closed_object(value, ptr, props, is_root)
        if is_object and self.every and isinstance(props, dict):
            self.every_member_required(value, ptr, props, req)
        if self.free_form and lowered_type == "object" and not props and not is_root:
            self.json_text.append(ptr)
            self.loss(jp.join(ptr, "type"), "type", "object", wording.json_text_said(self.target))

    def keywords(self, value: dict[str, Any], ptr: str, t: Any) -> None:
        """The node's keywords the mode folds, drops or refuses, and its sub-schemas scanned."""
        target, mode = self.target, self.mode
        for key, sub in value.items():
            if key in ("$defs", "definitions", "additionalItems"):
                # The root's definitions are lowered on their own below, nested ones are left out unwalked;
                # `additionalItems` without tuple `items` means nothing and is left out unreported.
                continue
            action = self.rules.get(key, "keep")
            if self.drop_unknown and key not in KNOWN and (self.cased or not key.startswith("x-")):
                action = "drop"
            if action == "keep" and key not in _LOOKED_AT:
                continue  # kept as it is: no pointer to build
            kptr = jp.join(ptr, key)
            if action in ("fold", "drop", "reject"):
                self.loss(kptr, key, sub, wording.fate_said(key, action, target))
            elif key == "enum" and mode.enum_refused(sub, value):
                self.loss(kptr, key, sub, wording.enum_said(mode, target))
            elif key == "format" and isinstance(sub, str) and not mode.format_ok(sub, t):
                self.loss(kptr, key, sub, wording.format_said(sub, target))
            elif key == "pattern":
                refusal = first_refusal(sub, mode.pattern_rules) if mode.pattern_rules and isinstance(sub, str) \
                    else None
                if refusal is not None:
                    self.loss(kptr, key, sub, wording.pattern_said(refusal[1], refusal[2], target), refusal[0])
            elif key == "additionalProperties" and self.drop_extra:
                self.loss(kptr, key, sub, wording.extra_dropped_said(sub, target))
            elif key == "additionalProperties" and self.closed and sub is not False:
                self.loss(kptr, key, sub, wording.map_closed_said(target))
            elif key == "additionalProperties":
                if isinstance(sub, dict):
                    self.node(sub, kptr)
            elif key in ONE_SCHEMA:
                self.node(sub, kptr)
            elif key in SCHEMA_MAP and isinstance(sub, dict):
                for name, item in sub.items():
                    self.node(item, jp.join(kptr, name))
            elif key in SCHEMA_LIST and isinstance(sub, list):
                for i, item in enumerate(sub):
                    self.node(item, jp.join(kptr, i))

    def closed_object(self, value: dict[str, Any], ptr: str, props: Any, is_root: bool) -> Any:
        """Strict mode's closing of an object: the keywords it adds recorded; the properties it then has."""
        if "properties" not in value:
            self.added.append(jp.join(ptr, "properties"))
            props = {}
        if "additionalProperties" not in value:
            self.added.append(jp.join(ptr, "additionalProperties"))
            if not no_arguments(value, is_root):
                self.loss(jp.join(ptr, "additionalProperties"), "additionalProperties", None,
                          wording.closed_said(self.target))
        return props

    def every_member_required(self, value: dict[str, Any], ptr: str, props: dict[str, Any], req: Any) -> None:
        """Strict mode's required members: each optional one made required (and nullable) and recorded."""
        required = [r for r in req if isinstance(r, str)] if isinstance(req, list) else []
        for name, sub in props.items():
            if name in required:
                continue
            pptr = jp.join(ptr, "properties", name)
            # The walker asks `with_null` of the member as lowered; what it reads of it (type, enum, const:
            # no `anyOf` or `$ref` here) is the same in the original for the modes that make members required.
            already = with_null(sub) == sub
            required.append(name)
            self.optional.append(pptr)
            if not already:
                self.nullable.append(pptr)
            self.loss(pptr, "required", name, wording.required_said(name, already, self.target))
        if "required" not in value:
            self.added.append(jp.join(ptr, "required"))
