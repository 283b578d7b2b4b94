"""The tools a live MCP server exposes, read with the official ``mcp`` SDK client.

Start a server over stdio (or connect to one over streamable HTTP), initialise, page through
``tools/list`` and hand back every tool as its JSON. ``tools_document`` turns the list into the one
document toolcast checks, converts and snapshots: ``{"tools": [...]}`` in MCP's own shape, tools
sorted by name, keys of each tool in a fixed order (the schemas keep the server's order, which a
model sees), rendered with ``render_document``. The live check and ``toolcast snapshot`` use the
same text, so a snapshot checked later gives the same findings at the same places.

Every wait is bounded by one deadline; a server that cannot be started, exits, never answers or
writes something that is not JSON-RPC is one ``McpSourceError`` whose message ends with the tail of
its stderr (of which only the last few KB are kept: ``stderr_tail.py``). The SDK's stdio transport
runs the server in its own process group and always stops it (stdin closed, then SIGTERM, then SIGKILL
to the group); whatever the server started and detached from the group is ended too
(``descendants.py``). Environment values are passed to the server
and never printed.

The ``mcp`` package is an extra (``toolcast[mcp]``) and is imported only when a server is asked.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import IO, TYPE_CHECKING, Any, cast

from .descendants import ending_descendants
from .stderr_tail import StderrTail

if TYPE_CHECKING:
    from contextlib import AsyncExitStack

    from mcp import ClientSession

DEFAULT_TIMEOUT = 60.0
MAX_PAGES = 1_000
_TAIL_LINES, _TAIL_CHARS = 4, 600
#: Key order of a tool in a snapshot; other keys follow, sorted.
_TOOL_KEYS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations", "execution", "icons",
              "_meta")
INSTALL_HINT = "the MCP client is not installed: pip install 'toolcast[mcp]'"


class McpSourceError(Exception):
    """A server that could not be asked for its tools; the message is one line for the user."""


@dataclass(frozen=True)
class McpSource:
    """Where the tools come from: a command to start (stdio) or a streamable HTTP URL."""

    command: tuple[str, ...] = ()
    url: str | None = None
    #: Added to the server's environment (over toolcast's own when ``inherit_env``); never logged.
    env: Mapping[str, str] = field(default_factory=dict, repr=False)
    cwd: str | None = None
    inherit_env: bool = True
    #: Sent with every request to a streamable HTTP server (a host configuration's `headers`); never logged.
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    #: How messages name the server instead of its command or URL (a configuration's entry as written, before
    #: its placeholders were filled with values that may be secrets).
    shown: str | None = None

    def describe(self) -> str:
        if self.url and self.shown is None:
            return self.url
        shown = self.shown if self.shown is not None else " ".join(self.command)
        return shown if len(shown) <= 80 else shown[:77] + "..."


@dataclass(frozen=True)
class ServerTools:
    """The server's name and version (from ``initialize``) and its tools as JSON objects."""

    name: str
    version: str | None
    tools: tuple[dict[str, Any], ...]


def label(name: str) -> str:
    """A server name usable in ``mcp:<server>/<tool>`` locations (no slash or '#')."""
    cleaned = "".join("-" if c in "/#\\ \t\r\n" else c for c in name.strip())
    return cleaned or "server"


def fetch_tools(source: McpSource, timeout: float = DEFAULT_TIMEOUT) -> ServerTools:
    """Every tool of the server, in the order it listed them. Raises ``McpSourceError``."""
    if not source.url and not source.command:
        raise McpSourceError("no MCP server command given (toolcast ... --mcp -- COMMAND [ARGS...])")
    if not sdk_installed():
        raise McpSourceError(INSTALL_HINT)
    # The SDK logs transport trouble (with tracebacks) through `logging`; the one error line below
    # says it instead.
    sdk_log = logging.getLogger("mcp")
    saved = sdk_log.propagate, sdk_log.level
    sdk_log.propagate = False
    sdk_log.setLevel(logging.CRITICAL + 1)
    try:
        return _fetch_with_log(source, timeout)
    finally:
        sdk_log.propagate, sdk_log.level = saved[0], saved[1]


