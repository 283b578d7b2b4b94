"""JSON values: an iterative deep copy (``copy.deepcopy`` recurses, and tool schemas can be hostile)."""

from __future__ import annotations

from typing import Any


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
