"""Consumer truth read from the consumer profiles: what an MCP host (``schemas/consumers/<name>.json``), an
OpenAI-compatible API over a provider, or a model family (``schemas/consumers/models/<provider>.json``) adds
on top of the provider's own rules. Each rule carries its source and a confidence; the loader rejects a
profile whose rules lack either, or that has a setting it does not know (the checks read only these)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from types import MappingProxyType
from typing import Any

from .errors import ToolcastError
from .providers import profile
from .targets import TARGETS

CONFIDENCES = ("documented", "observed", "unclear")
#: What the consumer does with a tool or request that breaks the rule (stripped: part of the schema, such as a
#: keyword, removed before the model sees it).
EFFECTS = ("rejected", "dropped", "truncated", "renamed", "stripped")
#: Rule kinds, with their own settings and the JSON types each accepts (the common ones are in ``_COMMON``).
RULE_KINDS: Mapping[str, Mapping[str, tuple[type, ...]]] = MappingProxyType({
    "max_tools": {"max": (int,)},
    "name_length": {"max": (int,), "format": (str,), "server_prefix_max": (int,), "lowercase_server": (bool,)},
    "array_items": {},
    "meta_schema": {"draft": (str,)},
    "typed_nodes": {"mode": (str,)},
    "strict": {},
    "strict_keywords": {"keywords": (list,)},
    "tool_use": {},
    # The name as the host formats it (``{server}``, ``{tool}``) must match ``pattern`` (a provider's characters).
    "name_chars": {"format": (str,), "pattern": (str,), "server_prefix_max": (int,), "lowercase_server": (bool,)},
    # Keywords the consumer removes (or rejects) wherever they appear, strict or not.
    "keywords": {"keywords": (list,)},
    # Schema descriptions (every node's) longer than ``max`` characters.
    "description_length": {"max": (int,)},
    # A node whose `type` is a list with "null" and one of ``containing`` (only array `items` with ``in_items``;
    # with ``min_types``, at least that many types besides "null").
    "type_list": {"containing": (list,), "in_items": (bool,), "min_types": (int,)},
    # A regular-expression engine the consumer compiles every `pattern` with (`PATTERN_ENGINES`); `modes`: only
    # in these modes of a provider (a provider profile's rule).
    "pattern_dialect": {"engine": (str,), "modes": (list,)},
    # Values a consumer rejects: forbidden `enum` members, integers beyond a range, `type` beside a composition.
    "enum_values": {"members": (list,)},
    "integer_range": {"min": (int,), "max": (int,)},
    # An `enum` member its node's `type` refuses (`untyped`: an `enum` on a node without `type` too; `modes`:
    # only in these modes of a provider).
    "enum_type": {"modes": (list,), "untyped": (bool,)},
    "type_with_composition": {},
    # A whole-tool complexity budget: ``measure`` of the parameters at most ``max``.
    "budget": {"measure": (str,), "max": (int,)},
    # The parameters are `type: "object"` without `properties`, sent as they are.
    "root_properties": {},
    # What a host does with a tool name two of its servers list (TC206): ``renamed`` "all" (every server's tool
    # is named ``format``, so none clash) or "later" (the first server's keeps the name, the later ones' are
    # named ``format``).
    "duplicate_names": {"renamed": (str,), "format": (str,)},
})
_REQUIRED: Mapping[str, frozenset[str]] = MappingProxyType({
    "max_tools": frozenset({"max"}), "name_length": frozenset({"max", "format"}), "meta_schema": frozenset({"draft"}),
    "typed_nodes": frozenset({"mode"}), "strict_keywords": frozenset({"keywords"}),
    "name_chars": frozenset({"format", "pattern"}), "keywords": frozenset({"keywords"}),
    "description_length": frozenset({"max"}), "type_list": frozenset({"containing"}),
    "pattern_dialect": frozenset({"engine"}),
    "enum_values": frozenset({"members"}), "integer_range": frozenset({"min", "max"}),
    "budget": frozenset({"measure", "max"}), "duplicate_names": frozenset({"renamed", "format"}),
})
_COMMON: Mapping[str, tuple[type, ...]] = MappingProxyType({
    "id": (str,), "rule": (str,), "effect": (str,), "message": (str,), "source": (list,), "confidence": (str,),
    "targets": (list,),
    # A pattern over model names: the rule holds only when a model it matches is named (``--model``).
    "models": (str,),
})
#: The engines ``schema/dialects.py`` compiles a pattern with (named here, below it, so a profile is checked
#: without importing an engine).
PATTERN_ENGINES = ("python-re", "python-re-no-lookaround", "ecmascript", "ecmascript-u", "re2", "rust-regex",
                   "anchored")
_CHOICES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "draft": ("draft-07",), "mode": ("gemini-cli", "all"), "engine": PATTERN_ENGINES,
    "measure": ("depth", "max_items_sum", "enum_chars", "schema_chars", "property_count"),
    "renamed": ("all", "later")})
#: Rule kinds ``convert`` lowers when a provider's profile states them, documented or observed
#: (``convert.profile_mode`` puts them in the mode): their losses are the findings (TC5xx), so the checks do not
#: report the rule again.
LOWERED_KINDS = ("enum_values", "integer_range", "pattern_dialect", "enum_type")
#: The `enum` members an ``enum_values`` rule can forbid.
ENUM_MEMBERS = ("empty_string", "null")
#: A source is a docs URL, ``owner/repo#N`` (issue or pull request) or ``owner/repo@commit path``.
SOURCE_FORMS = re.compile(r"https?://\S+|[\w.-]+/[\w.-]+#\d+|[\w.-]+/[\w.-]+@[0-9a-f]{7,40} \S+")
_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")


class ConsumerProfileError(ToolcastError, ValueError):
    """A consumer profile that does not have the form the checks rely on."""


class UnknownConsumer(ToolcastError, ValueError):
    """A consumer or model name no profile knows; the message lists the known names."""


@dataclass(frozen=True)
class ConsumerRule:
    """One rule of a consumer: ``kind`` (a key of ``RULE_KINDS``) and its ``settings``; what the consumer
    does (``effect``), what the user sees (``message``), where that is written (``sources``) and how sure it is."""

    id: str
    kind: str
    effect: str
    message: str
    sources: tuple[str, ...]
    confidence: str
    settings: Mapping[str, Any]
    #: The provider targets the rule concerns (empty: whatever the consumer sends to).
    targets: tuple[str, ...] = ()
    #: A pattern over model names: the rule holds only when a model it matches is named (None: always).
    models: str | None = None

    def cite(self) -> str:
        """``source, source (confidence)`` for a finding's message."""
        return f"{', '.join(self.sources)} ({self.confidence})"

    def holds_in(self, mode: str) -> bool:
        """Whether the rule holds in a provider's ``mode``: always, unless its ``modes`` leave the mode out."""
        return mode in self.settings.get("modes", (mode,))

    def to_dict(self) -> dict[str, Any]:
        """The rule as JSON, in the profile's own words (``toolcast providers --format json``)."""
        settings = {k: list(v) if isinstance(v, tuple) else v for k, v in self.settings.items()}
        return {"id": self.id, "rule": self.kind, **settings, "effect": self.effect, "message": self.message,
                "sources": list(self.sources), "confidence": self.confidence,
                **({"targets": list(self.targets)} if self.targets else {}),
                **({"models": self.models} if self.models is not None else {})}


