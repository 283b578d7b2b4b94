"""Protocol robustness with the real server process: what the JSON-RPC and LSP specifications ask for
when a client sends something wrong, and a flood of changes that must not pile up work or memory."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from raw_rpc import HOOK_SERVER, Raw

TOOL = {"name": "get_weather", "description": "Weather.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}


@pytest.fixture
def raw() -> Iterator[Raw]:
    conn = Raw()
    yield conn
    conn.close()


def _error(raw: Raw, rid: int | None = None) -> dict[str, object]:
    msg = raw.wait(lambda m: "error" in m and (rid is None or m.get("id") == rid), 10)
    error = msg["error"]
    assert isinstance(error, dict)
    return error


def test_requests_before_initialize_are_refused_and_notifications_dropped(raw: Raw, tmp_path: Path) -> None:
    uri = (tmp_path / "a.tool.json").as_uri()
    raw.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1,
                                                         "text": json.dumps(TOOL)}})
    rid = raw.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
    assert _error(raw, rid)["code"] == -32002
    raw.initialize(tmp_path)
    rid = raw.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert raw.response(rid)["result"] in (None, [])  # the didOpen before initialize was dropped


def test_malformed_messages_get_json_rpc_errors(raw: Raw, tmp_path: Path) -> None:
    raw.initialize(tmp_path)
    raw.send_bytes(b"{not json")
    assert _error(raw)["code"] == -32700  # parse error, id null
    raw.send_bytes(b"[1, 2]")
    assert _error(raw)["code"] == -32600  # not a request object
    raw.send_bytes(b'{"jsonrpc": "2.0", "id": 41, "method": "textDocument/hover", "params": {"textDocument": 5}}')
    assert _error(raw, 41)["code"] == -32602  # params of the wrong shape
    rid = raw.request("toolcast/noSuchMethod", {})
    assert _error(raw, rid)["code"] == -32601
    raw.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 12345}})  # nothing to cancel
    uri = (tmp_path / "nowhere.json").as_uri()
    for method, params in (
        ("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 9, "character": 9}}),
        ("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {
            "start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "context": {"diagnostics": []}}),
        ("textDocument/documentSymbol", {"textDocument": {"uri": uri}}),
    ):
        rid = raw.request(method, params)
        assert "result" in raw.response(rid)  # unknown documents: an empty answer, not an error
    raw.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": ""}]})
    rid = raw.request("shutdown")
    assert raw.response(rid)["result"] is None
    rid = raw.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert _error(raw, rid)["code"] == -32600  # after shutdown
    raw.notify("exit")
    assert raw.proc.wait(10) == 0
    assert b"Traceback" not in b"".join(raw.stderr)  # every bad message above was answered, none logged as a crash


def test_a_flood_of_ten_thousand_changes(tmp_path: Path) -> None:
    """10,000 didChange notifications in one burst: the server keeps only the newest text, publishes
    for it, answers the next request, and its memory does not grow with the burst."""
    raw = Raw(HOOK_SERVER)
    try:
        _flood(raw, tmp_path)
    finally:
        raw.close()


def _flood(raw: Raw, tmp_path: Path) -> None:
    raw.initialize(tmp_path)
    tools = [dict(TOOL, name=f"tool_{i}") for i in range(50)]
    text = json.dumps(tools, indent=2)
    uri = (tmp_path / "flood.tool.json").as_uri()
    raw.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}})
    raw.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["version"] == 1, 30)
    before = raw.rss_kb()
    at = text.index('"Weather."') + 1  # inside the first description
    line = text[:at].count("\n")
    col = at - text.rfind("\n", 0, at) - 1
    burst = bytearray()
    count = 10_000
    for v in range(2, count + 2):
        change = {"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col}},
                  "text": "x"}
        body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange",
                           "params": {"textDocument": {"uri": uri, "version": v}, "contentChanges": [change]}}).encode()
        burst += b"Content-Length: %d\r\n\r\n" % len(body) + body
    started = time.monotonic()
    stdin = raw.proc.stdin
    assert stdin is not None
    stdin.write(bytes(burst))
    stdin.flush()
    last = raw.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"].get("version") == count + 1, 120)
    took = time.monotonic() - started
    rid = raw.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    symbols = raw.response(rid, 30)["result"]
    after = raw.rss_kb()
    assert [s["name"] for s in symbols][:2] == ["tool_0", "tool_1"] and len(symbols) == 50
    assert isinstance(last["params"]["diagnostics"], list)
    # The text has all 10,000 insertions, each at its place: exactly this text.
    rid = raw.request("workspace/executeCommand", {"command": "toolcast.test.documentText", "arguments": [uri]})
    assert raw.response(rid, 30)["result"] == text[:at] + "x" * count + text[at:]
    print(f"\nflood: {count:,} changes applied and published in {took:.1f} s; RSS {before / 1024:.0f} MB before, "
          f"{after / 1024:.0f} MB after")
    assert after < before + 200_000  # bounded: not a copy of the document per change


def test_hostile_documents_get_diagnostics_and_the_next_request_an_answer(raw: Raw, tmp_path: Path) -> None:
    """10,000 levels of nesting and a 40 MB file (over the 32 M-character limit): each is answered with
    a finding, and the server keeps answering."""
    raw.initialize(tmp_path, pull=True)
    deep = "[" * 10_000 + "]" * 10_000
    huge = '{"name": "big", "description": "' + "x" * 40_000_000 + '"}'
    for name, text, code in (("deep.tool.json", deep, None), ("huge.tool.json", huge, "TC003")):
        uri = (tmp_path / name).as_uri()
        raw.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1,
                                                             "text": text}})
        rid = raw.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        items = raw.response(rid, 120)["result"]["items"]
        assert items and (code is None or code in {d.get("code") for d in items}), items[:3]
        rid = raw.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        assert "result" in raw.response(rid, 60)


def test_lifecycle_per_specification(raw: Raw, tmp_path: Path) -> None:
    """A second `initialize` is an error; bad command arguments get an error answer and a one-line
    warning; `exit` without `shutdown` ends the process with exit code 1."""
    raw.initialize(tmp_path)
    rid = raw.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    assert _error(raw, rid)["code"] == -32600
    rid = raw.request("workspace/executeCommand", {"command": "toolcast.export", "arguments": [1, 2, 3]})
    assert _error(raw, rid)["code"] == -32602
    rid = raw.request("workspace/executeCommand", {"command": "toolcast.nothing", "arguments": []})
    assert _error(raw, rid)["code"] == -32602
    rid = raw.request("textDocument/documentSymbol", {"textDocument": {"uri": "file:///nowhere.json"}})
    assert "result" in raw.response(rid)  # still serving
    raw.notify("exit")
    assert raw.proc.wait(10) == 1
    log = b"".join(raw.stderr).decode("utf-8", "replace")
    assert "Traceback" not in log, log
    assert any("toolcast.export takes" in line and line.startswith("WARNING") for line in log.splitlines()), log


def test_export_files_get_the_umask_mode_and_symlinks_are_refused(tmp_path: Path) -> None:
    raw = Raw(umask=0o022)
    try:
        raw.initialize(tmp_path)
        src = tmp_path / "w.tool.json"
        src.write_text(json.dumps(TOOL))
        rid = raw.request("workspace/executeCommand", {"command": "toolcast.export",
                                                       "arguments": [src.as_uri(), "openai"]})
        written = Path(raw.response(rid)["result"]["path"])
        assert written.name == "w.openai.json" and written.stat().st_mode & 0o777 == 0o644
        elsewhere = tmp_path / "elsewhere.json"
        elsewhere.write_text("mine")
        (tmp_path / "w.anthropic.json").symlink_to(elsewhere)
        rid = raw.request("workspace/executeCommand", {"command": "toolcast.export",
                                                       "arguments": [src.as_uri(), "anthropic"]})
        assert "symbolic link" in _error(raw, rid)["message"]
        assert elsewhere.read_text() == "mine" and (tmp_path / "w.anthropic.json").is_symlink()
    finally:
        raw.close()


def test_an_export_the_provider_would_reject_is_an_error_and_no_file(tmp_path: Path) -> None:
    """A root that is not an object (Bedrock: "inputSchema.json.type must be one of the following: object"): the
    export answers an error naming the rule and writes nothing, as `toolcast convert` exits 2."""
    raw = Raw()
    try:
        raw.initialize(tmp_path)
        src = tmp_path / "s.tool.json"
        src.write_text(json.dumps({"name": "s", "description": "d", "parameters": {"type": "string"}}))
        for target in ("bedrock", "openai"):
            rid = raw.request("workspace/executeCommand", {"command": "toolcast.export",
                                                           "arguments": [src.as_uri(), target]})
            assert "root-not-object" in _error(raw, rid)["message"]
            assert not (tmp_path / f"s.{target}.json").exists()
    finally:
        raw.close()
