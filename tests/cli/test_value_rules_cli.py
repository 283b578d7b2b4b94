"""Value rules and complexity budgets as users meet them: `toolcast check` and `toolcast convert` in a real
subprocess, one report per rule kind (its schema and its error message, with the link)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from toolcast.adapters.targets import TARGETS


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "toolcast.server.cli", *args], capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)


def _file(tmp_path: Path, tool: dict[str, Any]) -> str:
    path = tmp_path / "t.tool.json"
    path.write_text(json.dumps(tool, indent=2))
    return str(path)


def test_convert_to_gemini_never_writes_an_empty_enum_member(tmp_path: Path) -> None:
    """Smana/runlore#40: "…parameters.properties[actions].items.properties[op].enum[3]: cannot be empty"."""
    path = _file(tmp_path, {"name": "submit_findings", "description": "Submit findings.", "parameters": {
        "type": "object", "properties": {"actions": {"type": "array", "items": {"type": "object", "properties": {
            "op": {"type": "string", "enum": ["reconcile", "resume", "suspend", ""]}}}}}}})
    done = run("convert", path, "--to", "gemini")
    assert done.returncode == 0, done.stderr
    op = json.loads(done.stdout)["parameters"]["properties"]["actions"]["items"]["properties"]["op"]
    assert op["enum"] == ["reconcile", "resume", "suspend"]
    said = [line for line in done.stderr.splitlines() if "cannot be empty" in line]
    assert len(said) == 1 and "(dropped, narrowing)" in said[0]
    # `check` with every form named tells the same story: one finding for gemini at that member, nothing for
    # the other targets; by default Gemini is judged in `parametersJsonSchema`, which keeps the member
    member = "/parameters/properties/actions/items/properties/op/enum/3"
    every = [arg for target in TARGETS for arg in ("--target", target)]
    at = [r for r in json.loads(run("check", "--format", "json", *every, path).stdout) if r["pointer"] == member]
    assert [r["target"] for r in at] == ["gemini"], at
    assert not [r for r in json.loads(run("check", "--format", "json", path).stdout) if r["pointer"] == member]
    # an enum of nothing Gemini takes: refused, nothing written
    path = _file(tmp_path, {"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"kind": {"type": "string", "enum": [""]}}}})
    done = run("convert", path, "--to", "gemini")
    assert done.returncode == 2 and done.stdout == "" and "nothing written" in done.stderr


def test_check_for_xai_finds_null_in_an_enum(tmp_path: Path) -> None:
    """tailcallhq/forgecode#2809: xAI answers "Client specified an invalid argument" for `null` in an enum."""
    path = _file(tmp_path, {"type": "function", "function": {"name": "fs_search", "description": "Search.",
                                                             "parameters": {"type": "object", "properties": {
        "output_mode": {"type": ["string", "null"], "enum": ["content", "files_with_matches", "count", None]}}}}})
    done = run("check", "--format", "json", "--for", "xai", path)
    assert done.returncode == 1
    found = [r for r in json.loads(done.stdout) if r["code"] == "TC910"]
    assert len(found) == 1 and found[0]["severity"] == "error"
    assert "Client specified an invalid argument" in found[0]["message"]
    assert "tailcallhq/forgecode#2809" in found[0]["message"]
    assert not [r for r in json.loads(run("check", "--format", "json", path).stdout) if r["code"] == "TC910"]


def test_convert_to_bedrock_drops_a_bound_it_cannot_take(tmp_path: Path) -> None:
    """tailcallhq/forgecode#3308: "input_schema: int too big to convert" for zod's 9007199254740991."""
    path = _file(tmp_path, {"name": "write_note", "description": "Write.", "inputSchema": {
        "type": "object", "properties": {"text": {"type": "string", "maxLength": 9007199254740991}}}})
    done = run("convert", path, "--to", "bedrock")
    assert done.returncode == 0, done.stderr
    assert "9007199254740991" not in done.stdout
    assert "int too big to convert" in done.stderr and "t.tool.json:9:9: bedrock: `maxLength: 9007199254740991`" \
        in done.stderr  # the place of the bound in the file


def test_check_for_gemini_cli_finds_type_beside_any_of(tmp_path: Path) -> None:
    """evcc-io/evcc#22400: "type and anyOf cannot be both populated. No tools registered from MCP server"."""
    path = _file(tmp_path, {"name": "set_mode", "description": "Set the mode.", "inputSchema": {
        "type": "object", "properties": {"mode": {"type": "string", "anyOf": [{"const": "off"}, {"const": "pv"}]}}}})
    done = run("check", "--for", "gemini-cli", path)
    assert done.returncode == 1
    assert "TC912 Gemini CLI: `type` beside `anyOf`" in done.stdout
    assert "type and anyOf cannot be both populated" in done.stdout and "evcc-io/evcc#22400" in done.stdout


def test_convert_with_a_model_over_its_budget_writes_nothing(tmp_path: Path) -> None:
    """googleapis/python-genai#2170: gemini-3-flash-preview refused 8 arrays of `maxItems` 120 (960 in all)."""
    def arrays(max_items: int) -> str:
        return _file(tmp_path, {"name": "search_crm", "description": "Search.", "parameters": {
            "type": "object", "properties": {f"field_{i}": {"type": "array", "items": {"type": "string"},
                                                            "maxItems": max_items} for i in range(8)}}})

    done = run("convert", arrays(120), "--to", "gemini-json", "--model", "gemini-3-flash-preview")
    assert done.returncode == 2 and done.stdout == ""
    assert "TC913" in done.stderr and "`maxItems` added up is 960, over 959" in done.stderr
    assert "observed in public reports, not documented" in done.stderr and "nothing written" in done.stderr
    done = run("convert", arrays(119), "--to", "gemini-json", "--model", "gemini-3-flash-preview")
    assert done.returncode == 0 and json.loads(done.stdout)["name"] == "search_crm"
    # `check` reports the budget too, as an error for that model
    done = run("check", "--format", "json", "--model", "gemini-3-flash-preview", arrays(120))
    assert [r["severity"] for r in json.loads(done.stdout) if r["code"] == "TC913"] == ["error"]
