"""Everything a caller can observe of a parsed document, as plain data (to compare two documents)."""

from __future__ import annotations

from typing import Any

from toolcast.adapters.document import Node, ParsedDocument


def tree(node: Node | None) -> Any:
    """The whole tree with every offset, built without recursion."""
    if node is None:
        return None
    out: list[Any] = []
    stack: list[tuple[Node | None, list[Any]]] = [(node, out)]
    while stack:
        n, target = stack.pop()
        if n is None:
            target.append(None)
            continue
        if n.kind == "object":
            members: list[Any] = []
            target.append(("object", n.start, n.end, members))
            for p in n.properties or []:
                slot: list[Any] = []
                members.append((p.key, p.key_start, p.key_end, p.colon, slot))
                stack.append((p.value, slot))
        elif n.kind == "array":
            items: list[Any] = []
            target.append(("array", n.start, n.end, items))
            for item in n.items or []:
                slot = []
                items.append(slot)
                stack.append((item, slot))
        else:
            target.append((n.kind, n.start, n.end, repr(n.value)))
    return out


def snapshot(doc: ParsedDocument) -> Any:
    return (
        tree(doc.root),
        [(e.code, e.message, e.start, e.end) for e in doc.errors],
        [(d.pointer, d.span, d.first) for d in doc.duplicate_keys],
        repr(doc.value),
    )
