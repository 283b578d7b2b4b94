"""Benchmark (not a test): ``toolcast check`` over a folder of 1,000 generated tool files, against the
floor of ``json.loads`` of the same files in-process.

    .venv/bin/python bench/bench_check.py [--files 1000] [--runs 3]
    .venv/bin/python bench/bench_check.py --sweep 4 8 16 32 64 128 --runs 5   # where workers start to pay

Prints the wall time of the CLI (a subprocess, as CI runs it) with the default ``--jobs`` (auto), one
process (``--jobs 1``) and two workers (``--jobs 2``), the in-process ``json.loads`` time and their ratio
(issue 6/15 target: at most 5x), plus the in-process ``check_document`` time without start-up: cold (a
fresh ``Analyzer`` per run, as the CLI has) and warm (the same files again, same analyzer).
``--sweep N...``: serial against two workers on the first N files, runs interleaved, to place
``check_cmd.PARALLEL_MIN_BYTES``."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from toolcast.adapters.checks import check_document


def make_tool(i: int, rng: random.Random) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for j in range(rng.randint(2, 8)):
        kind = rng.choice(["string", "integer", "number", "boolean", "enum", "array", "object"])
        name = f"arg_{j}"
        if kind == "enum":
            props[name] = {
                "type": "string",
                "enum": [f"v{k}" for k in range(rng.randint(2, 6))],
                "description": f"Choice {j}.",
            }
        elif kind == "array":
            props[name] = {"type": "array", "items": {"type": "string"}, "description": "A list."}
        elif kind == "object":
            props[name] = {
                "type": "object",
                "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                "required": ["x", "y"],
                "additionalProperties": False,
            }
        else:
            props[name] = {"type": kind, "description": f"Argument {j} of tool {i}."}
    required = sorted(rng.sample(list(props), k=rng.randint(0, len(props))))
    return {
        "name": f"tool_{i}",
        "description": f"Tool number {i}: does something useful with its arguments.",
        "parameters": {"type": "object", "properties": props, "required": required},
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sweep", type=int, nargs="*", default=None, metavar="N")
    args = ap.parse_args()
    rng = random.Random(42)
    exe = Path(sys.executable).parent / "toolcast"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for i in range(args.files):
            (root / f"tool_{i:04d}.tool.json").write_text(
                json.dumps(make_tool(i, rng), indent=2), encoding="utf-8"
            )
        files = sorted(root.glob("*.json"))
        if args.sweep:
            return sweep(exe, files, args.sweep, args.runs)

        loads_times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            for f in files:
                json.loads(f.read_text(encoding="utf-8"))
            loads_times.append(time.perf_counter() - t0)

        from toolcast.adapters.checks import Analyzer, load_config

        config, _ = load_config(root)
        inproc, warm = [], []
        for _ in range(args.runs):
            analyzer = Analyzer()
            for times in (inproc, warm):
                t0 = time.perf_counter()
                for f in files:
                    check_document(f.read_text(encoding="utf-8"), path=str(f), config=config, analyzer=analyzer)
                times.append(time.perf_counter() - t0)

        walls: dict[str, list[float]] = {"auto": [], "1": [], "2": []}
        outputs = set()
        for _ in range(args.runs):
            for jobs, times in walls.items():
                extra = [] if jobs == "auto" else ["--jobs", jobs]
                t0 = time.perf_counter()
                done = subprocess.run(
                    [str(exe), "check", "--format", "json", *extra, str(root)], capture_output=True, text=True
                )
                times.append(time.perf_counter() - t0)
                if done.returncode not in (0, 1):
                    print(done.stderr, file=sys.stderr)
                    return 1
                outputs.add(done.stdout)
        if len(outputs) != 1:
            print("the outputs differ between --jobs settings", file=sys.stderr)
            return 1
        findings = len(json.loads(done.stdout))
        start = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            subprocess.run([str(exe), "explain", "TC101"], capture_output=True)
            start.append(time.perf_counter() - t0)

    loads, inp, again, st = (statistics.median(x) for x in (loads_times, inproc, warm, start))
    print(f"files: {args.files} ({findings} findings), median of {args.runs} runs")
    print(f"json.loads, in-process:             {loads * 1000:8.1f} ms")
    for jobs, times in walls.items():
        check = statistics.median(times)
        label = f"toolcast check --jobs {jobs} (CLI, wall):"
        print(f"{label:<37}{check * 1000:8.1f} ms   ratio {check / loads:6.1f}x (target <= 5x)")
    print(f"check_document, in-process (cold):   {inp * 1000:8.1f} ms   ratio {inp / loads:6.1f}x")
    print(f"check_document, in-process (warm):   {again * 1000:8.1f} ms   ratio {again / loads:6.1f}x")
    print(f"CLI start-up (toolcast explain):     {st * 1000:8.1f} ms")
    return 0


def sweep(exe: Path, files: list[Path], counts: list[int], runs: int) -> int:
    """Serial against two workers on the first N files (named on the command line, so every run checks
    exactly those), interleaved; the median of ``runs``."""
    print("| files | KB | --jobs 1 ms | --jobs 2 ms | 2 workers / 1 process |")
    print("|---:|---:|---:|---:|---:|")
    for n in counts:
        chosen = [str(f) for f in files[:n]]
        kb = sum(f.stat().st_size for f in files[:n]) / 1024
        walls: dict[str, list[float]] = {"1": [], "2": []}
        for _ in range(runs):
            for jobs, times in walls.items():
                t0 = time.perf_counter()
                subprocess.run([str(exe), "check", "--format", "json", "--jobs", jobs, *chosen], capture_output=True)
                times.append(time.perf_counter() - t0)
        one, two = statistics.median(walls["1"]) * 1000, statistics.median(walls["2"]) * 1000
        print(f"| {n:,} | {kb:,.0f} | {one:,.0f} | {two:,.0f} | {two / one:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
