"""The size and nesting limits of a document, in one light module: the parser, the readers and the rule
reference (TC003's text) all take them from here."""

from __future__ import annotations

#: Larger documents are not parsed (TC003); editors and CI get a finding instead of a stall.
MAX_TEXT = 32_000_000
#: Bytes read from one file at most; a larger file is refused before it is decoded (TC003).
MAX_FILE_BYTES = MAX_TEXT
#: Containers nested deeper are reported once and skipped by the parser (TC003).
MAX_DEPTH = 200
