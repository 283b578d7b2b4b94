"""The server's stderr, copied line by line to the proxy's own stderr (where the host shows it) with the last
lines kept for the one-line failure message; memory stays bounded whatever the server writes."""

from __future__ import annotations

import collections
import os
import sys
import threading
from typing import IO

from toolcast.server.mcp_source import stderr_ending

_KEEP_LINES, _LINE_CHARS = 4, 300


class StderrTail:
    """A pipe the server writes its stderr to. ``writer`` is handed to the server's spawn; ``started``
    closes the proxy's copy of it, so that the end of the pipe means the server (and every process that
    inherited its stderr) is gone, which ``closed`` then reports."""

    def __init__(self, echo: IO[str] | None = None) -> None:
        read_fd, write_fd = os.pipe()
        self.writer = os.fdopen(write_fd, "w")
        self._read_fd = read_fd
        self._lines: collections.deque[str] = collections.deque(maxlen=_KEEP_LINES)
        self._echo = echo if echo is not None else sys.stderr
        self.closed = threading.Event()
        self._thread = threading.Thread(target=self._pump, name="server-stderr", daemon=True)
        self._thread.start()

    def started(self) -> None:
        self.writer.close()

    def _pump(self) -> None:
        pending = b""
        try:
            while True:
                chunk = os.read(self._read_fd, 65536)
                if not chunk:
                    break
                pending += chunk
                *lines, pending = pending.split(b"\n")
                pending = pending[-_LINE_CHARS * 4:]  # one endless line costs a bounded buffer
                for raw in lines:
                    self._keep(raw)
            if pending:
                self._keep(pending)
        except OSError:
            pass
        finally:
            os.close(self._read_fd)
            self.closed.set()

    def _keep(self, raw: bytes) -> None:
        text = " ".join(raw.decode("utf-8", "replace").split())
        if not text:
            return
        self._lines.append(text[:_LINE_CHARS])
        try:
            self._echo.write(raw.decode("utf-8", "replace").rstrip("\r") + "\n")
            self._echo.flush()
        except (OSError, ValueError):
            pass

    def tail(self) -> str:
        """``; its stderr ends: …`` with the last lines, or nothing when the server wrote none."""
        return stderr_ending(list(self._lines))

    def close(self) -> None:
        if not self.writer.closed:
            self.writer.close()
