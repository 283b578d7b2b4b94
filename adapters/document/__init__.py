"""Documents as the user has them: tolerant parsing, incremental re-parsing and position mapping.

The names below are imported on first use (PEP 562): the language server's start-up needs
``LineIndex`` and ``Encoding`` only, not the parser."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import exports

if TYPE_CHECKING:
    from .dialect import is_jsonc
    from .line_index import Encoding, LineIndex
    from .memory import DocumentMemory
    from .parsed import Location, ParsedDocument, parse, remember, reparse
    from .parser import MAX_DEPTH, DuplicateKey, Node, Property, SyntaxIssue

_WHERE = {
    "is_jsonc": "dialect",
    "Encoding": "line_index", "LineIndex": "line_index", "DocumentMemory": "memory",
    "Location": "parsed", "ParsedDocument": "parsed", "parse": "parsed", "remember": "parsed", "reparse": "parsed",
    "MAX_DEPTH": "parser", "DuplicateKey": "parser", "Node": "parser", "Property": "parser", "SyntaxIssue": "parser",
}

__all__ = [
    "MAX_DEPTH", "DocumentMemory", "DuplicateKey", "Encoding", "LineIndex", "Location", "Node", "ParsedDocument",
    "Property", "SyntaxIssue", "is_jsonc", "parse", "remember", "reparse",
]


__getattr__, __dir__ = exports(__name__, _WHERE, globals(), __all__)
