"""Benchmark (not a test): one edit inside a tool → its report, in-process, the way the language
server's document store asks (``Analyzer.check_document`` with the incremental parse of the edited text).

    python3 ../shared/bench/gen.py --out /tmp/tc-bench-data
    .venv/bin/python bench/bench_edits.py --data /tmp/tc-bench-data --sizes 1000 5000

Per size: the file is checked once (cold), then ``--edits`` one-character edits toggle a character in
the description of the middle tool (insert, delete, insert...), each re-parsed incrementally from the
last and checked; prints min / median / p95 of the check alone and how many of the runs reused the
last run for every tool but the edited one (``Analyzer.edited_runs``)."""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from toolcast.adapters.checks import Analyzer, check_document


def edits(text: str, count: int) -> tuple[list[float], int]:
    analyzer = Analyzer()
    doc = analyzer.parse(text)
    check_document(text, parsed=doc, analyzer=analyzer)
    at = text.index('"description"', len(text) // 2) + len('"description": "') + 2
    times = []
    for i in range(count):
        if i % 2 == 0:
            doc = analyzer.reparse(doc, at, at, "x")
        else:
            doc = analyzer.reparse(doc, at, at + 1, "")
        start = time.perf_counter()
        check_document(doc.text, parsed=doc, analyzer=analyzer)
        times.append((time.perf_counter() - start) * 1000)
    return times, analyzer.edited_runs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("/tmp/tc-bench-data"))
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000])
    ap.add_argument("--edits", type=int, default=30)
    args = ap.parse_args()
    print("| tools | check after one edit ms min / **median** / p95 (n) | runs that reused the last run |")
    print("|---:|---|---:|")
    for n in args.sizes:
        times, reused = edits((args.data / f"tools-{n}.tool.json").read_text(encoding="utf-8"), args.edits)
        p95 = sorted(times)[max(0, round(0.95 * len(times)) - 1)]
        print(f"| {n:,} | {min(times):.1f} / **{statistics.median(times):.1f}** / {p95:.1f} ({len(times)}) "
              f"| {reused} of {len(times)} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
