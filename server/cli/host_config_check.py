"""``toolcast check --mcp-config FILE``: every server a host's MCP configuration file would load, started
(or connected to) as ``check --mcp`` / ``--mcp-url`` do, and checked as the one request the host sends.

The file (read bounded, as every file toolcast reads: ``adapters/document/file_reading.py``) is read by
``adapters/host_config.py``; its kind (VS Code, Claude Code, Cursor, Gemini CLI, Claude Desktop) selects the
host whose rules apply unless ``--for`` names others. Each server's tools are checked with its name as the
host knows it (the prefix of host-prefixed names), located as ``mcp:<server>/<tool>#<pointer>``; the tool
limits and budgets of the request (``REQUEST_CODES``) and names two servers share (TC206) are judged on
all the servers' tools together; ``--cost`` adds the estimate of the whole request. A server that cannot be
started or asked is named on stderr with the reason, the others are still checked, and the exit status is
then 2 (as for an unreachable server)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from toolcast.adapters import pointer as jp
from toolcast.adapters.checks import (
    REQUEST_CODES,
    Analyzer,
    Located,
    check_document,
    located_config,
    located_in,
    names_across_servers,
)
from toolcast.adapters.consumers import consumer, model_family
from toolcast.adapters.document import UnreadableFile, read_text
from toolcast.adapters.host_config import (
    LAYOUTS,
    Context,
    HostConfigError,
    layout_named,
    layout_of,
    read_host_config,
    workspace_folder,
)
from toolcast.server.mcp_source import (
    DEFAULT_TIMEOUT,
    McpSource,
    McpSourceError,
    fetch_tools,
    label,
    render_document,
    tools_document,
)

from .mcp_common import tool_location

#: Servers started at once (each is a process, or a connection, and a thread here).
_AT_ONCE = 4
_NAME = "toolcast check"


def usage_problem(args: argparse.Namespace) -> str | None:
    """Options that do not go with ``--mcp-config``."""
    others = [flag for flag, on in (("tool files", args.paths), ("--mcp", args.mcp or args.mcp_command),
                                    ("--mcp-url", args.mcp_url), ("--exec", getattr(args, "exec", False)),
                                    ("--exec-dir", getattr(args, "exec_dir", None))) if on]
    if others:
        return f"give --mcp-config alone, not with {' and '.join(others)}"
    if args.server_name is not None:
        return "--server-name does not go with --mcp-config: each server is named by its entry in the file"
    if args.timeout is not None and not args.timeout > 0:
        return "--timeout must be a positive number of seconds"
    return None


@dataclass(frozen=True)
class CheckSteps:
    """The steps every ``toolcast check`` takes, whatever its source, handed over by ``check_cmd`` (which owns
    them): the configuration of a folder, the ``--for`` names, the ``--select``/``--ignore`` check, a
    document's token estimates, and printing the result (the exit status)."""

    configured: Callable[[Path, argparse.Namespace], tuple[Any, list[Any]]]
    consumer_names: Callable[[argparse.Namespace], tuple[str, ...]]
    bad_codes: Callable[[argparse.Namespace], bool]
    document_costs: Callable[[Any, str, Any, Any], Any]
    emit: Callable[..., int]


@dataclass(frozen=True)
class _Checked:
    """One server's tools as the host keeps them, the document checked and its report."""

    name: str  # the entry's name in the file
    shown: str  # mcp:<name>
    tools: tuple[dict[str, Any], ...]
    text: str
    report: Any
    config: Any


def run_config(args: argparse.Namespace, steps: CheckSteps) -> int:
    problem = usage_problem(args)
    if problem:
        print(f"{_NAME}: {problem}", file=sys.stderr)
        return 2
    if steps.bad_codes(args):
        return 2
    path = Path(args.mcp_config)
    text = _read(path)
    if text is None:
        return 2
    names = steps.consumer_names(args)
    layout = layout_of(str(path)) or next((lay for n in names if (lay := layout_named(n)) is not None), None)
    # ~/.claude.json's servers start in the project toolcast runs in; the others' in the file's project folder.
    context = _context(path, Path.cwd() if layout is LAYOUTS["claude-user"] else None)
    try:
        host = read_host_config(text, str(path), context, layout, project=str(Path.cwd().resolve()))
    except HostConfigError as exc:
        print(f"{_NAME}: {path}: {exc}", file=sys.stderr)
        return 2
    from_file = not names
    if from_file:
        args.consumers = [host.layout.host]
    cfg, problems = steps.configured(Path(context.folder), args)
    for name, why in host.skipped:
        print(f"{_NAME}: server {name!r} is not loaded by the host ({why}); not checked", file=sys.stderr)
    fetched = _fetch_all(host.servers, args.timeout)
    failed = 0
    analyzer = Analyzer()  # this run's: one document per server, and the request
    checked: list[_Checked] = []
    for entry, outcome in zip(host.servers, fetched, strict=True):
        if isinstance(outcome, str):
            print(f"{_NAME}: server {entry.name!r}: {outcome}", file=sys.stderr)
            failed += 1
            continue
        checked.append(_check_server(analyzer, entry, outcome, cfg))
    located: list[Located] = located_config(problems)
    across = names_across_servers([(c.name, c.report) for c in checked], cfg)
    request_text, request_report = _request(analyzer, checked, cfg)
    moved = _request_findings(analyzer, checked, request_report)
    for i, server in enumerate(checked):
        findings = [f for f in server.report.findings if f.code not in _request_codes()]
        located.extend(_placed(server, [*findings, *across[i], *moved[i]], args.format))
    costs = None
    if args.cost:
        costs = [(c.shown, steps.document_costs(analyzer, c.text, c.report, c.config)) for c in checked]
        costs.append((f"{path} (all servers, one request)",
                      steps.document_costs(analyzer, request_text, request_report, cfg)))
    total = sum(len(c.tools) for c in checked)
    chosen = f"read as {host.layout.kind}; " + ("its host" if from_file else "hosts chosen with --for")
    summary = f"{total} tool(s) of {len(checked)} server(s) in {path} checked for {_hosts(cfg)} ({chosen})"
    if failed:
        summary += f"; {failed} server(s) not checked"
    return steps.emit(located, args, summary, 2 if failed else 0, costs=costs)


