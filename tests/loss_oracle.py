"""An oracle for conversions that does not trust the converter's own bookkeeping: every keyword of the
original schema is either carried over unchanged at the same pointer, or a loss names exactly that
keyword (its pointer ends with the keyword, or with a member of the keyword's list, and the keyword is a schema
keyword, not a schema's root).

A loss at a schema node (``/parameters``) excuses nothing below it; a loss at ``.../anyOf`` excuses the
``anyOf`` keyword, whose value (with its subschemas) is what was lowered. Keywords strict mode adds are in
the round-trip record (``added``), and a ``required`` list grows with the properties it made required
(``optional``): both are accounted for from that record, not from losses."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolcast.adapters import pointer as jp

#: Keywords whose value is a map of subschemas, a list of subschemas, or one subschema.
MAPS = ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions")
LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
       "unevaluatedItems", "unevaluatedProperties", "additionalItems")
ROOTS = ("/parameters", "/returns")
_MISSING = object()


def keywords(schema: Any, base: str) -> Iterator[tuple[str, Any]]:
    """(pointer, value) of every keyword in ``schema`` and its subschemas; a keyword holding subschemas
    is listed as well as the keywords inside them."""
    stack = [(base, schema)]
    while stack:
        ptr, node = stack.pop()
        if not isinstance(node, dict):
            continue
        for key, value in node.items():
            kptr = jp.join(ptr, key)
            yield kptr, value
            if key in MAPS and isinstance(value, dict):
                stack.extend((jp.join(kptr, k), v) for k, v in value.items())
            elif key in LISTS and isinstance(value, list):
                stack.extend((jp.join(kptr, i), v) for i, v in enumerate(value))
            elif key in ONE:
                stack.append((kptr, value))


def _named(loss: Any) -> str | None:
    """The keyword's pointer a loss names: its own pointer when that ends with the keyword, or the list the
    loss's pointer is a member of (``.../enum/3``, keyword ``enum``: one member left out); None for a loss at a
    schema node, which names no keyword of it."""
    parts = jp.parts(loss.pointer)
    if loss.pointer in ROOTS or not parts:
        return None
    if parts[-1] == loss.keyword:
        return str(loss.pointer)
    if len(parts) > 1 and parts[-2] == loss.keyword and parts[-1].isdigit():
        return jp.from_parts(parts[:-1])
    return None


def _excused_by(kptr: str, losses: Iterable[Any]) -> bool:
    for loss in losses:
        ptr = _named(loss)
        if ptr is None:
            continue
        if ptr == kptr or jp.is_prefix(ptr, kptr):
            return True  # the keyword itself, or inside the value of the keyword it names
    return False


def unexplained(original: Any, converted: Any, losses: Iterable[Any], roundtrip: dict[str, Any],
                base: str = "/parameters") -> list[str]:
    """Pointers of the original's keywords that changed or disappeared without a loss naming them."""
    losses = list(losses)
    doc = {base.strip("/"): converted}
    for ptr in sorted(roundtrip.get("added", []), key=len, reverse=True):  # keywords strict mode added
        if jp.parts(ptr)[-1] == "required":
            continue  # compared below, with the properties strict mode made required
        parent = jp.resolve(doc, jp.from_parts(jp.parts(ptr)[:-1]), None)
        if isinstance(parent, dict):
            parent.pop(jp.parts(ptr)[-1], None)
    made_required = {}
    for ptr in roundtrip.get("optional", []):
        parts = jp.parts(ptr)
        made_required.setdefault(jp.from_parts(parts[:-2]), set()).add(parts[-1])
    for ptr in roundtrip.get("nullable", []):  # strict mode added null to these: take it out again
        _undo_nullable(doc, ptr, jp.resolve({base.strip("/"): original}, ptr, None))
    out = []
    for kptr, value in keywords(original, base):
        got = jp.resolve(doc, kptr, _MISSING)
        key = jp.parts(kptr)[-1]
        parent = jp.from_parts(jp.parts(kptr)[:-1])
        if key in MAPS and isinstance(value, dict) and isinstance(got, dict):
            if set(got) == set(value):
                continue  # the subschemas are compared one keyword at a time
        elif key in LISTS and isinstance(value, list) and isinstance(got, list):
            if len(got) == len(value):
                continue
        elif key in ONE and isinstance(value, dict) and isinstance(got, dict):
            continue  # the subschema is compared keyword by keyword
        elif key == "required" and isinstance(value, list) and parent in made_required and isinstance(got, list):
            if sorted(got) == sorted(set(value) | made_required[parent]):
                continue
        elif got == value:
            continue
        if not _excused_by(kptr, losses):
            out.append(kptr)
    return out


def _undo_nullable(doc: Any, ptr: str, original: Any) -> None:
    """Strict mode allows null for an optional property it made required: ``anyOf: [<schema>, {"type":
    "null"}]``, a null branch added to an existing ``anyOf``, or ``"null"`` added to ``type``/``enum``."""
    parts = jp.parts(ptr)
    parent = jp.resolve(doc, jp.from_parts(parts[:-1]), None)
    node = parent.get(parts[-1]) if isinstance(parent, dict) else None
    if not isinstance(node, dict) or not isinstance(original, dict):
        return
    branches = node.get("anyOf")
    if isinstance(branches, list) and branches and branches[-1] == {"type": "null"}:
        if "anyOf" in original:
            node["anyOf"] = branches[:-1]
        elif len(branches) == 2 and isinstance(branches[0], dict):
            rest = {k: v for k, v in node.items() if k != "anyOf"}
            parent[parts[-1]] = {**branches[0], **rest}
        return
    if isinstance(node.get("type"), list) and "null" in node["type"] and "null" not in original.get("type", []):
        kinds = [k for k in node["type"] if k != "null"]
        node["type"] = kinds[0] if len(kinds) == 1 and not isinstance(original.get("type"), list) else kinds
    if isinstance(node.get("enum"), list) and None in node["enum"] and None not in original.get("enum", [None]):
        node["enum"] = [x for x in node["enum"] if x is not None]


def schema_in(target: str, output: dict[str, Any]) -> Any:
    """The parameters schema inside ``target``'s envelope, as JSON Schema (Gemini's OpenAPI subset read back
    by the loader's own ``from_gemini_schema``; nothing else of the converter is used)."""
    from toolcast.adapters.loading.gemini_schema import from_gemini_schema

    schema = {
        "openai": lambda: output["function"]["parameters"], "mistral": lambda: output["function"]["parameters"],
        "openai-responses": lambda: output["parameters"], "anthropic": lambda: output["input_schema"],
        "gemini": lambda: output.get("parameters"), "gemini-json": lambda: output["parametersJsonSchema"],
        "mcp": lambda: output["inputSchema"], "bedrock": lambda: output["toolSpec"]["inputSchema"]["json"],
    }[target]()
    if schema is None:
        return {"type": "object"}
    return from_gemini_schema(schema) if target == "gemini" else schema


def assert_explained(original: Any, converted: Any, losses: Iterable[Any], roundtrip: dict[str, Any],
                     context: Any = None) -> None:
    bad = unexplained(original, converted, losses, roundtrip)
    assert not bad, (context, bad, [(x.pointer, x.keyword) for x in losses])
