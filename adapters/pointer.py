"""JSON pointers (RFC 6901): the one way every layer names a place in a document or a tool."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def escape(token: str | int) -> str:
    text = str(token)
    # Most tokens need no escape; the test is cheaper than two replacements (pointers are built per keyword).
    return text.replace("~", "~0").replace("/", "~1") if "~" in text or "/" in text else text


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token


def join(base: str, *tokens: str | int) -> str:
    """``join("/a", "b", 0) == "/a/b/0"``; ``join("", "x") == "/x"``."""
    if len(tokens) == 1:
        return base + "/" + escape(tokens[0])
    return base + "".join("/" + escape(t) for t in tokens)


def from_parts(parts: Iterable[str | int]) -> str:
    return join("", *parts)


def parts(pointer: str) -> list[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"not a JSON pointer: {pointer!r}")
    if "~" not in pointer:
        return pointer[1:].split("/")
    return [unescape(p) for p in pointer[1:].split("/")]


_MISSING = object()


def resolve(document: Any, pointer: str, default: Any = _MISSING) -> Any:
    """The value at ``pointer``; ``default`` (or KeyError) when it does not exist."""
    node = document
    for token in parts(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            if default is _MISSING:
                raise KeyError(pointer)
            return default
    return node


def is_prefix(prefix: str, pointer: str) -> bool:
    return pointer == prefix or pointer.startswith(prefix + "/")
