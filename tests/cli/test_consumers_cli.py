"""`toolcast check --for/--model/--server-name` and `toolcast convert --model` as users run them: a real
subprocess; the live check reads a real MCP server (tests/fixtures/consumers/consumer_server.py, the `mcp` SDK)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "consumers"
SERVER = [sys.executable, str(FIXTURES / "consumer_server.py")]


def run(*args: str, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "toolcast.server.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL)


def _records(done: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    assert done.returncode in (0, 1), done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


@pytest.mark.parametrize("args", [("--for", "vscode,vs-code"), ("--for", "cursor", "--model", "gpt-9"),
                                  ("--model", "claude-opus-9")])
def test_an_unknown_consumer_or_model_is_one_line_naming_the_known_ones(tmp_path: Path, args: tuple[str, ...]) -> None:
    tool = tmp_path / "t.tool.json"
    tool.write_text('{"name": "t", "description": "d", "parameters": {"type": "object", "properties": {}}}')
    done = run("check", str(tool), *args)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("toolcast check: unknown ")
    assert ("claude-code" in lines[0]) if "--for" in args and "--model" not in args else ("gemini-2.5-pro" in lines[0])


def test_files_are_checked_for_the_hosts_of_for_and_the_configuration(tmp_path: Path) -> None:
    """The tuple of microsoft/vscode#246119 in a file; `consumers` in toolcast.toml adds Gemini CLI, whose
    rule the tuple passes, and names an unknown host (TC703)."""
    tool = tmp_path / "pair.tool.json"
    tool.write_text(json.dumps({"name": "set_pair", "description": "Store a pair.", "inputSchema": {
        "type": "object", "properties": {"pair": {"type": "array", "prefixItems": [{"type": "integer"},
                                                                                   {"type": "string"}]}},
        "required": ["pair"]}}, indent=2))
    quiet = _records(run("check", "--format", "json", str(tool)))
    assert not [r for r in quiet if r["code"].startswith("TC9")]
    (tmp_path / "toolcast.toml").write_text('consumers = ["gemini-cli", "vs-code"]\n')
    found = _records(run("check", "--format", "json", "--for", "vscode", str(tool)))
    tuples = [r for r in found if r["code"] == "TC904"]
    assert len(tuples) == 1 and tuples[0]["message"].startswith("VS Code (Copilot agent mode): array without")
    assert not [r for r in found if r["code"] == "TC906"]  # Gemini CLI keeps it: the array is typed
    config = [r for r in found if r["code"] == "TC703"]
    assert len(config) == 1 and "vs-code" in config[0]["message"] and "vscode" in config[0]["message"]


def test_convert_with_a_model_that_rejects_strict_writes_nothing(tmp_path: Path) -> None:
    """BerriAI/litellm#31585: strict on Claude Opus 4.7 via Bedrock Converse is rejected."""
    tool = tmp_path / "t.tool.json"
    tool.write_text(json.dumps({"name": "tag_note", "description": "Tag a note.", "parameters": {
        "type": "object", "properties": {"tag": {"type": "string"}}, "required": ["tag"]}}))
    done = run("convert", str(tool), "--to", "bedrock", "--strict", "--model", "us.anthropic.claude-opus-4-7")
    assert done.returncode == 2 and done.stdout == ""
    assert "TC907" in done.stderr and "Extra inputs are not permitted" in done.stderr
    assert "nothing written" in done.stderr
    done = run("convert", str(tool), "--to", "bedrock", "--no-strict", "--model", "us.anthropic.claude-opus-4-7")
    assert done.returncode == 0 and json.loads(done.stdout)["toolSpec"]["name"] == "tag_note"
    done = run("convert", str(tool), "--to", "bedrock", "--model", "nonesuch")
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("trailing", [False, True])
def test_a_live_server_is_judged_for_vscode_and_claude_code(tmp_path: Path, trailing: bool) -> None:
    """`toolcast check --mcp -- <server> --for vscode,claude-code` (the `--for` may also come before `--`): the
    tuple for VS Code (microsoft/vscode#246119), the long name under the server's reported name MCP_DOCKER
    for Claude Code (anthropics/claude-code#2445)."""
    chosen = ["--for", "vscode,claude-code"]
    argv = ["check", "--format", "json", "--timeout", "120", "--mcp", "--", *SERVER, *chosen] if trailing else \
        ["check", "--format", "json", "--timeout", "120", *chosen, "--mcp", "--", *SERVER]
    found = _records(run(*argv, cwd=tmp_path))
    mine = {(r["code"], r["location"]) for r in found if r["code"].startswith("TC9")}
    assert ("TC904", "mcp:MCP_DOCKER/set_pair#/inputSchema/properties/pair/items") in mine
    name = [r for r in found if r["code"] == "TC903"]
    assert len(name) == 1
    assert name[0]["location"] == "mcp:MCP_DOCKER/add_pull_request_review_comment_to_pending_review#/name"
    assert "mcp__MCP_DOCKER__add_pull_request_review_comment_to_pending_review" in name[0]["message"]
    assert "anthropics/claude-code#2326" in name[0]["message"]
    # another server name, as configured in the host, is measured instead
    short = _records(run("check", "--format", "json", "--timeout", "120", *chosen, "--server-name", "gh",
                         "--mcp", "--", *SERVER, cwd=tmp_path))
    assert not [r for r in short if r["code"] == "TC903"]


def test_human_output_names_the_consumer_and_the_source(tmp_path: Path) -> None:
    done = run("check", "--timeout", "120", "--for", "vscode", "--mcp", "--", *SERVER, cwd=tmp_path)
    assert done.returncode == 1
    assert "VS Code (Copilot agent mode): array without `items`" in done.stdout
    assert "microsoft/vscode#246119" in done.stdout
    assert "2 tool(s) of MCP server MCP_DOCKER checked for VS Code (Copilot agent mode) (server name 'MCP_DOCKER')" \
        in done.stderr
