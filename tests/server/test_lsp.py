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
from session import read_code_actions_as_editors_do
from toolcast.adapters.targets import TARGETS

# Line 2 holds an emoji before the defect, so utf-16 and utf-8 columns differ.
TEXT = (
    '{\n'
    '  "name": "get_weather",\n'
    '  "description": "Weather 😋 now", "description": "Weather", "parameters": {"type": "object", "properties": {\n'
    '    "u": {"type": "string", "const": "c", "pattern": "^c$"}}, "required": ["u", "ghost"]}\n'
    '}\n'
)


HOOK_SERVER = str(Path(__file__).with_name("hook_server.py"))


@pytest_lsp.fixture(params=["visual-studio-code", "neovim"],
                    config=ClientServerConfig(server_command=[sys.executable, HOOK_SERVER]))
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
    read_code_actions_as_editors_do(lsp_client)
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
    # Every form named (the folder's toolcast.toml): the `pattern` loss below is Gemini `parametersJsonSchema`'s.
    (tmp_path / "toolcast.toml").write_text(f"targets = {json.dumps(list(TARGETS))}\n", encoding="utf-8")
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
        # Never an older version after a newer (version 1 may be published again, e.g. after indexing,
        # before the changes arrive); the late version 2 after 3 would break the order.
        assert versions == sorted(versions) and set(versions) <= {1, 2, 3}
        codes = {d.code for d in published.diagnostics}
        await asyncio.sleep(0.3)  # the late version 2 publishes nothing
        assert {d.code for d in client.diagnostics[uri]} == codes
    assert "TC302" not in codes


async def _server_text(client: LanguageClient, uri: str) -> str:
    """The text the server holds (a test-only command of tests/server/hook_server.py)."""
    text = await client.workspace_execute_command_async(t.ExecuteCommandParams("toolcast.test.documentText", [uri]))
    assert isinstance(text, str)
    return text


def _offset(text: str, pos: t.Position) -> int:
    """An offset for a position on an ASCII line (the same in every position encoding)."""
    lines = text.split("\n")
    assert lines[pos.line].isascii()
    return sum(len(line) + 1 for line in lines[: pos.line]) + pos.character


def _apply(text: str, edits: list[t.TextEdit]) -> str:
    for e in sorted(edits, key=lambda e: _offset(text, e.range.start), reverse=True):
        text = text[: _offset(text, e.range.start)] + e.new_text + text[_offset(text, e.range.end):]
    return text


