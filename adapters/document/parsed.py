"""A parsed document: the recovered value, JSON pointer → source ranges, and incremental re-parsing.

``reparse(previous, start, end, new_text)`` re-parses only the innermost container that encloses an
edit (for a tool file: usually one tool, or a part of it) and shares everything else with the previous
document: nodes after the edit are moved lazily, the value is patched along the edited path. The
result is the same as ``parse`` of the new text (tested property). ``parse(text, memory=...)`` remembers
the last few documents in the ``DocumentMemory`` it is given (the ``Analyzer``'s) and re-parses
incrementally when ``text`` is a small edit of one of them, so callers that only ever pass text (the
checks) get the speed-up too; without a memory it parses in full.

Values and nodes are shared between successive documents: treat them as read-only.
"""

from __future__ import annotations

import weakref
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from ..pointer import escape
from .parser import CLOSE, DuplicateKey, Node, Property, RawDuplicate, SyntaxIssue, parse_tree, parse_value_at
from .recent import DocumentMemory

Part = Literal["value", "key", "property"]


@dataclass(frozen=True, slots=True)
class Location:
    """Where an offset is: the innermost pointer, whether the cursor is on a key, and the node."""

    pointer: str
    is_key: bool
    node: Node | None


class ParsedDocument:
    """``text`` parsed: ``root``, ``errors`` (by position), ``duplicate_keys``, ``value``.

    ``changed_pointer`` / ``changed_elements`` tell what an incremental re-parse re-built: the pointer
    of the re-parsed container and the indices of the root's children that changed; both are None
    after a full parse (everything may have changed). After an incremental re-parse ``base()`` is the
    document it started from (while that is alive: a weak reference, so versions do not chain in
    memory), ``delta`` the change in length, and ``value_patched`` says whether ``value`` is the base's
    value with the re-parsed container replaced (every other object shared) rather than rebuilt."""

    base: Callable[[], ParsedDocument | None] | None = None
    delta = 0
    value_patched = False

    def __init__(self, text: str, *, jsonc: bool = False) -> None:
        self.text = text
        self.jsonc = jsonc
        self.root, errors, self._raw_dups = parse_tree(text, jsonc=jsonc)
        self.errors = _in_order(errors)
        self.changed_pointer: str | None = None
        self.changed_elements: tuple[int, ...] | None = None

    @classmethod
    def _assemble(cls, text: str, jsonc: bool, root: Node | None, errors: list[SyntaxIssue],
                  dups: list[RawDuplicate]) -> ParsedDocument:
        doc = cls.__new__(cls)
        doc.text, doc.jsonc, doc.root, doc.errors, doc._raw_dups = text, jsonc, root, _in_order(errors), dups
        doc.changed_pointer = None
        doc.changed_elements = None
        return doc

    @cached_property
    def value(self) -> Any:
        """The recovered value: properties without a value are skipped; for a repeated key the last
        one wins, as with ``json.loads``."""
        return None if self.root is None else _to_value(self.root)

    @cached_property
    def duplicate_keys(self) -> list[DuplicateKey]:
        out = []
        for dup in self._raw_dups:
            loc = self.location(dup.span[0])
            out.append(DuplicateKey(loc.pointer, dup.span, dup.first))
        return out

    # -- pointers -------------------------------------------------------------------------------

    def _resolve(self, pointer: str) -> tuple[Node | None, Property | None] | None:
        node = self.root
        if node is None:
            return None
        if pointer == "":
            return node, None
        if not pointer.startswith("/"):
            return None
        prop: Property | None = None
        for part in pointer[1:].split("/"):
            if node is None:
                return None
            if node.kind == "object":
                key = part.replace("~1", "/").replace("~0", "~") if "~" in part else part
                prop = self._lookup(node, key)
                if prop is None:
                    return None
                node = prop.value
            elif node.kind == "array":
                if not part.isdigit() or (len(part) > 1 and part[0] == "0"):
                    return None
                items = node.items or []
                index = int(part)
                if index >= len(items):
                    return None
                node, prop = items[index], None
            else:
                return None
        return node, prop

    def _lookup(self, node: Node, key: str) -> Property | None:
        """The property ``key`` of an object: the last one with a value (the one ``value`` keeps),
        else the last one."""
        props = node.properties or []
        if len(props) <= 8:
            found = None
            for p in props:
                if p.key == key and (p.value is not None or found is None or found.value is None):
                    found = p
            return found
        keymap = node._keys
        if keymap is None:
            keymap = {}
            for p in props:
                old = keymap.get(p.key)
                if p.value is not None or old is None or old.value is None:
                    keymap[p.key] = p
            node._keys = keymap
        return keymap.get(key)

    def release(self, pointer: str) -> None:
        """Let go of the nodes built below the children of the node at ``pointer`` (``Node.release``);
        they are built again from the text when asked for."""
        node = self.node_at(pointer)
        if node is not None:
            node.release()

    def node_at(self, pointer: str) -> Node | None:
        entry = self._resolve(pointer)
        return entry[0] if entry else None

    def span(self, pointer: str, part: Part = "value") -> tuple[int, int] | None:
        """The range of the value, the key, or the whole ``"key": value`` at ``pointer``; None when
        there is no such place. The root and array elements have no key: ``key`` gives None (callers
        write ``span(p, "key") or span(p, "value")``; the checks rely on the None to place a finding
        on the ``{``), ``property`` their value's range. A property whose value is missing gives its
        key's range for ``value``."""
        entry = self._resolve(pointer)
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
        """The innermost node containing ``offset`` (for hover and completion): on a key
        (``is_key``), on a value, or in a container between its members (the container's node)."""
        node = self.root
        pointer = ""
        if node is None or not (node.start <= offset <= node.end):
            return Location("", False, None)
        while True:
            if node.kind == "object":
                props = node.properties or []
                i = bisect_right(props, offset, key=_key_start) - 1
                for prop in props[max(i - 1, 0) : i + 1]:
                    if prop.key_start <= offset <= prop.key_end:
                        return Location(pointer + "/" + escape(prop.key), True, prop.value)
                    v = prop.value
                    if v is not None and v.start <= offset <= v.end:
                        pointer = pointer + "/" + escape(prop.key)
                        node = v
                        break
                else:
                    return Location(pointer, False, node)
            elif node.kind == "array":
                items = node.items or []
                i = bisect_right(items, offset, key=_node_start) - 1
                for j in range(max(i - 1, 0), i + 1):
                    item = items[j]
                    if item.start <= offset <= item.end:
                        pointer = f"{pointer}/{j}"
                        node = item
                        break
                else:
                    return Location(pointer, False, node)
            else:
                return Location(pointer, False, node)


