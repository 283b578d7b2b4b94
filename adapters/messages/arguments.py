"""Tool calls mapped back to the canonical tools: the original name for a sanitised one, and the
arguments as the original schema expects them (a ``null`` for an optional property that OpenAI strict
mode made required and nullable means "absent"), then validated against the original parameters."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from .. import pointer as jp
from ..canonical import CanonicalTool
from ..convert import Conversion
from ..losses import Action
from ..schema.bounded import instance_problems
from .conversation import ToolCall


def to_canonical_call(call: ToolCall, tools: tuple[CanonicalTool, ...],
                      conversions: tuple[Conversion, ...]) -> tuple[ToolCall, CanonicalTool | None]:
    """The call with the tool's original name and arguments, and the tool it calls (None if unknown)."""
    for tool, conv in zip(tools, conversions, strict=True):
        if call.name not in (wire_name(conv.output), tool.name):
            continue
        optional = frozenset(conv.roundtrip.get("optional") or [])
        texts = frozenset(conv.roundtrip.get("json_text") or [])
        # A `prefixItems` the target did not keep (OpenAI strict folds it) no longer governs its items there:
        # the call's items all answered the converted `items`, so they are read back with it.
        loose = frozenset(x.pointer for x in conv.losses
                          if x.keyword == "prefixItems" and x.action in (Action.FOLDED, Action.DROPPED))
        args = _drop_nulls(call.arguments, tool.parameters, "/parameters", (optional, texts, loose),
                           tool.parameters, 0) if optional or texts else dict(call.arguments)
        return replace(call, name=tool.name, arguments=args), tool
    return call, None


def wire_name(output: dict[str, Any]) -> str | None:
    """A converted tool's name, whatever its envelope (Chat's ``function``, Bedrock's ``toolSpec``)."""
    for key in ("function", "toolSpec"):
        if isinstance(output.get(key), dict):
            output = output[key]
    name = output.get("name")
    return name if isinstance(name, str) else None


_MAX_DEPTH = 64
_BRANCH = re.compile(r"/anyOf/\d+")


def _is_text(ptr: str, texts: frozenset[str]) -> bool:
    """``ptr`` or one of the ``anyOf`` branches Gemini's one-type-per-node rule split it into."""
    return ptr in texts or any(t.startswith(ptr) and _BRANCH.fullmatch(t[len(ptr):]) for t in texts)


