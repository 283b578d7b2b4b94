"""Incremental text sync is toolcast's alone: positions are read exactly as the LSP specification says
(past a line's end: the line end; past the last line: the document end) and only CR, LF and CRLF end
lines. The real server over stdio; the expected text is opened afresh as the oracle."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from raw_rpc import Raw


@pytest.fixture
def raw() -> Iterator[Raw]:
    conn = Raw()
    yield conn
    conn.close()


def _open(raw: Raw, uri: str, text: str, version: int = 1) -> None:
    raw.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": version,
                                                         "text": text}})


def _pull(raw: Raw, uri: str) -> list[dict[str, Any]]:
    rid = raw.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    items = raw.response(rid)["result"]["items"]
    assert isinstance(items, list)
    return items


def _change(raw: Raw, uri: str, version: int, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
    rng = {"start": {"line": start[0], "character": start[1]}, "end": {"line": end[0], "character": end[1]}}
    raw.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                          "contentChanges": [{"range": rng, "text": text}]})


def _fresh(raw: Raw, uri: str, text: str) -> list[dict[str, Any]]:
    """The diagnostics of ``text`` opened as it is (no incremental change applied)."""
    raw.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    _open(raw, uri, text, 100)
    return _pull(raw, uri)


def test_a_position_past_the_line_end_is_the_line_end(raw: Raw, tmp_path: Path) -> None:
    """Repro A: deleting 3:1–3:2 on the last line `}` (one character long) deletes nothing."""
    raw.initialize(tmp_path, pull=True, encoding="utf-16")
    text = '{\n "name": "a",\n "description": "b"\n}'
    uri = (tmp_path / "a.tool.json").as_uri()
    _open(raw, uri, text)
    before = _pull(raw, uri)
    _change(raw, uri, 2, (3, 1), (3, 2), "")
    after = _pull(raw, uri)
    assert "TC001" not in {d.get("code") for d in after}
    assert after == before
    # Past the last line is the end of the document: an insertion there appends.
    _change(raw, uri, 3, (9, 0), (9, 5), "\n")
    assert _pull(raw, uri) == _fresh(raw, uri, text + "\n")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
@pytest.mark.parametrize("separator", ["\u2028", "\u2029\x85\x0b\x0c"])
def test_only_cr_lf_and_crlf_end_lines(raw: Raw, tmp_path: Path, encoding: str, separator: str) -> None:
    """Repro B: a raw U+2028 (then U+2029, NEL, VT, FF) inside a string on one line; inserting `\\q`
    after the `x` of the description (column 33 in repro B) puts it there, not inside the name."""
    raw.initialize(tmp_path, pull=True, encoding=encoding)
    text = '{"name": "a' + separator + 'b", "description": "x", "parameters": {"type": "object"}}'
    uri = (tmp_path / "b.tool.json").as_uri()
    _open(raw, uri, text)
    at = text.index('x"') + 1
    column = len(text[:at].encode("utf-16-le")) // 2 if encoding == "utf-16" else len(text[:at].encode())
    _change(raw, uri, 2, (0, column), (0, column), "\\q")
    got = _pull(raw, uri)
    expected_text = text[:at] + "\\q" + text[at:]
    assert got == _fresh(raw, uri, expected_text)
    assert any(d["range"]["start"]["line"] == 0 and d["range"]["start"]["character"] >= column for d in got), got


def test_a_huge_character_is_the_line_end(raw: Raw, tmp_path: Path) -> None:
    raw.initialize(tmp_path, pull=True, encoding="utf-16")
    text = '{"name": "a\u2028b", "description": "x", "parameters": {"type": "object"}}\n'
    uri = (tmp_path / "c.tool.json").as_uri()
    _open(raw, uri, text)
    _change(raw, uri, 2, (0, 2**31 - 1), (0, 2**31 - 1), ' ,"x"')
    line = text.rstrip("\n")
    assert _pull(raw, uri) == _fresh(raw, uri, line + ' ,"x"\n')


def test_the_server_keeps_no_second_copy_of_open_documents(raw: Raw, tmp_path: Path) -> None:
    """A change that only toolcast's store can apply (an edit before a U+2028 on a later line) leaves
    the same diagnostics as the text opened afresh, and many such edits in one message apply in order."""
    raw.initialize(tmp_path, pull=True, encoding="utf-8")
    text = '{\n"name": "a\u2028\u2028b",\n"description": "é"\n}'
    uri = (tmp_path / "d.tool.json").as_uri()
    _open(raw, uri, text)
    changes = [
        {"range": {"start": {"line": 2, "character": 18}, "end": {"line": 2, "character": 18}}, "text": "ü"},
        {"range": {"start": {"line": 1, "character": 999}, "end": {"line": 1, "character": 999}}, "text": ","},
        {"range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}},
         "text": '"parameters": {}\n'},
    ]
    raw.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": changes})
    expected = '{\n"name": "a\u2028\u2028b",,\n"description": "éü"\n"parameters": {}\n}'
    assert json.dumps(_pull(raw, uri)) == json.dumps(_fresh(raw, uri, expected))
