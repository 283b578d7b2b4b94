"""``toolcast check PATH...``: every finding in the given tool files and folders;
``toolcast check --mcp -- COMMAND [ARGS...]`` / ``--mcp-url URL``: every finding in the tools a live
MCP server lists, located as ``mcp:<server>/<tool>#<pointer inside the tool>``.

Exit status: 0 no errors, 1 errors found, 2 usage error, unreadable input or an unreachable server."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

_FORMATS = ("human", "json", "sarif", "github")
_PROGRESS_MIN_FILES = 20


def register(subparsers: Any) -> None:
    from toolcast.adapters.targets import TARGETS

    from .mcp_common import add_source_arguments

    p = subparsers.add_parser("check", help="check tool files and folders, or a live MCP server's tools; "
                                            "exit 1 when errors are found")
    p.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="tool files or folders (folders: files matching "
        "the configured globs, or any .json/.jsonc holding tools)",
    )
    p.add_argument("--format", choices=_FORMATS, default="human", help="output format (default: human)")
    p.add_argument(
        "--target",
        action="append",
        choices=TARGETS,
        metavar="TARGET",
        help=f"check for this target only (repeatable; one of: {', '.join(TARGETS)})",
    )
    p.add_argument(
        "--select",
        action="append",
        metavar="CODE",
        help="only these codes or prefixes (repeatable, or comma-separated)",
    )
    p.add_argument("--ignore", action="append", metavar="CODE", help="skip these codes or prefixes")
    p.add_argument("--no-progress", action="store_true", help="never draw a progress bar")
    add_source_arguments(p)
    p.set_defaults(func=run)


def _codes(values: Sequence[str] | None) -> tuple[str, ...]:
    out: list[str] = []
    for v in values or ():
        out.extend(x.strip().upper() for x in v.split(",") if x.strip())
    return tuple(out)


class _Progress:
    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.enabled, self.done = total, enabled, 0

    def step(self) -> None:
        if not self.enabled:
            return
        self.done += 1
        if self.done % 10 and self.done != self.total:
            return
        width = 30
        filled = width * self.done // max(1, self.total)
        sys.stderr.write(f"\r[{'#' * filled}{' ' * (width - filled)}] {self.done}/{self.total} files")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()


def _content_is_tools(report: Any) -> bool:
    """A .json file outside the globs counts when it holds tools with a parameters schema (so that a
    package.json with a `name` and a `description` is not taken for a tool)."""
    from toolcast.adapters.checks.rules import PARAMETERS_MISSING

    return bool(report.is_tool_file and report.tools and not any(f.code == PARAMETERS_MISSING for f in report.findings))


def _configured(folder: Path, args: argparse.Namespace) -> tuple[Any, list[Any]]:
    """The configuration for files in ``folder`` (toolcast.toml / pyproject.toml found from there),
    with the command line's --target, --select and --ignore applied; and its problems."""
    from toolcast.adapters.checks import load_config

    select, ignore = _codes(args.select), _codes(args.ignore)
    cfg, problems = load_config(folder)
    if args.target:
        cfg = replace(cfg, targets=tuple(t for t in cfg.targets if t in args.target) or tuple(args.target))
    if select:
        cfg = replace(cfg, select=select)
    if ignore:
        cfg = replace(cfg, ignore=cfg.ignore + ignore)
    return cfg, problems


def _bad_codes(args: argparse.Namespace) -> bool:
    codes = _codes(args.select) + _codes(args.ignore)
    bad = [c for c in codes if not (c.startswith("TC") and c[2:].isdigit() and len(c) <= 5)]
    if bad:
        print(f"toolcast check: not a rule code or prefix: {', '.join(bad)}", file=sys.stderr)
    return bool(bad)


def run(args: argparse.Namespace) -> int:
    from .mcp_common import wants_server

    if wants_server(args) or args.mcp_command:
        if args.paths:
            print("toolcast check: give tool files or a server (--mcp / --mcp-url), not both", file=sys.stderr)
            return 2
        return run_server(args)
    if not args.paths:
        print("toolcast check: give tool files or folders, or a server: --mcp -- COMMAND [ARGS...] or "
              "--mcp-url URL", file=sys.stderr)
        return 2
    return run_files(args)


def run_server(args: argparse.Namespace) -> int:
    """Check the tools a live MCP server lists, exactly as a tool file holding them is checked."""
    from toolcast.adapters.checks import Analyzer
    from toolcast.adapters.checks.engine import config_findings
    from toolcast.adapters.checks.formats import Located

    from .mcp_common import fetch_document, tool_location

    if _bad_codes(args):
        return 2
    cfg, problems = _configured(Path.cwd(), args)
    live = fetch_document(args, "check")
    if live is None:
        return 2
    located: list[Located] = [Located(p.source, f, 1, 1, 1, 1) for p, f in zip(problems, config_findings(problems),
                                                                              strict=True)]
    report = Analyzer().check_document(live.text, config=cfg)  # this run's analyzer: one document
    for item in _locate(f"mcp:{live.server}", live.text, list(report.findings), args.format):
        where, _inner = tool_location(live.server, item.finding.pointer, live.tools)
        located.append(replace(item, where=where, line_text=""))
    return _emit(located, args, f"{len(live.tools)} tool(s) of MCP server {live.server} checked")


