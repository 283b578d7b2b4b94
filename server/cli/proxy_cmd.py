"""``toolcast proxy --for HOST [--model M] -- COMMAND [ARGS...]`` (or ``--mcp-url URL``): serve an MCP
server's tools over stdio, lowered for the host and model named, with calls mapped back to the server's
names and arguments; ``--dry-run`` prints what would be served and lost, and exits. The selection
(``consumers``, ``models``, ``server_name``, ``max_tools``) can also come from ``toolcast.toml``."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import IO, Any, TypeVar

NAME = "proxy"


def register(sub: Any) -> None:
    p = sub.add_parser(NAME, help="serve an MCP server's tools lowered for a host and model, calls mapped back",
                       description="Run where a host runs an MCP server: toolcast proxy --for gemini-cli -- "
                                   "COMMAND [ARGS...]. Tools are converted for the host's model, names fitted "
                                   "to the host, and calls mapped back and validated; everything else passes "
                                   "through. What changed is written to stderr.")
    p.add_argument("--for", dest="hosts", action="append", default=[], metavar="HOST",
                   help="the host that loads the server (gemini-cli, claude-code, vscode, cursor, ...); repeatable")
    p.add_argument("--model", dest="models", action="append", default=[], metavar="MODEL",
                   help="the model the host sends the tools to (decides the provider dialect); repeatable")
    p.add_argument("--server-name", metavar="NAME",
                   help="the name the host knows the server by (the prefix of its tool names); default: the "
                        "server's own")
    p.add_argument("--target", metavar="TARGET", help="lower for this provider dialect whatever the host and model")
    p.add_argument("--include", action="append", default=[], metavar="GLOB",
                   help="serve only tools whose names match (repeatable, or comma-separated)")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                   help="do not serve tools whose names match (repeatable, or comma-separated)")
    p.add_argument("--max-tools", type=int, metavar="N", help="serve at most N tools (the first the server lists)")
    p.add_argument("--log", metavar="FILE", help="also write every change and rejected call as JSON lines to FILE")
    p.add_argument("--dry-run", action="store_true", help="print the tools that would be served and their "
                                                          "losses, then exit")
    p.add_argument("--format", choices=("human", "json"), default="human", help="--dry-run's output")
    p.add_argument("--mcp-url", metavar="URL", help="proxy the MCP server at this streamable HTTP URL")
    p.add_argument("--listen", metavar="[HOST:]PORT",
                   help="serve hosts over streamable HTTP at http://HOST:PORT/mcp instead of stdio (HOST: 127.0.0.1)")
    p.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                   help="give up on the server's start or on one request after this long (default: 60)")
    p.set_defaults(func=run, mcp_command=None)


def _globs(values: list[str]) -> tuple[str, ...]:
    return tuple(g.strip() for v in values for g in v.split(",") if g.strip())


def settings_from(args: argparse.Namespace) -> Any:
    """The proxy's settings: the command line's, else the configuration's (``toolcast.toml``)."""
    from toolcast.adapters.checks import load_config
    from toolcast.adapters.proxy_plan import ProxySettings

    config, _problems = load_config(Path.cwd())
    return ProxySettings(
        hosts=tuple(args.hosts) or config.consumers, models=tuple(args.models) or config.models,
        server_name=args.server_name or config.server_name, include=_globs(args.include),
        exclude=_globs(args.exclude), max_tools=args.max_tools if args.max_tools is not None else config.max_tools,
        target=args.target)


def usage_problem(args: argparse.Namespace) -> str | None:
    if bool(args.mcp_command) == bool(args.mcp_url):
        return ("give the server: toolcast proxy --for HOST -- COMMAND [ARGS...], or --mcp-url URL "
                "(one of them)")
    if args.mcp_url and not args.mcp_url.startswith(("http://", "https://")):
        return f"--mcp-url needs an http:// or https:// URL, not {args.mcp_url!r}"
    if args.timeout is not None and not args.timeout > 0:
        return "--timeout must be a positive number of seconds"
    if args.max_tools is not None and args.max_tools < 0:
        return "--max-tools must be 0 or more"
    if args.listen is not None and listen_address(args.listen) is None:
        return f"--listen needs [HOST:]PORT, not {args.listen!r}"
    return None


def listen_address(text: str) -> tuple[str, int] | None:
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        return None
    return host.strip("[]") or "127.0.0.1", int(port)


