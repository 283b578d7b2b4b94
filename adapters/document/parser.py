"""A tolerant JSON/JSONC parser that keeps structure while the user types.

Designed after jsonc-parser's recovery (skip to the next `,` `}` `]` and go on): an unterminated
string, a missing colon, value or comma, a half-typed key or a trailing comma costs one syntax error
and nothing else, so the checks keep seeing the rest of the file. Offsets are code points (Python
string indices). Nesting deeper than ``MAX_DEPTH`` is reported once and skipped by bracket counting,
so hostile input can never exhaust the Python stack.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

MAX_DEPTH = 200

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_LOOSE_WORD = re.compile(r"[A-Za-z0-9_.+\-]+")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_WS = " \t\n\r\ufeff"


@dataclass(eq=False, slots=True)
class Node:
    """A value. ``value`` is set for scalars; ``properties`` for objects, ``items`` for arrays."""

    kind: str  # object | array | string | number | boolean | null
    start: int
    end: int
    value: Any = None
    properties: list[Property] | None = None
    items: list[Node] | None = None


@dataclass(eq=False, slots=True)
class Property:
    key: str
    key_start: int
    key_end: int
    colon: int | None
    value: Node | None

    @property
    def start(self) -> int:
        return self.key_start

    @property
    def end(self) -> int:
        if self.value is not None:
            return self.value.end
        return self.colon + 1 if self.colon is not None else self.key_end


@dataclass(frozen=True, slots=True)
class SyntaxIssue:
    code: str
    message: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class DuplicateKey:
    pointer: str
    span: tuple[int, int]
    first: tuple[int, int]


@dataclass(slots=True)
class _State:
    text: str
    jsonc: bool
    pos: int = 0
    errors: list[SyntaxIssue] = field(default_factory=list)
    duplicates: list[tuple[Node, Property, Property]] = field(default_factory=list)
    deep_reported: bool = False


Duplicates = list[tuple["Node", "Property", "Property"]]


def parse_tree(text: str, *, jsonc: bool = False) -> tuple[Node | None, list[SyntaxIssue], Duplicates]:
    st = _State(text, jsonc)
    _skip(st)
    root: Node | None = None
    if st.pos >= len(text):
        st.errors.append(SyntaxIssue("ValueExpected", "empty document: expected a JSON value", 0, 0))
    else:
        root = _value(st, 0)
        _skip(st)
        if root is None:
            pass
        elif st.pos < len(text):
            _error(st, "EndOfFileExpected", "unexpected text after the end of the JSON value", st.pos, len(text))
    return root, st.errors, st.duplicates


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
            st.pos += 1
        elif c == "/" and st.pos + 1 < n and text[st.pos + 1] in "/*":
            start = st.pos
            if text[st.pos + 1] == "/":
                end = st.pos + 2
                while end < n and text[end] not in "\r\n":
                    end += 1
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
        return _object(st, depth) if c == "{" else _array(st, depth)
    if c == '"':
        start = st.pos
        value = _string(st)
        return Node("string", start, st.pos, value)
    m = _NUMBER.match(text, st.pos)
    if m and not (m.end() < len(text) and (text[m.end()].isalnum() or text[m.end()] == "_")):
        st.pos = m.end()
        raw = m.group()
        number: int | float
        if "." in raw or "e" in raw or "E" in raw:
            number = float(raw)
        else:
            number = int(raw) if len(raw) < 4000 else float(raw)
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
    # Fast path: no escapes.
    close = text.find('"', i)
    newline = _first_newline(text, i, close if close >= 0 else n)
    if close >= 0 and newline < 0:
        chunk = text[i:close]
        if "\\" not in chunk:
            st.pos = close + 1
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
            if e == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", text[i + 2 : i + 6]):
                code = int(text[i + 2 : i + 6], 16)
                i += 6
                # Join a surrogate pair written as two escapes; a lone surrogate stays as it is.
                if 0xD800 <= code < 0xDC00 and text[i : i + 2] == "\\u":
                    low = text[i + 2 : i + 6]
                    if re.fullmatch(r"[0-9a-fA-F]{4}", low) and 0xDC00 <= int(low, 16) < 0xE000:
                        code = 0x10000 + ((code - 0xD800) << 10) + (int(low, 16) - 0xDC00)
                        i += 6
                out.append(chr(code))
                continue
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
    if chunk.isprintable() or (chunk.isascii() and all(ord(c) >= 0x20 for c in chunk)):
        return
    for k, c in enumerate(chunk):
        if ord(c) < 0x20:
            _error(st, "InvalidCharacter", "control character in string", base + k, base + k + 1)


def _object(st: _State, depth: int) -> Node:
    text = st.text
    node = Node("object", st.pos, st.pos, properties=[])
    props = node.properties
    assert props is not None
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
            st.pos += 1
            _skip(st)
            if st.pos < len(text) and text[st.pos] == "}" and need_comma and not st.jsonc:
                _error(st, "TrailingComma", "trailing comma", st.pos - 1, st.pos)
            need_comma = False
            continue
        if need_comma:
            prev_end = props[-1].end if props else st.pos
            _error(st, "CommaExpected", "`,` expected", prev_end, prev_end)
        if c != '"':
            if c in "]":
                _error(st, "CloseBraceExpected", "`}` expected", st.pos, st.pos + 1)
                st.pos += 1
                break
            # A bare word where a key belongs: report it and skip to the next separator.
            bad = st.pos
            _error(st, "PropertyNameExpected", "property name expected (keys are double-quoted strings)", bad, bad + 1)
            _recover(st, ",}")
            need_comma = False
            continue
        key_start = st.pos
        key = _string(st)
        key_end = st.pos
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
            # `"name" "x",` — take the value anyway only if it is on the same line as the key.
            if st.pos < len(text) and text[st.pos] not in ",}]" and _first_newline(text, key_end, st.pos) < 0:
                value = _value(st, depth + 1)
        prop = Property(key, key_start, key_end, colon, value)
        if key in seen and value is not None:
            st.duplicates.append((node, seen[key], prop))
        if value is not None:
            seen[key] = prop
        props.append(prop)
        need_comma = True
    node.end = st.pos
    return node


def _array(st: _State, depth: int) -> Node:
    text = st.text
    node = Node("array", st.pos, st.pos, items=[])
    items = node.items
    assert items is not None
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
            st.pos += 1
            _skip(st)
            if st.pos < len(text) and text[st.pos] == "]" and need_comma and not st.jsonc:
                _error(st, "TrailingComma", "trailing comma", st.pos - 1, st.pos)
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
