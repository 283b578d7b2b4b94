"""A message body read through JSON escapes is the value ``json.loads`` reads from it, and a body that is
not JSON (or not UTF-8) fails with ``json.loads``'s own error."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from toolcast.server.lsp.message_json import loads_body

# Any character a UTF-8 body can carry (no lone surrogates), keys and values alike.
TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=30)
VALUES = st.recursive(st.none() | st.booleans() | st.integers() | TEXT,
                      lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                      max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(TEXT, VALUES, max_size=5), st.booleans())
def test_the_value_is_json_loads_own(message: dict[str, Any], ascii_only: bool) -> None:
    body = json.dumps(message, ensure_ascii=ascii_only).encode("utf-8")
    hooked: list[dict[str, Any]] = []

    def hook(obj: dict[str, Any]) -> dict[str, Any]:
        hooked.append(obj)
        return obj

    assert loads_body(body, hook, escape_from=0) == json.loads(body)
    assert hooked == [o for o in _objects(json.loads(body))]  # the hook sees every object, innermost first


def _objects(value: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(value, list):
        for item in value:
            found.extend(_objects(item))
    elif isinstance(value, dict):
        for item in value.values():
            found.extend(_objects(item))
        found.append(value)
    return found


@pytest.mark.parametrize("body", [
    b'{"text": "caf\xc3"}',                      # cut in the middle of a character: not UTF-8
    b'{"text": "\xf0\x9f\x98\x80" \xc3\xa9}',    # a character outside any string: not JSON
    b'{"text": "\xf0\x9f\x98\x80", }',           # a trailing comma
])
def test_a_body_that_is_not_json_fails_with_json_loads_own_error(body: bytes) -> None:
    with pytest.raises(ValueError) as plain:
        json.loads(body)
    with pytest.raises(ValueError) as escaped:
        loads_body(body, escape_from=0)
    assert type(escaped.value) is type(plain.value) and str(escaped.value) == str(plain.value)


def test_a_body_json_loads_reads_in_another_encoding_is_read_alike() -> None:
    body = '{"a": "é😀"}'.encode("utf-16")  # not what LSP sends, but json.loads reads it: so do we
    assert loads_body(body, escape_from=0) == json.loads(body) == {"a": "é😀"}


def test_a_large_body_with_wide_characters_is_read_without_a_wide_copy_of_the_body() -> None:
    """The point of the escapes: the body decodes to a narrow string, only the text itself is wide
    (here, as in the generated 5,000-tool file, a wide character every thousand or so)."""
    import tracemalloc

    text = "😀".join("x" * 1000 for _ in range(2000))
    body = json.dumps({"params": {"text": text}}, ensure_ascii=False).encode("utf-8")
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        assert loads_body(body)["params"]["text"] == text
        escaped_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        assert json.loads(body)["params"]["text"] == text
        plain_peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    wide = sys.getsizeof(text)  # one string of four bytes a character
    assert plain_peak - escaped_peak > 0.4 * wide  # half of the wide body copy is not made
