"""One schema walker for every target: the capability profile's mode says what to keep, lower, fold,
drop or reject, and every change is recorded as a ``Loss``.

Folded keywords are appended to the schema's ``description`` in one format, readable by a model and
by a program alike::

    <description> (constraints: {"minLength": 1, "maxLength": 5})

i.e. the text ``" (constraints: "`` followed by a JSON object of the folded keywords (values as JSON,
keys in schema order) and ``")"``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .. import pointer as jp
from ..jsonvalue import copy_json
from ..losses import Action, Effect, Loss

MAX_DEPTH = 128
MAX_NODES = 100_000

#: Keywords that only annotate: removing them never changes which instances are valid.
ANNOTATIONS = frozenset({
    "title", "description", "default", "examples", "example", "deprecated", "readOnly", "writeOnly",
    "$comment", "$schema", "$id", "$anchor", "propertyOrdering", "markdownDescription", "nullable",
})
#: Keywords whose value holds one sub-schema / a map of sub-schemas / a list of sub-schemas.
_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
        "unevaluatedItems", "unevaluatedProperties")
_MAP = ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions")
_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
KNOWN = frozenset(ANNOTATIONS | set(_ONE) | set(_MAP) | set(_LIST) | {
    "type", "enum", "const", "required", "format", "pattern", "minLength", "maxLength", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems",
    "minContains", "maxContains", "minProperties", "maxProperties", "dependentRequired", "$ref",
    "$dynamicRef", "$dynamicAnchor", "$vocabulary",
})
_SCHEMA_DRAFT7_ITEMS = "items"


class _Budget(Exception):
    pass


@dataclass
class Walk:
    """State of one lowering: the target and mode, the root for ``$ref`` resolution, and the results."""

    target: str
    mode: dict[str, Any]
    root: Any
    losses: dict[tuple[str, str], Loss] = field(default_factory=dict)
    nullable: list[str] = field(default_factory=list)
    optional: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    nodes: int = 0
    active_refs: list[str] = field(default_factory=list)

    def loss(self, pointer: str, keyword: str, value: Any, action: Action, effect: Effect, message: str) -> None:
        key = (pointer, keyword)
        if key not in self.losses:
            self.losses[key] = Loss(self.target, pointer, keyword, copy_json(value), action, effect, message)


def lower(schema: Any, base: str, target: str, mode: dict[str, Any]) -> tuple[Any, list[Loss], dict[str, list[str]]]:
    """Lower ``schema`` (found at canonical pointer ``base``) for ``target``/``mode``.

    Returns the new schema, the losses (pointer order) and the round-trip record: ``optional``, the
    pointers of optional properties strict mode made required (a null answer means "absent"),
    ``nullable``, those of them to which it had to add null, and ``added``,
    the pointers of keywords strict mode added (``additionalProperties``, ``properties``, ``required``)."""
    walk = Walk(target, mode, schema)
    try:
        out = _node(walk, schema, base, 0, is_root=True)
        if isinstance(schema, dict) and isinstance(out, dict):
            for key in ("$defs", "definitions"):
                if not isinstance(schema.get(key), dict):
                    continue
                if _inline_all(mode):
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
    losses = sorted(walk.losses.values(), key=lambda x: (x.pointer, x.keyword))
    record = {"optional": sorted(set(walk.optional)), "nullable": sorted(set(walk.nullable)),
              "added": sorted(set(walk.added))}
    return out, losses, {k: v for k, v in record.items() if v}


def _inline_all(mode: dict[str, Any]) -> bool:
    return mode.get("refs") == "inline" or not mode.get("recursion", True)


def _node(w: Walk, schema: Any, ptr: str, depth: int, is_root: bool = False) -> Any:
    w.nodes += 1
    if w.nodes > MAX_NODES:
        raise _Budget(f"schema has more than {MAX_NODES:,} nodes; toolcast does not convert it")
    if depth > MAX_DEPTH:
        raise _Budget(f"schema nested deeper than {MAX_DEPTH} levels; toolcast does not convert it")
    if isinstance(schema, bool):
        if w.mode.get("type_case") or w.mode.get("closed_objects"):
            if schema:
                return {}
            w.loss(ptr, "false", False, Action.REJECTED, Effect.UNSATISFIABLE, "`false` schema cannot be expressed")
            return {}
        return schema
    if not isinstance(schema, dict):
        return copy_json(schema)
    schema = _resolve_ref(w, schema, ptr, depth)
    if "allOf" in schema and w.mode.get("allOf") == "merge":
        schema = _merge_all_of(w, schema, ptr)
    out: dict[str, Any] = {}
    folded: dict[str, Any] = {}
    rules: dict[str, str] = w.mode.get("keywords", {})
    for key, value in schema.items():
        kptr = jp.join(ptr, key)
        action = rules.get(key, "keep")
        if key not in KNOWN and not key.startswith("x-"):
            action = "drop" if w.mode.get("unknown_keywords") == "drop" else action
        if key in ("$defs", "definitions"):
            continue  # kept at the root by `lower` where refs are kept; otherwise inlined where used
        if action == "fold":
            folded[key] = value
            effect = Effect.NEUTRAL if key in ANNOTATIONS else Effect.WIDENING
            w.loss(kptr, key, value, Action.FOLDED, effect, f"`{key}` is not supported by {w.target}; "
                   "stated in the description instead")
            continue
        if action == "drop":
            effect = Effect.NEUTRAL if key in ANNOTATIONS or key.startswith("x-") else Effect.WIDENING
            w.loss(kptr, key, value, Action.DROPPED, effect, f"`{key}` is not supported by {w.target}; dropped")
            continue
        if action == "reject":
            w.loss(kptr, key, value, Action.REJECTED, Effect.UNSATISFIABLE, f"{w.target} rejects `{key}`")
            continue
        out[key] = _keyword(w, key, value, schema, kptr, depth, out, folded)
    out = {k: v for k, v in out.items() if v is not _DROP}
    _after(w, schema, out, folded, ptr, is_root)
    if folded and w.mode.get("type_case") and "type" not in out and "anyOf" not in out:
        # Gemini needs a type on every node: the folded values' own type is implied by the original.
        kinds = {_json_type(v) for v in folded.get("enum", []) + ([folded["const"]] if "const" in folded else [])}
        if len(kinds) == 1:
            out["type"] = kinds.pop()
    if folded:
        text = json.dumps(folded, ensure_ascii=False, separators=(", ", ": "))
        base = out.get("description")
        out["description"] = (base + " " if isinstance(base, str) and base else "") + f"(constraints: {text})"
    return out


_DROP = object()


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "null"


def _keyword(w: Walk, key: str, value: Any, schema: dict[str, Any], kptr: str, depth: int,
             out: dict[str, Any], folded: dict[str, Any]) -> Any:
    mode = w.mode
    if key in _ONE and key != "additionalProperties":
        if key == "items" and isinstance(value, list):  # draft-07 tuple form
            return [_node(w, v, jp.join(kptr, i), depth + 1) for i, v in enumerate(value)]
        return _node(w, value, kptr, depth + 1)
    if key in _MAP:
        if not isinstance(value, dict):
            return copy_json(value)
        return {k: _node(w, v, jp.join(kptr, k), depth + 1) for k, v in value.items()}
    if key in _LIST:
        if not isinstance(value, list):
            return copy_json(value)
        branches = [_node(w, v, jp.join(kptr, i), depth + 1) for i, v in enumerate(value)]
        if key == "oneOf" and mode.get("oneOf") == "anyOf":
            w.loss(kptr, key, value, Action.LOWERED, Effect.WIDENING,
                   f"`oneOf` becomes `anyOf` for {w.target}: \"exactly one\" is no longer enforced")
            out.setdefault("anyOf", [])
            out["anyOf"] = [*out["anyOf"], *branches] if isinstance(out["anyOf"], list) else branches
            return _DROP
        return branches
    if key == "additionalProperties":
        return _additional(w, value, kptr, depth)
    if key == "const" and mode.get("const") == "enum":
        if "enum" in schema:
            return copy_json(value)
        if _enum_ok(mode, [value]):
            w.loss(kptr, key, value, Action.LOWERED, Effect.NEUTRAL,
                   f"`const` becomes a one-value `enum` for {w.target}")
            out["enum"] = [copy_json(value)]
            return _DROP
        folded["const"] = value
        w.loss(kptr, key, value, Action.FOLDED, Effect.WIDENING,
               f"{w.target} cannot express this constant; stated in the description instead")
        return _DROP
    if key == "enum" and isinstance(value, list) and not _enum_ok(mode, value):
        folded["enum"] = value
        w.loss(kptr, key, value, Action.FOLDED, Effect.WIDENING,
               f"{w.target} only accepts {_enum_kind(mode)} enum values; stated in the description instead")
        return _DROP
    if key == "format" and isinstance(value, str) and not _format_ok(mode, value, schema.get("type")):
        folded["format"] = value
        w.loss(kptr, key, value, Action.FOLDED, Effect.WIDENING,
               f"format `{value}` is not supported by {w.target}; stated in the description instead")
        return _DROP
    if key == "minItems" and mode.get("min_items_max") is not None and isinstance(value, int) \
            and value > mode["min_items_max"]:
        folded["minItems"] = value
        w.loss(kptr, key, value, Action.FOLDED, Effect.WIDENING,
               f"{w.target} strict mode only enforces minItems 0 or 1; stated in the description instead")
        return _DROP
    if key == "type":
        return _type(w, value, kptr, out)
    return copy_json(value)


def _additional(w: Walk, value: Any, kptr: str, depth: int) -> Any:
    mode = w.mode
    if mode.get("additionalProperties") == "drop":
        effect = Effect.NEUTRAL if value is True else Effect.WIDENING
        w.loss(kptr, "additionalProperties", value, Action.DROPPED, effect,
               f"`additionalProperties` is not supported by {w.target}; dropped")
        return _DROP
    if mode.get("closed_objects") and value is not False:
        w.loss(kptr, "additionalProperties", value, Action.LOWERED, Effect.NARROWING,
               f"{w.target} strict mode needs closed objects: extra keys (a map) can no longer be sent")
        return False
    if isinstance(value, dict):
        return _node(w, value, kptr, depth + 1)
    return copy_json(value)


def _type(w: Walk, value: Any, kptr: str, out: dict[str, Any]) -> Any:
    if w.mode.get("type_arrays") == "nullable" and isinstance(value, list):
        kinds = [t for t in value if t != "null"]
        if "null" in value:
            out["nullable"] = True
        if len(kinds) == 1:
            w.loss(kptr, "type", value, Action.LOWERED, Effect.NEUTRAL,
                   f"type list becomes `type` + `nullable` for {w.target}")
            return kinds[0]
        w.loss(kptr, "type", value, Action.LOWERED, Effect.NEUTRAL, f"type list becomes `anyOf` for {w.target}")
        out["anyOf"] = [{"type": t} for t in kinds]
        return _DROP
    return copy_json(value)


def _enum_kind(mode: dict[str, Any]) -> str:
    return {"string": "string", "string_or_number": "string or number", "primitive": "primitive"}.get(
        mode.get("enum", "any"), "any")


def _enum_ok(mode: dict[str, Any], values: list[Any]) -> bool:
    kind = mode.get("enum", "any")
    if kind == "string":
        return all(isinstance(v, str) for v in values)
    if kind == "string_or_number":
        return all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in values)
    if kind == "primitive":
        return all(v is None or isinstance(v, (str, int, float, bool)) for v in values)
    return True


def _format_ok(mode: dict[str, Any], fmt: str, type_: Any) -> bool:
    allowed = mode.get("formats")
    if allowed is None:
        return True
    if isinstance(allowed, dict):
        kinds = [type_] if isinstance(type_, str) else [t for t in type_ or [] if isinstance(t, str)]
        return any(fmt in allowed.get(k, []) for k in kinds)
    return fmt in allowed


def _resolve_ref(w: Walk, schema: dict[str, Any], ptr: str, depth: int) -> dict[str, Any]:
    """Inline ``$ref`` where the mode wants it (always, or when it has sibling keywords)."""
    ref = schema.get("$ref")
    if not isinstance(ref, str):
        return schema
    siblings = {k: v for k, v in schema.items() if k != "$ref"}
    inline = _inline_all(w.mode) or (siblings and not w.mode.get("ref_siblings", True)
                                                 and not all(k.startswith("$") for k in siblings))
    if not ref.startswith("#"):
        w.loss(jp.join(ptr, "$ref"), "$ref", ref, Action.DROPPED, Effect.WIDENING,
               "remote `$ref` is never fetched; any value is accepted in its place")
        return siblings
    if not inline:
        return schema
    target = jp.resolve(w.root, ref[1:], None) if ref[1:] == "" or ref[1:].startswith("/") else None
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
            merged = {"allOf": [resolved, siblings]} if w.mode.get("allOf") != "merge" else \
                _merge_all_of(w, {"allOf": [resolved, siblings]}, ptr)
            break
        merged[k] = v
    w.loss(jp.join(ptr, "$ref"), "$ref", ref, Action.LOWERED, Effect.NEUTRAL,
           f"`$ref` {ref} is inlined for {w.target}")
    return merged


def _ref_pointer(ptr: str, ref: str) -> str:
    """Losses inside an inlined definition are reported at the definition (``/parameters/$defs/x``)."""
    base = ptr.split("/")
    root = "/".join(base[:2]) if len(base) > 1 else ""
    return root + ref[1:]


def _merge_all_of(w: Walk, schema: dict[str, Any], ptr: str) -> dict[str, Any]:
    """Merge ``allOf`` branches into one schema, or refuse when the merge would change meaning."""
    branches = schema.get("allOf")
    if not isinstance(branches, list):
        return schema
    merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
    kptr = jp.join(ptr, "allOf")
    for i, raw in enumerate(branches):
        branch = _resolve_ref(w, raw, jp.join(kptr, i), 0) if isinstance(raw, dict) else raw
        if branch is True or branch == {}:
            continue
        if not isinstance(branch, dict):
            w.loss(kptr, "allOf", branches, Action.REJECTED, Effect.UNSATISFIABLE,
                   "`allOf` with a `false` branch accepts nothing")
            return merged
        for key, value in branch.items():
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
                req = merged.setdefault("required", [])
                req.extend(r for r in value if r not in req)
            elif key in ("description", "title"):
                merged.setdefault(key, value)
            elif key not in merged or merged[key] == value:
                merged[key] = value
            else:
                w.loss(jp.join(kptr, i, key), "allOf", branches, Action.REJECTED, Effect.UNSATISFIABLE,
                       f"`allOf` branches disagree on `{key}` and {w.target} has no `allOf`: "
                       "toolcast will not emit a schema that means something else")
                return merged
    if len(branches) > 1:
        w.loss(kptr, "allOf", branches, Action.LOWERED, Effect.NEUTRAL,
               f"`allOf` branches merged into one schema for {w.target}")
    return merged


def _after(w: Walk, schema: dict[str, Any], out: dict[str, Any], folded: dict[str, Any], ptr: str,
           is_root: bool) -> None:
    """Structural rules of the mode: closed objects, every property required, typed arrays, casing."""
    mode = w.mode
    is_object = out.get("type") == "object" or "properties" in out
    if is_object and mode.get("closed_objects"):
        # Keywords strict mode adds are recorded, so a round trip can take them out again.
        for key, value in (("properties", {}), ("additionalProperties", False)):
            if key not in out:
                w.added.append(jp.join(ptr, key))
            out[key] = out.get(key, value) if key == "properties" else value
    if is_object and mode.get("all_required") and isinstance(out.get("properties"), dict):
        required = [r for r in out.get("required", []) if isinstance(r, str)]
        for name, sub in out["properties"].items():
            if name in required:
                continue
            pptr = jp.join(ptr, "properties", name)
            widened = _nullable(sub)
            already = widened == sub
            out["properties"][name] = widened
            required.append(name)
            w.optional.append(pptr)
            if not already:
                w.nullable.append(pptr)
            w.loss(pptr, "required", name, Action.LOWERED, Effect.NEUTRAL,
                   f"optional `{name}` is required and nullable for {w.target} strict mode: "
                   + ("null now also stands for \"absent\"" if already
                      else "send null for \"absent\" (mapped back by toolcast)"))
        if "required" not in out:
            w.added.append(jp.join(ptr, "required"))
        out["required"] = required
    if is_root and not mode.get("root_composition", True):
        for key in ("anyOf", "oneOf", "allOf"):
            if key in out:
                w.loss(jp.join(ptr, key), key, schema.get(key, out[key]), Action.REJECTED, Effect.UNSATISFIABLE,
                       f"{w.target} does not accept `{key}` at the root of the parameters")
    types = out.get("type")
    is_array = types == "array" or (isinstance(types, list) and "array" in types)
    if is_array and mode.get("needs_items") and "items" not in out and "prefixItems" not in out:
        w.loss(jp.join(ptr, "type"), "items", None, Action.REJECTED, Effect.NARROWING,
               f"{w.target} requires `items` on arrays; add an item schema")


def _nullable(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return schema
    t = schema.get("type")
    if isinstance(t, str) and "enum" not in schema and "const" not in schema and "$ref" not in schema:
        return {**schema, "type": t if t == "null" else [t, "null"]}
    if isinstance(t, list) and "enum" not in schema and "$ref" not in schema:
        return schema if "null" in t else {**schema, "type": [*t, "null"]}
    if isinstance(schema.get("anyOf"), list) and set(schema) == {"anyOf"}:
        if {"type": "null"} in schema["anyOf"]:
            return schema
        return {"anyOf": [*schema["anyOf"], {"type": "null"}]}
    return {"anyOf": [schema, {"type": "null"}]}
