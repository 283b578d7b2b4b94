"""Benchmark (not a test): the cold check of a whole tool file, this checkout against another, interleaved.

    python3 ../shared/bench/gen.py --out /tmp/tc-bench-data
    git worktree add /tmp/tc-before <commit>
    .venv/bin/python bench/bench_cold.py --sizes 1000 5000 --runs 3 --before /tmp/tc-before

Each run is a fresh interpreter that imports the checks, checks one tiny tool (so that imports and first-use
set-up are not counted) and then ``check_document`` over the whole file with a new ``Analyzer``: every
cache cold, as the language server's first check of an opened file and ``toolcast check`` have it. The
figure is CPU time of that process (``time.process_time``), which other work on a shared machine
disturbs less than wall time; runs of the two checkouts alternate. ``--before`` is a checkout (a git
worktree) of another commit, imported in place of this one through a package view in a temporary folder;
both use this virtualenv's dependencies. The findings of both must be equal, or the script says so."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import hashlib, sys, time
from toolcast.adapters.checks import Analyzer
text = open(sys.argv[1], encoding="utf-8").read()
check_document('[{"name": "x", "description": "d", "parameters": {"type": "object"}}]')
analyzer = Analyzer()
start = time.process_time()
report = check_document(text, analyzer=analyzer)
took = time.process_time() - start
digest = hashlib.sha256("\\n".join(map(repr, report.findings)).encode()).hexdigest()
print(took * 1000, len(report.tools), len(report.findings), digest)
"""


def view_of(checkout: Path, into: Path) -> Path:
    """A folder where ``import toolcast`` finds ``checkout``'s sources (as the editable install maps them)."""
    pkg = into / "toolcast"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    for part in ("adapters", "server", "schemas"):
        (pkg / part).symlink_to(checkout.resolve() / part)
    return into


def run(file: Path, pythonpath: str | None) -> tuple[float, int, int, str]:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    out = subprocess.run([sys.executable, "-c", CHILD, str(file)], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    return float(out[0]), int(out[1]), int(out[2]), out[3]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("/tmp/tc-bench-data"))
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--before", type=Path, default=None, help="a checkout of another commit, to compare with")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sides: list[tuple[str, str | None]] = [("this checkout", None)]
        if args.before:
            sides.insert(0, (f"before ({args.before})", str(view_of(args.before, Path(tmp)))))
        print("| tools | checkout | cold check CPU ms, median (min–max) | **ms per tool** | findings |")
        print("|---:|---|---|---:|---:|")
        for n in args.sizes:
            file = args.data / f"tools-{n}.tool.json"
            times: dict[str, list[float]] = {name: [] for name, _ in sides}
            results: dict[str, tuple[int, int, str]] = {}
            for _ in range(args.runs):
                for name, path in sides:
                    ms, tools, findings, digest = run(file, path)
                    times[name].append(ms)
                    results[name] = (tools, findings, digest)
            for name, _ in sides:
                med = statistics.median(times[name])
                tools, findings, _digest = results[name]
                print(f"| {n:,} | {name} | {med:,.0f} ({min(times[name]):,.0f}–{max(times[name]):,.0f}) "
                      f"| **{med / tools:.2f}** | {findings:,} |", flush=True)
            if len({r[2] for r in results.values()}) > 1:
                print(f"**the findings differ at {n:,} tools**", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
