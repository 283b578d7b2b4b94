"""A child's standard error kept as a bounded tail: a pipe drained by a thread into a ring buffer.

The child writes as much as it likes (a server can write gigabytes in seconds); toolcast keeps only the
last ``keep`` bytes in memory, for the one line of an error message, and nothing grows on disk."""

from __future__ import annotations

import os
import threading
from typing import IO

#: What is kept of a child's standard error.
STDERR_KEEP = 8192


class StderrTail:
    """``writer`` is the file to give the child as its standard error; ``tail()`` the last bytes it wrote."""

    def __init__(self, keep: int = STDERR_KEEP) -> None:
        read_fd, write_fd = os.pipe()
        self.keep = keep
        self.writer: IO[bytes] = os.fdopen(write_fd, "wb", buffering=0)
        self._read_fd = read_fd
        self._buf = bytearray()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, name="toolcast-stderr-tail", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        try:
            while chunk := os.read(self._read_fd, 65536):
                with self._lock:
                    self._buf += chunk
                    if len(self._buf) > 2 * self.keep:
                        del self._buf[:-self.keep]
        except OSError:
            pass
        finally:
            os.close(self._read_fd)

    def tail(self, wait: float = 1.0) -> bytes:
        """The last ``keep`` bytes written; waits up to ``wait`` seconds for writers still holding the pipe
        (the child's descendants are ended before this is asked)."""
        self.close()
        self._thread.join(wait)
        with self._lock:
            return bytes(self._buf[-self.keep:])

    def close(self) -> None:
        if not self.writer.closed:
            self.writer.close()

    def __enter__(self) -> StderrTail:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
