"""Allocator settings for a process that keeps one large document and edits it many times a second.

Each keystroke in a file of megabytes makes a new copy of its text. glibc serves blocks above its
mmap threshold (at most 32 MB) with fresh mappings, so every copy of a large text costs thousands of
page faults; measured on a 14 MB file of wide characters: 30–45 ms per edit, 6 ms once the heap
keeps and reuses the memory. Elsewhere (not glibc) this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

_M_TRIM_THRESHOLD = -1
_M_MMAP_MAX = -4
#: Free heap memory kept for reuse instead of returned to the system.
KEEP_BYTES = 256 * 1024 * 1024


def keep_large_blocks() -> bool:
    """Serve large blocks from the heap and keep freed memory for the next copy. True if applied."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_MMAP_MAX, 0)) and bool(mallopt(_M_TRIM_THRESHOLD, KEEP_BYTES))
