"""Reading a file from disk: only a regular file, and never more than a limit.

A cloned repository can hold anything under a tool file's name: a link to ``/dev/zero`` (endless), to
``/dev/stdin`` (the language server's own input), a FIFO (opening it blocks until a writer comes) or a
socket. Every file toolcast reads (tool files, ``$ref`` targets, configuration) goes through
``read_regular``: the path is checked with ``os.stat`` (links followed), opened with ``O_NONBLOCK`` (so a
FIFO swapped in after the check cannot block the open), checked again with ``fstat`` on what was opened,
and read up to ``limit + 1`` bytes, so a file that grows while it is read is still refused.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .limits import MAX_FILE_BYTES

_CHUNK = 1 << 20


class UnreadableFile(OSError):
    """A file toolcast does not read; ``reason`` is a phrase for the user (``not a regular file (a FIFO)``)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


class NotRegularFile(UnreadableFile):
    """A device, FIFO, socket or folder (or a link to one)."""


class FileTooLarge(UnreadableFile):
    """A regular file over the byte limit."""

    def __init__(self, path: str, size: int, limit: int) -> None:
        super().__init__(path, f"file is larger than {limit:,} bytes (at least {size:,}); toolcast reads at most "
                               f"{limit:,}")
        self.size, self.limit = size, limit


def kind_of(mode: int) -> str:
    """What a non-regular file is, for a message."""
    for test, name in ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "not a regular file"


def _not_regular(path: str, mode: int) -> NotRegularFile:
    return NotRegularFile(path, f"not a regular file ({kind_of(mode)}); skipped")


def check_regular(path: str | os.PathLike[str]) -> None:
    """Raise ``NotRegularFile`` unless ``path`` (links followed) is a regular file; ``OSError`` when it
    cannot be looked at."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise _not_regular(os.fspath(path), mode)


def read_regular(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file at ``path``. Raises ``NotRegularFile``, ``FileTooLarge`` (both
    ``UnreadableFile``) or another ``OSError``."""
    shown = os.fspath(path)
    check_regular(path)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)  # what was opened, not what the path named a moment ago
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(shown, st.st_mode)
        if st.st_size > limit:
            raise FileTooLarge(shown, st.st_size, limit)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise FileTooLarge(shown, total, limit)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> str:
    """``read_regular`` decoded as UTF-8 (a BOM dropped); ``UnicodeDecodeError`` when it is not."""
    return read_regular(path, limit).decode("utf-8-sig")


def special_file(path: Path) -> str | None:
    """Why ``path`` is skipped when it is a device, FIFO or socket (or a link to one); None otherwise
    (regular files, folders, and paths that cannot be looked at)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return _not_regular(str(path), mode).reason
