"""Benchmark (not a test): toolcast's language server as an editor sees it, next to Microsoft's JSON
language server on the same files, plus ``toolcast check`` / ``convert`` against the ``json.loads`` floor.

    python3 ../shared/bench/gen.py --out /tmp/tc-bench-data        # the generated tool files
    npm install --prefix /tmp/jsonls vscode-langservers-extracted   # the reference server (optional)
    .venv/bin/python bench/bench_lsp.py --data /tmp/tc-bench-data --json-ls /tmp/jsonls

Drives each server over stdio with ``../shared/bench/lspbench.py`` (the shared LSP latency client):
process start → ``initialize`` result, ``didOpen`` → first diagnostics, and ``didChange`` →
diagnostics for a one-character edit inside one tool (``toggle``) and for an edit that breaks and
restores the JSON (``syntax``), in pull mode and in push mode with default settings. Peak RSS is the
server's ``VmHWM`` just before shutdown. Prints one markdown table (the one in BENCHMARKS.md).

Issue 15 added three measurements (each can be skipped, see ``--skip``):

- ``settled``: the same one-character edits, started only once the first complete check is done
  (push: the publish without the "still checking" notice; pull: a ``textDocument/diagnostic`` answer
  without it), next to the main table's edits that start as soon as the first diagnostics arrive;
- ``cold``: the cold check cost per tool, in-process: ``check_document`` over the whole file in a fresh
  interpreter (every cache empty; imports and one tiny check done first), ms per tool, and the warm
  re-check of the same text;
- ``actions``: ``textDocument/codeAction`` at the middle tool (its diagnostics in the context) once
  the file is completely checked, for a client that declares ``resolveSupport`` for ``edit`` and file
  creation, and one ``codeAction/resolve`` of an export action (what choosing it costs).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
SHARED_BENCH = HERE.parent.parent / "shared" / "bench"


def load_lspbench(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("lspbench", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["lspbench"] = module
    spec.loader.exec_module(module)
    return module


def peak_rss_hook(lspbench: ModuleType, peaks: list[int]) -> None:
    """Record the server's peak resident set (kB) when the client closes the session."""
    original = lspbench.Connection.close

    def close(self: Any, timeout: float = 5.0) -> dict[str, Any]:
        try:
            status = Path(f"/proc/{self.proc.pid}/status").read_text()
            peaks.append(next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM")))
        except (OSError, StopIteration, ValueError):
            pass
        result: dict[str, Any] = original(self, timeout)
        return result

    lspbench.Connection.close = close


def session(lspbench: ModuleType, cmd: str, file: Path, mode: str, edit_mode: str, edits: int,
            settings: Path | None, timeout: float) -> dict[str, Any]:
    peaks: list[int] = []
    peak_rss_hook(lspbench, peaks)
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as out:
        out_path = Path(out.name)
    # The workspace root is a folder holding only this file, so the server indexes nothing else.
    with tempfile.TemporaryDirectory() as root:
        doc = Path(root) / file.name
        shutil.copyfile(file, doc)  # a copy, not a link: the client resolves links, the server would see two files
        argv = ["--server-cmd", cmd, "--file", str(doc), "--root", root, "--edits", str(edits),
                "--diagnostics", mode, "--edit-mode", edit_mode, "--timeout", str(timeout),
                "--json", str(out_path)]
        if settings is not None:
            argv += ["--settings", str(settings)]
        saved = sys.stdout
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lspbench prints its own summary
        try:
            lspbench.main(argv)
        finally:
            sys.stdout.close()
            sys.stdout = saved
    result: dict[str, Any] = json.loads(out_path.read_text())
    out_path.unlink()
    result["peak_rss_mb"] = peaks[-1] / 1024 if peaks else None
    return result


def open_to_complete(lspbench: ModuleType, cmd: str, file: Path, timeout: float) -> tuple[float, float]:
    """(ms to the first diagnostics, ms to the complete ones) after didOpen, push mode: a large file's
    first publish can be partial (toolcast says "still checking" in a notice until it is done)."""
    with tempfile.TemporaryDirectory() as root:
        doc = Path(root) / file.name
        shutil.copyfile(file, doc)
        conn = lspbench.Connection(cmd.split(), None, None, None, None, False, {})
        try:
            caps = lspbench.client_capabilities(False, ["utf-16"])
            conn.request("initialize", {"processId": os.getpid(), "rootUri": Path(root).as_uri(),
                                        "capabilities": caps}, timeout)
            conn.notify("initialized", {})
            text = doc.read_text(encoding="utf-8")
            sent = conn.notify("textDocument/didOpen", {"textDocument": {
                "uri": doc.as_uri(), "languageId": "json", "version": 1, "text": text}})
            first = None
            while True:
                at, params = conn.diagnostics.get(timeout=timeout)
                if params.get("uri") != doc.as_uri():
                    continue
                first = first if first is not None else (at - sent) * 1000
                if not any("still checking" in d.get("message", "") for d in params.get("diagnostics", [])):
                    return first, (at - sent) * 1000
        finally:
            conn.close(10)


STILL_CHECKING = "still checking"


def _complete(diags: list[dict[str, Any]]) -> bool:
    return not any(STILL_CHECKING in d.get("message", "") for d in diags)


def _resolving_client(lspbench: ModuleType, pull: bool) -> dict[str, Any]:
    """lspbench's client capabilities, plus file creation in workspace edits (with resolveSupport for
    ``edit``, already declared, toolcast then lists export actions without their edit)."""
    caps: dict[str, Any] = lspbench.client_capabilities(pull, ["utf-16"])
    caps["workspace"]["workspaceEdit"] = {"documentChanges": True, "resourceOperations": ["create"]}
    return caps


class _Opened:
    """One server session with one document opened and completely checked (push or pull)."""

    def __init__(self, lspbench: ModuleType, cmd: str, file: Path, root: Path, pull: bool, timeout: float) -> None:
        self.lspbench, self.pull, self.timeout = lspbench, pull, timeout
        self.doc = root / file.name
        shutil.copyfile(file, self.doc)
        self.uri = self.doc.as_uri()
        self.text = self.doc.read_text(encoding="utf-8")
        self.version = 1
        self.conn = lspbench.Connection(cmd.split(), None, None, None, None, False, {})
        self.conn.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(),
                                         "capabilities": _resolving_client(lspbench, pull)}, timeout)
        self.conn.notify("initialized", {})
        self.conn.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri, "languageId": "json", "version": 1, "text": self.text}})
        self.diagnostics = self.wait_complete()

    def pull_once(self) -> list[dict[str, Any]]:
        result, _, _ = self.conn.request("textDocument/diagnostic", {"textDocument": {"uri": self.uri}},
                                         self.timeout)
        items: list[dict[str, Any]] = (result or {}).get("items", [])
        return items

    def wait_complete(self) -> list[dict[str, Any]]:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.pull:
                items = self.pull_once()
                if _complete(items):
                    return items
                time.sleep(0.05)
                continue
            _, params = self.conn.diagnostics.get(timeout=self.timeout)
            if params.get("uri") == self.uri and params.get("version", self.version) == self.version:
                diags: list[dict[str, Any]] = params.get("diagnostics", [])
                if _complete(diags):
                    return diags
        raise TimeoutError("no complete diagnostics")

    def edit_ms(self, editor: Any) -> float:
        """One didChange (incremental) → its diagnostics (push: the publish for the new version; pull:
        the answer to a request sent right after the change)."""
        while not self.conn.diagnostics.empty():
            self.conn.diagnostics.get_nowait()
        start, end, new = editor.next_edit()
        idx = self.lspbench.TextIndex(self.text, "utf-16")
        change = {"range": {"start": idx.position(start), "end": idx.position(end)}, "text": new}
        self.text = self.text[:start] + new + self.text[end:]
        self.version += 1
        sent = self.conn.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri, "version": self.version}, "contentChanges": [change]})
        if self.pull:
            _, _, received = self.conn.request("textDocument/diagnostic", {"textDocument": {"uri": self.uri}},
                                               self.timeout)
            return float((received - sent) * 1000)
        while True:
            at, params = self.conn.diagnostics.get(timeout=self.timeout)
            if params.get("uri") == self.uri and params.get("version") == self.version:
                return float((at - sent) * 1000)

    def close(self) -> None:
        self.conn.close(10)


