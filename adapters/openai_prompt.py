"""The text OpenAI's Chat Completions API puts in the prompt for function tools: a TypeScript-like
``namespace functions { ... }`` block, not the JSON the user sends. Its tokens are what a request's tools are
billed (docs/design.md, "Token cost estimates").

The format is not documented by OpenAI. It was reverse-engineered and checked against the API's
``usage.prompt_tokens`` by hmarr/openai-chat-tokens (``src/functions.ts``, ``tests/token-counts.test.ts``) and
pamelafox/openai-messages-token-helper (``tests/functions.py``, with the API's counts and the cases where a
rendering over-counted). What those pairs settled and this module follows:

- ``// description`` above a function and above a property; a nested property's description was not shown by
  the 2023 snapshots (hmarr's pairs are exact only without it) and is by later models (pamelafox's pairs are
  7 tokens short without it);
- ``name?: type,`` for an optional property, ``name: type,`` for a required one, nested objects indented by 2;
- a string enum as ``"a" | "b"``, a number enum as ``1 | 2``, ``anyOf`` and type lists as unions, an array as
  ``T[]`` (``any[]`` without ``items``), a property without a type as ``any``.

Not settled by any published pair, so labelled "not verified" where it matters (strict mode): how ``default``
is shown (``// default: value`` after the property, as prompts the models were asked to repeat show it)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

#: The block's first and last lines; everything per tool goes between them.
HEAD = "namespace functions {\n\n"
TAIL = "} // namespace functions"

#: Deeper than this, a schema is shown as ``any`` (JSON nests without limit; the API's own limit is lower).
MAX_DEPTH = 64


def function_block(function: Mapping[str, Any], nested_descriptions: bool = True) -> str:
    """One function's part of the block, with the blank line after it: the text between ``HEAD`` and ``TAIL``
    that this function adds (so the block of several is ``HEAD + blocks + TAIL``). ``nested_descriptions``:
    a nested property's description is shown (current models; not by the 2023 ``-0613`` snapshots)."""
    lines = []
    desc = function.get("description")
    if isinstance(desc, str) and desc:
        lines.append(f"// {desc}")
    name = str(function.get("name", ""))
    params = function.get("parameters")
    props = params.get("properties") if isinstance(params, Mapping) else None
    if isinstance(params, Mapping) and isinstance(props, Mapping) and props:
        lines.append(f"type {name} = (_: {{")
        lines.extend(_properties(params, 0, 0, nested_descriptions))
        lines.append("}) => any;")
    else:
        lines.append(f"type {name} = () => any;")
    return "\n".join(lines) + "\n\n"


#: What precedes every function's block but the first: the end of the one before.
_BEFORE = "}) => any;\n\n"


def block_tokens(count: Callable[[str], int], function: Mapping[str, Any], nested_descriptions: bool = True) -> int:
    """The tokens ``function`` adds to the block. Counted after the end of a previous block, because o200k
    joins the blank line before a ``//`` comment to the punctuation before it: a block counted alone would be
    a token off at each boundary, and the sum of the parts would not be the whole."""
    return count(_BEFORE + function_block(function, nested_descriptions)) - count(_BEFORE)


def render(functions: list[Mapping[str, Any]], nested_descriptions: bool = True) -> str:
    """The whole block for ``functions`` (what the API shows the model)."""
    return HEAD + "".join(function_block(f, nested_descriptions) for f in functions) + TAIL


def _properties(schema: Mapping[str, Any], indent: int, depth: int, nested: bool) -> Iterator[str]:
    props = schema.get("properties")
    if not isinstance(props, Mapping):
        return
    required = schema.get("required")
    needed = set(x for x in required if isinstance(x, str)) if isinstance(required, list) else set()
    pad = " " * indent
    for key, sub in props.items():
        sub = sub if isinstance(sub, Mapping) else {}
        desc = sub.get("description", _branch_description(sub))
        if (nested or indent < 2) and isinstance(desc, str) and desc:
            yield f"{pad}// {desc}"
        mark = "" if key in needed else "?"
        line = f"{pad}{key}{mark}: {_type(sub, indent, depth + 1, nested)},"
        if "default" in sub:
            line += f" // default: {_literal(sub['default'])}"
        yield line


def _branch_description(schema: Mapping[str, Any]) -> Any:
    """A nullable union's description, where a strict conversion moved it into the non-null branch (shown as the
    property's: not verified, no published pair has one)."""
    union = schema.get("anyOf")
    if isinstance(union, list):
        return next((b.get("description") for b in union if isinstance(b, Mapping) and "description" in b), None)
    return None


def _literal(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return "any"


def _type(schema: Mapping[str, Any], indent: int, depth: int, nested: bool) -> str:
    if depth > MAX_DEPTH:
        return "any"
    union = schema.get("anyOf", schema.get("oneOf"))
    if isinstance(union, list) and union:
        return " | ".join(_type(s if isinstance(s, Mapping) else {}, indent, depth + 1, nested) for s in union)
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(_type({**schema, "type": k}, indent, depth + 1, nested) for k in kind) or "any"
    enum = schema.get("enum")
    if kind == "string":
        if isinstance(enum, list):
            return " | ".join(f'"{v}"' for v in enum)
        return "string"
    if kind in ("number", "integer"):
        if isinstance(enum, list):
            return " | ".join(_literal(v) for v in enum)
        return "number"
    if kind in ("boolean", "null"):
        return str(kind)
    if kind == "object":
        inner = "\n".join(_properties(schema, indent + 2, depth, nested))
        return "{\n" + inner + "\n}"  # the closing brace is not indented (as the pairs were counted)
    if kind == "array":
        items = schema.get("items")
        return _type(items, indent, depth + 1, nested) + "[]" if isinstance(items, Mapping) else "any[]"
    return "any"


__all__ = ["HEAD", "MAX_DEPTH", "TAIL", "block_tokens", "function_block", "render"]
