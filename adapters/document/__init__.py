"""Documents as the user has them: tolerant parsing and position mapping."""

from .line_index import Encoding, LineIndex
from .parsed import Location, ParsedDocument, parse
from .parser import DuplicateKey, Node, Property, SyntaxIssue

__all__ = [
    "DuplicateKey", "Encoding", "LineIndex", "Location", "Node", "ParsedDocument", "Property",
    "SyntaxIssue", "parse",
]
