"""The real server over stdio, driven with VS Code's and Neovim's capability presets (pytest-lsp)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

# Line 2 holds an emoji before the defect, so utf-16 and utf-8 columns differ.
TEXT = (
    '{\n'
    '  "name": "get_weather",\n'
    '  "description": "Weather 😋 now", "description": "Weather", "parameters": {"type": "object", "properties": {\n'
    '    "u": {"type": "string", "const": "c", "pattern": "^c$"}}, "required": ["u", "ghost"]}\n'
    '}\n'
)


@pytest_lsp.fixture(params=["visual-studio-code", "neovim"],
                    config=ClientServerConfig(server_command=[sys.executable, "-m", "toolcast.server"]))
async def client(request: pytest.FixtureRequest, lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    @lsp_client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register(params: t.RegistrationParams) -> None:  # accept the server's dynamic registrations
        return None

    @lsp_client.feature(t.WORKSPACE_CODE_LENS_REFRESH)
    def lens_refresh(params: None) -> None:  # the presets declare refreshSupport: answer as an editor does
        return None

    # Which version each push was for: a test waits for the publish of the version it sent, not for
    # whichever notification comes next (the server may publish a version twice, e.g. after indexing).
    published: dict[str, int | None] = {}
    handle = lsp_client.protocol._handle_notification

    def record(method: str, params: Any) -> None:
        if method == t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS:
            published[params.uri] = params.version
        handle(method, params)

    lsp_client.protocol._handle_notification = record  # type: ignore[method-assign]
    lsp_client.published_versions = published  # type: ignore[attr-defined]
    await lsp_client.initialize_session(t.InitializeParams(capabilities=client_capabilities(request.param)))
    yield
    await lsp_client.shutdown_session()


def _is_pull(client: LanguageClient) -> bool:
    caps = client.capabilities
    return bool(caps and caps.text_document and caps.text_document.diagnostic)


async def _diagnostics(client: LanguageClient, uri: str, version: int = 1) -> list[t.Diagnostic]:
    """The diagnostics of ``version`` of the document: pulled, or the push for that version."""
    if _is_pull(client):
        report = await client.text_document_diagnostic_async(
            t.DocumentDiagnosticParams(t.TextDocumentIdentifier(uri)))
        return list(report.items)
    published: dict[str, int | None] = client.published_versions  # type: ignore[attr-defined]
    for _ in range(2000):
        if published.get(uri) == version:
            return list(client.diagnostics[uri])
        await asyncio.sleep(0.01)
    raise AssertionError(f"no diagnostics published for version {version} of {uri} (last: {published.get(uri)})")


def _open(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(uri, "json", version, text)))
    return uri


async def test_diagnostics_with_codes_and_ranges_in_the_negotiated_encoding(client: LanguageClient,
                                                                            tmp_path: Path) -> None:
    uri = _open(client, tmp_path / "w.tool.json", TEXT)
    diags = await _diagnostics(client, uri)
    by_code = {d.code: d for d in diags}
    ghost = by_code["TC302"]  # `required` names a property that does not exist
    line = TEXT.splitlines()[3]
    col32 = line.index('"ghost"')
    assert ghost.range.start.line == 3 and ghost.range.start.character == col32  # ASCII line: same in all
    assert ghost.source == "toolcast" and ghost.code_description is not None
    emoji_line = TEXT.splitlines()[2]
    second = emoji_line.index('"description"', 5)
    utf8 = client.capabilities.general is not None and client.capabilities.general.position_encodings is not None
    prefix = emoji_line[:second]
    expected = len(prefix.encode("utf-8")) if utf8 else len(prefix.encode("utf-16-le")) // 2
    (dup,) = [d for d in diags if d.code == "TC002"]  # the repeated key, after the emoji
    assert (dup.range.start.line, dup.range.start.character) == (2, expected)
    assert expected == second + (3 if utf8 else 1)  # 😋: 4 UTF-8 bytes or 2 UTF-16 units for 1 code point
    # `pattern` for Gemini JSON, on the keyword (other TC5xx: e.g. OpenAI strict closing the objects)
    at = (3, TEXT.splitlines()[3].index('"pattern"'))
    (loss,) = [d for d in diags
               if str(d.code).startswith("TC5") and (d.range.start.line, d.range.start.character) == at]
    assert loss.code == "TC502" and loss.data["targets"] == ["gemini-json"]


async def test_change_and_stale_versions(client: LanguageClient, tmp_path: Path) -> None:
    uri = _open(client, tmp_path / "s.tool.json", TEXT)
    await _diagnostics(client, uri)
    good = TEXT.replace(', "ghost"', "")
    for version, text in ((2, TEXT + " "), (3, good)):
        client.text_document_did_change(t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [t.TextDocumentContentChangeWholeDocument(text)]))
    # An older version arriving late is ignored: the text stays at version 3.
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        t.VersionedTextDocumentIdentifier(version=2, uri=uri), [t.TextDocumentContentChangeWholeDocument(TEXT)]))
    if _is_pull(client):
        report = await client.text_document_diagnostic_async(t.DocumentDiagnosticParams(t.TextDocumentIdentifier(uri)))
        assert report.result_id.endswith("@3")
        codes = {d.code for d in report.items}
    else:
        versions = []
        while not versions or versions[-1] != 3:
            published = await asyncio.wait_for(client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 10)
            versions.append(published.version)
        assert versions == sorted(versions) and set(versions) <= {2, 3}  # never an older version after a newer
        codes = {d.code for d in published.diagnostics}
        await asyncio.sleep(0.3)  # the late version 2 publishes nothing
        assert {d.code for d in client.diagnostics[uri]} == codes
    assert "TC302" not in codes


async def test_incremental_edit_is_applied_at_the_right_place(client: LanguageClient, tmp_path: Path) -> None:
    uri = _open(client, tmp_path / "i.tool.json", TEXT)
    await _diagnostics(client, uri)
    line = TEXT.splitlines()[3]
    start = line.index(', "ghost"')
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        t.VersionedTextDocumentIdentifier(version=2, uri=uri),
        [t.TextDocumentContentChangePartial(t.Range(t.Position(3, start), t.Position(3, start + 9)), "")]))
    diags = await _diagnostics(client, uri, version=2)
    assert "TC302" not in {d.code for d in diags}


async def test_quick_fix_from_diagnostic_data(client: LanguageClient, tmp_path: Path) -> None:
    uri = _open(client, tmp_path / "q.tool.json", TEXT)
    diags = await _diagnostics(client, uri)
    ghost = next(d for d in diags if d.code == "TC302")
    actions = await client.text_document_code_action_async(t.CodeActionParams(
        t.TextDocumentIdentifier(uri), ghost.range, t.CodeActionContext([ghost], only=[t.CodeActionKind.QuickFix])))
    assert actions, "a fix for an undefined required entry"
    edit = actions[0].edit
    assert edit is not None and edit.document_changes
    change = edit.document_changes[0]
    assert isinstance(change, t.TextDocumentEdit) and change.text_document.version == 1
    # The text changes under the diagnostic: its range no longer matches a finding, so no fix is offered
    # for it (an edit computed for the old text would land in the wrong place).
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        t.VersionedTextDocumentIdentifier(version=2, uri=uri),
        [t.TextDocumentContentChangePartial(t.Range(t.Position(3, 0), t.Position(3, 0)), "  ")]))
    stale = await client.text_document_code_action_async(t.CodeActionParams(
        t.TextDocumentIdentifier(uri), ghost.range, t.CodeActionContext([ghost], only=[t.CodeActionKind.QuickFix])))
    assert not stale
    fresh = next(d for d in await _diagnostics(client, uri, version=2) if d.code == "TC302")
    again = await client.text_document_code_action_async(t.CodeActionParams(
        t.TextDocumentIdentifier(uri), fresh.range, t.CodeActionContext([fresh], only=[t.CodeActionKind.QuickFix])))
    assert again and again[0].edit.document_changes[0].text_document.version == 2


async def test_export_action_equals_toolcast_convert(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "exp.tool.json"
    uri = _open(client, path, TEXT)
    await _diagnostics(client, uri)
    actions = await client.text_document_code_action_async(t.CodeActionParams(
        t.TextDocumentIdentifier(uri), t.Range(t.Position(1, 3), t.Position(1, 3)), t.CodeActionContext([])))
    titles = [a.title for a in actions]
    assert "Export to Anthropic" in titles and "Export to Gemini (parametersJsonSchema)" in titles
    action = next(a for a in actions if a.title == "Export to Anthropic")
    expected = subprocess.run([sys.executable, "-m", "toolcast.server.cli", "convert", str(path), "--to",
                               "anthropic"], capture_output=True, text=True, check=True).stdout
    if getattr(action, "edit", None) is not None:
        create, write = action.edit.document_changes
        assert isinstance(create, t.CreateFile) and create.uri.endswith("exp.anthropic.json")
        assert write.edits[0].new_text == expected
    else:
        # Without resource operations the action runs the `toolcast.export` command. (pytest-lsp's client
        # structures the CodeAction|Command union lossily here, so the test sends the command itself.)
        assert "toolcast.export" in str(action.command)
        result = await client.workspace_execute_command_async(t.ExecuteCommandParams(
            "toolcast.export", [uri, "anthropic", None]))
        created = tmp_path / "exp.anthropic.json"
        assert result["path"] == str(created) and created.read_text(encoding="utf-8") == expected
    from anthropic.types import ToolParam
    from pydantic import TypeAdapter

    TypeAdapter(ToolParam).validate_python(json.loads(expected))


async def test_hover_symbols_and_lens(client: LanguageClient, tmp_path: Path) -> None:
    uri = _open(client, tmp_path / "h.tool.json", TEXT)
    await _diagnostics(client, uri)
    line = TEXT.splitlines()[3]
    hover = await client.text_document_hover_async(t.HoverParams(
        t.TextDocumentIdentifier(uri), t.Position(3, line.index('"const"') + 2)))
    assert hover is not None and "Gemini (parameters): becomes a one-value enum" in hover.contents.value
    symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(t.TextDocumentIdentifier(uri)))
    assert [s.name for s in symbols] == ["get_weather"] and [c.name for c in symbols[0].children] == ["u"]
    lenses = await client.text_document_code_lens_async(t.CodeLensParams(t.TextDocumentIdentifier(uri)))
    assert len(lenses) == 1 and lenses[0].command.title.startswith("toolcast: ")


async def test_duplicate_names_across_two_open_files(client: LanguageClient, tmp_path: Path) -> None:
    tool = json.dumps({"name": "same", "description": "d", "parameters": {"type": "object", "properties": {}}})
    first = _open(client, tmp_path / "a.tool.json", tool)
    await _diagnostics(client, first)
    second = _open(client, tmp_path / "b.tool.json", tool)
    diags = await _diagnostics(client, second)
    dup = [d for d in diags if d.code == "TC202"]
    assert dup and dup[0].related_information and dup[0].related_information[0].location.uri == first


async def test_other_json_files_get_nothing_and_unknown_documents_do_not_crash(client: LanguageClient,
                                                                               tmp_path: Path) -> None:
    uri = _open(client, tmp_path / "package.json", '{"name": "x", "version": "1.0.0"}')
    assert await _diagnostics(client, uri) == []
    hover = await client.text_document_hover_async(t.HoverParams(
        t.TextDocumentIdentifier("file:///nowhere.json"), t.Position(0, 0)))
    assert hover is None
