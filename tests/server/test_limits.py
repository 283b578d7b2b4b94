"""A file with more findings than ``max_diagnostics``: tools with errors first, then the others in
order, and one notice of how many were left out (the real server over stdio)."""

from __future__ import annotations

import json
from pathlib import Path

from lsprotocol import types as t
from pytest_lsp import LanguageClient
from session import client_fixture

client = client_fixture("neovim", {"toolcast": {"max_diagnostics": 5}})


def _tool(i: int, broken: bool) -> dict[str, object]:
    # `pattern`: a loss for Gemini (parametersJsonSchema); "strin": not a JSON Schema type (an error).
    props = {"code": {"type": "strin" if broken else "string", "pattern": "^[a-z]+$"}}
    return {"name": f"tool_{i}", "description": "A tool.", "parameters": {"type": "object", "properties": props}}


async def test_diagnostics_are_capped_with_errors_first_and_a_notice(client: LanguageClient, tmp_path: Path) -> None:
    tools = [_tool(i, broken=(i == 8)) for i in range(10)]
    text = json.dumps(tools, indent=2)
    path = tmp_path / "many.tool.json"
    path.write_text(text)
    uri = path.as_uri()
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(uri, "json", 1, text)))
    report = await client.text_document_diagnostic_async(t.DocumentDiagnosticParams(t.TextDocumentIdentifier(uri)))
    diags = list(report.items)
    notices = [d for d in diags if d.code is None]
    findings = [d for d in diags if d.code is not None]
    assert len(findings) <= 5 and len(notices) == 1
    assert "toolcast shows" in notices[0].message and "of 11 findings" in notices[0].message
    # The tool with an error (the 9th) is shown although it comes after the limit in document order.
    assert "TC110" in {d.code for d in findings}
    lines = sorted(d.range.start.line for d in findings if d.code == "TC502")
    assert lines and lines == sorted(lines)
