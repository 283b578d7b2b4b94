"""Settings as the VS Code extension sends them: every declared key, unset ones as null, plus its own
`server` and `trace` keys. None of that is an invalid setting, and null leaves the project's file in
charge."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types as t
from pytest_lsp import LanguageClient
from session import client_fixture

VSCODE_SETTINGS = {"toolcast": {
    "server": {"command": None}, "trace": {"server": "off"}, "targets": None, "target_options": None,
    "select": None, "ignore": None, "severity": None, "globs": None, "max_diagnostics": None, "debounce_ms": None,
}}


client = client_fixture("visual-studio-code", VSCODE_SETTINGS)  # VS Code's capabilities with its settings


async def test_extension_settings_are_accepted_and_nulls_defer_to_the_project(client: LanguageClient,
                                                                              tmp_path: Path) -> None:
    assert not [m for m in client.messages if m.type == t.MessageType.Warning]
    (tmp_path / "toolcast.toml").write_text('ignore = ["TC203"]\n', encoding="utf-8")
    path = tmp_path / "w.tool.json"
    text = '{"name": "get weather", "description": "d", "parameters": {"type": "object", "required": ["x"]}}'
    path.write_text(text, encoding="utf-8")
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(path.as_uri(), "json", 1, text)))
    # This preset declares no pull diagnostics: the server pushes them.
    for _ in range(100):
        if path.as_uri() in client.diagnostics:
            break
        await asyncio.sleep(0.1)
    codes = {d.code for d in client.diagnostics[path.as_uri()]}
    assert "TC204" in codes and "TC203" not in codes  # checked, with the project's ignore list applied
