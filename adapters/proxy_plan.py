"""What ``toolcast proxy`` serves in place of an MCP server's tools, and how a call comes back: pure functions
over the server's ``tools/list`` result (JSON) and a host/model selection.

``lower_tools`` converts each tool for the provider dialect the selected hosts and models send tools in
(``dialect``), with toolcast's own converter, then serves it as an MCP tool again: the name the provider
accepts, made to fit the host's prefixed-name limit with a stable short hash, and the lowered schema as its
``inputSchema`` (JSON Schema words, lower-case types). A tool the provider would reject, or that still breaks
a selected host's or model's rule once lowered, is left out with the reason; nothing is served broken.
``Plan.map_call`` takes a ``tools/call`` as the host sends it back to the server's own name and arguments
(the converter's round-trip record: nulls for absent, lowered unions) and validates them against the
server's own schema."""

from __future__ import annotations

import fnmatch
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any

from jsonschema import FormatChecker

from . import pointer as jp
from .canonical import CanonicalTool
from .checks.config import CheckConfig
from .checks.consumer_checks import active, prefixed_name, tool_raws
from .consumers import MODEL_PREFIXES, Consumer, consumer, model_family, model_provider
from .convert import Conversion, convert
from .cost import TokenCosts
from .errors import ToolcastError
from .jsonvalue import copy_json
from .loading import load_tools
from .losses import Action, Loss
from .mapped_call import CallProblem, MappedCall
from .messages import ToolCall, argument_errors, to_canonical_call
from .rules.codes import CONSUMER_NAME_CHARS
from .schema import BoundedValidator, PatternTooCostly
from .targets import TARGETS, TargetOptions

#: The provider dialect a host's tools reach when no model is named: the provider of its default model.
#: Hosts that let the user pick any model default to OpenAI's (non-strict) Chat dialect; naming the model
#: (``--model gemini-2.5-pro``) chooses Gemini's subset for them.
HOST_DIALECTS: Mapping[str, str] = MappingProxyType({
    "gemini-cli": "gemini", "claude-code": "anthropic", "claude-desktop": "anthropic", "codex-cli": "openai",
    "vscode": "openai", "cursor": "openai", "windsurf": "openai", "zed": "anthropic", "roo-code": "anthropic",
    # Copilot CLI starts on Claude Sonnet ("By default, copilot utilizes Claude Sonnet 4.5", its README at
    # github/copilot-cli@02287ec1); --model picks GPT or Gemini instead.
    "copilot-cli": "anthropic",
    # Copilot for JetBrains: Copilot's models and service, as VS Code's Copilot above.
    "copilot-jetbrains": "openai",
    # Google's own agent IDE runs Gemini models unless the user picks another; reports of Gemini's schema
    # errors name it among the Gemini clients (stape-io/stape-mcp-server#35).
    "antigravity": "gemini",
    # Bring-your-own-provider hosts: no default model, so OpenAI's Chat dialect, as for Cursor and Windsurf.
    "opencode": "openai", "cline": "openai", "librechat": "openai",
})
#: When the selection reaches several dialects, tools are lowered for the one with the fewest schema words.
_STRICTEST = ("gemini", "openai", "mistral", "anthropic", "bedrock")
#: What the served MCP tool keeps of the server's tool besides its name, description and input schema.
_KEPT = ("title", "outputSchema", "annotations", "execution", "icons", "_meta")
_MCP_FIELDS: Mapping[str, str] = MappingProxyType({"name": "/name", "parameters": "/inputSchema"})
_HASH_CHARS = 6


class ProxySettingsError(ToolcastError, ValueError):
    """A selection the proxy cannot serve for (an unknown host, model or target)."""


@dataclass(frozen=True)
class ProxySettings:
    """Whom the tools are lowered for, and which of them are served."""

    hosts: tuple[str, ...] = ()
    models: tuple[str, ...] = ()
    #: The name the host knows the server by (the prefix of host-prefixed names); else the server's own.
    server_name: str | None = None
    #: Globs over the server's tool names (and the served names): only these / not these.
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_tools: int | None = None
    #: Forces the provider dialect (else chosen from the models, then the hosts).
    target: str | None = None


