"""Invalid client settings are shown once and replaced by defaults; the server exits with its client."""

from __future__ import annotations

import json
import subprocess
import sys
import time

from lsprotocol import types as t
from pytest_lsp import LanguageClient
from session import client_fixture

client = client_fixture("visual-studio-code", {"toolcast": {"targets": ["openia"], "colour": "red"}})


async def test_invalid_settings_give_one_visible_warning(client: LanguageClient) -> None:
    warnings = [m for m in client.messages if m.type == t.MessageType.Warning]
    assert len(warnings) == 1 and "invalid settings" in warnings[0].message and "openia" in warnings[0].message


def _frame(message: dict[str, object]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_server_exits_when_its_client_process_dies() -> None:
    editor = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.5)"])
    server = subprocess.Popen([sys.executable, "-m", "toolcast.server"], stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert server.stdin is not None
        server.stdin.write(_frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                   "params": {"processId": editor.pid, "capabilities": {}}}))
        server.stdin.flush()
        editor.wait()
        deadline = time.monotonic() + 30
        while server.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert server.poll() is not None, "the server outlived its client"
    finally:
        if server.poll() is None:
            server.kill()
