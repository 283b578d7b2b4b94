"""``toolcast check PATH...``: every finding in the given tool files and folders;
``toolcast check --mcp -- COMMAND [ARGS...]`` / ``--mcp-url URL``: every finding in the tools a live
MCP server lists, located as ``mcp:<server>/<tool>#<pointer inside the tool>``;
``toolcast check --exec -- COMMAND [ARGS...]`` / ``--exec-dir DIR``: the tool each executable prints
for ``--schema`` (seed 000's discovery), located as ``exec:<program>#<pointer inside the tool>``.

Exit status: 0 no errors, 1 errors found, 2 usage error, unreadable input or an unreachable server.

Many files are checked by worker processes (``--jobs``; by default only when the work is large enough
to pay for them, see ``PARALLEL_MIN_BYTES``); the output is the same as one process's, in the same order."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolcast.adapters.consumers import UnknownConsumer, check_model, consumer, model_family, sent_targets
from toolcast.adapters.targets import TARGETS

from .mcp_common import add_source_arguments, fetch_document, live_location, wants_server

if TYPE_CHECKING:
    from toolcast.adapters.checks import CheckConfig

_FORMATS = ("human", "json", "sarif", "github")
_PROGRESS_MIN_FILES = 20
#: With the default ``--jobs``, worker processes are used only when the candidate files add up to at
#: least this many bytes (and there are at least two per worker) and at least two CPUs are idle.
#: Measured (bench/bench_check.py --sweep, BENCHMARKS.md): starting two workers and carrying the
#: reports back costs 100-300 ms on the two-core machine, checking 2.5-4 ms per KB of tool JSON, and
#: two workers at best halve the checking: below a few hundred ms of checking they cannot win.
PARALLEL_MIN_BYTES = 256 * 1024
#: Files handed to a worker at a time: a few batches per worker keep both busy to the end.
_BATCHES_PER_WORKER = 4


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("check", help="check tool files and folders, a live MCP server's tools, or tool "
                                            "executables (--schema); exit 1 when errors are found")
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
    p.add_argument("--cost", action="store_true",
                   help="estimate the tokens the tools take per target (needs toolcast[tokens]): a line per file, "
                        "or with --format json an object {findings, costs}")
    p.add_argument(
        "--jobs",
        "-j",
        type=_jobs_value,
        default=None,
        metavar="N",
        help="worker processes for many files (0 or 1: check in this process; default: one per CPU, "
        "used only when the files are large enough to gain from it)",
    )
    add_consumer_arguments(p)
    add_source_arguments(p)
    hosts = p.add_argument_group("MCP host configuration")
    hosts.add_argument("--mcp-config", metavar="FILE",
                       help="check every server a host's MCP configuration would load, as one request: "
                            ".vscode/mcp.json, .mcp.json, ~/.claude.json, .cursor/mcp.json, .gemini/settings.json "
                            "(the file's kind selects the host unless --for is given)")
    p.set_defaults(func=run)


def add_consumer_arguments(p: argparse.ArgumentParser) -> None:
    """``--for``, ``--model`` and ``--server-name``: which consumers judge the tools (schemas/consumers)."""
    group = p.add_argument_group("consumers (MCP hosts, APIs, models)")
    group.add_argument("--for", dest="consumers", action="append", metavar="HOST",
                       help="also apply the rules of these hosts or APIs (repeatable or comma-separated; e.g. "
                            "vscode,claude-code,cursor; with --mcp it may also come last, after the server command)")
    group.add_argument("--model", dest="models", action="append", metavar="MODEL",
                       help="also apply the rules of this model or model family (repeatable; e.g. gemini-2.5-pro, "
                            "us.anthropic.claude-opus-4-7); an OpenAI or Anthropic API model name (gpt-4o, "
                            "claude-opus-4) sets the token estimates' encoding and constants")
    group.add_argument("--server-name", metavar="NAME",
                       help="the MCP server's name as the hosts know it (the prefix of host-prefixed tool names; "
                            "with --mcp the default is the name the server reports)")


def _jobs_value(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


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
    from toolcast.adapters.checks import PARAMETERS_MISSING

    return bool(report.is_tool_file and report.tools and not any(f.code == PARAMETERS_MISSING for f in report.findings))


#: The command line's --for, --model and --server-name.
ConsumerOverrides = tuple[tuple[str, ...], tuple[str, ...], str | None]
#: The command line's --target, --select and --ignore, and its consumers: plain tuples, so worker processes
#: get them too.
Overrides = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], ConsumerOverrides]


def _overrides(args: argparse.Namespace) -> Overrides:
    return tuple(args.target or ()), _codes(args.select), _codes(args.ignore), _consumer_overrides(args)


def _named_models(args: argparse.Namespace) -> tuple[str, ...]:
    return tuple(dict.fromkeys(x.strip() for v in args.models or () for x in v.split(",") if x.strip()))


def _named_hosts(args: argparse.Namespace) -> tuple[str, ...]:
    return tuple(dict.fromkeys(x.strip() for v in args.consumers or () for x in v.split(",") if x.strip()))


def _estimate_only(model: str, hosts: tuple[str, ...]) -> bool:
    """A provider's API model name (``gpt-4o``, ``claude-opus-4``) that no consumer rule takes (no model family)
    but the token estimates follow (its encoding, its constants): taken by ``--model`` for the estimates alone.
    With ``--for`` hosts named, ``--model`` is about them: a model none of them offers stays an error."""
    from toolcast.adapters.cost import follows_model

    if hosts:
        return False
    try:
        check_model(model, hosts)
    except UnknownConsumer:
        return follows_model(model)
    return False


def _consumer_overrides(args: argparse.Namespace) -> ConsumerOverrides:
    names = _named_hosts(args)
    models = tuple(m for m in _named_models(args) if not _estimate_only(m, names))
    return names, models, args.server_name


def _estimate_models(args: argparse.Namespace) -> tuple[str, ...]:
    """The ``--model`` names only the token estimates follow (they come after the configured models)."""
    hosts = _named_hosts(args)
    return tuple(m for m in _named_models(args) if _estimate_only(m, hosts))


def _bad_consumers(args: argparse.Namespace) -> bool:
    """An unknown --for or --model name: one line naming the known ones (exit 2)."""
    names, models, server = _consumer_overrides(args)
    try:
        for name in names:
            consumer(name)
        for model in models:
            check_model(model, names)
    except UnknownConsumer as exc:
        print(f"toolcast check: {exc}; or, for the token estimates, an OpenAI or Claude API model whose encoding "
              "or tool-use prompt toolcast knows (gpt-4o, gpt-4, o3, claude-opus-4)", file=sys.stderr)
        return True
    if server is not None and not server.strip():
        print("toolcast check: --server-name must not be empty", file=sys.stderr)
        return True
    return False


def _with_consumers(cfg: Any, chosen: ConsumerOverrides) -> Any:
    """``cfg`` with the command line's consumers added to the configured ones (and its server name)."""
    names, models, server = chosen
    if names:
        cfg = replace(cfg, consumers=tuple(dict.fromkeys((*cfg.consumers, *names))))
    if models:
        cfg = replace(cfg, models=tuple(dict.fromkeys((*cfg.models, *models))))
    if server:
        cfg = replace(cfg, server_name=server)
    return cfg


