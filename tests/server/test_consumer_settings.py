"""The editor's settings select consumers as toolcast.toml does: `consumers = ["vscode"]` in the client's
settings makes the language server report VS Code's rule on a pydantic tuple (microsoft/vscode#246119:
"tool parameters array type must have items"), with the rule's source in the diagnostic's message."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from lsprotocol import types as t
from pytest_lsp import LanguageClient
from session import client_fixture

client = client_fixture("visual-studio-code", {"toolcast": {"consumers": ["vscode"], "server_name": "pairs"}})


async def test_consumers_from_client_settings_reach_the_diagnostics(client: LanguageClient, tmp_path: Path) -> None:
    assert not [m for m in client.messages if m.type == t.MessageType.Warning]
    path = tmp_path / "pair.tool.json"
    text = json.dumps({"name": "set_pair", "description": "Store a pair.", "inputSchema": {
        "type": "object", "properties": {"pair": {"type": "array", "prefixItems": [{"type": "integer"},
                                                                                   {"type": "string"}]}}}}, indent=2)
    path.write_text(text, encoding="utf-8")
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(path.as_uri(), "json", 1, text)))
    for _ in range(100):
        if path.as_uri() in client.diagnostics:
            break
        await asyncio.sleep(0.1)
    found = [d for d in client.diagnostics[path.as_uri()] if d.code == "TC904"]
    assert len(found) == 1 and found[0].severity == t.DiagnosticSeverity.Error
    assert "VS Code (Copilot agent mode)" in found[0].message and "microsoft/vscode#246119" in found[0].message
    pair_line = next(i for i, line in enumerate(text.splitlines()) if '"pair"' in line)
    assert found[0].range.start.line == pair_line  # on the `pair` property's key, where `items` is missing
