"""What the VS Code extension relies on in Restricted Mode, at the protocol level: a client that says its
folder is untrusted (``capabilities.experimental.toolcast.untrustedWorkspace``) gets no "Check tools of
<server>" lens on an MCP configuration file, the command behind the lens refuses, and no program the file
names runs. Tool files are still checked. The real workbench proves the same through the UI
(test_vscode_workbench.py); this runs in the quick suite."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "toolcast.server"])


async def _session(client: LanguageClient, untrusted: bool) -> None:
    @client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register(params: t.RegistrationParams) -> None:
        return None

    caps = client_capabilities("visual-studio-code")
    if untrusted:
        caps.experimental = {"toolcast": {"untrustedWorkspace": True}}
    await client.initialize_session(t.InitializeParams(capabilities=caps))


@pytest_lsp.fixture(config=SERVER)
async def untrusted(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await _session(lsp_client, untrusted=True)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER)
async def trusted(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await _session(lsp_client, untrusted=False)
    yield
    await lsp_client.shutdown_session()


def _mcp_config(folder: Path, marker: Path) -> str:
    path = folder / ".vscode" / "mcp.json"
    path.parent.mkdir(parents=True)
    config = {"servers": {"trap": {"command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w')"]}}}
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return path.as_uri()


async def _lenses(client: LanguageClient, uri: str, text: str, language: str = "jsonc") -> list[str]:
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(uri, language, 1, text)))
    lenses = await client.text_document_code_lens_async(t.CodeLensParams(t.TextDocumentIdentifier(uri)))
    return [lens.command.title for lens in lenses or [] if lens.command]


async def test_untrusted_folder_no_mcp_lens_no_program(untrusted: LanguageClient, tmp_path: Path) -> None:
    marker = tmp_path / "started"
    uri = _mcp_config(tmp_path, marker)
    assert await _lenses(untrusted, uri, Path(uri[7:]).read_text(encoding="utf-8")) == []
    refused = await untrusted.workspace_execute_command_async(t.ExecuteCommandParams(
        "toolcast.checkMcpServer", [uri, "trap"]))
    assert "not trusted" in refused["error"], refused
    await asyncio.sleep(0.5)
    assert not marker.exists(), "the command ran the program the configuration file names"
    why = [m.message for m in untrusted.log_messages if "not trusted" in m.message]
    assert len(why) == 1, why  # one line in the log, not one per request

    # Checks go on: a tool file still gets its diagnostics.
    tool = tmp_path / "a.tool.json"
    parameters = {"type": "object", "properties": {"y": {"type": "string"}}, "required": ["x"]}
    text = json.dumps({"name": "a", "description": "A.", "parameters": parameters})
    untrusted.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(tool.as_uri(), "json", 1, text)))
    for _ in range(20):
        if untrusted.diagnostics.get(tool.as_uri()):
            break
        await asyncio.wait_for(untrusted.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 30)
    assert "TC302" in {d.code for d in untrusted.diagnostics[tool.as_uri()]}


async def test_trusted_folder_gets_the_lens(trusted: LanguageClient, tmp_path: Path) -> None:
    """The same file in a trusted folder: the lens is there (what the untrusted test's absence means)."""
    uri = _mcp_config(tmp_path, tmp_path / "started")
    assert await _lenses(trusted, uri, Path(uri[7:]).read_text(encoding="utf-8")) == ["Check tools of trap"]
    assert not (tmp_path / "started").exists()