@dataclass(frozen=True)
class Consumer:
    """A host, an API over a provider (``over``), or a model family (``provider`` and ``match``)."""

    name: str
    display_name: str
    kind: str  # host | api | model
    rules: tuple[ConsumerRule, ...]
    over: str | None = None
    match: re.Pattern[str] | None = None
    examples: tuple[str, ...] = ()
    #: A host's model picker: the providers whose models the user can choose (``--model`` names one of them).
    sends_to: tuple[str, ...] = ()


def _need(ok: bool, where: str, what: str) -> None:
    if not ok:
        raise ConsumerProfileError(f"{where}: {what}")


def parse_rule(data: Any, where: str) -> ConsumerRule:
    """One rule, validated: a known kind, only its settings, a source in a known form and a confidence."""
    _need(isinstance(data, dict), where, "a rule must be an object")
    kind = data.get("rule")
    _need(kind in RULE_KINDS, where, f"`rule` must be one of {sorted(RULE_KINDS)}")
    where = f"{where} ({data.get('id', kind)})"
    allowed = {**_COMMON, **RULE_KINDS[kind]}
    unknown = sorted(set(data) - set(allowed))
    _need(not unknown, where, f"unknown settings {unknown}")
    missing = sorted(({"id", "effect", "message", "source", "confidence"} | _REQUIRED.get(kind, frozenset()))
                     - set(data))
    _need(not missing, where, f"missing settings {missing}")
    for key, value in data.items():
        types = allowed[key]
        _need(isinstance(value, types) and not (isinstance(value, bool) and bool not in types), where,
              f"bad `{key}`")
    sources = data["source"]
    _need(bool(sources) and all(isinstance(s, str) and SOURCE_FORMS.fullmatch(s) for s in sources), where,
          "`source` must list docs URLs, owner/repo#N or owner/repo@commit path")
    _need(data["confidence"] in CONFIDENCES, where, f"`confidence` must be one of {list(CONFIDENCES)}")
    _need(data["effect"] in EFFECTS, where, f"`effect` must be one of {list(EFFECTS)}")
    targets = data.get("targets", [])
    _need(all(t in TARGETS for t in targets), where, f"`targets` must name targets of {list(TARGETS)}")
    for key, choices in _CHOICES.items():
        _need(key not in data or data[key] in choices, where, f"`{key}` must be one of {list(choices)}")
    if kind in ("strict_keywords", "keywords"):
        _need(all(isinstance(k, str) for k in data["keywords"]), where, "`keywords` must be strings")
    if kind in ("pattern_dialect", "enum_type"):
        _need(all(m in ("strict", "non_strict", "default") for m in data.get("modes", [])), where,
              "`modes` must name strict, non_strict or default")
    if kind == "enum_values":
        _need(bool(data["members"]) and all(m in ENUM_MEMBERS for m in data["members"]), where,
              f"`members` must list some of {list(ENUM_MEMBERS)}")
    if kind == "integer_range":
        _need(data["min"] < data["max"], where, "`min` must be below `max`")
    if kind in ("name_length", "name_chars", "duplicate_names"):
        _need("{tool}" in data["format"] and set(re.findall(r"{(\w*)}", data["format"])) <= {"server", "tool"},
              where, "`format` uses {server} and {tool}")
    if kind == "duplicate_names":
        _need("{server}" in data["format"], where, "`format` names the server (`{server}`): that is what tells "
              "the two tools apart")
    if kind == "type_list":
        _need(bool(data["containing"]) and all(isinstance(t, str) for t in data["containing"]), where,
              "`containing` must list type names")
    for key in ("pattern", "models"):
        if key in data:
            _need(_compiles(data[key]), where, f"`{key}` must be a regular expression")
    settings = {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items() if k not in _COMMON}
    return ConsumerRule(data["id"], kind, data["effect"], data["message"], tuple(sources), data["confidence"],
                        MappingProxyType(settings), tuple(targets), data.get("models"))


