"""Offsets → 1-based line/column for the CLI and reports, through the project's ``LineIndex`` (lines
split on CRLF, CR and LF only; columns counted in code points, the CLI's unit)."""

from __future__ import annotations


class Positions:
    def __init__(self, text: str) -> None:
        from ..document.line_index import LineIndex

        self.text = text
        self.index = LineIndex(text)
        self._line: tuple[int, str] | None = None

    def line_col(self, offset: int) -> tuple[int, int]:
        """0-based (line, code-point column) of a code-point offset."""
        line, col = self.index.position(offset, "utf-32")
        return int(line), int(col)

    def line_text(self, line: int) -> str:
        """The text of ``line`` without its line break. The last line asked for is kept: findings come in
        document order, and a minified file's one line is megabytes long."""
        if self._line is None or self._line[0] != line:
            self._line = line, self.text[self.index.line_start(line) : self.index.line_end(line)]
        return self._line[1]
