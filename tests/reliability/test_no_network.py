"""Nothing is fetched, ever: a local HTTP server on 127.0.0.1 counts requests while tool files that point
at it (``$ref``, ``$schema``, ``$id`` bases) are checked, converted, and served by the language server;
``file:`` and relative references resolve only inside the workspace (no ``..``, no symlink escape)."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from toolcast.adapters.checks import check_document
from toolcast.adapters.convert import convert
from toolcast.adapters.errors import ToolcastError
from toolcast.adapters.loading import load_tools
from toolcast.adapters.targets import TARGETS


class _Counter(BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        type(self).hits.append(self.path)
        body = b'{"type": "string"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        return


@pytest.fixture
def listener() -> Iterator[tuple[str, list[str]]]:
    hits: list[str] = []
    handler = type("Handler", (_Counter,), {"hits": hits})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        yield base, hits
    finally:
        httpd.shutdown()


def _workspace(tmp_path: Path, base: str) -> tuple[Path, list[Path]]:
    ws = tmp_path / "ws"
    ws.mkdir()
    outside = tmp_path / "outside.json"
    outside.write_text('{"$defs": {"S": {"type": "string"}}}', encoding="utf-8")
    (ws / "link.json").symlink_to(outside)

    def tool(name: str, **params: Any) -> dict[str, Any]:
        return {"name": name, "description": "d", "parameters": {"type": "object", **params}}

    files = {
        "remote_ref.tool.json": tool("remote", properties={"a": {"$ref": f"{base}/a.json"}}),
        "remote_schema.tool.json": {"$schema": f"{base}/schema.json", **tool("schema", properties={})},
        "remote_base.tool.json": tool("based", **{"$id": f"{base}/root.json"}, properties={"a": {"$ref": "b.json"}}),
        "dotdot.tool.json": tool("dotdot", properties={"a": {"$ref": "../outside.json#/$defs/S"}}),
        "file_uri.tool.json": tool("fileuri", properties={"a": {"$ref": outside.as_uri() + "#/$defs/S"}}),
        "symlink.tool.json": tool("symlink", properties={"a": {"$ref": "link.json#/$defs/S"}}),
        "openapi.tool.json": {"type": "function", "function": tool("oa", properties={"a": {"$ref": f"{base}/x#/y"}})},
    }
    paths = []
    for name, value in files.items():
        path = ws / name
        path.write_text(json.dumps(value, indent=2), encoding="utf-8")
        paths.append(path)
    return ws, paths


def test_checks_and_conversions_fetch_nothing(tmp_path: Path, listener: tuple[str, list[str]]) -> None:
    base, hits = listener
    _, paths = _workspace(tmp_path, base)
    codes: dict[str, set[str]] = {}
    for path in paths:
        text = path.read_text(encoding="utf-8")
        codes[path.name] = {f.code for f in check_document(text, path=str(path)).findings}
        for lt in load_tools(json.loads(text)):
            for target in TARGETS:
                with contextlib.suppress(ToolcastError):
                    convert(lt.tool, target)
    assert hits == []
    assert "TC304" in codes["remote_ref.tool.json"]  # "remote `$ref` ... is never fetched"
    for name in ("dotdot.tool.json", "file_uri.tool.json", "symlink.tool.json", "remote_base.tool.json"):
        assert codes[name] & {"TC303", "TC304"}, (name, codes[name])


def test_the_cli_fetches_nothing(tmp_path: Path, listener: tuple[str, list[str]]) -> None:
    base, hits = listener
    ws, paths = _workspace(tmp_path, base)
    exe = Path(sys.executable).parent / "toolcast"
    done = subprocess.run([str(exe), "check", "--format", "json", str(ws)], capture_output=True, text=True,
                          timeout=120)
    # The CLI did its work: every file was checked, and the references it refused are reported. They are
    # warnings (TC303/TC304), not errors: convert sends each such tool with any value in the reference's place
    # (TC502), as the loop below shows, and check and convert give one verdict.
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    codes: dict[str, set[str]] = {}
    for row in rows:
        codes.setdefault(Path(row["path"]).name, set()).add(row["code"])
    assert "TC304" in codes["remote_ref.tool.json"]
    for name in ("dotdot.tool.json", "file_uri.tool.json", "symlink.tool.json", "remote_base.tool.json"):
        assert codes[name] & {"TC303", "TC304"}, (name, codes.get(name))
    for path in paths:
        name = json.loads(path.read_text(encoding="utf-8"))
        name = name.get("name") or name["function"]["name"]
        for target in ("anthropic", "openai", "gemini"):
            out = subprocess.run([str(exe), "convert", str(path), "--to", target], capture_output=True, text=True,
                                 timeout=60)
            assert out.returncode == 0, (path.name, target, out.stderr)
            assert name in out.stdout and json.loads(out.stdout), (path.name, target)
    assert hits == []


def test_the_language_server_fetches_nothing(tmp_path: Path, listener: tuple[str, list[str]]) -> None:
    sys.path.insert(0, str(Path(__file__).parents[1] / "server"))
    from raw_rpc import Raw

    base, hits = listener
    ws, paths = _workspace(tmp_path, base)
    raw = Raw()
    try:
        raw.initialize(ws, pull=True)
        for path in paths:
            uri = path.as_uri()
            raw.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "json", "version": 1, "text": path.read_text(encoding="utf-8")}})
            rid = raw.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
            items = raw.response(rid)["result"]["items"]
            if path.name == "remote_ref.tool.json":
                assert "TC304" in {d["code"] for d in items}
            rid = raw.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                     "position": {"line": 4, "character": 8}})
            raw.response(rid)
            rid = raw.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {
                "start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 2}},
                "context": {"diagnostics": []}})
            raw.response(rid)
    finally:
        raw.close()
    assert hits == []
