"""MCP client configuration files in the editor: a code lens "Check tools of <server>" per server entry
of ``.vscode/mcp.json`` (``{"servers": {...}}``), ``.mcp.json`` and Claude Desktop's
``claude_desktop_config.json`` (``{"mcpServers": {...}}``).

Lenses are computed from the text alone: opening, editing or saving a workspace file never starts a
process. Only the ``toolcast.checkMcpServer`` command (the lens's explicit action) starts the server
(or connects to its URL), writes its tools as a snapshot file outside the workspace, in a folder
private to the server's session (``snapshot_folder``), and asks the client to open it, where the
ordinary checks publish the findings as diagnostics. Environment values from the file are passed to
the server and appear in no log, message or result.

``register(server)`` is the whole hook into the protocol layer: it adds the command; ``code_lenses``
is called by the code lens handler for configuration files.

A client that opened an untrusted folder says so in its capabilities (``experimental.toolcast.
untrustedWorkspace``, sent by the VS Code extension in Restricted Mode): then no lens is offered and the
command refuses, since both would run a program a repository's file names. The log says why, once.
"""

from __future__ import annotations

import asyncio
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from lsprotocol import types as t
from toolcast.adapters import pointer as jp
from toolcast.adapters.document import read_text
from toolcast.adapters.errors import ToolcastError
from toolcast.server.output import plain_file_stem, write_atomic

from .documents import uri_to_path

COMMAND = "toolcast.checkMcpServer"
_VARIABLE = re.compile(r"\$\{([^}]*)\}")


def is_config(path: str | PurePosixPath | Path | None) -> bool:
    """Whether a file is an MCP client configuration toolcast offers lenses for."""
    if path is None:
        return False
    p = PurePosixPath(str(path).replace("\\", "/"))
    return (p.name == "mcp.json" and p.parent.name == ".vscode") or p.name in (".mcp.json",
                                                                            "claude_desktop_config.json")


@dataclass(frozen=True)
class Entry:
    """One server of a configuration file; ``span`` is the code-point range of its name."""

    name: str
    span: tuple[int, int]
    command: tuple[str, ...] = ()
    url: str | None = None
    env: Mapping[str, str] = field(default_factory=dict, repr=False)
    cwd: str | None = None
    problem: str | None = None  # why it cannot be checked (shown instead of the check)


def entries(text: str) -> list[Entry]:
    """The server entries of a configuration text (JSONC: VS Code's and Claude's files allow comments),
    in file order."""
    from toolcast.adapters.document import parse

    parsed = parse(text, jsonc=True)
    value = parsed.value
    if not isinstance(value, dict):
        return []
    key = "servers" if isinstance(value.get("servers"), dict) else "mcpServers"
    servers = value.get(key)
    if not isinstance(servers, dict):
        return []
    found = []
    for name, spec in servers.items():
        ptr = jp.join("", key, name)
        try:
            span = parsed.span(ptr, "key") or parsed.span(ptr, "value")
        except (KeyError, ValueError, LookupError):
            span = None
        start, end = (int(span[0]), int(span[1])) if span is not None else (0, 0)
        found.append(_entry(str(name), (start, end), spec))
    return found


def _entry(name: str, span: tuple[int, int], spec: Any) -> Entry:
    if not isinstance(spec, dict):
        return Entry(name, span, problem="not a server entry (expected an object)")
    kind = spec.get("type")
    raw_env = spec.get("env")
    env = {str(k): str(v) for k, v in raw_env.items() if isinstance(v, (str, int, float))} \
        if isinstance(raw_env, dict) else {}
    cwd = spec.get("cwd") if isinstance(spec.get("cwd"), str) else None
    url = spec.get("url")
    if isinstance(url, str) and kind not in ("stdio",):
        if kind == "sse":
            return Entry(name, span, url=url, problem="SSE servers are not supported (streamable HTTP is)")
        return Entry(name, span, url=url)
    command = spec.get("command")
    raw_args = spec.get("args")
    args: list[Any] = raw_args if isinstance(raw_args, list) else []
    if not isinstance(command, str) or not command:
        return Entry(name, span, problem="no `command` or `url`")
    return Entry(name, span, (command, *(str(a) for a in args)), env=env, cwd=cwd)


def untrusted(ls: Any) -> bool:
    """Whether the client opened a folder the user has not trusted (see the module's docstring)."""
    caps = getattr(getattr(ls, "protocol", None), "client_capabilities", None)
    experimental = getattr(caps, "experimental", None)
    mine = experimental.get("toolcast") if isinstance(experimental, dict) else None
    return isinstance(mine, dict) and mine.get("untrustedWorkspace") is True


_UNTRUSTED = ("MCP server checks are not offered: this folder is not trusted, and a check would run the "
              "program its configuration file names")


def _say_untrusted_once(ls: Any) -> None:
    if not getattr(ls, "_toolcast_untrusted_said", False):
        ls._toolcast_untrusted_said = True
        ls.window_log_message(t.LogMessageParams(t.MessageType.Info, _UNTRUSTED))


def code_lenses(ls: Any, doc: Any) -> list[t.CodeLens]:
    """One lens per server entry; the command runs only when the user chooses it. None in an untrusted
    folder."""
    if untrusted(ls):
        _say_untrusted_once(ls)
        return []
    lenses = []
    for entry in entries(doc.text):  # a configuration file: JSONC, whatever its name says
        rng = ls.range(doc, (entry.span[0], entry.span[0]), ls.encoding)
        if entry.problem:
            lenses.append(t.CodeLens(rng, t.Command(f"toolcast: {entry.problem}", "")))
        else:
            lenses.append(t.CodeLens(rng, t.Command(f"Check tools of {entry.name}", COMMAND,
                                                    arguments=[doc.uri, entry.name])))
    return lenses


