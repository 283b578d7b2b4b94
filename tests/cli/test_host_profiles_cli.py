"""The host profiles of GitHub Copilot CLI, Copilot for JetBrains, Google Antigravity, opencode, Cline and
LibreChat, Roo Code's characters after its prefix, and VS Code judged with the model named: each rule fires on
the schema or name of the report it cites, through `toolcast check --for HOST [--model MODEL]` as users run
it (a real subprocess; the live check reads a real MCP server, tests/fixtures/consumers/aws_docs_server.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "consumers"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "toolcast.server.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300, stdin=subprocess.DEVNULL)


def check(path: Path, *args: str) -> list[dict[str, Any]]:
    done = run("check", "--format", "json", str(path), *args)
    assert done.returncode in (0, 1), done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return [r for r in found if r["code"].startswith("TC9")]


def tool_file(folder: Path, name: str, schema: dict[str, Any] | None = None, stem: str = "t") -> Path:
    path = folder / f"{stem}.tool.json"
    path.write_text(json.dumps({"name": name, "description": "A tool from the report.",
                                "inputSchema": schema or {"type": "object", "properties": {}}}, indent=2))
    return path


def tools_file(folder: Path, count: int) -> Path:
    path = folder / "many.tools.json"
    path.write_text(json.dumps({"tools": [{"name": f"tool_{i}", "description": "One of many tools.",
                                           "inputSchema": {"type": "object", "properties": {}}}
                                          for i in range(count)]}))
    return path


def test_copilot_cli_prefixes_the_server_name_with_a_dash(tmp_path: Path) -> None:
    """microsoft/mcp#842: server `AzureMCP-AllTools`, Bedrock Converse: "Value 'AzureMCP-AllTools-azmcp_
    managedlustre_filesystem_subnetsize_validate' … Member must have length less than or equal to 64", "for some
    api endpoints" only, while github/copilot-cli#1879's error allows 128: unclear, so a warning."""
    path = tool_file(tmp_path, "azmcp_managedlustre_filesystem_subnetsize_validate")
    found = check(path, "--for", "copilot-cli", "--server-name", "AzureMCP-AllTools")
    assert [(r["code"], r["severity"]) for r in found] == [("TC903", "warning")]
    sent = "AzureMCP-AllTools-azmcp_managedlustre_filesystem_subnetsize_validate"
    assert f"`{sent}` (68 characters" in found[0]["message"]
    assert "microsoft/mcp#842, github/copilot-cli#1879 (unclear)" in found[0]["message"]
    assert not check(path, "--for", "copilot-cli", "--server-name", "azure")


def test_copilot_cli_with_a_claude_model_rejects_a_dot_in_the_prefixed_name(tmp_path: Path) -> None:
    """github/copilot-cli#1879: binary-ninja-headless-mcp's dotted tool names (`session.open`) fail every prompt
    with a Claude model: "tools.134.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"; Gemini
    accepts dots, so a Gemini model is not judged by it."""
    path = tool_file(tmp_path, "session.open")
    server = ("--server-name", "binary_ninja_headless_mcp")
    found = check(path, "--for", "copilot-cli", "--model", "claude-sonnet-4.5", *server)
    chars = [r for r in found if r["code"] == "TC920"]
    assert len(chars) == 1 and chars[0]["severity"] == "error" and chars[0]["pointer"] == "/name"
    assert "`binary_ninja_headless_mcp-session.open`" in chars[0]["message"] and "'.'" in chars[0]["message"]
    assert "github/copilot-cli#1879 (observed)" in chars[0]["message"]
    assert not [r for r in check(path, "--for", "copilot-cli", "--model", "gemini-2.5-pro", *server)
                if r["code"] == "TC920"]


def test_copilot_cli_with_a_gemini_model_rejects_nullable_object_items(tmp_path: Path) -> None:
    """github/copilot-cli#4623's repro schema: `items: {type: ['object', 'null'], …}` fails every Gemini model
    with 400 Bad Request; GPT and Claude models accept it, and the fixed schema passes."""
    bad = {"type": "object", "properties": {"rows": {
        "type": "array", "description": "a list of row objects",
        "items": {"type": ["object", "null"], "properties": {"a": {"type": "string"}}}}}}
    path = tool_file(tmp_path, "probe", bad)
    found = check(path, "--for", "copilot-cli", "--model", "gemini-3-flash-preview")
    lists = [r for r in found if r["code"] == "TC923"]
    assert len(lists) == 1 and lists[0]["severity"] == "error"
    assert lists[0]["pointer"] == "/inputSchema/properties/rows/items/type"
    assert "github/copilot-cli#4623" in lists[0]["message"]
    for other in ("gpt-5", "claude-sonnet-4.5"):
        assert not [r for r in check(path, "--for", "copilot-cli", "--model", other) if r["code"] == "TC923"]
    bad["properties"]["rows"]["items"]["type"] = "object"
    fixed = tool_file(tmp_path, "probe", bad, stem="fixed")
    assert not [r for r in check(fixed, "--for", "copilot-cli", "--model", "gemini-3-flash-preview")
                if r["code"] == "TC923"]