def _drop_nulls(value: Any, schema: Any, ptr: str, record: tuple[frozenset[str], frozenset[str], frozenset[str]],
                root: Any, depth: int, following: frozenset[str] = frozenset()) -> Any:
    """``value`` with every null removed that answers an optional property strict mode made required,
    at any depth: the arguments are walked together with the original schema (properties, items,
    ``prefixItems``, additional properties, combinator branches and local ``$ref``s, whose pointers
    are the ones the converter recorded: ``/parameters/$defs/X/properties/y``). A free-form object Gemini
    was asked to send as JSON text (``json_text``) is parsed back. A ``prefixItems`` the target did not keep
    (its pointer in ``loose``) is passed over: the converted ``items`` governed every item of the call."""
    optional, texts, loose = record
    if isinstance(value, str):
        return _from_text(value, schema, ptr, texts, root, depth, following)
    if depth > _MAX_DEPTH or not isinstance(schema, dict) or not isinstance(value, (dict, list)):
        return value
    # ``following``: the references followed for this same value; one of them again is a loop
    # (``D = anyOf[{$ref: D}, …]``) that only multiplies the work, never the answer.
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#") and ref not in following:
        target = jp.resolve(root, ref[1:], None)
        value = _drop_nulls(value, target, "/parameters" + ref[1:], record, root, depth + 1, following | {ref})
    for key in ("anyOf", "oneOf", "allOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            for i, branch in enumerate(branches):
                value = _drop_nulls(value, branch, jp.join(ptr, key, i), record, root, depth + 1, following)
    only = _one_branch(schema)
    if only is not None:  # read as its branch where a target needs objects: recorded at this node's pointer
        value = _drop_nulls(value, only, ptr, record, root, depth + 1, following)
    if isinstance(schema.get("allOf"), list):
        # Targets without `allOf` get the branches merged into this node, and the properties strict
        # mode made required are recorded where the merge put them (`ptr/properties/x`).
        schema = _merged(schema, root, depth)
    if isinstance(value, dict):
        props: dict[str, Any] = schema["properties"] if isinstance(schema.get("properties"), dict) else {}
        out: dict[str, Any] = {}
        for name, item in value.items():
            pptr = jp.join(ptr, "properties", name)
            if name in props:
                if item is None and pptr in optional:
                    continue
                out[name] = _drop_nulls(item, props[name], pptr, record, root, depth + 1)
            elif isinstance(schema.get("additionalProperties"), dict):
                out[name] = _drop_nulls(item, schema["additionalProperties"], jp.join(ptr, "additionalProperties"),
                                        record, root, depth + 1)
            else:
                out[name] = item
        return out
    items = schema.get("items")
    prefix: list[Any] = schema["prefixItems"] if isinstance(schema.get("prefixItems"), list) else []
    if isinstance(items, list):  # draft-07 tuple form: the converter walked it as `prefixItems`
        prefix, items = items, schema.get("additionalItems")
    if jp.join(ptr, "prefixItems") in loose:
        prefix = []
    result = []
    for i, item in enumerate(value):
        if i < len(prefix):
            result.append(_drop_nulls(item, prefix[i], jp.join(ptr, "prefixItems", i), record, root, depth + 1))
        else:
            result.append(_drop_nulls(item, items, jp.join(ptr, "items"), record, root, depth + 1))
    return result


def _from_text(value: str, schema: Any, ptr: str, texts: frozenset[str], root: Any, depth: int,
               following: frozenset[str] = frozenset()) -> Any:
    """``value`` parsed back if the converter asked for a free-form object as JSON text at ``ptr``, at a
    local ``$ref``'s definition (Gemini inlines it, recording ``/parameters/$defs/X``) or in one of the
    node's combinator branches (``oneOf`` becomes ``anyOf`` for Gemini, recorded at ``ptr/oneOf/i``)."""
    if _is_text(ptr, texts):
        try:
            parsed = json.loads(value)
        except ValueError:
            return value  # left as sent: the original schema's check reports it
        return parsed if isinstance(parsed, dict) else value
    if depth > _MAX_DEPTH or not isinstance(schema, dict):
        return value
    subs: list[tuple[Any, str]] = []
    ref = schema.get("$ref")
    after = following
    if isinstance(ref, str) and ref.startswith("#") and ref not in following:
        subs.append((jp.resolve(root, ref[1:], None), "/parameters" + ref[1:]))
        after = following | {ref}
    for key in ("anyOf", "oneOf", "allOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            subs.extend((branch, jp.join(ptr, key, i)) for i, branch in enumerate(branches))
    only = _one_branch(schema)
    if only is not None:
        subs.append((only, ptr))
    for sub, sub_ptr in subs:
        parsed = _from_text(value, sub, sub_ptr, texts, root, depth + 1, after)
        if parsed is not value:
            return parsed
    return value


def _one_branch(schema: dict[str, Any]) -> dict[str, Any] | None:
    """The branch of an ``anyOf``/``oneOf`` of one schema (not a ``$ref``): the converter reads such a node as
    that branch where a target needs objects (``walker._one_branch``), so what it records is at the node."""
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and len(branches) == 1 and isinstance(branches[0], dict) \
                and "$ref" not in branches[0]:
            return branches[0]
    return None


def _merged(schema: dict[str, Any], root: Any, depth: int) -> dict[str, Any]:
    """The node as the converter's ``allOf`` merge sees it: the branches' members (local ``$ref``
    branches resolved, nested ``allOf`` merged) joined into one node; a property two branches define
    differently becomes an ``allOf`` of both, as the converter makes it."""
    merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
    for raw in schema["allOf"]:
        branch = raw
        ref = branch.get("$ref") if isinstance(branch, dict) else None
        if isinstance(ref, str) and ref.startswith("#"):
            branch = jp.resolve(root, ref[1:], None)
        if isinstance(branch, dict) and isinstance(branch.get("allOf"), list) and depth < _MAX_DEPTH:
            branch = _merged(branch, root, depth + 1)
        if not isinstance(branch, dict):
            continue
        for key, member in branch.items():
            if key == "properties" and isinstance(member, dict) and isinstance(merged.get(key, {}), dict):
                props = merged["properties"] = dict(merged.get("properties", {}))
                for name, sub in member.items():
                    props[name] = {"allOf": [props[name], sub]} if name in props and props[name] != sub else sub
            else:
                merged.setdefault(key, member)
    return merged


def argument_errors(tool: CanonicalTool, arguments: dict[str, Any]) -> list[tuple[str, str]]:
    """(pointer into the arguments, message) for each way ``arguments`` break the tool's parameters; an
    argument a pattern could not be checked against in time is one of them (never a hang, never a pass)."""
    return instance_problems(tool.parameters, arguments)
