"""Where an export lands, for a folder a cloned repository laid out: the real server, driven as each kind of
editor drives it (VS Code's preset resolves the edit and creates the file, Neovim's gets the edit with the
action, Emacs's runs the command that has the server write the file, and a client that runs
``toolcast.export`` itself). An export is written only beside its source, under the name the converted tool
carries, never through a link and never outside the workspace; a refused destination is said, not offered
as an overwrite."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

import pytest
from lsprotocol import types as t
from pytest_lsp import LanguageClient
from session import client_fixture, editors_fixture, open_document, read_code_actions_as_editors_do

TOOL = {"name": "get_weather", "description": "Weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}
pytestmark = pytest.mark.slow  # the real server for every test
VICTIM = '{"keep": "this"}\n'

vscode = client_fixture("visual-studio-code")


client = editors_fixture("visual-studio-code", "neovim", "emacs")


async def _actions(client: LanguageClient, uri: str, line: int) -> list[t.CodeAction]:
    got = await client.text_document_code_action_async(t.CodeActionParams(
        t.TextDocumentIdentifier(uri), t.Range(t.Position(line, 3), t.Position(line, 3)), t.CodeActionContext([])))
    return [a for a in got or [] if isinstance(a, t.CodeAction)]


def _path(uri: str) -> Path:
    return Path(url2pathname(urlsplit(uri).path))


def _apply(edit: t.WorkspaceEdit) -> None:
    """What an editor does with an export's edit, as Node's ``fs.writeFile`` does it: through links, into
    folders it creates; an existing file only when the edit says overwrite."""
    for change in edit.document_changes or ():
        if isinstance(change, t.CreateFile):
            path = _path(change.uri)
            if os.path.exists(path) and not (change.options and change.options.overwrite):
                return
            path.parent.mkdir(parents=True, exist_ok=True)
        elif isinstance(change, t.TextDocumentEdit):
            _path(change.text_document.uri).write_text(change.edits[0].new_text, encoding="utf-8")


async def _choose(client: LanguageClient, action: t.CodeAction) -> Any:
    """The user chooses ``action``: the client carries it out as it would (a disabled one: nothing)."""
    if action.disabled is not None:
        return None
    if action.edit is None and action.data is not None:
        action = await client.code_action_resolve_async(action)
    if action.edit is not None:
        _apply(action.edit)
        return None
    assert action.command is not None
    try:
        return await client.workspace_execute_command_async(
            t.ExecuteCommandParams(action.command.command, action.command.arguments))
    except Exception as exc:  # an error answer: the refusal
        return exc


def _files(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (links as ``-> target``) with its text."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_symlink():
            out[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            out[rel] = path.read_text(encoding="utf-8")
    return out


@pytest.mark.parametrize("planted", ["link", "fifo"])
async def test_a_link_or_fifo_the_repository_carries_is_never_written(client: LanguageClient, tmp_path: Path,
                                                                      planted: str) -> None:
    preset: str = client.preset  # type: ignore[attr-defined]
    victim = tmp_path / "victim" / "settings.json"
    victim.parent.mkdir()
    victim.write_text(VICTIM, encoding="utf-8")
    sub = tmp_path / "repo" / "sub"
    sub.mkdir(parents=True)
    export = sub / "w.anthropic.json"
    if planted == "link":
        export.symlink_to("../../victim/settings.json")
    else:
        os.mkfifo(export)
    reason = {"link": "symbolic link", "fifo": "FIFO"}[planted]
    uri = open_document(client, sub / "w.tool.json", json.dumps(TOOL, indent=2) + "\n")

    anthropic = [a for a in await _actions(client, uri, 1) if a.title.startswith("Export to Anthropic")]
    assert not [a for a in anthropic if "overwrite" in a.title]  # checked first: a FIFO would block the write
    for action in anthropic:
        await _choose(client, action)
    if preset == "visual-studio-code":  # declares disabledSupport: the action says why it cannot run
        (action,) = anthropic
        assert action.disabled is not None and reason in action.disabled.reason
        assert action.edit is None and action.command is None
    else:
        assert anthropic == []
    # A client that runs the command itself is refused, and told why.
    with pytest.raises(Exception, match=reason):
        await client.workspace_execute_command_async(t.ExecuteCommandParams("toolcast.export", [uri, "anthropic"]))
    assert victim.read_text(encoding="utf-8") == VICTIM
    assert export.is_symlink() if planted == "link" else stat.S_ISFIFO(export.lstat().st_mode)


async def test_a_tool_name_never_chooses_the_folder(client: LanguageClient, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "escaped.anthropic.json").write_text(VICTIM, encoding="utf-8")
    (elsewhere / "escaped.anthropic.json").write_text(VICTIM, encoding="utf-8")
    names = ["../../../escaped", str(elsewhere / "escaped"), "get_weather"]
    text = "[\n" + ",\n".join(json.dumps({**TOOL, "name": n}) for n in names) + "\n]\n"
    folder = tmp_path / "a" / "b" / "c"
    folder.mkdir(parents=True)
    uri = open_document(client, folder / "w.tool.json", text)
    outside = {k: v for k, v in _files(tmp_path).items() if not k.startswith("a/")}

    for line, name in enumerate(names, start=1):
        chosen = [a for a in await _actions(client, uri, line)
                  if a.title.startswith(f"Export to Anthropic ({name})")]
        assert chosen, name
        await _choose(client, chosen[0])
        # The command path, with the tool's index; MCP's names may hold dots: the file is still not hidden.
        for target in ("openai", "mcp"):
            answer = await client.workspace_execute_command_async(
                t.ExecuteCommandParams("toolcast.export", [uri, target, line - 1]))
            assert Path(answer["path"]).parent == folder, answer

    assert {k: v for k, v in _files(tmp_path).items() if not k.startswith("a/")} == outside
    exports = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in folder.iterdir() if p.name != "w.tool.json"}
    assert len(exports) == 9 and not [n for n in exports if n.startswith(".")], sorted(exports)
    for file_name, value in exports.items():  # each named after the name its converted tool carries
        target = file_name.rsplit(".", 2)[1]
        sent = value["function"]["name"] if target == "openai" else value["name"]
        assert file_name == f"{sent}.{target}.json" or (target == "mcp" and sent.startswith(".")
                                                        and file_name == f"_{sent[1:]}.mcp.json"), file_name
    assert "get_weather.anthropic.json" in exports


def test_an_export_through_a_linked_folder_leaves_the_workspace_alone(tmp_path: Path) -> None:
    """A folder the repository carries as a link to somewhere else: the file opened under it is in the
    workspace by its path, but an export beside it would land outside."""
    from raw_rpc import Raw

    workspace, outside = tmp_path / "ws", tmp_path / "outside"
    workspace.mkdir()
    outside.mkdir()
    (workspace / "linked").symlink_to("../outside")
    src = workspace / "linked" / "w.tool.json"
    text = json.dumps(TOOL, indent=2) + "\n"
    src.write_text(text, encoding="utf-8")
    raw = Raw()
    try:
        raw.initialize(workspace, workspace={"workspaceEdit": {"documentChanges": True}})
        raw.notify("textDocument/didOpen", {"textDocument": {"uri": src.as_uri(), "languageId": "json",
                                                             "version": 1, "text": text}})
        rid = raw.request("workspace/executeCommand", {"command": "toolcast.export",
                                                       "arguments": [src.as_uri(), "anthropic", None]})
        answer = raw.response(rid)
        assert "outside the workspace" in answer.get("error", {}).get("message", ""), answer
        assert sorted(p.name for p in outside.iterdir()) == ["w.tool.json"]
    finally:
        raw.close()


async def test_an_export_never_replaces_its_own_source(client: LanguageClient, tmp_path: Path) -> None:
    """A tool named as its file (``both`` in ``both.anthropic.json``): its Anthropic export would be the file
    itself, holding one tool of the two."""
    tools = [{"name": "both", "description": "One", "input_schema": {"type": "object", "properties": {}}},
             {"name": "other", "description": "Two", "input_schema": {"type": "object", "properties": {}}}]
    text = "[\n" + ",\n".join(json.dumps(x) for x in tools) + "\n]\n"
    uri = open_document(client, tmp_path / "both.anthropic.json", text)
    chosen = [a for a in await _actions(client, uri, 1) if a.title.startswith("Export to Anthropic (both)")]
    assert not [a for a in chosen if "overwrite" in a.title]
    for action in chosen:
        await _choose(client, action)
    with pytest.raises(Exception, match="is the file being exported"):
        await client.workspace_execute_command_async(t.ExecuteCommandParams("toolcast.export", [uri, "anthropic", 0]))
    assert (tmp_path / "both.anthropic.json").read_text(encoding="utf-8") == text


async def test_a_link_planted_after_the_listing_is_refused_when_resolved(vscode: LanguageClient,
                                                                        tmp_path: Path) -> None:
    """VS Code lists the action while the name is free and resolves its edit when it is chosen: by then a
    link is there."""
    client = vscode
    read_code_actions_as_editors_do(client)
    victim = tmp_path / "victim.json"
    victim.write_text(VICTIM, encoding="utf-8")
    uri = open_document(client, tmp_path / "w.tool.json", json.dumps(TOOL, indent=2) + "\n")
    (action,) = [a for a in await _actions(client, uri, 1) if a.title == "Export to Anthropic"]
    (tmp_path / "w.anthropic.json").symlink_to(victim)
    with pytest.raises(Exception, match="symbolic link"):
        await client.code_action_resolve_async(action)
    assert [(m.type, m.message) for m in client.messages] == [
        (t.MessageType.Error, "toolcast: not exported: w.anthropic.json is a symbolic link; toolcast does not "
                              "write through a link (it could lead anywhere)")]
    assert victim.read_text(encoding="utf-8") == VICTIM