def _fetch_with_log(source: McpSource, timeout: float) -> ServerTools:
    import anyio

    # The server's stderr goes to a pipe whose last few KB are kept (a server may write without end);
    # everything the server started, however detached, is ended before the tail is read.
    with StderrTail() as errlog:
        where = f"MCP server `{source.describe()}`"
        try:
            with ending_descendants():
                result: ServerTools = anyio.run(_fetch, source, timeout, errlog.writer)
        except McpSourceError as exc:
            raise McpSourceError(f"{where}: {exc}{_tail(errlog.tail())}") from None
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # the SDK's task groups wrap transport errors in groups
            raise McpSourceError(f"{where}: {_describe(_leaf(exc))}{_tail(errlog.tail())}") from None
        return result


def sdk_installed() -> bool:
    """Whether the ``mcp`` SDK can be imported (without importing it)."""
    try:
        return importlib.util.find_spec("mcp") is not None and importlib.util.find_spec("anyio") is not None
    except (ImportError, ValueError):  # ValueError: a module blocked with sys.modules[name] = None
        return False


def _leaf(exc: BaseException) -> BaseException:
    """The error that explains a (possibly grouped) failure: ours first, then the transport's, then any
    other than a cancellation."""
    leaves: list[BaseException] = []

    def walk(e: BaseException) -> None:
        if isinstance(e, BaseExceptionGroup):
            for inner in e.exceptions:
                walk(inner)
        else:
            leaves.append(e)

    walk(exc)
    for kinds in ((McpSourceError,), (OSError,), (Exception,)):
        for leaf in leaves:
            if isinstance(leaf, kinds) and "Cancel" not in type(leaf).__name__:
                return leaf
    return leaves[0] if leaves else exc


def _describe(exc: BaseException) -> str:
    if isinstance(exc, McpSourceError):
        return str(exc)
    if isinstance(exc, FileNotFoundError):
        return f"command not found: {exc.filename or exc}"
    if isinstance(exc, PermissionError):
        return f"cannot run the command: {exc.strerror or exc}"
    if isinstance(exc, OSError):
        return f"cannot start: {exc.strerror or exc}"
    name = type(exc).__name__
    text = " ".join(str(exc).split())
    if name == "MCPError" and "closed" in text.lower():
        return "the server closed the connection before it answered (did it exit?)"
    if name in ("ConnectError", "ConnectTimeout"):
        return f"cannot connect: {text or name}"
    return f"{text or name}" if name == "MCPError" else f"{name}: {text}" if text else name


def _tail(written: bytes) -> str:
    data = written.decode("utf-8", "replace")
    lines = [" ".join(line.split()) for line in data.splitlines()]
    return stderr_ending([line for line in lines if line][-_TAIL_LINES:])


def stderr_ending(lines: Sequence[str]) -> str:
    """``; its stderr ends: …`` with a server's last stderr lines (cut to the last 600 characters), or nothing when
    it wrote none: what every one-line failure of a server adds (``check --mcp``, ``toolcast proxy``)."""
    if not lines:
        return ""
    text = " | ".join(lines)
    if len(text) > _TAIL_CHARS:
        text = "..." + text[-_TAIL_CHARS:]
    return f"; its stderr ends: {text}"


async def _fetch(source: McpSource, timeout: float, errlog: IO[bytes]) -> ServerTools:
    import anyio
    from mcp import ClientSession
    from mcp import types as mt

    stage = ["starting"]
    problems: list[str] = []
    result: ServerTools | None = None
    with anyio.move_on_after(timeout) as scope:
        async with contextlib.AsyncExitStack() as stack:
            read, write = await _connect(stack, source, errlog)

            async def on_message(message: Any) -> None:
                if isinstance(message, Exception) and not problems:
                    problems.append(f"wrote something that is not MCP (JSON-RPC) during {stage[0]}: "
                                    f"{_bad_message(message)}")
                    scope.cancel()

            session = await stack.enter_async_context(
                ClientSession(read, write, read_timeout_seconds=timeout, message_handler=on_message,
                              client_info=mt.Implementation(name="toolcast", version=_version()))
            )
            stage[0] = "initialize"
            init = await session.initialize()
            stage[0] = "tools/list"
            # A server without the tools capability has none to list (asking would be an error).
            has_tools = getattr(init.capabilities, "tools", None) is not None
            tools = await _list_tools(session) if has_tools else []
            info = init.server_info
            result = ServerTools(info.name, info.version, tuple(tools))
            stage[0] = "shutdown"
    if problems:
        raise McpSourceError(problems[0])
    if result is None:
        raise McpSourceError(f"no answer to {stage[0]} within {timeout:g} s")
    return result


