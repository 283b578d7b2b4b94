"""Benchmark (not a test): inputs whose cost grew with the square of their size, before and after, in one run.

    .venv/bin/python bench/bench_costs.py --before /path/to/old/checkout/.venv/bin/python

Each interpreter runs its own installed toolcast (``--before`` and ``--after``, the latter this one by
default); either may be left out. Rows:

- ``check``: ``toolcast check`` over 4,000 files defining one tool name (TC202 in each; human and JSON
  output), over 1,000 tools written on one line (human), and over one line of 5,000 repeated keys (TC002
  each; human): seconds, peak RSS and bytes written, under ``--limit`` seconds and ``--cap`` GB of address
  space (a run stopped by either says so);
- ``server``: the language server (push diagnostics) opening 100 tool files one by one, each open waiting
  for its diagnostics, and 1,000 opened in one burst: publishes received and seconds until every document
  had its diagnostics (the files have a name each, but the first and the last share one), and the server's
  peak RSS (``VmHWM``).

Prints one markdown table."""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "server")]

from adversarial.costly import duplicate_keys_line, minified_tools, project_files, same_name_files  # noqa: E402
from publishes import Client  # noqa: E402


def run_counted(argv: list[str], cwd: Path, limit: float, cap: int) -> tuple[str, float, float, int]:
    """(outcome, seconds, peak RSS MB, bytes written to stdout) of a command under a time limit and an
    address-space cap; the output is counted, not kept."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (cap, cap)))
    written = [0]
    err: list[bytes] = []

    def count() -> None:
        assert proc.stdout is not None
        for chunk in iter(lambda: proc.stdout.read(1 << 20), b""):  # type: ignore[union-attr]
            written[0] += len(chunk)

    def keep_err() -> None:
        assert proc.stderr is not None
        err.append(proc.stderr.read()[-4000:])

    readers = [threading.Thread(target=count, daemon=True), threading.Thread(target=keep_err, daemon=True)]
    for reader in readers:
        reader.start()
    timer = threading.Timer(limit, lambda: _kill(proc.pid))
    timer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    killed = timer.finished.is_set()
    timer.cancel()
    _kill(proc.pid)
    for reader in readers:
        reader.join(5)
    seconds = time.monotonic() - start
    tail = b"".join(err).decode(errors="replace")
    if killed:
        outcome = f"stopped at {limit:.0f} s"
    elif "MemoryError" in tail:
        outcome = f"MemoryError (cap {cap / 1024**3:.0f} GB)"
    else:
        outcome = f"exit {os.waitstatus_to_exitcode(status)}"
    return outcome, seconds, usage.ru_maxrss / 1024, written[0]


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return str(n)


def check_rows(python: str, data: Path, limit: float, cap: int) -> list[tuple[str, str]]:
    cases = [
        ("7a: 4,000 files, one tool name (human)", ["check", "same"]),
        ("7a: 4,000 files, one tool name (JSON)", ["check", "--format", "json", "same"]),
        ("7b: 1,000 tools on one line (human)", ["check", "minified.tools.json"]),
        ("7b: 5,000 repeated keys on one line (human)", ["check", "keys.tool.json"]),
    ]
    rows = []
    for label, args in cases:
        outcome, seconds, peak, written = run_counted([python, "-m", "toolcast.server.cli", *args], data, limit, cap)
        rows.append((label, f"{seconds:.1f} s, {peak:.0f} MB peak, {_size(written)} out ({outcome})"))
    return rows


def _peak_mb(pid: int) -> float:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM"):
                return int(line.split()[1]) / 1024
    return float("nan")


def server_row(python: str, paths: list[Path], root: Path, one_by_one: bool, limit: float) -> str:
    """Open ``paths`` one by one (each waiting for its diagnostics) or in one burst."""
    client = Client([python, "-m", "toolcast.server"])
    try:
        client.raw.initialize(root)
        uris = [p.as_uri() for p in paths]
        start = time.monotonic()
        try:
            if one_by_one:
                for path, uri in zip(paths, uris, strict=True):
                    client.open(path)
                    client.until(lambda c, uri=uri: bool(c.publishes_of(uri)), timeout=max(1.0, limit - (
                        time.monotonic() - start)))
            else:
                for path in paths:
                    client.open(path)
                client.until(lambda c: all(c.publishes_of(u) for u in uris), timeout=limit)
            took = f"{time.monotonic() - start:.1f} s until every document had its diagnostics"
        except TimeoutError:
            have = sum(1 for u in uris if client.publishes_of(u))
            took = f"{have:,} of {len(uris):,} documents had diagnostics after {limit:.0f} s"
        settled = client.quiet(2.0, limit=30)
        peak = _peak_mb(client.raw.proc.pid)
        count = f"{len(client.published):,} publishes" + ("" if settled else " (still publishing 30 s later)")
        return f"{count}; {took}; {peak:.0f} MB peak"
    finally:
        client.raw.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", help="the interpreter of the toolcast to compare with (an older checkout's venv)")
    ap.add_argument("--after", default=sys.executable, help="this toolcast's interpreter (default: this one)")
    ap.add_argument("--limit", type=float, default=300, help="seconds a run may take (default 300)")
    ap.add_argument("--cap", type=float, default=3, help="GB of address space a `toolcast check` may take")
    ap.add_argument("--skip", nargs="*", default=[], choices=["check", "server"])
    args = ap.parse_args()
    runs = [(name, python) for name, python in (("before", args.before), ("after", args.after)) if python]
    cap = int(args.cap * 1024**3)
    with tempfile.TemporaryDirectory(prefix="tc-costs-") as tmp:
        data = Path(tmp)
        same_name_files(data / "same", 4000)
        minified_tools(data / "minified.tools.json", 1000)
        duplicate_keys_line(data / "keys.tool.json", 5000)
        sequential = project_files(data / "open100", 100)
        burst = project_files(data / "open1000", 1000)
        (data / "ws").mkdir()
        table: dict[str, dict[str, str]] = {}
        for name, python in runs:
            if "check" not in args.skip:
                for label, figure in check_rows(python, data, args.limit, cap):
                    table.setdefault(label, {})[name] = figure
            if "server" not in args.skip:
                table.setdefault("7c: 100 files opened one by one", {})[name] = server_row(
                    python, sequential, data / "ws", True, args.limit)
                table.setdefault("7c: 1,000 files opened in one burst", {})[name] = server_row(
                    python, burst, data / "ws", False, args.limit)
    print("| case | " + " | ".join(name for name, _ in runs) + " |")
    print("|---|" + "---|" * len(runs))
    for label, figures in table.items():
        print(f"| {label} | " + " | ".join(figures.get(name, "") for name, _ in runs) + " |")


if __name__ == "__main__":
    main()
