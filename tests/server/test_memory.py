"""The server's allocator settings, on the real C library: freed memory is kept for the next copy of a
large text, and given back at the moments the server chooses (a large document's opening and the end of
its first check)."""

from __future__ import annotations

import subprocess
import sys

import pytest

CHILD = """
import gc
from toolcast.server.lsp.allocator import keep_large_blocks, release_free_memory

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024

assert keep_large_blocks()
base = rss()
blocks = [bytearray(1 << 20) for _ in range(150)]  # 150 MB, touched: in the heap, not mapped apart
held = rss()
del blocks
gc.collect()
kept = rss()
assert release_free_memory()
print(base, held, kept, rss())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_freed_memory_is_kept_for_reuse_until_released() -> None:
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True).stdout
    base, held, kept, released = map(int, out.split())
    assert held - base >= 140  # the blocks are resident
    assert kept - base >= 140  # freed, but kept by the heap for the next large copy
    assert released - base <= 20  # given back
