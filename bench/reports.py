#!/usr/bin/env python3
"""Benchmark (not a test): does toolcast catch what hosts, APIs and models were publicly reported rejecting?

    .venv/bin/python bench/reports.py                      # every case through the real command line
    .venv/bin/python bench/reports.py --library            # in process (what tests/reports/ asserts)
    .venv/bin/python bench/reports.py --json out.json      # the per-case verdicts as JSON too

Each case of ``tests/reports/cases.json`` (a public 2025-26 report: its link, the consumer and the toolcast
flags that select it, the report's schema or the smallest one its text shows, the quoted error, and where
toolcast should say so) is written to a tool file and run through ``toolcast check --format json`` with the
case's ``--target``/``--for``/``--model``/``--server-name``, and, when the case is about converting, through
``toolcast convert --to T --format json``. ``tests/reports/classify.py`` judges the result by place, severity and
optionally code family, never by wording: **solved** (an error, or a convert loss or refusal, naming the
expected place), **warned only** (a warning or info there), **missed** (nothing there, or the host or model is
unknown to toolcast; the line then also says what the target alone gives). Prints the totals, then one line
per case.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.reports.classify import VERDICTS, Verdict, classify, counts  # noqa: E402
from tests.reports.runs import CASES, load_cases, run_cli, run_library  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=Path, default=CASES)
    ap.add_argument("--library", action="store_true", help="run in process instead of the command line")
    ap.add_argument("--json", type=Path, help="also write the per-case verdicts here")
    args = ap.parse_args()
    run = run_library if args.library else run_cli
    rows = []
    for case in load_cases(args.cases):
        with tempfile.TemporaryDirectory() as tmp:
            verdict = classify(case, run(case, Path(tmp)))
        if verdict.why.startswith("selection refused"):  # what the target alone says, for the record
            alone = {**case, "flags": {"target": case["flags"]["target"]}}
            with tempfile.TemporaryDirectory() as tmp:
                only = classify(alone, run(alone, Path(tmp)))
            verdict = Verdict(verdict.verdict, f"{verdict.why}; the target alone: {only.verdict} ({only.why})")
        rows.append((case, verdict))
    total = counts(v for _, v in rows)
    print(f"{len(rows)} reports ({'library' if args.library else 'command line'}): "
          + ", ".join(f"{total[k]} {k}" for k in VERDICTS))
    print()
    print("| case | source | consumer flags | verdict | what toolcast said |")
    print("|---|---|---|---|---|")
    for case, v in rows:
        flags = " ".join(f"--{k.replace('_', '-')} {x}" for k, xs in case["flags"].items()
                         for x in (xs if isinstance(xs, list) else [xs]))
        print(f"| {case['id']} | {case['source']} | `{flags}` | {v.verdict} | {v.why} |")
    if args.json:
        args.json.write_text(json.dumps([{"id": c["id"], "verdict": v.verdict, "why": v.why} for c, v in rows],
                                        indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