async def test_incremental_edit_is_applied_at_the_right_place(client: LanguageClient, tmp_path: Path) -> None:
    uri = _open(client, tmp_path / "i.tool.json", TEXT)
    await _diagnostics(client, uri)
    line = TEXT.splitlines()[3]
    start = line.index(', "ghost"')
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        t.VersionedTextDocumentIdentifier(version=2, uri=uri),
        [t.TextDocumentContentChangePartial(t.Range(t.Position(3, start), t.Position(3, start + 9)), "")]))
    diags = await _diagnostics(client, uri, version=2)
    expected = TEXT.replace(', "ghost"', "")
    assert await _server_text(client, uri) == expected
    assert "TC302" not in {d.code for d in diags} and "TC001" not in {d.code for d in diags}
    # Two edits in one notification, the second on the emoji line (its columns are in the negotiated
    # encoding): applied in order, each at its place.
    emoji_line = expected.splitlines()[2]
    at = emoji_line.index("now")
    utf8 = client.capabilities.general is not None and client.capabilities.general.position_encodings is not None
    col = len(emoji_line[:at].encode("utf-8")) if utf8 else len(emoji_line[:at].encode("utf-16-le")) // 2
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        t.VersionedTextDocumentIdentifier(version=3, uri=uri),
        [t.TextDocumentContentChangePartial(t.Range(t.Position(1, 3), t.Position(1, 7)), "NAME"),
         t.TextDocumentContentChangePartial(t.Range(t.Position(2, col), t.Position(2, col + 3)), "today")]))
    assert await _server_text(client, uri) == expected.replace('"name"', '"NAME"').replace("now", "today")


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
    assert _apply(TEXT, change.edits) == TEXT.replace(', "ghost"', "")  # the fix, applied: exactly this text
    # The text changes under the diagnostic: its range no longer matches a finding, so no fix is offered
    # for it (an edit computed for the old text would land in the wrong place).
    inserted = '"v": {"type": "string"}, '
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        t.VersionedTextDocumentIdentifier(version=2, uri=uri),
        [t.TextDocumentContentChangePartial(t.Range(t.Position(3, 4), t.Position(3, 4)), inserted)]))
    lines = TEXT.split("\n")
    lines[3] = lines[3][:4] + inserted + lines[3][4:]
    client_text = "\n".join(lines)
    assert await _server_text(client, uri) == client_text
    stale = await client.text_document_code_action_async(t.CodeActionParams(
        t.TextDocumentIdentifier(uri), ghost.range, t.CodeActionContext([ghost], only=[t.CodeActionKind.QuickFix])))
    assert not stale
    col = client_text.splitlines()[3].index('"ghost"')
    fresh = next(d for d in await _diagnostics(client, uri, version=2) if d.code == "TC302")
    assert fresh.range.start == t.Position(3, col)  # at its new place
    again = await client.text_document_code_action_async(t.CodeActionParams(
        t.TextDocumentIdentifier(uri), fresh.range, t.CodeActionContext([fresh], only=[t.CodeActionKind.QuickFix])))
    assert again and again[0].edit.document_changes[0].text_document.version == 2
    # The fix for the new text, applied to the client's text, removes exactly `, "ghost"`.
    assert _apply(client_text, again[0].edit.document_changes[0].edits) == client_text.replace(', "ghost"', "")


def _convert(path: Path, target: str = "anthropic") -> str:
    return subprocess.run([sys.executable, "-m", "toolcast.server.cli", "convert", str(path), "--to", target],
                          capture_output=True, text=True, check=True).stdout


async def _export_actions(client: LanguageClient, uri: str) -> list[t.CodeAction]:
    actions = await client.text_document_code_action_async(t.CodeActionParams(
        t.TextDocumentIdentifier(uri), t.Range(t.Position(1, 3), t.Position(1, 3)), t.CodeActionContext([])))
    assert actions is not None and all(isinstance(a, t.CodeAction) for a in actions)
    return list(actions)  # type: ignore[arg-type]


def _created_text(edit: t.WorkspaceEdit | None, name: str) -> str:
    assert edit is not None and edit.document_changes
    create, write = edit.document_changes
    assert isinstance(create, t.CreateFile) and create.uri.endswith(name)
    assert isinstance(write, t.TextDocumentEdit) and write.text_document.uri == create.uri
    return write.edits[0].new_text


async def test_export_action_equals_toolcast_convert(client: LanguageClient, tmp_path: Path) -> None:
    """Both presets resolve an action's `edit`: the listed export carries only `data` (nothing is
    converted while listing), `codeAction/resolve` gives the CreateFile + text of `toolcast convert`."""
    path = tmp_path / "exp.tool.json"
    uri = _open(client, path, TEXT)
    await _diagnostics(client, uri)
    actions = await _export_actions(client, uri)
    titles = [a.title for a in actions]
    assert "Export to Anthropic" in titles and "Export to Gemini (parametersJsonSchema)" in titles
    action = next(a for a in actions if a.title == "Export to Anthropic")
    assert action.edit is None  # the command shows the file once the client has applied the edit
    assert action.command is not None and action.command.command == "toolcast.showExport"
    assert action.data == {"uri": uri, "version": 1, "target": "anthropic", "tool": None}
    resolved = await client.code_action_resolve_async(action)
    expected = _convert(path)
    assert _created_text(resolved.edit, "exp.anthropic.json") == expected
    assert resolved.title == "Export to Anthropic"
    from anthropic.types import ToolParam
    from pydantic import TypeAdapter

    TypeAdapter(ToolParam).validate_python(json.loads(expected))