def _key_start(p: Property) -> int:
    return p.key_start


def _node_start(n: Node) -> int:
    return n.start


# -- values ------------------------------------------------------------------------------------


def _value_of_lazy(node: Node) -> tuple[bool, Any]:
    """(known, value) for a node whose value is already decoded (a C-scanned container, or a moved copy
    of a node)."""
    while True:
        if node._py is not None:
            return True, node._py
        src = node._src
        if isinstance(src, tuple):
            node = src[0]
            continue
        return False, None


def _to_value(root: Node) -> Any:
    """Iterative conversion to Python values (deep documents must not exhaust the stack)."""
    if root.kind not in CLOSE:
        return root.value
    result: Any = {} if root.kind == "object" else []
    stack: list[tuple[Node, Any]] = [(root, result)]
    while stack:
        node, target = stack.pop()
        known, value = _value_of_lazy(node)
        if known:
            if isinstance(target, dict):
                target.update(value)
            else:
                target.extend(value)
            continue
        if node.kind == "object":
            for prop in node.properties or []:
                if prop.value is None:
                    continue
                target[prop.key] = _child(prop.value, stack)
        else:
            for item in node.items or []:
                target.append(_child(item, stack))
    return result


def _child(node: Node, stack: list[tuple[Node, Any]]) -> Any:
    if node.kind not in CLOSE:
        return node.value
    known, value = _value_of_lazy(node)
    if known:
        return value
    out: Any = {} if node.kind == "object" else []
    stack.append((node, out))
    return out


def _node_value(node: Node) -> Any:
    known, value = _value_of_lazy(node)
    return value if known else _to_value(node)


# -- incremental re-parsing ----------------------------------------------------------------------


def reparse(previous: ParsedDocument, start: int, end: int, new_text: str, *,
            text: str | None = None) -> ParsedDocument:
    """The document after replacing ``previous.text[start:end]`` with ``new_text`` (``text`` may
    pass the new full text when the caller already has it). Re-parses only the innermost container
    that strictly encloses the edit and is well-formed at the same boundary afterwards; falls back to
    a full parse otherwise. The result equals ``parse`` of the new text."""
    old = previous.text
    start = max(0, min(start, len(old)))
    end = max(start, min(end, len(old)))
    if text is None:
        text = old[:start] + new_text + old[end:]
    delta = len(text) - len(old)
    result = _incremental(previous, start, end, text, delta)
    if result is None:
        return ParsedDocument(text, jsonc=previous.jsonc)
    return result


def _closed(node: Node, text: str) -> bool:
    return node.kind in CLOSE and node.end - node.start >= 2 and text[node.end - 1] == CLOSE[node.kind]


