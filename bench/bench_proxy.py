"""Benchmark (not a test): what `toolcast proxy` costs.

1. Latency added per `tools/call`: the official Python client calling a local server (tests/mcp/hostile_server.py,
   over stdio) directly and through `toolcast proxy --for gemini-cli`, in the same run, alternating blocks; medians
   and 95th percentiles.
2. `tools/list` of a 500-tool server lowered: `lower_tools` on 500 real tools of tests/corpus (as MCP tools) for
   Gemini CLI + gemini-2.5-pro, best and median of several runs, after the server's answer is in hand.
3. The proxy's memory over 10,000 calls: its resident set (VmRSS) after 1,000 calls and after 10,000.

    .venv/bin/python bench/bench_proxy.py [--calls 2000] [--memory-calls 10000]

Figures: BENCHMARKS.md, "toolcast proxy"."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[1]
SERVER = [sys.executable, str(ROOT / "tests" / "mcp" / "hostile_server.py")]
PROXY = [sys.executable, "-m", "toolcast.server.cli", "proxy", "--for", "gemini-cli", "--model", "gemini-2.5-pro",
         "--", *SERVER]
BLOCK = 100


def corpus_mcp_tools(count: int) -> list[dict[str, Any]]:
    """``count`` real tools from tests/corpus, as an MCP server would list them (unique names)."""
    from toolcast.adapters.convert import convert
    from toolcast.adapters.errors import ToolcastError
    from toolcast.adapters.loading import load_tools

    out: list[dict[str, Any]] = []
    names: set[str] = set()
    for path in sorted((ROOT / "tests" / "corpus").glob("*.json")):
        try:
            loaded = load_tools(json.loads(path.read_text(encoding="utf-8")))
        except (ToolcastError, ValueError):
            continue
        for item in loaded:
            try:
                tool = convert(item.tool, "mcp").output
            except ToolcastError:
                continue
            if tool.get("name") in names:
                continue
            names.add(str(tool["name"]))
            out.append(tool)
            if len(out) == count:
                return out
    return out


def bench_lowering(runs: int = 7) -> None:
    from toolcast.adapters.proxy_plan import ProxySettings, lower_tools

    tools = corpus_mcp_tools(500)
    settings = ProxySettings(hosts=("gemini-cli",), models=("gemini-2.5-pro",))
    lower_tools(tools[:5], settings, "bench")  # imports and profile loading are start-up, not lowering
    times = []
    plan = None
    for _ in range(runs):
        start = time.perf_counter()
        plan = lower_tools(tools, settings, "bench")
        times.append((time.perf_counter() - start) * 1000)
    assert plan is not None
    print(f"tools/list lowering, {len(tools)} corpus tools for gemini-cli + gemini-2.5-pro: best {min(times):.0f} ms, "
          f"median {statistics.median(times):.0f} ms ({len(plan.served)} served, {len(plan.left_out)} left out)")


async def _timed_calls(session: ClientSession, count: int) -> list[float]:
    out = []
    for i in range(count):
        start = time.perf_counter()
        await session.call_tool("filler_000", {"n": i})
        out.append((time.perf_counter() - start) * 1000)
    return out


def _connect(argv: list[str]) -> Any:
    return stdio_client(StdioServerParameters(command=argv[0], args=argv[1:]), errlog=open(os.devnull, "w"))


async def bench_latency(calls: int) -> None:
    direct: list[float] = []
    proxied: list[float] = []
    async with _connect(SERVER) as (r1, w1), ClientSession(r1, w1) as s1, _connect(PROXY) as (r2, w2), \
            ClientSession(r2, w2) as s2:
        await s1.initialize()
        await s2.initialize()
        await _timed_calls(s1, BLOCK)  # warm both paths
        await _timed_calls(s2, BLOCK)
        for _ in range(max(calls // BLOCK, 1)):  # alternating blocks: machine noise falls on both alike
            direct += await _timed_calls(s1, BLOCK)
            proxied += await _timed_calls(s2, BLOCK)

    def p95(xs: list[float]) -> float:
        return sorted(xs)[int(len(xs) * 0.95)]

    added = statistics.median(proxied) - statistics.median(direct)
    print(f"tools/call, {len(direct)} calls each: direct median {statistics.median(direct):.2f} ms "
          f"(p95 {p95(direct):.2f}), through the proxy median {statistics.median(proxied):.2f} ms "
          f"(p95 {p95(proxied):.2f}); added at the median {added:.2f} ms")


def _proxy_pid() -> int | None:
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cmd = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(stat[1]) == me and b"proxy" in cmd:
            return int(entry.name)
    return None


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def bench_memory(calls: int) -> None:
    async with _connect(PROXY) as (r, w), ClientSession(r, w) as session:
        await session.initialize()
        pid = _proxy_pid()
        if pid is None:
            print("memory: the proxy process was not found")
            return
        marks = {}
        for i in range(1, calls + 1):
            await session.call_tool("filler_000", {"n": i})
            if i in (1_000, calls // 2, calls):
                marks[i] = _rss_kib(pid)
    shown = ", ".join(f"after {n:,} calls {kib / 1024:.1f} MiB" for n, kib in marks.items())
    print(f"proxy memory (VmRSS): {shown}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=2_000)
    parser.add_argument("--memory-calls", type=int, default=10_000)
    args = parser.parse_args()
    bench_lowering()
    anyio.run(bench_latency, args.calls)
    anyio.run(bench_memory, args.memory_calls)


if __name__ == "__main__":
    main()
