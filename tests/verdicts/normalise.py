"""An equivalent input toolcast should treat the same: JSON Schema rewrites that keep a schema's meaning exactly,
used to tell a refusal of a convertible input (bench/verdicts.py) from a refusal of something no target can
express."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
        "additionalItems", "unevaluatedProperties", "unevaluatedItems")
_ANNOTATIONS = {"title", "description", "examples", "default", "$comment"}
#: Keywords whose meaning depends on adjacent keywords: a merge must not give them new neighbours.
_ADJACENT = {"properties", "patternProperties", "additionalProperties", "unevaluatedProperties", "prefixItems",
             "items", "additionalItems", "unevaluatedItems", "if", "then", "else", "contains", "minContains",
             "maxContains"}
_RESOURCE = {"$id", "$schema", "$anchor", "$dynamicAnchor", "$defs", "definitions"}
#: Booleans stay where they are the usual spelling (`additionalProperties: false`).
_BOOLEAN_KEPT = {"additionalProperties", "unevaluatedProperties", "unevaluatedItems", "additionalItems"}


def normalise(schema: Any) -> Any:
    """``schema`` with JSON Schema rewrites that keep its meaning exactly: ``true`` → ``{}`` and ``false`` →
    ``{"not": {}}`` where a subschema is expected (``additionalProperties``-like keywords keep their booleans,
    the usual spelling); a one-branch ``anyOf``/``oneOf``/``allOf`` merged into its node when no keyword clashes
    and no keyword depends on an adjacent one across the merge; draft-07 ``items: [...]`` → ``prefixItems``
    (``additionalItems`` → ``items``); draft-04 boolean ``exclusiveMinimum``/``exclusiveMaximum`` → the number
    form; ``type: ["x"]`` → ``"x"``; a root ``definitions`` → ``$defs`` with its references. A schema whose
    references point into the places rewritten is returned as it is."""
    if any(isinstance(r, str) and re.search(r"/(anyOf|oneOf|allOf|items)/", r) for r in _refs(schema)):
        return copy.deepcopy(schema)
    out = _node(copy.deepcopy(schema), root=True)
    if isinstance(out, dict) and "definitions" in out and "$defs" not in out:
        out["$defs"] = out.pop("definitions")
        out = _renamed_refs(out)
    return out


def _refs(node: Any) -> Iterator[Any]:
    stack = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if "$ref" in x:
                yield x["$ref"]
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)


def _node(node: Any, root: bool = False) -> Any:
    if node is True:
        return {}
    if node is False:
        return {"not": {}}
    if not isinstance(node, dict):
        return node
    for key in _MAPS:
        if isinstance(node.get(key), dict):
            node[key] = {k: _node(v) for k, v in node[key].items()}
    for key in _LISTS:
        if isinstance(node.get(key), list):
            node[key] = [_node(v) for v in node[key]]
    for key in _ONE:
        value = node.get(key)
        if key == "items" and isinstance(value, list):
            node["prefixItems"] = [_node(v) for v in value]
            del node["items"]
            if "additionalItems" in node:
                node["items"] = node.pop("additionalItems")
                if isinstance(node["items"], dict):
                    node["items"] = _node(node["items"])
        elif isinstance(value, dict) or (isinstance(value, bool) and key not in _BOOLEAN_KEPT):
            node[key] = _node(value)
    for bound, plain in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if node.get(bound) is True and isinstance(node.get(plain), (int, float)):
            node[bound] = node.pop(plain)
        elif node.get(bound) is False:
            del node[bound]
    if isinstance(node.get("type"), list) and len(node["type"]) == 1:
        node["type"] = node["type"][0]
    for key in ("allOf", "anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list) and len(branches) == 1 and isinstance(branches[0], dict):
            merged = _merged(node, key, branches[0])
            if merged is not None and not (root and merged.get("type") not in (None, "object")):
                node = merged
    return node


def _merged(node: dict[str, Any], key: str, branch: dict[str, Any]) -> dict[str, Any] | None:
    """``node`` with its one-branch ``key`` replaced by the branch's keywords; None when a keyword is on both
    sides with different values (annotations aside: the node's own wins, it is the outer one), when keywords
    that read their neighbours (``additionalProperties`` reads ``properties``, ``items`` reads ``prefixItems``,
    ...) would meet new neighbours, or when the branch starts a schema resource or holds definitions."""
    rest = {k: v for k, v in node.items() if k != key}
    if branch.keys() & _RESOURCE or (branch.keys() & _ADJACENT and rest.keys() & _ADJACENT):
        return None
    if "$ref" in branch and rest.keys() - _ANNOTATIONS:
        return None
    for k, v in branch.items():
        if k in rest and rest[k] != v and k not in _ANNOTATIONS:
            return None
    return {**branch, **rest}


def _renamed_refs(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: (v.replace("#/definitions/", "#/$defs/", 1) if k == "$ref" and isinstance(v, str)
                    else _renamed_refs(v)) for k, v in node.items()}
    if isinstance(node, list):
        return [_renamed_refs(v) for v in node]
    return node