def _configured(folder: Path, args: argparse.Namespace | Overrides) -> tuple[Any, list[Any]]:
    """The configuration for files in ``folder`` (toolcast.toml / pyproject.toml found from there),
    with the command line's --target, --select and --ignore applied; and its problems."""
    from toolcast.adapters.checks import load_config

    targets, select, ignore, chosen = _overrides(args) if isinstance(args, argparse.Namespace) else args
    cfg, problems = load_config(folder)
    cfg = _with_consumers(cfg, chosen)
    # `--model MODEL` with a host (`--for` or configured) and no `--target`: checked for the provider the host
    # sends that model's tools to
    sent = sent_targets(cfg.consumers, cfg.models) if chosen[1] else ()
    return cfg.narrowed(targets or sent, select, ignore), problems


def _bad_codes(args: argparse.Namespace) -> bool:
    from toolcast.adapters.checks import is_code_like

    codes = _codes(args.select) + _codes(args.ignore)
    bad = [c for c in codes if not is_code_like(c)]
    if bad:
        print(f"toolcast check: not a rule code or prefix: {', '.join(bad)}", file=sys.stderr)
    return bool(bad)


def run(args: argparse.Namespace) -> int:
    if args.cost and args.format not in ("human", "json"):
        print(f"toolcast check: --cost is for the human and json formats, not {args.format}", file=sys.stderr)
        return 2

    _lift_trailing_for(args)
    if _bad_consumers(args):
        return 2
    if getattr(args, "mcp_config", None) is not None:
        from .host_config_check import CheckSteps, run_config

        return run_config(args, CheckSteps(_configured, lambda a: _consumer_overrides(a)[0], _bad_codes,
                                           _document_costs, _emit))
    if wants_server(args) or args.mcp_command:
        if args.paths:
            print("toolcast check: give tool files, a server (--mcp / --mcp-url) or tool executables (--exec / "
                  "--exec-dir), not more than one", file=sys.stderr)
            return 2
        return run_server(args)
    if not args.paths:
        print("toolcast check: give tool files or folders, or a server: --mcp -- COMMAND [ARGS...] or "
              "--mcp-url URL", file=sys.stderr)
        return 2
    return run_files(args)


