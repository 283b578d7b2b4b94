"""LineIndex: LSP line breaks only, columns in all three encodings, never inside a character."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolcast.adapters.document import LineIndex
from toolcast.adapters.document import line_index as line_index_module

TEXT = 'a😋b\r\nxé\u2028y\rz中'
ENCODINGS = ("utf-8", "utf-16", "utf-32")


def test_lines_break_on_crlf_cr_lf_only() -> None:
    index = LineIndex(TEXT)
    assert index.starts == [0, 5, 10] and index.line_count == 3
    assert index.line_end(0) == 3 and index.line_end(1) == 9 and index.line_end(2) == len(TEXT)
    assert LineIndex("").starts == [0] and LineIndex("\n").line_count == 2
    assert LineIndex("a\r\r\nb\n\rc").starts == [0, 2, 4, 6, 7]


def test_columns_per_encoding() -> None:
    index = LineIndex(TEXT)
    b = TEXT.index("b")
    assert index.position(b, "utf-32") == (0, 2)
    assert index.position(b, "utf-16") == (0, 3)  # 😋 is two UTF-16 units
    assert index.position(b, "utf-8") == (0, 5)  # and four UTF-8 bytes
    y = TEXT.index("y")
    assert index.position(y, "utf-16") == (1, 3)  # U+2028 is one unit and no line break
    assert index.position(y, "utf-8") == (1, 6)  # é 2 bytes, U+2028 3 bytes
    assert index.position(len(TEXT), "utf-8") == (2, 4)  # 中 is 3 bytes
    assert index.position(len(TEXT), "utf-16") == (2, 2)
    assert index.position(4, "utf-16") == (0, 4)  # between CR and LF: the end of the line


def test_positions_inside_a_character_snap_to_its_start_and_clamp() -> None:
    index = LineIndex(TEXT)
    assert index.offset(0, 2, "utf-16") == 1  # between the surrogates of 😋
    for byte in (2, 3, 4):
        assert index.offset(0, byte, "utf-8") == 1  # inside the 4 UTF-8 bytes
    assert index.offset(0, 5, "utf-8") == 2
    assert index.offset(2, 2, "utf-8") == 11  # inside 中
    assert index.offset(0, 99, "utf-16") == 3  # clamped before the CRLF
    assert index.offset(1, 99, "utf-8") == 9  # clamped before the lone CR
    assert index.offset(9, 0, "utf-16") == len(TEXT)  # past the last line
    assert index.offset(-1, 5, "utf-16") == 0 and index.offset(0, -3, "utf-16") == 0


def test_apply_change_and_edited_index() -> None:
    index = LineIndex('{"a": 1}\n{"b": 2}')
    edited, start, end = index.apply_change((1, 6), (1, 7), "3\r\n", "utf-16")
    text = '{"a": 1}\n{"b": 3\r\n}'
    assert edited.text == text and (start, end) == (15, 16)
    assert edited.starts == LineIndex(text).starts == [0, 9, 18]
    assert index.text == '{"a": 1}\n{"b": 2}' and index.starts == [0, 9]  # the old index is unchanged
    again, a, b = edited.apply_change((0, 0), (2, 0), "😋", "utf-8")
    assert again.text == "😋}" and (a, b) == (0, 18) and again.starts == [0] and again.length == 2


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(line_index_module, "BLOCK", 4)  # many blocks, so edits cross their borders


pieces = st.sampled_from(["a", "\n", "\r", "\r\n", "😋", "é", "中", "\u2028", " "])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(pieces, max_size=30).map("".join), st.data())
def test_edited_equals_a_fresh_index(small_blocks: None, text: str, data: st.DataObject) -> None:
    """Edits applied one after another (the joined text asked for only sometimes, so edits also land on
    blocks that are still slices of older strings) give the index a fresh build of the text gives, and
    the line starts an independent regular expression finds."""
    index = LineIndex(text)
    for _ in range(6):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, len(text)))
        new = data.draw(st.lists(pieces, max_size=5).map("".join))
        old, old_text = index, text
        index = index.edited(start, end, new)
        text = text[:start] + new + text[end:]
        fresh = LineIndex(text)
        expected_starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
        assert index.starts == fresh.starts == expected_starts and index.line_count == len(expected_starts)
        assert index.length == len(text) and index.slice(1, len(text) - 1) == text[1:-1]
        for offset in range(len(text) + 1):
            for enc in ENCODINGS:
                pos = index.position(offset, enc)  # type: ignore[arg-type]
                assert pos == fresh.position(offset, enc)  # type: ignore[arg-type]
                assert index.offset(*pos, enc) == fresh.offset(*pos, enc)  # type: ignore[arg-type, misc]
        if data.draw(st.booleans()):
            assert index.text == text
        assert old.text == old_text  # an edit leaves the index it was made from as it was
    assert index.text == text


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40), st.data())
def test_round_trip_in_every_encoding(text: str, data: st.DataObject) -> None:
    index = LineIndex(text)
    offset = data.draw(st.integers(0, len(text)))
    for enc in ENCODINGS:
        line, col = index.position(offset, enc)  # type: ignore[arg-type]
        back = index.offset(line, col, enc)  # type: ignore[arg-type]
        # Equal, except an offset between \r and \n maps to the end of its line.
        assert back == offset or text[back:offset] == "\r"


@settings(max_examples=200, deadline=None)
@given(st.lists(pieces | st.sampled_from(["𝄞", "x"]), max_size=30).map("".join), st.integers(-2, 12),
       st.integers(-2, 40), st.sampled_from(ENCODINGS))
def test_incoming_positions_land_on_a_character_start(text: str, line: int, character: int, enc: str) -> None:
    """Whatever the client sends, the offset is a code point boundary, and converting it back gives a
    position at or before the one sent (never inside a character, never past the line)."""
    index = LineIndex(text)
    offset = index.offset(line, character, enc)  # type: ignore[arg-type]
    assert 0 <= offset <= len(text)
    if 0 <= line < index.line_count:
        assert index.line_start(line) <= offset <= index.line_end(line)
        back_line, back_col = index.position(offset, enc)  # type: ignore[arg-type]
        assert back_line == line and back_col <= max(character, 0)
        assert index.offset(back_line, back_col, enc) == offset  # type: ignore[arg-type]


# -- found by mutation testing (scripts/mutation.py line_index): defaults, reversed ranges, the last line --

def test_defaults_are_utf16() -> None:
    index = LineIndex("😋ab")
    assert index.offset(0, 2) == 1  # after the emoji: two UTF-16 units
    edited, a, b = index.apply_change((0, 2), (0, 3), "X")
    assert (edited.text, a, b) == ("😋Xb", 1, 2)


@pytest.mark.parametrize(("encoding", "start", "end"), [("utf-8", 4, 5), ("utf-16", 2, 3), ("utf-32", 1, 2)])
def test_apply_change_reads_both_ends_in_the_given_encoding(encoding: str, start: int, end: int) -> None:
    index = LineIndex("x\n😋ab😋c")
    edited, a, b = index.apply_change((1, start), (1, end), "X", encoding)  # type: ignore[arg-type]
    assert (edited.text, a, b) == ("x\n😋Xb😋c", 3, 4)
    # The end's column is past another non-ASCII character: it is converted too, not taken as code points.
    after = {"utf-8": 10, "utf-16": 6, "utf-32": 4}[encoding]
    assert index.apply_change((1, start), (1, after), "", encoding)[0].text == "x\n😋c"  # type: ignore[arg-type]


def test_a_reversed_range_is_the_same_range() -> None:
    index = LineIndex("abcdef")
    for start, end in (((0, 4), (0, 1)), ((0, 1), (0, 4))):
        edited, a, b = index.apply_change(start, end, "X")
        assert (edited.text, a, b) == ("aXef", 1, 4)
    assert index.edited(4, 1, "X").text == "aXef"


def test_offsets_at_and_past_the_last_line() -> None:
    index = LineIndex("ab\ncd")
    assert index.line_count == 2
    assert index.offset(2, 0) == 5 and index.offset(7, 3) == 5 and index.offset(-1, 3) == 0
    assert index.offset(1, 99) == 5 and index.offset(0, 99) == 2


def test_deleting_whole_blocks_never_leaves_cr_and_lf_in_two_blocks(small_blocks: None) -> None:
    # Blocks of 4: "abc\r" "defg" "\nxyz". Deleting the middle block brings CR and LF together.
    index = LineIndex("abc\rdefg\nxyz")
    edited = index.edited(4, 8, "")
    assert edited.line_count == 2 and edited.starts == [0, 5] and edited.line_end(0) == 3
    assert edited.position(4, "utf-16") == (0, 3)  # between CR and LF: the end of line 0
    # The same with the CR at the end of the deleted range's left neighbour and an insertion.
    inserted = LineIndex("abc\rdefg\nxyz").edited(4, 9, "\n")
    assert inserted.starts == [0, 5] and inserted.text == "abc\r\nxyz"


def test_edits_next_to_blocks_cut_from_other_strings(small_blocks: None) -> None:
    """Blocks made by earlier edits are slices of other strings (at other offsets) than the blocks
    around them; the CR LF check must read the block just before the edit, and only when there is one."""
    # Block 1 "xxx\r" and block 2 "efgh" are slices of an edit's string; block 0 "abcd" of the original text.
    # (`text` is asked for last: joining makes every block a slice of the joined string.)
    index = LineIndex("abcdefgh").edited(4, 8, "xxx\r").edited(8, 8, "efgh")
    joined = index.edited(8, 8, "\n")  # LF right after block 1's CR: one line break
    assert joined.starts == LineIndex("abcdxxx\r\nefgh").starts == [0, 9] and joined.line_count == 2
    assert index.text == "abcdxxx\refgh" and index.starts == [0, 8]
    # An LF inserted at the very start has no block before it (no wrap-around to the last block, whose
    # string holds a CR at the offset a wrap-around would read).
    other = LineIndex("abcdefgh").edited(4, 4, "xxxxxxxx\r")
    first = other.edited(0, 0, "\n")
    assert first.text == "\nabcdxxxxxxxx\refgh" and first.starts == [0, 1, 14]


def test_position_defaults_to_utf16() -> None:
    assert LineIndex("😋ab").position(1) == (0, 2)  # two UTF-16 units (four UTF-8 bytes)


def test_a_text_that_starts_with_crlf_ends_its_first_line_at_zero() -> None:
    """The first line of "\\r\\nx" is empty: it ends at 0, before the CR, and the offset between CR and LF
    is that end (the line break is two characters from the very start of the text)."""
    for index in (LineIndex("\r\nx"), LineIndex("ab").edited(0, 2, "\r\nx")):
        assert index.line_end(0) == 0 and index.line_start(1) == 2
        assert index.position(1) == (0, 0) and index.position(2) == (1, 0)
        assert index.offset(0, 5) == 0


def test_line_starts_past_the_last_line_are_the_end_of_the_text() -> None:
    index = LineIndex("a\nbc")
    assert index.line_count == 2
    assert [index.line_start(n) for n in (-1, 0, 1, 2, 3, 99)] == [0, 0, 2, 4, 4, 4]
