"""What a schema uses, found in one scan, and the modes that certainly report no loss for it.

The checks need every target's losses for every tool, and most tools use nothing a permissive mode
(OpenAI, Anthropic, Mistral and Bedrock without strict mode; MCP) would change. ``SchemaFacts`` records,
in one scan of the schema, each fact the walker (``walker.py``) turns into a loss in some mode; ``quiet``
answers whether a mode's walk of that schema certainly records none. It errs one way only: "not quiet"
means "walk it", never "it has losses". ``tests/convert/test_shared_lowering.py`` holds it to the walker
on the real-world corpus and on random schemas.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import pointer as jp
from ..jsonvalue import copy_json
from ..losses import Action, Effect, Loss
from .walker import _JSON_TYPES, _LIST, _MAP, _ONE, ANNOTATIONS, KNOWN, _enum_kind, _enum_ok, _kept_ref

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
    array_without_items: bool    # an array type with neither `items` nor `prefixItems`
    closed_missing: bool         # `additionalProperties: false` with a required name not in `properties`
    foreign_refs: bool           # a `$ref` other than to the root or to one of the root's definitions
    root_typed: bool             # the root is an object with `type`
    root_composition: bool       # the root has `anyOf`, `oneOf` or `allOf`
    too_big: bool                # deeper or larger than the scan looks


def scan(schema: Any) -> SchemaFacts:
    """One pass over ``schema``'s nodes (the positions the walker descends into, and a few more)."""
    keywords: set[str] = set()
    flags = dict.fromkeys(("unknown", "dirty_type", "type_list", "draft4_exclusive", "tuple_items",
                           "array_without_items", "closed_missing", "foreign_refs"), False)
    count = 0
    too_big = False
    stack: list[tuple[Any, int]] = [(schema, 0)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if depth > _MAX_DEPTH or count > _MAX_NODES:
            too_big = True
            break
        if not isinstance(node, dict):
            continue
        keywords.update(node)
        for key, value in node.items():
            if key not in KNOWN and not key.startswith("x-"):
                flags["unknown"] = True
            if key in _ONE or key == "additionalItems":
                if isinstance(value, list):  # tuple `items` (and anything else listed there)
                    flags["tuple_items"] = True
                    stack.extend((v, depth + 1) for v in value)
                else:
                    stack.append((value, depth + 1))
            elif key in _MAP:
                if isinstance(value, dict):
                    stack.extend((v, depth + 1) for v in value.values())
            elif key in _LIST and isinstance(value, list):
                stack.extend((v, depth + 1) for v in value)
        if "$ref" in node and not _root_ref(schema, node["$ref"]):
            flags["foreign_refs"] = True
        t = node.get("type")
        if isinstance(t, list):
            flags["type_list"] = True
            if any(not isinstance(x, str) or x not in _JSON_TYPES for x in t):
                flags["dirty_type"] = True
        elif t is not None and (not isinstance(t, str) or t not in _JSON_TYPES):
            flags["dirty_type"] = True
        if isinstance(node.get("exclusiveMinimum"), bool) or isinstance(node.get("exclusiveMaximum"), bool):
            flags["draft4_exclusive"] = True
        if (t == "array" or (isinstance(t, list) and "array" in t)) and "items" not in node \
                and "prefixItems" not in node:
            flags["array_without_items"] = True
        if node.get("additionalProperties") is False and isinstance(node.get("required"), list):
            props = node.get("properties", {})
            if not isinstance(props, dict) or any(isinstance(r, str) and r not in props for r in node["required"]):
                flags["closed_missing"] = True
    root = schema if isinstance(schema, dict) else {}
    return SchemaFacts(
        keywords=frozenset(keywords), root_typed=isinstance(schema, dict) and "type" in schema,
        root_composition=any(k in root for k in ("anyOf", "oneOf", "allOf")), too_big=too_big, **flags)


def _root_ref(root: Any, ref: Any) -> bool:
    """``ref`` resolves and names the root or one of the root's definitions: a reference every mode that
    keeps references keeps as it is (the walker's own test, ``walker._kept_ref``)."""
    if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")):
        return False
    return jp.resolve(root, ref[1:], None) is not None and _kept_ref(root, ref)


#: Settings under which a walk may rewrite a schema whatever it uses: such a mode is never quiet.
_STRUCTURAL = ("closed_objects", "all_required", "typed_nodes", "any_of_alone", "type_case",
               "object_properties_nonempty")


def quiet(mode: Mapping[str, Any], facts: SchemaFacts) -> bool:
    """True only when lowering a schema with these facts in ``mode`` certainly records no loss."""
    if facts.too_big or not facts.root_typed or any(mode.get(s) for s in _STRUCTURAL):
        return False
    used = facts.keywords
    if "$ref" in used and (facts.foreign_refs or mode.get("refs") == "inline" or not mode.get("recursion", True)
                           or not mode.get("ref_siblings", True)):
        return False  # inlined (and reported), cut or dropped; only references kept as they are stay quiet
    if "$dynamicRef" in used:
        return False
    if facts.dirty_type or facts.draft4_exclusive or facts.tuple_items or facts.closed_missing:
        return False  # rewritten (and reported) in every mode, or refused in every mode
    rules: Mapping[str, str] = mode.get("keywords", {})
    if any(rules.get(key, "keep") != "keep" for key in used):
        return False
    if facts.unknown and mode.get("unknown_keywords") == "drop":
        return False
    if ("$defs" in used or "definitions" in used) and (mode.get("refs") == "inline" or not mode.get("recursion", True)):
        return False
    checks = (
        ("allOf", mode.get("allOf") == "merge"), ("oneOf", mode.get("oneOf") == "anyOf"),
        ("const", mode.get("const") == "enum"), ("enum", mode.get("enum", "any") != "any"),
        ("format", mode.get("formats") is not None), ("minItems", mode.get("min_items_max") is not None),
        ("additionalProperties", mode.get("additionalProperties") == "drop"),
    )
    if any(acts and key in used for key, acts in checks):
        return False
    if facts.type_list and mode.get("type_arrays") == "nullable":
        return False
    if facts.array_without_items and mode.get("needs_items"):
        return False
    return not (facts.root_composition and not mode.get("root_composition", True))


#: Keywords whose absence changes what the walker does next to them (an array's `items`, an object's members,
#: the type): a mode that folds or drops one of these is walked.
_SHAPING = frozenset({"type", "items", "prefixItems", "properties", "required", "additionalProperties", "$ref"})


def fated_losses(schema: Any, base: str, target: str, mode: Mapping[str, Any], facts: SchemaFacts) -> list[Loss] | None:
    """The losses of lowering ``schema`` in ``mode`` when all the walk would change is keywords the mode
    folds, drops or refuses by name (``keywords``) and enums of values it does not accept; None when the walk
    may do more (then it must be walked). The rest of the mode must be quiet for the schema: with the named
    keywords kept and any enum accepted, ``quiet`` answers True. Held to the walker like ``quiet``."""
    rules: Mapping[str, str] = mode.get("keywords", {})
    if any(rules.get(k, "keep") != "keep" for k in _SHAPING & facts.keywords) \
            or not quiet({**mode, "keywords": {}, "enum": "any"}, facts):
        return None
    found: list[Loss] = []

    def node(value: Any, ptr: str) -> None:
        if not isinstance(value, dict):
            return
        for key, sub in value.items():
            if key in ("$defs", "definitions"):
                continue  # the root's are lowered on their own below; nested ones are left out unwalked
            kptr = jp.join(ptr, key)
            action = rules.get(key, "keep")
            if action == "fold":
                found.append(Loss(target, kptr, key, copy_json(sub), Action.FOLDED,
                                  Effect.NEUTRAL if key in ANNOTATIONS else Effect.WIDENING,
                                  f"`{key}` is not supported by {target}; stated in the description instead"))
            elif action == "drop":
                found.append(Loss(target, kptr, key, copy_json(sub), Action.DROPPED,
                                  Effect.NEUTRAL if key in ANNOTATIONS or key.startswith("x-") else Effect.WIDENING,
                                  f"`{key}` is not supported by {target}; dropped"))
            elif action == "reject":
                found.append(Loss(target, kptr, key, copy_json(sub), Action.REJECTED, Effect.UNSATISFIABLE,
                                  f"{target} rejects `{key}`"))
            elif key == "enum" and isinstance(sub, list) and (not _enum_ok(mode, sub) or (
                    mode.get("enum") == "string" and value.get("type", "string") != "string")):
                found.append(Loss(target, kptr, key, copy_json(sub), Action.FOLDED, Effect.WIDENING,
                                  f"{target} only accepts {_enum_kind(mode)} enum values; stated in the description "
                                  "instead"))
            elif key in _ONE:
                node(sub, kptr)
            elif key in _MAP and isinstance(sub, dict):
                for name, item in sub.items():
                    node(item, jp.join(kptr, name))
            elif key in _LIST and isinstance(sub, list):
                for i, item in enumerate(sub):
                    node(item, jp.join(kptr, i))

    node(schema, base)
    for key in ("$defs", "definitions"):
        defs = schema.get(key) if isinstance(schema, dict) else None
        if isinstance(defs, dict):
            for name, item in defs.items():
                node(item, jp.join(base, key, name))
    return sorted(found, key=lambda x: (x.pointer, x.keyword))
