"""Benchmark (not a test): language-server start-up, process spawn → ``initialize`` result.

    .venv/bin/python bench/bench_startup.py [--runs 9]

Spawns each server fresh ``--runs`` times (interleaved, so machine noise hits them alike) and times
process start → the ``initialize`` response, as an editor sees it, with the shared client
``../shared/bench/lspbench.py``:

- ``toolcast serve`` (the console script, as editors start it);
- the floor: a bare pygls ``LanguageServer`` in the same interpreter (what pygls + lsprotocol + asyncio
  cost before any toolcast code runs);
- ``python -c pass``: the interpreter alone (spawn → exit, no LSP).

Also prints which toolcast modules the server has loaded when it answers ``initialize``, to keep the
lazy-import boundary honest (``tests/server/test_startup.py`` guards it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_lsp import SHARED_BENCH, load_lspbench

FLOOR = ("from pygls.lsp.server import LanguageServer; "
         "LanguageServer('floor', '0').start_io()")


def initialize_ms(lspbench: Any, cmd: list[str], root: Path, timeout: float) -> float:
    conn = lspbench.Connection(cmd, None, None, None, None, False, {})
    try:
        caps = lspbench.client_capabilities(False, ["utf-16"])
        _, _, t_init = conn.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(),
                                                   "capabilities": caps}, timeout)
        return float((t_init - conn.t_spawn) * 1000)
    finally:
        conn.close(10)


def spawn_ms(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True)
    return (time.perf_counter() - t0) * 1000


def toolcast_modules_at_initialize(python: str) -> list[str]:
    """The toolcast modules loaded by the time the server can answer: what ``toolcast serve`` imports
    before it starts reading messages."""
    code = ("import sys\nfrom toolcast.server.cli import build_parser\nbuild_parser('serve')\n"
            "import toolcast.server.cli.serve_cmd, toolcast.server.lsp.app, toolcast.server.lsp.allocator\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('toolcast'))))")
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    return done.stdout.split()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--lspbench", type=Path, default=SHARED_BENCH / "lspbench.py")
    ap.add_argument("--toolcast-cmd", default=f"{Path(sys.executable).parent / 'toolcast'} serve")
    ap.add_argument("--compare-cmd", default=None,
                    help="another server command measured in the same runs (e.g. an older build's `toolcast serve`)")
    ap.add_argument("--timeout", type=float, default=60)
    args = ap.parse_args()
    lspbench = load_lspbench(args.lspbench)
    servers = {"toolcast serve": args.toolcast_cmd.split()}
    if args.compare_cmd:
        servers[f"compare: {args.compare_cmd}"] = args.compare_cmd.split()
    servers["floor: bare pygls server"] = [sys.executable, "-c", FLOOR]
    times: dict[str, list[float]] = {name: [] for name in servers}
    times["python -c pass (spawn → exit)"] = []
    with tempfile.TemporaryDirectory() as root:
        for _ in range(args.runs):
            for name, cmd in servers.items():
                times[name].append(initialize_ms(lspbench, cmd, Path(root), args.timeout))
            times["python -c pass (spawn → exit)"].append(spawn_ms([sys.executable, "-c", "pass"]))
    print(f"spawn → initialize result, {args.runs} runs each, interleaved")
    print()
    print("| process | min ms | median ms | max ms |")
    print("|---|---:|---:|---:|")
    for name, xs in times.items():
        print(f"| {name} | {min(xs):,.0f} | **{statistics.median(xs):,.0f}** | {max(xs):,.0f} |")
    mods = toolcast_modules_at_initialize(sys.executable)
    print()
    print(f"toolcast modules loaded before the first message is read ({len(mods)}): {', '.join(mods)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
