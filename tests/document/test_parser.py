"""The tolerant parser: structure survives mid-typing states; valid JSON parses exactly like json.loads."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolcast.adapters.document import ParsedDocument, parse
from toolcast.adapters.document import parser as parser_module

from .snapshot import snapshot

TOOL = '{"name": "get_weather", "description": "Get the weather", "parameters": {"type": "object"}}'

# A tool as typed in an editor: several lines, parameters with properties.
TYPED = """{
  "name": "get_weather",
  "description": "Get the weather",
  "parameters": {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"]
  }
}"""
PARAMS = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


def _state(old: str, new: str) -> str:
    assert old in TYPED
    return TYPED.replace(old, new, 1)


MID_TYPING = {
    # state: (text, expected recovered value, (first error code, start, end) with the range as text)
    "unterminated-string": (
        _state('"Get the weather",', '"Get the wea'),
        {"name": "get_weather", "description": "Get the wea", "parameters": PARAMS},
        ("UnexpectedEndOfString", '"Get the wea'),
    ),
    "missing-colon": (
        _state('"name": "get_weather"', '"name" "get_weather"'),
        {"name": "get_weather", "description": "Get the weather", "parameters": PARAMS},
        ("ColonExpected", ""),
    ),
    "missing-value": (
        _state('"name": "get_weather",', '"name": ,'),
        {"description": "Get the weather", "parameters": PARAMS},
        ("ValueExpected", ","),
    ),
    "half-typed-key": (
        _state('"description": "Get the weather",', '"description": "Get the weather",\n  "para'),
        {"name": "get_weather", "description": "Get the weather", "parameters": PARAMS},
        ("UnexpectedEndOfString", '"para'),
    ),
    "missing-comma": (
        _state('"get_weather",', '"get_weather"'),
        {"name": "get_weather", "description": "Get the weather", "parameters": PARAMS},
        ("CommaExpected", ""),
    ),
    "trailing-comma": (
        _state('"required": ["city"]', '"required": ["city"],'),
        {"name": "get_weather", "description": "Get the weather", "parameters": PARAMS},
        ("TrailingComma", ","),
    ),
    "key-without-opening-quote": (
        _state('"description":', 'description":'),
        {"name": "get_weather", "description": "Get the weather", "parameters": PARAMS},
        ("PropertyNameExpected", 'description"'),
    ),
    "unclosed-at-eof": (
        TYPED[: TYPED.index('"required"')],
        {"name": "get_weather", "description": "Get the weather",
         "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
        ("CloseBraceExpected", "{"),
    ),
}
EXPECTED_PLACE = {  # where the first error is: offset of this marker in the broken text
    "unterminated-string": ('"Get the wea', 0),
    "missing-colon": ('"name"', 6),
    "missing-value": (" ,", 1),
    "half-typed-key": ('"para', 0),
    "missing-comma": ('"get_weather"', 13),
    "trailing-comma": ('"city"],', 7),
    "key-without-opening-quote": ('description"', 0),
    "unclosed-at-eof": ('"parameters": {', 14),  # the innermost unclosed object (the outer one too)
}


@pytest.mark.parametrize("state", sorted(MID_TYPING))
def test_mid_typing_state_keeps_structure_and_reports_where(state: str) -> None:
    text, value, (code, covered) = MID_TYPING[state]
    doc = parse(text)
    assert doc.value == value
    marker, plus = EXPECTED_PLACE[state]
    start = text.index(marker) + plus
    # Errors are listed by position; the one this state causes is among them, exactly where expected.
    assert (code, start, start + len(covered)) in [(e.code, e.start, e.end) for e in doc.errors]
    assert text[start : start + len(covered)] == covered
    # The parameters object survives with its exact range.
    params = doc.span("/parameters")
    assert params is not None and text[params[0]] == "{"
    assert doc.span("/name", "key") == (text.index('"name"'), text.index('"name"') + 6)


def test_missing_value_before_the_closing_brace_and_in_arrays() -> None:
    doc = parse('{"a": 1, "b": }')
    assert doc.value == {"a": 1} and [(e.code, e.start, e.end) for e in doc.errors] == [("ValueExpected", 14, 15)]
    assert doc.span("/b") == (9, 12)  # no value: the key's range
    assert doc.span("/b", "property") == (9, 13)  # key and colon
    doc = parse("[1, , 2]")
    assert doc.value == [1, 2] and [(e.code, e.start) for e in doc.errors] == [("ValueExpected", 4)]


def test_jsonc_accepts_comments_and_trailing_commas_json_reports_them() -> None:
    text = '{\n  // the tool\n  "name": "x", /* inline */ "a": [1, 2,],\n}'
    assert parse(text, jsonc=True).errors == []
    assert parse(text, jsonc=True).value == {"name": "x", "a": [1, 2]}
    errors = parse(text).errors
    assert [(e.code, text[e.start : e.end]) for e in errors] == [
        ("InvalidCommentToken", "// the tool"),
        ("InvalidCommentToken", "/* inline */"),
        ("TrailingComma", ","),
        ("TrailingComma", ","),
    ]
    assert parse(text).value == {"name": "x", "a": [1, 2]}


def test_unterminated_block_comment() -> None:
    doc = parse('{"a": 1 /* no end', jsonc=True)
    assert doc.value == {"a": 1}
    assert sorted(e.code for e in doc.errors) == ["CloseBraceExpected", "UnexpectedEndOfComment"]


def test_duplicate_keys_last_wins_and_both_places_are_known() -> None:
    doc = parse('{"a": 1, "b": 2, "a": 3}')
    assert doc.value == {"a": 3, "b": 2}
    (dup,) = doc.duplicate_keys
    assert (dup.pointer, dup.span, dup.first) == ("/a", (17, 20), (1, 4))
    assert doc.span("/a") == (22, 23)  # the pointer names the value that counts
    nested = parse('[{"x": {"k~/": 1, "k~/": 2}}]')
    assert [(d.pointer, d.span) for d in nested.duplicate_keys] == [("/0/x/k~0~1", (18, 23))]
    assert nested.errors == []  # duplicates are not syntax errors


@pytest.mark.parametrize("opener,closer", [("[", "]"), ('{"a":', "}")])
def test_ten_thousand_levels_do_not_exhaust_the_stack(opener: str, closer: str) -> None:
    text = opener * 10_000 + "1" * (opener == '{"a":') + closer * 10_000
    doc = parse(text)
    assert [(e.code, e.start) for e in doc.errors] == [("NestingTooDeep", parser_module.MAX_DEPTH * len(opener))]
    assert doc.value is not None
    assert doc.location(len(text) // 2).pointer.count("/") <= parser_module.MAX_DEPTH
    unclosed = parse(opener * 10_000)
    assert {e.code for e in unclosed.errors} >= {"NestingTooDeep"}


def test_nesting_up_to_the_limit_is_kept_exactly() -> None:
    depth = parser_module.MAX_DEPTH
    text = "[" * depth + "]" * depth
    doc = parse(text)
    assert doc.errors == [] and doc.value == json.loads(text)
    wrapped = parse('{"tools": [' + text + "]}")  # deeper than the limit by two: reported
    assert [e.code for e in wrapped.errors] == ["NestingTooDeep"]


@pytest.mark.parametrize("text", ["\ufeff{\"a\": 1}", '{"a": "\\ud800"}', '{"a": "x\x00y"}', "\x00", "", "\ufeff",
                                  '"\\', '{"\\u12', "[1e999999, -1e999999, 1" + "0" * 5000 + "]", "{\x00: 1}"])
def test_odd_input_gives_errors_not_exceptions(text: str) -> None:
    doc = parse(text)
    for e in doc.errors:
        assert 0 <= e.start <= e.end <= len(text)
    _ = doc.value, doc.duplicate_keys, doc.location(len(text))


def test_bom_nul_and_control_characters() -> None:
    doc = parse('\ufeff{"a": 1}')
    assert doc.errors == [] and doc.value == {"a": 1} and doc.span("/a") == (7, 8)
    doc = parse('{"a": "x\x00y"}')
    assert doc.value == {"a": "x\x00y"}
    assert [(e.code, e.start, e.end) for e in doc.errors] == [("InvalidCharacter", 8, 9)]
    doc = parse('{"a": 1}\ufeff')
    assert [e.code for e in doc.errors] == ["InvalidSymbol"]


def test_lone_surrogates_and_pairs() -> None:
    assert parse('"\\ud800"').value == "\ud800"
    assert parse('"\\ud83d\\ude0b"').value == "😋"
    assert parse('"\\udc00\\ud800x"').value == "\udc00\ud800x"
    assert parse('["\\ud800"]').value == json.loads('["\\ud800"]')
    assert parse('"a\ud800b"').value == "a\ud800b"  # a lone surrogate in the text itself


def test_invalid_escapes_and_numbers_are_reported_where_they_are() -> None:
    doc = parse('{"a": "x\\qy", "b": 01, "c": -, "d": 1.}')
    found = [(e.code, doc.text[e.start : e.end]) for e in doc.errors]
    assert ("InvalidEscapeCharacter", "\\q") in found
    assert ("InvalidNumberFormat", "01") in found and ("InvalidNumberFormat", "-") in found
    assert ("InvalidNumberFormat", "1.") in found
    assert doc.value == {"a": "xy"}  # an invalid escape is left out of the value


def test_numbers_keep_int_and_float_like_json_loads() -> None:
    text = '[1, 1.0, -0, -0.0, 1e2, 1E-2, 12345678901234567890, 1e400, -1e400]'
    assert repr(parse(text).value) == repr(json.loads(text))


def test_spans_of_keys_values_and_properties() -> None:
    doc = parse(TOOL)
    assert doc.span("/name", "key") == (1, 7)
    assert doc.span("/name") == (9, 22)
    assert doc.span("/parameters/type", "property") == (TOOL.index('"type"'), TOOL.index('"object"') + 8)
    assert doc.span("", "key") is None and doc.span("") == (0, len(TOOL))
    assert doc.span("", "property") == (0, len(TOOL))
    assert doc.span("/missing") is None and doc.span("/name/x") is None and doc.span("name") is None
    node = doc.node_at("/parameters/type")
    assert node is not None and node.value == "object"


def test_array_element_spans_and_pointers() -> None:
    text = '[10, {"a": [true, null]}, "😋x"]'
    doc = parse(text)
    assert doc.span("/1/a/1") == (text.index("null"), text.index("null") + 4)
    assert doc.span("/2") == (text.index('"😋'), len(text) - 1)
    assert doc.span("/2", "key") is None
    assert doc.span("/01") is None and doc.span("/3") is None and doc.span("/-") is None


def test_location_on_keys_values_and_between_members() -> None:
    text = '{\n  "name": "x",\n  "parameters": {"type": "object", "properties": {}}\n}'
    doc = parse(text)
    on_key = doc.location(text.index('"parameters"') + 3)
    assert (on_key.pointer, on_key.is_key) == ("/parameters", True)
    on_value = doc.location(text.index('"object"') + 1)
    assert (on_value.pointer, on_value.is_key, on_value.node.value) == ("/parameters/type", False, "object")  # type: ignore[union-attr]
    between = doc.location(text.index('"x",') + 4)  # after the comma, before the next key
    assert (between.pointer, between.is_key) == ("", False) and between.node is doc.root
    empty = doc.location(text.index("{}") + 1)  # inside `properties: {}`
    assert (empty.pointer, empty.is_key) == ("/parameters/properties", False)
    assert doc.location(len(text) + 5).node is None


def test_lazy_and_eager_building_give_the_same_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """The C-scanner path (deep containers, built on demand) and the recovering path agree exactly."""
    text = json.dumps({"tools": [json.loads(TYPED)] * 3, "x": [[1.5, {"é😋": None}], "a\\\"b"]}, indent=1)
    lazy = snapshot(ParsedDocument(text))
    monkeypatch.setattr(parser_module, "EAGER_DEPTH", 10_000)
    assert snapshot(ParsedDocument(text)) == lazy


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values, st.sampled_from([None, 0, 2, "\t"]), st.booleans(), st.booleans())
def test_valid_json_parses_exactly_like_json_loads(value: object, indent: int | str | None, ascii_only: bool,
                                                   wrap: bool) -> None:
    if wrap:  # deep enough for the lazily built path
        value = [[{"v": value}]]
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    doc = ParsedDocument(text)
    assert doc.errors == []
    expected = json.loads(text)
    assert doc.value == expected
    assert repr(doc.value) == repr(expected)  # int vs float kept
    assert doc.span("") == (0, len(text))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from([*list('{}[]:,"\\ \n\rabcnul0123456789-.e/*\ufeff\x00'), "😋", "\ud800"]),
               max_size=60), st.booleans())
def test_structural_text_parses_without_raising(text: str, jsonc: bool) -> None:
    doc = ParsedDocument(text, jsonc=jsonc)
    for e in doc.errors:
        assert 0 <= e.start <= e.end <= len(text)
    _ = doc.value, doc.duplicate_keys
    for offset in range(0, len(text) + 1, 7):
        loc = doc.location(offset)
        if loc.pointer:
            assert doc.span(loc.pointer) is not None


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200))
def test_any_text_parses_without_raising(text: str) -> None:
    doc = ParsedDocument(text)
    assert all(0 <= e.start <= e.end <= len(text) for e in doc.errors)
    _ = doc.value
