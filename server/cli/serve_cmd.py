"""``toolcast serve``: the language server for editors (stdio; ``--tcp HOST:PORT`` for debugging)."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("serve", help="run the language server (stdio)")
    # Language clients name the transport: vscode-languageclient appends `--stdio` to the command.
    p.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    p.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio (debugging)")
    p.add_argument("--log-file", help="write the server's log here")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.log_file:
        logging.basicConfig(filename=args.log_file, level=logging.INFO)
    else:
        logging.basicConfig(level=logging.WARNING)  # stderr: the editor's log of this server
    from toolcast.server.lsp.allocator import keep_large_blocks
    from toolcast.server.lsp.app import server  # pygls only when serving

    keep_large_blocks()

    if args.tcp and args.stdio:
        print("toolcast: choose one of --stdio and --tcp", file=sys.stderr, flush=True)
        return 2
    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        if not port.isdigit():
            print("toolcast: --tcp takes HOST:PORT", file=sys.stderr, flush=True)
            return 2
        server.start_tcp(host or "127.0.0.1", int(port))
    else:
        server.start_io()
        return server.exit_code  # 1 after `exit` without `shutdown`
    return 0
