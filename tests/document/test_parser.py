"""The tolerant parser: structure survives mid-typing states; valid JSON parses exactly like json.loads."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolcast.adapters.document import parse

TOOL = '{"name": "get_weather", "description": "Get the weather", "parameters": {"type": "object"}}'

MID_TYPING = {
    # state: (text, expected recovered value, (error code, start, end))
    "unterminated-string": (
        '{"name": "x", "description": "Get the wea\n, "parameters": {"type": "object"}}',
        {"name": "x", "description": "Get the wea", "parameters": {"type": "object"}},
        ("UnexpectedEndOfString", 29, 41),
    ),
    "missing-colon": (
        '{"name" "x", "parameters": {"type": "object"}}',
        {"name": "x", "parameters": {"type": "object"}},
        ("ColonExpected", 7, 7),
    ),
    "missing-value": (
        '{"name": , "parameters": {"type": "object"}}',
        {"parameters": {"type": "object"}},
        ("ValueExpected", 9, 10),
    ),
    "half-typed-key": (
        '{"name": "x", "parameters": {"type": "object"}, "para',
        {"name": "x", "parameters": {"type": "object"}},
        ("UnexpectedEndOfString", 48, 53),
    ),
    "missing-comma": (
        '{"name": "x" "parameters": {"type": "object"}}',
        {"name": "x", "parameters": {"type": "object"}},
        ("CommaExpected", 12, 12),
    ),
    "trailing-comma": (
        '{"name": "x", "parameters": {"type": "object"},}',
        {"name": "x", "parameters": {"type": "object"}},
        ("TrailingComma", 46, 47),
    ),
}


@pytest.mark.parametrize("state", sorted(MID_TYPING))
def test_mid_typing_state_keeps_structure_and_reports_where(state: str) -> None:
    text, value, (code, start, end) = MID_TYPING[state]
    doc = parse(text)
    assert doc.value == value
    first = doc.errors[0]
    assert (first.code, first.start, first.end) == (code, start, end)


def test_jsonc_accepts_comments_and_trailing_commas_json_reports_them() -> None:
    text = '{\n  // the tool\n  "name": "x", /* inline */ "a": [1, 2,],\n}'
    assert parse(text, jsonc=True).errors == []
    assert parse(text, jsonc=True).value == {"name": "x", "a": [1, 2]}
    codes = [e.code for e in parse(text).errors]
    assert codes.count("InvalidCommentToken") == 2 and "TrailingComma" in codes


def test_duplicate_keys_last_wins_and_both_places_are_known() -> None:
    doc = parse('{"a": 1, "b": 2, "a": 3}')
    assert doc.value == {"a": 3, "b": 2}
    (dup,) = doc.duplicate_keys
    assert (dup.pointer, dup.span, dup.first) == ("/a", (17, 20), (1, 4))


def test_spans_of_keys_values_and_properties() -> None:
    doc = parse(TOOL)
    assert doc.span("/name", "key") == (1, 7)
    assert doc.span("/name") == (9, 22)
    assert doc.span("/parameters/type", "property") == (TOOL.index('"type"'), TOOL.index('"object"') + 8)
    assert doc.span("", "key") is None and doc.span("") == (0, len(TOOL))
    assert doc.span("/missing") is None
    loc = doc.location(TOOL.index('"object"') + 2)
    assert loc.pointer == "/parameters/type" and not loc.is_key
    assert doc.location(2).is_key


@pytest.mark.parametrize("opener,closer", [("[", "]"), ('{"a":', "}")])
def test_ten_thousand_levels_do_not_exhaust_the_stack(opener: str, closer: str) -> None:
    doc = parse(opener * 10_000 + "1" * (opener == '{"a":') + closer * 10_000)
    assert [e.code for e in doc.errors] == ["NestingTooDeep"]
    assert doc.value is not None


@pytest.mark.parametrize("text", ["\ufeff{\"a\": 1}", '{"a": "\\ud800"}', '{"a": "x\x00y"}', "\x00", ""])
def test_odd_input_gives_errors_not_exceptions(text: str) -> None:
    doc = parse(text)
    assert isinstance(doc.errors, list)


def test_lone_surrogate_escape_is_kept() -> None:
    assert parse('"\\ud800"').value == "\ud800"
    assert parse('"\\ud83d\\ude0b"').value == "😋"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values, st.sampled_from([None, 2]), st.booleans())
def test_valid_json_parses_exactly_like_json_loads(value: object, indent: int | None, ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    doc = parse(text)
    assert doc.errors == []
    expected = json.loads(text)
    assert doc.value == expected
    assert repr(doc.value) == repr(expected)  # int vs float kept


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from([*list('{}[]:,"\\ \n\rabcnul0123456789-.e/*'), "😋"]), max_size=60))
def test_any_text_parses_without_raising(text: str) -> None:
    doc = parse(text)
    for e in doc.errors:
        assert 0 <= e.start <= e.end <= len(text)
