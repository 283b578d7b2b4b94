"""Benchmark (not a test): ``toolcast check`` over a folder of 1,000 generated tool files, against the
floor of ``json.loads`` of the same files in-process.

    .venv/bin/python bench/bench_check.py [--files 1000] [--runs 3]

Prints the wall time of the CLI (a subprocess, as CI runs it), the in-process ``json.loads`` time and
their ratio (issue 6 target: at most 5x), plus the in-process ``check_document`` time without start-up:
cold (a fresh ``Analyzer`` per run, as the CLI has) and warm (the same files again, same analyzer)."""

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
                    analyzer.check_document(f.read_text(encoding="utf-8"), path=str(f), config=config)
                times.append(time.perf_counter() - t0)

        cli = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            done = subprocess.run(
                [str(exe), "check", "--format", "json", str(root)], capture_output=True, text=True
            )
            cli.append(time.perf_counter() - t0)
            if done.returncode not in (0, 1):
                print(done.stderr, file=sys.stderr)
                return 1
        findings = len(json.loads(done.stdout))
        start = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            subprocess.run([str(exe), "explain", "TC101"], capture_output=True)
            start.append(time.perf_counter() - t0)

    loads, check, inp, again, st = (statistics.median(x) for x in (loads_times, cli, inproc, warm, start))
    print(f"files: {args.files} ({findings} findings), median of {args.runs} runs")
    print(f"json.loads, in-process:             {loads * 1000:8.1f} ms")
    print(
        f"toolcast check (CLI, wall):          {check * 1000:8.1f} ms   "
        f"ratio {check / loads:6.1f}x (target <= 5x)"
    )
    print(f"check_document, in-process (cold):   {inp * 1000:8.1f} ms   ratio {inp / loads:6.1f}x")
    print(f"check_document, in-process (warm):   {again * 1000:8.1f} ms   ratio {again / loads:6.1f}x")
    print(f"CLI start-up (toolcast explain):     {st * 1000:8.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
