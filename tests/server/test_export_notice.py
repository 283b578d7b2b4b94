"""After an export the user is told where it went: the real server asks a client that can show documents
(VS Code's and Neovim's presets) to open the new file, and tells one that cannot (Emacs's eglot preset:
no `window.showDocument`, no resource operations) the written path in a message. An export whose file
exists is no longer offered, unless the client can overwrite it through its edit."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from session import read_code_actions_as_editors_do

TOOL = json.dumps({"name": "get_weather", "description": "Weather",
                   "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}, indent=2) + "\n"


@pytest_lsp.fixture(params=["visual-studio-code", "neovim", "emacs"],
                    config=ClientServerConfig(server_command=[sys.executable, "-m", "toolcast.server"]))
async def client(request: pytest.FixtureRequest, lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    @lsp_client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register(params: t.RegistrationParams) -> None:
        return None

    @lsp_client.feature(t.WORKSPACE_CODE_LENS_REFRESH)
    def lens_refresh(params: None) -> None:
        return None

    lsp_client.preset = request.param  # type: ignore[attr-defined]
    read_code_actions_as_editors_do(lsp_client)
    await lsp_client.initialize_session(t.InitializeParams(capabilities=client_capabilities(request.param)))
    yield
    await lsp_client.shutdown_session()


async def _actions(client: LanguageClient, uri: str) -> dict[str, t.CodeAction]:
    got = await client.text_document_code_action_async(t.CodeActionParams(
        t.TextDocumentIdentifier(uri), t.Range(t.Position(1, 3), t.Position(1, 3)), t.CodeActionContext([])))
    return {a.title: a for a in got or [] if isinstance(a, t.CodeAction)}


def _apply(edit: t.WorkspaceEdit | None) -> None:
    """What an editor does with the export's edit: create the file, insert the text, save."""
    assert edit is not None and edit.document_changes
    create, write = edit.document_changes
    assert isinstance(create, t.CreateFile) and isinstance(write, t.TextDocumentEdit)
    Path(url2pathname(urlsplit(create.uri).path)).write_text(write.edits[0].new_text, encoding="utf-8")


async def _until(check: Any) -> None:
    for _ in range(1000):
        if check():
            return
        await asyncio.sleep(0.01)


async def test_export_shows_the_new_file_or_names_it(client: LanguageClient, tmp_path: Path) -> None:
    preset: str = client.preset  # type: ignore[attr-defined]
    src = tmp_path / "w.tool.json"
    src.write_text(TOOL, encoding="utf-8")
    uri = src.as_uri()
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(uri, "json", 1, TOOL)))
    dest = tmp_path / "w.anthropic.json"
    listed = await _actions(client, uri)
    action = listed["Export to Anthropic"]
    if preset == "emacs":  # eglot: no resource operations, so the server writes the file (the command)
        assert action.edit is None and action.command is not None and action.command.command == "toolcast.export"
        result = await client.workspace_execute_command_async(
            t.ExecuteCommandParams(action.command.command, action.command.arguments))
        assert result == {"path": str(dest)}
        await _until(lambda: client.messages)
        assert [(m.type, m.message) for m in client.messages] == [(t.MessageType.Info, f"toolcast: exported {dest}")]
        assert client.shown_documents == []
    else:  # listed without its edit, with the command the client runs after applying it
        assert action.command is not None and action.command.command == "toolcast.showExport"
        assert list(action.command.arguments or ()) == [dest.as_uri()]
        resolved = await client.code_action_resolve_async(action)
        _apply(resolved.edit)
        assert resolved.command == action.command
        await client.workspace_execute_command_async(
            t.ExecuteCommandParams(action.command.command, action.command.arguments))
        await _until(lambda: client.shown_documents)
        assert [(d.uri, d.take_focus) for d in client.shown_documents] == [(dest.as_uri(), True)]
        assert client.messages == []
    assert dest.is_file()
    # The file exists now: Emacs (the command never overwrites) is no longer offered the export;
    # clients that can overwrite through the edit get it with the title saying so.
    titles = set(await _actions(client, uri))
    assert "Export to Anthropic" not in titles
    overwrite = "Export to Anthropic (overwrite w.anthropic.json)" in titles
    assert overwrite == (preset != "emacs")
    assert "Export to Gemini (parametersJsonSchema)" in titles  # the others are still offered


async def test_show_export_needs_an_existing_file(client: LanguageClient, tmp_path: Path) -> None:
    from pygls.exceptions import JsonRpcException

    for args in ([], [(tmp_path / "none.json").as_uri()], [3]):
        with pytest.raises(JsonRpcException, match="takes the URI of a file that exists"):
            await client.workspace_execute_command_async(t.ExecuteCommandParams("toolcast.showExport", args))
    assert client.shown_documents == [] and client.messages == []


def _export_by_command(show_document: bool, tmp_path: Path) -> tuple[Any, list[dict[str, Any]], int, Path]:
    """A raw client without resource operations: `toolcast.export` writes the file. Returns the client,
    every message up to the command's answer (in order), the answer's id and the export's path."""
    from raw_rpc import Raw

    raw = Raw()
    window = {"showDocument": {"support": True}} if show_document else {}
    rid = raw.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {
        "window": window, "workspace": {"workspaceEdit": {"documentChanges": True}}}})
    raw.response(rid)
    raw.notify("initialized", {})
    src = tmp_path / "w.tool.json"
    src.write_text(TOOL, encoding="utf-8")
    raw.notify("textDocument/didOpen", {"textDocument": {"uri": src.as_uri(), "languageId": "json", "version": 1,
                                                         "text": TOOL}})
    rid = raw.request("workspace/executeCommand", {"command": "toolcast.export",
                                                   "arguments": [src.as_uri(), "anthropic", None]})
    seen: list[dict[str, Any]] = []
    raw.wait(lambda m: seen.append(m) or (m.get("id") == rid and "method" not in m))
    return raw, seen, rid, tmp_path / "w.anthropic.json"


def test_the_notice_comes_before_the_commands_answer(tmp_path: Path) -> None:
    """Emacs 28's jsonrpc leaves a message that follows an answer in the same read unread until the server
    writes again: the message (or the showDocument request) is sent before the answer."""
    raw, seen, rid, dest = _export_by_command(False, tmp_path)
    try:
        order = [m.get("method") or ("answer" if m.get("id") == rid else "other") for m in seen]
        order = [o for o in order if o in ("window/showMessage", "answer")]
        assert order == ["window/showMessage", "answer"], seen
        assert seen[-1]["result"] == {"path": str(dest)}
    finally:
        raw.close()


def test_a_document_the_client_cannot_show_is_named_in_a_message(tmp_path: Path) -> None:
    """The client declares `window.showDocument` but answers `success: false`: the path goes in a message."""
    raw, seen, _rid, dest = _export_by_command(True, tmp_path)
    try:
        (ask,) = [m for m in seen if m.get("method") == "window/showDocument"]
        assert ask["params"] == {"uri": dest.as_uri(), "takeFocus": True}
        assert not [m for m in seen if m.get("method") == "window/showMessage"]
        raw.send({"jsonrpc": "2.0", "id": ask["id"], "result": {"success": False}})
        told = raw.wait(lambda m: m.get("method") == "window/showMessage")
        assert told["params"] == {"type": 3, "message": f"toolcast: exported {dest}"}
    finally:
        raw.close()
