"""Hostile and half-typed input: never an exception, never unbounded work, reparse ≡ parse while typing."""

from __future__ import annotations

import json
import random
from pathlib import Path

from toolcast.adapters.document import ParsedDocument, parse, reparse

from .snapshot import snapshot

FIXTURES = sorted((Path(__file__).parents[1] / "fixtures").glob("*.json"))


def test_every_prefix_of_every_fixture_parses() -> None:
    for path in FIXTURES:
        text = path.read_text(encoding="utf-8")
        for end in range(len(text) + 1):
            doc = ParsedDocument(text[:end])
            assert all(0 <= e.start <= e.end <= end for e in doc.errors)
            _ = doc.value, doc.duplicate_keys


def test_typing_a_file_character_by_character_through_reparse() -> None:
    """What an editor sends: one insert per keystroke, each applied to the previous document."""
    target = (Path(__file__).parents[1] / "fixtures" / "kitchen_sink.tool.json").read_text(encoding="utf-8")
    doc = ParsedDocument("")
    for i, ch in enumerate(target):
        doc = reparse(doc, i, i, ch)
        if i % 7 == 0 or i == len(target) - 1:
            assert snapshot(doc) == snapshot(ParsedDocument(doc.text)), i
    assert doc.value == json.loads(target) and doc.errors == []


def test_random_mutations_of_the_fixtures() -> None:
    rng = random.Random(11)
    alphabet = [*'{}[]:,"\\ \n\r\t/*0-1.eE+truefalsnl', "😋", "\u2028", "\x00", "\ufeff", "\ud800"]
    for path in FIXTURES:
        text = path.read_text(encoding="utf-8")
        for _ in range(60):
            chars = list(text)
            for _ in range(rng.randrange(1, 4)):
                at = rng.randrange(len(chars) + 1)
                op = rng.randrange(3)
                if op == 0:
                    chars.insert(at, rng.choice(alphabet))
                elif chars:
                    del chars[min(at, len(chars) - 1)]
            for jsonc in (False, True):
                doc = ParsedDocument("".join(chars), jsonc=jsonc)
                _ = doc.value, doc.duplicate_keys, doc.location(rng.randrange(len(chars) + 1))


def test_a_50_mb_document_parses() -> None:
    text = '{"description": "' + "x" * 50_000_000 + '"}'
    doc = ParsedDocument(text)
    assert doc.errors == [] and len(doc.value["description"]) == 50_000_000
    unterminated = ParsedDocument(text[:-2])
    assert sorted(e.code for e in unterminated.errors) == ["CloseBraceExpected", "UnexpectedEndOfString"]


def test_huge_arrays_and_many_tools() -> None:
    text = json.dumps([{"name": f"t{i}", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}
                       for i in range(20_000)])
    doc = parse(text)
    assert doc.errors == [] and doc.value == json.loads(text)
    assert doc.span("/19999/parameters/properties/a/type") is not None
    numbers = "[" + ",".join(["1.5"] * 200_000) + "]"
    assert len(ParsedDocument(numbers).value) == 200_000


def test_many_unterminated_strings_stay_linear() -> None:
    text = '[\n' + '"abc\n' * 100_000 + "]"
    doc = ParsedDocument(text)
    assert len(doc.value) == 100_000 and doc.errors[0].code == "UnexpectedEndOfString"
