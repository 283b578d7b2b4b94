"""MCP host configuration files: which servers a host would load, and how it would start each.

``read_host_config(text, path, ...)`` reads one host's file (JSONC) and gives its ``HostConfig``: the host
(a consumer of ``schemas/consumers``), and each server as a ``ServerEntry`` with its placeholders expanded
as that host expands them, from the environment given (nothing is asked, nothing is read but the text).
A server that cannot be started as written (a placeholder only the host can fill, an SSE URL, no command)
carries a ``problem`` instead. Pure: ``toolcast check --mcp-config`` starts the servers.

The formats, by file (the file's name selects the host; ``layout_named`` picks one for another name):
- VS Code ``.vscode/mcp.json``: ``{"servers": {name: {type, command, args, env, cwd, url, headers}},
  "inputs": [...]}``; ``${workspaceFolder}``, ``${userHome}``, ``${env:NAME}``…, ``${input:ID}`` prompts
  (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration,
  https://code.visualstudio.com/docs/reference/variables-reference).
- Claude Code ``.mcp.json`` (project scope) and ``~/.claude.json`` (user scope ``mcpServers`` and, per
  project, ``projects[<path>].mcpServers``, the project's entry winning); ``type`` stdio (default), http or
  sse; ``${VAR}`` and ``${VAR:-default}`` in command, args, env, url and headers
  (https://code.claude.com/docs/en/mcp).
- Cursor ``.cursor/mcp.json``: ``{"mcpServers": {...}}`` with ``command`` or ``url``; ``${env:NAME}``,
  ``${userHome}``, ``${workspaceFolder}``, ``${workspaceFolderBasename}``, ``${pathSeparator}``
  (https://cursor.com/docs/mcp).
- Gemini CLI ``.gemini/settings.json``: ``mcpServers`` with ``command``/``args``/``env``/``cwd``,
  ``httpUrl`` (streamable HTTP) or ``url`` (SSE), ``headers``, ``includeTools``/``excludeTools`` and
  ``trust``; ``mcp.allowed``/``mcp.excluded`` name the servers loaded; ``$VAR`` and ``${VAR}`` anywhere in
  the settings (google-gemini/gemini-cli@009b0d84 docs/tools/mcp-server.md,
  https://geminicli.com/docs/cli/configuration).
- Claude Desktop ``claude_desktop_config.json``: ``mcpServers`` of stdio commands, no placeholders.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from types import MappingProxyType
from typing import Any

from . import pointer as jp
from .document import parse

#: More servers than this in one file is refused: each is a process started at once.
MAX_SERVERS = 64


class HostConfigError(ValueError):
    """A file that is not a host configuration toolcast reads; the message is one line for the user."""


@dataclass(frozen=True)
class Layout:
    """One host's configuration file: where its servers are and how its placeholders read."""

    kind: str  # the file's kind, shown to the user
    host: str  # the consumer whose rules apply (schemas/consumers)
    key: str  # "servers" or "mcpServers"
    variables: str  # "vscode" | "cursor" | "claude" | "gemini" | "none"


LAYOUTS: Mapping[str, Layout] = MappingProxyType({
    "vscode": Layout("VS Code .vscode/mcp.json", "vscode", "servers", "vscode"),
    "claude-code": Layout("Claude Code .mcp.json", "claude-code", "mcpServers", "claude"),
    "claude-user": Layout("Claude Code ~/.claude.json", "claude-code", "mcpServers", "claude"),
    "cursor": Layout("Cursor .cursor/mcp.json", "cursor", "mcpServers", "cursor"),
    "gemini-cli": Layout("Gemini CLI .gemini/settings.json", "gemini-cli", "mcpServers", "gemini"),
    "claude-desktop": Layout("Claude Desktop claude_desktop_config.json", "claude-desktop", "mcpServers", "none"),
})
#: The host named with ``--for`` reads a file of another name as its own format.
_BY_HOST: Mapping[str, str] = MappingProxyType({
    "vscode": "vscode", "claude-code": "claude-code", "cursor": "cursor", "gemini-cli": "gemini-cli",
    "claude-desktop": "claude-desktop"})


