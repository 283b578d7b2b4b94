"""Numbers beyond a double (``1e999``, a 100,000-digit integer): JSON allows them, the parsers providers
use read them as infinity or refuse them. toolcast reports them (TC005), never writes ``Infinity`` (not
JSON), and does not take the infinity for the value (no false TC305)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from toolcast.adapters.errors import ToolcastError
from toolcast.adapters.targets import TARGETS
from toolcast.server.output import render

from tests.adversarial.bounded import toolcast

HUGE_INT = "9" * 100_000


def _tool(tmp_path: Path, properties: str) -> Path:
    path = tmp_path / "big.tool.json"
    path.write_text('{"name": "big", "description": "A tool with big numbers.", "parameters": {"type": "object", '
                    '"properties": {' + properties + '}, "required": ["a"], "additionalProperties": false}}',
                    encoding="utf-8")
    return path


@pytest.mark.parametrize(("properties", "pointer"), [
    ('"a": {"type": "number", "maximum": 1e999}', "/parameters/properties/a/maximum"),
    ('"a": {"type": "number", "minimum": -1e400}', "/parameters/properties/a/minimum"),
    ('"a": {"type": "integer", "default": ' + HUGE_INT + "}", "/parameters/properties/a/default"),
    ('"a": {"type": "integer", "maximum": 1' + "0" * 400 + "}", "/parameters/properties/a/maximum"),
])
def test_a_number_beyond_a_double_is_an_error_and_no_false_finding(tmp_path: Path, properties: str,
                                                                   pointer: str) -> None:
    out = toolcast("check", "--format", "json", str(_tool(tmp_path, properties)), timeout=60)
    assert not out.timed_out, out
    assert out.returncode == 1, out
    findings = json.loads(out.stdout)
    assert [(f["code"], f["severity"], f["pointer"]) for f in findings if f["code"] == "TC005"] == [
        ("TC005", "error", pointer)]
    assert not [f for f in findings if f["code"] in ("TC305", "TC301")], findings


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_convert_never_writes_infinity(tmp_path: Path, target: str) -> None:
    path = _tool(tmp_path, '"a": {"type": "number", "maximum": 1e999}')
    out = toolcast("convert", "--to", target, str(path), timeout=60)
    assert not out.timed_out, out
    assert out.returncode == 2, out
    assert "Infinity" not in out.stdout
    assert f"{path}#/parameters/properties/a/maximum: number beyond the range of a double" in out.stderr, out


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan"), 10**400])
def test_the_writer_of_converted_json_and_exports_refuses_it(value: float) -> None:
    with pytest.raises(ToolcastError, match=r"^/tools/0/maximum: number beyond the range of a double"):
        render({"tools": [{"maximum": value}]})


def test_a_tool_executable_printing_infinity_is_an_error(tmp_path: Path) -> None:
    program = tmp_path / "big"
    program.write_text(f"#!{sys.executable}\nprint('{{\"name\": \"big\", \"description\": \"Big numbers.\", "
                       "\"parameters\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"number\", "
                       "\"maximum\": 1e999}}}}')\n", encoding="utf-8")
    program.chmod(0o755)
    out = toolcast("check", "--exec", "--", str(program), timeout=60)
    assert not out.timed_out, out
    assert out.returncode == 2, out
    assert "printed a number beyond the range of a double at /parameters/properties/a/maximum" in out.stderr, out
    assert "Infinity" not in out.stdout + out.stderr