def _compiles(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except re.error:
        return False
    return True


def _rules(items: Any, where: str) -> tuple[ConsumerRule, ...]:
    _need(isinstance(items, list) and bool(items), where, "`rules` must be a non-empty list")
    rules = tuple(parse_rule(r, f"{where} rule {i}") for i, r in enumerate(items))
    ids = [r.id for r in rules]
    _need(len(ids) == len(set(ids)), where, "rule ids must be unique")
    return rules


def _schemas() -> Any:
    return files("toolcast.schemas").joinpath("consumers")


def _json_files(folder: Any) -> list[Any]:
    return sorted((p for p in folder.iterdir() if p.name.endswith(".json")), key=lambda p: p.name)


@dataclass(frozen=True)
class _Catalogue:
    consumers: Mapping[str, Consumer]
    families: tuple[Consumer, ...]


@cache
def _catalogue() -> _Catalogue:
    """Every profile, validated once (package data: a pure function of the files shipped in the package)."""
    hosts = {p.name[:-5]: validate_consumer(p.name[:-5], json.loads(p.read_text(encoding="utf-8")))
             for p in _json_files(_schemas())}
    families: list[Consumer] = []
    for p in _json_files(_schemas().joinpath("models")):
        families.extend(validate_models(p.name[:-5], json.loads(p.read_text(encoding="utf-8"))))
    names = [f.name for f in families]
    _need(len(names) == len(set(names)), "schemas/consumers/models", "family names must be unique")
    return _Catalogue(MappingProxyType(hosts), tuple(families))


def consumer_names() -> tuple[str, ...]:
    """Every host or API profile, by name."""
    return tuple(sorted(_catalogue().consumers))


def validate_consumer(name: str, data: Any) -> Consumer:
    where = f"schemas/consumers/{name}.json"
    _need(isinstance(data, dict), where, "a profile must be an object")
    unknown = sorted(set(data) - {"consumer", "display_name", "kind", "over", "sends_to", "rules"})
    _need(not unknown, where, f"unknown keys {unknown}")
    _need(data.get("consumer") == name, where, "`consumer` must name the file")
    _need(isinstance(data.get("display_name"), str), where, "`display_name` must be a string")
    _need(data.get("kind") in ("host", "api"), where, "`kind` must be host or api")
    over = data.get("over")
    _need(over is None or over in TARGETS, where, "`over` must name a target")
    sends_to = data.get("sends_to", [])
    _need(isinstance(sends_to, list) and all(t in TARGETS for t in sends_to), where,
          f"`sends_to` must list targets of {list(TARGETS)}")
    return Consumer(name, data["display_name"], data["kind"], _rules(data.get("rules"), where), over,
                    sends_to=tuple(sends_to))


def validate_models(provider: str, data: Any) -> tuple[Consumer, ...]:
    where = f"schemas/consumers/models/{provider}.json"
    _need(isinstance(data, dict) and set(data) == {"provider", "families"} and data["provider"] == provider, where,
          "a model profile has `provider` (the file's name) and `families`")
    families = data["families"]
    _need(isinstance(families, list) and bool(families), where, "`families` must be a non-empty list")
    out = []
    for i, fam in enumerate(families):
        at = f"{where} family {i}"
        _need(isinstance(fam, dict), at, "a family must be an object")
        unknown = sorted(set(fam) - {"family", "display_name", "match", "examples", "rules"})
        _need(not unknown, at, f"unknown keys {unknown}")
        _need(isinstance(fam.get("family"), str) and bool(_NAME.fullmatch(fam["family"])), at,
              "`family` must be a lower-case name")
        _need(isinstance(fam.get("display_name"), str), at, "`display_name` must be a string")
        examples = fam.get("examples")
        _need(isinstance(examples, list) and bool(examples) and all(isinstance(e, str) for e in examples), at,
              "`examples` must list model names")
        try:
            pattern = re.compile(fam.get("match", "") or "\0")
        except (re.error, TypeError) as exc:
            raise ConsumerProfileError(f"{at}: bad `match`: {exc}") from None
        _need(isinstance(fam.get("match"), str) and all(pattern.search(e) for e in examples), at,
              "`match` must be a pattern every example matches")
        out.append(Consumer(fam["family"], fam["display_name"], "model", _rules(fam.get("rules"), at),
                            provider, pattern, tuple(examples)))
    return tuple(out)


def consumer(name: str) -> Consumer:
    """The validated profile of a host or API; ``UnknownConsumer`` lists the known names."""
    found = _catalogue().consumers.get(name)
    if found is None:
        raise UnknownConsumer(f"unknown consumer {name!r}; known: {', '.join(consumer_names())}")
    return found


def model_families() -> tuple[Consumer, ...]:
    """Every model family of every provider, validated, in file order (the first match wins)."""
    return _catalogue().families


def known_models() -> str:
    return "; ".join(f"{f.name} ({', '.join(f.examples)})" for f in model_families())


def model_family(model: str) -> Consumer:
    """The family whose rules hold for ``model`` (a family name or a model name it matches); a model no
    family matches is ``UnknownConsumer``, listing the families and example names."""
    for fam in model_families():
        if model == fam.name or (fam.match is not None and fam.match.search(model)):
            return fam
    raise UnknownConsumer(f"unknown model {model!r}; known families (examples): {known_models()}")


#: Model names by the provider that serves them, when no model family profile says it.
MODEL_PREFIXES: tuple[tuple[str, str], ...] = (
    ("gemini", "gemini"), ("vertex/gemini", "gemini"), ("claude", "anthropic"), ("anthropic.", "anthropic"),
    ("gpt", "openai"), ("o1", "openai"), ("o3", "openai"), ("o4", "openai"), ("codex", "openai"),
    ("mistral", "mistral"), ("codestral", "mistral"), ("magistral", "mistral"), ("devstral", "mistral"))


def model_provider(model: str) -> str | None:
    """The provider target serving ``model``: its family's (``over``), else the one its name starts with."""
    try:
        return model_family(model).over
    except UnknownConsumer:
        pass
    bare = model.lower()
    return next((target for prefix, target in MODEL_PREFIXES if bare.startswith(prefix)), None)


def check_model(model: str, hosts: tuple[str, ...] = ()) -> None:
    """``UnknownConsumer`` unless ``model`` names a model family, or a model whose provider one of the selected
    ``hosts`` lets the user pick (``sends_to``): ``--for vscode --model gpt-4.1`` is judged with the rules VS
    Code applies to GPT models, while a model nothing knows (a typo) is refused with the known names."""
    try:
        model_family(model)
        return
    except UnknownConsumer:
        provider = model_provider(model)
        if provider is not None and any(provider in consumer(h).sends_to for h in hosts):
            return
        pickers = [n for n in consumer_names() if consumer(n).sends_to]
        raise UnknownConsumer(f"unknown model {model!r}; known families (examples): {known_models()}; with a "
                              f"host that offers its provider's models ({', '.join(pickers)}), any model of "
                              "that provider") from None


def sent_targets(hosts: tuple[str, ...], models: tuple[str, ...]) -> tuple[str, ...]:
    """The provider targets the named hosts send the named models' tools to (empty unless both are named):
    what ``--for HOST --model MODEL`` is checked for when no target is given."""
    if not hosts:
        return ()
    return tuple(dict.fromkeys(t for t in map(model_provider, models) if t is not None))


def model_named(rule: ConsumerRule, models: tuple[str, ...]) -> bool:
    """Whether ``rule`` holds for the named models: always, unless it has a ``models`` pattern none matches."""
    return rule.models is None or any(re.search(rule.models, m) for m in models)


@dataclass(frozen=True)
class ProviderToolLimit:
    """A provider's own limit on tools per request (``limits.max_tools`` of a provider profile)."""

    target: str
    rule: ConsumerRule


def provider_tool_limit(target: str) -> ProviderToolLimit | None:
    data = profile(target).limits.max_tools
    if data is None:
        return None
    return ProviderToolLimit(target, parse_rule({"id": "max-tools", "rule": "max_tools", **dict(data)},
                                                f"schemas/providers/{target}.json limits.max_tools"))


def provider_pattern_rules(target: str) -> tuple[ConsumerRule, ...]:
    """A provider's own ``pattern_dialect`` rules (among the ``rules`` of its profile): the engines it compiles
    every ``pattern`` with, in which modes, with sources and confidence."""
    return tuple(r for r in provider_rules(target) if r.kind == "pattern_dialect")


def provider_rules(target: str) -> tuple[ConsumerRule, ...]:
    """The provider's own rules (``rules`` of ``schemas/providers/<target>.json``): held to the consumers' form by
    ``parse_rule``, active whenever ``target`` is checked or converted, with or without a consumer or model."""
    return _provider_rules(target)


@cache
def _provider_rules(target: str) -> tuple[ConsumerRule, ...]:
    return validate_provider_rules(target, [_thawed(r) for r in profile(target).rules])


def validate_provider_rules(target: str, items: list[Any]) -> tuple[ConsumerRule, ...]:
    """A provider profile's ``rules``, each held to ``parse_rule`` (a source in a known form, a confidence)."""
    return _rules(items, f"schemas/providers/{target}.json") if items else ()


def _thawed(value: Any) -> Any:
    """A profile's read-only JSON (objects as mapping proxies, lists as tuples) as plain JSON again."""
    if isinstance(value, Mapping):
        return {k: _thawed(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thawed(v) for v in value]
    return value


def forbidden_members(rules: tuple[ConsumerRule, ...]) -> Mapping[str, ConsumerRule]:
    """Each `enum` member kind the ``enum_values`` rules forbid, with the rule (an unclear rule forbids nothing:
    convert acts only on documented or observed rules)."""
    out: dict[str, ConsumerRule] = {}
    for rule in rules:
        if rule.kind == "enum_values" and rule.confidence != "unclear":
            for member in rule.settings["members"]:
                out.setdefault(str(member), rule)
    return MappingProxyType(out)