def layout_of(path: str) -> Layout | None:
    """The layout a file's name says (None: the name is not one a host reads)."""
    p = PurePosixPath(path.replace("\\", "/"))
    parent = p.parent.name
    if p.name == "mcp.json" and parent == ".vscode":
        return LAYOUTS["vscode"]
    if p.name == "mcp.json" and parent == ".cursor":
        return LAYOUTS["cursor"]
    if p.name == "settings.json" and parent == ".gemini":
        return LAYOUTS["gemini-cli"]
    return {".mcp.json": LAYOUTS["claude-code"], ".claude.json": LAYOUTS["claude-user"],
            "claude_desktop_config.json": LAYOUTS["claude-desktop"]}.get(p.name)


def layout_named(host: str) -> Layout | None:
    """The layout of the host named (``--for``), for a file whose name says none."""
    kind = _BY_HOST.get(host)
    return LAYOUTS[kind] if kind else None


def hosts_with_layout() -> tuple[str, ...]:
    return tuple(_BY_HOST)


@dataclass(frozen=True)
class ServerEntry:
    """One server the host would load, as it would start it; ``problem`` says why it cannot be (then
    nothing is started). ``pointer`` is the entry's place in the file."""

    name: str
    pointer: str
    command: tuple[str, ...] = ()
    url: str | None = None
    env: Mapping[str, str] = field(default_factory=dict, repr=False)
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    cwd: str | None = None
    include_tools: tuple[str, ...] | None = None
    exclude_tools: tuple[str, ...] = ()
    problem: str | None = None
    #: The command and arguments (or URL) as the file writes them, placeholders unfilled: what messages show,
    #: since a filled value may be a secret.
    written: str = ""

    def keeps(self, tool: str) -> bool:
        """Whether the host keeps a tool of this name (Gemini CLI: ``excludeTools`` wins over
        ``includeTools``)."""
        if tool in self.exclude_tools:
            return False
        return self.include_tools is None or tool in self.include_tools


@dataclass(frozen=True)
class HostConfig:
    """The servers of one file, in file order; ``skipped`` names those the host does not load, and why."""

    layout: Layout
    servers: tuple[ServerEntry, ...]
    skipped: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Context:
    """What placeholders expand to: the environment, the user's home, the workspace (project) folder."""

    env: Mapping[str, str] = field(repr=False)
    home: str
    folder: str
    separator: str = "/"


def workspace_folder(path: str) -> str:
    """The project folder of a configuration file: the parent of ``.vscode/``, ``.cursor/``, ``.gemini/``,
    else the file's own folder."""
    p = PurePosixPath(path.replace("\\", "/"))
    folder = p.parent.parent if p.parent.name in (".vscode", ".cursor", ".gemini") else p.parent
    return str(folder)


def read_host_config(text: str, path: str, context: Context, layout: Layout | None = None,
                     project: str | None = None) -> HostConfig:
    """The servers of a configuration file's text. ``layout``: the file's (``layout_of``) or the one the
    user named; None reads the name. ``project``: for ``~/.claude.json``, the project folder whose
    servers are loaded with the user's. Raises ``HostConfigError``."""
    layout = layout or layout_of(path)
    parsed = parse(text, jsonc=True)
    if parsed.errors:
        first = parsed.errors[0]
        before = text[: first.start]
        line, col = before.count("\n") + 1, first.start - (before.rfind("\n") + 1) + 1
        raise HostConfigError(f"not valid JSON (line {line}, column {col}: {first.message})")
    value = parsed.value
    if not isinstance(value, dict):
        raise HostConfigError("not an MCP configuration (expected a JSON object)")
    if layout is None:
        raise HostConfigError("which host reads this file? Name it with --for (one of: "
                              f"{', '.join(hosts_with_layout())}), or use the host's file name "
                              "(.vscode/mcp.json, .mcp.json, .cursor/mcp.json, .gemini/settings.json)")
    found = _server_maps(value, layout, project)
    if found is None:
        other = "mcpServers" if layout.key == "servers" else "servers"
        hint = f" (it has `{other}`: another host's format)" if isinstance(value.get(other), dict) else ""
        raise HostConfigError(f"no `{layout.key}` object: not a {layout.kind} file{hint}")
    merged: dict[str, tuple[str, Any]] = {}
    for base, servers in found:
        for name, spec in servers.items():
            merged[name] = (jp.join(base, name), spec)  # a later scope's entry wins, in the first's place
    if len(merged) > MAX_SERVERS:
        raise HostConfigError(f"{len(merged)} servers: toolcast starts at most {MAX_SERVERS} at once")
    allowed, excluded = _gemini_selection(value) if layout.variables == "gemini" else (None, ())
    entries, skipped = [], []
    for name, (ptr, spec) in merged.items():
        if name in excluded:
            skipped.append((name, "listed in `mcp.excluded`"))
        elif allowed is not None and name not in allowed:
            skipped.append((name, "not listed in `mcp.allowed`"))
        else:
            entries.append(_entry(str(name), ptr, spec, layout, context))
    return HostConfig(layout, tuple(entries), tuple(skipped))