@dataclass(frozen=True)
class ServedTool:
    """One tool as served: ``served`` is the MCP tool the host sees; ``losses`` what it lost on the way."""

    name: str
    original_name: str
    served: dict[str, Any]
    losses: tuple[Loss, ...]
    # What the calls coming back are read with: the canonical tool and its conversion, as lowered.
    tool: CanonicalTool = field(repr=False, compare=False)
    conversion: Conversion = field(repr=False, compare=False)


@dataclass(frozen=True)
class LeftOut:
    """A tool of the server not served, and why."""

    name: str
    reason: str


@dataclass(frozen=True)
class Plan:
    target: str
    served: tuple[ServedTool, ...]
    left_out: tuple[LeftOut, ...]
    _by_name: Mapping[str, ServedTool] = field(repr=False, compare=False, default_factory=dict)

    def tools(self) -> list[dict[str, Any]]:
        """The ``tools/list`` result's tools, as served (fresh copies)."""
        return [copy_json(t.served) for t in self.served]

    def find(self, name: str) -> ServedTool | None:
        return self._by_name.get(name)

    def map_call(self, name: str, arguments: Mapping[str, Any] | None) -> MappedCall | None:
        """The call to the server for a call of served tool ``name``; None for a name this plan does not serve."""
        tool = self._by_name.get(name)
        if tool is None:
            return None
        wire = _wire_name(tool.conversion.output) or tool.original_name
        back, _ = to_canonical_call(ToolCall("proxy", wire, dict(arguments or {})), (tool.tool,), (tool.conversion,))
        problems = validate_arguments(tool.tool, back.arguments)
        return MappedCall("", tool.original_name, back.arguments, tuple(CallProblem(p, m) for p, m in problems))

    def tokens(self, costs: TokenCosts | None = None) -> int | None:
        """Estimated tokens of the served tools in one request to ``target`` (None: no tokenizer); counted when
        asked, after the list is served."""
        return (costs or TokenCosts()).converted([t.conversion.output for t in self.served], self.target).tokens

    def summary(self) -> dict[str, Any]:
        """The JSON form of the plan (``--dry-run --format json`` and the log's start record)."""
        return {"target": self.target, "tokens": self.tokens(),
                "served": [{"name": t.name, "server_name": t.original_name, "losses": [x.to_dict() for x in t.losses]}
                           for t in self.served],
                "left_out": [{"name": x.name, "reason": x.reason} for x in self.left_out]}


def validate_arguments(tool: CanonicalTool, arguments: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """Where ``arguments`` break the server's own schema for ``tool``: the one place the proxy validates.
    Formats are asserted too (a lowered schema states them in the description only, and servers such as
    zod-based ones reject a malformed URL), for the formats ``_formats`` knows."""
    problems = argument_errors(tool, arguments)
    if problems or not _mentions_format(tool.parameters):
        return tuple(problems)
    try:  # bounded like the first pass: a pattern `re` would backtrack on for ever is met again here
        validator = BoundedValidator(tool.parameters, format_checker=_formats())
        found = [e for e in validator.iter_errors(arguments) if e.validator == "format"]
    except PatternTooCostly as exc:  # in time a moment ago, not now: never a silent pass
        return (("", f"the arguments could not be checked in time: {exc}"),)
    except Exception:  # a schema the checks already could not apply (argument_errors said so)
        return ()
    return tuple((jp.from_parts([str(p) for p in e.absolute_path]), e.message) for e in found)


def _mentions_format(schema: Any) -> bool:
    return '"format"' in json.dumps(schema)


def _formats() -> Any:
    """A checker of the formats asserted, built per call (the core keeps no module state): jsonschema's own
    (without `regex`: a pattern a model sent is not compiled here) and `uri` / `date-time`, which jsonschema
    checks only with optional packages."""
    checker = FormatChecker([f for f in ("date", "email", "ipv4", "ipv6", "uuid") if f in FormatChecker.checkers])

    @checker.checks("uri", raises=ValueError)
    def _uri(value: object) -> bool:
        if not isinstance(value, str):
            return True
        return bool(_URI.fullmatch(value))

    @checker.checks("date-time", raises=ValueError)
    def _date_time(value: object) -> bool:
        if not isinstance(value, str):
            return True
        datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
        return "T" in value.upper()

    return checker


#: An absolute URI (RFC 3986): a scheme, then no spaces.
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]*")


