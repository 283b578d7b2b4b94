"""The tolerant parser, exactly: every offset, error code, message and recovered member, written out by
hand for small inputs (issue 17: the mutants of ``parser.py`` that the broader tests let through).

Expected values are derived by reading the input, not by running the parser: offsets are code points
counted in the literal, values follow RFC 8259 (``json.loads`` is the oracle where the input is valid),
and error codes follow jsonc-parser's names as documented in ``docs/parser.md``."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from toolcast.adapters.document import ParsedDocument, parse, reparse
from toolcast.adapters.document import parser as P
from toolcast.adapters.document.parser import Node, Property, RawDuplicate, SyntaxIssue, parse_tree, parse_value_at


def shape(node: Node | None) -> Any:
    """A node as nested tuples with every offset: scalars ``(kind, start, end, value)``, objects
    ``("object", start, end, [(key, key_start, key_end, colon, value shape), ...])``, arrays likewise."""
    if node is None:
        return None
    if node.kind == "object":
        return ("object", node.start, node.end,
                [(p.key, p.key_start, p.key_end, p.colon, shape(p.value)) for p in node.properties or []])
    if node.kind == "array":
        return ("array", node.start, node.end, [shape(i) for i in node.items or []])
    return (node.kind, node.start, node.end, node.value)


def errs(text: str, jsonc: bool = False) -> list[tuple[str, int, int]]:
    return [(e.code, e.start, e.end) for e in parse_tree(text, jsonc=jsonc)[1]]


def root(text: str, jsonc: bool = False) -> Any:
    return shape(parse_tree(text, jsonc=jsonc)[0])


# -- the document as a whole ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "   ", "\ufeff", "\n\t\r "])
def test_an_empty_document_is_one_error_at_offset_zero(text: str) -> None:
    assert parse_tree(text) == (None, [SyntaxIssue("ValueExpected", "empty document: expected a JSON value", 0, 0)],
                                [])


def test_text_after_the_value_is_one_error_covering_the_rest() -> None:
    node, errors, dups = parse_tree("1  2 3")
    assert shape(node) == ("number", 0, 1, 1) and dups == []
    assert errors == [SyntaxIssue("EndOfFileExpected", "unexpected text after the end of the JSON value", 3, 6)]
    assert errs("{} x") == [("EndOfFileExpected", 3, 4)]
    assert errs("[1] /") == [("EndOfFileExpected", 4, 5)]  # a lone `/` starts no comment
    assert errs("1 \n") == [] and errs("\ufeff1") == []


def test_no_end_of_file_error_after_a_value_that_is_not_there() -> None:
    # `}` is not a value: one error for it, not a second one for "text after the value".
    assert parse_tree("}") == (None, [SyntaxIssue("ValueExpected", "value expected", 0, 1)], [])
    assert parse_tree("/") == (None, [SyntaxIssue("ValueExpected", "value expected", 0, 1)], [])
    assert errs("?? 1") == [("ValueExpected", 0, 1)]


def test_a_byte_order_mark_is_skipped_at_the_start_and_reported_elsewhere() -> None:
    assert root("\ufeff 7") == ("number", 2, 3, 7)
    node, errors, _ = parse_tree("[1,\ufeff2]")
    assert shape(node) == ("array", 0, 6, [("number", 1, 2, 1), ("number", 4, 5, 2)])
    assert errors == [SyntaxIssue("InvalidSymbol", "byte-order mark inside the document", 3, 4)]


# -- comments ----------------------------------------------------------------------------------------

def test_line_comments_end_at_the_first_line_break_of_either_kind() -> None:
    assert root("//x\r7\n", jsonc=True) == ("number", 4, 5, 7)  # \r before \n: ends at \r
    assert root("//x\n7\r", jsonc=True) == ("number", 4, 5, 7)  # \n before \r: ends at \n
    assert root("//x\r7", jsonc=True) == ("number", 4, 5, 7)  # no \n at all
    assert root("//x\n7", jsonc=True) == ("number", 4, 5, 7)  # no \r at all
    assert root("[//]\n1]", jsonc=True) == ("array", 0, 7, [("number", 5, 6, 1)])
    # the first \r, not the last one
    assert root("[//x\r1,\r2]", jsonc=True) == ("array", 0, 10, [("number", 5, 6, 1), ("number", 8, 9, 2)])


def test_comments_are_reported_outside_jsonc_with_their_whole_range() -> None:
    node, errors, _ = parse_tree("/* a */ [1, // b\n2]")
    assert shape(node) == ("array", 8, 19, [("number", 9, 10, 1), ("number", 17, 18, 2)])
    assert errors == [SyntaxIssue("InvalidCommentToken", "comments are not allowed in JSON", 0, 7),
                      SyntaxIssue("InvalidCommentToken", "comments are not allowed in JSON", 12, 16)]
    assert parse_tree("/* a */ [1, // b\n2]", jsonc=True)[1] == []


def test_a_comment_starts_with_two_slashes_or_slash_star_only() -> None:
    assert errs("1//", jsonc=True) == []  # `//` as the last two characters is still a comment
    assert errs("1//") == [("InvalidCommentToken", 1, 3)]
    assert errs("[1] /X") == [("EndOfFileExpected", 4, 6)]  # `/` and anything else is not a comment
    assert root("//\n7", jsonc=True) == ("number", 3, 4, 7)  # the line break right after the slashes ends it
    assert root("[//\n1]", jsonc=True) == ("array", 0, 6, [("number", 4, 5, 1)])


def test_a_block_comment_ends_at_the_first_star_slash_after_its_opening() -> None:
    # `/*/` does not close itself: the `*/` is looked for after the opening `/*`.
    assert parse_tree("/*/ 1", jsonc=True) == (None, [
        SyntaxIssue("UnexpectedEndOfComment", "unterminated /* comment", 0, 5),
        SyntaxIssue("ValueExpected", "empty document: expected a JSON value", 0, 0)], [])
    # The first `*/`, not the last one: the value between two comments is kept.
    assert root("/* a */ [1, /* b */ 2]", jsonc=True) == ("array", 8, 22, [("number", 9, 10, 1),
                                                                           ("number", 20, 21, 2)])


def test_a_comment_to_the_end_is_the_whole_document() -> None:
    assert errs("// only a comment") == [("InvalidCommentToken", 0, 17), ("ValueExpected", 0, 0)]
    assert errs("// only a comment", jsonc=True) == [("ValueExpected", 0, 0)]


def test_an_unterminated_block_comment_runs_to_the_end() -> None:
    node, errors, _ = parse_tree("[1 /* x", jsonc=True)
    assert shape(node) == ("array", 0, 7, [("number", 1, 2, 1)])
    assert errors == [SyntaxIssue("UnexpectedEndOfComment", "unterminated /* comment", 3, 7),
                      SyntaxIssue("CloseBracketExpected", "`]` expected", 0, 1)]
    assert errs("[1 /* x") == [("UnexpectedEndOfComment", 3, 7), ("InvalidCommentToken", 3, 7),
                               ("CloseBracketExpected", 0, 1)]
    assert errs("/**/1", jsonc=True) == [] and root("/**/1", jsonc=True) == ("number", 4, 5, 1)


# -- scalars -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["0", "-0", "7", "-12", "1.5", "-0.25", "1e2", "1E2", "2e-1", "3E+2", "1.5e3",
                                  "12345678901234567890", "1e400"])
def test_numbers_are_what_json_loads_makes_of_them(text: str) -> None:
    node, errors, _ = parse_tree(text)
    assert errors == [] and node is not None and (node.kind, node.start, node.end) == ("number", 0, len(text))
    assert repr(node.value) == repr(json.loads(text))  # int stays int, float stays float


@pytest.mark.parametrize("digits", [3999, 4000, 4300, 4301, 10_000])
@pytest.mark.parametrize("sign", ["", "-"])
def test_very_long_integers_are_read_as_json_loads_reads_them_at_any_depth(digits: int, sign: str) -> None:
    # An int up to Python's digit limit (4300 by default, the sign not counted), a float (inf) past it: at the
    # top, where the recovering parser reads the number, and inside containers the C scanner reads whole.
    text = sign + "1" + "0" * (digits - 1)
    expected = int(text) if digits <= sys.get_int_max_str_digits() else float(text)
    if digits <= sys.get_int_max_str_digits():
        assert json.loads(text) == expected
    for wrapped, depth in ((text, 0), (f"[{text}]", 1), (f"[[[{text}]]]", 3)):
        value = parse(wrapped).value
        for _ in range(depth):
            value = value[0]
        assert value == expected and type(value) is type(expected), (digits, depth)


def test_the_int_digit_limit_is_python_s_own(monkeypatch: pytest.MonkeyPatch) -> None:
    # Set lower (or off: 0), the parser follows it instead of raising or disagreeing with json.loads.
    for limit, expected in ((640, float("inf")), (0, 10 ** 999)):
        previous = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(limit)
        try:
            assert parse_tree("1" + "0" * 999)[0].value == expected  # type: ignore[union-attr]
        finally:
            sys.set_int_max_str_digits(previous)


@pytest.mark.parametrize("text,code", [
    ("12a", "InvalidNumberFormat"), ("1.", "InvalidNumberFormat"), ("1_", "InvalidNumberFormat"),
    ("1+", "InvalidNumberFormat"), ("1-", "InvalidNumberFormat"), ("01", "InvalidNumberFormat"),
    ("-", "InvalidNumberFormat"), ("-Infinity", "InvalidNumberFormat"), ("0x1F", "InvalidNumberFormat"),
    ("5e", "InvalidNumberFormat"), ("9.x", "InvalidNumberFormat"),
    ("truex", "InvalidSymbol"), ("True", "InvalidSymbol"), ("nul", "InvalidSymbol"), ("NaN", "InvalidSymbol"),
    (".5", "InvalidSymbol"), ("+1", "InvalidSymbol"), ("_a", "InvalidSymbol"), ("Infinity", "InvalidSymbol"),
    ("X", "InvalidSymbol"), ("X1", "InvalidSymbol"),
])
def test_a_bad_word_is_one_error_over_the_whole_word(text: str, code: str) -> None:
    assert parse_tree(text) == (None, [SyntaxIssue(code, f"invalid value `{text}`", 0, len(text))], [])


def test_a_bad_words_message_quotes_at_most_40_characters() -> None:
    word = "abcdefghij" * 5
    (error,) = parse_tree(word)[1]
    assert error == SyntaxIssue("InvalidSymbol", f"invalid value `{word[:40]}`", 0, 50)


def test_a_missing_value_at_the_end_of_the_text_is_an_empty_error_there() -> None:
    assert parse_tree('{"a":')[1] == [SyntaxIssue("ValueExpected", "value expected", 5, 5),
                                      SyntaxIssue("CloseBraceExpected", "`}` expected", 0, 1)]


def test_literals() -> None:
    assert root("true") == ("boolean", 0, 4, True)
    assert root("false") == ("boolean", 0, 5, False)
    assert root(" null ") == ("null", 1, 5, None)
    node = parse_tree("[true,false,null]")[0]
    assert [(n.kind, n.value) for n in node.items] == [("boolean", True), ("boolean", False), ("null", None)]  # type: ignore[union-attr]


# -- strings -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("literal", [
    r'"plain"', r'""', r'"a\"b"', r'"\\"', r'"\/"', r'"\b\f\n\r\t"', r'"\u0041\u00e9\u00E9"', r'"x\u20acy"',
    r'"\ud800\udc00"', r'"\udbff\udfff"', r'"\ud83d\ude0b!"', r'"\udc00\udc00"', r'"\ud800\ue000"',
    r'"\ud800\udbff"', r'"\ud7ff\udc00"', r'"\ud800\u0041"', r'"\ud800"', r'"\ud800\\udc00"', '"a\u00a0b\u2028"',
])
def test_strings_decode_like_json_loads(literal: str) -> None:
    node, errors, _ = parse_tree(literal)
    assert errors == [] and shape(node) == ("string", 0, len(literal), json.loads(literal))


def test_a_surrogate_escape_followed_by_a_short_escape_stays_alone() -> None:
    node, errors, _ = parse_tree(r'"\ud800\u12"')
    assert shape(node) == ("string", 0, 12, "\ud80012")
    assert errors == [SyntaxIssue("InvalidEscapeCharacter", "invalid escape `\\u`", 7, 9)]


@pytest.mark.parametrize("literal,value,errors", [
    (r'"\u12"', "12", [("InvalidEscapeCharacter", 1, 3)]),
    (r'"\u12G4"', "12G4", [("InvalidEscapeCharacter", 1, 3)]),
    (r'"a\qb"', "ab", [("InvalidEscapeCharacter", 2, 4)]),
    (r'"\x\y"', "", [("InvalidEscapeCharacter", 1, 3), ("InvalidEscapeCharacter", 3, 5)]),
    (r'"a\Xb"', "ab", [("InvalidEscapeCharacter", 2, 4)]),
    ('"a\x01b"', "a\x01b", [("InvalidCharacter", 2, 3)]),  # fast path (no escape)
    ('"a b\x1f c\x00"', "a b\x1f c\x00", [("InvalidCharacter", 4, 5), ("InvalidCharacter", 7, 8)]),
    ('"\\n\x01 \x02"', "\n\x01 \x02", [("InvalidCharacter", 3, 4), ("InvalidCharacter", 5, 6)]),  # slow path
    ('"tab\there"', "tab\there", [("InvalidCharacter", 4, 5)]),
    ('"\x7f\u0085 ok"', "\x7f\u0085 ok", []),  # not control characters in JSON's sense (< U+0020)
])
def test_string_errors_are_where_the_bad_character_is(literal: str, value: str, errors: list[Any]) -> None:
    node, found, _ = parse_tree(literal)
    assert shape(node) == ("string", 0, len(literal), value)
    assert [(e.code, e.start, e.end) for e in found] == errors
    assert all(e.message == ("control character in string" if e.code == "InvalidCharacter"
                             else f"invalid escape `{literal[e.start:e.end]}`") for e in found)


@pytest.mark.parametrize("text,value,end,rest", [
    ('"abc', "abc", 4, []),  # no closing quote at all
    ('"abc\n', "abc", 4, []),
    ('"ab\ncd"', "ab", 3, [("EndOfFileExpected", 4, 7)]),  # the line break ends it; the rest is extra
    ('"ab\rcd"', "ab", 3, [("EndOfFileExpected", 4, 7)]),
    ('"a\\n\nb"', "a\n", 4, [("EndOfFileExpected", 5, 7)]),  # slow path (an escape before the break)
    ('"a\\n\rb"', "a\n", 4, [("EndOfFileExpected", 5, 7)]),
    ('"ab\\', "ab", 3, [("EndOfFileExpected", 3, 4)]),  # a backslash as the last character
    ('"a\\"', 'a"', 4, []),  # an escaped quote as the last two characters
    ('"ab\\\ncd', "ab", 3, [("EndOfFileExpected", 3, 7)]),  # a backslash before a line break
    ('"ab\\\rcd', "ab", 3, [("EndOfFileExpected", 3, 7)]),
])
def test_an_unterminated_string_stops_at_the_line_end(text: str, value: str, end: int, rest: list[Any]) -> None:
    node, errors, _ = parse_tree(text)
    assert shape(node) == ("string", 0, end, value)
    assert [(e.code, e.start, e.end) for e in errors] == [("UnexpectedEndOfString", 0, end), *rest]
    assert errors[0].message == "unterminated string"


def test_a_string_ends_at_its_first_unescaped_quote() -> None:
    node, errors, _ = parse_tree('"XX"XX')
    assert shape(node) == ("string", 0, 4, "XX")
    assert errors == [SyntaxIssue("EndOfFileExpected", "unexpected text after the end of the JSON value", 4, 6)]


def test_an_unterminated_key_and_value_keep_the_object() -> None:
    text = '{"a": "xy\n, "b": 2}'
    node, errors, _ = parse_tree(text)
    assert shape(node) == ("object", 0, 19, [("a", 1, 4, 4, ("string", 6, 9, "xy")),
                                             ("b", 12, 15, 15, ("number", 17, 18, 2))])
    assert [(e.code, e.start, e.end) for e in errors] == [("UnexpectedEndOfString", 6, 9)]


# -- objects -----------------------------------------------------------------------------------------

def test_object_offsets_with_white_space_everywhere() -> None:
    text = '{ "a" : 1 ,\n "bc":"x" , "d" :[ ] }'
    assert root(text) == ("object", 0, 34, [
        ("a", 2, 5, 6, ("number", 8, 9, 1)),
        ("bc", 13, 17, 17, ("string", 18, 21, "x")),
        ("d", 24, 27, 28, ("array", 29, 32, [])),
    ])
    assert errs(text) == []


@pytest.mark.parametrize("text,members,errors", [
    ('{"a" 1}', [("a", 1, 4, None, ("number", 5, 6, 1))], [("ColonExpected", 4, 4)]),
    ('{"a" "v"}', [("a", 1, 4, None, ("string", 5, 8, "v"))], [("ColonExpected", 4, 4)]),
    # a line break after the value does not matter: only one between the key and the value
    ('{"a" 1\r\n}', [("a", 1, 4, None, ("number", 5, 6, 1))], [("ColonExpected", 4, 4)]),
    ('{"a" 1\r}', [("a", 1, 4, None, ("number", 5, 6, 1))], [("ColonExpected", 4, 4)]),
    # a value on the next line is not taken: it is where the next key should be
    ('{"a"\n1}', [("a", 1, 4, None, None)],
     [("ColonExpected", 4, 4), ("CommaExpected", 4, 4), ("PropertyNameExpected", 5, 6)]),
    ('{"a" b: 1}', [("a", 1, 4, None, None), ("b", 5, 6, 6, ("number", 8, 9, 1))],
     [("ColonExpected", 4, 4), ("CommaExpected", 4, 4), ("PropertyNameExpected", 5, 6)]),
    ('{"a": 1 "b": 2}', [("a", 1, 4, 4, ("number", 6, 7, 1)), ("b", 8, 11, 11, ("number", 13, 14, 2))],
     [("CommaExpected", 7, 7)]),
    ('{"a": 1,, "b": 2}', [("a", 1, 4, 4, ("number", 6, 7, 1)), ("b", 10, 13, 13, ("number", 15, 16, 2))],
     [("PropertyNameExpected", 8, 9)]),
    ('{, "a": 1}', [("a", 3, 6, 6, ("number", 8, 9, 1))], [("PropertyNameExpected", 1, 2)]),
    ('{"a": 1,}', [("a", 1, 4, 4, ("number", 6, 7, 1))], [("TrailingComma", 7, 8)]),
    ('{"a": 1 ,\n }', [("a", 1, 4, 4, ("number", 6, 7, 1))], [("TrailingComma", 8, 9)]),
    ('{,}', [], [("PropertyNameExpected", 1, 2)]),  # not a trailing comma: no member before it
    ('{"a": }', [("a", 1, 4, 4, None)], [("ValueExpected", 6, 7)]),
    ('{"a": ,"b":2}', [("a", 1, 4, 4, None), ("b", 7, 10, 10, ("number", 11, 12, 2))], [("ValueExpected", 6, 7)]),
    ('{"a": ]', [("a", 1, 4, 4, None)], [("ValueExpected", 6, 7), ("CommaExpected", 5, 5),
                                          ("CloseBraceExpected", 6, 7)]),
    ('{"a":', [("a", 1, 4, 4, None)], [("ValueExpected", 5, 5), ("CloseBraceExpected", 0, 1)]),
    ('{"a"', [("a", 1, 4, None, None)], [("ColonExpected", 4, 4), ("CloseBraceExpected", 0, 1)]),
    # a `]` where `,` or `}` belongs: both are reported, and the object ends there
    ('{"a": 1]', [("a", 1, 4, 4, ("number", 6, 7, 1))], [("CommaExpected", 7, 7), ("CloseBraceExpected", 7, 8)]),
    ('{1: 2}', [], [("PropertyNameExpected", 1, 2)]),  # recovery: skipped to the `}`
    ('{1 "x,}" 2}', [], [("PropertyNameExpected", 1, 2)]),  # recovery skips strings whole
    ('{1 X: 2}', [], [("PropertyNameExpected", 1, 2)]),  # and what looks like a bare key
    # recovery stops at a closing bracket of any kind: the `]` ends the object, the `}` is extra text
    ('{[1]}', [], [("PropertyNameExpected", 1, 2), ("CloseBraceExpected", 3, 4), ("EndOfFileExpected", 4, 5)]),
    ('{a: 1, $b": 2}', [("a", 1, 2, 2, ("number", 4, 5, 1)), ("$b", 7, 10, 10, ("number", 12, 13, 2))],
     [("PropertyNameExpected", 1, 2), ("PropertyNameExpected", 7, 10)]),
    ('{a-b_1\t: true}', [("a-b_1", 1, 6, 7, ("boolean", 9, 13, True))], [("PropertyNameExpected", 1, 6)]),
    ('{"a": x}', [("a", 1, 4, 4, None)], [("InvalidSymbol", 6, 7)]),
    ('{"a": X}', [("a", 1, 4, 4, None)], [("InvalidSymbol", 6, 7)]),
    # no colon and no value on the key's line: nothing is taken as the value
    ('{"a" }', [("a", 1, 4, None, None)], [("ColonExpected", 4, 4)]),
    # `true:` is a bare key, not the value of the key before it
    ('{"a" true: 1}', [("a", 1, 4, None, None), ("true", 5, 9, 9, ("number", 11, 12, 1))],
     [("ColonExpected", 4, 4), ("CommaExpected", 4, 4), ("PropertyNameExpected", 5, 9)]),
])
def test_object_recovery(text: str, members: list[Any], errors: list[Any]) -> None:
    node, found, _ = parse_tree(text)
    assert node is not None and node.kind == "object" and node.start == 0
    assert shape(node)[3] == members
    assert [(e.code, e.start, e.end) for e in found] == errors


@pytest.mark.parametrize("text,message", [
    ('{"a" 1}', "`:` expected"), ('{"a": 1 "b": 2}', "`,` expected"), ('{"a": }', "value expected"),
    ("{1: 2}", "property name expected (keys are double-quoted strings)"),
    ("{a: 1}", "property names must be double-quoted strings"), ('{, "a": 1}', "property name expected"),
    ('{"a": 1,}', "trailing comma"), ('{"a": 1', "`}` expected"), ("{]", "`}` expected"),
])
def test_object_error_messages(text: str, message: str) -> None:
    assert [e.message for e in parse_tree(text)[1]] == [message]


def test_a_value_taken_without_a_colon_is_one_level_deeper_than_its_object() -> None:
    # At depth MAX_DEPTH - 2 the object's value is at MAX_DEPTH - 1, still analysed; one level deeper it is not.
    node, end, errors, _, deep = parse_value_at('{"a" [1]}', 0, P.MAX_DEPTH - 2, False)
    assert shape(node) == ("object", 0, 9, [("a", 1, 4, None, ("array", 5, 8, [("number", 6, 7, 1)]))])
    assert (end, [(e.code, e.start, e.end) for e in errors], deep) == (9, [("ColonExpected", 4, 4)], False)
    node, end, errors, _, deep = parse_value_at('{"a" [1]}', 0, P.MAX_DEPTH - 1, False)
    assert shape(node) == ("object", 0, 9, [("a", 1, 4, None, None)])
    assert (end, [(e.code, e.start, e.end) for e in errors], deep) == (
        9, [("ColonExpected", 4, 4), ("NestingTooDeep", 5, 6)], True)


def test_a_half_typed_key_before_a_key_is_not_taken_as_a_value() -> None:
    text = '{"para "parameters": {}}'
    node, errors, _ = parse_tree(text)
    assert shape(node) == ("object", 0, 24, [("para ", 1, 8, None, None),
                                             ("parameters", 8, 19, 19, ("object", 21, 23, []))])
    assert [(e.code, e.start, e.end) for e in errors] == [
        ("ColonExpected", 8, 8), ("CommaExpected", 8, 8), ("PropertyNameExpected", 8, 19)]


def test_the_end_of_a_property_without_a_value() -> None:
    node = parse_tree('{"ab": , "c" }')[0]
    a, c = node.properties  # type: ignore[union-attr, misc]
    assert (a.start, a.end) == (1, 6)  # key and colon
    assert (c.start, c.end) == (9, 12)  # key only
    assert isinstance(a, Property) and repr(a) == "Property('ab', 1, 6)"
    value = parse_tree('{"k": [1]}')[0].properties[0]  # type: ignore[union-attr, index]
    assert (value.start, value.end) == (1, 9)


def test_duplicates_name_the_previous_occurrence_and_only_keys_with_a_value_count() -> None:
    text = '{"a": 1, "a": 2, "b": , "b": 3, "a": 4}'
    node, errors, dups = parse_tree(text)
    assert node is not None and errors == [SyntaxIssue("ValueExpected", "value expected", 22, 23)]
    assert dups == [RawDuplicate("a", (9, 12), (1, 4)), RawDuplicate("a", (32, 35), (9, 12))]
    assert parse_tree('{"a": 1, "a": }')[2] == []


# -- arrays ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,items,errors", [
    ("[ ]", [], []),
    ("[1 2]", [("number", 1, 2, 1), ("number", 3, 4, 2)], [("CommaExpected", 2, 2)]),
    ("[,1]", [("number", 2, 3, 1)], [("ValueExpected", 1, 2)]),
    ("[1,,2]", [("number", 1, 2, 1), ("number", 4, 5, 2)], [("ValueExpected", 3, 4)]),
    ("[1,]", [("number", 1, 2, 1)], [("TrailingComma", 2, 3)]),
    ("[1 , ]", [("number", 1, 2, 1)], [("TrailingComma", 3, 4)]),
    ("[,]", [], [("ValueExpected", 1, 2)]),
    ("[1}", [("number", 1, 2, 1)], [("CloseBracketExpected", 2, 3)]),
    ("[1}]", [("number", 1, 2, 1)], [("CloseBracketExpected", 2, 3), ("EndOfFileExpected", 3, 4)]),  # ends at `}`
    ("[1", [("number", 1, 2, 1)], [("CloseBracketExpected", 0, 1)]),
    ("[x, 2]", [("number", 4, 5, 2)], [("InvalidSymbol", 1, 2)]),
    ("[:, 2]", [("number", 4, 5, 2)], [("ValueExpected", 1, 2)]),
    ('[: "]" 3, 4]', [("number", 10, 11, 4)], [("ValueExpected", 1, 2)]),  # recovery skips the string
    ("[:X Y, 4]", [("number", 7, 8, 4)], [("ValueExpected", 1, 2)]),  # and everything else up to the `,`
    ("[1 :]", [("number", 1, 2, 1)], [("CommaExpected", 2, 2), ("ValueExpected", 3, 4)]),
    ("[: }", [], [("ValueExpected", 1, 2), ("CloseBracketExpected", 3, 4)]),
])
def test_array_recovery(text: str, items: list[Any], errors: list[Any]) -> None:
    node, found, _ = parse_tree(text)
    assert node is not None and node.kind == "array" and node.start == 0
    assert shape(node)[3] == items
    assert [(e.code, e.start, e.end) for e in found] == errors


def test_array_error_messages() -> None:
    assert {e.code: e.message for e in parse_tree("[,1 2,]")[1] + parse_tree("[1")[1]} == {
        "ValueExpected": "value expected", "CommaExpected": "`,` expected", "TrailingComma": "trailing comma",
        "CloseBracketExpected": "`]` expected"}
    assert parse_tree("[1}")[1] == [SyntaxIssue("CloseBracketExpected", "`]` expected", 2, 3)]


def test_jsonc_allows_trailing_commas_but_not_empty_members() -> None:
    assert errs("[1,]", jsonc=True) == [] and errs('{"a":1,}', jsonc=True) == []
    assert errs("[,]", jsonc=True) == [("ValueExpected", 1, 2)]
    assert errs("{,}", jsonc=True) == [("PropertyNameExpected", 1, 2)]


def test_the_same_error_at_the_same_place_is_reported_once() -> None:
    # A second error with the same code at the same start adds nothing (a recovery step can meet the
    # same problem twice); another code, or another place, is a new error.
    issues = [SyntaxIssue("X", "m", 1, 2)]
    st = P._State("", False, errors=issues)
    P._error(st, "X", "again", 1, 5)
    P._error(st, "Y", "other code", 1)
    P._error(st, "X", "other place", 2)
    assert st.errors == [SyntaxIssue("X", "m", 1, 2), SyntaxIssue("Y", "other code", 1, 1),
                         SyntaxIssue("X", "other place", 2, 2)]


# -- depth, laziness and the C-scanned path ------------------------------------------------------------

def test_containers_from_depth_two_are_lazy_and_the_skeleton_is_not() -> None:
    node = parse_tree("[[[1], {}]]")[0]
    assert node is not None and not node.is_lazy
    (mid,) = node.items  # type: ignore[misc]
    assert not mid.is_lazy
    inner, obj = mid.items  # type: ignore[misc]
    assert inner.is_lazy and obj.is_lazy
    assert shape(inner) == ("array", 2, 5, [("number", 3, 4, 1)]) and not inner.is_lazy  # built on first access
    assert shape(obj) == ("object", 7, 9, [])


def test_lazy_children_have_exact_offsets_and_kinds() -> None:
    inner = '{ "s" : "x\\"y" ,"n":-1.5e1, "t":true,"f" :false , "z": null,"o":{ "k" :[ ] },"a":[ 1 , "2",{}] }'
    text = "[[" + inner + "]]"
    node = parse_tree(text)[0].items[0].items[0]  # type: ignore[union-attr, index]
    assert node.is_lazy
    o = 2  # offset of `inner` in `text`
    expected = ("object", o, o + len(inner), [
        ("s", o + 2, o + 5, o + 6, ("string", o + 8, o + 14, 'x"y')),
        ("n", o + 16, o + 19, o + 19, ("number", o + 20, o + 26, -15.0)),
        ("t", o + 28, o + 31, o + 31, ("boolean", o + 32, o + 36, True)),
        ("f", o + 37, o + 40, o + 41, ("boolean", o + 42, o + 47, False)),
        ("z", o + 50, o + 53, o + 53, ("null", o + 55, o + 59, None)),
        ("o", o + 60, o + 63, o + 63, ("object", o + 64, o + 76, [
            ("k", o + 66, o + 69, o + 70, ("array", o + 71, o + 74, []))])),
        ("a", o + 77, o + 80, o + 80, ("array", o + 81, o + 94, [
            ("number", o + 83, o + 84, 1), ("string", o + 87, o + 90, "2"), ("object", o + 91, o + 93, [])])),
    ])
    assert shape(node) == expected
    assert json.loads(inner) == {"s": 'x"y', "n": -15.0, "t": True, "f": False, "z": None, "o": {"k": []},
                                 "a": [1, "2", {}]}


def test_the_c_scanner_refuses_what_must_be_reported() -> None:
    # Deep (lazy) containers with a duplicate key or a non-JSON constant go through the reporting path.
    node, errors, dups = parse_tree('[[{"a": 1, "a": 2}]]')
    assert dups == [RawDuplicate("a", (11, 14), (3, 6))] and errors == []
    assert not node.items[0].items[0].is_lazy  # type: ignore[union-attr, index]
    for word in ("NaN", "Infinity"):
        assert errs(f"[[[{word}]]]") == [("InvalidSymbol", 3, 3 + len(word))]
    assert errs("[[[-Infinity]]]") == [("InvalidNumberFormat", 3, 12)]
    assert P._pairs([("a", 1), ("b", 2)]) == {"a": 1, "b": 2}


def test_wide_but_shallow_containers_stay_lazy_near_the_depth_limit() -> None:
    # More than MAX_DEPTH brackets in total, but nested only two deep: the C scanner's result is kept.
    wide = "[" + ",".join(["[]"] * (P.MAX_DEPTH + 10)) + "]"
    node = parse_tree("[[" + wide + "]]")[0].items[0].items[0]  # type: ignore[union-attr, index]
    assert node.is_lazy and len(node.items) == P.MAX_DEPTH + 10  # type: ignore[arg-type]
    # Truly too deep for the lazy path: built by the recovering parser, which reports it.
    deep = "[" * (P.MAX_DEPTH - 1) + "]" * (P.MAX_DEPTH - 1)
    node, errors, _ = parse_tree("[[" + deep + "]]")
    assert [(e.code, e.start) for e in errors] == [("NestingTooDeep", P.MAX_DEPTH)]
    assert not node.items[0].items[0].is_lazy  # type: ignore[union-attr, index]
    ok = "[" * (P.MAX_DEPTH - 2) + "]" * (P.MAX_DEPTH - 2)  # exactly MAX_DEPTH levels in all: kept whole
    node, errors, _ = parse_tree("[[" + ok + "]]")
    assert errors == [] and node.items[0].items[0].is_lazy  # type: ignore[union-attr, index]
    # The same with one bracket more than levels (a sibling `[]`), so the exact depth has to be computed.
    ok = "[" * (P.MAX_DEPTH - 2) + "]" * (P.MAX_DEPTH - 3) + ",[]]"
    node, errors, _ = parse_tree("[[" + ok + "]]")
    assert errors == [] and node.items[0].items[0].is_lazy  # type: ignore[union-attr, index]


@pytest.mark.parametrize("text,depth", [
    ("[]", 1), ('"[[["', 0), ('[[], [[{}]], "[[[[", "\\"[[["]', 4), ('{"a": [{"b": []}]}', 4), ("1", 0),
    ("[[[], [[]]]]", 4),  # back up two levels, then down two: counted from where it is, not from level 1
])
def test_max_nesting_ignores_brackets_in_strings(text: str, depth: int) -> None:
    assert P._max_nesting(text) == depth


def test_lazy_max_bounds_the_size_of_a_lazy_container() -> None:
    def inner_node(size: int) -> Node:
        inner = '["' + "x" * (size - 4) + '"]'
        assert len(inner) == size
        return parse_tree("[[" + inner + "]]")[0].items[0].items[0]  # type: ignore[union-attr, index]
    assert inner_node(P._LAZY_MAX).is_lazy
    assert not inner_node(P._LAZY_MAX + 1).is_lazy


def test_deep_nesting_is_skipped_by_bracket_counting_respecting_strings() -> None:
    limit = P.MAX_DEPTH
    deep = "[" * 5 + '"]]]]]]", "\\"]]]]"' + "]" * 5  # brackets inside strings, an escaped quote
    text = "[" * limit + deep + ", 7" + "]" * (limit - 1) + ", " + "[" * (limit + 3) + "]" * (limit + 4)
    doc = ParsedDocument(text)
    # Reported once, though two containers are too deep.
    assert [(e.code, e.message, e.start, e.end) for e in doc.errors] == [
        ("NestingTooDeep", f"nesting deeper than {limit} levels is not analysed", limit, limit + 1)]
    inner = doc.value[0]
    for _ in range(limit - 2):
        inner = inner[0]
    assert inner == [7]  # the skipped container is left out; parsing goes on after it
    # An unterminated string inside the skipped part ends at its line end.
    text = "[" * (limit + 2) + '"]]]\n' + "]" * (limit + 2)
    assert [(e.code, e.start) for e in ParsedDocument(text).errors] == [("NestingTooDeep", limit)]


@pytest.mark.parametrize("skipped", [
    '["X]", 1]',  # a string ends at a quote or a line end, not at other characters
    '["\\\\", "]"]',  # an escape skips one character: `"\\"` is closed by its last quote
    "[X]", "[X, [1]]",  # only brackets open and close levels
])
def test_a_skipped_container_ends_at_its_own_closing_bracket(skipped: str) -> None:
    limit = P.MAX_DEPTH
    doc = ParsedDocument("[" * limit + skipped + ", 7" + "]" * limit)
    assert [(e.code, e.start, e.end) for e in doc.errors] == [("NestingTooDeep", limit, limit + 1)]
    inner = doc.value
    for _ in range(limit - 1):
        inner = inner[0]
    assert inner == [7]


def test_an_unterminated_string_in_a_skipped_container_ends_at_the_end_of_the_text() -> None:
    text = "[" * (P.MAX_DEPTH + 1) + '"abc'
    node, errors, _ = parse_tree(text)
    assert [(e.code, e.start, e.end) for e in errors] == [("NestingTooDeep", P.MAX_DEPTH, P.MAX_DEPTH + 1)] + [
        ("CloseBracketExpected", k, k + 1) for k in range(P.MAX_DEPTH - 1, -1, -1)]
    assert node is not None and node.end == len(text)


def test_deep_nesting_to_the_end_of_the_text() -> None:
    node, errors, _ = parse_tree("[" * (P.MAX_DEPTH + 5))
    assert errors[0] == SyntaxIssue("NestingTooDeep", f"nesting deeper than {P.MAX_DEPTH} levels is not analysed",
                                    P.MAX_DEPTH, P.MAX_DEPTH + 1)
    assert [e.code for e in errors[1:]] == ["CloseBracketExpected"] * P.MAX_DEPTH
    assert node is not None and node.end == P.MAX_DEPTH + 5


# -- parse_value_at (the incremental re-parse's entry point) ---------------------------------------------

def test_parse_value_at_parses_one_value_at_the_given_depth() -> None:
    node, end, errors, dups, deep = parse_value_at('xx[1, {"a": 2, "a": 3}] tail', 2, 0, False)
    assert shape(node) == ("array", 2, 23, [("number", 3, 4, 1), ("object", 6, 22, [
        ("a", 7, 10, 10, ("number", 12, 13, 2)), ("a", 15, 18, 18, ("number", 20, 21, 3))])])
    assert (end, errors, deep) == (23, [], False)
    assert dups == [RawDuplicate("a", (15, 18), (7, 10))]
    node, end, errors, dups, deep = parse_value_at("[[1]]", 0, P.MAX_DEPTH - 1, True)
    assert deep and [e.code for e in errors] == ["NestingTooDeep"] and end == 5
    assert shape(node) == ("array", 0, 5, [])
    node, end, errors, _, deep = parse_value_at("[1 // c\n]", 0, 0, True)
    assert shape(node) == ("array", 0, 9, [("number", 1, 2, 1)]) and errors == [] and not deep


# -- moving nodes (used when an edit before them shifts them) ----------------------------------------------

@pytest.mark.parametrize("text", ['{"a": [1, {"b": "c"}], "d": null}', '[[{"a": [1, {"b": "c"}]}], 2]'])
def test_a_shifted_node_has_every_offset_moved(text: str) -> None:
    node = parse_tree(text)[0]
    assert node is not None
    moved = node.shifted(3)  # read from the text they were parsed from, wherever they are now
    twice = moved.shifted(2)
    for delta, other in ((3, moved), (5, twice)):
        assert shape(other) == shape(parse_tree(" " * delta + text)[0])
    assert node.shifted(0) is node
    assert shape(node) == shape(parse_tree(text)[0])  # the original is untouched


def test_a_shifted_property_moves_its_key_colon_and_value() -> None:
    node = parse_tree('{"a": 1, "b" }')[0]
    a, b = node.properties  # type: ignore[union-attr, misc]
    a2, b2 = a.shifted(4), b.shifted(4)
    assert (a2.key, a2.key_start, a2.key_end, a2.colon, a2.value.start, a2.value.end) == ("a", 5, 8, 8, 10, 11)  # type: ignore[union-attr]
    assert (b2.key, b2.key_start, b2.key_end, b2.colon, b2.value) == ("b", 13, 16, None, None)


def test_node_repr() -> None:
    assert repr(Node("array", 2, 5)) == "Node(array, 2, 5)"


def test_reading_the_value_leaves_scanned_containers_unbuilt() -> None:
    # A C-scanned container's value is already decoded: the document's value takes it, without building
    # the container's children; a container moved by an edit keeps that value too.
    doc = ParsedDocument("[[[1, [2]], [3]]]")
    assert doc.value == [[[1, [2]], [3]]]
    first, second = doc.root.items[0].items  # type: ignore[union-attr, misc]
    assert first.is_lazy and second.is_lazy
    # `1` → `10` in a document whose value was not read yet (else the edited value is spliced from it): the
    # first container is parsed again, the second moved.
    edited = reparse(ParsedDocument(doc.text), 3, 4, "10")
    assert edited.text == "[[[10, [2]], [3]]]" and edited.changed_pointer == "/0/0"  # re-parsed there only
    assert edited.value == [[[10, [2]], [3]]]
    moved = edited.root.items[0].items[1]  # type: ignore[union-attr, index]
    assert (moved.start, moved.end) == (13, 16) and moved.is_lazy
    assert shape(moved) == ("array", 13, 16, [("number", 14, 15, 3)])


def test_children_of_a_scanned_container_hold_its_decoded_values_not_copies() -> None:
    # A tool list's tools are built eagerly, their parameters lazily: the nodes built on the way to a deep
    # place share the values the document already holds, so each value is in memory once.
    text = json.dumps([{"name": "t", "parameters": {"type": "object", "properties": {
        "a": {"type": "string", "enum": ["x", "y"], "description": "long text " * 20,
              "examples": ["first example", "second example"]}}}}])
    doc = ParsedDocument(text)
    value = doc.value
    a = value[0]["parameters"]["properties"]["a"]
    node = doc.node_at("/0/parameters/properties/a")
    assert node is not None and node.kind == "object"
    assert node._py is a
    description = doc.node_at("/0/parameters/properties/a/description")
    assert description is not None and description.value is a["description"]
    enum = doc.node_at("/0/parameters/properties/a/enum")
    assert enum is not None and enum._py is a["enum"]
    assert [n.value for n in enum.items or []] == ["x", "y"]
    # An array's items too (strings long enough not to be shared by the interpreter anyway).
    examples = doc.node_at("/0/parameters/properties/a/examples")
    assert examples is not None and examples._py is a["examples"]
    assert [n.value for n in examples.items or []] == a["examples"]
    assert all(n.value is v for n, v in zip(examples.items or [], a["examples"], strict=True))