def _lift_trailing_for(args: argparse.Namespace) -> None:
    """``toolcast check --mcp -- CMD ARGS --for vscode``: a ``--for`` that ends the server command is
    toolcast's, not the server's (no server option is named so; ``--model`` is, so it must come before ``--``)."""
    command = args.mcp_command
    if not command:
        return
    if len(command) >= 3 and command[-2] == "--for":
        args.consumers = [*(args.consumers or ()), command[-1]]
        args.mcp_command = command[:-2]
    elif len(command) >= 2 and command[-1].startswith("--for="):
        args.consumers = [*(args.consumers or ()), command[-1][len("--for="):]]
        args.mcp_command = command[:-1]


def run_server(args: argparse.Namespace) -> int:
    """Check the tools a live MCP server lists, exactly as a tool file holding them is checked."""
    from toolcast.adapters.checks import Analyzer, check_document, located_config, located_in

    if _bad_codes(args):
        return 2
    cfg, problems = _configured(Path.cwd(), args)
    live = fetch_document(args, "check")
    if live is None:
        return 2
    if cfg.server_name is None and not live.programs:  # the name the server reports, unless --server-name or
        # the configuration say
        cfg = replace(cfg, server_name=live.server)
    if live.programs:
        cfg = cfg.for_seed_registry()
    located = located_config(problems)
    analyzer = Analyzer()  # this run's: one document
    report = check_document(live.text, config=cfg, analyzer=analyzer)
    for item in located_in(live.shown, live.text, report.findings):
        where, _inner = live_location(live, item.finding.pointer)
        located.append(replace(item, where=where, line_text=""))
    # The question an MCP server's author asks: what do its tools cost per request? Always answered here
    # (one document, the tools already listed); files are estimated only with --cost.
    costs = ([(live.shown, _document_costs(analyzer, live.text, report, cfg, _estimate_models(args)))]
             if args.format == "human" or args.cost else None)
    # A tool executable that could not be asked is an unreadable input: exit 2 once the others are checked.
    return _emit(located, args, f"{len(live.tools)} tool(s) of {live.described} checked" + _judged_by(cfg),
                 2 if live.failures else 0, costs=costs)