def selection(settings: ProxySettings) -> tuple[Consumer, ...]:
    """The profiles named, validated (``ProxySettingsError`` names the known ones)."""
    try:
        return tuple(consumer(h) for h in settings.hosts) + tuple(model_family(m) for m in settings.models
                                                                    if _family_of(m))
    except ToolcastError as exc:
        raise ProxySettingsError(str(exc)) from None


def _family_of(model: str) -> bool:
    try:
        model_family(model)
    except ToolcastError:
        return False
    return True


def dialect(settings: ProxySettings) -> str:
    """The provider dialect the tools are lowered for: forced, else the models', else the hosts'."""
    if settings.target is not None:
        if settings.target not in TARGETS:
            raise ProxySettingsError(f"unknown target {settings.target!r}; known: {', '.join(TARGETS)}")
        return settings.target
    found = [_model_dialect(m) for m in settings.models] or [_host_dialect(h) for h in settings.hosts] or ["openai"]
    return min(found, key=_STRICTEST.index)


def _model_dialect(model: str) -> str:
    provider = model_provider(model)
    if provider in _STRICTEST:
        return str(provider)
    known = ", ".join(sorted({p + "…" for p, _ in MODEL_PREFIXES}))
    raise ProxySettingsError(f"unknown model {model!r}: name one starting with {known} (or give --target)")


def _host_dialect(host: str) -> str:
    return consumer(host).over or HOST_DIALECTS.get(host, "openai")


def lower_tools(tools: Sequence[Mapping[str, Any]], settings: ProxySettings, server: str) -> Plan:
    """The plan for the server's ``tools`` (``tools/list`` JSON, in the server's order); ``server`` is the
    server's own name, used for host prefixes when ``settings.server_name`` is not given."""
    selection(settings)  # unknown names are the error, before anything is lowered
    target = dialect(settings)
    config = CheckConfig(targets=(target,), consumers=settings.hosts,
                         models=settings.models,  # a family's rules, and a host's rules for the model
                         server_name=settings.server_name or server)
    name_rules = [r for _, r in active(config) if r.kind == "name_length"]
    served: list[ServedTool] = []
    left: list[LeftOut] = []
    taken: set[str] = set()
    for raw in tools:
        name = str(raw.get("name", ""))
        if not _wanted(name, settings):
            left.append(LeftOut(name, "not included (--include/--exclude)"))
            continue
        outcome = _lower_one(raw, target, config, name_rules, taken)
        if isinstance(outcome, LeftOut):
            left.append(outcome)
            continue
        taken.add(outcome.name)
        served.append(outcome)
    cap = _tool_cap(settings, config)
    if cap is not None and len(served) > cap:
        left.extend(LeftOut(t.original_name, f"over the limit of {cap} tools") for t in served[cap:])
        served = served[:cap]
    return Plan(target, tuple(served), tuple(left), MappingProxyType({t.name: t for t in served}))


def _wanted(name: str, settings: ProxySettings) -> bool:
    if settings.include and not any(fnmatch.fnmatchcase(name, g) for g in settings.include):
        return False
    return not any(fnmatch.fnmatchcase(name, g) for g in settings.exclude)


def _tool_cap(settings: ProxySettings, config: CheckConfig) -> int | None:
    caps = [int(r.settings["max"]) for _, r in active(config) if r.kind == "max_tools"
            and r.effect in ("rejected", "dropped", "truncated")]
    if settings.max_tools is not None:
        caps.append(settings.max_tools)
    return min(caps) if caps else None


