"""LineIndex: LSP line breaks only, columns in all three encodings, never inside a character."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from toolcast.adapters.document import LineIndex

TEXT = 'a😋b\r\nxé\u2028y\rz中'


def test_lines_break_on_crlf_cr_lf_only() -> None:
    assert LineIndex(TEXT).starts == [0, 5, 10]


def test_columns_per_encoding() -> None:
    index = LineIndex(TEXT)
    b = TEXT.index("b")
    assert index.position(b, "utf-32") == (0, 2)
    assert index.position(b, "utf-16") == (0, 3)
    assert index.position(b, "utf-8") == (0, 5)
    y = TEXT.index("y")
    assert index.position(y, "utf-16") == (1, 3)  # U+2028 is one unit and no line break
    assert index.position(y, "utf-8") == (1, 6)
    assert index.position(len(TEXT), "utf-8") == (2, 4)


def test_positions_inside_a_character_snap_to_its_start_and_clamp() -> None:
    index = LineIndex(TEXT)
    assert index.offset(0, 2, "utf-16") == 1  # between the surrogates of 😋
    assert index.offset(0, 3, "utf-8") == 1  # inside the 4 UTF-8 bytes
    assert index.offset(0, 99, "utf-16") == 3  # clamped before the CRLF
    assert index.offset(9, 0, "utf-16") == len(TEXT)


def test_apply_change() -> None:
    index = LineIndex('{"a": 1}\n{"b": 2}')
    text, start, end = index.apply_change((1, 6), (1, 7), "3", "utf-16")
    assert text == '{"a": 1}\n{"b": 3}' and (start, end) == (15, 16)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40), st.data())
def test_round_trip_in_every_encoding(text: str, data: st.DataObject) -> None:
    index = LineIndex(text)
    offset = data.draw(st.integers(0, len(text)))
    for enc in ("utf-8", "utf-16", "utf-32"):
        line, col = index.position(offset, enc)  # type: ignore[arg-type]
        back = index.offset(line, col, enc)  # type: ignore[arg-type]
        # Equal, except an offset between \r and \n maps to the end of its line.
        assert back == offset or text[back:offset] == "\r"