def _read(path: Path) -> str | None:
    """The file's text, or None after one line on stderr (a device, a FIFO, too large, not UTF-8, ...)."""
    try:
        return read_text(path)
    except UnreadableFile as exc:
        reason = exc.reason
    except UnicodeDecodeError as exc:
        reason = f"not UTF-8 (byte {exc.start})"
    except FileNotFoundError:
        reason = "no such file"
    except OSError as exc:
        reason = f"cannot read: {exc.strerror or exc}"
    print(f"{_NAME}: {path}: {reason}", file=sys.stderr)
    return None


def _context(path: Path, project: Path | None) -> Any:
    folder = str(project.resolve()) if project is not None else workspace_folder(str(path.resolve()))
    return Context(env=dict(os.environ), home=str(Path.home()), folder=folder, separator=os.sep)


def _fetch_all(entries: Any, timeout: float | None) -> list[Any]:
    """Each server's ``ServerTools``, or why it could not be asked (one line), in the entries' order. A few
    at a time: each waits on its own process or connection."""
    if not entries:
        return []
    with ThreadPoolExecutor(max_workers=min(_AT_ONCE, len(entries))) as pool:
        return list(pool.map(lambda e: _fetch_one(e, timeout), entries))


def _fetch_one(entry: Any, timeout: float | None) -> Any:
    if entry.problem:
        return f"cannot be started: {entry.problem}"
    source = (McpSource(url=entry.url, headers=entry.headers, shown=entry.written) if entry.url
              else McpSource(command=entry.command, env=entry.env, cwd=entry.cwd, shown=entry.written))
    try:
        return fetch_tools(source, timeout or DEFAULT_TIMEOUT)
    except McpSourceError as exc:
        return str(exc)


def _check_server(analyzer: Any, entry: Any, found: Any, cfg: Any) -> _Checked:
    """The server's tools the host keeps, checked with the entry's name as the server name."""
    kept = [t for t in found.tools if entry.keeps(str(t.get("name", "")))]
    document = tools_document(kept)
    text = render_document(document)
    config = replace(cfg, server_name=entry.name)
    report = check_document(text, config=config, analyzer=analyzer)
    return _Checked(entry.name, f"mcp:{label(entry.name)}", tuple(document["tools"]), text, report, config)


def _request_codes() -> frozenset[str]:
    return REQUEST_CODES


def _request(analyzer: Any, checked: list[_Checked], cfg: Any) -> tuple[str, Any]:
    """The tools of every server, in the file's order, as the one request the host sends; its report."""
    text = render_document({"tools": [t for c in checked for t in c.tools]})
    return text, check_document(text, config=cfg, analyzer=analyzer)


def _request_findings(analyzer: Any, checked: list[_Checked], report: Any) -> list[list[Any]]:
    """The request-level findings of the whole request, each moved to the server and tool it is on."""
    starts = []
    at = 0
    for c in checked:
        starts.append(at)
        at += len(c.tools)
    out: list[list[Any]] = [[] for _ in checked]
    for finding in report.findings:
        parts = jp.parts(finding.pointer)
        if finding.code not in _request_codes() or len(parts) < 2 or not parts[1].isdigit():
            continue
        k = int(parts[1])
        i = max(n for n, s in enumerate(starts) if s <= k) if checked else 0
        if not checked or k - starts[i] >= len(checked[i].tools):
            continue
        pointer = jp.from_parts(["tools", str(k - starts[i]), *parts[2:]])
        span = analyzer.parse(checked[i].text, jsonc=True).span(pointer) or (0, 1)
        out[i].append(replace(finding, pointer=pointer, span=span, tool_index=k - starts[i]))
    return out


def _placed(server: _Checked, findings: list[Any], fmt: str) -> list[Any]:
    out = []
    for item in located_in(server.shown, server.text, findings, line_text=fmt == "human"):
        where, _inner = tool_location(server.shown[len("mcp:"):], item.finding.pointer, server.tools)
        out.append(replace(item, where=where, line_text=""))
    return out


def _hosts(cfg: Any) -> str:
    names = [consumer(n).display_name for n in cfg.consumers] + [f"{m} ({model_family(m).display_name})"
                                                                  for m in cfg.models]
    return ", ".join(names) or "no host"
