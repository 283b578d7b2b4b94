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
    # per tool: the Gemini `pattern` loss and the OpenAI strict closure (narrowing); + the error
    assert "toolcast shows" in notices[0].message and "of 22 findings" in notices[0].message
    # The tool with an error (the 9th) is shown although it comes after the limit in document order.
    assert "TC110" in {d.code for d in findings}
    lines = sorted(d.range.start.line for d in findings if d.code == "TC502")
    assert lines and lines == sorted(lines)


def test_large_files_offer_exports_as_commands(tmp_path: Path) -> None:
    """Code actions come at every cursor move: a file of many tools is not converted eight times for
    each; the export runs when chosen."""
    from raw_rpc import Raw

    text = json.dumps([_tool(i, broken=False) for i in range(60)], indent=2)
    path = tmp_path / "large.tool.json"
    path.write_text(text)
    raw = Raw()
    try:
        raw.initialize(tmp_path, pull=True, workspace={"workspaceEdit": {
            "documentChanges": True, "resourceOperations": ["create"]}})
        small = tmp_path / "small.tool.json"
        small.write_text(json.dumps(_tool(0, broken=False)))

        def actions_for(p: Path, body: str) -> list[dict[str, object]]:
            raw.notify("textDocument/didOpen", {"textDocument": {"uri": p.as_uri(), "languageId": "json",
                                                                 "version": 1, "text": body}})
            rid = raw.request("textDocument/codeAction", {"textDocument": {"uri": p.as_uri()}, "range": {
                "start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 1}},
                "context": {"diagnostics": []}})
            result: list[dict[str, object]] = raw.response(rid)["result"]
            return result

        assert all("edit" in a for a in actions_for(small, small.read_text()))  # small: the file to create
        actions = actions_for(path, text)
        exports = [a for a in actions if a["title"].startswith("Export to Anthropic")]
        assert exports and all("edit" not in a for a in exports)
        command = exports[-1]["command"]
        assert isinstance(command, dict) and command["command"] == "toolcast.export"
        rid = raw.request("workspace/executeCommand", command)
        assert Path(raw.response(rid)["result"]["path"]).name == "large.anthropic.json"
    finally:
        raw.close()