def _incremental(prev: ParsedDocument, start: int, end: int, text: str, delta: int) -> ParsedDocument | None:
    root = prev.root
    old = prev.text
    if root is None or not (root.start < start and end < root.end and _closed(root, old)):
        return None
    # An unclosed root runs to the end of the text, where its last character may be a `}` or `]`
    # that closed one of its members; then no member is sure to be closed either (a member closed in
    # fact ends before the root's own closing character, so a closed root vouches for all of them).
    errors = prev.errors
    k = bisect_left(errors, root.start, key=_error_start)
    while k < len(errors) and errors[k].start == root.start:
        if errors[k].code in _UNCLOSED:
            return None
        k += 1
    if any(e.code == "NestingTooDeep" for e in prev.errors):
        return None  # reported once per document: its place depends on the whole text
    # Descend to the innermost container strictly enclosing the edit, remembering the way.
    path: list[tuple[Node, int]] = []
    pointers = [""]
    node = root
    while True:
        child: Node | None = None
        if node.kind == "object":
            props = node.properties or []
            i = bisect_right(props, start, key=_key_start) - 1
            if i >= 0:
                v = props[i].value
                if v is not None and v.start < start and end < v.end and _closed(v, old):
                    child = v
                    label = "/" + escape(props[i].key)
        else:
            items = node.items or []
            i = bisect_right(items, start, key=_node_start) - 1
            if i >= 0:
                v = items[i]
                if v.start < start and end < v.end and _closed(v, old):
                    child = v
                    label = f"/{i}"
        if child is None:
            break
        path.append((node, i))
        pointers.append(pointers[-1] + label)
        node = child
    # Innermost first; the root itself is a full parse, which the caller does.
    for depth in range(len(path), 0, -1):
        parent, index = path[depth - 1]
        cand = parent.properties[index].value if parent.kind == "object" else parent.items[index]  # type: ignore[index]
        assert cand is not None
        new_node, pos, errors, dups, deep = parse_value_at(text, cand.start, depth, prev.jsonc)
        new_end = cand.end + delta
        if (new_node is None or deep or new_node.kind != cand.kind or pos != new_end
                or new_node.end != new_end or text[new_end - 1] != CLOSE[cand.kind]):
            continue
        return _splice(prev, text, delta, path[:depth], cand, new_node, errors, dups, pointers[depth])
    return None


def _error_start(e: SyntaxIssue) -> int:
    return e.start


def _shift_span(span: tuple[int, int], at: int, delta: int) -> tuple[int, int]:
    a, b = span
    return (a + delta if a >= at else a, b + delta if b >= at else b)


def _splice(prev: ParsedDocument, text: str, delta: int, path: list[tuple[Node, int]], cand: Node,
            new_node: Node, errors: list[SyntaxIssue], dups: list[RawDuplicate], pointer: str) -> ParsedDocument:
    # Path copy: new ancestors, members before the edit shared, members after it moved.
    child = new_node
    for parent, index in reversed(path):
        copy = Node(parent.kind, parent.start, parent.end + delta)
        if parent.kind == "object":
            props = parent.properties or []
            p = props[index]
            copy._props = [*props[:index], Property(p.key, p.key_start, p.key_end, p.colon, child),
                           *(q.shifted(delta) for q in props[index + 1 :])]
        else:
            items = parent.items or []
            copy._items = [*items[:index], child, *(n.shifted(delta) for n in items[index + 1 :])]
        child = copy
    root = child
    a, b = cand.start, cand.end
    # The container and all its ancestors are closed, so the errors found before it all start at or
    # before it, and those found after it all start after it: splitting by place keeps the order.
    new_errors = [e if e.end < b else SyntaxIssue(e.code, e.message, e.start, e.end + delta)
                  for e in prev.errors if e.start <= a]
    new_errors.extend(errors)
    new_errors.extend(SyntaxIssue(e.code, e.message, e.start + delta, e.end + delta)
                      for e in prev.errors if e.start >= b)
    moved = [RawDuplicate(d.key, _shift_span(d.span, b, delta), _shift_span(d.first, b, delta))
             for d in prev._raw_dups if d.span[0] >= b]
    new_dups = [d for d in prev._raw_dups if d.span[0] <= a] + dups + moved
    doc = ParsedDocument._assemble(text, prev.jsonc, root, new_errors, new_dups)
    doc.changed_pointer = pointer
    doc.changed_elements = (path[0][1],)
    doc.base, doc.delta = weakref.ref(prev), delta
    if "value" in prev.__dict__:
        value = _patched_value(prev.value, path, new_node)
        if value is not _UNKNOWN:
            doc.__dict__["value"] = value
            doc.value_patched = True
    return doc