async def _connect(stack: AsyncExitStack, source: McpSource, errlog: IO[bytes]) -> tuple[Any, Any]:
    """The (read, write) streams to the server: started over stdio, or connected over streamable HTTP;
    ``stack`` closes them (and stops a started server)."""
    if source.url:
        from mcp.client.streamable_http import streamable_http_client

        # The SDK's HTTP client (30 s to connect, 300 s per read) under the caller's one deadline.
        client = None
        if source.headers:
            from mcp.shared._httpx_utils import create_mcp_http_client

            client = await stack.enter_async_context(create_mcp_http_client(headers=dict(source.headers)))
        read, write = await stack.enter_async_context(streamable_http_client(source.url, http_client=client))
        return read, write
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = (dict(os.environ) if source.inherit_env else {}) | dict(source.env)
    params = StdioServerParameters(command=source.command[0], args=list(source.command[1:]), env=env, cwd=source.cwd)
    return await stack.enter_async_context(stdio_client(params, errlog=cast(Any, errlog)))


async def _list_tools(session: ClientSession) -> list[dict[str, Any]]:
    """Every page of ``tools/list``, as tool JSON; a cursor seen twice, or more than ``MAX_PAGES`` pages,
    is an error (a server that would page for ever)."""
    from mcp import types as mt

    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    seen: set[str] = set()
    for _ in range(MAX_PAGES):
        page = await session.list_tools(
            params=mt.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
        )
        tools.extend(tool_json(t) for t in page.tools)
        cursor = page.next_cursor
        if not cursor:
            return tools
        if cursor in seen:
            raise McpSourceError(f"tools/list returned the cursor {cursor[:40]!r} twice")
        seen.add(cursor)
    raise McpSourceError(f"tools/list still had more pages after {MAX_PAGES}")


def _bad_message(exc: Exception) -> str:
    """What was wrong with a message the server sent (pydantic's first error, with the input)."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
            got = " ".join(str(first.get("input", "")).split())
            return f"{first.get('msg', 'invalid')}: {got[:100]!r}"
        except Exception:  # any shape of error object: fall back to its text
            pass
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def _version() -> str:
    try:
        return version("toolcast")
    except PackageNotFoundError:
        return "0"


def tool_json(tool: Any) -> dict[str, Any]:
    """One ``mcp.types.Tool`` as the JSON the server sent (camelCase keys, absent fields left out)."""
    raw = tool.model_dump(mode="json", by_alias=True, exclude_none=True) if hasattr(tool, "model_dump") else tool
    return order_tool(dict(raw))


def order_tool(raw: Mapping[str, Any]) -> dict[str, Any]:
    ordered = {k: raw[k] for k in _TOOL_KEYS if k in raw}
    ordered.update((k, raw[k]) for k in sorted(raw) if k not in ordered)
    return ordered


def tools_document(tools: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The tool list toolcast checks and snapshots: MCP's ``tools/list`` result shape, sorted by name."""
    ordered = sorted((order_tool(t) for t in tools), key=lambda t: str(t.get("name", "")))
    return {"tools": ordered}


def render_document(document: Mapping[str, Any]) -> str:
    """The exact text of a snapshot (and of the document a live check places its findings in)."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def failure_text(exc: BaseException) -> str:
    """One line for a (possibly grouped) failure of the SDK's client (``toolcast proxy`` prints it too)."""
    return _describe(_leaf(exc))


async def list_all_tools(session: ClientSession) -> list[dict[str, Any]]:
    """Every page of ``tools/list`` as tool JSON (``toolcast proxy`` lists with its own session); raises
    ``McpSourceError`` for a server that would page for ever."""
    return await _list_tools(session)
