"""A raw connection to the real server that keeps every publish it receives: what opening, editing and
closing documents costs in publishes (tests/server/test_publish_costs.py, bench/bench_costs.py)."""

from __future__ import annotations

import queue
import time
from pathlib import Path
from typing import Any

from raw_rpc import HOOK_SERVER, Raw

PUBLISH = "textDocument/publishDiagnostics"


class Client:
    """A raw connection that keeps every publish it receives, in order."""

    def __init__(self, command: list[str] | None = None) -> None:
        self.raw = Raw(command or HOOK_SERVER)
        self.published: list[dict[str, Any]] = []  # params of each publish
        self.by_uri: dict[str, list[dict[str, Any]]] = {}  # the same, per document
        self.requests: list[str] = []  # methods of the requests the server sent

    def _take(self, timeout: float) -> dict[str, Any] | None:
        try:
            msg = self.raw.inbox.get(timeout=timeout)
        except queue.Empty:
            return None
        if msg.get("method") == PUBLISH:
            self.published.append(msg["params"])
            self.by_uri.setdefault(msg["params"]["uri"], []).append(msg["params"])
        elif "method" in msg and "id" in msg:
            self.requests.append(msg["method"])
            self.raw.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
        return msg

    def until(self, done: Any, timeout: float = 60) -> None:
        """Read messages until ``done(self)`` holds; a TimeoutError after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while not done(self):
            if time.monotonic() > end:
                raise TimeoutError(f"{len(self.published)} publishes so far")
            self._take(0.1)

    def quiet(self, seconds: float = 1.5, limit: float = 120) -> bool:
        """Read until nothing has come for ``seconds`` (publishes scheduled earlier are in); False when
        messages still come after ``limit`` seconds."""
        end = time.monotonic() + limit
        while self._take(seconds) is not None:
            if time.monotonic() > end:
                return False
        return True

    def response(self, rid: int, timeout: float = 60) -> Any:
        found: list[dict[str, Any]] = []

        def answered(_: Client) -> bool:
            return bool(found)

        end = time.monotonic() + timeout
        while not found:
            if time.monotonic() > end:
                raise TimeoutError(f"no answer to request {rid}")
            msg = self._take(0.1)
            if msg is not None and msg.get("id") == rid and "method" not in msg:
                found.append(msg)
        return found[0].get("result")

    def publishes_of(self, uri: str) -> list[dict[str, Any]]:
        return self.by_uri.get(uri, [])

    def forget(self) -> None:
        """Start counting publishes again."""
        self.published.clear()
        self.by_uri.clear()

    def last(self, uri: str) -> list[dict[str, Any]]:
        mine = self.publishes_of(uri)
        return mine[-1]["diagnostics"] if mine else []

    def open(self, path: Path) -> str:
        uri = path.as_uri()
        self.raw.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "json", "version": 1, "text": path.read_text(encoding="utf-8")}})
        return uri