def _locate(shown: str, text: str, findings: list[Any], fmt: str) -> list[Any]:
    from toolcast.adapters.checks.formats import Located
    from toolcast.adapters.checks.positions import Positions

    findings.sort(key=lambda x: (x.span[0], x.span[1], x.code))
    pos = Positions(text) if findings else None
    out = []
    for finding in findings:
        assert pos is not None
        line, col = pos.line_col(finding.span[0])
        end_line, end_col = pos.line_col(finding.span[1])
        out.append(Located(shown, finding, line + 1, col + 1, end_line + 1, end_col + 1,
                           pos.line_text(line) if fmt == "human" else ""))
    return out


def _emit(located: list[Any], args: argparse.Namespace, summary: str, status: int = 0) -> int:
    """Print ``located`` in the chosen format; the exit status."""
    from toolcast.adapters.checks.findings import Severity
    from toolcast.adapters.checks.formats import as_github, as_human, as_json, as_sarif

    if args.format == "json":
        print(as_json(located))
    elif args.format == "sarif":
        from importlib.metadata import PackageNotFoundError, version

        try:
            ver = version("toolcast")
        except PackageNotFoundError:
            ver = "0"
        print(as_sarif(located, ver))
    elif args.format == "github":
        if located:
            print(as_github(located))
    else:
        if located:
            print(as_human(located, color=sys.stdout.isatty() and "NO_COLOR" not in os.environ))
        errors = sum(1 for i in located if i.finding.severity == Severity.ERROR)
        others = len(located) - errors
        print(f"{summary}: {errors} error(s), {others} other finding(s)", file=sys.stderr if located else sys.stdout)
    if status:
        return status
    return 1 if any(i.finding.severity == Severity.ERROR for i in located) else 0


def run_files(args: argparse.Namespace) -> int:
    from toolcast.adapters.checks import Analyzer, CheckConfig
    from toolcast.adapters.checks.engine import config_findings
    from toolcast.adapters.checks.files import is_tool_file_name, walk_files
    from toolcast.adapters.checks.findings import Finding
    from toolcast.adapters.checks.formats import Located

    status = 0
    analyzer = Analyzer()  # every cache of this run's checks
    configs: dict[Path, tuple[CheckConfig, list[Any]]] = {}
    config_problems: dict[str, list[Any]] = {}

    def config_for(path: Path) -> CheckConfig:
        folder = path if path.is_dir() else path.parent
        if folder not in configs:
            cfg, problems = _configured(folder, args)
            if problems:
                config_problems.setdefault(problems[0].source, problems)
            configs[folder] = (cfg, problems)
        return configs[folder][0]

    if _bad_codes(args):
        return 2

    # Which files: explicit files always; in folders, glob matches always and other .json/.jsonc only
    # when their content turns out to be a tool file.
    candidates: list[tuple[Path, bool]] = []
    for arg in args.paths:
        p = Path(arg)
        if p.is_dir():
            cfg = config_for(p)
            for f in walk_files(p):
                if is_tool_file_name(f, p, cfg.globs):
                    candidates.append((f, True))
                elif f.suffix in (".json", ".jsonc"):
                    candidates.append((f, False))
        elif p.is_file():
            candidates.append((p, True))
        else:
            print(f"toolcast check: {arg}: no such file or folder", file=sys.stderr)
            status = 2

    progress = _Progress(
        len(candidates),
        not args.no_progress and sys.stderr.isatty() and len(candidates) >= _PROGRESS_MIN_FILES,
    )
    reports: dict[str, Any] = {}
    texts: dict[str, str] = {}
    skipped = 0  # .json/.jsonc files outside the globs that hold no tool with a schema
    for path, explicit in candidates:
        progress.step()
        try:
            raw = path.read_bytes()
            text = raw.decode("utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            if explicit:
                if isinstance(exc, UnicodeDecodeError):
                    print(f"toolcast check: {path}: not UTF-8 (byte {exc.start})", file=sys.stderr)
                else:
                    print(f"toolcast check: {path}: cannot read: {exc.strerror or exc}", file=sys.stderr)
                status = 2
            continue
        cfg = config_for(path)
        report = analyzer.check_document(text, path=str(path), config=cfg)
        if not explicit and not _content_is_tools(report):
            skipped += 1
            continue
        reports[str(path)] = report
        texts[str(path)] = text
    progress.close()

    first_cfg = configs[next(iter(configs))][0] if configs else CheckConfig()
    across = analyzer.check_names_across(reports, first_cfg) if len(reports) > 1 else {}

    located: list[Located] = []
    for source, problems in config_problems.items():
        for problem in config_findings(problems):
            located.append(Located(source, problem, 1, 1, 1, 1))
    for shown, report in reports.items():
        findings: list[Finding] = list(report.findings) + list(across.get(shown, ()))
        located.extend(_locate(shown, texts[shown], findings, args.format))
    summary = f"{len(reports)} file(s) checked"
    if skipped:
        # Every file the walk looked at is accounted for: name a file or match it with `globs` to check it.
        summary += f"; {skipped} other JSON file(s) skipped (no tool with a parameters schema; name them or add a glob)"
    return _emit(located, args, summary, status)
