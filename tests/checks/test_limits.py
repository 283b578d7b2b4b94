"""Provider limits (TC6xx): each triggers just past the limit and not at it."""

from __future__ import annotations

import json
from typing import Any

from helpers import span_of
from toolcast.adapters.checks import CheckConfig, check_document

OPENAI = CheckConfig(targets=("openai",))


def _tool(parameters: dict[str, Any], name: str = "t", **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "d", "parameters": parameters, **extra}


def _codes(value: Any, config: CheckConfig) -> list[tuple[str, tuple[int, int]]]:
    text = json.dumps(value, indent=1)
    return [
        (f.code, f.span) for f in check_document(text, config=config).findings if f.code.startswith("TC6")
    ]


def _props(n: int, **schema: Any) -> dict[str, Any]:
    return {f"p{i}": {"type": "string", **schema} for i in range(n)}


def test_openai_strict_property_count() -> None:
    over = _tool({"type": "object", "properties": _props(5001), "required": [f"p{i}" for i in range(5001)]})
    text = json.dumps(over, indent=1)
    hits = [f for f in check_document(text, config=OPENAI).findings if f.code == "TC601"]
    assert [f.span for f in hits] == [span_of(text, '"parameters"')]
    at = _tool({"type": "object", "properties": _props(5000)})
    assert "TC601" not in dict(_codes(at, OPENAI))
    # Non-strict OpenAI has no such limit.
    assert "TC601" not in dict(
        _codes(
            over,
            CheckConfig(
                targets=("openai",),
                target_options={
                    "openai": __import__(
                        "toolcast.adapters.targets", fromlist=["TargetOptions"]
                    ).TargetOptions(strict=False)
                },
            ),
        )
    )


def _nested(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {"type": "object", "properties": {"a": node}, "required": ["a"], "additionalProperties": False}
    return node


def test_openai_strict_depth() -> None:
    assert "TC602" in dict(_codes(_tool(_nested(11)), OPENAI))
    assert "TC602" not in dict(_codes(_tool(_nested(10)), OPENAI))


def test_openai_strict_enum_values() -> None:
    over = _tool(
        {"type": "object", "properties": {"e": {"type": "string", "enum": [f"v{i}" for i in range(1001)]}}}
    )
    at = _tool(
        {"type": "object", "properties": {"e": {"type": "string", "enum": [f"v{i}" for i in range(1000)]}}}
    )
    assert "TC603" in dict(_codes(over, OPENAI))
    assert "TC603" not in dict(_codes(at, OPENAI))
    big = _tool(
        {
            "type": "object",
            "properties": {"e": {"type": "string", "enum": ["x" * 60 + str(i) for i in range(251)]}},
        }
    )
    assert "TC603" in dict(_codes(big, OPENAI))


def test_openai_strict_total_string_size() -> None:
    values = ["x" * 200 + str(i) for i in range(601)]  # > 120,000 characters, 601 values
    over = _tool({"type": "object", "properties": {"e": {"type": "string", "enum": values}}})
    assert "TC604" in dict(_codes(over, OPENAI))
    small = _tool({"type": "object", "properties": {"e": {"type": "string", "enum": values[:100]}}})
    assert "TC604" not in dict(_codes(small, OPENAI))


def _strict_anthropic(name: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return _tool(parameters, name=name, **{"x-toolcast": {"targets": {"anthropic": {"strict": True}}}})


ANTHROPIC = CheckConfig(targets=("anthropic",))


def test_anthropic_strict_tool_count() -> None:
    tools = [_strict_anthropic(f"t{i}", {"type": "object", "properties": {}}) for i in range(21)]
    text = json.dumps(tools)
    hits = [f for f in check_document(text, config=ANTHROPIC).findings if f.code == "TC605"]
    assert len(hits) == 1 and hits[0].tool_index == 20
    assert text[hits[0].span[0] : hits[0].span[1]] == json.dumps(tools[20])
    assert "TC605" not in dict(_codes(tools[:20], ANTHROPIC))
    # Not strict: no limit.
    plain = [_tool({"type": "object", "properties": {}}, name=f"t{i}") for i in range(21)]
    assert "TC605" not in dict(_codes(plain, ANTHROPIC))


def test_anthropic_strict_optional_and_union_budgets() -> None:
    opt = [
        _strict_anthropic("a", {"type": "object", "properties": _props(20)}),
        _strict_anthropic("b", {"type": "object", "properties": _props(5)}),
    ]
    text = json.dumps(opt)
    hits = [f for f in check_document(text, config=ANTHROPIC).findings if f.code == "TC606"]
    assert [f.tool_index for f in hits] == [1]
    assert hits[0].span == span_of(text, '"parameters"', 1)
    assert "TC606" not in dict(
        _codes([opt[0], _strict_anthropic("b", {"type": "object", "properties": _props(4)})], ANTHROPIC)
    )
    unions = [
        _strict_anthropic(
            "u",
            {
                "type": "object",
                "properties": _props(17, type=["string", "null"]),
                "required": [f"p{i}" for i in range(17)],
            },
        )
    ]
    assert "TC607" in dict(_codes(unions, ANTHROPIC))
    unions[0]["parameters"]["properties"].pop("p16")
    unions[0]["parameters"]["required"].remove("p16")
    assert "TC607" not in dict(_codes(unions, ANTHROPIC))


def test_gemini_function_count() -> None:
    config = CheckConfig(targets=("gemini",))
    tools = [
        _tool({"type": "object", "properties": {"a": {"type": "string"}}}, name=f"f{i}") for i in range(513)
    ]
    hits = [f for f in check_document(json.dumps(tools), config=config).findings if f.code == "TC608"]
    assert [f.tool_index for f in hits] == [512]
    assert not [
        f for f in check_document(json.dumps(tools[:512]), config=config).findings if f.code == "TC608"
    ]
