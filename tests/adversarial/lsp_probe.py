"""The real language server over stdio, under the probes' address-space cap (bounded.MEMORY_CAP), with a
client that answers the server's progress requests, so a probe can wait for the workspace index."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from tests.adversarial.bounded import MEMORY_CAP
from tests.server.raw_rpc import Raw

_CAPPED = ("import resource, runpy; resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap})); "
           "runpy.run_module('toolcast.server', run_name='__main__')")


def capped_server() -> Raw:
    return Raw([sys.executable, "-c", _CAPPED.format(cap=MEMORY_CAP)])


def initialize_and_index(server: Raw, root: Path, timeout: float = 60) -> list[dict[str, Any]]:
    """``initialize`` with ``root`` as the workspace and work-done progress; waits until the workspace
    index has ended and returns the log messages sent meanwhile."""
    rid = server.request("initialize", {"processId": None, "rootUri": root.as_uri(),
                                        "capabilities": {"window": {"workDoneProgress": True}}})
    server.response(rid, timeout)
    server.notify("initialized", {})
    logs: list[dict[str, Any]] = []

    def seen(msg: dict[str, Any]) -> bool:
        if msg.get("method") == "window/logMessage":
            logs.append(msg["params"])
        elif msg.get("method") == "window/workDoneProgress/create":
            server.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
        elif msg.get("method") == "$/progress":
            return bool(msg["params"]["value"].get("kind") == "end")
        return False

    server.wait(seen, timeout)
    return logs


def peak_rss_mb(server: Raw) -> float:
    status = Path(f"/proc/{server.proc.pid}/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM")) / 1024
