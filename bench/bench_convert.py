#!/usr/bin/env python3
"""Tools converted per second, per target, on a 1,000-tool file — and pydantic-ai's Google and OpenAI
transformers on the same tool schemas, for comparison. A benchmark, not a test: it prints figures.

    python bench/bench_convert.py                 # toolcast only (pydantic-ai rows skipped if missing)
    /path/to/venv-with-pydantic-ai/bin/python bench/bench_convert.py --tools 1000 --repeat 5

The tools come from ../shared/bench/gen.py (realistic generated tools; no injected errors).
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def generated_tools(n: int, seed: int) -> list[dict[str, Any]]:
    gen_path = ROOT.parent / "shared" / "bench" / "gen.py"
    spec = importlib.util.spec_from_file_location("toolcast_bench_gen", gen_path)
    if spec is None or spec.loader is None:
        sys.exit(f"bench generator not found at {gen_path}")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    tools, _ = gen.generate(n, seed, error_every=10**9)
    return list(tools)


def rate(fn: Callable[[], None], count: int, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return count / statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tools", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args()

    from toolcast.adapters.convert import convert
    from toolcast.adapters.loading import load_tools
    from toolcast.adapters.targets import TARGETS, TargetOptions

    raw = generated_tools(args.tools, args.seed)
    tools = [lt.tool for lt in load_tools(raw)]
    rows: list[tuple[str, float]] = []
    for target in TARGETS:
        rows.append((f"toolcast {target}", rate(lambda t=target: [convert(x, t) for x in tools], len(tools),
                                                 args.repeat)))
    rows.append(("toolcast openai (non-strict)", rate(
        lambda: [convert(x, "openai", TargetOptions(strict=False)) for x in tools], len(tools), args.repeat)))
    schemas = [t.parameters for t in tools]
    try:
        from pydantic_ai.profiles.google import GoogleJsonSchemaTransformer
        from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer
    except ImportError:
        print("(pydantic-ai not installed in this interpreter: its rows are skipped)", file=sys.stderr)
    else:
        # pydantic-ai's transformers mutate their input, so each run gets fresh copies (copy time excluded).
        def run_pai(cls: Any, **kw: Any) -> Callable[[], None]:
            def go() -> None:
                for s in copies:
                    cls(s, **kw).walk()
            return go

        for label, cls, kw in (("pydantic-ai OpenAI (strict)", OpenAIJsonSchemaTransformer, {"strict": True}),
                               ("pydantic-ai Google", GoogleJsonSchemaTransformer, {})):
            times = []
            for _ in range(args.repeat):
                copies = copy.deepcopy(schemas)
                start = time.perf_counter()
                run_pai(cls, **kw)()
                times.append(time.perf_counter() - start)
            rows.append((label, len(tools) / statistics.median(times)))
    print(f"| converter ({len(tools)} tools, median of {args.repeat}) | tools/s |")
    print("|---|---:|")
    for label, value in rows:
        print(f"| {label} | {value:,.0f} |")


if __name__ == "__main__":
    main()
