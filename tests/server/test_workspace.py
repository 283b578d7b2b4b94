"""Workspace awareness: the index of closed tool files, watched-file updates, configuration from the
client, completion, and errors that do not stop the server."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

TOOL = {"name": "same", "description": "d", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    # Project configuration and client settings combine key by key: `ignore` from here, `targets` from the client.
    (tmp_path / "toolcast.toml").write_text('ignore = ["TC501"]\n', encoding="utf-8")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "closed.tool.json").write_text(json.dumps(TOOL), encoding="utf-8")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "skip.tool.json").write_text(json.dumps(TOOL), encoding="utf-8")
    return tmp_path


HOOK_SERVER = str(Path(__file__).with_name("hook_server.py"))  # the real server plus test-only commands


@pytest_lsp.fixture(params=["visual-studio-code", "neovim"],
                    config=ClientServerConfig(server_command=[sys.executable, HOOK_SERVER]))
async def client(request: pytest.FixtureRequest, lsp_client: LanguageClient, workspace: Path):  # type: ignore[no-untyped-def]
    lsp_client.set_configuration({"targets": ["openai", "anthropic"]}, section="toolcast")

    @lsp_client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register(params: t.RegistrationParams) -> None:  # accept the server's file watcher registration
        return None

    @lsp_client.feature(t.WORKSPACE_CODE_LENS_REFRESH)
    def lens_refresh(params: None) -> None:  # the presets declare refreshSupport: answer as an editor does
        return None

    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=client_capabilities(request.param), root_uri=workspace.as_uri(),
        workspace_folders=[t.WorkspaceFolder(workspace.as_uri(), "ws")]))
    lsp_client.workspace_path = workspace  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def _diags(client: LanguageClient, uri: str) -> list[t.Diagnostic]:
    caps = client.capabilities
    if caps and caps.text_document and caps.text_document.diagnostic:
        report = await client.text_document_diagnostic_async(t.DocumentDiagnosticParams(t.TextDocumentIdentifier(uri)))
        return list(report.items)
    with contextlib.suppress(TimeoutError):  # nothing new published: the last diagnostics stand
        await asyncio.wait_for(client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 2)
    return list(client.diagnostics.get(uri, []))


async def _open(client: LanguageClient, path: Path, text: str, duplicate: bool = True) -> list[t.Diagnostic]:
    """Open ``path``; with ``duplicate``, wait until the workspace index reports its name as a duplicate."""
    path.write_text(text, encoding="utf-8")
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(path.as_uri(), "json", 1, text)))
    if not duplicate:
        return []
    for _ in range(20):  # the index is built in the background after `initialized`
        diags = await _diags(client, path.as_uri())
        if any(d.code == "TC202" for d in diags):
            return diags
        await asyncio.sleep(0.1)
    return diags


async def test_duplicate_name_in_a_closed_workspace_file(client: LanguageClient) -> None:
    ws: Path = client.workspace_path  # type: ignore[attr-defined]
    diags = await _open(client, ws / "open.tool.json", json.dumps(TOOL))
    (dup,) = [d for d in diags if d.code == "TC202"]
    assert dup.related_information is not None
    assert [r.location.uri for r in dup.related_information] == [(ws / "tools" / "closed.tool.json").as_uri()]
    assert not [d for d in diags if d.code == "TC501"]  # ignored by the project's toolcast.toml
    # Configuration came from the client: only the configured targets are checked.
    assert {str(d.message).split(":")[0] for d in diags if str(d.code).startswith("TC5")} <= {
        "OpenAI Chat Completions", "Anthropic"}


async def test_watched_file_deleted_clears_the_duplicate(client: LanguageClient) -> None:
    ws: Path = client.workspace_path  # type: ignore[attr-defined]
    path = ws / "open.tool.json"
    await _open(client, path, json.dumps(TOOL))
    closed = ws / "tools" / "closed.tool.json"
    closed.unlink()
    client.workspace_did_change_watched_files(t.DidChangeWatchedFilesParams(
        [t.FileEvent(closed.as_uri(), t.FileChangeType.Deleted)]))
    diags = await _diags(client, path.as_uri())
    assert not [d for d in diags if d.code == "TC202"]


async def test_watched_files_are_indexed_by_name_not_by_content(client: LanguageClient) -> None:
    """A created JSON file holding a tool counts for duplicate names only when its name makes it a tool
    file (the rule `toolcast check` and the start-up index use), never because of what it holds."""
    ws: Path = client.workspace_path  # type: ignore[attr-defined]
    solo = dict(TOOL, name="solo")
    path = ws / "solo.tool.json"
    await _open(client, path, json.dumps(solo), duplicate=False)
    notes, extra = ws / "notes.json", ws / "extra.tool.json"
    for created in (notes, extra):
        created.write_text(json.dumps(solo), encoding="utf-8")
    client.workspace_did_change_watched_files(t.DidChangeWatchedFilesParams(
        [t.FileEvent(notes.as_uri(), t.FileChangeType.Created), t.FileEvent(extra.as_uri(), t.FileChangeType.Created)]))
    dups: list[t.Diagnostic] = []
    for _ in range(20):
        dups = [d for d in await _diags(client, path.as_uri()) if d.code == "TC202"]
        if dups:
            break
    assert len(dups) == 1 and dups[0].related_information is not None
    assert [r.location.uri for r in dups[0].related_information] == [extra.as_uri()]
    # The project's `globs` now take every JSON file: the workspace is indexed again with them.
    (ws / "toolcast.toml").write_text('ignore = ["TC501"]\nglobs = ["*.json"]\n', encoding="utf-8")
    client.workspace_did_change_watched_files(t.DidChangeWatchedFilesParams(
        [t.FileEvent((ws / "toolcast.toml").as_uri(), t.FileChangeType.Changed)]))
    related: set[str] = set()
    for _ in range(20):
        dups = [d for d in await _diags(client, path.as_uri()) if d.code == "TC202"]
        related = {r.location.uri for d in dups for r in d.related_information or ()}
        if len(related) == 2:
            break
    assert related == {extra.as_uri(), notes.as_uri()}


async def test_an_open_file_is_not_held_in_the_index_and_is_read_again_when_closed(client: LanguageClient) -> None:
    """The index holds closed files only (an open file's text would otherwise be held twice); closing
    a file reads it from disk again, so its names count once more for duplicates across files."""
    ws: Path = client.workspace_path  # type: ignore[attr-defined]
    closed = ws / "tools" / "closed.tool.json"
    path = ws / "open.tool.json"
    await _open(client, path, json.dumps(TOOL), duplicate=False)

    async def indexed() -> list[str]:
        held = await client.workspace_execute_command_async(t.ExecuteCommandParams("toolcast.test.indexed"))
        assert isinstance(held, list)
        return held

    async def duplicates_until(wanted: bool) -> list[t.Diagnostic]:
        """The open file's TC202s once their presence is ``wanted`` (polled: push mode publishes when
        it is ready, pull mode answers when asked)."""
        dups: list[t.Diagnostic] = []
        for _ in range(50):
            caps = client.capabilities
            if caps and caps.text_document and caps.text_document.diagnostic:
                diags = await _diags(client, path.as_uri())
            else:
                diags = list(client.diagnostics.get(path.as_uri(), []))
            dups = [d for d in diags if d.code == "TC202"]
            if bool(dups) == wanted:
                break
            await asyncio.sleep(0.1)
        return dups

    assert len(await duplicates_until(True)) == 1  # against closed.tool.json: the index is built
    assert await indexed() == [str(closed)]
    # Opened, with a name the disk does not have: the buffer counts, the index lets the file go.
    renamed = json.dumps(dict(TOOL, name="renamed"))
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(closed.as_uri(), "json", 1, renamed)))
    assert await indexed() == []
    assert await duplicates_until(False) == []
    # Closed without saving: the disk's text ("same") is read again and the duplicate is back.
    client.text_document_did_close(t.DidCloseTextDocumentParams(t.TextDocumentIdentifier(closed.as_uri())))
    assert await indexed() == [str(closed)]
    dups = await duplicates_until(True)
    assert len(dups) == 1 and dups[0].related_information is not None
    assert [r.location.uri for r in dups[0].related_information] == [closed.as_uri()]


async def test_completion_of_keywords_and_types(client: LanguageClient) -> None:
    ws: Path = client.workspace_path  # type: ignore[attr-defined]
    text = '{"name": "c", "description": "d", "parameters": {"type": "object", "properties": {"a": {"type": ""}}}}'
    path = ws / "c.tool.json"
    await _open(client, path, text, duplicate=False)  # no duplicate to wait for: completion needs none
    col = text.index('"type": ""}') + len('"type": "')
    result = await client.text_document_completion_async(t.CompletionParams(
        t.TextDocumentIdentifier(path.as_uri()), t.Position(0, col)))
    assert result is not None and "integer" in [i.label for i in result.items]
    key_col = text.index('"type": "object"') + 1
    keys = await client.text_document_completion_async(t.CompletionParams(
        t.TextDocumentIdentifier(path.as_uri()), t.Position(0, key_col)))
    assert keys is not None and "additionalProperties" in [i.label for i in keys.items]


async def test_a_failing_request_is_answered_with_an_error_and_the_server_goes_on(client: LanguageClient) -> None:
    with pytest.raises(Exception, match=r"toolcast\.export takes"):
        await client.workspace_execute_command_async(t.ExecuteCommandParams("toolcast.export", ["only-one"]))
    with pytest.raises(Exception, match="unknown document"):
        await client.workspace_execute_command_async(t.ExecuteCommandParams(
            "toolcast.export", ["file:///does/not/exist.json", "openai"]))
    symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        t.TextDocumentIdentifier("file:///never/opened.json")))
    assert symbols == []


async def test_indexing_reports_progress_where_the_client_supports_it(client: LanguageClient) -> None:
    caps = client.capabilities
    if not (caps and caps.window and caps.window.work_done_progress):
        pytest.skip("this client preset declares no window.workDoneProgress")
    for _ in range(100):
        got = client.progress_reports.get("toolcast-index-1")
        if got and got[-1].kind == "end":
            break
        await asyncio.sleep(0.1)
    reports = client.progress_reports["toolcast-index-1"]
    assert reports[0].kind == "begin" and reports[-1].kind == "end"
