"""The hover on a tool's name and the code lens above it count the same losses per target: changes of
meaning (TC502–TC505), never TC501's neutral rewrites, even when TC501 is turned on (the real server)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from lsprotocol import types as t
from pytest_lsp import LanguageClient
from session import client_fixture

client = client_fixture("neovim", {"toolcast": {"select": ["TC5"], "targets": ["gemini", "openai"]}})

TOOL = {
    "name": "pick",
    "description": "Pick a colour.",
    "parameters": {"type": "object", "additionalProperties": False, "required": ["c", "n"], "properties": {
        "c": {"type": "string", "const": "red"},  # a one-value enum for Gemini: a neutral rewrite (TC501)
        "n": {"type": "integer", "multipleOf": 2},  # stated in the description: a widening loss (TC502)
    }},
}


async def test_hover_and_lens_count_the_same_losses(client: LanguageClient, tmp_path: Path) -> None:
    text = json.dumps(TOOL, indent=2)
    path = tmp_path / "pick.tool.json"
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(uri, "json", 1, text)))
    report = await client.text_document_diagnostic_async(t.DocumentDiagnosticParams(t.TextDocumentIdentifier(uri)))
    codes = {str(d.code) for d in report.items}
    assert "TC501" in codes and "TC502" in codes, codes  # both kinds are there to be counted
    line = text.splitlines()[1]
    hover = await client.text_document_hover_async(t.HoverParams(
        t.TextDocumentIdentifier(uri), t.Position(1, line.index('"pick"') + 2)))
    assert hover is not None
    value = hover.contents.value if isinstance(hover.contents, t.MarkupContent) else str(hover.contents)
    in_hover = {label: 0 if what == "kept" else int(what.split()[0])
                for label, what in re.findall(r"- (.+?): (kept|\d+ loss\(es\))", value)}
    lenses = await client.text_document_code_lens_async(t.CodeLensParams(t.TextDocumentIdentifier(uri)))
    (lens,) = [x for x in lenses if x.command is not None]  # the token cost lenses are resolved later
    assert lens.command is not None
    in_lens = dict(re.findall(r"(\w[\w-]*): (\d+)", lens.command.title.removeprefix("toolcast: ")))
    labels = {"gemini": "Gemini (parameters)", "openai": "OpenAI Chat Completions"}
    assert {labels[k]: int(v) for k, v in in_lens.items() if k in labels} == {k: v for k, v in in_hover.items() if v}
    assert in_hover["Gemini (parameters)"] >= 1