def test_a_model_familys_name_rule_holds_for_the_name_the_host_sends(tmp_path: Path) -> None:
    """Gemini 2.x has rejected names over 64 characters (google-gemini/gemini-cli#7869): through Copilot CLI that
    is `<server>-<tool>` (microsoft/mcp#842's name, 68 characters), an error of the model family on top of Copilot
    CLI's own unclear rule; VS Code cuts its ids to 64 itself, so there Gemini's rule has nothing to judge."""
    path = tool_file(tmp_path, "azmcp_managedlustre_filesystem_subnetsize_validate")
    server = ("--server-name", "AzureMCP-AllTools")
    found = check(path, "--for", "copilot-cli", "--model", "gemini-2.5-pro", *server)
    by = {r["message"].split(":")[0]: r for r in found if r["code"] == "TC903"}
    assert by["Gemini 2.x (Developer API)"]["severity"] == "error"
    assert "`AzureMCP-AllTools-azmcp_managedlustre_filesystem_subnetsize_validate` (68 characters" in \
        by["Gemini 2.x (Developer API)"]["message"]
    assert by["GitHub Copilot CLI"]["severity"] == "warning"
    vscode = [r["message"] for r in check(path, "--for", "vscode", "--model", "gemini-2.5-pro", *server)]
    assert len(vscode) == 1 and vscode[0].startswith("VS Code (Copilot agent mode): the name becomes")  # its own cut


def test_copilot_for_jetbrains_refuses_more_than_128_tools(tmp_path: Path) -> None:
    """microsoft/copilot-intellij-feedback#1842: ghidra-mcp's 245 tools: "You may not include more than 128
    tools in your request." """
    found = [r for r in check(tools_file(tmp_path, 245), "--for", "copilot-jetbrains") if r["code"] == "TC902"]
    assert [(r["severity"], r["pointer"]) for r in found] == [("error", "/tools/128")]
    assert "You may not include more than 128 tools" in found[0]["message"]


def test_antigravity_refuses_a_server_over_100_tools_and_warns_over_50(tmp_path: Path) -> None:
    """homeassistant-ai/ha-mcp#420: ha-mcp's 103 tools: "Error: adding this instance with 103 enabled tools
    would exceed max limit of 100"; enuno/unifi-mcp-server#69 says 50 summed over all servers (unclear)."""
    found = [r for r in check(tools_file(tmp_path, 103), "--for", "antigravity") if r["code"] == "TC902"]
    by = {r["pointer"]: r for r in found}
    assert set(by) == {"/tools/100", "/tools/50"}
    assert by["/tools/100"]["severity"] == "error" and "would exceed max limit of 100" in by["/tools/100"]["message"]
    assert by["/tools/50"]["severity"] == "warning" and "(unclear)" in by["/tools/50"]["message"]
    assert [r["pointer"] for r in check(tools_file(tmp_path, 60), "--for", "antigravity") if r["code"] == "TC902"] \
        == ["/tools/50"]


def test_opencode_joins_server_and_tool_with_an_underscore(tmp_path: Path) -> None:
    """anomalyco/opencode#3523: a server renamed to 60+ characters: "tools[21].function.name: string too long.
    Expected a string with maximum length 64, but got a string with length 65 instead." """
    server = "company-internal-knowledge-base-and-documentation-search-mcp"  # 60 characters
    path = tool_file(tmp_path, "ping")
    found = check(path, "--for", "opencode", "--server-name", server)
    assert [(r["code"], r["severity"]) for r in found] == [("TC903", "error")]
    assert f"`{server}_ping` (65 characters" in found[0]["message"]
    assert not check(path, "--for", "opencode", "--server-name", server[:-1])


def test_librechat_puts_the_server_after_the_tool(tmp_path: Path) -> None:
    """danny-avila/LibreChat#7435: `<tool>_mcp_<server>`: "string too long. Expected a string with maximum
    length 64, but got a string with length 67 instead." """
    server = "my-aitk-mcp-server-playwright-tests"  # 27 + `_mcp_` + 35 characters = 67
    found = check(tool_file(tmp_path, "browser_generate_playwright"), "--for", "librechat", "--server-name", server)
    assert [(r["code"], r["severity"]) for r in found] == [("TC903", "error")]
    assert f"`browser_generate_playwright_mcp_{server}` (67 characters" in found[0]["message"]


