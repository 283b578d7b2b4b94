"""A diagnostic's rule link (`codeDescription.href`) opens offline: a file: URI of the installed
docs/rules.md, at the rule's own heading (the real server over stdio)."""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

TOOL = ('{"name": "get_weather", "description": "Weather", "parameters": {"type": "object",\n'
        ' "properties": {"city": {"type": "string"}}, "required": ["city", "ghost"]}}\n')


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "toolcast.server"]))
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(t.InitializeParams(capabilities=client_capabilities("neovim")))
    yield
    await lsp_client.shutdown_session()


async def test_diagnostics_link_the_installed_rules_reference(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "w.tool.json"
    path.write_text(TOOL, encoding="utf-8")
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(path.as_uri(), "json", 1, TOOL)))
    # Neovim 0.11 pulls diagnostics (`textDocument/diagnostic`).
    report = await client.text_document_diagnostic_async(
        t.DocumentDiagnosticParams(t.TextDocumentIdentifier(path.as_uri())))
    (ghost,) = [d for d in report.items if d.code == "TC302"]
    assert ghost.code_description is not None
    href = urlsplit(ghost.code_description.href)
    assert href.scheme == "file" and href.fragment == "tc302"
    assert "\n### TC302\n" in Path(url2pathname(href.path)).read_text(encoding="utf-8")
