"""Documents as the user has them: tolerant parsing, incremental re-parsing and position mapping.

The names below are imported on first use (PEP 562): the language server's start-up needs
``LineIndex`` and ``Encoding`` only, not the parser."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import exports

if TYPE_CHECKING:
    from .dialect import is_jsonc
    from .file_reading import (
        FileTooLarge,
        NotRegularFile,
        UnreadableFile,
        check_regular,
        read_regular,
        read_text,
        special_file,
    )
    from .limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_TEXT, numbers_out_of_range, out_of_range
    from .line_index import Encoding, LineIndex
    from .parsed import Location, ParsedDocument, parse, remember, reparse
    from .parser import DuplicateKey, Node, Property, SyntaxIssue
    from .recent import DocumentMemory

_WHERE = {
    "is_jsonc": "dialect",
    "Encoding": "line_index", "LineIndex": "line_index", "DocumentMemory": "recent",
    "Location": "parsed", "ParsedDocument": "parsed", "parse": "parsed", "remember": "parsed", "reparse": "parsed",
    "MAX_DEPTH": "limits", "DuplicateKey": "parser", "Node": "parser", "Property": "parser", "SyntaxIssue": "parser",
    "MAX_FILE_BYTES": "limits", "MAX_TEXT": "limits", "numbers_out_of_range": "limits", "out_of_range": "limits",
    **dict.fromkeys(("FileTooLarge", "NotRegularFile", "UnreadableFile", "check_regular",
                     "read_regular", "read_text", "special_file"), "file_reading"),
}

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_TEXT",
    "DocumentMemory",
    "DuplicateKey",
    "Encoding",
    "FileTooLarge",
    "LineIndex",
    "Location",
    "Node",
    "NotRegularFile",
    "ParsedDocument",
    "Property",
    "SyntaxIssue",
    "UnreadableFile",
    "check_regular",
    "is_jsonc",
    "numbers_out_of_range",
    "out_of_range",
    "parse",
    "read_regular",
    "read_text",
    "remember",
    "reparse",
    "special_file",
]


__getattr__, __dir__ = exports(__name__, _WHERE, globals(), __all__)
