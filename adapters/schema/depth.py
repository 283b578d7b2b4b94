"""How deep a JSON value nests: jsonschema recurses once per level, so toolcast validates (checks) and
accepts (convert) schemas only up to a depth, and says so past it."""

from __future__ import annotations

from typing import Any

#: Deeper schemas are not validated by jsonschema (it recurses per level); TC003 says so.
MAX_VALIDATION_DEPTH = 100


def json_depth(value: Any, limit: int) -> int:
    """Nesting depth of ``value``, counted iteratively and stopping at ``limit + 1``."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, d = stack.pop()
        if d > deepest:
            deepest = d
            if deepest > limit:
                return deepest
        if isinstance(node, dict):
            stack.extend((v, d + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, d + 1) for v in node)
    return deepest
