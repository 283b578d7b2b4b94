"""A tolerant JSON/JSONC parser that keeps structure while the user types.

Designed after jsonc-parser's recovery (skip to the next `,` `}` `]` and go on): an unterminated
string, a missing colon, value or comma, a half-typed key or a trailing comma costs one syntax error
and nothing else, so the checks keep seeing the rest of the file. Offsets are code points (Python
string indices).

Speed: containers below the top two levels are first handed to CPython's C JSON scanner (the one
``json.loads`` uses). When it accepts the container (strict JSON, no duplicate keys, not too deep),
the node keeps the decoded value and builds its children only when someone asks for them
(``properties`` / ``items``), by re-scanning just that container. Anything the C scanner refuses
(comments, errors, duplicates) goes through the recovering parser below, whose result for valid
input is the same; so both paths are one parser as far as callers can tell.

Depth: nesting deeper than ``MAX_DEPTH`` is reported once (``NestingTooDeep``) and skipped by
bracket counting, so hostile input can never exhaust the Python stack.
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .limits import MAX_DEPTH

#: Containers at depths below this are always built eagerly (they are the file's skeleton: the root
#: and, in a tool list, the tools); deeper ones try the C scanner and are built lazily.
EAGER_DEPTH = 2
#: A lazily built container larger than this is built eagerly instead: re-scanning it on every
#: access would cost more than building it once.
_LAZY_MAX = 1 << 18

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_LOOSE_WORD = re.compile(r"[A-Za-z0-9_.+\-]+")
_BARE_KEY = re.compile(r'([A-Za-z_$][A-Za-z0-9_$\-]*)("?)(?=[ \t]*:)')
_VALUE_START = re.compile(r'["{\[0-9-]|(?:true|false|null)\b')
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_JSON_WS = re.compile(r"[ \t\n\r]*")
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_WS = " \t\n\r"
#: A container node's kind → the character that closes it.
CLOSE = {"object": "}", "array": "]"}


class _Refused(Exception):
    """The C scanner's input is not something the fast path may take (duplicate key, NaN...)."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        raise _Refused  # duplicate keys must be reported: take the recovering path
    return d


def _constant(name: str) -> Any:
    raise _Refused  # NaN / Infinity are not JSON


# The C scanner behind json.loads (the stubs do not describe these two, hence getattr).
_scan: Callable[[str, int], tuple[Any, int]] = getattr(json.scanner, "make_scanner")(  # noqa: B009
    json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant))
scanstring: Callable[[str, int], tuple[str, int]] = getattr(json.decoder, "scanstring")  # noqa: B009


class _Scan:
    """Where a C-scanned container's children are read from: ``text`` holds the document's characters
    from offset ``base`` on. The first parse reads the whole text (base 0); a container parsed again
    after an edit reads its own slice, and a moved container the text it was read from with its base
    moved; so no node keeps a later version of a large text alive (each would be the whole file)."""

    __slots__ = ("base", "text")

    def __init__(self, text: str, base: int) -> None:
        self.text = text
        self.base = base


