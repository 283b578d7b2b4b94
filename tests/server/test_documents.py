"""The server's document store in-process (server/lsp/documents.py): whole and ranged changes applied in
order, in the negotiated encoding, with the line index kept in step; the report is dropped on every change."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as t
from toolcast.adapters.document import LineIndex
from toolcast.server.lsp.documents import Document, uri_to_path

TEXT = '{\n  "a": "😋 x",\n  "b": 1\n}\n'


def _ranged(sl: int, sc: int, el: int, ec: int, text: str) -> t.TextDocumentContentChangePartial:
    return t.TextDocumentContentChangePartial(t.Range(t.Position(sl, sc), t.Position(el, ec)), text)


def _consistent(doc: Document) -> None:
    fresh = LineIndex(doc.text)
    assert doc.index.text == doc.text and doc.index.starts == fresh.starts
    for offset in range(len(doc.text) + 1):
        assert doc.index.position(offset, "utf-16") == fresh.position(offset, "utf-16")


def test_a_new_document_has_its_index_and_no_report() -> None:
    doc = Document("file:///w/a.tool.json", TEXT, 3)
    assert doc.version == 3 and doc.language_id == "json" and doc.report is None and doc.report_version is None
    assert not doc.settled and doc.published is None
    _consistent(doc)
    assert doc.path == Path("/w/a.tool.json")


@pytest.mark.parametrize(("encoding", "col"), [("utf-16", 11), ("utf-8", 13), ("utf-32", 10)])
def test_ranged_changes_in_the_negotiated_encoding(encoding: str, col: int) -> None:
    doc = Document("file:///w/a.tool.json", TEXT, 1)
    doc.report, doc.report_version = object(), 1  # type: ignore[assignment]
    # Line 1 is `  "a": "😋 x",`: replace the `x` after the emoji (its column depends on the encoding).
    doc.apply([_ranged(1, col, 1, col + 1, "yz")], 2, encoding)  # type: ignore[arg-type]
    assert doc.text == TEXT.replace("😋 x", "😋 yz") and doc.version == 2
    assert doc.report is None and doc.report_version is None
    _consistent(doc)


def test_changes_apply_in_order_each_on_the_previous_result() -> None:
    doc = Document("file:///w/a.tool.json", TEXT, 1)
    doc.apply([
        _ranged(2, 7, 2, 8, "22"),            # "b": 1 -> "b": 22
        _ranged(2, 2, 2, 5, '"c"'),           # then the key, on the text the first change made
        _ranged(0, 1, 0, 1, "\n  \"z\": 0,"),  # then an insertion that adds a line before both
        _ranged(4, 0, 4, 1, "}"),             # and a replacement on the last line, now line 4
    ], 5, "utf-16")
    assert doc.text == '{\n  "z": 0,\n  "a": "😋 x",\n  "c": 22\n}\n'
    _consistent(doc)


def test_a_whole_document_change_replaces_everything_then_ranges_apply_to_it() -> None:
    doc = Document("file:///w/a.tool.json", TEXT, 1)
    doc.apply([t.TextDocumentContentChangeWholeDocument("[1,\n2]"), _ranged(1, 0, 1, 1, "3")], 2, "utf-16")
    assert doc.text == "[1,\n3]" and doc.version == 2
    _consistent(doc)


def test_no_changes_keep_the_text_and_take_the_version() -> None:
    doc = Document("file:///w/a.tool.json", TEXT, 1)
    doc.apply([], 2, "utf-16")
    assert doc.text == TEXT and doc.version == 2 and doc.report is None
    _consistent(doc)


def test_set_text_resets_the_report() -> None:
    doc = Document("file:///w/a.tool.json", TEXT, 1)
    doc.report, doc.report_version = object(), 1  # type: ignore[assignment]
    doc.set_text("[]", 4)
    assert doc.text == "[]" and doc.version == 4 and doc.report is None and doc.report_version is None
    _consistent(doc)


def test_uri_to_path() -> None:
    assert uri_to_path("file:///w/a%20b.tool.json") == Path("/w/a b.tool.json")
    assert uri_to_path("untitled:Untitled-1") is None
    assert Document("untitled:Untitled-1", "", 1).path is None


def test_the_store_owns_one_parse_per_version() -> None:
    big = "[" + ",".join(f'{{"name": "t{i}", "description": "d", "parameters": {{"type": "object"}}}}'
                         for i in range(600)) + "]"
    doc = Document("file:///w/big.tool.json", big, 1)
    first = doc.parsed
    assert first is doc.parsed and first.text == big and first.value[599]["name"] == "t599"
    doc.apply([_ranged(0, 12, 0, 12, "x")], 2, "utf-16")  # "t0" -> "tx0"
    second = doc.parsed
    assert second is not first and second.value[0]["name"] == "tx0" and second.text == doc.text
    assert second.changed_pointer is not None  # re-parsed from the previous version's parse, not from scratch
    assert Document("file:///w/a.tool.jsonc", '{"a": 1, // c\n}', 1).parsed.errors == []


def test_handlers_take_the_stored_parse() -> None:
    """Only the document store parses an open document (``Document.parsed``); MCP configuration files
    are read by ``mcp_config`` as JSONC. Any other ``parse(...)`` in the server is a handler
    re-parsing the text instead of taking the analysis."""
    import ast

    import toolcast.server.lsp

    lsp = Path(toolcast.server.lsp.__file__).parent
    callers = set()
    for source in sorted(lsp.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in ("parse", "reparse", "ParsedDocument"):
                    callers.add(source.name)
    assert callers == {"documents.py", "mcp_config.py"}


def _full(doc: Document) -> tuple[object, ...]:
    from toolcast.adapters.document.parsed import ParsedDocument

    fresh = ParsedDocument(doc.text, jsonc=doc.jsonc)
    return fresh.value, [(e.code, e.start, e.end) for e in fresh.errors]


def test_one_ranged_change_is_re_parsed_from_its_range_without_comparing_texts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The store knows where a one-change edit is: the parse takes it from there; comparing the old and
    new texts (``_diff``, a pass over megabytes) is only for what it cannot know."""
    import toolcast.adapters.document.parsed as parsed_module

    compared: list[int] = []
    real_diff = parsed_module._diff
    monkeypatch.setattr(parsed_module, "_diff", lambda old, new: compared.append(1) or real_diff(old, new))
    big = "[" + ",".join(f'{{"name": "t{i}", "description": "d", "parameters": {{"type": "object"}}}}'
                         for i in range(600)) + "]"
    doc = Document("file:///w/big.tool.json", big, 1)
    base = doc.parsed
    doc.apply([_ranged(0, 12, 0, 13, "xy")], 2, "utf-16")  # "t0" -> "txy": a replacement inside a name
    edited = doc.parsed
    assert compared == [] and edited.changed_pointer == "/0" and edited.base is not None
    assert edited.base() is base
    assert (edited.value, [(e.code, e.start, e.end) for e in edited.errors]) == _full(doc)
    assert edited.value[0]["name"] == "txy"
    # A change that breaks the JSON, then one that mends it, each from its own range.
    doc.apply([_ranged(0, 2, 0, 2, '"')], 3, "utf-16")
    assert (doc.parsed.value, [(e.code, e.start, e.end) for e in doc.parsed.errors]) == _full(doc)
    doc.apply([_ranged(0, 2, 0, 3, "")], 4, "utf-16")
    assert doc.parsed.value == _full(doc)[0] and doc.parsed.errors == []
    assert compared == []
    # Two changes in one message, or two messages before a parse: the texts are compared instead.
    doc.apply([_ranged(0, 12, 0, 12, "a"), _ranged(0, 12, 0, 12, "b")], 5, "utf-16")
    assert doc.parsed.value[0]["name"] == "tbaxy" and compared == [1]
    doc.apply([_ranged(0, 12, 0, 12, "c")], 6, "utf-16")
    doc.apply([_ranged(0, 12, 0, 12, "d")], 7, "utf-16")
    assert doc.parsed.value[0]["name"] == "tdcbaxy" and compared == [1, 1]
    assert doc.parsed.value == _full(doc)[0]
    # A whole-text change has no range: compared too (and parsed in full when it differs that much).
    doc.apply([t.TextDocumentContentChangeWholeDocument(doc.text.replace("t5", "T5"))], 8, "utf-16")
    assert doc.parsed.value == _full(doc)[0] and len(compared) == 3
    # A change then a new text before any parse (a reopened document): the change's range means nothing now.
    doc.apply([_ranged(0, 12, 0, 12, "e")], 9, "utf-16")
    doc.set_text(big.replace('"t1"', '"renamed"'), 10)
    assert doc.parsed.value == _full(doc)[0] and doc.parsed.value[1]["name"] == "renamed"
