"""JSON values: an iterative deep copy (``copy.deepcopy`` recurses, and tool schemas can be hostile), and
JSON text that is always valid UTF-8."""

from __future__ import annotations

import re
from typing import Any

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def escape_lone_surrogates(text: str) -> str:
    """JSON text with each lone surrogate (legal JSON as a ``\\ud800`` escape, one code point UTF-8 cannot
    encode) written back as its ``\\uXXXX`` escape: the same value, and valid UTF-8. JSON only puts them
    inside strings, so the escape is always in a string. Text without one is returned as it is."""
    return _LONE_SURROGATE.sub(_escape, text)


def copy_json(value: Any) -> Any:
    """A deep copy of dicts and lists (other values are shared: JSON scalars are immutable)."""
    if not isinstance(value, (dict, list)):
        return value
    root: Any = {} if isinstance(value, dict) else []
    stack: list[tuple[Any, Any]] = [(value, root)]
    while stack:
        src, dst = stack.pop()
        items = src.items() if isinstance(src, dict) else enumerate(src)
        for key, item in items:
            if isinstance(item, (dict, list)):
                new: Any = {} if isinstance(item, dict) else []
                stack.append((item, new))
            else:
                new = item
            if isinstance(dst, dict):
                dst[key] = new
            else:
                dst.append(new)
    return root

