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
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
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
    args = ap.parse_args()

    lspbench = load_lspbench(args.lspbench)
    servers: list[tuple[str, str, Path | None]] = [("toolcast", args.toolcast_cmd, None)]
    if args.json_ls is not None:
        exe = args.json_ls / "node_modules" / ".bin" / "vscode-json-language-server"
        if not exe.exists():
            raise SystemExit(f"{exe} not found: npm install --prefix {args.json_ls} vscode-langservers-extracted")
        servers.append(("JSON LS", f"{exe} --stdio", args.data / "json-settings.json"))

    rows = []
    for n in args.sizes:
        file = args.data / f"tools-{n}.tool.json"
        for name, cmd, settings in servers:
            for mode in args.modes:
                for edit_mode in args.edit_modes:
                    print(f"== {name} {n} tools {mode} {edit_mode}", file=sys.stderr, flush=True)
                    res = session(lspbench, cmd, file, mode, edit_mode, args.edits, settings, args.timeout)
                    rows.append((n, file.stat().st_size, name, mode, edit_mode, figures(res)))

    print("| tools | size | server | mode | edit | initialize ms | open → diagnostics ms | edit → diagnostics ms "
          "min / median / p95 (n) | timeouts | peak RSS MB | diagnostics at open |")
    print("|---:|---:|---|---|---|---:|---:|---|---:|---:|---:|")
    for n, size, name, mode, edit_mode, f in rows:
        print(f"| {n:,} | {size / 1e6:.2f} MB | {name} | {mode} | {edit_mode} | {fmt(f['init'])} | {fmt(f['open'])} "
              f"| {fmt(f['min'], 1)} / **{fmt(f['median'], 1)}** / {fmt(f['p95'], 1)} ({f['n']}) "
              f"| {f['timeouts']} | {fmt(f['rss'])} | {f['diags']} |")

    print()
    print("| tools | toolcast push: open → first diagnostics ms | open → complete diagnostics ms |")
    print("|---:|---:|---:|")
    for n in args.sizes:
        first, complete = open_to_complete(lspbench, args.toolcast_cmd, args.data / f"tools-{n}.tool.json",
                                           args.timeout)
        print(f"| {n:,} | {first:,.0f} | {complete:,.0f} |")

    toolcast = Path(args.toolcast_cmd.split()[0])
    if shutil.which(str(toolcast)) or toolcast.exists():
        print()
        print("| tools | `json.loads` in-process ms | `toolcast check` wall ms "
              "| `toolcast convert --to anthropic` wall ms |")
        print("|---:|---:|---:|---:|")
        for n in args.sizes:
            c = cli_times(toolcast, args.data / f"tools-{n}.tool.json", args.cli_runs)
            print(f"| {n:,} | {c['loads']:.1f} | {c['check']:,.0f} | {c['convert']:,.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