def settled_edits(lspbench: ModuleType, cmd: str, file: Path, mode: str, edits: int,
                  timeout: float) -> dict[str, Any]:
    """Edits that start once the first complete check is done (``toggle`` edits, back to back)."""
    with tempfile.TemporaryDirectory() as root:
        opened = _Opened(lspbench, cmd, file, Path(root), mode == "pull", timeout)
        try:
            editor = lspbench.Editor(opened.text, "toggle", r'"type": "string"', '"type": "strin"')
            times = [opened.edit_ms(editor) for _ in range(edits)]
        finally:
            opened.close()
    return {"min": min(times), "median": statistics.median(times), "p95": lspbench.percentile(times, 95),
            "n": len(times)}


def code_action_latency(lspbench: ModuleType, cmd: str, file: Path, repeats: int,
                        timeout: float) -> dict[str, Any]:
    """``textDocument/codeAction`` at the middle tool's name, with that tool's diagnostics as context,
    ``repeats`` times; then ``codeAction/resolve`` of the first export action, ``repeats`` times."""
    with tempfile.TemporaryDirectory() as root:
        opened = _Opened(lspbench, cmd, file, Path(root), False, timeout)
        try:
            names = [m.start() for m in re.finditer(r'"name":', opened.text)]
            offset = names[len(names) // 2]
            line = opened.text.count("\n", 0, offset)
            at = {"line": line, "character": offset - (opened.text.rfind("\n", 0, offset) + 1)}
            context = [d for d in opened.diagnostics if d["range"]["start"]["line"] >= line][:5]
            params = {"textDocument": {"uri": opened.uri}, "range": {"start": at, "end": at},
                      "context": {"diagnostics": context, "triggerKind": 1}}
            listed, actions = [], []
            for _ in range(repeats):
                result, sent, received = opened.conn.request("textDocument/codeAction", params, timeout)
                listed.append((received - sent) * 1000)
                actions = result or []
            export = next((a for a in actions if "data" in a and "edit" not in a), None)
            resolved: list[float] = []
            for _ in range(repeats if export is not None else 0):
                result, sent, received = opened.conn.request("codeAction/resolve", export, timeout)
                resolved.append((received - sent) * 1000)
                if not (result or {}).get("edit"):
                    raise SystemExit(f"codeAction/resolve gave no edit: {result}")
        finally:
            opened.close()
    return {"list": statistics.median(listed), "list_min": min(listed), "actions": len(actions),
            "lazy": sum(1 for a in actions if "data" in a and "edit" not in a),
            "resolve": statistics.median(resolved) if resolved else None,
            "resolve_min": min(resolved) if resolved else None}


COLD_CHECK = """
import json, sys, time
from pathlib import Path
from toolcast.adapters.checks import Analyzer, check_document, load_config
path = Path(sys.argv[1])
text = path.read_text(encoding="utf-8")
config, _ = load_config(path.parent)
tiny = json.dumps({"name": "warm_up", "description": "Imports and one-time set-up, not timed.",
                   "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}})
check_document(tiny, path="warm-up.tool.json", config=config)
analyzer = Analyzer()  # every cache empty: a cold check, then the same analyzer again (warm)
t0 = time.perf_counter()
report = check_document(text, path=str(path), config=config, analyzer=analyzer)
cold = time.perf_counter() - t0
t0 = time.perf_counter()
check_document(text + " ", path=str(path), config=config, analyzer=analyzer)
warm = time.perf_counter() - t0
print(json.dumps({"tools": len(report.tools), "cold_s": cold, "warm_s": warm, "findings": len(report.findings)}))
"""


def cold_check(file: Path) -> dict[str, Any]:
    """``check_document`` over the whole file in a fresh interpreter: every cache cold."""
    done = subprocess.run([sys.executable, "-c", COLD_CHECK, str(file)], capture_output=True, text=True,
                          check=True, timeout=3600)
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def figures(result: dict[str, Any]) -> dict[str, Any]:
    s = result["summary"]
    edit = s.get("edit") or {}
    return {
        "init": (s.get("initialize") or {}).get("median"),
        "open": (s.get("open") or {}).get("median"),
        "min": edit.get("min"), "median": edit.get("median"), "p95": edit.get("p95"),
        "n": edit.get("n"), "timeouts": s.get("timeouts"), "rss": result.get("peak_rss_mb"),
        "diags": "/".join(str(c) for c in sorted(set(s.get("open_count") or []))),
    }


def cli_times(toolcast: Path, file: Path, runs: int) -> dict[str, float]:
    """Median wall time of `toolcast check` and `toolcast convert --to anthropic` on one file, and of
    `json.loads` of it in-process."""
    def wall(args: list[str]) -> float:
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run([str(toolcast), *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times.append((time.perf_counter() - t0) * 1000)
        return statistics.median(times)

    text = file.read_text(encoding="utf-8")
    loads = []
    for _ in range(runs):
        t0 = time.perf_counter()
        json.loads(text)
        loads.append((time.perf_counter() - t0) * 1000)
    return {"check": wall(["check", str(file)]), "convert": wall(["convert", str(file), "--to", "anthropic"]),
            "loads": statistics.median(loads)}


def fmt(x: Any, digits: int = 0) -> str:
    return "n/a" if x is None else f"{x:,.{digits}f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("/tmp/tc-bench-data"), help="output folder of gen.py")
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000, 5000])
    ap.add_argument("--edits", type=int, default=30)
    ap.add_argument("--json-ls", type=Path, default=None,
                    help="npm prefix holding vscode-langservers-extracted (omit to skip the JSON LS)")
    ap.add_argument("--lspbench", type=Path, default=SHARED_BENCH / "lspbench.py")
    ap.add_argument("--toolcast-cmd", default=f"{Path(sys.executable).parent / 'toolcast'} serve")
    ap.add_argument("--edit-modes", nargs="+", default=["toggle", "syntax"])
    ap.add_argument("--modes", nargs="+", default=["pull", "push"])
    ap.add_argument("--cli-runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--skip", nargs="*", default=[],
                    choices=["main", "complete", "cli", "settled", "cold", "actions"],
                    help="measurements to leave out")
    ap.add_argument("--settled-sizes", type=int, nargs="+", default=[1000, 5000])
    ap.add_argument("--cold-sizes", type=int, nargs="+", default=[1000, 5000])
    ap.add_argument("--action-sizes", type=int, nargs="+", default=[10, 100, 1000])
    ap.add_argument("--action-repeats", type=int, default=10)
    args = ap.parse_args()

    lspbench = load_lspbench(args.lspbench)
    servers: list[tuple[str, str, Path | None]] = [("toolcast", args.toolcast_cmd, None)]
    if args.json_ls is not None:
        exe = args.json_ls / "node_modules" / ".bin" / "vscode-json-language-server"
        if not exe.exists():
            raise SystemExit(f"{exe} not found: npm install --prefix {args.json_ls} vscode-langservers-extracted")
        servers.append(("JSON LS", f"{exe} --stdio", args.data / "json-settings.json"))

    rows = []
    for n in args.sizes if "main" not in args.skip else ():
        file = args.data / f"tools-{n}.tool.json"
        for name, cmd, settings in servers:
            for mode in args.modes:
                for edit_mode in args.edit_modes:
                    print(f"== {name} {n} tools {mode} {edit_mode}", file=sys.stderr, flush=True)
                    res = session(lspbench, cmd, file, mode, edit_mode, args.edits, settings, args.timeout)
                    rows.append((n, file.stat().st_size, name, mode, edit_mode, figures(res)))

    if rows:
        print("| tools | size | server | mode | edit | initialize ms | open → diagnostics ms | edit → diagnostics ms "
              "min / median / p95 (n) | timeouts | peak RSS MB | diagnostics at open |")
        print("|---:|---:|---|---|---|---:|---:|---|---:|---:|---:|")
    for n, size, name, mode, edit_mode, f in rows:
        print(f"| {n:,} | {size / 1e6:.2f} MB | {name} | {mode} | {edit_mode} | {fmt(f['init'])} | {fmt(f['open'])} "
              f"| {fmt(f['min'], 1)} / **{fmt(f['median'], 1)}** / {fmt(f['p95'], 1)} ({f['n']}) "
              f"| {f['timeouts']} | {fmt(f['rss'])} | {f['diags']} |")

    if "complete" not in args.skip:
        print()
        print("| tools | toolcast push: open → first diagnostics ms | open → complete diagnostics ms |")
        print("|---:|---:|---:|")
    for n in args.sizes if "complete" not in args.skip else ():
        first, complete = open_to_complete(lspbench, args.toolcast_cmd, args.data / f"tools-{n}.tool.json",
                                           args.timeout)
        print(f"| {n:,} | {first:,.0f} | {complete:,.0f} |")

    toolcast = Path(args.toolcast_cmd.split()[0])
    if "cli" not in args.skip and (shutil.which(str(toolcast)) or toolcast.exists()):
        print()
        print("| tools | `json.loads` in-process ms | `toolcast check` wall ms "
              "| `toolcast convert --to anthropic` wall ms |")
        print("|---:|---:|---:|---:|")
        for n in args.sizes:
            c = cli_times(toolcast, args.data / f"tools-{n}.tool.json", args.cli_runs)
            print(f"| {n:,} | {c['loads']:.1f} | {c['check']:,.0f} | {c['convert']:,.0f} |")

    if "settled" not in args.skip:
        print()
        print("| tools | mode | edits after the first complete check: edit → diagnostics ms min / median / p95 (n) |")
        print("|---:|---|---|")
        for n in args.settled_sizes:
            for mode in args.modes:
                print(f"== settled {n} tools {mode}", file=sys.stderr, flush=True)
                f = settled_edits(lspbench, args.toolcast_cmd, args.data / f"tools-{n}.tool.json", mode,
                                  args.edits, args.timeout)
                print(f"| {n:,} | {mode} | {f['min']:,.1f} / **{f['median']:,.1f}** / {f['p95']:,.1f} ({f['n']}) |")

    if "cold" not in args.skip:
        print()
        print("| tools | cold `check_document`, whole file ms | **ms per tool** | warm re-check ms | findings |")
        print("|---:|---:|---:|---:|---:|")
        for n in args.cold_sizes:
            print(f"== cold check {n} tools", file=sys.stderr, flush=True)
            c = cold_check(args.data / f"tools-{n}.tool.json")
            print(f"| {c['tools']:,} | {c['cold_s'] * 1000:,.0f} | **{c['cold_s'] * 1000 / c['tools']:.2f}** "
                  f"| {c['warm_s'] * 1000:,.0f} | {c['findings']:,} |")

    if "actions" not in args.skip:
        print()
        print(f"| tools | `textDocument/codeAction` ms median (min), {args.action_repeats} requests | actions "
              "(of which resolved later) | `codeAction/resolve` ms median (min) |")
        print("|---:|---:|---:|---:|")
        for n in args.action_sizes:
            print(f"== code actions {n} tools", file=sys.stderr, flush=True)
            a = code_action_latency(lspbench, args.toolcast_cmd, args.data / f"tools-{n}.tool.json",
                                    args.action_repeats, args.timeout)
            print(f"| {n:,} | **{a['list']:,.1f}** ({a['list_min']:,.1f}) | {a['actions']} ({a['lazy']}) "
                  f"| {fmt(a['resolve'], 1)} ({fmt(a['resolve_min'], 1)}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
