"""What ``check``, ``convert`` and ``snapshot`` share for a live MCP server: the ``--mcp`` /
``--mcp-url`` / ``--timeout`` options and fetching the server's tool list as the document toolcast
checks. The MCP client (``toolcast.server.mcp_source``, and through it the ``mcp`` SDK) is imported
only when a server is asked, so ``toolcast check FILE`` never pays for it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: ``toolcast check --mcp -- CMD ARGS``: the words after ``--`` are the server command.
SEPARATOR = "--"


def add_source_arguments(p: argparse.ArgumentParser) -> None:
    group = p.add_argument_group("live MCP server")
    group.add_argument("--mcp", action="store_true",
                       help="read the tools of the MCP server started with the command after `--` (stdio): "
                            "toolcast ... --mcp -- COMMAND [ARGS...]")
    group.add_argument("--mcp-url", metavar="URL", help="read the tools of the MCP server at this streamable HTTP URL")
    group.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                       help="give up on the server after this long (default: 60; a first `npx -y` or "
                            "`uvx` run downloads the server)")
    p.set_defaults(mcp_command=None)


def split_command(argv: Sequence[str]) -> tuple[list[str], list[str] | None]:
    """``(toolcast's own arguments, the server command)``: the command is what follows the first
    ``--`` when ``--mcp`` comes before it; otherwise the arguments are left as they are."""
    words = list(argv)
    if SEPARATOR not in words:
        return words, None
    cut = words.index(SEPARATOR)
    if "--mcp" not in words[:cut]:
        return words, None
    return words[:cut], words[cut + 1 :]


def wants_server(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "mcp", False) or getattr(args, "mcp_url", None))


@dataclass(frozen=True)
class LiveDocument:
    """A server's tool list as the document toolcast checks: ``text`` is exactly what
    ``toolcast snapshot`` writes; ``server`` is the label in ``mcp:<server>/<tool>`` locations."""

    server: str
    version: str | None
    text: str
    tools: tuple[dict[str, Any], ...]


def source_problem(args: argparse.Namespace, command_name: str) -> str | None:
    """A usage error in the MCP options, or None."""
    command = args.mcp_command
    if args.mcp and args.mcp_url:
        return "give either --mcp -- COMMAND or --mcp-url URL, not both"
    if args.mcp and not command:
        return f"--mcp needs the server command after `--`: toolcast {command_name} --mcp -- COMMAND [ARGS...]"
    if command and not args.mcp:
        return "a server command after `--` needs --mcp"
    if args.mcp_url and not args.mcp_url.startswith(("http://", "https://")):
        return f"--mcp-url needs an http:// or https:// URL, not {args.mcp_url!r}"
    if args.timeout is not None and not args.timeout > 0:
        return "--timeout must be a positive number of seconds"
    return None


def fetch_document(args: argparse.Namespace, command_name: str) -> LiveDocument | None:
    """The server's tool list, or None after printing one error line on stderr."""
    problem = source_problem(args, command_name)
    if problem:
        print(f"toolcast {command_name}: {problem}", file=sys.stderr)
        return None
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
