"""The LSP base protocol's framing (``Content-Length`` headers, then a body), read by toolcast itself.

pygls' reader only knows ``Content-Length: N\\r\\n`` exactly; anything else (LF-only lines, another
case, a bad or missing length) left it waiting forever without answering. This reader:

- accepts header names in any case and lines ending in LF or CRLF;
- bounds a header line (``MAX_HEADER_LINE``) and a body (``MAX_BODY``): a longer line is skipped up
  to its LF, a larger length is refused, each with one log line; memory stays bounded either way;
- **resynchronises** after a frame it cannot use (length missing, not a byte count, over the limit):
  one warning, then everything up to the next ``Content-Length`` header is skipped, so the next
  well-framed message is answered;
- when a body turns out not to be JSON because its length was wrong, hands the bytes after it back
  to the header reader (``unread_tail``): a length too small leaves the body's rest in front of the
  next header, one too large swallows the start of that header; both are found again. A length too
  large with nothing after it: once the body stalls for ``STALL`` seconds holding a whole JSON value,
  that value is the message.

The process never stays alive without reading: it either reads on or ends at end of input.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Protocol

MAX_HEADER_LINE = 64 * 1024
#: Above the largest document toolcast checks (32 M characters, up to 6 bytes each in JSON escapes).
MAX_BODY = 256 * 1024 * 1024
_HEADER = b"content-length:"
#: A body that stops arriving for this long while what came is already a whole JSON value had a length
#: too large (and the client waits for the answer): it is read as it is.
STALL = 1.0

log = logging.getLogger("toolcast.server")


class ByteSource(Protocol):
    async def read(self, n: int) -> bytes:
        """Up to ``n`` bytes, at least one; ``b""`` at end of input."""
        ...


class _TooLong:
    pass


TOO_LONG = _TooLong()


class FrameReader:
    def __init__(self, source: ByteSource) -> None:
        self._source = source
        self._buf = bytearray()
        self._eof = False
        self._resync = False  # skipping up to the next Content-Length header
        self._junk_logged = False
        self._pending: asyncio.Future[bytes] | None = None  # a read still under way (see _fill)

    async def _fill(self, want: int = 1 << 16, timeout: float | None = None) -> bool | None:
        """Read more into the buffer: False at end of input, None if ``timeout`` passed first (the read
        goes on and the next call takes its bytes: nothing is lost)."""
        if self._eof:
            return False
        if self._pending is None:
            self._pending = asyncio.ensure_future(self._source.read(max(want, 1 << 16)))
        if timeout is not None:
            done, _ = await asyncio.wait({self._pending}, timeout=timeout)
            if not done:
                return None
        chunk = await self._pending
        self._pending = None
        if not chunk:
            self._eof = True
            return False
        self._buf += chunk
        return True

    async def _line(self) -> bytes | _TooLong | None:
        """The next line without its LF (and a CR before it); None at end of input."""
        scanned = 0
        while True:
            end = self._buf.find(b"\n", scanned)
            if end > MAX_HEADER_LINE or (end < 0 and len(self._buf) > MAX_HEADER_LINE):
                await self._skip_line()
                return TOO_LONG
            if end >= 0:
                line = bytes(self._buf[:end])
                del self._buf[: end + 1]  # cheap: bytearray drops a prefix without moving the rest
                return line[:-1] if line.endswith(b"\r") else line
            scanned = len(self._buf)
            if not await self._fill():
                return None

    async def _skip_line(self) -> None:
        """Drop bytes up to and including the next LF, holding at most one chunk at a time."""
        while True:
            end = self._buf.find(b"\n")
            if end >= 0:
                del self._buf[: end + 1]
                return
            self._buf.clear()
            if not await self._fill():
                return

    async def _exactly(self, n: int) -> bytes | None:
        while len(self._buf) < n:
            more = await self._fill(n - len(self._buf), STALL)
            if more is None and self._complete_json():
                # The length was too large and nothing more is coming: the client waits for an answer.
                log.warning("Content-Length %d is %d bytes more than the message sent: read as it is",
                            n, n - len(self._buf))
                body = bytes(self._buf)
                self._buf.clear()
                return body
            if more is False:
                return None
        if len(self._buf) == n:  # the usual case: the buffer holds just this body; one copy, not two
            body = bytes(self._buf)
            self._buf.clear()
            return body
        with memoryview(self._buf) as view:  # a slice of a bytearray would copy it once more
            body = view[:n].tobytes()
        del self._buf[:n]
        return body

    def _complete_json(self) -> bool:
        try:
            json.loads(self._buf)
        except ValueError:
            return False
        return True

    def unread_tail(self, body: bytes) -> None:
        """A body that is not JSON: if a header (or the start of one) is inside it, its length was too
        large and those bytes belong to the next frame; read them again as headers."""
        lower = body.lower()
        at = lower.find(_HEADER, 1)
        if at < 0:
            at = next((len(body) - k for k in range(len(_HEADER) - 1, 0, -1) if lower.endswith(_HEADER[:k])), -1)
        if at > 0:
            self._buf[:0] = body[at:]

    def _skipped(self, what: str) -> None:
        if not self._junk_logged:
            self._junk_logged = True
            log.warning("skipped %s before the next Content-Length header", what)

    async def read(self) -> bytes | None:
        """The next frame's body; None at end of input."""
        length: int | None = None
        problem: str | None = None  # why this frame cannot be used
        in_frame = False
        while True:
            line = await self._line()
            if line is None:
                return None
            if isinstance(line, _TooLong):
                if self._resync:
                    continue  # a long line of a frame already being skipped
                log.warning("a header line over %d KiB (not LSP framing): skipped; reading on at the next "
                            "Content-Length header", MAX_HEADER_LINE // 1024)
                self._resync, length, problem, in_frame = True, None, None, False
                continue
            at = line.lower().find(_HEADER)
            if self._resync or (at > 0 and in_frame is False):
                if at < 0:
                    continue  # still skipping
                if at > 0 and not self._resync:
                    self._skipped(f"{at} bytes that are not a header")
                self._resync, line = False, line[at:]
            elif at > 0:  # a header glued to leftover bytes in the middle of a frame: a new frame
                self._skipped(f"{at} bytes that are not a header")
                line, length, problem = line[at:], None, None
            if not line:
                if not in_frame:
                    continue  # blank lines between frames
                if length is not None and problem is None:
                    body = await self._exactly(length)
                    if body is not None:
                        self._junk_logged = False
                    return body
                log.warning("a message without a valid Content-Length (%s): skipped; reading on at the next "
                            "Content-Length header", problem or "no Content-Length header")
                self._resync, length, problem, in_frame = True, None, None, False
                continue
            name, colon, value = line.partition(b":")
            if not colon:
                if not in_frame:
                    self._skipped(f"{len(line) + 1} bytes that are not a header")
                    continue
                problem = problem or f"header line {line[:40]!r} has no colon"
                continue
            in_frame = True
            if name.strip().lower() == b"content-length":
                digits = value.strip()
                if not digits.isdigit() or len(digits) > 15:
                    problem = f"Content-Length {digits[:40].decode('latin-1')!r} is not a byte count"
                elif int(digits) > MAX_BODY:
                    problem = f"Content-Length {int(digits)} is over the limit of {MAX_BODY} bytes"
                else:
                    length = int(digits)
