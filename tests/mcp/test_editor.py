"""The editor: MCP client configuration files get a lens per server; only the lens's command starts
the server, and the findings come back as diagnostics on a snapshot the client is asked to open."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from live_cli import HERE
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from toolcast.server.lsp.mcp_config import entries, is_config, source_for

SECRET = "s3cr3t-value-never-logged"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "toolcast.server"]))
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    @lsp_client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register(params: t.RegistrationParams) -> None:
        return None

    await lsp_client.initialize_session(t.InitializeParams(capabilities=client_capabilities("visual-studio-code")))
    yield
    await lsp_client.shutdown_session()


def _config(folder: Path, marker: Path) -> Path:
    vscode = folder / ".vscode"
    vscode.mkdir(parents=True, exist_ok=True)
    path = vscode / "mcp.json"
    config: dict[str, Any] = {"servers": {
        "sdk": {"type": "stdio", "command": sys.executable, "args": ["${workspaceFolder}/sdk_server.py"],
                "env": {"TOOLCAST_TEST_SERVER_NAME": "named-by-env", "API_TOKEN": SECRET}},
        "trap": {"command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w')"]},
        "remote": {"type": "http", "url": "http://127.0.0.1:1/mcp"},
        "old": {"type": "sse", "url": "http://127.0.0.1:1/sse"},
    }}
    path.write_text("// servers for this workspace\n" + json.dumps(config, indent=2) + "\n", encoding="utf-8")
    (folder / "sdk_server.py").write_text((HERE / "sdk_server.py").read_text(encoding="utf-8"), encoding="utf-8")
    return path


def test_which_files_and_entries() -> None:
    assert is_config("/w/.vscode/mcp.json") and is_config("/w/.mcp.json")
    assert is_config("/home/u/.config/Claude/claude_desktop_config.json")
    assert not is_config("/w/mcp.json") and not is_config(None)
    found = entries('{"mcpServers": {"git": {"command": "uvx", "args": ["mcp-server-git"], "env": {"A": "b"}}}}')
    assert [(e.name, e.command, dict(e.env), e.problem) for e in found] == [
        ("git", ("uvx", "mcp-server-git"), {"A": "b"}, None)]
    assert "env=" not in repr(found[0])  # env values stay out of reprs


def test_variables_are_expanded_as_each_client_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLCAST_TEST_TOKEN", "tok")
    spec = ('{"%s": {"s": {"command": "run", "args": ["${%s}", "${%s}"], "env": {"T": "${%s}"}}}}')
    vscode = tmp_path / ".vscode" / "mcp.json"
    entry = entries(spec % ("servers", "workspaceFolder", "userHome", "env:TOOLCAST_TEST_TOKEN"))[0]
    source = source_for(entry, vscode)
    assert source.command == ("run", str(tmp_path), str(Path.home()))
    assert dict(source.env) == {"T": "tok"} and source.cwd == str(tmp_path)
    with pytest.raises(ValueError, match="only the editor can ask for"):
        source_for(entries(spec % ("servers", "input:key", "x", "y"))[0], vscode)
    claude = tmp_path / ".mcp.json"
    entry = entries(spec % ("mcpServers", "TOOLCAST_TEST_TOKEN", "TOOLCAST_UNSET_VAR:-fallback",
                            "TOOLCAST_TEST_TOKEN"))[0]
    source = source_for(entry, claude)
    assert source.command == ("run", "tok", "fallback") and dict(source.env) == {"T": "tok"}


async def test_lenses_start_nothing_and_the_command_checks_the_server(client: LanguageClient, tmp_path: Path) -> None:
    marker = tmp_path / "started"
    path = _config(tmp_path, marker)
    uri = path.as_uri()
    client.text_document_did_open(t.DidOpenTextDocumentParams(
        t.TextDocumentItem(uri, "jsonc", 1, path.read_text(encoding="utf-8"))))
    lenses = await client.text_document_code_lens_async(t.CodeLensParams(t.TextDocumentIdentifier(uri)))
    titles = [lens.command.title for lens in lenses if lens.command]
    assert titles == ["Check tools of sdk", "Check tools of trap", "Check tools of remote",
                      "toolcast: SSE servers are not supported (streamable HTTP is)"]
    assert lenses[0].range.start.line == 3  # on the entry's name
    assert not marker.exists(), "opening the file or asking for lenses started a server"

    result = await client.workspace_execute_command_async(t.ExecuteCommandParams(
        "toolcast.checkMcpServer", [uri, "sdk"]))
    assert result["server"] == "named-by-env" and result["tools"] == 4, result  # env passed through
    assert result["findings"] >= 1 and result["errors"] == 0
    assert [d.uri for d in client.shown_documents] == [result["uri"]]
    snapshot = Path(result["path"])
    assert not snapshot.is_relative_to(tmp_path)  # nothing written into the workspace
    assert json.loads(snapshot.read_text(encoding="utf-8"))["tools"][0]["name"] == "count_nodes"
    assert not marker.exists()
    # The client opens the snapshot: the findings are its diagnostics, as for any tool file.
    client.text_document_did_open(t.DidOpenTextDocumentParams(
        t.TextDocumentItem(result["uri"], "json", 1, snapshot.read_text(encoding="utf-8"))))
    for _ in range(20):
        if result["uri"] in client.diagnostics:
            break
        await asyncio.wait_for(client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 30)
    # With no target named, each provider's best form: the SDK server's objects closed by OpenAI strict (TC510).
    assert "TC510" in {d.code for d in client.diagnostics[result["uri"]]}

    failed = await client.workspace_execute_command_async(t.ExecuteCommandParams(
        "toolcast.checkMcpServer", [uri, "remote"]))
    assert "cannot connect" in failed["error"]
    assert any("cannot connect" in m.message for m in client.messages)

    said = [m.message for m in client.messages] + [m.message for m in client.log_messages] + [json.dumps(result)]
    assert not [m for m in said if SECRET in m]