def _patched_value(old: Any, path: list[tuple[Node, int]], new_node: Node) -> Any:
    """The previous value with the re-parsed container replaced (containers on the path copied)."""
    slots: list[tuple[Any, Any]] = []  # (old container, key or index) from the root down
    cur = old
    for parent, index in path:
        if parent.kind == "object":
            props = parent.properties or []
            key = props[index].key
            if any(q.key == key and q.value is not None for q in props[index + 1 :]):
                return old  # a later duplicate wins: the edited member is not part of the value
            if not isinstance(cur, dict) or key not in cur:
                return _UNKNOWN
            slots.append((cur, key))
            cur = cur[key]
        else:
            if not isinstance(cur, list) or index >= len(cur):
                return _UNKNOWN
            slots.append((cur, index))
            cur = cur[index]
    value = _node_value(new_node)
    for container, key in reversed(slots):
        copy: Any = dict(container) if isinstance(container, dict) else list(container)
        copy[key] = value
        value = copy
    return value


_UNKNOWN = object()
_UNCLOSED = frozenset({"CloseBraceExpected", "CloseBracketExpected"})


# -- parse with memory -----------------------------------------------------------------------------

#: Texts shorter than this are always parsed in full (it is faster than finding the edit).
INCREMENTAL_MIN = 1 << 15


def parse(text: str, *, jsonc: bool = False, previous: ParsedDocument | None = None,
          memory: DocumentMemory[ParsedDocument] | None = None) -> ParsedDocument:
    """Parse ``text`` (JSON, or JSONC with ``jsonc=True``: comments and trailing commas allowed).

    With a ``memory``, the same text again returns the same document, a small edit of a remembered
    document is re-parsed incrementally, and the result is remembered. ``previous`` names the one
    document to compare with instead. With neither, a full parse."""
    candidates = [previous] if previous is not None else memory.recent() if memory is not None else []
    for doc in candidates:
        if doc.jsonc == jsonc and (doc.text is text or (len(doc.text) == len(text) and doc.text == text)):
            return doc
    result: ParsedDocument | None = None
    if len(text) >= INCREMENTAL_MIN:
        for doc in candidates:
            if doc.jsonc != jsonc or abs(len(doc.text) - len(text)) > len(text) // 4:
                continue
            edit = _diff(doc.text, text)
            if edit is None:
                continue
            start, old_end, new_end = edit
            if old_end - start > len(text) // 4 or new_end - start > len(text) // 4:
                continue
            result = reparse(doc, start, old_end, text[start:new_end], text=text)
            break
    if result is None:
        result = ParsedDocument(text, jsonc=jsonc)
    if memory is not None:
        memory.remember(result)
    return result


def remember(doc: ParsedDocument, memory: DocumentMemory[ParsedDocument] | None = None) -> None:
    """Make ``doc`` one of the documents ``parse(..., memory=memory)`` compares new texts with
    (without a memory there is nothing to remember it in)."""
    if memory is not None:
        memory.remember(doc)


def _diff(old: str, new: str) -> tuple[int, int, int] | None:
    """(start, old end, new end) of the one region where ``old`` and ``new`` differ."""
    n = min(len(old), len(new))
    prefix = _common_prefix(old, new, n)
    suffix = _common_suffix(old, new, n - prefix)
    return prefix, len(old) - suffix, len(new) - suffix


def _common_prefix(a: str, b: str, limit: int) -> int:
    lo, step = 0, 1 << 14
    while lo < limit:
        hi = min(limit, lo + step)
        if a[lo:hi] == b[lo:hi]:
            lo = hi
            continue
        while hi - lo > 32:  # halve the differing chunk
            mid = (lo + hi) // 2
            if a[lo:mid] == b[lo:mid]:
                lo = mid
            else:
                hi = mid
        while lo < hi and a[lo] == b[lo]:
            lo += 1
        return lo
    return limit


def _common_suffix(a: str, b: str, limit: int) -> int:
    la, lb = len(a), len(b)
    done, step = 0, 1 << 14
    while done < limit:
        size = min(step, limit - done)
        if a[la - done - size : la - done] == b[lb - done - size : lb - done]:
            done += size
            continue
        while size > 32:
            half = size // 2
            if a[la - done - half : la - done] == b[lb - done - half : lb - done]:
                done += half
                size -= half
            else:
                size = half
        while done < limit and a[la - done - 1] == b[lb - done - 1]:
            done += 1
        return done
    return limit


__all__ = ["DocumentMemory", "DuplicateKey", "Location", "Node", "ParsedDocument", "Property", "SyntaxIssue",
           "parse", "remember", "reparse"]


def _in_order(errors: list[SyntaxIssue]) -> list[SyntaxIssue]:
    """Errors by position: an unclosed container is found at the end of the text but starts at its
    opening bracket, so "order found" would differ between a full parse and an incremental one."""
    return sorted(errors, key=lambda e: (e.start, e.end, e.code, e.message))
