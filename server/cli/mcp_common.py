"""What ``check``, ``convert`` and ``snapshot`` share for tools that are not in a file: a live MCP
server (``--mcp`` / ``--mcp-url``) or tool executables asked with ``--schema`` (``--exec`` /
``--exec-dir``, seed 000's discovery), the ``--timeout`` option, and fetching their tools as the one
document toolcast checks. The MCP client (``toolcast.server.mcp_source``, and through it the ``mcp``
SDK) is imported only when a server is asked, so ``toolcast check FILE`` never pays for it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: ``toolcast check --mcp -- CMD ARGS``: the words after ``--`` are the server command (or, after
#: ``--exec``, the tool executable's).
SEPARATOR = "--"
_TAKES_COMMAND = ("--mcp", "--exec")


def add_source_arguments(p: argparse.ArgumentParser) -> None:
    group = p.add_argument_group("live MCP server")
    group.add_argument("--mcp", action="store_true",
                       help="read the tools of the MCP server started with the command after `--` (stdio): "
                            "toolcast ... --mcp -- COMMAND [ARGS...]")
    group.add_argument("--mcp-url", metavar="URL", help="read the tools of the MCP server at this streamable HTTP URL")
    group.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                       help="give up on the server after this long (default: 60; a first `npx -y` or "
                            "`uvx` run downloads the server), or on a tool executable (default: 10)")
    tools = p.add_argument_group("tool executables (each prints its definition when run with --schema)")
    tools.add_argument("--exec", action="store_true",
                       help="read the tool that the command after `--` prints for --schema (run directly, "
                            "never through a shell): toolcast ... --exec -- COMMAND [ARGS...]")
    tools.add_argument("--exec-dir", metavar="DIR",
                       help="read the tool of every executable file in DIR (run with --schema)")
    p.set_defaults(mcp_command=None)


def split_command(argv: Sequence[str]) -> tuple[list[str], list[str] | None]:
    """``(toolcast's own arguments, the server or tool command)``: the command is what follows the
    first ``--`` when ``--mcp`` or ``--exec`` comes before it, or the command is ``proxy``; otherwise the
    arguments are left as they are."""
    words = list(argv)
    if SEPARATOR not in words:
        return words, None
    cut = words.index(SEPARATOR)
    # `toolcast proxy` always takes the server command after `--`.
    if words[:1] != ["proxy"] and not any(flag in words[:cut] for flag in _TAKES_COMMAND):
        return words, None
    return words[:cut], words[cut + 1 :]


def wants_server(args: argparse.Namespace) -> bool:
    """The tools come from a live server or from tool executables, not from files."""
    return bool(getattr(args, "mcp", False) or getattr(args, "mcp_url", None) or wants_exec(args))


def wants_exec(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "exec", False) or getattr(args, "exec_dir", None))


@dataclass(frozen=True)
class LiveDocument:
    """A server's (or tool executables') tool list as the document toolcast checks: ``text`` is
    exactly what ``toolcast snapshot`` writes; ``server`` is the label in ``mcp:<server>/<tool>``
    locations. Tools read from executables are located as ``exec:<program>`` instead, ``programs``
    naming each tool's program; ``failures`` holds one line per executable whose tool could not be read."""

    server: str
    version: str | None
    text: str
    tools: tuple[dict[str, Any], ...]
    programs: tuple[str, ...] = ()
    failures: tuple[str, ...] = ()
    kind: str = "MCP server"

    @property
    def described(self) -> str:
        """How summaries name the source: ``MCP server X``, ``tool executable X``."""
        return f"{self.kind} {self.server}"

    @property
    def shown(self) -> str:
        """The source as a location prefix: ``mcp:<server>`` or ``exec:<program or folder>``."""
        return f"exec:{self.server}" if self.programs else f"mcp:{self.server}"