class Node:
    """A value. ``value`` is set for scalars; ``properties`` for objects, ``items`` for arrays.

    A node's offsets and value never change. Its children are built on first access, and ``release``
    may let them go again (they are then built anew, equal, on the next access)."""

    __slots__ = ("_from", "_items", "_keys", "_props", "_py", "_src", "end", "kind", "start", "value")

    def __init__(self, kind: str, start: int, end: int, value: Any = None,
                 properties: list[Property] | None = None, items: list[Node] | None = None) -> None:
        self.kind = kind  # object | array | string | number | boolean | null
        self.start = start
        self.end = end
        self.value = value
        self._props = properties
        self._items = items
        # Lazy children: ``_src`` is a ``_Scan`` (a C-scanned container) or (original node, delta) for
        # a container moved by an edit; ``_py`` is a scanned container's value.
        self._src: Any = None
        self._py: Any = None
        # A large object's properties by key (``ParsedDocument``'s look-ups), made on first use.
        self._keys: dict[str, Property] | None = None
        # The ``_Scan`` a C-scanned container's children were built from: ``release`` makes it lazy
        # again on it, and a move reads its text at the moved place.
        self._from: _Scan | None = None

    @property
    def properties(self) -> list[Property] | None:
        if self._src is not None:
            self._build()
        return self._props

    @property
    def items(self) -> list[Node] | None:
        if self._src is not None:
            self._build()
        return self._items

    @property
    def is_lazy(self) -> bool:
        return self._src is not None

    def _build(self) -> None:
        src = self._src
        if isinstance(src, _Scan):
            _build_scanned(self, src)
            self._from = src
        else:
            orig, delta = src
            if orig.kind == "object":
                self._props = [p.shifted(delta) for p in orig.properties]
            else:
                self._items = [n.shifted(delta) for n in orig.items]
        self._src = None

    def release(self) -> None:
        """Let go of what was built below this node's children where it can be built again: every
        C-scanned container among them goes back to lazy, on the text it was built from. A check that
        placed a tool's findings keeps the tool's skeleton, not a node per value (5,000 tools: some
        60 MB). The children themselves stay, so the tool's own fields are found without scanning it
        again."""
        stack = [self]
        while stack:
            node = stack.pop()
            if node._src is not None:
                continue  # lazy: nothing built below it
            below = [p.value for p in node._props or () if p.value is not None] if node.kind == "object" \
                else list(node._items or ())
            stack.extend(c for c in below if c.kind in CLOSE)
            if node is not self and node._from is not None:
                node._props = node._items = node._keys = None
                node._src, node._from = node._from, None

    def shifted(self, delta: int) -> Node:
        """This node moved by ``delta`` code points in a new version of the document (its children are
        moved lazily, on access)."""
        if delta == 0:
            return self
        node = Node(self.kind, self.start + delta, self.end + delta, self.value)
        if self.kind in CLOSE:
            src = self._src
            if self._py is not None:
                # A scanned container: scanned again when asked, in the text it was read from.
                scan = src if isinstance(src, _Scan) else self._from
                assert scan is not None  # a scanned container is lazy or was built from a _Scan
                node._py = self._py
                node._src = _Scan(scan.text, scan.base + delta)
            elif isinstance(src, tuple):
                node._src = (src[0], src[1] + delta)  # moved twice: keep one link to the original
            else:
                node._src = (self, delta)
        return node

    def __repr__(self) -> str:
        return f"Node({self.kind}, {self.start}, {self.end})"


class Property:
    __slots__ = ("colon", "key", "key_end", "key_start", "value")

    def __init__(self, key: str, key_start: int, key_end: int, colon: int | None, value: Node | None) -> None:
        self.key = key
        self.key_start = key_start
        self.key_end = key_end
        self.colon = colon
        self.value = value

    @property
    def start(self) -> int:
        return self.key_start

    @property
    def end(self) -> int:
        if self.value is not None:
            return self.value.end
        return self.colon + 1 if self.colon is not None else self.key_end

    def shifted(self, delta: int) -> Property:
        return Property(self.key, self.key_start + delta, self.key_end + delta,
                        None if self.colon is None else self.colon + delta,
                        None if self.value is None else self.value.shifted(delta))

    def __repr__(self) -> str:
        return f"Property({self.key!r}, {self.key_start}, {self.end})"


@dataclass(frozen=True, slots=True)
class SyntaxIssue:
    code: str
    message: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class DuplicateKey:
    """A key repeated in one object: ``span`` is the later occurrence's key, ``first`` the earlier
    one's (the later value wins, as with ``json.loads``)."""

    pointer: str
    span: tuple[int, int]
    first: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RawDuplicate:
    """A duplicate as the parser sees it (no pointer yet: that is computed on demand)."""

    key: str
    span: tuple[int, int]
    first: tuple[int, int]


@dataclass(slots=True)
class _State:
    text: str
    jsonc: bool
    pos: int = 0
    errors: list[SyntaxIssue] = field(default_factory=list)
    duplicates: list[RawDuplicate] = field(default_factory=list)
    deep_reported: bool = False
    scan: _Scan | None = None  # what this parse's scanned containers read their children from