def _judged_by(cfg: Any) -> str:
    """`` for VS Code (…), Claude Code (server name 'x')``: who the consumer rules were those of."""
    def shown(model: str) -> str:
        try:
            return f"{model} ({model_family(model).display_name})"
        except UnknownConsumer:
            return model  # a model the hosts' picker offers, judged with the hosts' rules for it

    names = [consumer(n).display_name for n in cfg.consumers] + [shown(m) for m in cfg.models]
    if not names:
        return ""
    return f" for {', '.join(names)}" + (f" (server name {cfg.server_name!r})" if cfg.consumers else "")


def _document_costs(analyzer: Any, text: str, report: Any, cfg: Any, models: tuple[str, ...] = ()) -> Any:
    """The token estimates of one checked document's tools (``adapters/cost.py``), for the configured targets
    (``models``: the ``--model`` names only the estimates follow)."""
    from toolcast.adapters.cost import document_costs

    # Read as JSONC (a superset): what a comment or trailing comma breaks, the checks have reported already.
    parsed = analyzer.parse(text, jsonc=True)
    return document_costs(analyzer.token_costs, parsed.value, report.tools, cfg.targets, cfg.options_for,
                          (*cfg.models, *models), cfg.exact_targets)


def _cost_line(shown: str, costs: Any) -> str:
    """``path: 3 tool(s), tokens per request (estimate): openai ≈ 105 (o200k, non-strict, mean error 0.4% on 42
    published pairs), anthropic ≈ 481–852 (≈ cl100k, incl. 159–530 tool-use system prompt (...), …), …``."""
    from toolcast.adapters.cost import UNAVAILABLE

    head = f"{shown}: {len(costs.tools)} tool(s), tokens per request"
    if any(c.tokens is None and c.reason == UNAVAILABLE for c in costs.totals):
        return f"{head} {UNAVAILABLE}"
    parts = []
    for c in costs.totals:
        parts.append(f"{c.target} ≈ {c.figure} ({c.qualifiers})" if c.tokens is not None else f"{c.target} {c.reason}")
    return f"{head} (estimate): " + ", ".join(parts)


def _emit(located: list[Any], args: argparse.Namespace, summary: str, status: int = 0,
          costs: list[tuple[str, Any]] | None = None) -> int:
    """Print ``located`` in the chosen format (with ``costs``, the token estimates of each file or server);
    the exit status."""
    from toolcast.adapters.checks import Severity, as_github, as_human, as_json, as_sarif, record

    if args.format == "json" and costs is not None and getattr(args, "cost", False):
        from toolcast.adapters.cost import UNAVAILABLE, methods_dict

        targets = [c.target for c in costs[0][1].totals] if costs else []
        available = not costs or any(c.tokens is not None or c.reason != UNAVAILABLE
                                     for _, dc in costs for c in dc.totals)
        doc = {"findings": [record(i) for i in located],
               "costs": {"estimate": True, "available": available,
                         **({} if available else {"message": UNAVAILABLE}),
                         "targets": methods_dict(targets),
                         "files": [{"path": shown, **dc.to_dict()} for shown, dc in costs]}}
        print(json.dumps(doc, ensure_ascii=False, indent=2))
    elif args.format == "json":
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
        for shown, dc in costs or ():
            print(_cost_line(shown, dc))
        errors = sum(1 for i in located if i.finding.severity == Severity.ERROR)
        others = len(located) - errors
        print(f"{summary}: {errors} error(s), {others} other finding(s)", file=sys.stderr if located else sys.stdout)
    if status:
        return status
    return 1 if any(i.finding.severity == Severity.ERROR for i in located) else 0


