"""Walk every subschema of a JSON Schema (2020-12 plus draft-07 spellings), with budgets so a hostile
schema cannot make a check hang: the walk stops and says so (TC003) instead."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .. import pointer as jp
from ..schema_keywords import DRAFT7_ONE_SCHEMA, ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP

MAX_DEPTH = 256
MAX_NODES = 100_000

#: `items` is descended by its form (a subschema, or draft-07's list of them), the other families as they are.
_SCHEMA_ONE = (*(k for k in ONE_SCHEMA if k != "items"), *DRAFT7_ONE_SCHEMA)


class BudgetExceeded(Exception):
    def __init__(self, pointer: str, what: str) -> None:
        super().__init__(what)
        self.pointer = pointer
        self.what = what


def subschemas(schema: Any, base: str = "") -> Iterator[tuple[str, dict[str, Any], int]]:
    """(pointer, subschema, object depth) for every object subschema, depth-first, ``schema`` first.
    Depth counts nested ``properties`` levels (OpenAI's nesting rule). Raises ``BudgetExceeded``."""
    stack: list[tuple[str, Any, int, int]] = [(base, schema, 1, 0)]
    seen = 0
    while stack:
        ptr, node, depth, level = stack.pop()
        if not isinstance(node, dict):
            continue
        seen += 1
        if seen > MAX_NODES:
            raise BudgetExceeded(ptr, f"more than {MAX_NODES:,} schema nodes")
        if level > MAX_DEPTH:
            raise BudgetExceeded(ptr, f"more than {MAX_DEPTH} levels of nesting")
        yield ptr, node, depth
        children: list[tuple[str, Any, int, int]] = []
        for key in SCHEMA_MAP:
            m = node.get(key)
            if isinstance(m, dict):
                d = depth + 1 if key == "properties" else depth
                for name, sub in m.items():
                    children.append((jp.join(ptr, key, name), sub, d, level + 1))
        for key in _SCHEMA_ONE:
            if key in node:
                children.append((jp.join(ptr, key), node[key], depth, level + 1))
        items = node.get("items")
        if isinstance(items, list):
            children.extend((jp.join(ptr, "items", i), s, depth, level + 1) for i, s in enumerate(items))
        elif items is not None:
            children.append((jp.join(ptr, "items"), items, depth, level + 1))
        for key in SCHEMA_LIST:
            lst = node.get(key)
            if isinstance(lst, list):
                children.extend((jp.join(ptr, key, i), s, depth, level + 1) for i, s in enumerate(lst))
        stack.extend(reversed(children))


def types_of(schema: dict[str, Any]) -> set[str]:
    t = schema.get("type")
    if isinstance(t, str):
        return {t.lower()}
    if isinstance(t, list):
        return {x.lower() for x in t if isinstance(x, str)}
    return set()
