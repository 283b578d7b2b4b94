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
    assert not doc.settled and doc.published_names == ()
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
