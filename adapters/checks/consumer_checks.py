"""Checks of the consumers' rules (TC9xx, ``adapters/consumers.py``): what the selected MCP hosts, APIs and
model families do to a tool (``tool_raws``) and to the tools of a request (``document_raws``), plus the
providers' own limit on tools per request (TC901, which needs no selection). Each finding names the consumer,
the rule's source and its confidence in its message (what hover and the CLI show) and in its data."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from jsonschema import Draft7Validator

from .. import pointer as jp
from ..consumers import (
    LOWERED_KINDS,
    Consumer,
    ConsumerRule,
    UnknownConsumer,
    consumer,
    model_family,
    model_named,
    provider_rules,
    provider_tool_limit,
)
from ..convert import convert
from ..convert.accept import field_of
from ..errors import ToolcastError
from ..loading import load_tools
from ..mode_settings import INTEGER_BOUNDS
from ..providers import DISPLAY_NAMES
from ..rules.codes import (
    CONSUMER_ARRAY_ITEMS,
    CONSUMER_BUDGET,
    CONSUMER_DESCRIPTION_LENGTH,
    CONSUMER_ENUM_VALUE,
    CONSUMER_INTEGER_RANGE,
    CONSUMER_KEYWORD,
    CONSUMER_META_SCHEMA,
    CONSUMER_NAME_CHARS,
    CONSUMER_NAME_LENGTH,
    CONSUMER_ROOT_PROPERTIES,
    CONSUMER_STRICT_KEYWORD,
    CONSUMER_STRICT_UNSUPPORTED,
    CONSUMER_TOOL_COUNT,
    CONSUMER_TOOLS_UNSUPPORTED,
    CONSUMER_TYPE_LIST,
    CONSUMER_TYPE_WITH_COMPOSITION,
    CONSUMER_UNTYPED_SCHEMA,
    PATTERN_DIALECT,
    PROVIDER_TOOL_COUNT,
)
from ..rules.findings import Severity
from ..schema.dialects import Refused, Unavailable, compiled, engine_label
from ..schema.fast_meta import certainly_valid
from ..schema.subschemas import BudgetExceeded, subschemas, types_of
from .config import CheckConfig
from .limit_checks import stated_for
from .raw import Unplaced

#: At most this many findings of one rule in one tool (a generated schema can repeat a fault many times).
_PER_RULE = 10
#: Without a configured server name, host prefixes are measured with the shortest one (a single character).
_SHORTEST_SERVER = "x"
_EFFECT_TEXT: Mapping[str, str] = MappingProxyType(
    {"rejected": "rejected", "dropped": "left out", "truncated": "cut", "renamed": "renamed",
     "stripped": "removed"})


def severity(rule: ConsumerRule) -> Severity:
    """Rejected or left out: error; cut or removed silently: warning; renamed: info. An unclear rule is never an
    error."""
    level = {"rejected": Severity.ERROR, "dropped": Severity.ERROR, "truncated": Severity.WARNING,
             "stripped": Severity.WARNING}.get(rule.effect, Severity.INFO)
    return Severity.WARNING if rule.confidence == "unclear" and level == Severity.ERROR else level


def _selected(consumers: tuple[str, ...], models: tuple[str, ...]) -> tuple[Consumer, ...]:
    """The hosts and APIs, and the families of the models that have one (a model named for a host's picker,
    such as `gpt-4.1` for VS Code, has only the host's rules for it)."""
    return tuple(consumer(n) for n in consumers) + tuple(f for f in map(_family, models) if f is not None)


def _family(model: str) -> Consumer | None:
    try:
        return model_family(model)
    except UnknownConsumer:
        return None




def _provider(target: str) -> Consumer:
    """The provider's own rules (``consumers.provider_rules``) as a consumer of that one target, leaving out those
    ``convert`` lowers (one finding per fact)."""
    rules = tuple(replace(r, targets=r.targets or (target,)) for r in provider_rules(target)
                  if not (r.kind in LOWERED_KINDS and r.confidence != "unclear"))
    return Consumer(target, DISPLAY_NAMES.get(target, target), "provider", rules)


def active(config: CheckConfig) -> Iterator[tuple[Consumer, ConsumerRule]]:
    """The rules of the configured targets' providers (always), and of the selected consumers that concern
    those targets and the named models."""
    for target in config.targets:
        who = _provider(target)
        for rule in who.rules:
            yield who, rule
    for who in _selected(config.consumers, config.models):
        for rule in who.rules:
            if (not rule.targets or any(t in config.targets for t in rule.targets)) and \
                    model_named(rule, config.models):
                yield who, rule


def _raw(code: str, who: str, rule: ConsumerRule, what: str, pointer: str, place: str = "value",
         target: str | None = None, **extra: Any) -> Unplaced:
    message = f"{what}: {rule.message} [{rule.cite()}]"
    data = {"consumer": who, "consumer_rule": rule.id, "sources": list(rule.sources),
            "confidence": rule.confidence, "effect": rule.effect, "severity": severity(rule).value, **extra}
    return Unplaced(code, message, pointer, place, target, data=data)


# --- one tool -------------------------------------------------------------------------------------------

def tool_raws(value: Any, shape: str, fields: Mapping[str, str], name: str | None,
              config: CheckConfig) -> list[Unplaced]:
    """The selected consumers' findings about one tool (pointers relative to the tool object)."""
    rules = list(active(config))
    if not rules or not isinstance(value, dict):
        return []
    params_ptr = fields.get("parameters", "/parameters")
    params = jp.resolve(value, params_ptr, None)
    name_ptr = fields.get("name", "/name")
    out: list[Unplaced] = []
    converted: dict[str, Any] = {}  # target -> the parameters as converted for it (each converted once)
    for who, rule in rules:
        label = who.display_name
        named = _as_the_host_sends(rules, who, rule) if name is not None else None
        if rule.kind == "name_length" and named is not None and name is not None:
            out.extend(_name_length(who, named, name, name_ptr, config.server_name))
        elif rule.kind == "name_chars" and named is not None and name is not None:
            out.extend(_name_chars(who, named, name, name_ptr, config.server_name))
        elif rule.kind == "strict" and _asks_strict(value, name_ptr, config, rule.targets or _over(who)):
            out.append(_raw(CONSUMER_STRICT_UNSUPPORTED, who.name, rule,
                            f"{label}: the tool is sent with `strict`, which this model rejects",
                            _strict_ptr(value, name_ptr), target=_first(rule.targets)))
        if not isinstance(params, dict) or shape == "legacy" or (shape == "gemini" and who.kind == "host"):
            continue  # hosts read JSON Schema: a Gemini OpenAPI schema reaches them converted, not as written
        try:
            if rule.kind in _SCHEMA_RULES and not _sent_passes(who, rule, value, shape, config, converted):
                out.extend(_SCHEMA_RULES[rule.kind](who, rule, params, params_ptr))
            elif rule.kind == "strict_keywords" and _asks_strict(value, name_ptr, config,
                                                                 rule.targets or _over(who)):
                out.extend(_strict_keywords(who, rule, params, params_ptr))
        except BudgetExceeded:
            continue  # the schema checks (TC003) already say that this schema was not fully walked
    return out


def _as_the_host_sends(rules: Sequence[tuple[Consumer, ConsumerRule]], who: Consumer,
                       rule: ConsumerRule) -> ConsumerRule | None:
    """A model family's rule on the bare name, measured on the name a selected host sends instead (its prefix
    and the server's name included: Gemini 2's 64 characters hold for Copilot CLI's `<server>-<tool>`); None when
    that host cuts or renames the name to fit already (VS Code, Zed, Gemini CLI, Codex CLI)."""
    if who.kind != "model" or rule.kind not in ("name_length", "name_chars") or rule.settings["format"] != "{tool}":
        return rule
    host = next((r for w, r in rules if w.kind == "host" and r.kind == "name_length"), None)
    if host is None:
        return rule
    if rule.kind == "name_length" and host.effect in ("truncated", "renamed") and \
            int(host.settings["max"]) <= int(rule.settings["max"]):
        return None
    kept = {k: host.settings[k] for k in ("format", "server_prefix_max", "lowercase_server") if k in host.settings}
    return replace(rule, settings=MappingProxyType({**rule.settings, **kept}))


def _sent_passes(who: Consumer, rule: ConsumerRule, value: Any, shape: str, config: CheckConfig,
                 converted: dict[str, Any]) -> bool:
    """Whether the schema toolcast sends passes ``rule``: a model's rule for a target (Gemini's types on every
    node) is judged on the parameters as converted for that target, not as written; the findings are then
    placed on the source (``_SCHEMA_RULES`` run on it). False for a rule without a configured target, a host's
    rule (a host sends the schema the server wrote, whichever model it picks), or a tool that does not convert:
    the source is judged."""
    target = next((t for t in rule.targets if t in config.targets), None)
    if target is None or who.kind == "host":
        return False
    if target not in converted:
        converted[target] = _converted_parameters(value, shape, target, config)
    sent = converted[target]
    if sent is None:
        return False
    if not isinstance(sent, dict):
        return True  # no parameters sent (a tool without arguments): nothing to judge
    return not _SCHEMA_RULES[rule.kind](who, rule, sent, "")


def _converted_parameters(value: Any, shape: str, target: str, config: CheckConfig) -> Any:
    """The parameters of ``value`` as ``convert`` sends them to ``target`` ("absent" as ``False``), or None when
    the tool does not load or the conversion is refused (the loss findings say why)."""
    try:
        loaded = load_tools(value, shape if shape not in (None, "canonical") else None)
        conv = convert(loaded[0].tool, target, config.options_for(target)) if loaded else None
    except (ToolcastError, ValueError, TypeError, KeyError):
        return None
    if conv is None or not conv.ok:
        return None
    params = field_of(target, conv.output, "parameters")
    return params if isinstance(params, dict) else False


def _over(who: Consumer) -> tuple[str, ...]:
    return (who.over,) if who.over else ()


def _first(targets: Sequence[str]) -> str | None:
    return targets[0] if targets else None


def prefixed_name(rule: ConsumerRule, tool: str, server: str) -> str:
    """The name the consumer gives ``tool`` of ``server`` before its length rule applies."""
    fmt = str(rule.settings["format"])
    if rule.settings.get("lowercase_server"):
        server = re.sub(r"[^a-z0-9_.-]+", "_", server.lower())
        tool = tool.replace(".", "_")
    cap = rule.settings.get("server_prefix_max")
    if isinstance(cap, int) and "{server}" in fmt:
        # The part before the tool name, with the server name cut so that it fits (VS Code: 18 characters).
        head = fmt.split("{tool}", 1)[0]
        room = cap - len(head.replace("{server}", ""))
        server = server[: max(room, 1)]
    return fmt.replace("{server}", server).replace("{tool}", tool)


def _name_length(who: Consumer, rule: ConsumerRule, name: str, name_ptr: str, server: str | None) -> list[Unplaced]:
    limit = int(rule.settings["max"])
    has_server = "{server}" in str(rule.settings["format"])
    full = prefixed_name(rule, name, server or _SHORTEST_SERVER)
    if len(full) <= limit:
        return []
    if not has_server:
        what = f"{who.display_name}: the name is {len(name)} characters (at most {limit})"
    elif server:
        what = (f"{who.display_name}: the name becomes `{full}` ({len(full)} characters, at most {limit}) with "
                f"server name {server!r}")
    else:
        what = (f"{who.display_name}: the name becomes {len(full)} characters even with a one-character server "
                f"name (at most {limit}; set `server_name` to check the real prefix)")
    what += f", and is {_EFFECT_TEXT[rule.effect]}"
    return [_raw(CONSUMER_NAME_LENGTH, who.name, rule, what, name_ptr, target=_first(rule.targets),
                 sent_name=full, length=len(full), limit=limit)]


def _name_chars(who: Consumer, rule: ConsumerRule, name: str, name_ptr: str, server: str | None) -> list[Unplaced]:
    pattern = str(rule.settings["pattern"])
    full = prefixed_name(rule, name, server or _SHORTEST_SERVER)
    if re.fullmatch(pattern, full):
        return []
    bad = sorted({c for c in full if not re.fullmatch(pattern, c)})
    shown = ", ".join(repr(c) for c in bad) if bad else "its form"
    if "{server}" not in str(rule.settings["format"]):
        what = f"{who.display_name}: the name has {shown}, outside `{pattern}`"
    elif server:
        what = (f"{who.display_name}: the name becomes `{full}` with server name {server!r}, and {shown} is "
                f"outside `{pattern}`")
    else:
        what = (f"{who.display_name}: the name has {shown}, outside `{pattern}` even with a one-character server "
                f"name (set `server_name` to check the real prefix)")
    return [_raw(CONSUMER_NAME_CHARS, who.name, rule, what, name_ptr, target=_first(rule.targets), sent_name=full,
                 characters=bad)]


def _array_items(who: Consumer, rule: ConsumerRule, params: dict[str, Any], ptr: str) -> list[Unplaced]:
    out = []
    for rel, node, _depth in subschemas(params):
        if "array" in types_of(node) and "items" not in node:
            tuple_note = " (a tuple: `prefixItems` without `items`)" if "prefixItems" in node else ""
            out.append(_raw(CONSUMER_ARRAY_ITEMS, who.name, rule,
                            f"{who.display_name}: array without `items`{tuple_note}", jp.join(ptr + rel, "items"),
                            "missing"))
            if len(out) >= _PER_RULE:
                break
    return out


def _draft07() -> Any:
    """A validator of schemas against the draft-07 meta-schema (cheap to build; no module-level cache)."""
    return Draft7Validator(Draft7Validator.META_SCHEMA)


def certainly_valid_07(schema: Any) -> bool:
    """True only for a schema the draft-07 meta-schema accepts, without jsonschema's milliseconds: the 2020-12
    pre-check constrains every keyword draft-07 does, at least as tightly, except `additionalItems` (a schema
    in draft-07, unknown in 2020-12), so a schema using it is left to jsonschema."""
    return certainly_valid(schema) and not any("additionalItems" in node for _, node, _ in subschemas(schema))


def _meta_schema(who: Consumer, rule: ConsumerRule, params: dict[str, Any], ptr: str) -> list[Unplaced]:
    if certainly_valid_07(params):
        return []
    out = []
    for err in sorted(_draft07().iter_errors(params), key=lambda e: [str(p) for p in e.absolute_path]):
        where = ptr + jp.from_parts([str(p) for p in err.absolute_path])
        out.append(_raw(CONSUMER_META_SCHEMA, who.name, rule,
                        f"{who.display_name}: not valid under JSON Schema draft-07 ({err.message})", where))
        if len(out) >= _PER_RULE:
            break
    return out


def _gemini_cli_untyped(node: Any, ptr: str) -> str | None:
    """The first node Gemini CLI's type check fails on (None: the tool is kept). A node needs a `type`
    unless it is an anyOf/allOf/oneOf whose branches pass; object properties and array items are checked
    below a typed node, nothing else."""
    if not isinstance(node, dict):
        return None
    if not node.get("type"):
        branches = [(k, node[k]) for k in ("anyOf", "allOf", "oneOf") if isinstance(node.get(k), list)]
        if not branches:
            return ptr
        for key, subs in branches:
            for i, sub in enumerate(subs):
                bad = _gemini_cli_untyped(sub, jp.join(ptr, key, i))
                if bad is not None:
                    return bad
    if node.get("type") == "object" and isinstance(node.get("properties"), dict):
        for key, sub in node["properties"].items():
            bad = _gemini_cli_untyped(sub, jp.join(ptr, "properties", key))
            if bad is not None:
                return bad
    if node.get("type") == "array" and node.get("items"):
        return _gemini_cli_untyped(node["items"], jp.join(ptr, "items"))
    return None


def _typed_nodes(who: Consumer, rule: ConsumerRule, params: dict[str, Any], ptr: str) -> list[Unplaced]:
    if rule.settings["mode"] == "gemini-cli":
        bad = _gemini_cli_untyped(params, "")
        if bad is None:
            return []
        return [_raw(CONSUMER_UNTYPED_SCHEMA, who.name, rule,
                     f"{who.display_name}: the schema node at `{bad or '/'}` has no `type`, so the tool is skipped",
                     jp.join(ptr + bad, "type"), "missing")]
    out = []
    for rel, node, _depth in subschemas(params):
        parent = jp.parts(rel)[-2:-1]
        if "type" in node or "$ref" in node or parent in (["$defs"], ["definitions"]):
            continue  # a `$ref` is replaced by its target, which is checked where it is defined
        out.append(_raw(CONSUMER_UNTYPED_SCHEMA, who.name, rule,
                        f"{who.display_name}: this schema node has no `type` (TYPE_UNSPECIFIED)",
                        jp.join(ptr + rel, "type"), "missing", target=_first(rule.targets)))
        if len(out) >= _PER_RULE:
            break
    return out


def _keyword_places(params: dict[str, Any], keywords: Sequence[str], own_nodes: bool = False) -> list[tuple[str, str]]:
    """(pointer of the node, keyword) for each of ``keywords`` in the schema, at most ``_PER_RULE`` nodes' worth;
    ``own_nodes`` leaves out the nodes under `$defs`/`definitions`."""
    out: list[tuple[str, str]] = []
    for rel, node, _depth in subschemas(params):
        if own_nodes and {"$defs", "definitions"} & set(jp.parts(rel)):
            continue
        out.extend((rel, key) for key in keywords if key in node)
        if len(out) >= _PER_RULE:
            break
    return out


def _strict_keywords(who: Consumer, rule: ConsumerRule, params: dict[str, Any], ptr: str) -> list[Unplaced]:
    return [_raw(CONSUMER_STRICT_KEYWORD, who.name, rule, f"{who.display_name}: `{key}` in a strict tool",
                 jp.join(ptr + rel, key), "key", target=_first(rule.targets) or who.over)
            for rel, key in _keyword_places(params, tuple(rule.settings["keywords"]))]


def _keywords(who: Consumer, rule: ConsumerRule, params: dict[str, Any], ptr: str) -> list[Unplaced]:
    # Copilot's normalizer walks the schema's own nodes, not its definitions
    return [_raw(CONSUMER_KEYWORD, who.name, rule, f"{who.display_name}: `{key}`", jp.join(ptr + rel, key), "key",
                 target=_first(rule.targets))
            for rel, key in _keyword_places(params, tuple(rule.settings["keywords"]), own_nodes=True)]


def _description_length(who: Consumer, rule: ConsumerRule, params: dict[str, Any], ptr: str) -> list[Unplaced]:
    limit = int(rule.settings["max"])
    out = []
    for rel, node, _depth in subschemas(params):
        text = node.get("description")
        if isinstance(text, str) and len(text) > limit:
            out.append(_raw(CONSUMER_DESCRIPTION_LENGTH, who.name, rule,
                            f"{who.display_name}: a description of {len(text)} characters (at most {limit})",
                            jp.join(ptr + rel, "description"), target=_first(rule.targets), length=len(text),
                            limit=limit))
            if len(out) >= _PER_RULE:
                break
    return out


def _type_list(who: Consumer, rule: ConsumerRule, params: dict[str, Any], ptr: str) -> list[Unplaced]:
    containing = set(rule.settings["containing"])
    in_items = bool(rule.settings.get("in_items"))
    at_least = int(rule.settings.get("min_types", 1))
    out = []
    for rel, node, _depth in subschemas(params):
        kinds = node.get("type")
        if not isinstance(kinds, list) or "null" not in kinds or not containing & set(kinds) or \
                len(set(kinds) - {"null"}) < at_least:
            continue
        if in_items and jp.parts(rel)[-1:] != ["items"]:
            continue
        where = "array `items`" if in_items else "a node"
        out.append(_raw(CONSUMER_TYPE_LIST, who.name, rule,
                        f"{who.display_name}: {where} with `type` {kinds}", jp.join(ptr + rel, "type"),
                        target=_first(rule.targets)))
        if len(out) >= _PER_RULE:
            break
    return out


def _pattern_dialect(who: Consumer, rule: ConsumerRule, params: dict[str, Any], ptr: str) -> list[Unplaced]:
    """Every ``pattern`` compiled with the engine the consumer uses: a refusal at the pattern, naming the engine
    and its message; an engine that could not be tried is said once, as information (never a guess)."""
    engine = str(rule.settings["engine"])
    label = engine_label(engine)
    out: list[Unplaced] = []
    for rel, node, _depth in subschemas(params):
        pattern = node.get("pattern")
        if not isinstance(pattern, str):
            continue
        verdict = compiled(pattern, engine)
        where = jp.join(ptr + rel, "pattern")
        if isinstance(verdict, Refused):
            out.append(_raw(PATTERN_DIALECT, who.name, rule,
                            f"{who.display_name} compiles `pattern` with {label}, which refuses this one "
                            f"({verdict.error})", where, engine=engine, engine_error=verdict.error))
        elif isinstance(verdict, Unavailable):
            out.append(_raw(PATTERN_DIALECT, who.name, rule,
                            f"{who.display_name}: `pattern` not checked with {label}: {verdict.why}", where,
                            engine=engine, severity=Severity.INFO.value))
        if len(out) >= _PER_RULE:
            break
    return out


def _per_node(params: dict[str, Any], found: Callable[[str, dict[str, Any]], Iterator[Unplaced]]) -> list[Unplaced]:
    """``found``'s findings at each schema node (its pointer relative to the parameters), at most ``_PER_RULE``."""
    out: list[Unplaced] = []
    for rel, node, _depth in subschemas(params):
        out.extend(found(rel, node))
        if len(out) >= _PER_RULE:
            break
    return out[:_PER_RULE]


def _enum_values(who: Consumer, rule: ConsumerRule, params: dict[str, Any], ptr: str) -> list[Unplaced]:
    members = set(rule.settings["members"])

    def found(rel: str, node: dict[str, Any]) -> Iterator[Unplaced]:
        values = node.get("enum")
        for i, value in enumerate(values if isinstance(values, list) else []):
            if ("empty_string" in members and value == "") or ("null" in members and value is None):
                yield _raw(CONSUMER_ENUM_VALUE, who.name, rule, f"{who.display_name}: {json.dumps(value)} in an `enum`",
                           jp.join(ptr + rel, "enum", i), target=_first(rule.targets))

    return _per_node(params, found)


def _integer_range(who: Consumer, rule: ConsumerRule, params: dict[str, Any], ptr: str) -> list[Unplaced]:
    low, high = int(rule.settings["min"]), int(rule.settings["max"])

    def found(rel: str, node: dict[str, Any]) -> Iterator[Unplaced]:
        for key in sorted(INTEGER_BOUNDS.intersection(node)):
            value = node[key]
            if isinstance(value, int) and not isinstance(value, bool) and not low <= value <= high:
                yield _raw(CONSUMER_INTEGER_RANGE, who.name, rule,
                           f"{who.display_name}: `{key}: {value}` is outside {low}..{high}", jp.join(ptr + rel, key),
                           target=_first(rule.targets))

    return _per_node(params, found)


def _type_with_composition(who: Consumer, rule: ConsumerRule, params: dict[str, Any], ptr: str) -> list[Unplaced]:
    def found(rel: str, node: dict[str, Any]) -> Iterator[Unplaced]:
        both = [k for k in ("anyOf", "oneOf") if k in node]
        if "type" in node and both:
            yield _raw(CONSUMER_TYPE_WITH_COMPOSITION, who.name, rule,
                       f"{who.display_name}: `type` beside `{both[0]}` in one schema node",
                       jp.join(ptr + rel, both[0]), "key", target=_first(rule.targets))

    return _per_node(params, found)


def _root_properties(who: Consumer, rule: ConsumerRule, params: dict[str, Any], ptr: str) -> list[Unplaced]:
    if params.get("type") != "object" or "properties" in params:
        return []
    return [_raw(CONSUMER_ROOT_PROPERTIES, who.name, rule,
                 f"{who.display_name}: the parameters are an object without `properties`, sent as written",
                 jp.join(ptr, "properties"), "missing", target=_first(rule.targets))]


def measure(name: str, params: dict[str, Any]) -> int:
    """A complexity ``budget``'s measure of a parameters schema (``consumers`` lists the names)."""
    nodes = list(subschemas(params))
    if name == "depth":
        return max(depth for _, _, depth in nodes)
    if name == "max_items_sum":
        return sum(n["maxItems"] for _, n, _ in nodes if isinstance(n.get("maxItems"), int))
    if name == "enum_chars":
        return sum(len(v) for _, n, _ in nodes if isinstance(n.get("enum"), list) for v in n["enum"]
                   if isinstance(v, str))
    if name == "property_count":
        return sum(len(n["properties"]) for _, n, _ in nodes if isinstance(n.get("properties"), dict))
    return len(json.dumps(params, ensure_ascii=False, separators=(",", ":")))  # schema_chars


_MEASURES = MappingProxyType({
    "depth": "nesting depth (levels of `properties`)", "max_items_sum": "`maxItems` added up",
    "enum_chars": "characters of `enum` values", "schema_chars": "characters of the schema as JSON",
    "property_count": "count of properties"})


def _budget(who: Consumer, rule: ConsumerRule, params: dict[str, Any], ptr: str) -> list[Unplaced]:
    name, cap = str(rule.settings["measure"]), int(rule.settings["max"])
    value = measure(name, params)
    if value <= cap:
        return []
    said = {"documented": "a documented limit", "observed": "a limit observed in public reports, not documented",
            "unclear": "an unclear limit"}[rule.confidence]
    return [_raw(CONSUMER_BUDGET, who.name, rule,
                 f"{who.display_name}: the schema's {_MEASURES[name]} is {value}, over {cap} ({said}); the whole "
                 "request fails", ptr, target=_first(rule.targets), measure=name, measured=value, limit=cap)]


#: The consumers' rules on a parameter schema, by kind: (consumer, rule, schema, pointer) -> findings.
_SCHEMA_RULES: Mapping[str, Any] = MappingProxyType({
    "array_items": _array_items, "meta_schema": _meta_schema, "typed_nodes": _typed_nodes,
    "keywords": _keywords, "description_length": _description_length, "type_list": _type_list,
    "pattern_dialect": _pattern_dialect,
    "enum_values": _enum_values, "integer_range": _integer_range, "type_with_composition": _type_with_composition,
    "budget": _budget, "root_properties": _root_properties})


def _asks_strict(value: dict[str, Any], name_ptr: str, config: CheckConfig, targets: Sequence[str]) -> bool:
    """The tool is sent with ``strict: true``: what the configuration (or ``--strict``) or the tool's
    ``x-toolcast`` override states for the target (``convert.forms.stated_strict``), else its own flag
    (which clients such as litellm forward as it is). toolcast's own choice for OpenAI is not taken for
    another consumer's API."""
    for target in targets:
        stated = stated_for(target, value, None, config.options_for(target))
        if stated is not None:
            return stated
    return jp.resolve(value, _strict_ptr(value, name_ptr), None) is True


def _strict_ptr(value: dict[str, Any], name_ptr: str) -> str:
    """Where the tool's own ``strict`` flag sits: beside its name (``/function/strict``, ``/toolSpec/strict``)."""
    return jp.join(jp.from_parts(jp.parts(name_ptr)[:-1]), "strict")


# --- the tools of one request -----------------------------------------------------------------------------

def document_raws(pointers: Sequence[str], config: CheckConfig) -> list[Unplaced]:
    """Request-level findings for the tools at ``pointers`` (in document order), sent together: the
    providers' limits on tools per request and the selected consumers' limits and tool-use support."""
    count = len(pointers)
    out: list[Unplaced] = []
    if not count:
        return out
    for target in config.targets:
        limit = provider_tool_limit(target)
        if limit is not None and count > int(limit.rule.settings["max"]):
            cap = int(limit.rule.settings["max"])
            out.append(_raw(PROVIDER_TOOL_COUNT, target, limit.rule,
                            f"{DISPLAY_NAMES.get(target, target)}: {count} tools (at most {cap} per request)",
                            pointers[cap], target=target))
    for who, rule in active(config):
        if rule.kind == "max_tools" and count > int(rule.settings["max"]):
            cap = int(rule.settings["max"])
            out.append(_raw(CONSUMER_TOOL_COUNT, who.name, rule,
                            f"{who.display_name}: {count} tools (at most {cap}; this is tool {cap + 1})",
                            pointers[cap]))
        elif rule.kind == "tool_use":
            out.append(_raw(CONSUMER_TOOLS_UNSUPPORTED, who.name, rule,
                            f"{who.display_name}: tools are sent to a model without tool use", pointers[0],
                            target=_first(rule.targets)))
    return out