def _folder(config: Path) -> Path:
    """The workspace folder of a configuration file (``.vscode/``'s parent)."""
    return config.parent.parent if config.parent.name == ".vscode" else config.parent


def _expand(text: str, folder: Path, vscode: bool = True) -> str:
    """VS Code's variables (``${workspaceFolder}``, ``${userHome}``, ``${env:NAME}``; ``${input:…}`` is
    refused: only the editor can ask for it); in ``.mcp.json`` and Claude Desktop's file, Claude Code's
    ``${NAME}`` and ``${NAME:-default}`` from the environment."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if vscode:
            if name in ("workspaceFolder", "workspaceRoot"):
                return str(folder)
            if name == "userHome":
                return str(Path.home())
            if name.startswith("env:"):
                return os.environ.get(name[4:], "")
            raise ValueError(f"`${{{name}}}` needs a value only the editor can ask for")
        var, _, default = name.partition(":-")
        return os.environ.get(var, default)

    return _VARIABLE.sub(one, text)


def source_for(entry: Entry, config: Path) -> Any:
    """The ``McpSource`` for an entry, its variables expanded (see ``_expand``)."""
    from toolcast.server.mcp_source import McpSource

    folder = _folder(config)
    vscode = config.parent.name == ".vscode"
    if entry.url:
        return McpSource(url=_expand(entry.url, folder, vscode))
    cwd = _expand(entry.cwd, folder, vscode) if entry.cwd else str(folder)
    return McpSource(command=tuple(_expand(w, folder, vscode) for w in entry.command),
                     env={k: _expand(v, folder, vscode) for k, v in entry.env.items()}, cwd=cwd)


def snapshot_folder(ls: Any) -> Path:
    """Where lens results go: outside every workspace, one file per server (replaced on each run), in a
    folder made for this server's session by ``mkdtemp`` (mode 0700, a name nobody can guess). A shared
    name such as ``$TMPDIR/toolcast-mcp-<uid>`` could be made first by another local user, with links in
    it to this user's files. Made again if something removed it."""
    folder: Path | None = getattr(ls, "_toolcast_snapshot_folder", None)
    if folder is None or not folder.is_dir():
        folder = Path(tempfile.mkdtemp(prefix="toolcast-mcp-"))
        ls._toolcast_snapshot_folder = folder
    return folder


def register(server: Any) -> None:
    async def check_mcp_server(ls: Any, *args: Any) -> dict[str, Any]:
        """Arguments: the configuration file's uri, the server's name. Returns the snapshot's path and
        the counts; opens the snapshot in the client (its diagnostics are the findings)."""
        return await run_check(ls, *args)

    server.command(COMMAND)(check_mcp_server)


async def run_check(ls: Any, *args: Any) -> dict[str, Any]:
    from toolcast.adapters.checks import Severity, check_document, load_config
    from toolcast.server.mcp_source import McpSourceError, fetch_tools, label, render_document, tools_document

    if untrusted(ls):  # a lens offered before, or a client that calls the command itself
        return _failed(ls, _UNTRUSTED)
    if len(args) < 2 or not isinstance(args[0], str) or not isinstance(args[1], str):
        raise ValueError(f"{COMMAND} takes: uri of the configuration file, server name")
    uri, name = args[0], args[1]
    config = uri_to_path(uri)
    if config is None:
        raise ValueError(f"{uri}: not a file")
    doc = ls.documents.get(uri) if hasattr(ls, "documents") else None
    text = doc.text if doc is not None else read_text(config)
    chosen = next((e for e in entries(text) if e.name == name), None)
    if chosen is None or chosen.problem:
        return _failed(ls, f"{name}: {chosen.problem if chosen else 'no such server in this file'}")
    try:
        source = source_for(chosen, config)
        found = await asyncio.to_thread(fetch_tools, source)
    except (McpSourceError, ValueError) as exc:
        return _failed(ls, f"{name}: {exc}")
    server_label = label(found.name or name)
    body = render_document(tools_document(found.tools))
    path = snapshot_folder(ls) / f"{plain_file_stem(name.strip())}.tools.json"
    try:
        write_atomic(path, body, source=None)
    except ToolcastError as exc:
        return _failed(ls, f"{name}: {exc}")
    cfg, _problems = load_config(_folder(config))
    report = check_document(body, config=cfg, analyzer=getattr(ls, "analyzer", None))  # the session's
    errors = sum(1 for f in report.findings if f.severity == Severity.ERROR)
    result = {"path": str(path), "uri": path.as_uri(), "server": server_label, "tools": len(found.tools),
              "errors": errors, "findings": len(report.findings)}
    if ls.session.show_document:
        await ls.window_show_document_async(t.ShowDocumentParams(uri=path.as_uri(), take_focus=True))
    else:
        ls.window_show_message(t.ShowMessageParams(
            t.MessageType.Info, f"toolcast: {len(found.tools)} tool(s) of {server_label}: {errors} error(s), "
                                f"{len(report.findings)} finding(s); snapshot: {path}"))
    return result


def _failed(ls: Any, message: str) -> dict[str, Any]:
    ls.window_show_message(t.ShowMessageParams(t.MessageType.Error, f"toolcast: {message}"))
    return {"error": message}