async def test_resolve_of_a_stale_version_is_content_modified(client: LanguageClient, tmp_path: Path) -> None:
    """An action listed for version 1, resolved after version 2 arrived: a ContentModified error (the
    export of text the user no longer has is never returned); listed again, it resolves for version 2."""
    from pygls.exceptions import JsonRpcException

    path = tmp_path / "st.tool.json"
    uri = _open(client, path, TEXT)
    await _diagnostics(client, uri)
    old = next(a for a in await _export_actions(client, uri) if a.title == "Export to Anthropic")
    changed = TEXT.replace('"get_weather"', '"get_forecast"')
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        t.VersionedTextDocumentIdentifier(version=2, uri=uri), [t.TextDocumentContentChangeWholeDocument(changed)]))
    assert await _server_text(client, uri) == changed
    with pytest.raises(JsonRpcException) as refused:
        await client.code_action_resolve_async(old)
    assert refused.value.code == -32801 and "changed (version 1 is now 2)" in str(refused.value)
    new = next(a for a in await _export_actions(client, uri) if a.title == "Export to Anthropic")
    assert new.data["version"] == 2
    path.write_text(changed, encoding="utf-8")
    resolved = await client.code_action_resolve_async(new)
    assert _created_text(resolved.edit, "st.anthropic.json") == _convert(path)
    assert '"get_forecast"' in _convert(path)


@pytest_lsp.fixture(params=["visual-studio-code", "neovim"],
                    config=ClientServerConfig(server_command=[sys.executable, HOOK_SERVER]))
async def no_resolve_client(request: pytest.FixtureRequest, lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    """The same presets with `codeAction.resolveSupport` removed: a client that cannot resolve."""
    import attrs

    @lsp_client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register(params: t.RegistrationParams) -> None:
        return None

    @lsp_client.feature(t.WORKSPACE_CODE_LENS_REFRESH)
    def lens_refresh(params: None) -> None:
        return None

    read_code_actions_as_editors_do(lsp_client)
    caps = client_capabilities(request.param)
    assert caps.text_document is not None and caps.text_document.code_action is not None
    caps = attrs.evolve(caps, text_document=attrs.evolve(
        caps.text_document, code_action=attrs.evolve(caps.text_document.code_action, resolve_support=None)))
    await lsp_client.initialize_session(t.InitializeParams(capabilities=caps))
    yield
    await lsp_client.shutdown_session()


async def test_export_without_resolve_support_carries_its_edit(no_resolve_client: LanguageClient,
                                                               tmp_path: Path) -> None:
    client = no_resolve_client
    path = tmp_path / "nr.tool.json"
    uri = _open(client, path, TEXT)
    await _server_text(client, uri)
    action = next(a for a in await _export_actions(client, uri) if a.title == "Export to Anthropic")
    assert action.data is None
    assert _created_text(action.edit, "nr.anthropic.json") == _convert(path)
    assert action.command is not None and action.command.command == "toolcast.showExport"


def test_resolve_with_malformed_data_is_an_error_reply(tmp_path: Path) -> None:
    from raw_rpc import HOOK_SERVER as HOOK
    from raw_rpc import Raw

    raw = Raw(HOOK)
    try:
        raw.initialize(tmp_path)
        path = tmp_path / "m.tool.json"
        path.write_text(TEXT, encoding="utf-8")
        raw.notify("textDocument/didOpen", {"textDocument": {"uri": path.as_uri(), "languageId": "json",
                                                             "version": 1, "text": TEXT}})
        good = {"uri": path.as_uri(), "version": 1, "target": "anthropic", "tool": None}
        # An action with nothing to resolve (no `data`: a quick fix listed with its edit) comes back unchanged.
        fix = {"title": "Add `\"properties\": {}`", "kind": "quickfix",
               "edit": {"changes": {path.as_uri(): [{"range": {"start": {"line": 0, "character": 1},
                                                               "end": {"line": 0, "character": 1}},
                                                     "newText": " "}]}}}
        for nothing in (fix, {"title": "Export to Anthropic"}, {"title": "t", "data": None}):
            rid = raw.request("codeAction/resolve", nothing)
            answer = raw.response(rid)
            same = {k: v for k, v in nothing.items() if v is not None}  # a null member is not sent back
            assert "error" not in answer and answer["result"] == same, (nothing, answer)
        for data in ([1, 2, 3], "x", {}, {**good, "target": "nope"}, {**good, "version": "1"},
                     {**good, "tool": "0"}, {**good, "uri": 5}, {**good, "uri": "file:///nowhere.json"}):
            rid = raw.request("codeAction/resolve", {"title": "Export to Anthropic", "data": data})
            answer = raw.response(rid)
            assert "result" not in answer and answer["error"]["code"] == -32602, (data, answer)
        # The well-formed requests after them are answered; a null `tool` may be left out (Neovim's
        # Lua tables drop it when they send the action back).
        for data in (good, {k: v for k, v in good.items() if k != "tool"}):
            rid = raw.request("codeAction/resolve", {"title": "Export to Anthropic", "data": data})
            result = raw.response(rid)["result"]
            assert result["edit"]["documentChanges"][1]["edits"][0]["newText"] == _convert(path)
    finally:
        raw.close()
    log = b"".join(raw.stderr).decode("utf-8", "replace")
    assert "Traceback" not in log and log.count("codeAction/resolve: data must be") == 7, log


async def test_hover_symbols_and_lens(client: LanguageClient, tmp_path: Path) -> None:
    uri = _open(client, tmp_path / "h.tool.json", TEXT)
    await _diagnostics(client, uri)
    line = TEXT.splitlines()[3]
    hover = await client.text_document_hover_async(t.HoverParams(
        t.TextDocumentIdentifier(uri), t.Position(3, line.index('"const"') + 2)))
    assert hover is not None and "Gemini (parameters): lowered (neutral)" in hover.contents.value
    symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(t.TextDocumentIdentifier(uri)))
    assert [s.name for s in symbols] == ["get_weather"] and [c.name for c in symbols[0].children] == ["u"]
    lenses = await client.text_document_code_lens_async(t.CodeLensParams(t.TextDocumentIdentifier(uri)))
    exports = [lens for lens in lenses if lens.command is not None]  # the token cost lenses are resolved later
    assert len(exports) == 1 and exports[0].command.title.startswith("toolcast: ")