def run_files(args: argparse.Namespace) -> int:
    if _bad_codes(args):
        return 2
    configs = _FolderConfigs(args)
    candidates, status = _candidates(args.paths, configs)
    checked = _check_files(args, candidates, configs)
    located = _located_in_files(args, configs, checked)
    summary = f"{len(checked.reports)} file(s) checked"
    if checked.skipped:
        # Every file the walk looked at is accounted for: name a file or match it with `globs` to check it.
        summary += (f"; {checked.skipped} other JSON file(s) skipped (no tool with a parameters schema; name them "
                    "or add a glob)")
    return _emit(located, args, summary, status or checked.status, costs=_file_costs(args, configs, checked))


class _FolderConfigs:
    """The run's configuration of each folder, resolved once per folder (the search for toolcast.toml /
    pyproject.toml upwards included), and the problems of each configuration file, in the order met."""

    __slots__ = ("args", "configs", "problems")

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.configs: dict[Path, CheckConfig] = {}
        self.problems: dict[str, list[Any]] = {}

    def of_folder(self, folder: Path) -> CheckConfig:
        if folder not in self.configs:
            cfg, problems = _configured(folder, self.args)
            if problems:
                self.problems.setdefault(problems[0].source, problems)
            self.configs[folder] = cfg
        return self.configs[folder]

    def of_path(self, path: Path) -> CheckConfig:
        return self.of_folder(path if path.is_dir() else path.parent)

    def first(self) -> CheckConfig:
        """The first folder's configuration (the defaults when none was read): the checks across files'."""
        from toolcast.adapters.checks import CheckConfig

        return next(iter(self.configs.values())) if self.configs else CheckConfig()


def _candidates(paths: Sequence[str], configs: _FolderConfigs) -> tuple[list[tuple[Path, bool]], int]:
    """Which files, each with whether it was named: explicit files always; in folders, glob matches always
    and other .json/.jsonc only when their content turns out to be a tool file. The status is 2 when a
    path is neither a file nor a folder (said on stderr)."""
    from toolcast.adapters.checks import is_tool_file_name, walk_files
    from toolcast.adapters.document import special_file

    candidates: list[tuple[Path, bool]] = []
    status = 0
    for arg in paths:
        p = Path(arg)
        if p.is_dir():
            cfg = configs.of_path(p)
            for f in walk_files(p):
                if is_tool_file_name(f, p, cfg.globs):
                    candidates.append((f, True))
                elif f.suffix in (".json", ".jsonc"):
                    candidates.append((f, False))
        elif p.is_file():
            candidates.append((p, True))
        elif (reason := special_file(p)) is not None:
            print(f"toolcast check: {arg}: {reason}", file=sys.stderr)
            status = 2
        else:
            print(f"toolcast check: {arg}: no such file or folder", file=sys.stderr)
            status = 2
    return candidates, status


@dataclass(frozen=True, slots=True)
class _Checked:
    """What checking the files gave: each tool file's report and text (by the name shown), how many other
    JSON files were skipped, and the status (2: a named file could not be read)."""

    reports: dict[str, Any]
    texts: dict[str, str]
    skipped: int  # .json/.jsonc files outside the globs that hold no tool with a schema
    status: int


def _check_files(args: argparse.Namespace, candidates: list[tuple[Path, bool]], configs: _FolderConfigs) -> _Checked:
    """The candidates checked, in this process or by worker processes (``--jobs``), with a progress bar."""
    progress = _Progress(
        len(candidates),
        not args.no_progress and sys.stderr.isatty() and len(candidates) >= _PROGRESS_MIN_FILES,
    )
    jobs = _workers(args.jobs, candidates)
    outcomes = (_check_parallel(candidates, _overrides(args), jobs, progress) if jobs > 1
                else _check_serial(candidates, configs.of_folder, progress))
    reports: dict[str, Any] = {}
    texts: dict[str, str] = {}
    skipped = status = 0
    for (path, explicit), (kind, value, text) in zip(candidates, outcomes, strict=True):
        if kind == "special":
            print(f"toolcast check: {path}: {value}", file=sys.stderr)
            continue
        if kind == "unreadable":
            if explicit:
                print(f"toolcast check: {path}: {value}", file=sys.stderr)
                status = 2
            continue
        configs.of_folder(path.parent)  # in the files' order, so configuration problems are listed alike
        if kind == "skipped":
            skipped += 1
            continue
        reports[str(path)] = value
        texts[str(path)] = text
    progress.close()
    return _Checked(reports, texts, skipped, status)


