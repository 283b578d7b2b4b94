"""The official Python MCP client connected to a real `toolcast proxy` process (which starts a real server)."""

from __future__ import annotations

import contextlib
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

HERE = Path(__file__).resolve().parent
HOSTILE = [sys.executable, str(HERE / "hostile_server.py")]


def proxy_argv(*options: str, server: list[str]) -> list[str]:
    return [sys.executable, "-m", "toolcast.server.cli", "proxy", *options, "--", *server]


@contextlib.asynccontextmanager
async def proxied(*options: str, server: list[str], env: dict[str, str] | None = None,
                  **callbacks: Any) -> AsyncIterator[tuple[ClientSession, Any]]:
    """A client session with the proxy, and the file its stderr goes to (read it with ``stderr_text``)."""
    argv = proxy_argv(*options, server=server)
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env)
    with tempfile.TemporaryFile("w+") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write, **callbacks) as s:
            await s.initialize()
            yield s, errlog


def stderr_text(errlog: Any) -> str:
    errlog.flush()
    errlog.seek(0)
    return str(errlog.read())


def minimal_arguments(schema: dict[str, Any]) -> Any:
    """The smallest value a (lowered, Gemini-subset) schema accepts: required properties only, the first
    enum value, numbers at their minimum."""
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        return minimal_arguments(schema["anyOf"][0])
    kind = schema.get("type", "object")
    if kind == "object":
        props = schema.get("properties", {})
        return {k: minimal_arguments(props[k]) for k in schema.get("required", []) if k in props}
    if kind == "array":
        return [minimal_arguments(schema["items"]) for _ in range(int(schema.get("minItems", 0)))]
    if kind in ("integer", "number"):
        return int(schema.get("minimum", 1))
    if kind == "boolean":
        return True
    return "x" * max(int(schema.get("minLength", 1)), 1)
