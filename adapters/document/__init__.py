"""Documents as the user has them: tolerant parsing, incremental re-parsing and position mapping."""

from .line_index import Encoding, LineIndex
from .parsed import DocumentMemory, Location, ParsedDocument, parse, remember, reparse
from .parser import MAX_DEPTH, DuplicateKey, Node, Property, SyntaxIssue

__all__ = [
    "MAX_DEPTH", "DocumentMemory", "DuplicateKey", "Encoding", "LineIndex", "Location", "Node", "ParsedDocument",
    "Property", "SyntaxIssue", "parse", "remember", "reparse",
]