def _server_maps(value: dict[str, Any], layout: Layout, project: str | None) -> list[tuple[str, dict[str, Any]]] | None:
    """The server maps the host loads from the file, lowest precedence first, each with its pointer."""
    maps: list[tuple[str, dict[str, Any]]] = []
    top = value.get(layout.key)
    if isinstance(top, dict):
        maps.append((jp.join("", layout.key), top))
    projects = value.get("projects")
    if layout is LAYOUTS["claude-user"] and project is not None and isinstance(projects, dict):
        entry = projects.get(project)
        mine = entry.get("mcpServers") if isinstance(entry, dict) else None
        if isinstance(mine, dict):
            maps.append((jp.join("", "projects", project, "mcpServers"), mine))
    if not maps and not (layout is LAYOUTS["claude-user"] and isinstance(projects, dict)):
        return None
    return maps


def _gemini_selection(value: dict[str, Any]) -> tuple[set[str] | None, set[str]]:
    mcp = value.get("mcp")
    if not isinstance(mcp, dict):
        return None, set()
    allowed = mcp.get("allowed")
    excluded = mcp.get("excluded")
    return ({str(x) for x in allowed} if isinstance(allowed, list) else None,
            {str(x) for x in excluded} if isinstance(excluded, list) else set())


class _Unresolved(Exception):
    """A placeholder toolcast cannot fill as the host would; the message names it."""


def _entry(name: str, ptr: str, spec: Any, layout: Layout, context: Context) -> ServerEntry:
    if not isinstance(spec, dict):
        return ServerEntry(name, ptr, problem="not a server entry (expected an object)")
    try:
        return _server(name, ptr, spec, layout, context)
    except _Unresolved as exc:
        return ServerEntry(name, ptr, problem=str(exc))


def _server(name: str, ptr: str, spec: dict[str, Any], layout: Layout, context: Context) -> ServerEntry:
    expand = _expander(layout.variables, context)
    kind = spec.get("type")
    if kind is not None and not isinstance(kind, str):
        return ServerEntry(name, ptr, problem="`type` must be a string")
    strings = _strings(spec, expand)
    env = strings("env")
    headers = strings("headers")
    include = spec.get("includeTools") if layout.variables == "gemini" else None
    exclude = spec.get("excludeTools") if layout.variables == "gemini" else None
    for key, listed in (("includeTools", include), ("excludeTools", exclude)):
        if listed is not None and not (isinstance(listed, list) and all(isinstance(x, str) for x in listed)):
            return ServerEntry(name, ptr, problem=f"`{key}` must be a list of tool names")
    common: dict[str, Any] = {"env": env, "headers": headers,
                              "include_tools": tuple(include) if include is not None else None,
                              "exclude_tools": tuple(exclude or ())}
    url_key = "httpUrl" if layout.variables == "gemini" and "httpUrl" in spec else "url"
    url = spec.get(url_key)
    command = spec.get("command")
    if url is not None and (command is None or kind in ("http", "sse", "streamable-http")):
        if not isinstance(url, str) or not url:
            return ServerEntry(name, ptr, problem=f"`{url_key}` must be a URL")
        if _is_sse(layout, kind, url_key):
            return ServerEntry(name, ptr, url=url, problem="an SSE server (`url` read as Server-Sent Events): "
                                                           "toolcast reads stdio and streamable HTTP servers")
        shown = expand(url)
        if not shown.startswith(("http://", "https://")):
            return ServerEntry(name, ptr, problem=f"`{url_key}` is not an http:// or https:// URL")
        return ServerEntry(name, ptr, url=shown, written=url, **common)
    if kind not in (None, "stdio"):
        return ServerEntry(name, ptr, problem=f"`type` {kind!r} needs a `url`")
    if not isinstance(command, str) or not command.strip():
        return ServerEntry(name, ptr, problem="no `command` or `url`")
    raw_args = spec.get("args", [])
    if not isinstance(raw_args, list) or not all(isinstance(a, (str, int, float)) for a in raw_args):
        return ServerEntry(name, ptr, problem="`args` must be a list of strings")
    cwd = spec.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        return ServerEntry(name, ptr, problem="`cwd` must be a string")
    # Hosts start a server in the project folder; a relative `cwd` (Gemini CLI's `./server-directory`) is
    # taken from there too.
    where = os.path.join(context.folder, expand(cwd)) if cwd else context.folder
    return ServerEntry(name, ptr, (expand(command), *(expand(str(a)) for a in raw_args)),
                       cwd=where, written=" ".join([command, *map(str, raw_args)]), **common)


