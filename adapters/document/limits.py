"""The limits of a document, in one light module: its size and nesting (the parser, the readers and
TC003's reference text take them from here), and the range of its numbers (TC005)."""

from __future__ import annotations

import math
from typing import Any

from .. import pointer as jp

#: Larger documents are not parsed (TC003); editors and CI get a finding instead of a stall.
MAX_TEXT = 32_000_000
#: Bytes read from one file at most; a larger file is refused before it is decoded (TC003).
MAX_FILE_BYTES = MAX_TEXT
#: Containers nested deeper are reported once and skipped by the parser (TC003).
MAX_DEPTH = 200


#: An integer with more bits than this is beyond the largest double (about 1.8e308).
_DOUBLE_BITS = 1024


def out_of_range(value: Any) -> bool:
    """Whether a number is beyond a double: infinite or NaN (JSON's ``1e999``, or an integer too long for
    Python's ``json``), or an integer larger than the largest double."""
    if isinstance(value, float):
        return not math.isfinite(value)
    return isinstance(value, int) and not isinstance(value, bool) and abs(value).bit_length() > _DOUBLE_BITS


def numbers_out_of_range(value: Any, limit: int = 100) -> list[str]:
    """The JSON pointers of the numbers in ``value`` beyond a double (``out_of_range``), at most ``limit``,
    in document order; iterative (hostile nesting cannot overflow the stack)."""
    found: list[str] = []
    stack: list[tuple[str, Any]] = [("", value)]
    while stack and len(found) < limit:
        ptr, item = stack.pop()
        if isinstance(item, dict):
            stack.extend(reversed([(jp.join(ptr, str(k)), v) for k, v in item.items()]))
        elif isinstance(item, list):
            stack.extend(reversed([(jp.join(ptr, i), v) for i, v in enumerate(item)]))
        elif out_of_range(item):
            found.append(ptr)
    return found
