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
    "proxy_cmd",
)
#: Which module registers each subcommand: a command line naming one imports only that module.
COMMANDS = {
    "serve": "serve_cmd", "check": "check_cmd", "convert": "convert_cmd", "explain": "explain_cmd",
    "providers": "providers_cmd", "request": "messages_cmd", "response": "messages_cmd", "snapshot": "snapshot_cmd",
    "proxy": "proxy_cmd",
}


class _VersionAction(argparse.Action):
    """``--version``: reads the installed metadata only when asked (importlib.metadata costs ~30 ms)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        parser._print_message(_version_line(), sys.stdout)
        parser.exit()


def _version_line() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        ver = version("toolcast")
    except PackageNotFoundError:  # running from a source tree
        ver = "unknown"
    return f"toolcast {ver}\n"


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser. With ``only`` (a subcommand's name), just the module registering that
    subcommand is imported: `toolcast serve` does not pay for the converters and the message model that
    `convert` and `messages` import, and every command starts faster."""
    parser = argparse.ArgumentParser(
        prog="toolcast",
        description="Check LLM tool definitions and convert them to every provider's format.",
    )
    parser.add_argument("--version", action=_VersionAction, help="show program's version number and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        if only is not None and name != COMMANDS.get(only):
            continue
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{name}":
                continue  # that command is not part of this build
            raise
        module.register(sub)
    return parser


def _command_named(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` starts with, when it is one of ours; None for anything else (options
    before it, a typo, no command: the full parser answers those)."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def _safe_streams() -> None:
    """Output is UTF-8 whatever the locale, and a character a stream cannot encode (a lone surrogate in
    a tool name) is escaped rather than a crash after half the output."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8", errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    _safe_streams()
    argv = sys.argv[1:] if argv is None else argv
    if list(argv[:1]) == ["--version"]:  # what the full parser would print, without importing every command to build it
        sys.stdout.write(_version_line())
        return 0
    from .mcp_common import split_command

    own, server_command = split_command(argv)
    parser = build_parser(_command_named(own))
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
