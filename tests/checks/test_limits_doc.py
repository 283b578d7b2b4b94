"""TC003's reference text states the limits the code enforces, taken from the constants themselves."""

from __future__ import annotations

from toolcast.adapters.checks import RULES
from toolcast.adapters.document import MAX_DEPTH, MAX_FILE_BYTES, MAX_TEXT
from toolcast.adapters.schema.walk import MAX_DEPTH as SCHEMA_DEPTH
from toolcast.adapters.schema.walk import MAX_NODES


def test_the_document_too_large_rule_states_the_real_limits() -> None:
    doc = RULES["TC003"].doc
    assert f"at most {MAX_FILE_BYTES:,} bytes of a file" in doc
    assert f"at most {MAX_TEXT:,} characters of a document" in doc
    assert f"the parser stops at {MAX_DEPTH} levels" in doc
    assert f"at {SCHEMA_DEPTH} levels and {MAX_NODES:,} schema nodes per tool" in doc
    assert "10 MB" not in doc