def parse_tree(text: str, *, jsonc: bool = False) -> tuple[Node | None, list[SyntaxIssue], list[RawDuplicate]]:
    """Parse a whole document: (root or None, syntax errors, duplicate keys), both in the order found."""
    st = _State(text, jsonc)
    if text.startswith("\ufeff"):
        st.pos = 1  # a byte-order mark is not content (reported by nobody: editors hide it)
    _skip(st)
    root: Node | None = None
    if st.pos >= len(text):
        st.errors.append(SyntaxIssue("ValueExpected", "empty document: expected a JSON value", 0, 0))
    else:
        root = _value(st, 0)
        _skip(st)
        if root is not None and st.pos < len(text):
            _error(st, "EndOfFileExpected", "unexpected text after the end of the JSON value", st.pos, len(text))
    return root, st.errors, st.duplicates


def parse_value_at(text: str, pos: int, depth: int, jsonc: bool
                   ) -> tuple[Node | None, int, list[SyntaxIssue], list[RawDuplicate], bool]:
    """Parse one value starting at ``pos`` as the whole-document parse would at ``depth``:
    (node, end position, its errors, its duplicates, whether nesting was too deep)."""
    st = _State(text, jsonc, pos)
    node = _value(st, depth)
    if st.scan is not None:
        # Every container scanned here lies inside [pos, st.pos): they read that slice, not the text.
        st.scan.text, st.scan.base = text[pos : st.pos], pos
    return node, st.pos, st.errors, st.duplicates, st.deep_reported


def _error(st: _State, code: str, message: str, start: int, end: int | None = None) -> None:
    end = start if end is None else end
    if st.errors and st.errors[-1].start == start and st.errors[-1].code == code:
        return
    st.errors.append(SyntaxIssue(code, message, start, end))


def _skip(st: _State) -> None:
    """Skip white space and comments (comments are an error outside JSONC, but are still skipped)."""
    text, n = st.text, len(st.text)
    while st.pos < n:
        c = text[st.pos]
        if c in _WS:
            st.pos = _JSON_WS.match(text, st.pos).end()  # type: ignore[union-attr]
        elif c == "/" and st.pos + 1 < n and text[st.pos + 1] in "/*":
            start = st.pos
            if text[st.pos + 1] == "/":
                end = _first_newline(text, st.pos + 2, n)
                end = n if end < 0 else end
            else:
                close = text.find("*/", st.pos + 2)
                if close < 0:
                    _error(st, "UnexpectedEndOfComment", "unterminated /* comment", start, n)
                    end = n
                else:
                    end = close + 2
            if not st.jsonc:
                _error(st, "InvalidCommentToken", "comments are not allowed in JSON", start, end)
            st.pos = end
        elif c == "\ufeff":
            _error(st, "InvalidSymbol", "byte-order mark inside the document", st.pos, st.pos + 1)
            st.pos += 1
        else:
            return


def _value(st: _State, depth: int) -> Node | None:
    text = st.text
    if st.pos >= len(text):
        _error(st, "ValueExpected", "value expected", st.pos)
        return None
    c = text[st.pos]
    if c in "{[":
        if depth >= MAX_DEPTH:
            _skip_deep(st)
            return None
        if depth >= EAGER_DEPTH:
            node = _scanned(st, depth)
            if node is not None:
                return node
        return _object(st, depth) if c == "{" else _array(st, depth)
    if c == '"':
        start = st.pos
        value = _string(st)
        return Node("string", start, st.pos, value)
    m = _NUMBER.match(text, st.pos)
    if m and not (m.end() < len(text) and (text[m.end()].isalnum() or text[m.end()] in "_.+-")):
        st.pos = m.end()
        raw = m.group()
        number: int | float
        if "." in raw or "e" in raw or "E" in raw:
            number = float(raw)  # 1e999 is inf, as with json.loads
        else:
            # Python reads at most `sys.get_int_max_str_digits()` digits as an int (0: no limit); json.loads,
            # and so the scanned containers, stop there too. Past it both read the number as a float (inf).
            limit = sys.get_int_max_str_digits()
            number = int(raw) if not limit or len(raw) - raw.startswith("-") <= limit else float(raw)
        return Node("number", m.start(), m.end(), number)
    word = _LOOSE_WORD.match(text, st.pos)
    if word:
        st.pos = word.end()
        w = word.group()
        if w in ("true", "false"):
            return Node("boolean", word.start(), word.end(), w == "true")
        if w == "null":
            return Node("null", word.start(), word.end(), None)
        code = "InvalidNumberFormat" if w[0] in "-0123456789" else "InvalidSymbol"
        _error(st, code, f"invalid value `{w[:40]}`", word.start(), word.end())
        return None
    _error(st, "ValueExpected", "value expected", st.pos, st.pos + 1)
    return None


