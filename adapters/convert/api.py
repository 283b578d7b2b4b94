"""``convert``: a canonical tool → one target's tool object, with every loss accounted for."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from ..errors import ConversionError
from ..jsonvalue import copy_json
from ..losses import Action, Effect, Loss
from ..model import CanonicalTool
from ..targets import STRICT_DEFAULT, TARGETS, TargetOptions
from .walker import lower


@dataclass(frozen=True)
class Conversion:
    target: str
    output: dict[str, Any]
    losses: tuple[Loss, ...]
    roundtrip: dict[str, Any]

    @property
    def ok(self) -> bool:
        """False when toolcast refuses the conversion (a ``rejected`` loss)."""
        return not any(loss.action == Action.REJECTED for loss in self.losses)


@dataclass(frozen=True)
class ListConversion:
    target: str
    output: Any
    conversions: tuple[Conversion, ...]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.conversions)


@cache
def _profile_text(target: str) -> str:
    return files("toolcast.schemas").joinpath("providers", f"{target}.json").read_text(encoding="utf-8")


def load_profile(target: str) -> dict[str, Any]:
    """The capability profile of ``target`` (a fresh copy)."""
    if target not in TARGETS:
        raise ConversionError(target, "from_canonical", f"unknown target; expected one of: {', '.join(TARGETS)}")
    data: dict[str, Any] = json.loads(_profile_text(target))
    return data


def mode_name(tool: CanonicalTool, target: str, options: TargetOptions) -> str:
    """Which profile mode applies: strict/non_strict for targets that have both, else their one mode."""
    if target not in STRICT_DEFAULT:
        return "default"
    strict = options.strict
    if strict is None:
        value = tool.overrides.get(target, {}).get("strict")
        strict = value if isinstance(value, bool) else STRICT_DEFAULT[target]
    return "strict" if strict else "non_strict"


def convert(tool: CanonicalTool, target: str, options: TargetOptions | None = None) -> Conversion:
    options = options or TargetOptions()
    profile = load_profile(target)
    mode_key = mode_name(tool, target, options)
    mode = profile["modes"][mode_key]
    losses: list[Loss] = []
    roundtrip: dict[str, Any] = {}
    override = tool.overrides.get(target, {})

    name: str = override["name"] if isinstance(override.get("name"), str) else tool.name
    safe = sanitize_name(name, profile["name"]["pattern"], profile["name"]["max_length"])
    if safe != name:
        losses.append(Loss(target, "/name", "name", name, Action.LOWERED, Effect.NEUTRAL,
                           f"name `{name}` is not valid for {target}; sent as `{safe}` (mapped back by toolcast)"))
        roundtrip["name"] = tool.name
    elif name != tool.name:
        roundtrip["name"] = tool.name
    description = override.get("description") if isinstance(override.get("description"), str) else tool.description

    params, plosses, record = lower(tool.parameters, "/parameters", target, mode)
    losses.extend(plosses)
    roundtrip.update(record)
    returns = None
    if tool.returns is not None and target in _RETURNS_KEY:
        returns, rlosses, _ = lower(tool.returns, "/returns", target, {**mode, "all_required": False,
                                                                       "closed_objects": False})
        losses.extend(rlosses)
    ctx = _Ctx(tool, target, mode_key == "strict", options, losses)
    body = _ENVELOPES[target](ctx, safe, description, params, returns)
    _metadata_losses(ctx)
    losses.sort(key=lambda x: (x.pointer, x.keyword))
    return Conversion(target, body, tuple(losses), roundtrip)


def convert_all(tools: Sequence[CanonicalTool], target: str, options: TargetOptions | None = None) -> ListConversion:
    conversions = tuple(convert(t, target, options) for t in tools)
    items = [c.output for c in conversions]
    output: Any
    if target in ("gemini", "gemini-json"):
        output = [{"functionDeclarations": items}]
    elif target == "bedrock":
        output = {"tools": items}
    else:
        output = items
    return ListConversion(target, output, conversions)


def sanitize_name(name: str, pattern: str, max_length: int) -> str:
    """The closest name the target accepts: invalid characters become `_`, cut to the maximum length."""
    rx = re.compile(pattern)
    if rx.fullmatch(name):
        return name
    allowed = re.compile(r"[A-Za-z0-9_.:-]") if "." in pattern else re.compile(r"[A-Za-z0-9_-]")
    out = "".join(c if allowed.fullmatch(c) else "_" for c in name) or "_"
    if not rx.fullmatch(out[:max_length]) and rx.fullmatch(("_" + out)[:max_length]):
        out = "_" + out
    return out[:max_length]


@dataclass
class _Ctx:
    tool: CanonicalTool
    target: str
    strict: bool
    options: TargetOptions
    losses: list[Loss]
    carried: frozenset[str] = frozenset()


def _gemini_case(schema: Any, upper: bool) -> Any:
    """Gemini `parameters` type names in the chosen case (the API accepts both)."""
    if isinstance(schema, list):
        return [_gemini_case(s, upper) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, str):
            out[key] = value.upper() if upper else value.lower()
        elif key in ("properties",) and isinstance(value, dict):
            out[key] = {k: _gemini_case(v, upper) for k, v in value.items()}
        elif key in ("items", "anyOf"):
            out[key] = _gemini_case(value, upper)
        else:
            out[key] = value
    return out


def _named(name: str, desc: str | None) -> dict[str, Any]:
    """The name and description every envelope starts with (no description key when there is none)."""
    return {"name": name} if desc is None else {"name": name, "description": desc}


def _openai(ctx: _Ctx, name: str, desc: str | None, params: Any, returns: Any) -> dict[str, Any]:
    fn = _named(name, desc)
    fn["parameters"] = params
    fn["strict"] = ctx.strict
    ctx.carried = frozenset({"name", "description", "parameters"})
    return {"type": "function", "function": fn}


def _openai_responses(ctx: _Ctx, name: str, desc: str | None, params: Any, returns: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "function", "name": name}
    if desc is not None:
        out["description"] = desc
    out["parameters"] = params
    out["strict"] = ctx.strict  # always explicit: omitted, Responses silently normalises to strict
    if returns is not None:
        out["output_schema"] = returns
    ctx.carried = frozenset({"name", "description", "parameters", "returns"})
    return out


def _anthropic(ctx: _Ctx, name: str, desc: str | None, params: Any, returns: Any) -> dict[str, Any]:
    out = _named(name, desc)
    out["input_schema"] = params
    if ctx.strict:
        out["strict"] = True
    carried = {"name", "description", "parameters"}
    if ctx.tool.examples:
        out["input_examples"] = [copy_json(e) for e in ctx.tool.examples]
        carried.add("examples")
    ctx.carried = frozenset(carried)
    return out


def _gemini(ctx: _Ctx, name: str, desc: str | None, params: Any, returns: Any) -> dict[str, Any]:
    out = _named(name, desc)
    upper = ctx.options.gemini_type_case == "upper"
    if isinstance(params, dict) and params.get("properties") in (None, {}) and set(params) <= {"type", "properties"}:
        pass  # a tool without arguments: Gemini rejects an empty OBJECT, so send no parameters
    else:
        out["parameters"] = _gemini_case(params, upper)
    if returns is not None:
        out["response"] = _gemini_case(returns, upper)
    ctx.carried = frozenset({"name", "description", "parameters", "returns"})
    return out


def _gemini_json(ctx: _Ctx, name: str, desc: str | None, params: Any, returns: Any) -> dict[str, Any]:
    out = _named(name, desc)
    out["parametersJsonSchema"] = params
    if returns is not None:
        out["responseJsonSchema"] = returns
    ctx.carried = frozenset({"name", "description", "parameters", "returns"})
    return out


def _mistral(ctx: _Ctx, name: str, desc: str | None, params: Any, returns: Any) -> dict[str, Any]:
    fn = _named(name, desc)
    fn["parameters"] = params
    if ctx.strict:
        fn["strict"] = True
    ctx.carried = frozenset({"name", "description", "parameters"})
    return {"type": "function", "function": fn}


def _mcp(ctx: _Ctx, name: str, desc: str | None, params: Any, returns: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name}
    tool = ctx.tool
    if tool.title is not None:
        out["title"] = tool.title
    if desc is not None:
        out["description"] = desc
    out["inputSchema"] = params
    if returns is not None:
        out["outputSchema"] = returns
    if tool.annotations is not None:
        out["annotations"] = copy_json(tool.annotations)
    for key in ("_meta", "icons"):
        if key in tool.source_meta:
            out[key] = copy_json(tool.source_meta[key])
    ctx.carried = frozenset({"name", "description", "parameters", "returns", "title", "annotations"})
    return out


def _bedrock(ctx: _Ctx, name: str, desc: str | None, params: Any, returns: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {"name": name}
    if desc:
        spec["description"] = desc
    spec["inputSchema"] = {"json": params}
    if ctx.strict:
        spec["strict"] = True
    ctx.carried = frozenset({"name", "description", "parameters"})
    return {"toolSpec": spec}


_ENVELOPES: dict[str, Callable[[_Ctx, str, str | None, Any, Any], dict[str, Any]]] = {
    "openai": _openai, "openai-responses": _openai_responses, "anthropic": _anthropic, "gemini": _gemini,
    "gemini-json": _gemini_json, "mistral": _mistral, "mcp": _mcp, "bedrock": _bedrock,
}
_RETURNS_KEY = {"openai-responses", "gemini", "gemini-json", "mcp"}

#: Tool fields that are descriptive only: a target without them loses nothing a model could call with.
_METADATA = ("title", "namespace", "version", "category", "tags", "timeout", "required_scopes",
             "annotations", "examples", "returns")


def _metadata_losses(ctx: _Ctx) -> None:
    for key in _METADATA:
        value = getattr(ctx.tool, key)
        if value is None or value == () or key in ctx.carried:
            continue
        value = list(value) if isinstance(value, tuple) else copy_json(value)
        ctx.losses.append(Loss(ctx.target, "/" + key, key, value, Action.DROPPED, Effect.NEUTRAL,
                               f"{ctx.target} tools have no `{key}`; not sent"))