def run(args: argparse.Namespace) -> int:
    from toolcast.adapters.proxy_plan import ProxySettingsError, dialect, selection

    problem = usage_problem(args)
    if problem:
        print(f"toolcast proxy: {problem}", file=sys.stderr)
        return 2
    settings = settings_from(args)
    try:
        selection(settings)
        dialect(settings)
    except ProxySettingsError as exc:
        print(f"toolcast proxy: {exc}", file=sys.stderr)
        return 2
    from toolcast.server.mcp_source import INSTALL_HINT, McpSource, sdk_installed

    if not sdk_installed():
        print(f"toolcast proxy: {INSTALL_HINT}", file=sys.stderr)
        return 2
    source = McpSource(url=args.mcp_url) if args.mcp_url else McpSource(command=tuple(args.mcp_command))
    timeout = args.timeout or 60.0
    if args.dry_run:
        return _dry_run(source, settings, timeout, args.format)
    try:
        log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115 - closed below
    except OSError as exc:
        print(f"toolcast proxy: cannot write the log {args.log}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:
        return _serve(source, settings, timeout, log, listen_address(args.listen) if args.listen else None)
    finally:
        if log is not None:
            log.close()


def _who(settings: Any) -> str:
    named = [*settings.hosts, *settings.models]
    return ", ".join(named) if named else "any host"


def _dry_run(source: Any, settings: Any, timeout: float, fmt: str) -> int:
    from toolcast.adapters.proxy_plan import lower_tools
    from toolcast.server.mcp_source import McpSourceError, fetch_tools

    try:
        found = fetch_tools(source, timeout)
    except McpSourceError as exc:
        print(f"toolcast proxy: {exc}", file=sys.stderr)
        return 2
    plan = lower_tools(list(found.tools), settings, settings.server_name or found.name)
    if fmt == "json":
        print(json.dumps({**plan.summary(), "tools": plan.tools()}, indent=2, ensure_ascii=False))
        return 0
    from toolcast.server.proxy.change_log import Reporter

    Reporter(stream=sys.stdout).plan(plan, found.name, len(found.tools), _who(settings))
    return 0


@contextlib.contextmanager
def _sdk_quiet() -> Iterator[None]:
    """The SDK logs transport trouble with tracebacks; the proxy says it in one line instead."""
    sdk_log = logging.getLogger("mcp")
    saved = sdk_log.propagate, sdk_log.level
    sdk_log.propagate = False
    sdk_log.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        sdk_log.propagate, sdk_log.level = saved


def _serve(source: Any, settings: Any, timeout: float, log: IO[str] | None, listen: tuple[str, int] | None) -> int:
    import anyio
    from toolcast.server.descendants import end_before_exit, ending_descendants
    from toolcast.server.mcp_source import failure_text
    from toolcast.server.proxy.bridge import ProxyError
    from toolcast.server.proxy.bridge import run as run_proxy
    from toolcast.server.proxy.change_log import Reporter
    from toolcast.server.proxy.host_pipes import host_streams
    from toolcast.server.proxy.stderr_relay import StderrTail

    reporter = Reporter(log)
    tail = None if source.url else StderrTail()
    where = f"MCP server `{source.describe()}`"

    def gone(why: str) -> None:  # the server is gone and the host's stdin holds the proxy: end it here
        reporter.line(f"{where}: {why}{tail.tail() if tail else ''}", last=True)
        end_before_exit()
        os._exit(1)

    try:
        # Every process the server starts, even one that left its process group, ends with the proxy.
        with _sdk_quiet(), ending_descendants():
            anyio.run(partial(run_proxy, source, settings, timeout, reporter, host_streams, _who(settings), tail, gone,
                              listen))
    except KeyboardInterrupt:
        return 130
    except BaseException as exc:  # the SDK's task groups wrap transport errors in groups
        ours = _find(exc, ProxyError)
        if ours is not None:
            reporter.line(f"{where}: {ours}{tail.tail() if tail else ''}", last=True)
            return 1 if ours.serving else 2
        text = f"no answer within {timeout:g} s" if _find(exc, TimeoutError) else failure_text(exc)
        reporter.line(f"{where}: {text}{tail.tail() if tail else ''}", last=True)
        return 2
    finally:
        if tail is not None:
            tail.close()
    return 0


_E = TypeVar("_E", bound=BaseException)


def _find(exc: BaseException, kind: type[_E]) -> _E | None:
    """The first ``kind`` in a (possibly grouped) failure."""
    if isinstance(exc, kind):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = _find(inner, kind)
            if found is not None:
                return found
    return None
