"""A document's text as the editor has it, and code-point offsets ⇄ LSP positions.

Lines break only on CRLF, CR and LF, as the LSP specification says (``str.splitlines`` also breaks
on U+2028 and others, which would shift every position after such a character). Columns are
counted in the encoding negotiated with the client: UTF-16 code units (VS Code), UTF-8 bytes
(Neovim) or code points.

Cost: the text is kept as a list of blocks of about ``BLOCK`` code points, each a slice of some
string (``src[lo:lo + length]``) that is never copied until it is edited. An edit replaces the one or
two blocks it touches and moves the starts of the blocks after it, so applying a change costs the
same on a file of 10 MB as on one of 10 KB; the whole text is joined only when someone asks for
``text`` (the analysis, once per burst of changes), and after that every block reads from the
joined string, so the edited pieces can be freed. Each block knows how many line breaks it holds;
where the lines inside a block start is found only when a position in that block is asked for. A
block never ends between CR and LF. Indexes are values: ``edited`` returns a new index and leaves
the old one as it was.
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


def _breaks(src: str, lo: int, hi: int) -> int:
    """Line breaks in ``src[lo:hi]`` (a CR LF is one)."""
    n = src.count("\n", lo, hi)
    cr = src.count("\r", lo, hi)
    return n + cr - src.count("\r\n", lo, hi) if cr else n


class LineIndex:
    __slots__ = ("_bafter", "_bcount", "_bstart", "_ends", "_len", "_lo", "_src", "_text", "line_count")

    def __init__(self, text: str) -> None:
        self._text: str | None = text
        self._len = len(text)
        self._src: list[str] = []
        self._lo: list[int] = []
        self._bstart: list[int] = []
        self._bcount: list[int] = []
        _cut(text, 0, len(text), 0, self)
        if not self._bstart:
            self._add("", 0, 0, 0)  # the empty text: one empty block
        self._ends: dict[int, list[int]] = {}
        self._finish()

    def _add(self, src: str, lo: int, at: int, count: int) -> None:
        self._src.append(src)
        self._lo.append(lo)
        self._bstart.append(at)
        self._bcount.append(count)

    def _finish(self) -> None:
        # _bafter[k]: line breaks up to the end of block k.
        self._bafter = list(accumulate(self._bcount))
        self.line_count = self._bafter[-1] + 1

    # -- the text --------------------------------------------------------------------------------
    @property
    def text(self) -> str:
        """The whole text (joined on first use after an edit)."""
        if self._text is None:
            n = len(self._bstart)
            text = "".join(self._src[k][self._lo[k] : self._lo[k] + self._blen(k)] for k in range(n))
            # From now on every block reads from the joined string: the edited pieces can go.
            self._src = [text] * n
            self._lo = list(self._bstart)
            self._text = text
        return self._text

    @property
    def length(self) -> int:
        """Length of the text in code points (without joining it)."""
        return self._len

    def _blen(self, k: int) -> int:
        return (self._bstart[k + 1] if k + 1 < len(self._bstart) else self._len) - self._bstart[k]

    def _block_of(self, offset: int) -> int:
        """The block holding ``offset`` (the last block for the end of the text)."""
        return max(bisect_right(self._bstart, offset) - 1, 0)

    def _piece(self, k: int, a: int, b: int) -> str:
        """``text[a:b]`` for offsets inside block ``k`` (relative to the text)."""
        shift = self._lo[k] - self._bstart[k]
        return self._src[k][a + shift : b + shift]

    def _pieces(self, a: int, b: int) -> list[str]:
        """``text[a:b]`` as the pieces of the blocks it crosses."""
        out = []
        k = self._block_of(a)
        while a < b:
            end = min(b, self._bstart[k] + self._blen(k))
            out.append(self._piece(k, a, end))
            a = end
            k += 1
        return out

    def slice(self, a: int, b: int) -> str:
        """``text[a:b]`` without joining the whole text."""
        if self._text is not None:
            return self._text[a:b]
        a, b = max(0, a), min(b, self._len)
        return "".join(self._pieces(a, b)) if a < b else ""

    # -- lines -----------------------------------------------------------------------------------
    def _block_ends(self, k: int) -> list[int]:
        """Ends of the line breaks in block ``k``, relative to the block's start."""
        ends = self._ends.get(k)
        if ends is None:
            src, lo = self._src[k], self._lo[k]
            hi = lo + self._blen(k)
            if self._bcount[k] == 0:
                ends = []
            elif src.find("\r", lo, hi) >= 0:
                ends = [m.end() - lo for m in _BREAK.finditer(src, lo, hi)]
            else:
                ends = list(accumulate(len(piece) + 1 for piece in src[lo:hi].split("\n")[:-1]))
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
            return self._len
        k = bisect_left(self._bafter, line)
        before = self._bafter[k] - self._bcount[k]
        return self._bstart[k] + self._block_ends(k)[line - before - 1]

    def line_end(self, line: int) -> int:
        """Offset of the end of ``line``, before its line break."""
        if line + 1 >= self.line_count:
            return self._len
        nxt = self.line_start(line + 1)
        return nxt - 2 if nxt >= 2 and self.slice(nxt - 2, nxt) == "\r\n" else nxt - 1

    def line_of(self, offset: int) -> int:
        offset = max(0, min(offset, self._len))
        k = self._block_of(offset)
        before = self._bafter[k] - self._bcount[k]
        return before + bisect_right(self._block_ends(k), offset - self._bstart[k])

    # -- positions -------------------------------------------------------------------------------
    def _span_units(self, a: int, b: int, encoding: str) -> int:
        if encoding == "utf-32":
            return max(0, b - a)
        return sum(_units(piece, encoding) for piece in self._pieces(a, b))

    def position(self, offset: int, encoding: Encoding = "utf-16") -> tuple[int, int]:
        """(line, character) of a code-point offset; offsets outside the text are clamped, and an
        offset between CR and LF is the end of its line."""
        offset = max(0, min(offset, self._len))
        line = self.line_of(offset)
        start = self.line_start(line)
        offset = min(offset, self.line_end(line))
        return line, self._span_units(start, offset, encoding)

    def offset(self, line: int, character: int, encoding: Encoding = "utf-16") -> int:
        """Code-point offset of an LSP position. Past the end of a line clamps to the line end; past
        the last line clamps to the end of the text; a column inside a character (half a surrogate
        pair, part of a UTF-8 sequence) snaps to that character's start."""
        if line < 0:
            return 0
        if line >= self.line_count:
            return self._len
        start, end = self.line_start(line), self.line_end(line)
        # Every code point is at least one unit, so the answer lies within `character` code points.
        hi = min(end - start, max(0, character))
        if encoding == "utf-32":
            return start + hi
        left = max(0, character)  # units still to walk
        at = start
        for piece in self._pieces(start, start + hi):
            units = _units(piece, encoding)
            if units <= left:
                left -= units
                at += len(piece)
                continue
            lo, top = 0, min(len(piece), left)  # largest prefix of the piece within `left` units
            while lo < top:
                mid = (lo + top + 1) // 2
                if _units(piece[:mid], encoding) <= left:
                    lo = mid
                else:
                    top = mid - 1
            return at + lo
        return at

    # -- edits -----------------------------------------------------------------------------------
    def apply_change(self, start: tuple[int, int], end: tuple[int, int], new_text: str,
                     encoding: Encoding = "utf-16") -> tuple[LineIndex, int, int]:
        """Apply an incremental LSP change: (the new text's index, start offset, end offset replaced)."""
        a = self.offset(start[0], start[1], encoding)
        b = self.offset(end[0], end[1], encoding)
        if b < a:
            a, b = b, a
        return self.edited(a, b, new_text), a, b

    def edited(self, start: int, end: int, new_text: str) -> LineIndex:
        """The index of the text with ``[start, end)`` replaced by ``new_text``. Rebuilds only the
        blocks the edit touches (and a neighbour when a CR LF would be cut), moving the others."""
        a, b = max(0, min(start, self._len)), max(0, min(end, self._len))
        if b < a:
            a, b = b, a
        k0 = self._block_of(a)
        k1 = max(self._block_of(b), k0)
        lo = self._bstart[k0]
        hi = self._bstart[k1] + self._blen(k1)
        # `mid` ends where block k1 ends (an offset at a block's start belongs to that block), a border
        # that already keeps CR LF together, and is empty only when the edit reaches the end of the text.
        mid = "".join((self._piece(k0, lo, a), new_text, self._piece(k1, b, hi)))
        # Its start can bring an LF next to the previous block's CR: then that block is taken in too.
        if mid.startswith("\n") and k0 > 0 and self._piece(k0 - 1, lo - 1, lo) == "\r":
            k0 -= 1
            lo = self._bstart[k0]
            mid = self._piece(k0, lo, lo + self._blen(k0)) + mid
        delta = len(new_text) - (b - a)
        new = LineIndex.__new__(LineIndex)
        new._text = None
        new._len = self._len + delta
        new._src, new._lo = self._src[:k0], self._lo[:k0]
        new._bstart, new._bcount = self._bstart[:k0], self._bcount[:k0]
        _cut(mid, 0, len(mid), lo, new)
        added = len(new._bstart) - k0
        if not new._bstart:  # everything deleted (`mid` is empty only when the edit reaches the end)
            new._add("", 0, 0, 0)
            added = 1
        new._src.extend(self._src[k1 + 1 :])
        new._lo.extend(self._lo[k1 + 1 :])
        new._bstart.extend(s + delta for s in self._bstart[k1 + 1 :])
        new._bcount.extend(self._bcount[k1 + 1 :])
        shift = k0 + added - (k1 + 1)
        new._ends = {k if k < k0 else k + shift: v for k, v in self._ends.items() if k < k0 or k > k1}
        new._finish()
        return new


def _cut(src: str, lo: int, hi: int, at: int, index: LineIndex) -> None:
    """Append ``src[lo:hi]`` to ``index`` as blocks (placed from offset ``at``) of at most about
    ``BLOCK`` code points, even in size, never cut between CR and LF. The blocks are slices of
    ``src``, not copies."""
    size = hi - lo
    if size <= 0:
        return
    parts = -(-size // BLOCK)
    step = -(-size // parts)
    s = lo
    while s < hi:
        e = min(hi, s + step)
        if e < hi and src[e - 1] == "\r" and src[e] == "\n":
            e += 1
        index._add(src, s, at + s - lo, _breaks(src, s, e))
        s = e