def _is_sse(layout: Layout, kind: str | None, url_key: str) -> bool:
    if kind == "sse":
        return True
    # Gemini CLI reads `url` as SSE and `httpUrl` as streamable HTTP, unless `type` says http.
    return layout.variables == "gemini" and url_key == "url" and kind != "http"


def _strings(spec: dict[str, Any], expand: Callable[[str], str]) -> Callable[[str], dict[str, str]]:
    def read(key: str) -> dict[str, str]:
        raw = spec.get(key)
        if raw is None:
            return {}
        if not isinstance(raw, dict) or not all(isinstance(v, (str, int, float, bool)) for v in raw.values()):
            raise _Unresolved(f"`{key}` must be an object of strings")
        return {str(k): expand(v if isinstance(v, str) else str(v)) for k, v in raw.items()}

    return read


_BRACED = re.compile(r"\$\{([^}]*)\}")
_GEMINI = re.compile(r"\$(?:(\w+)|\{([^}]+)\})")


def _expander(syntax: str, context: Context) -> Callable[[str], str]:
    if syntax == "none":
        return lambda text: text
    if syntax == "gemini":
        return lambda text: _GEMINI.sub(lambda m: _from_env(m.group(0), m.group(1) or m.group(2), context), text)
    if syntax == "claude":
        return lambda text: _BRACED.sub(lambda m: _claude(m.group(0), m.group(1), context), text)
    host = "VS Code" if syntax == "vscode" else "Cursor"
    return lambda text: _BRACED.sub(lambda m: _editor(m.group(0), m.group(1), context, host), text)


def _from_env(whole: str, name: str, context: Context) -> str:
    value = context.env.get(name)
    if value is None:
        raise _Unresolved(f"`{whole}` is not set in this environment")
    return value


def _claude(whole: str, inner: str, context: Context) -> str:
    name, has_default, default = inner.partition(":-")
    value = context.env.get(name)
    if value is not None:
        return value
    if has_default:
        return default
    raise _Unresolved(f"`{whole}` is not set in this environment (and has no `:-default`)")


def _editor(whole: str, inner: str, context: Context, host: str) -> str:
    fixed = {"workspaceFolder": context.folder, "workspaceRoot": context.folder, "userHome": context.home,
             "workspaceFolderBasename": PurePosixPath(context.folder).name, "pathSeparator": context.separator,
             "/": context.separator}
    if inner in fixed:
        return fixed[inner]
    if inner.startswith("env:"):
        return _from_env(whole, inner[4:], context)
    if inner.startswith("input:") and host == "VS Code":
        raise _Unresolved(f"`{whole}` is a value VS Code prompts for (an `inputs` entry); toolcast never asks")
    raise _Unresolved(f"`{whole}` is a {host} variable toolcast cannot fill")


__all__ = ["LAYOUTS", "MAX_SERVERS", "Context", "HostConfig", "HostConfigError", "Layout", "ServerEntry",
           "hosts_with_layout", "layout_named", "layout_of", "read_host_config", "workspace_folder"]
