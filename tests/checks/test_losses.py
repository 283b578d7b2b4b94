"""Feature-loss findings are exactly the losses ``convert()`` reports, for every target, over a generated
set of tools (one code path: the checks call the converter)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from loss_oracle import assert_explained, schema_in
from toolcast.adapters.checks import CheckConfig, check_document
from toolcast.adapters.convert import convert
from toolcast.adapters.convert.accept import RULES as JUDGE_RULES
from toolcast.adapters.loading import load_tools
from toolcast.adapters.rules.findings import Severity
from toolcast.adapters.targets import TARGETS

#: Property schemas that exercise lowering, folding, dropping and rejection somewhere.
PROPERTY_POOL: list[dict[str, Any]] = [
    {"type": "string"},
    {"type": "string", "const": "celsius"},
    {"type": "string", "minLength": 2, "maxLength": 5, "pattern": "^[a-z]+$"},
    {"type": "string", "format": "uri"},
    {"type": "string", "format": "date-time"},
    {"type": "integer", "minimum": 0, "maximum": 10, "multipleOf": 2},
    {"type": "integer", "enum": [1, 2, 3]},
    {"type": ["string", "null"]},
    {"type": "number", "exclusiveMinimum": 0, "default": 1},
    {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3, "uniqueItems": True},
    {"type": "object", "additionalProperties": {"type": "string"}},
    {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
    {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    {"oneOf": [{"type": "string"}, {"type": "boolean"}]},
    {
        "allOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}},
            {"type": "object", "properties": {"b": {"type": "string"}}},
        ]
    },
    {"$ref": "#/$defs/City"},
    {"$ref": "#/$defs/City", "description": "with a sibling"},
    {"not": {"type": "null"}},
]


def make_tool(props: dict[str, dict[str, Any]], required: list[str], name: str = "t") -> dict[str, Any]:
    params: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        params["required"] = required
    if any("$ref" in json.dumps(p) for p in props.values()):
        params["$defs"] = {"City": {"type": "string", "minLength": 1}}
    return {"name": name, "description": "A tool.", "parameters": params}


FIXED_SET = [make_tool({f"p{i}": p}, [f"p{i}"] if i % 2 else []) for i, p in enumerate(PROPERTY_POOL)] + [
    make_tool({f"p{i}": p for i, p in enumerate(PROPERTY_POOL)}, ["p0", "p3"], name="everything")
]


def _loss_key(d: dict[str, Any]) -> str:
    return json.dumps(d, sort_keys=True)


def _check(tool: dict[str, Any], target: str) -> None:
    text = json.dumps(tool, indent=2)
    conversion = convert(load_tools(tool)[0].tool, target)
    expected = Counter(_loss_key(loss.to_dict()) for loss in conversion.losses)
    report = check_document(text, config=CheckConfig(targets=(target,), select=("TC",)))  # TC501 is opt-in
    got = Counter(_loss_key(f.data["loss"]) for f in report.findings if f.code.startswith("TC5"))
    assert got == expected
    # Independently of the converter's bookkeeping: every keyword of the tool that the output does not carry
    # unchanged is named by one of those losses (an enclosing schema's loss excuses nothing).
    if conversion.ok:
        assert_explained(tool["parameters"], schema_in(target, conversion.output), conversion.losses,
                         conversion.roundtrip, target)
    for f in report.findings:
        if f.code.startswith("TC5"):
            assert f.target == target
            assert text[f.span[0] : f.span[1]]  # placed on real text
            loss = f.data["loss"]
            judged = loss["keyword"] in JUDGE_RULES  # the output's judge refused it (by its rule, not a keyword)
            want = ("TC506" if judged else "TC505") if loss["action"] == "rejected" else {
                "neutral": "TC501",
                "widening": "TC502",
                "narrowing": "TC503",
                "unsatisfiable": "TC504",
            }[loss["effect"]]
            if want == "TC503" and loss["keyword"] == "additionalProperties" and loss["value"] is None:
                want = "TC510"  # strict mode closing an object the source left open: its own code
            assert f.code == want


@pytest.mark.parametrize("target", TARGETS)
def test_loss_findings_equal_convert_losses_on_a_fixed_set(target: str) -> None:
    for tool in FIXED_SET:
        _check(tool, target)


def test_the_fixed_set_produces_losses_at_all() -> None:
    total = sum(len(convert(load_tools(t)[0].tool, target).losses) for t in FIXED_SET for target in TARGETS)
    assert total > 20


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.lists(st.sampled_from(range(len(PROPERTY_POOL))), min_size=1, max_size=5),
    required_mask=st.lists(st.booleans(), min_size=5, max_size=5),
    target=st.sampled_from(TARGETS),
)
def test_loss_findings_equal_convert_losses_generated(
    picks: list[int], required_mask: list[bool], target: str
) -> None:
    props = {f"p{n}": PROPERTY_POOL[i] for n, i in enumerate(picks)}
    required = [name for name, req in zip(props, required_mask, strict=False) if req]
    _check(make_tool(props, required), target)


def test_loss_findings_land_on_the_lost_keyword() -> None:
    tool = make_tool({"unit": {"type": "string", "const": "celsius"}}, ["unit"])
    text = json.dumps(tool, indent=2)
    report = check_document(text, config=CheckConfig(targets=("gemini",), select=("TC",)))
    hits = [f for f in report.findings if f.code.startswith("TC5") and f.data["loss"]["keyword"] == "const"]
    assert hits, [f.data.get("loss") for f in report.findings]
    assert all(text[f.span[0] : f.span[1]] == '"const"' for f in hits)


def _expanded(finding: Any) -> list[str]:
    """The per-target losses one (possibly shared) finding stands for."""
    first = finding.data["loss"]
    out = []
    for target in finding.targets:
        loss = dict(first, target=target, message=first["message"].replace(first["target"], target))
        out.append(_loss_key(loss))
    return out


def test_targets_that_lose_a_keyword_the_same_way_share_one_finding() -> None:
    for tool in FIXED_SET:
        text = json.dumps(tool, indent=2)
        canonical = load_tools(tool)[0].tool
        expected = Counter(
            _loss_key(loss.to_dict()) for target in TARGETS for loss in convert(canonical, target).losses
        )
        report = check_document(text, config=CheckConfig(targets_named=True, select=("TC",)))
        losses = [f for f in report.findings if f.code.startswith("TC5")]
        got = Counter(key for f in losses for key in _expanded(f))
        assert got == expected
    shared = check_document(json.dumps(FIXED_SET[-1]), config=CheckConfig(targets_named=True, select=("TC",)))
    assert any(len(f.targets) > 1 for f in shared.findings), "some keyword is lost by several targets alike"


def test_neutral_rewrites_are_opt_in() -> None:
    tool = make_tool({"unit": {"type": "string", "const": "celsius"}}, ["unit"])
    text = json.dumps(tool, indent=2)
    assert not [f for f in check_document(text).findings if f.code == "TC501"]
    assert [f for f in check_document(text, config=CheckConfig(select=("TC501",))).findings if f.code == "TC501"]
    assert [f for f in check_document(text, config=CheckConfig(severities={"TC501": Severity.WARNING})).findings
            if f.code == "TC501" and f.severity == Severity.WARNING]


def test_a_finding_the_configuration_turns_off_is_never_made() -> None:
    """The per-tool results the analyzer keeps hold only findings the configuration shows: TC501 is most
    of an ordinary tool's losses, and keeping what is dropped later costs a check's memory and time."""
    from toolcast.adapters.checks import Analyzer

    tool = make_tool({"unit": {"type": "string", "const": "celsius", "format": "uri"}}, ["unit"])
    text = json.dumps(tool, indent=2)

    def kept(config: CheckConfig) -> set[str]:
        analyzer = Analyzer()
        check_document(text, config=config, analyzer=analyzer)
        return {raw.code for result in analyzer.tool_results.values() for raw in result.raws}

    assert "TC501" not in kept(CheckConfig())
    assert "TC501" in kept(CheckConfig(select=("TC501",)))
    assert kept(CheckConfig(ignore=("TC5",))) == set()
