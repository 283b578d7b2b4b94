"""Code-point offsets ⇄ LSP positions.

Lines break only on CRLF, CR and LF, as the LSP specification says (``str.splitlines`` also breaks
on U+2028 and others, which would shift every position after such a character). Columns are
counted in the encoding negotiated with the client: UTF-16 code units (VS Code), UTF-8 bytes
(Neovim) or code points.

Cost: the index is built per keystroke on files of many megabytes, so it does not list every line
start up front. The text is cut into blocks of about ``BLOCK`` code points; building counts the line
breaks of each block (C-speed ``str.count``) and the line starts inside a block are found only when a
position in that block is asked for. ``edited`` makes the index of an edited text from the previous
one by recounting only the blocks the edit touched (line starts are stored relative to their block,
so the blocks after an edit are reused as they are, just moved).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from itertools import accumulate
from typing import Literal

Encoding = Literal["utf-8", "utf-16", "utf-32"]

BLOCK = 1 << 14
_BREAK = re.compile(r"\r\n|\r|\n")


def _units(text: str, encoding: str) -> int:
    """Length of ``text`` in the encoding's units (lone surrogates count as one UTF-16 unit / 3 bytes)."""
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-16":
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text.encode("utf-8", "surrogatepass"))


class LineIndex:
    def __init__(self, text: str) -> None:
        self.text = text
        self._cr = "\r" in text
        self._bstart: list[int] = []
        self._bcount: list[int] = []
        self._chunk(0, len(text), self._bstart, self._bcount)
        self._ends: dict[int, list[int]] = {}
        self._finish()

    def _chunk(self, lo: int, hi: int, starts: list[int], counts: list[int]) -> None:
        """Cut ``text[lo:hi]`` into blocks (never between CR and LF) and count their line breaks."""
        text, cr = self.text, self._cr
        s = lo
        while True:
            e = min(hi, s + BLOCK)
            if e < len(text) and text[e - 1] == "\r" and text[e] == "\n":
                e += 1
            n = text.count("\n", s, e)
            if cr:
                n += text.count("\r", s, e) - text.count("\r\n", s, e)
            starts.append(s)
            counts.append(n)
            s = e
            if s >= hi:
                return

    def _finish(self) -> None:
        # _bafter[k]: line breaks up to the end of block k.
        self._bafter = list(accumulate(self._bcount))
        self.line_count = (self._bafter[-1] if self._bafter else 0) + 1

    def _block_ends(self, k: int) -> list[int]:
        """Ends of the line breaks in block ``k``, relative to the block's start."""
        ends = self._ends.get(k)
        if ends is None:
            s = self._bstart[k]
            e = self._bstart[k + 1] if k + 1 < len(self._bstart) else len(self.text)
            if self._bcount[k] == 0:
                ends = []
            elif self._cr:
                ends = [m.end() - s for m in _BREAK.finditer(self.text, s, e)]
            else:
                ends = list(accumulate(len(piece) + 1 for piece in self.text[s:e].split("\n")[:-1]))
            self._ends[k] = ends
        return ends

    @property
    def starts(self) -> list[int]:
        """Every line's start offset (builds the full list: for tests and small texts)."""
        out = [0]
        for k, s in enumerate(self._bstart):
            out.extend(s + e for e in self._block_ends(k))
        return out

    def line_start(self, line: int) -> int:
        if line <= 0:
            return 0
        if line >= self.line_count:
            return len(self.text)
        k = bisect_left(self._bafter, line)
        before = self._bafter[k] - self._bcount[k]
        return self._bstart[k] + self._block_ends(k)[line - before - 1]

    def line_end(self, line: int) -> int:
        """Offset of the end of ``line``, before its line break."""
        if line + 1 >= self.line_count:
            return len(self.text)
        nxt = self.line_start(line + 1)
        return nxt - 2 if nxt >= 2 and self.text[nxt - 2 : nxt] == "\r\n" else nxt - 1

    def line_of(self, offset: int) -> int:
        offset = max(0, min(offset, len(self.text)))
        k = bisect_right(self._bstart, offset) - 1
        if k < 0:
            return 0
        before = self._bafter[k] - self._bcount[k]
        return before + bisect_right(self._block_ends(k), offset - self._bstart[k])

    def position(self, offset: int, encoding: Encoding = "utf-16") -> tuple[int, int]:
        """(line, character) of a code-point offset; offsets outside the text are clamped, and an
        offset between CR and LF is the end of its line."""
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        start = self.line_start(line)
        offset = min(offset, self.line_end(line))
        return line, _units(self.text[start:offset], encoding)

    def offset(self, line: int, character: int, encoding: Encoding = "utf-16") -> int:
        """Code-point offset of an LSP position. Past the end of a line clamps to the line end; past
        the last line clamps to the end of the text; a column inside a character (half a surrogate
        pair, part of a UTF-8 sequence) snaps to that character's start."""
        if line < 0:
            return 0
        if line >= self.line_count:
            return len(self.text)
        start, end = self.line_start(line), self.line_end(line)
        character = max(0, character)
        # Every code point is at least one unit, so the answer lies within `character` code points.
        hi = min(end - start, character)
        text = self.text
        if encoding == "utf-32" or text[start : start + hi].isascii():
            return start + hi
        lo = 0  # largest prefix (in code points) whose length in units is <= character
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if _units(text[start : start + mid], encoding) <= character:
                lo = mid
            else:
                hi = mid - 1
        return start + lo

    def apply_change(self, start: tuple[int, int], end: tuple[int, int], new_text: str,
                     encoding: Encoding = "utf-16") -> tuple[str, int, int]:
        """Apply an incremental LSP change; returns (new text, start offset, end offset replaced).
        ``edited(start, end, new_text, text)`` then gives the new text's index cheaply."""
        a = self.offset(start[0], start[1], encoding)
        b = self.offset(end[0], end[1], encoding)
        if b < a:
            a, b = b, a
        # One join copies the text once; `x + y + z` would copy the first part twice (for a file of
        # megabytes in a wide string kind, that is tens of milliseconds per keystroke).
        return "".join((self.text[:a], new_text, self.text[b:])), a, b

    def edited(self, start: int, end: int, new_text: str, text: str | None = None) -> LineIndex:
        """The index of the text with ``[start, end)`` replaced by ``new_text`` (``text``: the new
        full text, when the caller has it). Recounts only the blocks the edit touches."""
        old = self.text
        if text is None:
            text = old[:start] + new_text + old[end:]
        delta = len(text) - len(old)
        new = LineIndex.__new__(LineIndex)
        new.text = text
        new._cr = self._cr or "\r" in new_text
        nblocks = len(self._bstart)
        k0 = max(bisect_right(self._bstart, max(start - 1, 0)) - 1, 0)
        k1 = max(bisect_right(self._bstart, end) - 1, k0)
        if new._cr and not self._cr:
            return LineIndex(text)  # first CR in the text: the kept blocks were counted without it
        while True:
            hi = (self._bstart[k1 + 1] if k1 + 1 < nblocks else len(old)) + delta
            # Keep CR LF together across the next, reused block's start.
            if k1 + 1 < nblocks and 0 < hi < len(text) and text[hi - 1] == "\r" and text[hi] == "\n":
                k1 += 1
                continue
            break
        lo = self._bstart[k0]
        starts: list[int] = self._bstart[:k0]
        counts: list[int] = self._bcount[:k0]
        new._chunk(lo, max(hi, lo), starts, counts)
        added = len(starts) - k0
        starts.extend(s + delta for s in self._bstart[k1 + 1 :])
        counts.extend(self._bcount[k1 + 1 :])
        new._bstart, new._bcount = starts, counts
        shift = k0 + added - (k1 + 1)
        new._ends = {k if k < k0 else k + shift: v for k, v in self._ends.items() if k < k0 or k > k1}
        new._finish()
        return new
