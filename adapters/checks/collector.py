"""The cycle collector, paused while a document is checked."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic cycle collection while a document is checked. A check allocates hundreds of thousands of
    objects that mostly live on (findings, records), and each of the collector's full passes walks every
    object of the process, the parsed document included: a third of a 5,000-tool file's first check went
    to passes that found no garbage (BENCHMARKS.md). Reference counting frees as usual; a cycle made
    meanwhile waits for the next pass after the check. The collector's state is restored as it was."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
