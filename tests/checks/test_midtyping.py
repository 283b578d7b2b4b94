"""While the user types: the syntax error is reported where it is, and the semantic findings elsewhere in
the file are exactly those of the valid version (no flicker)."""

from __future__ import annotations

from typing import Any

import pytest
from cold_oracle import cold_findings, cold_report
from toolcast.adapters.checks import Analyzer, CheckConfig, Finding, check_document

CONFIG = CheckConfig(targets=("openai", "anthropic", "gemini"))

VALID = """[
  {
    "name": "get_weather",
    "description": "Current weather.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
  },
  {
    "name": "bad name",
    "description": "Second tool.",
    "parameters": {"type": "object", "properties": {"n": {"type": "int"}, "tags": {"type": "array"}},
                   "required": ["n", "ghost"]}
  }
]
"""

EDITED_LINE = '    "description": "Current weather.",\n'

#: The first tool's description line in each mid-typing state.
STATES = {
    "unterminated-string": '    "description": "Current weath\n',
    "missing-colon": '    "description" "Current weather.",\n',
    "missing-value": '    "description": ,\n',
    "half-typed-key": '    "descr\n',
    "missing-comma": '    "description": "Current weather."\n',
    "trailing-comma": EDITED_LINE,  # the comma is added after `parameters` below
}


def _second_tool(findings: tuple[Finding, ...], text: str, base: int) -> list[tuple[Any, ...]]:
    return [
        (
            f.code,
            f.pointer,
            f.target,
            f.span[0] - base,
            f.span[1] - base,
            text[f.span[0] : f.span[1]],
            [fx.title for fx in f.all_fixes()],
        )
        for f in findings
        if f.tool_index == 1
    ]


def test_valid_version_has_the_expected_semantic_findings() -> None:
    report = check_document(VALID, config=CONFIG)
    assert not [f for f in report.findings if f.code == "TC001"]
    codes = {f.code for f in report.findings if f.tool_index == 1}
    assert {"TC203", "TC204", "TC110", "TC302", "TC307"} <= codes


@pytest.mark.parametrize("state", list(STATES))
def test_syntax_error_is_local_and_other_findings_are_unchanged(state: str) -> None:
    broken = VALID.replace(EDITED_LINE, STATES[state])
    if state == "trailing-comma":
        broken = broken.replace('"required": ["city"]}\n  },', '"required": ["city"]},\n  },')
    assert broken != VALID, state
    # Both sides cold (a fresh analyzer each): with a warm one, the second tool's findings would come
    # from the memory of its (unchanged) text and the comparison would hold whatever the broken
    # document does to it.
    valid_report = cold_report(VALID, CONFIG)
    report = cold_report(broken, CONFIG)
    errors = [f for f in report.findings if f.code == "TC001"]
    assert errors, f"{state}: no syntax error reported"
    # Reported where it is: within the first tool (lines 1-5), never in the second one.
    second_tool_start = broken.index('  {\n    "name": "bad name"')
    edit_start = VALID.index(EDITED_LINE) - 1
    for e in errors:
        assert edit_start <= e.span[0] <= second_tool_start, (
            state,
            e.span,
            broken[e.span[0] : e.span[1] + 10],
        )
    base_valid = VALID.index('  {\n    "name": "bad name"')
    assert _second_tool(report.findings, broken, second_tool_start) == _second_tool(
        valid_report.findings, VALID, base_valid
    )
    assert {"TC110", "TC302", "TC307"} <= {row[0] for row in _second_tool(report.findings, broken, second_tool_start)}
    # The second tool is still listed, with its name.
    assert [t.name for t in report.tools][-1] == "bad name"


@pytest.mark.parametrize("state", list(STATES))
def test_typing_through_a_broken_state_warm_equals_cold(state: str) -> None:
    """The editor's path: one analyzer sees the valid text, the broken one, and the valid one again."""
    broken = VALID.replace(EDITED_LINE, STATES[state])
    if state == "trailing-comma":
        broken = broken.replace('"required": ["city"]}\n  },', '"required": ["city"]},\n  },')
    analyzer = Analyzer()
    for text in (VALID, broken, VALID):
        assert check_document(text, config=CONFIG, analyzer=analyzer).findings == cold_findings(text, CONFIG), state