def _lower_one(raw: Mapping[str, Any], target: str, config: CheckConfig, name_rules: Sequence[Any],
               taken: set[str]) -> ServedTool | LeftOut:
    name = str(raw.get("name", ""))
    try:
        loaded = load_tools({"tools": [dict(raw)]}, "mcp")
        tool = loaded[0].tool
        conversion = convert(tool, target, TargetOptions(strict=False, gemini_type_case="lower"))
    except ToolcastError as exc:
        return LeftOut(name, f"cannot be read or converted: {exc}")
    except RecursionError:
        return LeftOut(name, "cannot be converted: the schema nests too deep")
    rejected = [x for x in conversion.losses if x.action == Action.REJECTED]
    if rejected:
        return LeftOut(name, f"{target} would reject it: " + "; ".join(f"{x.pointer}: {x.message}" for x in rejected))
    wire = _wire_name(conversion.output) or name
    served_name = _fit_name(wire, name, name_rules, config.server_name or "x", taken)
    served = _served_tool(raw, conversion, served_name)
    # A name's characters after the host's prefix come from the server's name in the host's configuration (the
    # served name is the provider's sanitised one): not the tool's fault, and not the proxy's to change.
    broken = [r for r in tool_raws(served, "mcp", _MCP_FIELDS, served_name, config)
              if r.data.get("severity") == "error" and r.code != CONSUMER_NAME_CHARS]
    if broken:
        return LeftOut(name, "breaks " + "; ".join(f"{r.pointer or '/'}: {r.message}" for r in broken))
    return ServedTool(served_name, name, served, _served_losses(conversion.losses), tool, conversion)


def _served_losses(losses: Sequence[Loss]) -> tuple[Loss, ...]:
    """The losses of what is served: the name, description and parameters (the tool's other fields, such as
    its title, annotations and output schema, are served as the server wrote them)."""
    return tuple(x for x in losses if x.pointer.split("/")[1:2] in (["name"], ["description"], ["parameters"]))


def _wire_name(output: Mapping[str, Any]) -> str | None:
    for key in ("function", "toolSpec"):
        inner = output.get(key)
        if isinstance(inner, Mapping):
            output = inner
    name = output.get("name")
    return name if isinstance(name, str) else None


def _lowered_schema(output: Mapping[str, Any]) -> Any:
    """The converted tool's parameters, whatever the provider calls them."""
    for key in ("function", "toolSpec"):
        inner = output.get(key)
        if isinstance(inner, Mapping):
            output = inner
    for key in ("parameters", "parametersJsonSchema", "input_schema", "inputSchema"):
        if key in output:
            value = output[key]
            return value.get("json", value) if key == "inputSchema" and isinstance(value, Mapping) else value
    return None


def _served_tool(raw: Mapping[str, Any], conversion: Conversion, name: str) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name}
    output = conversion.output
    inner = output.get("function") if isinstance(output.get("function"), Mapping) else output
    description = inner.get("description") if isinstance(inner, Mapping) else None
    if isinstance(description, str) and description:
        out["description"] = description
    schema = _lowered_schema(output)
    out["inputSchema"] = copy_json(schema) if isinstance(schema, Mapping) and schema else {"type": "object"}
    if out["inputSchema"].get("type") != "object":
        out["inputSchema"] = {"type": "object", **out["inputSchema"]}
    for key in _KEPT:
        if key in raw:
            out[key] = copy_json(raw[key])
    return out


def _fit_name(wire: str, original: str, rules: Sequence[Any], server: str, taken: set[str]) -> str:
    """``wire`` shortened, where a host's prefixed-name limit needs it, to a head and a hash of the server's
    name: stable across restarts and list changes, so a host's saved permissions keep naming the same tool."""
    digest = hashlib.blake2b(original.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
    suffix = "_" + digest[:_HASH_CHARS]
    name = wire
    for rule in rules:
        over = len(prefixed_name(rule, name, server)) - int(rule.settings["max"])
        if over > 0:
            name = name[: max(len(name) - over - len(suffix), 1)] + suffix
    if name in taken:  # two server names sanitised to one: the second keeps its own hash
        name = name[: max(len(name) - len(suffix), 1)] + suffix
        if name in taken:
            name = _with_full_hash(name, digest)
    return name


def _with_full_hash(name: str, digest: str) -> str:
    """A last resort for a name still taken: the full hash in place of the short one."""
    return name[: max(len(name) - len(digest) - 1, 1)] + "_" + digest


__all__ = ["HOST_DIALECTS", "LeftOut", "Plan", "ProxySettings", "ProxySettingsError", "ServedTool",
           "dialect", "lower_tools", "selection", "validate_arguments"]
