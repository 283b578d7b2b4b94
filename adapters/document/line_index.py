"""Code-point offsets ⇄ LSP positions.

Lines break only on CRLF, CR and LF, as the LSP specification says (``str.splitlines`` also breaks
on U+2028 and others, which would shift every position after such a character). Columns are
counted in the encoding negotiated with the client: UTF-16 code units (VS Code), UTF-8 bytes
(Neovim) or code points.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Literal

Encoding = Literal["utf-8", "utf-16", "utf-32"]

_BREAK = re.compile(r"\r\n|\r|\n")


def _units(ch: str, encoding: str) -> int:
    o = ord(ch)
    if encoding == "utf-16":
        return 2 if o > 0xFFFF else 1
    if encoding == "utf-8":
        return 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
    return 1


class LineIndex:
    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in _BREAK.finditer(text)]

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_end(self, line: int) -> int:
        """Offset of the end of ``line``, before its line break."""
        if line + 1 < len(self.starts):
            end = self.starts[line + 1]
            text = self.text
            if end >= 2 and text[end - 2 : end] == "\r\n":
                return end - 2
            return end - 1
        return len(self.text)

    def position(self, offset: int, encoding: Encoding = "utf-16") -> tuple[int, int]:
        """(line, character) of a code-point offset; offsets outside the text are clamped."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        # An offset inside a CRLF pair belongs to the end of the line.
        offset = min(offset, max(start, self.line_end(line))) if offset > self.line_end(line) else offset
        segment = self.text[start:offset]
        if encoding == "utf-32" or segment.isascii():
            return line, len(segment)
        if encoding == "utf-16":
            return line, len(segment.encode("utf-16-le", "surrogatepass")) // 2
        return line, len(segment.encode("utf-8", "surrogatepass"))

    def offset(self, line: int, character: int, encoding: Encoding = "utf-16") -> int:
        """Code-point offset of an LSP position. Past the end of a line clamps to the line end; past
        the last line clamps to the end of the text; a column inside a character (half a surrogate
        pair, part of a UTF-8 sequence) snaps to that character's start."""
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        start, end = self.starts[line], self.line_end(line)
        character = max(0, character)
        segment = self.text[start:end]
        if encoding == "utf-32" or segment.isascii():
            return start + min(character, len(segment))
        units = 0
        for i, ch in enumerate(segment):
            width = _units(ch, encoding)
            if units + width > character:
                return start + i
            units += width
        return end

    def apply_change(self, start: tuple[int, int], end: tuple[int, int], new_text: str,
                     encoding: Encoding = "utf-16") -> tuple[str, int, int]:
        """Apply an incremental LSP change; returns (new text, start offset, end offset replaced)."""
        a = self.offset(start[0], start[1], encoding)
        b = self.offset(end[0], end[1], encoding)
        if b < a:
            a, b = b, a
        return self.text[:a] + new_text + self.text[b:], a, b
