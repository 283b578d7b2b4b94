"""A large file's first check runs in slices: the first diagnostics come at once with a "still
checking" notice, edits made meanwhile get their own tool's findings in their publish, and the last
publish equals what a fresh server process gives for the final text (the oracle never saw an edit)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from raw_rpc import Raw

TOOLS = 1200  # ~2 s of cold checks here; more than the first check's 0.25 s even at 0.3 ms per tool
STILL = "toolcast is still checking this file"


def _text() -> str:
    tools = [{"name": f"t_{i}", "description": "Look up a thing.",
              "parameters": {"type": "object", "properties": {"q": {"type": "string", "description": "What."}},
                             "required": ["q"], "additionalProperties": False}} for i in range(TOOLS)]
    return json.dumps(tools, indent=2)


def _publish(raw: Raw, uri: str, version: int, timeout: float = 120) -> list[Any]:
    msg = raw.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                   and m["params"]["uri"] == uri and m["params"].get("version") == version, timeout)
    diagnostics: list[Any] = msg["params"]["diagnostics"]
    return diagnostics


def _pull(raw: Raw, uri: str) -> list[Any]:
    rid = raw.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    items: list[Any] = raw.response(rid, 120)["result"]["items"]
    return items


def _still(diagnostics: list[Any]) -> bool:
    return any(d["message"].startswith(STILL) for d in diagnostics)


def _position(text: str, offset: int) -> dict[str, int]:
    line = text.count("\n", 0, offset)
    return {"line": line, "character": offset - (text.rfind("\n", 0, offset) + 1)}


@pytest.mark.slow
def test_edits_during_the_first_check_get_their_tools_findings_and_the_end_equals_a_fresh_server(
        tmp_path: Path) -> None:
    text = _text()
    uri = (tmp_path / "many.tool.json").as_uri()
    server, oracle = Raw(), Raw()  # the oracle starts meanwhile
    try:
        server.initialize(tmp_path)
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1,
                                                                "text": text}})
        assert _still(_publish(server, uri, 1))
        # Three edits at once, each making one tool's parameter type "banana" (TC110, an error no conversion can
        # repair: shown first under the cap on diagnostics), in tools late in the file the first slices have not
        # reached.
        version = 1
        for k in (TOOLS - 3, TOOLS - 200, TOOLS - 2):
            at = text.index('"type": "string"', text.index(f'"t_{k}"')) + len('"type": "')
            start, end = _position(text, at), _position(text, at + len("string"))
            text = text[:at] + "banana" + text[at + len("string"):]
            version += 1
            server.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": start, "end": end}, "text": "banana"}]})
            published = _publish(server, uri, version)
            errors = [d for d in published if d.get("code") == "TC110"]
            assert start["line"] in {d["range"]["start"]["line"] for d in errors}, f"edit in t_{k} not in its publish"
        # The background check goes on after the edits and publishes the complete diagnostics (unless it was
        # already complete when the last edit's publish went out: then that one is final).
        final = published
        while _still(final):
            final = _publish(server, uri, version)
        assert len([d for d in final if d.get("code") == "TC110"]) == 3

        oracle.initialize(tmp_path, pull=True, workspace={"diagnostics": {"refreshSupport": True}})
        oracle.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1,
                                                                "text": text}})
        fresh = _pull(oracle, uri)
        while _still(fresh):  # its own first check is sliced too: pull again once it asks for a refresh
            oracle.wait(lambda m: m.get("method") == "workspace/diagnostic/refresh", 120)
            fresh = _pull(oracle, uri)
        assert final == fresh
    finally:
        for raw in (server, oracle):
            raw.close()
