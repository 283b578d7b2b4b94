"""No input crashes toolcast: arbitrary JSON values and text, mutations of the test suite's tool files
and hostile shapes go through the parser, the checks and ``convert()`` for every target, and each
gives a result or a ``ToolcastError`` (pytest-timeout bounds every test, so a hang fails it)."""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolcast.adapters.checks import CheckConfig, check_document
from toolcast.adapters.convert import convert
from toolcast.adapters.document import parse
from toolcast.adapters.errors import ToolcastError
from toolcast.adapters.loading import load_tools
from toolcast.adapters.targets import TARGETS

FIXTURES = sorted((Path(__file__).parents[1] / "fixtures").glob("*.json"))
ODD = ["\ud800", "\udfff", "\x00", "\ufeff", "\u2028", "\r", "😋", "\\", '"', "\\u0000", "\\ud83d"]
KEYWORDS = ["type", "properties", "required", "items", "anyOf", "oneOf", "allOf", "not", "$ref", "$defs",
            "enum", "const", "format", "pattern", "minimum", "maxLength", "additionalProperties", "nullable",
            "description", "default", "examples", "prefixItems", "if", "then", "else", "$anchor", "$id"]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def exercise(value: Any) -> None:
    """Check the JSON text of ``value`` and convert whatever loads, for every target and mode."""
    text = json.dumps(value, ensure_ascii=False)
    report = check_document(text, config=CheckConfig(select=("TC",)))
    for f in report.findings:
        assert 0 <= f.span[0] <= f.span[1] <= len(text)
    try:
        loaded = load_tools(value)
    except ToolcastError:
        return
    for lt in loaded:
        for target in TARGETS:
            try:
                conversion = convert(lt.tool, target)
            except ToolcastError:
                continue
            json.dumps(conversion.output)  # plain JSON, whatever went in


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8) | st.sampled_from(KEYWORDS),
                                                              kids, max_size=5),
    max_leaves=30,
)

schemas = st.recursive(
    st.fixed_dictionaries({"type": st.sampled_from(["string", "integer", "number", "boolean", "null", "object",
                                                    "array", "strin", "STRING"])}),
    lambda kids: st.dictionaries(st.sampled_from(KEYWORDS), kids | st.lists(kids, max_size=3) | json_values,
                                 max_size=5),
    max_leaves=20,
)


@SETTINGS
@given(value=json_values)
def test_arbitrary_json_values(value: Any) -> None:
    exercise(value)


@SETTINGS
@given(params=schemas, name=st.text(max_size=12) | st.sampled_from(["get_weather", "a.b", "x" * 70]),
       shape=st.sampled_from(["canonical", "openai", "anthropic", "mcp", "gemini", "bedrock"]))
def test_arbitrary_tool_schemas_in_every_shape(params: Any, name: str, shape: str) -> None:
    tool: dict[str, Any] = {"name": name, "description": "d", "parameters": params}
    wrapped = {
        "canonical": tool,
        "openai": {"type": "function", "function": tool},
        "anthropic": {"name": name, "description": "d", "input_schema": params},
        "mcp": {"name": name, "inputSchema": params},
        "gemini": {"functionDeclarations": [tool]},
        "bedrock": {"toolSpec": {"name": name, "inputSchema": {"json": params}}},
    }[shape]
    exercise(wrapped)


@SETTINGS
@given(text=st.lists(st.characters() | st.sampled_from(ODD + list('{}[]:,"0tfn ')), max_size=300).map("".join))
def test_arbitrary_text(text: str) -> None:
    report = check_document(text)
    assert all(0 <= f.span[0] <= f.span[1] <= len(text) for f in report.findings)
    parse(text, jsonc=True)


def test_prefixes_and_mutations_of_every_fixture() -> None:
    rng = random.Random(7)
    for path in FIXTURES:
        text = path.read_text(encoding="utf-8")
        for end in range(0, len(text) + 1, max(1, len(text) // 150)):
            check_document(text[:end])
        for _ in range(40):
            chars = list(text)
            for _ in range(rng.randrange(1, 5)):
                at = rng.randrange(len(chars) + 1)
                if rng.random() < 0.5:
                    chars.insert(at, rng.choice(ODD + list('{}[]:,"')))
                elif chars:
                    del chars[min(at, len(chars) - 1)]
            mutated = "".join(chars)
            check_document(mutated)
            with contextlib.suppress(ValueError):  # not JSON any more: the check above was the test
                exercise(json.loads(mutated))


def _nested(depth: int, kind: str) -> str:
    if kind == "array":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


def test_ten_thousand_levels_of_nesting() -> None:
    for kind in ("array", "object"):
        text = _nested(10_000, kind)
        report = check_document(text)
        assert report.findings  # reported (too deep / not a tool), never a RecursionError
        schema = _nested(10_000, "object").replace('"a":', '"properties":{"a":', 1)
        check_document('{"name": "deep", "description": "d", "parameters": ' + schema + "}")
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(3_000):
        deep = {"type": "object", "properties": {"a": deep}}
    tool = load_tools({"name": "deep", "description": "d", "parameters": deep})[0].tool
    for target in TARGETS:
        with contextlib.suppress(ToolcastError):  # refused for depth is fine; a crash is not
            convert(tool, target)


def test_ref_cycles_chains_and_self_references() -> None:
    for length in range(1, 6):
        defs = {f"D{i}": {"$ref": f"#/$defs/D{(i + 1) % length}"} for i in range(length)}
        exercise({"name": "cycle", "description": "d", "parameters": {
            "type": "object", "properties": {"a": {"$ref": "#/$defs/D0"}}, "$defs": defs}})
    chain = {f"C{i}": {"$ref": f"#/$defs/C{i + 1}"} for i in range(1_000)}
    chain["C1000"] = {"type": "string"}
    exercise({"name": "chain", "description": "d", "parameters": {
        "type": "object", "properties": {"a": {"$ref": "#/$defs/C0"}}, "$defs": chain}})
    exercise({"name": "self", "description": "d", "parameters": {
        "type": "object", "properties": {"n": {"$ref": "#/$defs/Node"}},
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"},
                                                            "all": {"$ref": "#"}}}}}})
    # Exponential fan-out: each level refers to the next twice.
    fan = {f"F{i}": {"anyOf": [{"$ref": f"#/$defs/F{i + 1}"}, {"$ref": f"#/$defs/F{i + 1}"}]} for i in range(40)}
    fan["F40"] = {"type": "string"}
    exercise({"name": "fan", "description": "d", "parameters": {
        "type": "object", "properties": {"a": {"$ref": "#/$defs/F0"}}, "$defs": fan}})


def test_duplicate_keys_odd_characters_and_bom() -> None:
    for text in ('{"name": "a", "name": "b", "description": "d", "parameters": {"type": "object"}}',
                 '\ufeff{"name": "a", "description": "d\u0000\ud800", "parameters": {"type": "object"}}',
                 '{"name": "\ud83d", "description": "\\ud800", "parameters": {"type": "object", "\x00": 1}}'):
        report = check_document(text)
        assert all(0 <= f.span[0] <= f.span[1] <= len(text) for f in report.findings)


def test_invalid_utf8_on_disk_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tool.json"
    bad.write_bytes(b'{"name": "\xff\xfe", "description": "d"}')
    exe = Path(sys.executable).parent / "toolcast"
    for args in (["check", str(bad)], ["convert", str(bad), "--to", "anthropic"]):
        run = subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=60)
        assert run.returncode == 2, run.stdout + run.stderr
        assert "Traceback" not in run.stderr and "UTF-8" in (run.stdout + run.stderr)