def _scanned(st: _State, depth: int) -> Node | None:
    """The container at ``st.pos`` as a lazy node, when the C scanner accepts it; else None."""
    text, pos = st.text, st.pos
    try:
        value, end = _scan(text, pos)
    except Exception:  # JSONDecodeError, StopIteration, RecursionError, _Refused: all mean "not here"
        return None
    if end - pos > _LAZY_MAX:
        return None
    brackets = text.count("{", pos, end) + text.count("[", pos, end)
    if depth + brackets > MAX_DEPTH and depth + _max_nesting(text[pos:end]) > MAX_DEPTH:
        return None
    node = Node("object" if text[pos] == "{" else "array", pos, end)
    node._py = value
    if st.scan is None:
        st.scan = _Scan(text, 0)
    node._src = st.scan
    st.pos = end
    return node


def _max_nesting(valid_json: str) -> int:
    """Nesting depth of a valid JSON text (strings removed first, so their brackets do not count)."""
    depth = best = 0
    for c in re.findall(r"[\[\]{}]", _STRINGS.sub("", valid_json)):
        if c in "[{":
            depth += 1
            best = max(best, depth)
        else:
            depth -= 1
    return best


def _build_scanned(node: Node, scan: _Scan) -> None:
    """Children of a C-scanned container (valid JSON, so this needs no recovery). Offsets in ``text``
    are the document's less ``base``."""
    ws = _JSON_WS.match
    text, base = scan.text, scan.base
    i = ws(text, node.start - base + 1).end()  # type: ignore[union-attr]
    # The container's value is already decoded: each child keeps its part of it rather than the copy the
    # scanner makes while finding the child's end (a document's values are held once, not once per level).
    whole = node._py
    if node.kind == "object":
        props: list[Property] = []
        if text[i] != "}":
            while True:
                key_start = i
                key, key_end = scanstring(text, i + 1)
                colon = ws(text, key_end).end()  # type: ignore[union-attr]
                child, i = _scanned_child(scan, ws(text, colon + 1).end(), whole, key)  # type: ignore[union-attr]
                props.append(Property(key, key_start + base, key_end + base, colon + base, child))
                i = ws(text, i).end()  # type: ignore[union-attr]
                if text[i] != ",":
                    break
                i = ws(text, i + 1).end()  # type: ignore[union-attr]
        node._props = props
    else:
        items: list[Node] = []
        if text[i] != "]":
            while True:
                child, i = _scanned_child(scan, i, whole, len(items))
                items.append(child)
                i = ws(text, i).end()  # type: ignore[union-attr]
                if text[i] != ",":
                    break
                i = ws(text, i + 1).end()  # type: ignore[union-attr]
        node._items = items


def _scanned_child(scan: _Scan, i: int, whole: Any, at: str | int) -> tuple[Node, int]:
    """The child at ``i`` of ``scan.text`` whose value is ``whole[at]`` (its container's decoded value);
    the node's offsets are the document's, the end returned is in ``scan.text``."""
    text, base = scan.text, scan.base
    value, end = _scan(text, i)
    if isinstance(whole, (dict, list)):
        value = whole[at]  # type: ignore[index]
    c = text[i]
    if c == "{" or c == "[":
        node = Node("object" if c == "{" else "array", i + base, end + base)
        node._py = value
        node._src = scan
        return node, end
    if c == '"':
        return Node("string", i + base, end + base, value), end
    if value is None:
        return Node("null", i + base, end + base), end
    if value is True or value is False:
        return Node("boolean", i + base, end + base, value), end
    return Node("number", i + base, end + base, value), end


