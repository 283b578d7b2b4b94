"""One verdict per (tool, target), over the real-world corpus and the edge-schema set: check has an error for a
target exactly when convert refuses it, and every loss that changes meaning in convert's output is a finding of
check; on the edge set, no input is refused whose exact equivalent (``normalise``) converts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from toolcast.adapters.convert import convert
from toolcast.adapters.loading import load_tools
from toolcast.adapters.targets import TARGETS, TargetOptions

from ..corpus.harness import corpus
from .agreement import disagreements
from .normalise import normalise

MODES = {"default": None, "strict": True, "non-strict": False}
EDGE_SET = Path(__file__).with_name("edge_schemas.json")


def edge_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(EDGE_SET.read_text(encoding="utf-8"))["cases"]
    return cases


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_check_and_convert_agree_on_the_corpus(mode: str) -> None:
    found = [f"{entry.key}: {d}" for entry in corpus()
             for d in disagreements(entry.document(), entry.load_shape, strict=MODES[mode])]
    assert found == [], f"{len(found)} disagreements, first: {found[:5]}"


@pytest.mark.parametrize("mode", MODES)
def test_check_and_convert_agree_on_the_edge_set(mode: str) -> None:
    found = [f"{case['id']}: {d}" for case in edge_cases()
             for d in disagreements(case["tool"], case.get("shape"), strict=MODES[mode])]
    assert found == [], f"{len(found)} disagreements, first: {found[:5]}"


@pytest.mark.parametrize("mode", MODES)
def test_no_edge_case_is_refused_where_its_exact_equivalent_converts(mode: str) -> None:
    strict = MODES[mode]
    found = []
    for case in edge_cases():
        params = case["tool"].get("parameters")
        if case.get("shape") is not None or not isinstance(params, dict) or normalise(params) == params:
            continue
        original = load_tools(case["tool"])[0].tool
        equivalent = load_tools({**case["tool"], "parameters": normalise(params)})[0].tool
        for target in TARGETS:
            refused = convert(original, target, TargetOptions(strict=strict)).refusal
            if refused is not None and convert(equivalent, target, TargetOptions(strict=strict)).ok:
                found.append(f"{case['id']} {target}: {refused.message}")
    assert found == []


def test_the_agreement_helper_sees_a_disagreement() -> None:
    """The helper is able to fail: a check error convert does not share, and a loss check does not report."""
    # TC306 (an example the parameters refuse) is an error of the source that no conversion refuses.
    document = {"name": "t", "description": "d", "examples": [{"n": "x"}],
                "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}}
    assert any("check errors ['TC306']" in d for d in disagreements(document, targets=("mcp",)))
