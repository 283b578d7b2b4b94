"""Benchmark (not a test): the language server's memory while it opens one large tool file, checks it, and
takes edits in many tools, sampled from ``/proc/PID/status`` every 0.1 s.

    python3 ../shared/bench/gen.py --out /tmp/tc-bench-data
    .venv/bin/python bench/bench_memory.py --sizes 1000 5000 --edits 15
    .venv/bin/python bench/bench_memory.py --toolcast-cmd "env PYTHONPATH=<view> python -m toolcast.server"

Per run (push mode, the file opened from a folder that holds only it): RSS after ``initialize``; the
peak (``VmHWM``) up to the first diagnostics and once the first complete check is published; RSS then;
and, with ``--edits N``, the peak and RSS after N one-character edits, each in another tool (an edit of
a tool's ``description`` key, spread over the file, 0.1 s apart, started when the first diagnostics
arrive) and the complete check that follows. Prints one markdown table."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from bench_lsp import SHARED_BENCH, _complete, load_lspbench


def status(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of a process, in MB."""
    out = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) // 1024
    return out


def complete(conn: Any, uri: str, timeout: float) -> None:
    """Wait for a publish of ``uri`` without the "still checking" notice."""
    while True:
        _, params = conn.diagnostics.get(timeout=timeout)
        if params.get("uri") == uri and _complete(params.get("diagnostics", [])):
            return


def run(lb: ModuleType, cmd: str, file: Path, edits: int, timeout: float) -> dict[str, int]:
    with tempfile.TemporaryDirectory() as root:
        doc = Path(root) / file.name
        shutil.copyfile(file, doc)
        conn = lb.Connection(cmd.split(), None, None, None, None, False, {})
        try:
            pid = conn.proc.pid
            conn.request("initialize", {"processId": os.getpid(), "rootUri": Path(root).as_uri(),
                                        "capabilities": lb.client_capabilities(False, ["utf-16"])}, timeout)
            conn.notify("initialized", {})
            out = {"init": status(pid)["VmRSS"]}
            text = doc.read_text(encoding="utf-8")
            uri = doc.as_uri()
            conn.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1,
                                                                  "text": text}})
            conn.diagnostics.get(timeout=timeout)
            out["first_peak"] = status(pid)["VmHWM"]
            if edits:
                index = lb.TextIndex(text)
                spots = [m.start() + 1 for m in re.finditer(r'"description"', text)]
                for version, at in enumerate(spots[:: max(1, len(spots) // edits)][:edits], start=2):
                    pos = index.position(at)
                    end = {"line": pos["line"], "character": pos["character"] + 1}
                    conn.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                           "contentChanges": [{"range": {"start": pos, "end": end},
                                                                               "text": "D"}]})
                    time.sleep(0.1)
            complete(conn, uri, timeout)
            time.sleep(0.5)
            done = status(pid)
            out["peak"], out["rss"] = done["VmHWM"], done["VmRSS"]
            return out
        finally:
            conn.close(10)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("/tmp/tc-bench-data"))
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000])
    ap.add_argument("--edits", type=int, default=15)
    ap.add_argument("--toolcast-cmd", default=f"{Path(sys.executable).parent / 'toolcast'} serve")
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    lb = load_lspbench(SHARED_BENCH / "lspbench.py")
    print("| tools | RSS after `initialize` MB | peak to first diagnostics MB | open only: peak / RSS once complete MB "
          f"| {args.edits} edits in as many tools: peak / RSS once complete MB |")
    print("|---:|---:|---:|---|---|")
    for n in args.sizes:
        file = args.data / f"tools-{n}.tool.json"
        quiet = run(lb, args.toolcast_cmd, file, 0, args.timeout)
        edited = run(lb, args.toolcast_cmd, file, args.edits, args.timeout) if args.edits else None
        edits = f"{edited['peak']} / {edited['rss']}" if edited else "—"
        print(f"| {n:,} | {quiet['init']} | {quiet['first_peak']} | {quiet['peak']} / {quiet['rss']} | {edits} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
