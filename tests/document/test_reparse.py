"""Incremental re-parsing gives exactly what a full parse of the new text gives."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolcast.adapters.document import DocumentMemory, ParsedDocument, parse, reparse

from .snapshot import snapshot

FIXTURES = sorted((Path(__file__).parents[1] / "fixtures").glob("*.json"))
TOOLS = json.dumps([
    {"name": f"tool_{i}", "description": f"Tool {i} 😋 é", "parameters": {
        "type": "object", "properties": {"city": {"type": "string", "enum": ["a", "b"]},
                                          "n": {"type": "integer", "minimum": 1.5}},
        "required": ["city"]}} for i in range(6)
], indent=2)
# Characters that make or break structure, and some that do not.
EDIT_CHARS = ['"', "{", "}", "[", "]", ",", ":", "\n", "\\", "x", "1", " ", "😋", "/", "*", "\r"]
SOURCES = [p.read_text(encoding="utf-8") for p in FIXTURES] + [TOOLS]


def full(text: str, jsonc: bool) -> ParsedDocument:
    return ParsedDocument(text, jsonc=jsonc)  # no cache, no incremental path


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(SOURCES))), st.data(), st.booleans(), st.booleans())
def test_reparse_equals_parse_on_random_edits(source: int, data: st.DataObject, jsonc: bool,
                                              with_value: bool) -> None:
    text = SOURCES[source]
    doc = full(text, jsonc)
    if with_value:
        _ = doc.value  # the value is then patched, not rebuilt
    for _ in range(3):  # a short series of edits, each on the previous result
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 8)))
        new = data.draw(st.text(alphabet=st.sampled_from(EDIT_CHARS), max_size=4))
        new_doc = reparse(doc, start, end, new)
        text = text[:start] + new + text[end:]
        assert new_doc.text == text
        assert snapshot(new_doc) == snapshot(full(text, jsonc))
        doc = new_doc


@pytest.mark.parametrize("text", ['{"x": {"a": 1, "c": {}', '[[1, "a", []', '{"x": {"y": {"a": 1, "z": {}'])
def test_a_closing_bracket_that_belongs_to_a_member_does_not_close_the_root(text: str) -> None:
    # The last character closes the innermost member; the root and the edited member are open.
    at = text.index('"a"') + 1
    new_doc = reparse(full(text, False), at, at + 1, "z")
    assert snapshot(new_doc) == snapshot(full(new_doc.text, False))


def test_an_edit_inside_one_tool_reparses_only_that_tool() -> None:
    doc = full(TOOLS, False)
    _ = doc.value
    at = TOOLS.index("Tool 3") + 4
    new_doc = reparse(doc, at, at, "X")
    assert new_doc.changed_elements == (3,)
    assert new_doc.changed_pointer == "/3"
    assert new_doc.value[3]["description"].startswith("ToolX 3")
    assert new_doc.value[2] is doc.value[2]  # untouched tools are shared, not rebuilt
    assert new_doc.span("/5/name") == (doc.span("/5/name")[0] + 1, doc.span("/5/name")[1] + 1)  # type: ignore[index]


def test_an_edit_that_breaks_a_tool_stays_local_and_one_that_breaks_the_file_does_not() -> None:
    doc = full(TOOLS, False)
    at = TOOLS.index('"city"', TOOLS.index("tool_2"))
    broken = reparse(doc, at, at + 1, "")  # `city"`: a bare word where a key belongs
    assert broken.changed_elements == (2,)
    assert [e.code for e in broken.errors][:1] == ["PropertyNameExpected"]
    assert snapshot(broken) == snapshot(full(broken.text, False))
    unclosed = reparse(doc, len(TOOLS) - 1, len(TOOLS), "")  # the root's `]`: full parse
    assert unclosed.changed_elements is None
    assert snapshot(unclosed) == snapshot(full(unclosed.text, False))


@pytest.mark.parametrize("jsonc", [False, True])
def test_parse_finds_the_edit_itself_when_given_only_text(jsonc: bool) -> None:
    big = json.dumps([json.loads(TOOLS)] * 40, indent=2)  # above the size where diffing pays
    memory = DocumentMemory()
    doc = parse(big, jsonc=jsonc, memory=memory)
    at = big.index("Tool 4", len(big) // 2)
    text = big[:at] + "Q" + big[at:]
    again = parse(text, jsonc=jsonc, previous=doc)
    assert again.changed_pointer is not None
    assert snapshot(again) == snapshot(full(text, jsonc))
    remembered = parse(text, jsonc=jsonc, memory=memory)  # found the edit by itself, from the memory
    assert remembered.changed_pointer is not None and snapshot(remembered) == snapshot(again)
    assert parse(text, jsonc=jsonc, memory=memory) is remembered  # the same text again: the same document
    assert parse(text, jsonc=jsonc).changed_pointer is None  # no memory: a full parse


def test_reparse_equals_parse_on_seeded_edits_of_every_fixture() -> None:
    """A deterministic sweep (no shrinking needed to read a failure): 40 edits per fixture."""
    rng = random.Random(7)
    for text in SOURCES:
        doc = full(text, False)
        for _ in range(40):
            start = rng.randrange(len(text) + 1)
            end = min(len(text), start + rng.randrange(4))
            new = "".join(rng.choice(EDIT_CHARS) for _ in range(rng.randrange(3)))
            doc = reparse(doc, start, end, new)
            text = text[:start] + new + text[end:]
            assert snapshot(doc) == snapshot(full(text, False)), (start, end, new)


def test_reparse_keeps_duplicates_errors_and_comments_in_order() -> None:
    text = ('[{"a": {"k": 1, "k": 2}, "b": [1, 2,], // c\n "a": 3},\n'
            ' {"x": {"y": {"k": 1, "k": 2}}, "x": 0, "z": "unterminated\n }, {"q": [[[]]]}]')
    rng = random.Random(3)
    for jsonc in (False, True):
        base = full(text, jsonc)
        _ = base.value
        for _ in range(300):
            start = rng.randrange(len(text) + 1)
            end = min(len(text), start + rng.randrange(3))
            new = "".join(rng.choice([*EDIT_CHARS, '"k": 5, ']) for _ in range(rng.randrange(2)))
            doc = reparse(base, start, end, new)
            assert snapshot(doc) == snapshot(full(doc.text, jsonc)), (start, end, new)
    inner = text.index('"k": 2') + 5
    doc = reparse(full(text, False), inner, inner + 1, "7")
    assert doc.changed_pointer == "/0/a" and [d.pointer for d in doc.duplicate_keys][:1] == ["/0/a/k"]