def _located_in_files(args: argparse.Namespace, configs: _FolderConfigs, checked: _Checked) -> list[Any]:
    """Every finding placed: the configuration files' problems first, then each file's findings with those
    across files (names two files share)."""
    from toolcast.adapters.checks import check_names_across, located_config, located_in

    reports = checked.reports
    across = check_names_across(reports, configs.first()) if len(reports) > 1 else {}
    located = [item for problems in configs.problems.values() for item in located_config(problems)]
    for shown, report in reports.items():
        findings = [*report.findings, *across.get(shown, ())]
        located.extend(located_in(shown, checked.texts[shown], findings, line_text=args.format == "human"))
    return located


def _file_costs(args: argparse.Namespace, configs: _FolderConfigs, checked: _Checked,
                ) -> list[tuple[str, Any]] | None:
    """``--cost``: each file's token estimates, with the configuration of its folder."""
    if not args.cost:
        return None
    from toolcast.adapters.checks import Analyzer

    estimator = Analyzer()  # the parses and token counts of the estimates only
    models = _estimate_models(args)
    return [(shown, _document_costs(estimator, checked.texts[shown], report, configs.of_path(Path(shown)), models))
            for shown, report in checked.reports.items()]


# -- checking the files: in this process, or in worker processes ---------------------------------------

#: What checking one file gave: ("unreadable", message, "") | ("special", message, "") | ("skipped", None, "")
#: | ("report", report, text). "special": not read (a device, FIFO or socket; a file over the size limit
#: found by a folder's walk), named on stderr whether or not it was named.
Outcome = tuple[str, Any, str]


def _check_one(path: Path, explicit: bool, config_of: Callable[[Path], Any], analyzer: Any = None) -> Outcome:
    """Read and check one file, with the configuration of its folder (resolved once per folder) and the
    run's ``Analyzer`` (in a worker: the batch's)."""
    from toolcast.adapters.checks import DocumentReport, check_document, too_large_report
    from toolcast.adapters.document import FileTooLarge, NotRegularFile, read_text

    try:
        text = read_text(path)
    except UnicodeDecodeError as exc:
        return "unreadable", f"not UTF-8 (byte {exc.start})", ""
    except NotRegularFile as exc:
        return "special", exc.reason, ""
    except FileTooLarge as exc:
        if not explicit:
            return "special", f"skipped: {exc.reason}", ""
        return "report", too_large_report(exc.reason, config_of(path.parent)), ""
    except OSError as exc:
        return "unreadable", f"cannot read: {exc.strerror or exc}", ""
    report = check_document(text, path=str(path), config=config_of(path.parent), analyzer=analyzer)
    if not explicit and not _content_is_tools(report):
        return "skipped", None, ""
    # What the output needs, and nothing that cannot cross a process boundary (``resume``) or is built
    # lazily: the findings placed and sorted once.
    slim = DocumentReport(report.findings, report.tools, report.is_tool_file, is_request=report.is_request)
    return "report", slim, text


def _check_serial(candidates: list[tuple[Path, bool]], config_of: Callable[[Path], Any],
                  progress: _Progress) -> list[Outcome]:
    from toolcast.adapters.checks import Analyzer

    out = []
    analyzer = Analyzer()  # every cache of this run's checks
    for path, explicit in candidates:
        progress.step()
        out.append(_check_one(path, explicit, config_of, analyzer))
    return out


