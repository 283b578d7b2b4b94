"""Every message the real server writes is UTF-8 JSON, whatever the document holds: lone surrogates
(legal JSON on the wire as ``"\\ud800"``) in a tool's name, description, property keys, enum values and
format, written as JSON escapes or sent as code points. Diagnostics are pushed and pulled, and hover,
code actions and document symbols answer. Before, a message quoting a surrogate back failed in
``_send_data`` with "UnicodeEncodeError: 'utf-8' codec can't encode character '\\ud800'": the pull got
an error instead of its items and the push never came."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from raw_rpc import Raw
from toolcast.adapters.targets import TARGETS
from toolcast.server.lsp.protocol import message_bytes

HIGH, LOW = "\ud800", "\udfff"


def _tool(name: str, description: str, key: str, enum: str, fmt: str) -> dict[str, Any]:
    return {"name": name, "description": description, "parameters": {
        "type": "object", "required": [key, "ghost" + LOW],
        "properties": {key: {"type": "string", "enum": [enum, "b"], "format": fmt, "minLength": 1}}}}


#: label -> document text. "escaped": the six characters ``\ud800`` in the text, so the parsed value holds
#: the surrogate; "raw": the text itself holds the code point (the client sends it escaped on the wire).
DOCUMENTS = {
    "escaped": json.dumps(_tool("get" + HIGH, "d" + LOW, "city" + HIGH, "a" + LOW, "uri" + HIGH), indent=1),
    "raw": json.dumps(_tool("get" + LOW, "d" + HIGH, "city" + LOW, "a" + HIGH, "uri" + LOW), indent=1,
                      ensure_ascii=False),
}


@pytest.fixture(params=["push", "pull"])
def raw(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Raw, bool]]:
    conn = Raw()
    conn.initialize(tmp_path, pull=request.param == "pull")
    yield conn, request.param == "pull"
    conn.close()


def _answer(raw: Raw, method: str, params: dict[str, Any]) -> Any:
    msg = raw.response(raw.request(method, params), 30)
    assert "error" not in msg, msg
    return msg["result"]


@pytest.mark.parametrize("label", DOCUMENTS)
def test_a_document_with_lone_surrogates_gets_every_answer_in_utf8(raw: tuple[Raw, bool], tmp_path: Path,
                                                                  label: str) -> None:
    server, pull = raw
    # Every form named: the folded `format` that quotes the surrogates back is a loss of a form not chosen by default.
    (tmp_path / "toolcast.toml").write_text(f"targets = {json.dumps(list(TARGETS))}\n", encoding="utf-8")
    text = DOCUMENTS[label]
    uri = (tmp_path / f"{label}.tool.json").as_uri()
    doc = {"textDocument": {"uri": uri}}
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1,
                                                            "text": text}})
    if pull:
        items = _answer(server, "textDocument/diagnostic", doc)["items"]
    else:
        items = server.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"]["uri"] == uri, 30)["params"]["diagnostics"]
    codes = {d["code"] for d in items}
    # The findings that quote the surrogates back: the unknown required name, the folded format.
    assert {"TC302", "TC502"} <= codes, codes
    quoted = " ".join(d["message"] for d in items)
    assert ("ghost" + LOW) in quoted and "uri" in quoted
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if '"format"' in line)
    hover = _answer(server, "textDocument/hover", {**doc, "position": {"line": at, "character":
                                                                    lines[at].index('"format"') + 2}})
    assert hover is not None and "folded into the description" in hover["contents"]["value"]
    at = next(i for i, line in enumerate(lines) if '"name"' in line)
    hover = _answer(server, "textDocument/hover", {**doc, "position": {"line": at, "character":
                                                                    lines[at].index('"get') + 2}})
    assert hover is not None and ("get" + (HIGH if label == "escaped" else LOW)) in hover["contents"]["value"]
    symbols = _answer(server, "textDocument/documentSymbol", doc)
    name, key = ("get" + HIGH, "city" + HIGH) if label == "escaped" else ("get" + LOW, "city" + LOW)
    assert [s["name"] for s in symbols] == [name] and [c["name"] for c in symbols[0]["children"]] == [key]
    end = {"line": len(lines), "character": 0}
    actions = _answer(server, "textDocument/codeAction", {**doc, "range": {"start": {"line": 0, "character": 0},
                                                                        "end": end},
                                                       "context": {"diagnostics": items}})
    assert any(a["title"].startswith("Export to") for a in actions)
    assert not server.invalid_utf8, server.invalid_utf8[:1]
    log = b"".join(server.stderr).decode("utf-8", "replace")
    assert "Traceback" not in log and "UnicodeEncodeError" not in log, log


def test_surrogates_are_written_as_json_escapes_of_the_same_value() -> None:
    text = json.dumps({"k" + HIGH: ["a" + LOW, HIGH, "😀", "é"]}, ensure_ascii=False)
    body = message_bytes(text)
    decoded = body.decode("utf-8")  # strict
    assert "\\ud800" in decoded and "😀" in decoded and "é" in decoded  # only surrogates are escaped
    assert json.loads(decoded) == json.loads(text)