def _skip_deep(st: _State) -> None:
    """Skip a container nested beyond MAX_DEPTH by bracket counting (strings respected)."""
    text, n, start = st.text, len(st.text), st.pos
    if not st.deep_reported:
        _error(st, "NestingTooDeep", f"nesting deeper than {MAX_DEPTH} levels is not analysed", start, start + 1)
        st.deep_reported = True
    level = 0
    i = start
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"' and text[i] not in "\r\n":
                i += 2 if text[i] == "\\" else 1
        elif c in "{[":
            level += 1
        elif c in "}]":
            level -= 1
            if level == 0:
                st.pos = i + 1
                return
        i += 1
    st.pos = n


def _string(st: _State) -> str:
    """Read a string starting at the opening quote; stops at end of line when unterminated."""
    text, n = st.text, len(st.text)
    start = st.pos
    i = start + 1
    # Fast path: no escapes, no line break before the closing quote.
    close = text.find('"', i)
    if close >= 0:
        chunk = text[i:close]
        if "\\" not in chunk and "\n" not in chunk and "\r" not in chunk:
            st.pos = close + 1
            if not chunk.isprintable():
                _control_chars(st, chunk, i)
            return chunk
    out: list[str] = []
    while i < n:
        c = text[i]
        if c == '"':
            st.pos = i + 1
            return "".join(out)
        if c in "\r\n":
            break
        if c == "\\":
            if i + 1 >= n:
                break
            e = text[i + 1]
            if e in _ESCAPES:
                out.append(_ESCAPES[e])
                i += 2
                continue
            if e == "u" and _HEX4.fullmatch(text, i + 2, i + 6):
                code = int(text[i + 2 : i + 6], 16)
                i += 6
                # Join a surrogate pair written as two escapes; a lone surrogate stays as it is.
                if 0xD800 <= code < 0xDC00 and text.startswith("\\u", i) and _HEX4.fullmatch(text, i + 2, i + 6):
                    low = int(text[i + 2 : i + 6], 16)
                    if 0xDC00 <= low < 0xE000:
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                out.append(chr(code))
                continue
            if e in "\r\n":
                break
            _error(st, "InvalidEscapeCharacter", f"invalid escape `\\{e}`", i, i + 2)
            i += 2
            continue
        if ord(c) < 0x20:
            _error(st, "InvalidCharacter", "control character in string", i, i + 1)
        out.append(c)
        i += 1
    _error(st, "UnexpectedEndOfString", "unterminated string", start, i)
    st.pos = i
    return "".join(out)


def _first_newline(text: str, start: int, end: int) -> int:
    a = text.find("\n", start, end)
    b = text.find("\r", start, end)
    if a < 0:
        return b
    if b < 0:
        return a
    return min(a, b)


def _control_chars(st: _State, chunk: str, base: int) -> None:
    for k, c in enumerate(chunk):
        if ord(c) < 0x20:
            _error(st, "InvalidCharacter", "control character in string", base + k, base + k + 1)


def _object(st: _State, depth: int) -> Node:
    text = st.text
    props: list[Property] = []
    node = Node("object", st.pos, st.pos, properties=props)
    seen: dict[str, Property] = {}
    st.pos += 1
    need_comma = False
    while True:
        _skip(st)
        if st.pos >= len(text):
            _error(st, "CloseBraceExpected", "`}` expected", node.start, node.start + 1)
            break
        c = text[st.pos]
        if c == "}":
            st.pos += 1
            break
        if c == ",":
            if not need_comma:
                _error(st, "PropertyNameExpected", "property name expected", st.pos, st.pos + 1)
            comma = st.pos
            st.pos += 1
            _skip(st)
            if st.pos < len(text) and text[st.pos] == "}" and need_comma and not st.jsonc:
                _error(st, "TrailingComma", "trailing comma", comma, comma + 1)
            need_comma = False
            continue
        if need_comma:
            prev_end = props[-1].end if props else st.pos
            _error(st, "CommaExpected", "`,` expected", prev_end, prev_end)
        key_start = st.pos
        if c == '"':
            key = _string(st)
        elif c == "]":
            _error(st, "CloseBraceExpected", "`}` expected", st.pos, st.pos + 1)
            st.pos += 1
            break
        else:
            bare = _bare_key(st)
            if bare is None:
                need_comma = False
                continue
            key = bare
        prop = _property(st, depth, key, key_start, st.pos)
        if prop.value is not None:
            first = seen.get(key)
            if first is not None:
                st.duplicates.append(RawDuplicate(key, (key_start, prop.key_end), (first.key_start, first.key_end)))
            seen[key] = prop
        props.append(prop)
        need_comma = True
    node.end = st.pos
    return node


