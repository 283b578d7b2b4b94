"""A raw JSON-RPC connection to the real server process, for what a well-behaved client library would
never send: malformed frames, requests before ``initialize``, floods."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

#: The real server plus the test-only ``toolcast.test.documentText`` command (hook_server.py).
HOOK_SERVER = [sys.executable, str(Path(__file__).with_name("hook_server.py"))]


class Raw:
    def __init__(self, command: list[str] | None = None, umask: int = -1, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(command or [sys.executable, "-m", "toolcast.server"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, umask=umask, env=env)
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.stderr: list[bytes] = []
        self.invalid_utf8: list[bytes] = []  # message bodies that are not valid UTF-8 (none may be)
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.next_id = 1

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is None:
                continue
            body = out.read(length)
            try:
                body.decode("utf-8")  # strict: json.loads(bytes) would let encoded surrogates through
            except UnicodeDecodeError:
                self.invalid_utf8.append(body)
            self.inbox.put(json.loads(body))

    def _drain_stderr(self) -> None:
        err = self.proc.stderr
        assert err is not None
        for line in err:
            self.stderr.append(line)

    def send_bytes(self, body: bytes) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        self.send_bytes(json.dumps(message).encode())

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any = None) -> int:
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return rid

    def wait(self, pred: Any, timeout: float = 20) -> dict[str, Any]:
        """The first message (skipping others) that satisfies ``pred``."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message from the server")
            msg = self.inbox.get(timeout=left)
            if pred(msg):
                return msg

    def response(self, rid: int, timeout: float = 20) -> dict[str, Any]:
        return self.wait(lambda m: m.get("id") == rid and "method" not in m, timeout)

    def initialize(self, root: Path, pull: bool = False, encoding: str = "utf-16",
                   workspace: dict[str, Any] | None = None) -> dict[str, Any]:
        caps: dict[str, Any] = {"general": {"positionEncodings": [encoding]},
                                "textDocument": {"publishDiagnostics": {"versionSupport": True}}}
        if workspace is not None:
            caps["workspace"] = workspace
        if pull:
            caps["textDocument"]["diagnostic"] = {"dynamicRegistration": False}
        rid = self.request("initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": caps})
        result = self.response(rid)
        self.notify("initialized", {})
        return result

    def rss_kb(self) -> int:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))

    def close(self) -> int:
        try:
            rid = self.request("shutdown")
            self.response(rid, 10)
            self.notify("exit")
            return self.proc.wait(10)
        except (TimeoutError, BrokenPipeError, OSError, queue.Empty):
            self.proc.kill()
            return self.proc.wait(10)
