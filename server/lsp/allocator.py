"""Allocator settings for a process that keeps one large document and edits it many times a second.

Each keystroke in a file of megabytes makes a new copy of its text. glibc serves blocks above its
mmap threshold (at most 32 MB) with fresh mappings, so every copy of a large text costs thousands of
page faults; measured on a 14 MB file of wide characters: 30–45 ms per edit, 6 ms once the heap
keeps and reuses the memory. Elsewhere (not glibc) this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys

_M_TRIM_THRESHOLD = -1
_M_MMAP_MAX = -4
#: Free heap memory kept for reuse instead of returned to the system.
KEEP_BYTES = 256 * 1024 * 1024


@functools.cache  # the process's C library: looked up once (find_library runs a program to find it)
def _libc() -> ctypes.CDLL | None:
    """The C library where it is glibc's allocator that these settings are for (Linux), else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None


def keep_large_blocks() -> bool:
    """Serve large blocks from the heap and keep freed memory for the next copy. True if applied."""
    libc = _libc()
    mallopt = getattr(libc, "mallopt", None)
    return mallopt is not None and bool(mallopt(_M_MMAP_MAX, 0)) and bool(mallopt(_M_TRIM_THRESHOLD, KEEP_BYTES))


def release_free_memory() -> bool:
    """Give the free pages of the heap back to the system (glibc ``malloc_trim``), keeping none.

    ``keep_large_blocks`` keeps freed memory for the next copy of a text, which is right for edits but
    also keeps everything a large document's opening freed: the message's bytes and its decoded copies
    (a 14 MB file of wide characters: some 150 MB), then the first check's passing blocks. Called when
    a large document starts its first check and when that check is complete; the next edit's copy of
    the text then costs its page faults once (measured: BENCHMARKS.md). True if applied."""
    trim = getattr(_libc(), "malloc_trim", None)
    return trim is not None and bool(trim(0))
