"""``toolcast``: the command line over the same core as the language server.

Each subcommand lives in its own module exposing ``register(subparsers)``; the module sets
``func`` on its parser, which receives the parsed arguments and returns the exit code. Heavy imports
(pygls for ``serve``) happen inside the command, so ``check`` and ``convert`` start fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: Subcommand modules, in the order ``toolcast --help`` lists them.
COMMAND_MODULES = (
    "serve_cmd",
    "check_cmd",
    "convert_cmd",
    "explain_cmd",
    "providers_cmd",
    "messages_cmd",
    "snapshot_cmd",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolcast",
        description="Check LLM tool definitions and convert them to every provider's format.",
    )
    from importlib.metadata import PackageNotFoundError, version

    try:
        ver = version("toolcast")
    except PackageNotFoundError:  # running from a source tree
        ver = "unknown"
    parser.add_argument("--version", action="version", version=f"toolcast {ver}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{name}":
                continue  # that command is not part of this build
            raise
        module.register(sub)
    return parser


def _safe_streams() -> None:
    """Output is UTF-8 whatever the locale, and a character a stream cannot encode (a lone surrogate in
    a tool name) is escaped rather than a crash after half the output."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8", errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    _safe_streams()
    parser = build_parser()
    from .mcp_common import split_command

    own, server_command = split_command(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(own)
    if server_command is not None:
        args.mcp_command = server_command
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        code: int = func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
