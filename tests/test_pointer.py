"""JSON pointers against RFC 6901's own examples (section 5), written out by hand, and random tokens."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from toolcast.adapters import pointer as jp

RFC_DOCUMENT = {"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, 'k"l': 6,
                " ": 7, "m~n": 8}
RFC_POINTERS = {"": RFC_DOCUMENT, "/foo": ["bar", "baz"], "/foo/0": "bar", "/": 0, "/a~1b": 1, "/c%d": 2,
                "/e^f": 3, "/g|h": 4, "/i\\j": 5, '/k"l': 6, "/ ": 7, "/m~0n": 8}


def test_the_rfc_examples_resolve() -> None:
    for pointer, value in RFC_POINTERS.items():
        assert jp.resolve(RFC_DOCUMENT, pointer) == value, pointer


def test_tokens_are_escaped_and_read_back_as_the_rfc_spells_them() -> None:
    assert jp.join("", "a/b") == "/a~1b"
    assert jp.join("", "m~n") == "/m~0n"
    assert jp.join("/x", "~1") == "/x/~01"  # `~` first, so a literal `~1` stays itself
    assert jp.join("/x", "a", 0, "b/c") == "/x/a/0/b~1c"
    assert jp.join("/x") == "/x"
    assert jp.parts("/a~1b/m~0n/~01/plain") == ["a/b", "m~n", "~1", "plain"]
    assert jp.parts("/") == [""]
    assert jp.parts("") == []


@given(st.lists(st.text(alphabet="ab/~01", max_size=6), max_size=4))
def test_parts_reads_back_what_join_wrote(tokens: list[str]) -> None:
    assert jp.parts(jp.from_parts(tokens)) == tokens
