"""Offsets → 1-based line/column for the CLI and reports, through the project's ``LineIndex`` (lines
split on CRLF, CR and LF only; columns counted in code points, the CLI's unit)."""

from __future__ import annotations


class Positions:
    def __init__(self, text: str) -> None:
        from ..document.line_index import LineIndex

        self.text = text
        self.index = LineIndex(text)

    def line_col(self, offset: int) -> tuple[int, int]:
        """0-based (line, code-point column) of a code-point offset."""
        line, col = self.index.position(offset, "utf-32")
        return int(line), int(col)

    def line_text(self, line: int) -> str:
        start = self.index.offset(line, 0, "utf-32")
        end = start
        text = self.text
        while end < len(text) and text[end] not in "\r\n":
            end += 1
        return text[start:end]