def check_batch(batch: list[tuple[str, bool]], overrides: Overrides) -> list[Outcome]:
    """A worker process's job: a batch of files, in order. Module-level and given only plain values, so
    it runs alike under the 'fork', 'forkserver' and 'spawn' start methods."""
    configs: dict[Path, Any] = {}

    def config_of(folder: Path) -> Any:
        if folder not in configs:
            configs[folder] = _configured(folder, overrides)[0]
        return configs[folder]

    from toolcast.adapters.checks import Analyzer

    analyzer = Analyzer()  # this worker's share of the run
    return [_check_one(Path(path), explicit, config_of, analyzer) for path, explicit in batch]


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _idle_cpus() -> int:
    """CPUs not already busy (by the one-minute load average): on a machine whose cores are taken by
    other work, worker processes only add their start-up (measured: no gain at a load of 4-5 on 2 cores)."""
    cpus = _cpus()
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return cpus
    return max(1, min(cpus, round(cpus - load + 0.5)))


def _workers(jobs: int | None, candidates: list[tuple[Path, bool]]) -> int:
    """How many worker processes: ``--jobs`` when given (0 and 1 mean none); by default one per CPU, but
    only when the files are many and large enough for the workers to pay for themselves."""
    if jobs is not None:
        return min(jobs, len(candidates)) if jobs > 1 and len(candidates) > 1 else 1
    cpus = _idle_cpus()
    if cpus < 2 or len(candidates) < 2 * cpus:
        return 1
    total = 0
    for path, _explicit in candidates:
        try:
            total += path.stat().st_size
        except OSError:
            continue
        if total >= PARALLEL_MIN_BYTES:
            return cpus
    return 1


def _start_method() -> str:
    """'fork' where it is safe and cheapest (Linux: the CLI runs no threads, and the children start with
    the checks already imported); 'spawn' elsewhere. TOOLCAST_START_METHOD overrides (tests)."""
    import multiprocessing

    wanted = os.environ.get("TOOLCAST_START_METHOD")
    if wanted in multiprocessing.get_all_start_methods():
        return wanted
    return "fork" if sys.platform == "linux" else "spawn"


def _warm_up(candidates: list[tuple[Path, bool]], overrides: Overrides) -> None:
    """Check one small tool before the workers fork, so that each starts with the checks, converters and
    validators imported and set up (under 'spawn' the workers do this themselves)."""
    from toolcast.adapters.checks import check_document

    tool = ('{"name": "warm_up", "description": "Set-up before the workers start.", "parameters": '
            '{"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}')
    check_document(tool, path="warm_up.tool.json", config=_configured(candidates[0][0].parent, overrides)[0])


def _check_parallel(candidates: list[tuple[Path, bool]], overrides: Overrides, jobs: int,
                    progress: _Progress) -> list[Outcome]:
    """The files checked by ``jobs`` worker processes, in batches, results in the files' order. A batch
    whose worker died (killed, out of memory) is checked again in this process, with a warning."""
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    _warm_up(candidates, overrides)
    size = max(1, -(-len(candidates) // (jobs * _BATCHES_PER_WORKER)))
    batches = [candidates[i:i + size] for i in range(0, len(candidates), size)]
    out: list[Outcome] = []
    lost = 0
    ctx = multiprocessing.get_context(_start_method())
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        futures: list[Future[list[Outcome]] | None] = []
        for batch in batches:
            try:
                futures.append(pool.submit(check_batch, [(str(p), e) for p, e in batch], overrides))
            except BrokenProcessPool:  # a worker died while batches were still being handed out
                futures.append(None)
        for batch, future in zip(batches, futures, strict=True):
            try:
                if future is None:
                    raise BrokenProcessPool("not submitted: the pool was already broken")
                done = future.result()
            except BrokenProcessPool:
                lost += len(batch)
                done = check_batch([(str(p), e) for p, e in batch], overrides)
            for _ in batch:
                progress.step()
            out.extend(done)
    if lost:
        print(f"toolcast check: a worker process stopped unexpectedly; {lost} file(s) were checked again "
              "in the main process", file=sys.stderr)
    return out
