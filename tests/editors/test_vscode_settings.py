"""The VS Code extension's settings (editors/vscode/package.json `contributes.configuration`) as the server
reads them. The extension's client answers the server's `workspace/configuration` request for the
`toolcast` section with what VS Code's `getConfiguration("toolcast")` returns: every declared key, nested
at its dots, unset ones as their default. These tests build that answer from package.json itself, so a
setting declared under a name the server does not read (or not declared at all) fails here."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from lsprotocol import types as t
from pytest_lsp import LanguageClient
from toolcast.adapters.checks.config import config_from_mapping
from toolcast.adapters.consumers import consumer_names

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from session import client_fixture

PACKAGE = Path(__file__).resolve().parents[2] / "editors" / "vscode" / "package.json"
PROPERTIES: dict[str, Any] = json.loads(PACKAGE.read_text(encoding="utf-8"))["contributes"]["configuration"][
    "properties"]
#: The consumer and budget settings, with values that each turn on a finding for the file below.
CHOSEN = {"toolcast.consumers": ["vscode", "claude-code"], "toolcast.models": ["gemini-3-pro-preview"],
          "toolcast.server_name": "weather_server_for_everyone", "toolcast.max_tokens": 1, "toolcast.max_tools": 1}
#: Their findings: VS Code's `items` (TC904), Claude Code's prefixed name length (TC903), the token and tool
#: budgets (TC930, TC931). Gemini 3's typeless node (TC906) is a rule of the `parameters` form, and with no target
#: named Gemini is judged in `parametersJsonSchema`, which takes the node as written.
CONSUMER_CODES = {"TC903", "TC904", "TC930", "TC931"}
TOOLS = [
    {"name": "set_pair", "description": "Store a pair.", "inputSchema": {"type": "object", "properties": {
        "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]},
        "when": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}},
    {"name": "get_forecast_for_the_city_and_the_number_of_days_requested", "description": "Forecast.",
     "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}},
]


def vscode_section(chosen: dict[str, Any]) -> dict[str, Any]:
    """`getConfiguration("toolcast")` as a JSON object: package.json's defaults, then ``chosen`` values."""
    section: dict[str, Any] = {}
    for key, schema in PROPERTIES.items():
        *parents, leaf = key.removeprefix("toolcast.").split(".")
        node = section
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = chosen.get(key, schema.get("default"))
    return section


client = client_fixture("visual-studio-code")  # VS Code's capabilities; its settings come by pull, below


async def _codes(client: LanguageClient, uri: str, until: Any = bool) -> set[str]:
    """The codes of the diagnostics published for ``uri``, once ``until(codes)`` holds (or after 15 s)."""
    codes: set[str] = set()
    for _ in range(150):
        if uri in client.diagnostics:
            codes = {str(d.code) for d in client.diagnostics[uri]}
            if until(codes):
                break
        await asyncio.sleep(0.1)
    return codes


async def test_consumer_and_budget_settings_reach_the_server_under_their_declared_names(client: LanguageClient,
                                                                                     tmp_path: Path) -> None:
    path = tmp_path / "pair.tools.json"
    text = json.dumps(TOOLS, indent=2)
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    # pytest-lsp answers the server's `workspace/configuration` pulls from this, as VS Code from its settings.
    client.set_configuration(vscode_section({}), section="toolcast")
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings=None))
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(uri, "json", 1, text)))
    baseline = await _codes(client, uri)
    assert "TC510" in baseline and not baseline & CONSUMER_CODES, baseline  # checked; defaults (null): no such rule
    # A change in the settings UI: the client says so without a payload and the server pulls the section.
    client.set_configuration(vscode_section(CHOSEN), section="toolcast")
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings=None))
    codes = await _codes(client, uri, lambda c: c >= CONSUMER_CODES)
    assert codes >= CONSUMER_CODES, codes
    assert not [m.message for m in client.messages if m.type <= t.MessageType.Warning]
    named = [d.message for d in client.diagnostics[uri] if d.code == "TC903"]
    assert any("mcp__weather_server_for_everyone__get_forecast" in m for m in named), named


# Values a user may type, per setting: the settings UI (package.json's schema) and the server must agree on
# which are valid. `models` has no enum (model names are open-ended), so only its shape is compared; a
# single name for a list is left out (the server takes it, a toolcast.toml convenience; the UI asks for a list).
VALUES: dict[str, list[Any]] = {
    "consumers": [["vscode"], ["vscode", "claude-code", "cursor"], [], ["nobody"], [1], {"vscode": True}],
    "models": [["gemini-3-pro-preview"], [], [3]],
    "server_name": ["weather", "", 5],
    "max_tokens": [1, 8000, 0, -5, 1.5, "8000", True],
    "max_tools": [1, 40, 0, -1, 2.5, "40", False],
}


@pytest.mark.parametrize(("key", "value"), [(k, v) for k, vs in VALUES.items() for v in vs])
def test_the_settings_ui_accepts_what_the_server_accepts(key: str, value: Any) -> None:
    schema = PROPERTIES[f"toolcast.{key}"]
    ui_accepts = jsonschema.Draft7Validator(schema).is_valid(value)
    _, problems = config_from_mapping({key: value}, "client settings")
    assert ui_accepts == (not problems), (key, value, problems)


def test_the_consumer_names_offered_are_the_known_ones() -> None:
    items = PROPERTIES["toolcast.consumers"]["items"]
    assert items["enum"] == list(consumer_names())
    assert len(items["enumDescriptions"]) == len(items["enum"])
    for key in CHOSEN:
        assert PROPERTIES[key]["markdownDescription"] and PROPERTIES[key]["default"] is None, key
