"""A parsed document: the recovered value and a JSON pointer → source range index."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from ..pointer import escape
from .parser import DuplicateKey, Node, Property, SyntaxIssue, parse_tree

Part = Literal["value", "key", "property"]


@dataclass(frozen=True, slots=True)
class Location:
    """Where an offset is: the innermost pointer, whether the cursor is on a key, and the node."""

    pointer: str
    is_key: bool
    node: Node | None


class ParsedDocument:
    def __init__(self, text: str, *, jsonc: bool = False) -> None:
        self.text = text
        self.root, self.errors, raw_dups = parse_tree(text, jsonc=jsonc)
        self._raw_dups = raw_dups

    @cached_property
    def value(self) -> Any:
        """The recovered value: properties without a value are skipped; for a repeated key the last
        one wins, as with ``json.loads``."""
        return None if self.root is None else _to_value(self.root)

    @cached_property
    def _index(self) -> dict[str, tuple[Node | None, Property | None]]:
        index: dict[str, tuple[Node | None, Property | None]] = {}
        if self.root is None:
            return index
        stack: list[tuple[str, Node]] = [("", self.root)]
        index[""] = (self.root, None)
        while stack:
            ptr, node = stack.pop()
            if node.properties is not None:
                for prop in node.properties:
                    child = ptr + "/" + escape(prop.key)
                    # Last occurrence wins, matching `value`.
                    if prop.value is not None or child not in index:
                        index[child] = (prop.value, prop)
                    if prop.value is not None and (prop.value.properties is not None or prop.value.items):
                        stack.append((child, prop.value))
            elif node.items:
                for i, item in enumerate(node.items):
                    child = f"{ptr}/{i}"
                    index[child] = (item, None)
                    if item.properties is not None or item.items:
                        stack.append((child, item))
        return index

    @cached_property
    def _pointers(self) -> dict[int, str]:
        return {id(node): ptr for ptr, (node, _) in self._index.items() if node is not None}

    @property
    def duplicate_keys(self) -> list[DuplicateKey]:
        out = []
        for parent, first, dup in self._raw_dups:
            base = self.pointer_of(parent)
            if base is None:
                continue
            out.append(DuplicateKey(base + "/" + escape(dup.key), (dup.key_start, dup.key_end),
                                    (first.key_start, first.key_end)))
        return out

    def node_at(self, pointer: str) -> Node | None:
        entry = self._index.get(pointer)
        return entry[0] if entry else None

    def property_at(self, pointer: str) -> Property | None:
        entry = self._index.get(pointer)
        return entry[1] if entry else None

    def pointer_of(self, node: Node) -> str | None:
        return self._pointers.get(id(node))

    def span(self, pointer: str, part: Part = "value") -> tuple[int, int] | None:
        """The range of the value, the key, or the whole ``"key": value`` at ``pointer``. There is no
        key span for the root and array elements (None); a value span falls back to the key for a
        property whose value is missing."""
        entry = self._index.get(pointer)
        if entry is None:
            return None
        node, prop = entry
        if part == "key":
            return (prop.key_start, prop.key_end) if prop is not None else None
        if part == "property" and prop is not None:
            return (prop.start, prop.end)
        if node is not None:
            return (node.start, node.end)
        if prop is not None:
            return (prop.key_start, prop.key_end)
        return None

    def location(self, offset: int) -> Location:
        """The innermost node containing ``offset`` (for hover and completion)."""
        node = self.root
        pointer = ""
        if node is None or not (node.start <= offset <= node.end):
            return Location("", False, None)
        while True:
            if node.properties is not None:
                for prop in node.properties:
                    if prop.key_start <= offset <= prop.key_end:
                        return Location(pointer + "/" + escape(prop.key), True, prop.value)
                    v = prop.value
                    if v is not None and v.start <= offset <= v.end:
                        pointer = pointer + "/" + escape(prop.key)
                        node = v
                        break
                else:
                    return Location(pointer, False, node)
            elif node.items:
                for i, item in enumerate(node.items):
                    if item.start <= offset <= item.end:
                        pointer = f"{pointer}/{i}"
                        node = item
                        break
                else:
                    return Location(pointer, False, node)
            else:
                return Location(pointer, False, node)


def parse(text: str, *, jsonc: bool = False) -> ParsedDocument:
    return ParsedDocument(text, jsonc=jsonc)


def _to_value(root: Node) -> Any:
    """Iterative conversion to Python values (deep documents must not exhaust the stack)."""
    if root.properties is None and root.items is None:
        return root.value
    result: Any = {} if root.properties is not None else []
    stack: list[tuple[Node, Any]] = [(root, result)]
    while stack:
        node, target = stack.pop()
        if node.properties is not None:
            for prop in node.properties:
                if prop.value is None:
                    continue
                target[prop.key] = _child(prop.value, stack)
        elif node.items is not None:
            for item in node.items:
                target.append(_child(item, stack))
    return result


def _child(node: Node, stack: list[tuple[Node, Any]]) -> Any:
    if node.properties is not None:
        out: Any = {}
    elif node.items is not None:
        out = []
    else:
        return node.value
    stack.append((node, out))
    return out


__all__ = ["DuplicateKey", "Location", "Node", "ParsedDocument", "Property", "SyntaxIssue", "parse"]
