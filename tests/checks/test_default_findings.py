"""What `toolcast check` reports by default: strict mode closing an open object is information (TC510), a
warning when selected; a tool without parameters gets no narrowing finding for any target; a description
cut to a provider's limit is a widening, not neutral."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from toolcast.adapters.checks import CheckConfig, check_document
from toolcast.adapters.checks.config import load_config
from toolcast.adapters.convert import convert
from toolcast.adapters.loading import load_tools
from toolcast.adapters.targets import TARGETS

OPEN = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


def doc(parameters: Any = None, description: str = "Current weather.") -> str:
    tool: dict[str, Any] = {"name": "get_weather", "description": description}
    if parameters is not None:
        tool["parameters"] = parameters
    return json.dumps(tool, indent=2)


def codes(text: str, config: CheckConfig | None = None) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for f in check_document(text, config=config).findings:
        out.setdefault(f.code, set()).add(f.severity.value)
    return out


def test_the_strict_closure_is_information_by_default_and_still_in_convert() -> None:
    found = codes(doc(OPEN))
    assert found.get("TC510") == {"info"}
    assert "TC503" not in found  # no narrowing warning for what every strict converter does
    conv = convert(load_tools(json.loads(doc(OPEN)))[0].tool, "openai")
    assert [(loss.keyword, loss.effect.value) for loss in conv.losses] == [("additionalProperties", "narrowing")]


def test_the_strict_closure_is_a_warning_for_a_user_who_selects_it(tmp_path: Path) -> None:
    (tmp_path / "toolcast.toml").write_text('select = ["TC510"]\n', encoding="utf-8")
    config, problems = load_config(tmp_path)
    assert problems == []
    assert codes(doc(OPEN), config) == {"TC510": {"warning"}}
    # an explicit severity still wins, and selecting the family does not raise it
    assert codes(doc(OPEN), CheckConfig(select=("TC510",), severities={"TC510": None})) == {}
    assert codes(doc(OPEN), CheckConfig(select=("TC5",))).get("TC510") == {"info"}


def test_a_map_closed_by_strict_mode_stays_a_narrowing_warning() -> None:
    mapped = {"type": "object", "properties": {"tags": {"type": "object", "additionalProperties": {"type": "string"}}},
              "required": ["tags"], "additionalProperties": False}
    assert codes(doc(mapped), CheckConfig(targets=("openai",))).get("TC503") == {"warning"}


@pytest.mark.parametrize("parameters", [None, {"type": "object"}, {"type": "object", "properties": {}},
                                        {"type": "object", "properties": {}, "required": []}])
def test_a_tool_without_parameters_has_no_narrowing_finding_for_any_target(parameters: Any) -> None:
    report = check_document(doc(parameters))
    assert not [f.message for f in report.findings if f.code in ("TC503", "TC510")]
    tool = load_tools(json.loads(doc(parameters)))[0].tool
    for target in TARGETS:
        assert not [loss.message for loss in convert(tool, target).losses if loss.effect.value == "narrowing"], target


def test_a_description_cut_to_the_limit_is_one_warning_and_a_widening_loss() -> None:
    text = doc({**OPEN, "additionalProperties": False}, description="Weather. " * 200)
    found = check_document(text).findings
    (too_long,) = [f for f in found if f.pointer == "/description"]  # one finding for one fact
    assert too_long.code == "TC609" and set(too_long.data["targets"]) == {"openai", "openai-responses"}
    # with TC609 turned off, the loss itself is the warning, a widening
    (cut,) = [f for f in check_document(text, config=CheckConfig(ignore=("TC609",))).findings
              if f.pointer == "/description"]
    assert cut.code == "TC502" and cut.data["loss"]["effect"] == "widening" and "cut to" in cut.message
    conv = convert(load_tools(json.loads(text))[0].tool, "openai")
    assert [loss.effect.value for loss in conv.losses if loss.keyword == "description"] == ["widening"]
