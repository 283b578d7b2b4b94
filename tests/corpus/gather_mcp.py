"""Record the real `tools/list` of MCP servers installed from PyPI and npm (not run by the test suite).

Usage::

    python -m tests.corpus.gather_mcp SERVERS.json [--out tests/corpus]

``SERVERS.json`` is a list of ``{"id", "registry": "pypi"|"npm", "package", "version", "command",
"args", "env"?}``: how each server was installed and started (installed beforehand in its own
environment, e.g. a virtualenv per PyPI package, ``npm install --ignore-scripts`` per npm package).
Dummy credentials in ``env`` only let a server start; no server is asked anything but
``initialize`` and ``tools/list``, so nothing reaches the network through them.

The MCP Python SDK's stdio transport starts the server; the requests are sent as raw JSON-RPC and
the ``tools`` arrays are recorded exactly as the server sent them (the SDK's ``Tool`` model would drop
fields it does not know). Pages (``nextCursor``) are followed. One file per server:
``tests/corpus/mcp-<id>.json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.message import SessionMessage
from mcp_types.jsonrpc import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

PROTOCOL = "2025-06-18"


async def _request(read: Any, write: Any, rid: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
    await write.send(SessionMessage(JSONRPCRequest(jsonrpc="2.0", id=rid, method=method, params=params)))
    while True:
        msg = await read.receive()
        if isinstance(msg, Exception):
            continue  # a non-JSON line on stdout (some servers log there): skipped
        m = msg.message
        if isinstance(m, JSONRPCResponse) and m.id == rid:
            return m.result
        if isinstance(m, JSONRPCError) and m.id == rid:
            raise RuntimeError(f"{method}: {m.error.message}")
        if isinstance(m, JSONRPCRequest):  # e.g. roots/list, ping: answer with an empty result
            result: dict[str, Any] = {"roots": []} if m.method == "roots/list" else {}
            await write.send(SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=m.id, result=result)))


async def list_tools(server: dict[str, Any], timeout: float = 90) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    params = StdioServerParameters(command=os.path.expandvars(server["command"]),
                                   args=[os.path.expandvars(a) for a in server.get("args", [])],
                                   env=server.get("env"), cwd=server.get("cwd"))
    with anyio.fail_after(timeout), open(Path("/tmp") / f"mcp-{server['id']}.stderr", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            init = await _request(read, write, 1, "initialize", {
                "protocolVersion": PROTOCOL, "capabilities": {},
                "clientInfo": {"name": "toolcast-corpus", "version": "0"}})
            await write.send(SessionMessage(JSONRPCNotification(jsonrpc="2.0", method="notifications/initialized")))
            tools: list[dict[str, Any]] = []
            cursor: str | None = None
            rid = 2
            while True:
                page = await _request(read, write, rid, "tools/list", {"cursor": cursor} if cursor else {})
                tools.extend(page.get("tools", []))
                cursor = page.get("nextCursor")
                rid += 1
                if not cursor or rid > 100:
                    break
            return init.get("serverInfo", {}), tools


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("servers", type=Path)
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args(argv)
    failed = 0
    for server in json.loads(args.servers.read_text()):
        if args.only and server["id"] not in args.only:
            continue
        try:
            info, tools = anyio.run(list_tools, server)
        except BaseException as exc:  # a server that does not start is reported and skipped
            if isinstance(exc, KeyboardInterrupt):
                raise
            print(f"FAIL {server['id']}: {type(exc).__name__}: {exc}", file=sys.stderr)
            failed += 1
            continue
        if not tools:
            print(f"EMPTY {server['id']}", file=sys.stderr)
            continue
        record = {
            "source": {"kind": "mcp-server tools/list", "registry": server["registry"], "package": server["package"],
                       "version": server["version"], "serverInfo": info,
                       "started_with": " ".join([Path(server["command"]).name, *server.get("args", [])]),
                       "gathered": datetime.date.today().isoformat()},
            "license": server.get("license", "see package"),
            "shape": "mcp",
            "tools": tools,
        }
        path = args.out / f"mcp-{server['id']}.json"
        path.write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"OK {server['id']}: {len(tools)} tools")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