def _bare_key(st: _State) -> str | None:
    """A key without its quotes at ``st.pos`` (reported), read up to its end; None when no key is there (reported,
    and skipped to the next separator)."""
    bare = _BARE_KEY.match(st.text, st.pos)
    if bare is None:
        _error(st, "PropertyNameExpected", "property name expected (keys are double-quoted strings)",
               st.pos, st.pos + 1)
        _recover(st, ",}")
        return None
    # `name: 1` or `name": 1` (the opening quote deleted): keep it as the key it is meant to be.
    key_start, key_end = st.pos, bare.end(2)
    _error(st, "PropertyNameExpected", "property names must be double-quoted strings", key_start, key_end)
    st.pos = key_end
    return bare.group(1)


def _property(st: _State, depth: int, key: str, key_start: int, key_end: int) -> Property:
    """The property whose key was just read: its colon and value, each reported when missing."""
    text = st.text
    _skip(st)
    colon: int | None = None
    value: Node | None = None
    if st.pos < len(text) and text[st.pos] == ":":
        colon = st.pos
        st.pos += 1
        _skip(st)
        if st.pos < len(text) and text[st.pos] in ",}]":
            _error(st, "ValueExpected", "value expected", st.pos, st.pos + 1)
        else:
            value = _value(st, depth + 1)
    else:
        _error(st, "ColonExpected", "`:` expected", key_end, key_end)
        # `"name" "x",` — take the value anyway if it is on the same line as the key and looks like
        # a value (`"para "parameters": {` is a half-typed key before a key, not a key and a value).
        if (st.pos < len(text) and _first_newline(text, key_end, st.pos) < 0
                and _VALUE_START.match(text, st.pos) and not _BARE_KEY.match(text, st.pos)):
            value = _value(st, depth + 1)
    return Property(key, key_start, key_end, colon, value)


def _array(st: _State, depth: int) -> Node:
    text = st.text
    items: list[Node] = []
    node = Node("array", st.pos, st.pos, items=items)
    st.pos += 1
    need_comma = False
    while True:
        _skip(st)
        if st.pos >= len(text):
            _error(st, "CloseBracketExpected", "`]` expected", node.start, node.start + 1)
            break
        c = text[st.pos]
        if c == "]":
            st.pos += 1
            break
        if c == ",":
            if not need_comma:
                _error(st, "ValueExpected", "value expected", st.pos, st.pos + 1)
            comma = st.pos
            st.pos += 1
            _skip(st)
            if st.pos < len(text) and text[st.pos] == "]" and need_comma and not st.jsonc:
                _error(st, "TrailingComma", "trailing comma", comma, comma + 1)
            need_comma = False
            continue
        if c == "}":
            _error(st, "CloseBracketExpected", "`]` expected", st.pos, st.pos + 1)
            st.pos += 1
            break
        if need_comma:
            prev_end = items[-1].end if items else st.pos
            _error(st, "CommaExpected", "`,` expected", prev_end, prev_end)
        before = st.pos
        item = _value(st, depth + 1)
        if item is not None:
            items.append(item)
        elif st.pos == before:
            _recover(st, ",]")
        need_comma = True
    node.end = st.pos
    return node


def _recover(st: _State, stops: str) -> None:
    """Panic mode: skip to the next stop character at this level (not past a closing bracket)."""
    text, n = st.text, len(st.text)
    while st.pos < n and text[st.pos] not in stops and text[st.pos] not in "}]":
        if text[st.pos] == '"':
            _string(st)
        else:
            st.pos += 1