def test_cline_long_names_are_only_a_warning(tmp_path: Path) -> None:
    """cline/cline#11877: a v4 beta sent MCP tool names over 64 characters; how Cline names MCP tools across
    versions is unclear, so this is a warning."""
    name = "get_drug_names_by_info_on_consulting_doctor_pharmacist_for_drug_interactions"  # 76 characters
    found = check(tool_file(tmp_path, name), "--for", "cline")
    assert [(r["code"], r["severity"]) for r in found] == [("TC903", "warning")]
    assert "cline/cline#11877 (unclear)" in found[0]["message"]


def test_roo_code_with_a_dotted_server_name_fails_bedrock(tmp_path: Path) -> None:
    """RooCodeInc/Roo-Code#10152: "Value 'mcp--awslabs.aws-documentation-mcp-server--read_documentation' failed
    to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+" (Bedrock)."""
    path = tool_file(tmp_path, "read_documentation")
    found = check(path, "--for", "roo-code", "--server-name", "awslabs.aws-documentation-mcp-server")
    assert [(r["code"], r["severity"], r["pointer"]) for r in found] == [("TC920", "error", "/name")]
    assert "`mcp--awslabs.aws-documentation-mcp-server--read_documentation`" in found[0]["message"]
    assert not check(path, "--for", "roo-code", "--server-name", "aws-documentation")
    # Bedrock's rule: a check for OpenAI only does not report it
    assert not check(path, "--for", "roo-code", "--server-name", "awslabs.aws-documentation-mcp-server",
                     "--target", "openai")


def test_roo_code_measures_a_live_servers_own_name(tmp_path: Path) -> None:
    """`toolcast check --mcp` takes the name the server reports as the prefix's server name."""
    done = run("check", "--format", "json", "--timeout", "120", "--for", "roo-code", "--mcp", "--",
               sys.executable, str(FIXTURES / "aws_docs_server.py"), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    found = [r for r in json.loads(done.stdout) if r["code"] == "TC920"]
    assert len(found) == 1
    assert found[0]["location"] == "mcp:awslabs.aws-documentation-mcp-server/read_documentation#/name"


def test_vscode_is_judged_with_the_model_named(tmp_path: Path) -> None:
    """Copilot's schema normalizer (microsoft/vscode-copilot-chat@31acd00a toolSchemaNormalizer.ts) removes
    `pattern` and cuts descriptions to 1024 characters for GPT-4 models only; `--model gpt-4.1` also checks for
    the provider VS Code sends GPT models to, OpenAI, and a Claude model for Anthropic."""
    schema = {"type": "object", "properties": {"origin": {"type": "string", "pattern": "^[A-Z]{3}$",
                                                          "description": "An airport code. " * 70}},
              "required": ["origin"],
              # Copilot's normalizer walks the schema's own nodes, not its definitions
              "$defs": {"code": {"type": "string", "pattern": "^[A-Z]+$"}}}
    path = tool_file(tmp_path, "find_flights", schema)
    gpt = check(path, "--for", "vscode", "--model", "gpt-4.1")
    assert {(r["code"], r["pointer"], r["severity"]) for r in gpt} == {
        ("TC921", "/inputSchema/properties/origin/pattern", "warning"),
        ("TC922", "/inputSchema/properties/origin/description", "warning")}
    assert all("(documented)" in r["message"] for r in gpt)
    assert not check(path, "--for", "vscode", "--model", "claude-sonnet-4.5")
    assert not check(path, "--for", "vscode")  # no model named: GPT-4's rules do not apply
    # the provider the host sends the model to is the one checked
    done = run("check", "--format", "json", str(path), "--for", "vscode", "--model", "claude-sonnet-4.5")
    assert {t for r in json.loads(done.stdout) for t in ([r["target"]] if r.get("target") else [])} <= {"anthropic"}


def test_vscode_with_a_gemini_model_makes_a_multi_type_field_non_nullable(tmp_path: Path) -> None:
    """Copilot's normalizer for Gemini models: `type: [T, "null"]` becomes `nullable: true`, but from a list of two
    or more other types it removes "null" (the field is no longer nullable)."""
    schema = {"type": "object", "properties": {"limit": {"type": ["integer", "string", "null"]},
                                               "note": {"type": ["string", "null"]}}}
    path = tool_file(tmp_path, "search", schema)
    found = check(path, "--for", "vscode", "--model", "gemini-2.5-pro")
    assert [(r["code"], r["pointer"], r["severity"]) for r in found] == [
        ("TC923", "/inputSchema/properties/limit/type", "warning")]
    assert "no longer nullable" in found[0]["message"]
    assert not check(path, "--for", "vscode", "--model", "gpt-4.1")


def test_a_model_the_host_does_not_offer_is_refused(tmp_path: Path) -> None:
    """Cursor's profile names no model picker: `--model gpt-4.1` for it is unknown (exit 2, one line)."""
    done = run("check", str(tool_file(tmp_path, "t")), "--for", "cursor", "--model", "gpt-4.1")
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "unknown model" in done.stderr
    assert "copilot-cli, vscode" in done.stderr  # the hosts whose picker would take it
