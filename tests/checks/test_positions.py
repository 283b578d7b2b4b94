"""Exact positions on lines holding emoji, CJK and CRLF line ends, in UTF-8, UTF-16 and UTF-32 columns
(through the project's LineIndex, as the language server and the CLI convert them)."""

from __future__ import annotations

from helpers import span_of
from toolcast.adapters.checks import check_document
from toolcast.adapters.document.line_index import LineIndex

TEXT = (
    "{\r\n"
    '  "name": "天気_🌦",\r\n'
    '  "description": "Wetter 🌦🌧 天気予報", "parameters": {"type": "object", "properties": {\r\n'
    '    "城市": {"description": "🏙 城市", "type": "int"},\r\n'
    '    "標籤": {"type": "array"}}}\r\n'
    "}\r\n"
)


def _position(text: str, offset: int, encoding: str) -> tuple[int, int]:
    line, character = LineIndex(text).position(offset, encoding)
    return int(line), int(character)


def test_type_fix_after_emoji_and_cjk_on_a_crlf_line() -> None:
    report = check_document(TEXT)
    (f,) = [f for f in report.findings if f.code == "TC110"]
    assert f.span == span_of(TEXT, '"int"')
    assert f.pointer == "/parameters/properties/城市/type"
    # Line 3 (0-based): `    "城市": {"description": "🏙 城市", "type": ` precedes the value.
    assert _position(TEXT, f.span[0], "utf-32") == (3, 42)
    assert _position(TEXT, f.span[0], "utf-16") == (3, 43)  # 🏙 is two UTF-16 units
    assert _position(TEXT, f.span[0], "utf-8") == (3, 53)  # 4 CJK x 3 bytes, 🏙 4 bytes
    assert _position(TEXT, f.span[1], "utf-16") == (3, 48)


def test_name_findings_on_an_emoji_name() -> None:
    report = check_document(TEXT)
    (f,) = [f for f in report.findings if f.code == "TC203"]
    assert f.span == span_of(TEXT, '"天気_🌦"')
    assert _position(TEXT, f.span[0], "utf-16") == (1, 10)
    assert _position(TEXT, f.span[1], "utf-32") == (1, 16)
    assert _position(TEXT, f.span[1], "utf-16") == (1, 17)
    assert _position(TEXT, f.span[1], "utf-8") == (1, 23)


def test_missing_items_is_on_the_cjk_key() -> None:
    report = check_document(TEXT)
    (f,) = [f for f in report.findings if f.code == "TC307"]
    assert f.span == span_of(TEXT, '"標籤"')
    assert _position(TEXT, f.span[0], "utf-8") == (4, 4)
    assert _position(TEXT, f.span[1], "utf-8") == (4, 12)  # CJK: 3 bytes each
    assert _position(TEXT, f.span[1], "utf-16") == (4, 8)


def test_no_tool_summary_is_shifted_by_crlf() -> None:
    report = check_document(TEXT)
    (tool,) = report.tools
    assert tool.name_span == span_of(TEXT, '"天気_🌦"')
    assert tool.span == (0, len(TEXT.rstrip("\r\n")))