def source_problem(args: argparse.Namespace, command_name: str) -> str | None:
    """A usage error in the MCP and tool-executable options, or None."""
    command = args.mcp_command
    chosen = [flag for flag, on in (("--mcp", args.mcp), ("--mcp-url", args.mcp_url),
                                    ("--exec", getattr(args, "exec", False)),
                                    ("--exec-dir", getattr(args, "exec_dir", None))) if on]
    if len(chosen) > 1:
        return f"give one source of tools, not {' and '.join(chosen)}"
    if getattr(args, "exec", False) and not command:
        return f"--exec needs the tool command after `--`: toolcast {command_name} --exec -- COMMAND [ARGS...]"
    if args.mcp and not command:
        return f"--mcp needs the server command after `--`: toolcast {command_name} --mcp -- COMMAND [ARGS...]"
    if command and not (args.mcp or getattr(args, "exec", False)):
        return "a command after `--` needs --mcp (a server) or --exec (a tool executable)"
    if args.mcp_url and not args.mcp_url.startswith(("http://", "https://")):
        return f"--mcp-url needs an http:// or https:// URL, not {args.mcp_url!r}"
    if args.timeout is not None and not args.timeout > 0:
        return "--timeout must be a positive number of seconds"
    return None


def fetch_document(args: argparse.Namespace, command_name: str) -> LiveDocument | None:
    """The server's (or tool executables') tool list, or None after printing one error line on stderr."""
    problem = source_problem(args, command_name)
    if problem:
        print(f"toolcast {command_name}: {problem}", file=sys.stderr)
        return None
    if wants_exec(args):
        return _fetch_executables(args, command_name)
    from toolcast.server.mcp_source import (
        DEFAULT_TIMEOUT,
        McpSource,
        McpSourceError,
        fetch_tools,
        label,
        render_document,
        tools_document,
    )

    source = McpSource(url=args.mcp_url) if args.mcp_url else McpSource(command=tuple(args.mcp_command))
    try:
        found = fetch_tools(source, args.timeout or DEFAULT_TIMEOUT)
    except McpSourceError as exc:
        print(f"toolcast {command_name}: {exc}", file=sys.stderr)
        return None
    document = tools_document(found.tools)
    return LiveDocument(label(found.name), found.version or None, render_document(document),
                        tuple(document["tools"]))


def _fetch_executables(args: argparse.Namespace, command_name: str) -> LiveDocument | None:
    from toolcast.server.exec_source import (
        DEFAULT_TIMEOUT,
        ExecSourceError,
        discover,
        discover_folder,
        render_document,
        tools_document,
    )

    timeout = args.timeout or DEFAULT_TIMEOUT
    failures: list[str] = []
    try:
        if args.exec_dir:
            found, failures = discover_folder(Path(args.exec_dir), timeout)
            label, kind = args.exec_dir.rstrip("/") or "/", "tool executable(s) in"
        else:
            found, label, kind = [discover(args.mcp_command, timeout)], args.mcp_command[0], "tool executable"
    except ExecSourceError as exc:
        print(f"toolcast {command_name}: {exc}", file=sys.stderr)
        return None
    for failure in failures:
        print(f"toolcast {command_name}: {failure}", file=sys.stderr)
    document = tools_document(found)
    return LiveDocument(label, None, render_document(document), tuple(document["tools"]),
                        programs=tuple(t.program for t in found), failures=tuple(failures), kind=kind)


def live_location(live: LiveDocument, document_pointer: str) -> tuple[str, str]:
    """Where a pointer into the live document is, for the user: ``mcp:<server>/<tool>#<pointer inside
    the tool>`` or ``exec:<program>#<pointer inside the tool>``; and the pointer inside the tool."""
    if not live.programs:
        return tool_location(live.server, document_pointer, live.tools)
    from toolcast.adapters import pointer as jp

    parts = jp.parts(document_pointer)
    if len(parts) >= 2 and parts[0] == "tools" and parts[1].isdigit() and int(parts[1]) < len(live.programs):
        inner = jp.from_parts(parts[2:])
        return f"exec:{live.programs[int(parts[1])]}" + (f"#{inner}" if inner else ""), inner
    return live.shown, document_pointer


def tool_location(server: str, document_pointer: str, tools: Sequence[dict[str, Any]]) -> tuple[str, str]:
    """``(mcp:<server>/<tool>#<pointer inside the tool>, pointer inside the tool)`` for a pointer
    into the live document (``/tools/<i>/...``); ``mcp:<server>`` for the document itself."""
    from toolcast.adapters import pointer as jp

    parts = jp.parts(document_pointer)
    if len(parts) >= 2 and parts[0] == "tools" and parts[1].isdigit() and int(parts[1]) < len(tools):
        name = tools[int(parts[1])].get("name")
        inner = jp.from_parts(parts[2:])
        tool = name if isinstance(name, str) and name else f"#{parts[1]}"
        return f"mcp:{server}/{tool}" + (f"#{inner}" if inner else ""), inner
    return f"mcp:{server}", document_pointer
