"""A message body read as JSON, without the four-bytes-a-character copies of a large one.

``json.loads`` decodes a body to one string before it reads it. One character outside Latin-1 anywhere
in a ``didOpen`` of a 14 MB file (an emoji in a description) makes that string four bytes a character,
57 MB, and the document's text another 57 MB beside it: about 140 MB at the peak of reading one
message, before toolcast has done anything. Written with JSON escapes instead (``\\ud83d\\ude00``),
the body decodes to a string of one byte a character; only the document's text itself is wide. The
value is the same: a character and its escape are one value inside a JSON string, and outside one
neither is valid JSON."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

#: Bodies from this size on are read through escapes (small ones are not worth the extra pass).
ESCAPE_FROM = 1 << 20
_NON_ASCII = re.compile(rb"[\x80-\xff]+")


def _escaped(run: re.Match[bytes]) -> bytes:
    return json.dumps(run.group().decode("utf-8"))[1:-1].encode("ascii")


def loads_body(body: bytes, object_hook: Callable[[dict[str, Any]], Any] | None = None,
               escape_from: int = ESCAPE_FROM) -> Any:
    """``json.loads(body, object_hook=...)``, reading a large body that holds non-ASCII UTF-8 through
    JSON escapes. Raises what ``json.loads`` raises for a body that is not JSON (the body is then read
    as it is, so the error is its own)."""
    if len(body) >= escape_from and body[:1] == b"{":
        try:
            return json.loads(_NON_ASCII.sub(_escaped, body), object_hook=object_hook)
        except ValueError:  # not UTF-8, or not JSON: read as it is below, for its own error
            pass
    return json.loads(body, object_hook=object_hook)
