"""One schema walker for every target: the capability profile's mode says what to keep, lower, fold,
drop or reject, and every change is recorded as a ``Loss``.

Folded keywords are appended to the schema's ``description`` in one format, readable by a model and
by a program alike::

    <description> (constraints: {"minLength": 1, "maxLength": 5})

i.e. the text ``" (constraints: "`` followed by a JSON object of the folded keywords (values as JSON,
keys in schema order) and ``")"``.

The walker has a shadow: ``facts.py`` scans a schema once for every fact this walk turns into a loss, so the
checks can skip the walk of a mode that certainly loses nothing (and ``scanned_lowering`` rebuilds the losses of
the simple cases without walking). A new loss here, or a changed condition for one, must be mirrored there;
``tests/convert/test_shared_lowering.py`` fails, naming the mode, until it is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import pointer as jp
from ..jsonvalue import copy_json
from ..losses import Action, Effect, Loss
from ..schema.dialects import first_refusal
from .keywords import ANNOTATIONS, JSON_TYPES, KNOWN, ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP
from .lowered import Lowered
from .nodes import allows, is_null, json_type, kept_ref, no_arguments, type_names, with_null
from .profile_mode import Mode, as_mode
from .wording import (
    bound_said,
    closed_said,
    emptied_branch_said,
    enum_said,
    extra_dropped_said,
    fate_said,
    format_said,
    json_text_said,
    map_closed_said,
    member_said,
    members_said,
    never_branch_said,
    off_type_member_said,
    off_type_members_said,
    pattern_said,
    required_said,
    type_list_said,
    untyped_enum_said,
)

MAX_DEPTH = 128
MAX_NODES = 100_000


class _Budget(Exception):
    pass


@dataclass
class Walk:
    """State of one lowering: the target and mode, the root for ``$ref`` resolution, and the results."""

    target: str
    mode: Mode
    root: Any
    losses: dict[tuple[str, str], Loss] = field(default_factory=dict)
    nullable: list[str] = field(default_factory=list)
    optional: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    json_text: list[str] = field(default_factory=list)
    nodes: int = 0
    active_refs: list[str] = field(default_factory=list)
    #: Properties toolcast declared to repair a `required` name the author did not declare: what lowering
    #: them changes is part of that repair's loss, not a loss of its own (one mistake, one finding).
    repaired: list[str] = field(default_factory=list)
    #: An older draft's form was rewritten in 2020-12's: a root `$schema` naming that draft no longer fits.
    drafts_rewritten: bool = False

    def loss(self, pointer: str, keyword: str, value: Any, action: Action, effect: Effect, message: str,
             rule: str | None = None) -> None:
        if action != Action.REJECTED and any(pointer == r or pointer.startswith(r + "/") for r in self.repaired):
            return
        key = (pointer, keyword)
        if key not in self.losses:
            self.losses[key] = Loss(self.target, pointer, keyword, copy_json(value), action, effect, message, rule)


def lower(schema: Any, base: str, target: str, mode: Mode | Mapping[str, Any]) -> Lowered:
    """Lower ``schema`` (found at canonical pointer ``base``) for ``target`` in ``mode`` (a ``Mode``, or a
    profile mode's settings as JSON): the new schema, the losses and the round-trip record (``Lowered``)."""
    mode = as_mode(mode)
    walk = Walk(target, mode, schema)
    try:
        out = _node(walk, _root_object(walk, _inline_root_ref(walk, schema, base), base), base, 0, is_root=True)
        if isinstance(schema, dict) and isinstance(out, dict):
            for key in ("$defs", "definitions"):
                if not isinstance(schema.get(key), dict):
                    continue
                if mode.inlines_all():
                    walk.loss(jp.join(base, key), key, schema[key], Action.LOWERED, Effect.NEUTRAL,
                              f"definitions are inlined where they are used for {target}")
                else:
                    out[key] = {k: _node(walk, v, jp.join(base, key, k), 1) for k, v in schema[key].items()}
    except _Budget as exc:
        # The output of a rejected schema is a placeholder: it must not be sent (``ok`` is False), and a
        # copy of a 10,000-deep original would only move the RecursionError into the envelopes or json.dumps.
        walk.loss(base, "", None, Action.REJECTED, Effect.UNSATISFIABLE, str(exc))
        out = {}
    except RecursionError:  # defence in depth: MAX_DEPTH keeps us far below the interpreter limit
        walk.loss(base, "", None, Action.REJECTED, Effect.UNSATISFIABLE, "schema too deeply nested")
        out = {}
    _declare_2020_12(walk, out, base)
    losses = sorted(walk.losses.values(), key=lambda x: (x.pointer, x.keyword))
    record = {"optional": sorted(set(walk.optional)), "nullable": sorted(set(walk.nullable)),
              "added": sorted(set(walk.added)), "json_text": sorted(set(walk.json_text))}
    return Lowered(out, losses, {k: v for k, v in record.items() if v})


def _node(w: Walk, schema: Any, ptr: str, depth: int, is_root: bool = False) -> Any:
    """One schema node lowered: brought to the form the mode's rules read, each keyword kept, lowered or
    folded by the mode, then the mode's structural rules applied to the result."""
    w.nodes += 1
    if w.nodes > MAX_NODES:
        raise _Budget(f"schema has more than {MAX_NODES:,} nodes; toolcast does not convert it")
    if depth > MAX_DEPTH:
        raise _Budget(f"schema nested deeper than {MAX_DEPTH} levels; toolcast does not convert it")
    if isinstance(schema, bool):
        return _boolean_schema(w, schema, ptr, depth)
    if not isinstance(schema, dict):
        return copy_json(schema)
    schema = _prepared(w, schema, ptr, depth, is_root)
    out: dict[str, Any] = {}
    folded: dict[str, Any] = {}
    mode = w.mode
    rules = mode.keywords
    for key, value in schema.items():
        kptr = jp.join(ptr, key)
        action = rules.get(key, "keep")
        if key not in KNOWN and (not key.startswith("x-") or mode.type_case):
            # Gemini's Schema is a closed message: even `x-` extensions are unknown fields there
            action = "drop" if mode.unknown_keywords == "drop" else action
        if key in ("$defs", "definitions"):
            continue  # kept at the root by `lower` where refs are kept; otherwise inlined where used
        if action in ("fold", "drop", "reject"):
            if action == "fold":
                folded[key] = value
            w.loss(kptr, key, value, *fate_said(key, action, w.target))
            continue
        if key == "pattern" and mode.pattern_rules and isinstance(value, str):
            refusal = first_refusal(value, mode.pattern_rules)
            if refusal is not None:
                folded[key] = value
                w.loss(kptr, key, value, *pattern_said(refusal[1], refusal[2], w.target), rule=refusal[0])
                continue
        out[key] = _keyword(w, key, value, schema, kptr, depth, out, folded)
    out = {k: v for k, v in out.items() if v is not _DROP}
    return _finished(w, schema, out, folded, ptr, is_root)


def _allowed_members(w: Walk, values: list[Any], kptr: str, places: list[int] | None = None) -> list[Any]:
    """An `enum` without the members the target rejects (``Mode.forbidden_members``), each reported at its
    place (``places``: each value's index as written, when some were left out before); an `enum` of nothing
    else cannot be sent."""
    kept = []
    for i, value in enumerate(values):
        why = w.mode.forbids(value)
        if why is None:
            kept.append(copy_json(value))
        else:
            w.loss(jp.join(kptr, places[i] if places else i), "enum", value, *member_said(value, why, w.target))
    if not kept:
        w.loss(kptr, "enum", values, *members_said(w.target))
    return kept


def _typed_members(w: Walk, values: list[Any], type_: Any, kptr: str) -> tuple[list[Any], list[int]]:
    """The `enum` members the node's `type` allows, and their indices as written, where the provider rejects
    the others (``Mode.enum_type``): such a member could never be sent, so leaving it out is neutral. With none
    left the node accepts nothing: the `enum` is folded (a branch of a union is left out by ``_without_emptied``)."""
    rule = w.mode.enum_type
    kinds = type_names(type_)
    if rule is None or kinds is None:
        return values, list(range(len(values)))
    places = [i for i, v in enumerate(values) if allows(kinds, v)]
    if len(places) == len(values) or (places and w.mode.enum_refused([values[i] for i in places], {"type": type_})):
        # Nothing to leave out, or the `enum` is folded whole anyway: as the mode folds it without this rule
        return values, list(range(len(values)))
    if not places:
        w.loss(kptr, "enum", values, *off_type_members_said(type_, rule[1], w.target), rule=rule[0])
        return [], []
    allowed = set(places)
    for i, value in enumerate(values):
        if i not in allowed:
            w.loss(jp.join(kptr, i), "enum", value, *off_type_member_said(value, type_, rule[1], w.target),
                   rule=rule[0])
    return [values[i] for i in places], places


def _without_emptied(w: Walk, value: list[Any], branches: list[Any], kptr: str) -> list[Any]:
    """The branches of an ``anyOf``/``oneOf`` less those whose `enum` held only members the target rejects
    (anomalyco/opencode#46676: `link.any_of[0].enum[0]: cannot be empty`): such a branch stood for values that
    cannot be sent, so it is left out (narrowing) instead of refusing the tool, unless no branch but null is left;
    and, under the provider's ``Mode.enum_type`` rule, those whose `type` refuses every member of their `enum`,
    which never matched (neutral)."""
    places = [jp.join(kptr, i) for i, v in enumerate(value) if v is not _NEVER]
    found = [w.losses.get((jp.join(place, "enum"), "enum")) or _NO_LOSS for place in places]
    emptied = {i for i, b in enumerate(branches)
               if isinstance(b, dict) and b.get("enum") == [] and found[i].action == Action.REJECTED}
    # A branch whose `type` refuses every member of its `enum` (``_typed_members`` folded it) matched nothing
    # as written: leaving it out changes nothing, whatever is left beside it.
    rule = w.mode.enum_type
    never = {i for i in range(len(branches))
             if rule is not None and found[i].rule == rule[0] and found[i].action == Action.FOLDED}
    emptied |= never
    left = [b for i, b in enumerate(branches) if i not in emptied]
    if not emptied or not left or (emptied - never and all(is_null(b) for b in left)):
        return branches  # nothing (but null) would be left: the `enum`'s own refusal stands
    for i in sorted(emptied):
        where = jp.join(places[i], "enum")
        if rule is not None and i in never:
            said, cited = never_branch_said(branches[i].get("type"), rule[1], w.target), rule[0]
        else:
            said, cited = emptied_branch_said(w.target), None
        w.losses[(where, "enum")] = Loss(w.target, where, "enum", w.losses[(where, "enum")].value, *said, cited)
    return left


_NO_LOSS = Loss("", "", "", None, Action.LOWERED, Effect.NEUTRAL, "")


def _boolean_schema(w: Walk, schema: bool, ptr: str, depth: int) -> Any:
    """``true``/``false`` as a schema: kept, except where the mode reshapes schemas (objects and types on every
    node): there they are what they mean, ``{}`` and ``{"not": {}}``, lowered like those (same output, same
    losses as the author writing them so)."""
    if _needs_objects(w.mode):
        return _node(w, {} if schema else {"not": {}}, ptr, depth)
    return schema


def _root_ref_merged(w: Walk, schema: dict[str, Any], ptr: str) -> dict[str, Any]:
    """A root that a merged ``allOf`` left as a ``$ref`` with siblings: the definition merged in, so the root is
    an object of its own (a target that refuses a root composition takes no root reference beside keywords)."""
    target = _written(w, {"$ref": schema["$ref"]})
    if not isinstance(target, dict) or "$ref" in target:
        return schema
    w.loss(jp.join(ptr, "$ref"), "$ref", schema["$ref"], Action.LOWERED, Effect.NEUTRAL,
           f"the root `$ref` {schema['$ref']} is replaced by its definition")
    rest = {k: v for k, v in schema.items() if k != "$ref"}
    return _merge_all_of(w, {**rest, "allOf": [target]}, ptr)


def _needs_objects(mode: Mode) -> bool:
    """A mode whose every schema must be an object of its own keywords (Gemini's Schema, strict modes' closed
    objects): booleans and one-branch compositions are read as what they mean there."""
    return mode.type_case or mode.closed_objects


def _prepared(w: Walk, schema: dict[str, Any], ptr: str, depth: int, is_root: bool) -> dict[str, Any]:
    """The node in the form the keyword rules read: its ``$ref`` inlined where the mode wants it, written in
    2020-12 terms, ``allOf`` merged, and the rewrites modes that need a type on every node make first."""
    mode = w.mode
    root_refused = is_root and not mode.root_composition
    if _needs_objects(mode) or root_refused:
        schema = _one_branch(w, schema, ptr)
    schema = _resolve_ref(w, schema, ptr, depth)
    schema = _modernise(w, schema, ptr)
    if "allOf" in schema and (mode.all_of == "merge" or root_refused):
        schema = _merge_all_of(w, schema, ptr)
        if "$ref" in schema and root_refused:
            schema = _root_ref_merged(w, schema, ptr)
        if "$ref" in schema:  # `allOf: [{$ref}]` + siblings (pydantic v1) is now a `$ref` with siblings
            schema = _resolve_ref(w, schema, ptr, depth)
    if mode.any_of_alone:
        schema = _split_types(w, schema, ptr)
    if mode.typed_nodes:
        schema = _distribute(w, schema, ptr)
    if mode.closed_objects or mode.typed_nodes:
        schema = _declare_required(w, schema, ptr)
    return schema


def _one_branch(w: Walk, schema: dict[str, Any], ptr: str) -> dict[str, Any]:
    """``anyOf``/``oneOf``/``allOf`` of one schema is that schema, beside the node's other keywords: read so
    wherever a composition would be lowered or refused, an input is converted as its branch written alone
    is. Left as it is when the branch and the node disagree on a keyword (the merge rules decide then) or the
    branch is a ``$ref`` (the reference rules decide)."""
    for key in ("anyOf", "oneOf", "allOf"):
        branches = schema.get(key)
        if not isinstance(branches, list) or len(branches) != 1:
            continue
        branch = {} if branches[0] is True else {"not": {}} if branches[0] is False else branches[0]
        if not isinstance(branch, dict) or "$ref" in branch:
            continue
        rest = {k: v for k, v in schema.items() if k != key}
        if any(k in rest and rest[k] != v and k not in ANNOTATIONS for k, v in branch.items()):
            continue
        w.loss(jp.join(ptr, key), key, branches, Action.LOWERED, Effect.NEUTRAL,
               f"`{key}` of one schema is that schema")
        schema = {**branch, **rest}  # the node's own annotations describe the parameter
    return schema


def _finished(w: Walk, schema: dict[str, Any], out: dict[str, Any], folded: dict[str, Any], ptr: str,
              is_root: bool) -> dict[str, Any]:
    """The node's lowered keywords with the mode's structural rules applied and the folded ones stated."""
    mode = w.mode
    if mode.typed_nodes:
        _infer_type(w, out, folded, ptr, "enum" in schema)
    _after(w, schema, out, folded, ptr, is_root)
    if folded:
        _state_folded(w, out, folded)
    if mode.typed_nodes and not _typed(out):
        _any_value(w, out, ptr)
    if mode.object_properties_nonempty and out.get("type") == "object" and not out.get("properties") \
            and not is_root:
        out = _json_text(w, out, ptr)
    if mode.any_of_alone and isinstance(out.get("anyOf"), list) and (
            len(out) > 1 or any(is_null(b) for b in out["anyOf"])):
        out = _alone(w, out, ptr)
    return out


def _state_folded(w: Walk, out: dict[str, Any], folded: dict[str, Any]) -> None:
    """The folded keywords appended to the description, in the one format (module docstring)."""
    if w.mode.type_case and "type" not in out and "anyOf" not in out:
        # Gemini needs a type on every node: the folded values' own type is implied by the original.
        kinds = {json_type(v) for v in folded.get("enum", []) + ([folded["const"]] if "const" in folded else [])}
        if len(kinds) == 1:
            out["type"] = kinds.pop()
    text = json.dumps(folded, ensure_ascii=False, separators=(", ", ": "))
    base = out.get("description")
    out["description"] = (base + " " if isinstance(base, str) and base else "") + f"(constraints: {text})"


_DROP = object()
#: A branch ``_distribute`` found can never match: walked past, so it is left out of the output while the
#: branches after it keep their pointers. It means "nothing" should it ever be read (never mutated).
_NEVER: dict[str, Any] = {"not": {}}


def _keyword(w: Walk, key: str, value: Any, schema: dict[str, Any], kptr: str, depth: int,
             out: dict[str, Any], folded: dict[str, Any]) -> Any:
    mode = w.mode
    if key in ONE_SCHEMA and key != "additionalProperties":
        if key == "items" and isinstance(value, list):  # draft-07 tuple form
            return [_node(w, v, jp.join(kptr, i), depth + 1) for i, v in enumerate(value)]
        return _node(w, value, kptr, depth + 1)
    if key in SCHEMA_MAP:
        if not isinstance(value, dict):
            return copy_json(value)  # not valid JSON Schema: the output's judge refuses it for every target
        return {k: _node(w, v, jp.join(kptr, k), depth + 1) for k, v in value.items()}
    if key in SCHEMA_LIST:
        return _schema_list(w, key, value, kptr, depth, out)
    if key == "additionalProperties":
        return _additional(w, value, kptr, depth)
    if key == "const" and mode.const == "enum":
        if "enum" in schema:
            return copy_json(value)
        if mode.enum_ok([value]) and mode.forbids(value) is None:
            w.loss(kptr, key, value, Action.LOWERED, Effect.NEUTRAL,
                   f"`const` becomes a one-value `enum` for {w.target}")
            out["enum"] = [copy_json(value)]
            return _DROP
        folded["const"] = value
        w.loss(kptr, key, value, Action.FOLDED, Effect.WIDENING,
               f"{w.target} cannot express this constant; stated in the description instead")
        return _DROP
    places = None
    if key == "enum" and mode.enum_type is not None and isinstance(value, list):
        written, (value, places) = value, _typed_members(w, value, schema.get("type"), kptr)
        if not value:  # stated in the description; a branch of a union is left out (``_without_emptied``)
            folded["enum"] = written
            return _DROP
    if key == "enum" and mode.enum_refused(value, schema):
        folded["enum"] = value
        w.loss(kptr, key, value, *enum_said(mode, w.target))
        return _DROP
    if key == "enum" and mode.forbidden_members and isinstance(value, list):
        return _allowed_members(w, value, kptr, places)
    if mode.bound_refused(key, value):
        w.loss(kptr, key, value, *bound_said(key, value, (mode.integer_range or (0, 0, ""))[2], w.target))
        return _DROP
    if key == "format" and isinstance(value, str) and not mode.format_ok(value, schema.get("type")):
        folded["format"] = value
        w.loss(kptr, key, value, *format_said(value, w.target))
        return _DROP
    if key == "minItems" and mode.min_items_max is not None and isinstance(value, int) \
            and value > mode.min_items_max:
        folded["minItems"] = value
        w.loss(kptr, key, value, Action.FOLDED, Effect.WIDENING,
               f"{w.target} strict mode only enforces minItems 0 or 1; stated in the description instead")
        return _DROP
    if key == "type":
        return _type(w, value, kptr, out)
    return copy_json(value)


def _schema_list(w: Walk, key: str, value: Any, kptr: str, depth: int, out: dict[str, Any]) -> Any:
    """An ``allOf``/``anyOf``/``oneOf``: each branch lowered, the branches that can never match left out, and
    ``oneOf`` joined to ``anyOf`` where the mode has no ``oneOf``."""
    mode = w.mode
    if not isinstance(value, list):
        return copy_json(value)  # not valid JSON Schema: the output's judge refuses it for every target
    branches = [_node(w, v, jp.join(kptr, i), depth + 1) for i, v in enumerate(value) if v is not _NEVER]
    if key in ("anyOf", "oneOf") and (mode.forbidden_members or mode.enum_type is not None):
        branches = _without_emptied(w, value, branches, kptr)
    if key == "oneOf" and mode.one_of == "anyOf":
        w.loss(kptr, key, value, Action.LOWERED, Effect.WIDENING,
               f"`oneOf` becomes `anyOf` for {w.target}: \"exactly one\" is no longer enforced")
        out.setdefault("anyOf", [])
        out["anyOf"] = [*out["anyOf"], *branches] if isinstance(out["anyOf"], list) else branches
        return _DROP
    return branches


def _additional(w: Walk, value: Any, kptr: str, depth: int) -> Any:
    mode = w.mode
    if mode.additional_properties == "drop":
        w.loss(kptr, "additionalProperties", value, *extra_dropped_said(value, w.target))
        return _DROP
    if mode.closed_objects and value is not False:
        w.loss(kptr, "additionalProperties", value, *map_closed_said(w.target))
        return False
    if isinstance(value, dict):
        return _node(w, value, kptr, depth + 1)
    return copy_json(value)


def _type(w: Walk, value: Any, kptr: str, out: dict[str, Any]) -> Any:
    if w.mode.type_arrays == "nullable" and isinstance(value, list):
        kinds = [t for t in value if t != "null"]
        if "null" in value:
            if len(kinds) == 1:
                out["type"] = kinds[0]  # `type` before `nullable`, as a schema without the list has it
            out["nullable"] = True
        if len(kinds) == 1:
            w.loss(kptr, "type", value, *type_list_said(w.target))
            return kinds[0]
        w.loss(kptr, "type", value, Action.LOWERED, Effect.NEUTRAL, f"type list becomes `anyOf` for {w.target}")
        out["anyOf"] = [{"type": t} for t in kinds]
        return _DROP
    return copy_json(value)


def _resolve_ref(w: Walk, schema: dict[str, Any], ptr: str, depth: int) -> dict[str, Any]:
    """Inline ``$ref`` where the mode wants it (always, or when it has sibling keywords)."""
    ref = schema.get("$ref")
    if not isinstance(ref, str):
        return schema
    siblings = {k: v for k, v in schema.items() if k != "$ref"}
    inline = w.mode.inlines_all() or (siblings and not w.mode.ref_siblings
                                                 and not all(k.startswith("$") for k in siblings))
    if not ref.startswith("#"):
        w.loss(jp.join(ptr, "$ref"), "$ref", ref, Action.DROPPED, Effect.WIDENING,
               "remote `$ref` is never fetched; any value is accepted in its place")
        return siblings
    target = jp.resolve(w.root, ref[1:], None) if ref[1:] == "" or ref[1:].startswith("/") else None
    if not inline and target is not None and kept_ref(w.root, ref):
        return schema
    if target is None:
        w.loss(jp.join(ptr, "$ref"), "$ref", ref, Action.DROPPED, Effect.WIDENING,
               f"`$ref` {ref} does not resolve inside the schema; any value is accepted in its place")
        return siblings
    if ref in w.active_refs:
        w.loss(jp.join(ptr, "$ref"), "$ref", ref, Action.DROPPED, Effect.WIDENING,
               f"recursive `$ref` {ref} cannot be inlined for {w.target}; the recursion is cut here")
        return siblings
    w.active_refs.append(ref)
    try:
        resolved = _node(w, target, _ref_pointer(ptr, ref), depth + 1)
    finally:
        w.active_refs.pop()
    if not isinstance(resolved, dict):
        resolved = {} if resolved is True else {"not": {}}
    merged = dict(resolved)
    for k, v in siblings.items():
        if k in merged and merged[k] != v and k not in ANNOTATIONS:
            merged = {"allOf": [resolved, siblings]} if w.mode.all_of != "merge" else \
                _merge_all_of(w, {"allOf": [resolved, siblings]}, ptr, sources=[target, siblings])
            break
        merged[k] = v
    w.loss(jp.join(ptr, "$ref"), "$ref", ref, Action.LOWERED, Effect.NEUTRAL,
           f"`$ref` {ref} is inlined for {w.target}")
    return merged


def _inline_root_ref(w: Walk, schema: Any, base: str) -> Any:
    """A root that is only a ``$ref`` into its own ``$defs`` (pydantic's recursive models): the
    definition is copied to the root, so that the root is an object as every target requires."""
    schema = _root_all_of_ref(w, schema, base)
    if not isinstance(schema, dict) or not isinstance(schema.get("$ref"), str) or "type" in schema:
        return schema
    ref = schema["$ref"]
    target = jp.resolve(schema, ref[1:], None) if ref.startswith("#/") else None
    if not isinstance(target, dict) or "$ref" in target:
        return schema
    w.loss(jp.join(base, "$ref"), "$ref", ref, Action.LOWERED, Effect.NEUTRAL,
           f"the root `$ref` {ref} is replaced by its definition")
    rest = {k: v for k, v in schema.items() if k != "$ref"}
    return {**copy_json(target), **{k: v for k, v in rest.items() if k not in target or k in ("$defs", "definitions")}}


def _root_all_of_ref(w: Walk, schema: Any, base: str) -> Any:
    """A root that is only ``allOf`` of one ``$ref`` (and definitions and annotations) is that ``$ref``: read
    so, every target gets the definition as its root, recursive or not, instead of some refusing the root
    ``allOf`` and others keeping a root ``$ref``."""
    branches = schema.get("allOf") if isinstance(schema, dict) else None
    if not isinstance(branches, list) or "$ref" in schema or len(branches) != 1 or not isinstance(branches[0], dict) \
            or set(branches[0]) != {"$ref"} or set(schema) - {"allOf", "$defs", "definitions"} - ANNOTATIONS:
        return schema
    w.loss(jp.join(base, "allOf"), "allOf", branches, Action.LOWERED, Effect.NEUTRAL,
           "the root `allOf` of one `$ref` is that `$ref`")
    return {**{k: v for k, v in schema.items() if k != "allOf"}, "$ref": branches[0]["$ref"]}


def _ref_pointer(ptr: str, ref: str) -> str:
    """Losses inside an inlined definition are reported at the definition (``/parameters/$defs/x``)."""
    base = ptr.split("/")
    root = "/".join(base[:2]) if len(base) > 1 else ""
    return root + ref[1:]


def _merge_all_of(w: Walk, schema: dict[str, Any], ptr: str, sources: list[Any] | None = None) -> dict[str, Any]:
    """Merge ``allOf`` branches into one schema, or refuse when the merge would change meaning.
    ``sources``: the branches as written, when ``schema``'s are already lowered (strict mode closes
    every object it lowers; only a closure the author wrote limits the merged keys)."""
    branches = schema.get("allOf")
    if not isinstance(branches, list):
        return schema
    merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
    if isinstance(merged.get("properties"), dict):
        merged["properties"] = dict(merged["properties"])  # merged into below: the input stays as it is
    if isinstance(merged.get("required"), list):
        merged["required"] = list(merged["required"])
    # what each part lets through besides the properties it lists (None: open)
    closures = [_closure(merged, merged.get("properties"), merged)]
    kptr = jp.join(ptr, "allOf")
    for i, raw in enumerate(branches):
        branch = _resolve_ref(w, raw, jp.join(kptr, i), 0) if isinstance(raw, dict) else raw
        if isinstance(branch, dict) and isinstance(branch.get("allOf"), list):
            branch = _merge_all_of(w, branch, jp.join(kptr, i))  # allOf inside allOf: merged at every depth
        if branch is True or branch == {}:
            continue
        if not isinstance(branch, dict):
            w.loss(kptr, "allOf", branches, Action.REJECTED, Effect.UNSATISFIABLE,
                   "`allOf` with a `false` branch accepts nothing")
            return merged
        written = _written(w, sources[i] if sources is not None and i < len(sources) else raw)
        # a `$ref` kept as it is (OpenAI keeps `$defs`) lists the names of what it points at
        closures.append(_closure(written, branch.get("properties", written.get("properties")
                                                     if isinstance(written, dict) else None), branch))
        clash = _merge_branch(merged, branch, written, any(closures))
        if clash is not None:
            w.loss(jp.join(kptr, i, clash), "allOf", branches, Action.REJECTED, Effect.UNSATISFIABLE,
                   f"`allOf` branches disagree on `{clash}` and {w.target} has no `allOf`: "
                   "toolcast will not emit a schema that means something else")
            return merged
    _limit_to_closures(w, merged, closures, kptr, branches)
    return merged


def _merge_branch(merged: dict[str, Any], branch: dict[str, Any], written: Any, closed: bool) -> str | None:
    """``branch``'s keywords merged into ``merged``; the keyword on which they disagree (the merge stops
    there), or None. ``closed``: some part limits the keys, so ``additionalProperties`` is decided later."""
    for key, value in branch.items():
        if key == "additionalProperties" and closed:
            continue  # decided by `_limit_to_closures`, from what each part lets through
        # Merged member by member only when both sides have the valid type; otherwise they are
        # compared as a whole below (an invalid schema is refused, never a crash).
        if key == "properties" and isinstance(value, dict) and isinstance(merged.get(key, {}), dict):
            props = merged.setdefault("properties", {})
            for name, sub in value.items():
                if name in props and props[name] != sub:
                    props[name] = {"allOf": [props[name], sub]}
                else:
                    props[name] = sub
        elif key == "required" and isinstance(value, list) and isinstance(merged.get(key, []), list):
            if isinstance(written, dict) and written is not branch:
                # as written: strict mode requires every member of the branch it lowered
                value = written.get("required", []) if isinstance(written.get("required", []), list) else value
            req = merged.setdefault("required", [])
            req.extend(r for r in value if r not in req)
        elif key in ("description", "title"):
            merged.setdefault(key, value)
        elif key == "type" and "type" in merged and (both := _shared_type(merged[key], value)) not in (None, []):
            merged[key] = both  # both hold: the types they have in common
        elif key not in merged or merged[key] == value:
            merged[key] = value
        else:
            return key
    return None


def _limit_to_closures(w: Walk, merged: dict[str, Any], closures: list[_Closure | None], kptr: str,
                       branches: list[Any]) -> None:
    """The merged object limited to what every closed part lets through, and the merge's loss said."""
    forbidden = _intersect(merged, [c for c in closures if c is not None])
    if forbidden is None:
        w.loss(kptr, "allOf", branches, Action.LOWERED, Effect.WIDENING,
               f"`allOf` branches merged into one schema for {w.target}: closed branches with "
               "`patternProperties` are merged as a union, so keys a branch forbids may be sent")
        return
    req = merged.get("required")
    blocked = [r for r in req if r in forbidden] if isinstance(req, list) else []
    if blocked:
        w.loss(kptr, "allOf", branches, Action.REJECTED, Effect.UNSATISFIABLE,
               f"`allOf` requires {', '.join(f'`{b}`' for b in blocked)}, which a closed branch does not list: "
               "it accepts nothing")
        return
    note = (f" (closed branches let through only the keys they all list: {', '.join(f'`{f}`' for f in forbidden)} "
            "can never be sent)") if forbidden else ""
    w.loss(kptr, "allOf", branches, Action.LOWERED, Effect.NEUTRAL,
           f"`allOf` branches merged into one schema for {w.target}{note}")


#: A part of an ``allOf`` that limits the keys of the merged object: the names it lists, what it lets
#: through besides them (``False`` or a schema for ``additionalProperties``), its ``patternProperties``.
_Closure = tuple[frozenset[str], Any, Any]


def _written(w: Walk, raw: Any) -> Any:
    """A branch as the author wrote it: its local ``$ref`` followed in the original schema."""
    for _ in range(32):
        ref = raw.get("$ref") if isinstance(raw, dict) else None
        if not isinstance(ref, str) or not ref.startswith("#"):
            break
        target = jp.resolve(w.root, ref[1:], None) if ref[1:] == "" or ref[1:].startswith("/") else None
        if target is None:
            break
        raw = target
    return raw


def _closure(written: Any, props: Any, part: Mapping[str, Any]) -> _Closure | None:
    """What ``part`` lets through besides ``props``, when the author closed it (None when open)."""
    extra = written.get("additionalProperties") if isinstance(written, dict) else None
    if extra is None or extra is True:
        return None
    names = frozenset(props) if isinstance(props, dict) else frozenset()
    return names, part.get("additionalProperties", extra), part.get("patternProperties")


def _intersect(merged: dict[str, Any], closures: list[_Closure]) -> list[str] | None:
    """Limit ``merged`` to what every closed part allows (JSON Schema applies each part's
    ``additionalProperties`` to the keys that part does not list); the names no key may have now, or
    None when a part has ``patternProperties`` (not merged: which names it lets through is a regex)."""
    if not closures:
        return []
    if merged.get("patternProperties") or any(pattern for _, _, pattern in closures):
        return None
    props = merged.get("properties")
    if not isinstance(props, dict):
        props = {}
    forbidden: list[str] = []
    for name in list(props):
        for names, extra, _ in closures:
            if name in names:
                continue
            if extra is False:
                forbidden.append(name)
                del props[name]
                break
            props[name] = {"allOf": [props[name], extra]}
    extras = [extra for _, extra, _ in closures]
    merged["additionalProperties"] = False if False in extras else extras[0] if len(extras) == 1 \
        else {"allOf": extras}
    if "properties" in merged or props:
        merged["properties"] = props
    return forbidden


def _after(w: Walk, schema: dict[str, Any], out: dict[str, Any], folded: dict[str, Any], ptr: str,
           is_root: bool) -> None:
    """Structural rules of the mode: closed objects, every property required, typed arrays, casing."""
    mode = w.mode
    t = out.get("type")
    is_object = t == "object" or (isinstance(t, list) and "object" in t) or "properties" in out
    if is_object and mode.closed_objects:
        # Keywords strict mode adds are recorded, so a round trip can take them out again.
        for key, value in (("properties", {}), ("additionalProperties", False)):
            if key not in out:
                w.added.append(jp.join(ptr, key))
                if key == "additionalProperties" and "additionalProperties" not in schema \
                        and not no_arguments(schema, is_root):
                    w.loss(jp.join(ptr, key), key, None, *closed_said(w.target))
            out[key] = out.get(key, value) if key == "properties" else value
    if is_object and mode.all_required and isinstance(out.get("properties"), dict):
        req = out.get("required")
        required = [r for r in req if isinstance(r, str)] if isinstance(req, list) else []  # draft-03 `true`
        for name, sub in out["properties"].items():
            if name in required:
                continue
            pptr = jp.join(ptr, "properties", name)
            widened = with_null(sub)
            already = widened == sub
            out["properties"][name] = widened
            required.append(name)
            w.optional.append(pptr)
            if not already:
                w.nullable.append(pptr)
            w.loss(pptr, "required", name, *required_said(name, already, w.target))
        if "required" not in out:
            w.added.append(jp.join(ptr, "required"))
        out["required"] = required
    if is_root and not mode.root_composition:
        for key in ("anyOf", "oneOf", "allOf"):
            if key in out:
                w.loss(jp.join(ptr, key), key, schema.get(key, out[key]), Action.REJECTED, Effect.UNSATISFIABLE,
                       f"{w.target} does not accept `{key}` at the root of the parameters")
    types = out.get("type")
    is_array = types == "array" or (isinstance(types, list) and "array" in types)
    if is_array and mode.needs_items and "items" not in out and "prefixItems" not in out:
        # No `items` means any item: said explicitly (typed for modes that need a type on every node).
        w.loss(jp.join(ptr, "type"), "items", None, Action.LOWERED, Effect.NEUTRAL,
               f"{w.target} requires `items` on arrays; `items: {{}}` (any item) added")
        out["items"] = _node(w, {}, jp.join(ptr, "items"), 1)
    if mode.object_properties_nonempty and out.get("properties") == {} and not is_root:
        # Gemini: "properties should be non-empty for OBJECT type"; an absent map means the same.
        del out["properties"]
    closed = out.get("additionalProperties") is False and isinstance(out.get("properties", {}), dict)
    missing = [r for r in out.get("required", []) if isinstance(r, str) and r not in out.get("properties", {})] \
        if closed and isinstance(out.get("required"), list) else []
    if missing:
        w.loss(jp.join(ptr, "required"), "required", missing, Action.REJECTED, Effect.UNSATISFIABLE,
               f"required {', '.join(f'`{m}`' for m in missing)} cannot be sent: the object is closed and "
               "does not list it, so it accepts nothing")


#: Well-known non-JSON-Schema type names found in real tools (Python and Java names, OpenAPI's
#: upper case): read as the JSON Schema type they stand for, with a reported loss.
_TYPE_ALIASES = {
    "dict": "object", "map": "object", "mapping": "object", "hashmap": "object", "float": "number",
    "double": "number", "decimal": "number", "int": "integer", "long": "integer", "short": "integer",
    "byte": "integer", "str": "string", "text": "string", "char": "string", "character": "string",
    "bool": "boolean", "list": "array", "tuple": "array", "sequence": "array", "arraylist": "array",
    "set": "array", "none": "null", "nonetype": "null",
}
_GENERIC = re.compile(r"^(\w+)[\[<](.*)[\]>]$")


def _type_name(name: str) -> tuple[str | None, dict[str, Any]]:
    """(JSON Schema type, extra keywords) for a dirty type name, or (None, {}) when it is not known.
    ``any`` is ("", {}): no type at all."""
    low = name.strip().lower()
    if low in JSON_TYPES:
        return low, {}
    if low in _TYPE_ALIASES:
        return _TYPE_ALIASES[low], {}
    if low in ("any", "unknown", "json", "", "type_unspecified"):
        return "", {}
    m = _GENERIC.match(name.strip())
    if m:
        outer, _ = _type_name(m.group(1))
        if outer == "array":
            item, extra = _type_name(m.group(2)) if "," not in m.group(2) else (None, {})
            return "array", ({"items": {"type": item, **extra}} if item else {"items": {}} if item == "" else {})
        if outer == "object":
            return "object", {}
    return None, {}


def _clean_type(w: Walk, schema: dict[str, Any], ptr: str) -> dict[str, Any]:
    t = schema.get("type")
    if t == []:
        w.loss(jp.join(ptr, "type"), "type", t, Action.REJECTED, Effect.UNSATISFIABLE,
               "`type: []` names no type: not valid JSON Schema; list at least one type or remove `type`")
        return schema
    names = [t] if isinstance(t, str) else t if isinstance(t, list) and all(isinstance(x, str) for x in t) else None
    if names is None or all(x in JSON_TYPES for x in names):
        return schema
    out = dict(schema)
    kinds: list[str] = []
    for name in names:
        kind, extra = _type_name(name)
        if kind is None:
            w.loss(jp.join(ptr, "type"), "type", t, Action.REJECTED, Effect.UNSATISFIABLE,
                   f"type `{name}` is not a JSON Schema type and toolcast does not know what it stands for; "
                   "use string, number, integer, boolean, object, array or null")
            return schema
        if kind == "":
            kinds = []
            break
        kinds.append(kind)
        for key, value in extra.items():
            out.setdefault(key, value)
    if kinds:
        out["type"] = kinds[0] if len(kinds) == 1 else list(dict.fromkeys(kinds))
    else:
        del out["type"]
    w.loss(jp.join(ptr, "type"), "type", t, Action.LOWERED, Effect.NEUTRAL,
           f"type `{t if isinstance(t, str) else json.dumps(t)}` is not a JSON Schema type; read as "
           + (f"`{json.dumps(out['type']) if isinstance(out['type'], list) else out['type']}`"
              if "type" in out else "any value (no `type`)"))
    return out


def _modernise(w: Walk, schema: dict[str, Any], ptr: str) -> dict[str, Any]:
    """Dirty type names and draft-04 forms rewritten as JSON Schema 2020-12 (every target validates
    2020-12 or a subset of it, and Anthropic rejects draft-04 booleans outright)."""
    schema = _clean_type(w, schema, ptr)
    out = schema
    for excl, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(out.get(excl), bool):
            out = dict(out)
            flag = out.pop(excl)
            if flag and isinstance(out.get(bound), (int, float)):
                out[excl] = out.pop(bound)
            w.drafts_rewritten = True
            w.loss(jp.join(ptr, excl), excl, flag, Action.LOWERED, Effect.NEUTRAL,
                   f"draft-04 `{excl}: {json.dumps(flag)}` rewritten in the 2020-12 form")
    if isinstance(out.get("items"), list):
        out = dict(out)
        if "prefixItems" in out and out["prefixItems"] != out["items"]:
            # Two drafts in one node: 2020-12's `prefixItems` means nothing in draft-07 and an `items` list
            # nothing in 2020-12. The tuple `items` is read (draft-07), and what `prefixItems` said is lost.
            w.loss(jp.join(ptr, "prefixItems"), "prefixItems", out["prefixItems"], Action.DROPPED, Effect.WIDENING,
                   "`prefixItems` beside a draft-07 tuple `items` (two drafts mixed): the tuple `items` is read, "
                   "`prefixItems` is not sent; keep one of them")
        out["prefixItems"] = out.pop("items")
        if "additionalItems" in out:
            out["items"] = out.pop("additionalItems")
        w.drafts_rewritten = True
        w.loss(jp.join(ptr, "items"), "items", schema["items"], Action.LOWERED, Effect.NEUTRAL,
               "tuple `items: [...]` (draft-07) rewritten as `prefixItems`")
    elif "additionalItems" in out:
        out = {k: v for k, v in out.items() if k != "additionalItems"}  # without tuple items it means nothing
    return _split_dependencies(w, out, ptr)


#: What a root `$schema` names once an older draft's forms are rewritten (a validator of the old draft would
#: ignore `prefixItems`, `dependentRequired` and the numeric exclusive bounds).
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def _declare_2020_12(w: Walk, out: Any, base: str) -> None:
    declared = out.get("$schema") if isinstance(out, dict) else None
    if w.drafts_rewritten and isinstance(declared, str) and any(
            d in declared for d in ("draft-03", "draft-04", "draft-06", "draft-07")):
        out["$schema"] = DRAFT_2020_12
        w.loss(jp.join(base, "$schema"), "$schema", declared, Action.LOWERED, Effect.NEUTRAL,
               "`$schema` names an older draft whose forms were rewritten in 2020-12's: sent as 2020-12")


def _split_dependencies(w: Walk, schema: dict[str, Any], ptr: str) -> dict[str, Any]:
    """Draft-07's `dependencies` as 2019-09 split it: a list of names is `dependentRequired`, a schema
    `dependentSchemas` (2020-12 validators ignore `dependencies`). Left as it is when it is not a map of those,
    or when the node already has an entry of the same name in the new keywords (two drafts disagreeing)."""
    deps = schema.get("dependencies")
    if not isinstance(deps, dict):
        return schema
    names = {k: v for k, v in deps.items() if isinstance(v, list)}
    schemas = {k: v for k, v in deps.items() if isinstance(v, (dict, bool))}
    required, dependent = schema.get("dependentRequired", {}), schema.get("dependentSchemas", {})
    if len(names) + len(schemas) != len(deps) or not isinstance(required, dict) or not isinstance(dependent, dict) \
            or set(names) & set(required) or set(schemas) & set(dependent):
        return schema
    out = {k: v for k, v in schema.items() if k != "dependencies"}
    if names:
        out["dependentRequired"] = {**required, **names}
    if schemas:
        out["dependentSchemas"] = {**dependent, **schemas}
    w.drafts_rewritten = True
    w.loss(jp.join(ptr, "dependencies"), "dependencies", deps, Action.LOWERED, Effect.NEUTRAL,
           "draft-07 `dependencies` rewritten as `dependentRequired`/`dependentSchemas` (2020-12)")
    return out


def _distribute(w: Walk, schema: dict[str, Any], ptr: str) -> dict[str, Any]:
    """``A ∧ anyOf(B, C)`` ≡ ``anyOf(A ∧ B, A ∧ C)`` (and likewise for ``oneOf``): a mode that needs a type
    on every node gets the constraints next to ``anyOf``/``oneOf`` moved into its branches when some branch
    has no type of their own (``{"type": "object", "properties": …, "oneOf": [{"required": ["a"]}, …]}``).
    They go into every branch, typed ones too, or those would accept what the constraints refused; a
    branch whose type cannot meet theirs can never match and is left out."""
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if not isinstance(branches, list):
            continue
        siblings = {k: v for k, v in schema.items() if k not in ANNOTATIONS and k not in (key, "$defs", "definitions")}
        if not siblings or not any((isinstance(b, dict) and not _typed(b)) or b is True for b in branches):
            continue
        merged: list[Any] = []
        for i, b in enumerate(branches):
            bptr = jp.join(ptr, key, i)
            if b is True:
                b = {}
            if not isinstance(b, dict):
                merged.append(b)  # `false` (or not a schema): matches nothing with or without them
                continue
            if any(_shared_type(siblings.get("type"), t) == [] for t in (b.get("type"), _ref_type(w, b))):
                w.loss(bptr, key, b, Action.LOWERED, Effect.NEUTRAL,
                       f"branch {i} of `{key}` can never match next to `type` {json.dumps(siblings['type'])}: "
                       f"left out for {w.target}")
                merged.append(_NEVER)  # kept in place, so later branches keep their pointers
                continue
            merged.append(_merge_all_of(w, {"allOf": [siblings, b]}, bptr))
        w.loss(jp.join(ptr, key), key, branches, Action.LOWERED, Effect.NEUTRAL,
               f"the keywords next to `{key}` are moved into its branches for {w.target}, which needs a type "
               "on every schema")
        out = {k: v for k, v in schema.items() if k not in siblings}
        out[key] = merged
        return out
    return schema


def _ref_type(w: Walk, branch: dict[str, Any]) -> Any:
    """The ``type`` of the schema a branch's local ``$ref`` names, if any (read only: nothing is inlined)."""
    ref = branch.get("$ref")
    if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")):
        return None
    target = jp.resolve(w.root, ref[1:], None)
    return target.get("type") if isinstance(target, dict) else None


def _shared_type(a: Any, b: Any) -> Any:
    """The types both ``a`` and ``b`` allow (a name, a list, or ``[]`` for none), or ``None`` when either is
    absent or not made of JSON Schema type names (left to the merge to compare)."""
    def kinds(t: Any) -> list[str] | None:
        names = [t] if isinstance(t, str) else t
        if not isinstance(names, list) or not names or not all(isinstance(x, str) and x in JSON_TYPES for x in names):
            return None
        return names
    ka, kb = kinds(a), kinds(b)
    if ka is None or kb is None:
        return None
    both = [t for t in ka if t in kb or (t == "integer" and "number" in kb)]
    if "number" in ka and "integer" in kb and "number" not in kb and "integer" not in both:
        both.append("integer")
    return both[0] if len(both) == 1 else both


def _declare_required(w: Walk, schema: dict[str, Any], ptr: str) -> dict[str, Any]:
    """A required name missing from ``properties`` is declared there (with the schema extra keys
    have), so that closing the object does not make it accept nothing, and Gemini finds every
    required name among the properties."""
    req, props = schema.get("required"), schema.get("properties", {})
    ap = schema.get("additionalProperties", True)
    if not isinstance(req, list) or not isinstance(props, dict) or ap is False or schema.get("type") not in (
            None, "object"):
        return schema
    missing = [r for r in req if isinstance(r, str) and r not in props]
    if not missing:
        return schema
    sub = ap if isinstance(ap, dict) else {}
    w.repaired.extend(jp.join(ptr, "properties", m) for m in missing)
    w.loss(jp.join(ptr, "required"), "required", missing, Action.LOWERED, Effect.NEUTRAL,
           f"required {', '.join(f'`{m}`' for m in missing)} not among `properties`: declared there for {w.target}")
    return {**schema, "properties": {**props, **{m: copy_json(sub) for m in missing}}}


def _typed(node: Any) -> bool:
    return isinstance(node, dict) and any(k in node for k in ("type", "anyOf", "oneOf", "allOf", "$ref"))


_STRING_KEYS = ("pattern", "format", "minLength", "maxLength")
_NUMBER_KEYS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def _infer_type(w: Walk, out: dict[str, Any], folded: dict[str, Any], ptr: str, written_enum: bool) -> None:
    """A node without ``type`` whose keywords say which type it is meant for gets that type. ``written_enum``:
    the author wrote its `enum` (where the provider refuses an `enum` without `type`, the loss is said there)."""
    if _typed(out):
        return
    values = out.get("enum", folded.get("enum", []))
    values = (values if isinstance(values, list) else []) + (
        [out["const"]] if "const" in out else [folded["const"]] if "const" in folded else [])
    kinds = {json_type(v) for v in values}
    kind: str | None = None
    if values and len(kinds) == 1:
        out["type"] = kinds.pop()
        rule = w.mode.enum_type
        if rule is not None and rule[2] and written_enum and "enum" in out:
            w.loss(jp.join(ptr, "enum"), "enum", None, *untyped_enum_said(out["type"], rule[1], w.target),
                   rule=rule[0])
            return
        w.loss(jp.join(ptr, "type"), "type", None, Action.LOWERED, Effect.NEUTRAL,
               f"{w.target} needs a `type` on every schema: `{out['type']}`, the type of its values, added")
        return
    if values:
        # Mixed values: the union of their types (the values themselves still decide, or are folded).
        order = ["string", "integer", "number", "boolean", "object", "array"]
        named = [k for k in order if k in kinds]
        if w.mode.any_of_alone:
            out["anyOf"] = [{"type": k} for k in named]
            if "null" in kinds:
                out["nullable"] = True
        else:
            out["type"] = named + (["null"] if "null" in kinds else [])
        w.loss(jp.join(ptr, "type"), "type", None, Action.LOWERED, Effect.NEUTRAL,
               f"{w.target} needs a `type` on every schema: the types of its values added")
        return
    if any(k in out for k in ("properties", "required", "additionalProperties")):
        kind = "object"
    elif any(k in out for k in ("items", "prefixItems", "minItems", "maxItems")):
        kind = "array"
    elif any(k in out or k in folded for k in _STRING_KEYS):
        kind = "string"
    elif any(k in out or k in folded for k in _NUMBER_KEYS):
        kind = "number"
    if kind is not None:
        out["type"] = kind
        w.loss(jp.join(ptr, "type"), "type", None, Action.LOWERED, Effect.NARROWING,
               f"{w.target} needs a `type` on every schema: `{kind}` added from its keywords "
               "(values of other types can no longer be sent)")


def _any_value(w: Walk, out: dict[str, Any], ptr: str) -> None:
    """A schema that accepts any value, for a mode that needs a type on every node: the closest
    union the mode can state. Gemini has no null branch (``nullable`` says it), OpenAI strict cannot
    state an open object."""
    if w.mode.any_of_alone:
        out["anyOf"] = [{"type": "string"}, {"type": "number"}, {"type": "boolean"},
                        {"type": "array", "items": {"type": "string"}}]
        lost = "objects, null (unless nullable) and arrays of other than strings"
    else:
        scalar = [{"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}]
        out["anyOf"] = [*scalar, {"type": "array", "items": {"anyOf": copy_json(scalar)}}]
        lost = "objects and nested arrays"
    w.loss(jp.join(ptr, "type"), "type", None, Action.LOWERED, Effect.NARROWING,
           f"{w.target} needs a `type` on every schema: this one (any value) becomes a union of types; "
           f"{lost} can no longer be sent")


#: Keywords that annotate a whole ``anyOf`` node and cannot be copied into each branch.
_NODE_ONLY = ("title", "default", "example", "examples")


def _alone(w: Walk, out: dict[str, Any], ptr: str) -> dict[str, Any]:
    """Gemini: "When using any_of, it must be the only field set". ``anyOf`` with a null branch and
    one other becomes that branch + ``nullable``; otherwise the other keywords move into each branch
    (``A ∧ anyOf(B, C)`` ≡ ``anyOf(A ∧ B, A ∧ C)``), and the whole-node annotations are dropped."""
    branches = [b for b in out["anyOf"] if not is_null(b)]
    rest = {k: v for k, v in out.items() if k != "anyOf"}
    # A null branch beside an `enum` (or `const`) without null can never match: null stays refused.
    enum = rest.get("enum")
    null_allowed = not (isinstance(enum, list) and None not in enum) and rest.get("const") is None
    if len(branches) < len(out["anyOf"]) and null_allowed:
        rest["nullable"] = True
    if len(branches) == 1 and isinstance(branches[0], dict):
        merged = dict(branches[0])
        for key, value in rest.items():
            if key in ("description", "title", "default") or merged.get(key, value) == value:
                merged[key] = value  # the node's own annotations describe the parameter
            else:
                w.loss(jp.join(ptr, key), key, value, Action.REJECTED, Effect.UNSATISFIABLE,
                       f"`{key}` next to `anyOf` disagrees with its branch and {w.target} accepts `anyOf` only alone")
        w.loss(jp.join(ptr, "anyOf"), "anyOf", out["anyOf"], Action.LOWERED, Effect.NEUTRAL,
               f"`anyOf` of one schema and null becomes that schema + `nullable` for {w.target}" if null_allowed
               else f"`anyOf` of one schema and null becomes that schema for {w.target}: the `enum` or `const` "
                    "beside it does not allow null")
        return _alone(w, merged, ptr) if isinstance(merged.get("anyOf"), list) and len(merged) > 1 else merged
    for key in _NODE_ONLY:
        if key in rest:
            w.loss(jp.join(ptr, key), key, rest.pop(key), Action.DROPPED, Effect.NEUTRAL,
                   f"{w.target} accepts `anyOf` only alone: `{key}` next to it is not sent")
    new: list[Any] = []
    for branch in branches:
        b = dict(branch) if isinstance(branch, dict) else {}
        for key, value in rest.items():
            if key not in b:
                b[key] = copy_json(value)
            elif b[key] != value and key not in ("description", "nullable"):
                w.loss(jp.join(ptr, key), key, value, Action.REJECTED, Effect.UNSATISFIABLE,
                       f"`{key}` next to `anyOf` cannot be moved into a branch that has its own; "
                       f"{w.target} accepts `anyOf` only alone")
        new.append({k: b[k] for k in sorted(b, key=lambda k: k != "type")})  # one key order: idempotent
    if rest:
        w.loss(jp.join(ptr, "anyOf"), "anyOf", out["anyOf"], Action.LOWERED, Effect.NEUTRAL,
               f"the keywords next to `anyOf` are moved into each branch for {w.target}")
    return {"anyOf": new}


def _root_object(w: Walk, schema: Any, base: str) -> Any:
    """Arguments are always a JSON object, and every target wants the root to say so: a root without
    ``type`` (``{}``, ``{"$schema": …}`` from a failed zod conversion) gets ``type: object``, and so does one
    whose every branch, value or constant is an object (same meaning). Any other root is left as it is, and
    the output's judge (``accept``) refuses it."""
    if not isinstance(schema, dict) or "type" in schema:
        return schema
    shaped = [k for k in ("anyOf", "oneOf", "allOf", "$ref", "enum", "const") if k in schema]
    if not shaped:
        w.loss(jp.join(base, "type"), "type", None, Action.LOWERED, Effect.NEUTRAL,
               "the parameters have no `type`; tool arguments are always an object: `type: object` added")
        return {**schema, "type": "object"}
    if "$ref" in shaped or not all(_all_objects(w, k, schema[k]) for k in shaped):
        return schema
    what = " and every ".join(text for key, text in _SHAPED_WHAT if key in shaped)
    w.loss(jp.join(base, "type"), "type", None, Action.LOWERED, Effect.NEUTRAL,
           f"the parameters have no `type`, and every {what} is an object: `type: object` added")
    return {"type": "object", **schema}


def convert_types_root(schema: Any) -> bool:
    """Whether lowering reads the root as the ``type: object`` it means (a root ``$ref`` replaced by its
    definition, a missing ``type`` added, a well-known type name such as ``dict`` read as JSON Schema's): what the
    checks' TC107 asks before calling a root an error."""
    walk = Walk("", Mode(), schema)
    root = _root_object(walk, _inline_root_ref(walk, schema, ""), "")
    if isinstance(root, dict):
        root = _clean_type(walk, root, "")
    return isinstance(root, dict) and root.get("type") == "object" and not any(
        x.action == Action.REJECTED for x in walk.losses.values())


def known_type_name(name: Any) -> bool:
    """Whether lowering reads ``name`` (not a JSON Schema type name) as a type it stands for (TC110's question)."""
    return isinstance(name, str) and _type_name(name)[0] is not None


_SHAPED_WHAT = (("anyOf", "`anyOf` branch"), ("oneOf", "`oneOf` branch"), ("allOf", "`allOf` branch"),
                ("enum", "`enum` value"), ("const", "`const`"))


def _all_objects(w: Walk, key: str, value: Any) -> bool:
    """Whether every branch (``anyOf``/``oneOf``; for ``allOf`` one is enough), value or constant is an object."""
    if key == "const":
        return isinstance(value, dict)
    if not isinstance(value, list) or not value:
        return False
    if key == "enum":
        return all(isinstance(v, dict) for v in value)
    kinds = [_object_branch(w, b) for b in value]
    return any(kinds) if key == "allOf" else all(kinds)


def _object_branch(w: Walk, branch: Any) -> bool:
    if isinstance(branch, dict) and isinstance(branch.get("$ref"), str) and branch["$ref"].startswith("#/"):
        target = jp.resolve(w.root, branch["$ref"][1:], None)
        branch = {**branch, **target} if isinstance(target, dict) else branch
    return isinstance(branch, dict) and branch.get("type") == "object"


_KEYS_OF_TYPE: dict[str, frozenset[str]] = {
    "string": frozenset({"minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType"}),
    "number": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"}),
    "array": frozenset({"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains",
                        "maxContains", "unevaluatedItems"}),
    "object": frozenset({"properties", "required", "additionalProperties", "patternProperties", "minProperties",
                         "maxProperties", "propertyNames", "dependentRequired", "dependentSchemas",
                         "unevaluatedProperties"}),
}
_KEYS_OF_TYPE["integer"] = _KEYS_OF_TYPE["number"]
_TYPED_KEYS = frozenset().union(*_KEYS_OF_TYPE.values())


def _split_types(w: Walk, schema: dict[str, Any], ptr: str) -> dict[str, Any]:
    """Gemini has one type per node: ``type: [a, b]`` becomes ``anyOf`` of one schema per type, each
    with the keywords that apply to its type (so an array branch keeps ``items``, an object branch its
    ``properties``); null becomes ``nullable``."""
    t = schema.get("type")
    if not isinstance(t, list) or not all(isinstance(x, str) for x in t) or len([x for x in t if x != "null"]) < 2 \
            or "anyOf" in schema or "oneOf" in schema:
        return schema
    shared = {k: v for k, v in schema.items() if k != "type" and k not in _TYPED_KEYS}
    branches = [{"type": kind, **{k: v for k, v in schema.items() if k in _KEYS_OF_TYPE.get(kind, ())}}
                for kind in t if kind != "null"]
    if "null" in t:
        branches.append({"type": "null"})
    w.loss(jp.join(ptr, "type"), "type", t, Action.LOWERED, Effect.NEUTRAL, f"type list becomes `anyOf` for {w.target}")
    return {**shared, "anyOf": branches}


def _json_text(w: Walk, out: dict[str, Any], ptr: str) -> dict[str, Any]:
    """Gemini rejects an OBJECT without properties ("properties: should be non-empty for OBJECT type"), so
    a free-form object (a map, ``dict``) is asked for as JSON text; ``to_canonical_call`` parses it back."""
    w.json_text.append(ptr)
    desc = out.get("description")
    text = "a JSON object, as text"
    new: dict[str, Any] = {"type": "string",
                           "description": f"{desc} ({text})" if isinstance(desc, str) and desc else "A" + text[1:]}
    for key in ("nullable", "title"):
        if key in out:
            new[key] = out[key]
    w.loss(jp.join(ptr, "type"), "type", "object", *json_text_said(w.target))
    return new
