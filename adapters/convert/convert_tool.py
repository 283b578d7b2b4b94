"""``convert``: a canonical tool → one target's tool object, with every loss accounted for."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..canonical import ANTHROPIC_ONLY, UNKNOWN_KEY, CanonicalTool
from ..errors import ConversionError
from ..jsonvalue import copy_json
from ..losses import Action, Effect, Loss
from ..providers import has_strict, name_rule, profile
from ..targets import TargetOptions
from .accept import Violation, first_violation, list_violation, root_problem
from .forms import named_strict
from .lowered import Lowered
from .nodes import no_arguments
from .profile_mode import Mode, profile_mode
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

    @property
    def refusal(self) -> Loss | None:
        """The first ``rejected`` loss: why nothing may be sent (None when the output may be sent)."""
        return next((loss for loss in self.losses if loss.action == Action.REJECTED), None)

    def sendable(self) -> dict[str, Any]:
        """The output, or ``ConversionError`` naming the rule and the place when toolcast refuses it."""
        if self.refusal is not None:
            raise _refused(self.refusal)
        return self.output


@dataclass(frozen=True)
class ListConversion:
    target: str
    output: Any
    conversions: tuple[Conversion, ...]
    #: Why the list as a whole may not be sent (a provider's limit on one request's tools), or None.
    refusal: Loss | None = None

    @property
    def ok(self) -> bool:
        return self.refusal is None and all(c.ok for c in self.conversions)

    def sendable(self) -> Any:
        """The output, or ``ConversionError`` for the list or the first tool toolcast refuses."""
        if self.refusal is not None:
            raise _refused(self.refusal)
        for c in self.conversions:
            c.sendable()
        return self.output


def _refused(loss: Loss) -> ConversionError:
    """The error for a refusal: the target, the rule (or keyword) and the place."""
    return ConversionError(loss.target, "from_canonical", f"{loss.keyword}: {loss.message}", loss.pointer)


def mode_name(tool: CanonicalTool, target: str, options: TargetOptions) -> str:
    """Which profile mode applies: strict/non_strict for targets that have both, else their one mode."""
    if not has_strict(target):
        return "default"
    strict = named_strict(target, tool.overrides, tool.source_format, options)
    return "strict" if strict else "non_strict"


#: How a schema is lowered: ``(schema, base pointer, target, mode, mode id)`` → the walker's result. The
#: mode id (``ProviderProfile.mode_ids``; ``/returns`` appended for the mode of return values) names equal
#: modes equally.
Lowering = Callable[[Any, str, str, Mode, str], Lowered]


def _walk(schema: Any, base: str, target: str, mode: Mode, mode_id: str) -> Lowered:
    return lower(schema, base, target, mode)


def convert(tool: CanonicalTool, target: str, options: TargetOptions | None = None, *,
            lowering: Lowering = _walk, judged: bool = True) -> Conversion:
    """``tool`` as ``target``'s tool object, with every loss. ``lowering`` is the walker; the checks pass a
    ``SharedLowering``, which gives the same losses for less work and an output not meant to be sent.
    ``judged=False`` leaves out the judge (``accept``): for a caller that only measures the output (the token
    counts), never one that sends it or reports its losses."""
    options = options or TargetOptions()
    mode_key = mode_name(tool, target, options)
    prof = profile(target)
    mode = profile_mode(target, mode_key)  # built once per profile mode
    losses: list[Loss] = []
    roundtrip: dict[str, Any] = {}
    override = tool.overrides.get(target, {})

    name: str = override["name"] if isinstance(override.get("name"), str) else tool.name
    safe = sanitize_name(name, target)
    if safe != name:
        losses.append(Loss(target, "/name", "name", name, Action.LOWERED, Effect.NEUTRAL,
                           f"name `{name}` is not valid for {target}; sent as `{safe}` (mapped back by toolcast)"))
        roundtrip["name"] = tool.name
    elif name != tool.name:
        roundtrip["name"] = tool.name
    description = override.get("description") if isinstance(override.get("description"), str) else tool.description
    limit = name_rule(target).description_max
    if description is not None and limit is not None and len(description) > limit:
        # OpenAI rejects the whole request for a longer description (providers.md §1.2): the text is cut
        # so the tool can still be sent. Not neutral: the model no longer reads what was cut (guidance, and
        # constraints folded into the text), so it may send what the author ruled out: widening.
        losses.append(Loss(target, "/description", "description", description, Action.DROPPED, Effect.WIDENING,
                           f"description is {len(description):,} characters; {target} accepts at most "
                           f"{limit:,}: cut to {limit:,}"))
        description = description[:limit]

    lowered = lowering(tool.parameters, "/parameters", target, mode, prof.mode_ids[mode_key])
    params = lowered.schema
    losses.extend(lowered.losses)
    roundtrip.update(lowered.record)
    returns = None
    if tool.returns is not None and target in _RETURNS_KEY:
        lowered = lowering(tool.returns, "/returns", target, profile_mode(target, mode_key, for_returns=True),
                           prof.mode_ids[mode_key] + "/returns")
        returns = lowered.schema
        losses.extend(lowered.losses)
    ctx = _Ctx(tool, target, mode_key == "strict", options, losses)
    body = _ENVELOPES[target](ctx, safe, description, params, returns)
    _metadata_losses(ctx)
    # Every output is judged before it is sent (``accept``); a schema a fast lowering handed back unwalked
    # (``SharedLowering``: the checks' losses) is not an output, and ``facts.quiet`` keeps such a fast path
    # to schemas whose output passes.
    unwalked = frozenset(f for f, s, o in (("parameters", params, tool.parameters), ("returns", returns, tool.returns))
                         if isinstance(o, dict) and s is o)
    refused = any(x.action == Action.REJECTED for x in losses)  # already refused: the output is a placeholder
    violation: Violation | None = None if refused or not judged else first_violation(target, body, unwalked)
    if violation is not None:
        losses.append(violation.loss(target))
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
    refused = list_violation(target, items)
    return ListConversion(target, output, conversions, refused.loss(target) if refused is not None else None)


def sanitize_name(name: str, target: str) -> str:
    """The closest name ``target`` accepts (the checks' TC204 proposes the same: one ``NameRule``)."""
    return name_rule(target).sanitise(name)


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


def _declared(ctx: _Ctx, params: Any) -> Any:
    """OpenAI rejects an object schema without ``properties``, strict or not ("object schema missing
    properties", spring-projects/spring-ai#4776): an empty map says the same thing and is accepted."""
    if not isinstance(params, dict) or "properties" in params or root_problem(params) is not None:
        return params
    ctx.losses.append(Loss(ctx.target, "/parameters/properties", "properties", None, Action.LOWERED, Effect.NEUTRAL,
                           f"{ctx.target} rejects an object schema without `properties`: `properties: {{}}` added"))
    return {**params, "properties": {}}


def _openai(ctx: _Ctx, name: str, desc: str | None, params: Any, returns: Any) -> dict[str, Any]:
    fn = _named(name, desc)
    fn["parameters"] = _declared(ctx, params)
    fn["strict"] = ctx.strict
    ctx.carried = frozenset({"name", "description", "parameters"})
    return {"type": "function", "function": fn}


def _openai_responses(ctx: _Ctx, name: str, desc: str | None, params: Any, returns: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "function", "name": name}
    if desc is not None:
        out["description"] = desc
    out["parameters"] = _declared(ctx, params)
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
    for key in ANTHROPIC_ONLY:
        if key in ctx.tool.source_meta and (key != "type" or ctx.tool.source_meta[key] == "custom"):
            out[key] = copy_json(ctx.tool.source_meta[key])
    kind = ctx.tool.source_meta.get("type", "custom")
    if kind != "custom":  # a server tool's type (`bash_…`): what is sent is a custom tool with this schema
        ctx.losses.append(Loss(ctx.target, "/type", "type", copy_json(kind), Action.DROPPED, Effect.NEUTRAL,
                               f"`type: {kind}` is not a custom tool; sent as a custom tool"))
    ctx.carried = frozenset(carried)
    return out


def _gemini(ctx: _Ctx, name: str, desc: str | None, params: Any, returns: Any) -> dict[str, Any]:
    out = _named(name, desc)
    upper = ctx.options.gemini_type_case == "upper"
    if isinstance(params, dict) and params.get("properties", {}) == {} and "anyOf" not in params \
            and root_problem(params, allow_null=True) is None:
        # No declared argument: Gemini rejects an OBJECT without properties, so no parameters are sent.
        if not no_arguments(ctx.tool.parameters, is_root=True):  # a no-argument tool loses nothing
            ctx.losses.append(Loss(ctx.target, "/parameters", "properties", None, Action.LOWERED, Effect.NARROWING,
                                   f"no declared properties: sent without `parameters` ({ctx.target} rejects an "
                                   "object without properties), so no argument can be sent"))
    else:
        out["parameters"] = _gemini_case(params, upper)
    if returns is not None:
        out["response"] = _gemini_case(returns, upper)
    if "behavior" in ctx.tool.source_meta:
        out["behavior"] = copy_json(ctx.tool.source_meta["behavior"])
    ctx.carried = frozenset({"name", "description", "parameters", "returns"})
    return out


def _gemini_json(ctx: _Ctx, name: str, desc: str | None, params: Any, returns: Any) -> dict[str, Any]:
    out = _named(name, desc)
    out["parametersJsonSchema"] = params
    if returns is not None:
        out["responseJsonSchema"] = returns
    if "behavior" in ctx.tool.source_meta:
        out["behavior"] = copy_json(ctx.tool.source_meta["behavior"])
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
    for key in ("_meta", "icons", "execution"):
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


#: Fields a source shape has and toolcast keeps in ``source_meta``, by the target that has them (``behavior``:
#: both Gemini routes, listed once so that another target reports its loss once).
_SOURCE_ONLY: dict[str, tuple[str, ...]] = {
    "anthropic": ANTHROPIC_ONLY, "mcp": ("_meta", "icons", "execution"), "gemini": ("behavior",),
}


def _metadata_losses(ctx: _Ctx) -> None:
    meta = ctx.tool.source_meta
    for owner, keys in _SOURCE_ONLY.items():
        for key in keys:
            if key not in meta or ctx.target == owner or (key == "behavior" and ctx.target.startswith("gemini")):
                continue
            if key == "type" and meta[key] == "custom":
                continue  # Anthropic's default tool kind: the same thing as every other target's function tool
            ctx.losses.append(Loss(ctx.target, "/" + key, key, copy_json(meta[key]), Action.DROPPED, Effect.NEUTRAL,
                                   f"`{key}` is a {owner} field; {ctx.target} has no such field: not sent"))
    unknown = meta.get(UNKNOWN_KEY)
    if isinstance(unknown, dict):
        for key, value in unknown.items():
            ctx.losses.append(Loss(ctx.target, "/" + key, key, copy_json(value), Action.DROPPED, Effect.NEUTRAL,
                                   f"unknown tool field `{key}`: not sent to {ctx.target}"))
    for key in _METADATA:
        value = getattr(ctx.tool, key)
        if value is None or value == () or key in ctx.carried:
            continue
        value = list(value) if isinstance(value, tuple) else copy_json(value)
        ctx.losses.append(Loss(ctx.target, "/" + key, key, value, Action.DROPPED, Effect.NEUTRAL,
                               f"{ctx.target} tools have no `{key}`; not sent"))
