"""One fix per fact, on the real server with real Emacs's capabilities (eglot 1.9, recorded in clients/):
a name with a dot gets TC203 (not portable) and TC204 (invalid for some targets), and both fixes rename
it to 'send_email'. Eglot listed "Rename to 'send_email'" twice; now one action fixes both diagnostics.
Fixes that make different edits stay apart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lsprotocol import types as t
from pytest_lsp import LanguageClient
from session import EGLOT, client_fixture, open_document, recorded_capabilities

TOOL = {"name": "send.email", "description": "Send an email.", "parameters": {
    "type": "object", "additionalProperties": False, "required": ["to"],
    "properties": {"to": {"type": "string"}, "pick": {"type": "string", "const": "a"}}}}


# TC501 on as well: its fix (const to enum) is another edit, kept apart.
client = client_fixture(recorded_capabilities(EGLOT), {"toolcast": {"select": ["TC2", "TC5"]}})


def _edit_text(action: t.CodeAction) -> list[tuple[Any, str]]:
    assert action.edit is not None and action.edit.document_changes
    (change,) = action.edit.document_changes
    assert isinstance(change, t.TextDocumentEdit)
    return [(e.range, e.new_text) for e in change.edits if isinstance(e, t.TextEdit)]


async def test_two_diagnostics_with_the_same_rename_get_one_action(client: LanguageClient, tmp_path: Path) -> None:
    text = json.dumps(TOOL, indent=2)
    uri = open_document(client, tmp_path / "send.tool.json", text)
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)  # eglot: pushed diagnostics
    diags = client.diagnostics[uri]
    fixable = [d for d in diags if isinstance(d.data, dict) and d.data.get("fixable")]
    codes = sorted(str(d.code) for d in fixable)
    assert "TC203" in codes and "TC204" in codes and "TC501" in codes, codes
    end = t.Position(len(text.splitlines()), 0)
    actions = await client.text_document_code_action_async(t.CodeActionParams(
        t.TextDocumentIdentifier(uri), t.Range(t.Position(0, 0), end), t.CodeActionContext(diagnostics=fixable,
                                                                                           only=["quickfix"])))
    fixes = [a for a in actions or [] if isinstance(a, t.CodeAction)]
    titles = [a.title for a in fixes]
    assert titles.count("Rename to 'send_email'") == 1, titles
    (rename,) = [a for a in fixes if a.title == "Rename to 'send_email'"]
    assert sorted(str(d.code) for d in rename.diagnostics or []) == ["TC203", "TC204"]
    assert [new for _, new in _edit_text(rename)] == ['"send_email"']
    # Every fixable diagnostic still has its fix, and no two actions make the same edit.
    covered = sorted(str(d.code) for a in fixes for d in a.diagnostics or [])
    assert covered == codes, (covered, codes)
    edits = [repr(_edit_text(a)) for a in fixes]
    assert len(edits) == len(set(edits)) and len(fixes) >= 2, titles
