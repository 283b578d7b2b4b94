"""``toolcast snapshot --mcp -- COMMAND [ARGS...]`` / ``--mcp-url URL``: the tools a live MCP server
lists (``--exec -- COMMAND`` / ``--exec-dir DIR``: the tools executables print for ``--schema``),
written as a tool file (MCP's ``{"tools": [...]}`` shape, tools sorted by name, fixed key order,
two-space indent) that can be committed, diffed and checked without starting the server.
``toolcast check`` on the snapshot gives the findings the live check gives, at the same lines."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .mcp_common import add_source_arguments, fetch_document, wants_server


def register(sub: Any) -> None:
    p = sub.add_parser("snapshot", help="write a live MCP server's (or tool executables') tools as a tool file",
                       description="Write the tools an MCP server lists (tools/list), or that tool executables "
                                   "print for --schema, as a tool file that toolcast check and convert accept.")
    p.add_argument("--out", help="write to this file (atomically) instead of stdout")
    add_source_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not wants_server(args) and not args.mcp_command:
        print("toolcast snapshot: give a server: --mcp -- COMMAND [ARGS...] or --mcp-url URL; or tool executables: "
              "--exec -- COMMAND [ARGS...] or --exec-dir DIR", file=sys.stderr)
        return 2
    live = fetch_document(args, "snapshot")
    if live is None or live.failures:  # a snapshot with a tool missing would be a wrong record
        return 2
    if args.out:
        from toolcast.adapters.errors import ToolcastError

        from ..output import write_atomic

        try:
            write_atomic(Path(args.out), live.text, source=None)
        except ToolcastError as exc:
            print(f"toolcast snapshot: {exc}", file=sys.stderr)
            return 2
        print(f"{len(live.tools)} tool(s) of {live.described} written to {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(live.text)
    return 0