async def test_hover_symbols_and_exports_read_a_jsonc_file_as_jsonc(client: LanguageClient, tmp_path: Path) -> None:
    """Every view takes the document's own parse, so a `.jsonc` file's comments and trailing commas
    do not blind hover, symbols or exports (they once re-parsed the text as plain JSON)."""
    text = (
        '// the weather tool\n'
        '{\n'
        '  "name": "get_weather", "description": "Weather",\n'
        '  "parameters": {"type": "object", "properties": {\n'
        '    "u": {"type": "string", "const": "c",},  // a unit\n'
        '  },},\n'
        '}\n'
    )
    path = tmp_path / "w.tool.jsonc"
    uri = _open(client, path, text)
    diags = await _diagnostics(client, uri)
    assert not [d for d in diags if d.code == "TC001"], diags  # no syntax errors: it is JSONC
    line = text.splitlines()[4]
    hover = await client.text_document_hover_async(t.HoverParams(
        t.TextDocumentIdentifier(uri), t.Position(4, line.index('"const"') + 2)))
    assert hover is not None and "Gemini (parameters): lowered (neutral)" in hover.contents.value
    symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(t.TextDocumentIdentifier(uri)))
    assert [s.name for s in symbols] == ["get_weather"] and [c.name for c in symbols[0].children] == ["u"]
    actions = await client.text_document_code_action_async(t.CodeActionParams(
        t.TextDocumentIdentifier(uri), t.Range(t.Position(2, 4), t.Position(2, 4)),
        t.CodeActionContext(diagnostics=[])))
    titles = [a.title for a in actions or [] if isinstance(a, t.CodeAction)]
    assert "Export to Anthropic" in titles, titles


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
