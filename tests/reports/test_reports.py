"""Each public report of ``cases.json`` is a test: toolcast must *solve* it (an error, or for a case about converting
a loss or a refusal, at the place the report's error names; see ``classify.py``). The cases toolcast does not solve
yet are strict xfails saying what it does instead, so a case that becomes solved fails until its marker goes.

In process for every case (``toolcast.check`` with the case's selection in ``toolcast.toml``, and the converter
``toolcast convert`` calls); three cases also as real ``toolcast check``/``convert`` processes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from toolcast.adapters import pointer as jp

from .classify import MISSED, SOLVED, WARNED, Outcome, Seen, classify, names_place
from .runs import load_cases, run_cli, run_library, tools_of

CASES = load_cases()
BY_ID = {c["id"]: c for c in CASES}

# What toolcast does today with each case it does not solve (bench/reports.py prints the same).
NOT_YET: dict[str, str] = {
    "deepseek-regex-nested-class": "warned only: DeepSeek's pattern rule is unclear (TC511 is a warning)",
    "host-non-ecmascript-pattern": "warned only: TC511 for the mcp target is a warning (convert states the pattern "
                                   "in the description)",
    "host-pattern-invalid-with-u-flag": "warned only: TC511 for the mcp target is a warning (convert states the "
                                        "pattern in the description)",
    "codex-object-without-properties": "warned only: Codex CLI adds `properties` itself since openai/codex#1150 "
                                       "(2025-05), so no rule says it rejects the tool; TC108 warns",
    "vscode-type-list-array-without-items": "warned only: an array member of a type list without items is info/warning",
    "dangling-ref-in-output-schema": "warned only: a $ref to no definition is a warning",
    "claude-code-dotted-server-name": "missed: a host-prefixed name is not checked against the target's characters",
    "claude-code-tool-name-with-spaces": "warned only: a space in a tool name is a warning",
    "dotted-tool-name-grammar": "warned only: a dot in a tool name is a warning (convert renames it)",
    "antigravity-50-tools": "missed: no profile for Google Antigravity",
    "cursor-first-40-tools": "warned only: Cursor's 40-tool cut is a warning",
}

#: Run as real processes as well: a check error, a convert loss, and a host toolcast does not know yet.
THROUGH_THE_CLI = ("claude-code-root-anyof", "openai-strict-open-nested-object", "copilot-cli-dotted-tool-name")


def _params(ids: Any) -> list[Any]:
    return [pytest.param(BY_ID[i], id=i, marks=[pytest.mark.xfail(strict=True, reason=NOT_YET[i])]
                         if i in NOT_YET else []) for i in ids]


def _assert_solved(case: dict[str, Any], outcome: Outcome) -> None:
    verdict = classify(case, outcome)
    assert verdict.verdict == SOLVED, f"{case['source']}: {verdict.verdict} ({verdict.why}); it said: {case['error']}"


@pytest.mark.parametrize("case", _params(BY_ID))
def test_report_is_solved(case: dict[str, Any], tmp_path: Path) -> None:
    _assert_solved(case, run_library(case, tmp_path))


@pytest.mark.parametrize("case", _params(THROUGH_THE_CLI))
def test_report_through_the_command_line(case: dict[str, Any], tmp_path: Path) -> None:
    _assert_solved(case, run_cli(case, tmp_path))


def test_every_unsolved_marker_names_a_case() -> None:
    assert set(NOT_YET) <= set(BY_ID)
    assert all(reason.startswith(("missed: ", "warned only: ")) for reason in NOT_YET.values())


# --- the set itself ------------------------------------------------------------------------------------------

def test_the_set_holds_at_least_32_distinct_public_reports() -> None:
    assert len(CASES) >= 32
    assert len({c["id"] for c in CASES}) == len(CASES)
    assert len({c["source"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_is_complete_and_its_expected_place_exists(case: dict[str, Any]) -> None:
    repo, number = case["source"].split("#")
    assert re.fullmatch(rf"https://github\.com/{re.escape(repo)}/(issues|pull)/{number}", case["link"])
    assert re.fullmatch(r"202[56]-\d\d-\d\d", case["date"])
    assert case["schema_from"] in ("report", "rebuilt from text")
    assert case["consumer"] and case["error"] and len(case["why"]) > 40
    assert case["flags"]["target"], "a target keeps other providers' findings out of the verdict"
    expect = case["expect"]
    document = json.loads(json.dumps(tools_of(case)))
    assert _exists(document, expect["pointer"]), f"{expect['pointer']} is not in the case's tool file"
    assert names_place(expect["pointer"], expect) and expect["pointer"].startswith(expect.get("up_to", ""))


def _exists(document: Any, pointer: str) -> bool:
    node = document
    for part in jp.parts(pointer):
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return False
    return True


# --- the classifier --------------------------------------------------------------------------------------------

EXPECT = {"pointer": "/0/inputSchema/properties/kind/enum/0", "up_to": "/0/inputSchema/properties/kind/enum"}
CASE = {"flags": {"target": ["gemini"]}, "expect": EXPECT}


def _seen(pointer: str, severity: str = "error", code: str = "TC999", target: str | None = "gemini") -> Seen:
    return Seen(pointer, severity, code, target)


@pytest.mark.parametrize(("pointer", "counts"), [
    ("/0/inputSchema/properties/kind/enum/0", True),  # at it
    ("/0/inputSchema/properties/kind/enum", True),  # above it, at up_to
    ("/0/inputSchema/properties/kind", False),  # above up_to
    ("/0/inputSchema/properties/kind/enum/1", False),  # a sibling
    ("/0/inputSchema/properties/kind/enum/0/x", True),  # below it
    ("/0/inputSchema/properties/kindred/enum/0", False),  # a name that only starts the same
])
def test_a_finding_counts_only_at_below_or_just_above_the_place(pointer: str, counts: bool) -> None:
    assert (classify(CASE, Outcome(findings=(_seen(pointer),))).verdict == SOLVED) is counts


def test_a_count_case_takes_no_finding_below_its_place() -> None:
    count = {"flags": {"target": ["openai"]}, "expect": {"pointer": "/40", "up_to": "", "below": False}}
    assert classify(count, Outcome(findings=(_seen("/40", target="openai"),))).verdict == SOLVED
    assert classify(count, Outcome(findings=(_seen("", target="openai"),))).verdict == SOLVED
    assert classify(count, Outcome(findings=(_seen("/40/inputSchema", target="openai"),))).verdict == MISSED
    assert classify(count, Outcome(findings=(_seen("/41", target="openai"),))).verdict == MISSED


def test_severity_target_family_and_selection_decide_the_verdict() -> None:
    at = "/0/inputSchema/properties/kind/enum/0"
    assert classify(CASE, Outcome(findings=(_seen(at, "warning"),))).verdict == WARNED
    assert classify(CASE, Outcome(findings=(_seen(at, target="openai"),))).verdict == MISSED
    assert classify(CASE, Outcome(findings=(_seen(at, target=None),))).verdict == SOLVED
    assert classify(CASE, Outcome(selection_refused="unknown host", findings=(_seen(at),))).verdict == MISSED
    family = {**CASE, "expect": {**EXPECT, "family": "TC9", "finding_target": [None]}}
    assert classify(family, Outcome(findings=(_seen(at, code="TC301", target=None),))).verdict == MISSED
    assert classify(family, Outcome(findings=(_seen(at, code="TC902", target="gemini"),))).verdict == MISSED
    assert classify(family, Outcome(findings=(_seen(at, code="TC902", target=None),))).verdict == SOLVED


def test_a_loss_or_a_refusal_counts_only_when_convert_ran() -> None:
    loss = Outcome(loss_pointers=("/0/inputSchema/properties/kind/enum",))
    assert classify(CASE, loss).verdict == MISSED
    assert classify(CASE, Outcome(converted=True, loss_pointers=loss.loss_pointers)).verdict == SOLVED
    assert classify(CASE, Outcome(converted=True, loss_pointers=("/0/inputSchema/properties/kind",))).verdict == MISSED
    assert classify(CASE, Outcome(converted=True, refused="gemini: `enum`")).verdict == SOLVED
