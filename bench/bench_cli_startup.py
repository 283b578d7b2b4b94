"""Benchmark (not a test): the start-up of the command line and the library, this install against another.

    git worktree add /tmp/tc-before <commit> && (cd /tmp/tc-before && python3 -m venv .venv &&
        .venv/bin/pip install -q -e .)
    .venv/bin/python bench/bench_cli_startup.py --runs 5 --compare /tmp/tc-before/.venv/bin

For each entry (``toolcast --version``, ``toolcast explain TC101``, ``toolcast check`` of a one-tool file,
``import toolcast``, ``toolcast.check`` of the same file), runs of each install alternate, and the script prints
wall time from spawn to exit (best and median of ``--runs``) and, from a run under ``python -X importtime``, the
sum of the imports' own times (best) and how many modules were imported. The language server's start-up is
``bench/bench_startup.py``."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1] / "examples" / "get_weather.tool.json"  # one tool, no findings

ENTRIES: dict[str, Callable[[Path], list[str]]] = {
    "toolcast --version": lambda bin_: [str(bin_ / "toolcast"), "--version"],
    "toolcast explain TC101": lambda bin_: [str(bin_ / "toolcast"), "explain", "TC101"],
    "toolcast check (one tool)": lambda bin_: [str(bin_ / "toolcast"), "check", str(TOOL)],
    "import toolcast": lambda bin_: [str(bin_ / "python"), "-c", "import toolcast"],
    "toolcast.check (one tool)": lambda bin_: [str(bin_ / "python"), "-c",
                                               f"import toolcast; toolcast.check({str(TOOL)!r})"],
}


def wall_ms(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=True)
    return (time.perf_counter() - start) * 1000


def import_times(cmd: list[str]) -> tuple[float, int]:
    """(sum of the imports' own times in ms, modules imported) of ``cmd`` run under ``-X importtime``."""
    python = cmd[0] if cmd[0].endswith("python") else str(Path(cmd[0]).parent / "python")
    rest = cmd[1:] if cmd[0].endswith("python") else cmd
    err = subprocess.run([python, "-X", "importtime", *rest], capture_output=True, text=True, check=True).stderr
    own = [int(line.split("|")[0].split(":")[1]) for line in err.splitlines()
           if line.startswith("import time:") and "self [us]" not in line]
    return sum(own) / 1000, len(own)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--compare", type=Path, default=None,
                    help="another install's bin folder (its `toolcast` and `python`), measured in the same runs")
    args = ap.parse_args()
    installs = {"this install": Path(sys.executable).parent}
    if args.compare:
        installs[f"compare: {args.compare}"] = args.compare
    walls: dict[tuple[str, str], list[float]] = {(e, i): [] for e in ENTRIES for i in installs}
    imports: dict[tuple[str, str], list[tuple[float, int]]] = {(e, i): [] for e in ENTRIES for i in installs}
    for _ in range(args.runs):
        for entry, command in ENTRIES.items():
            for name, bin_ in installs.items():
                walls[entry, name].append(wall_ms(command(bin_)))
                imports[entry, name].append(import_times(command(bin_)))
    print(f"{args.runs} runs each, interleaved; imports: the sum of their own times under -X importtime (best)")
    print()
    print("| entry | install | wall best ms | wall median ms | imports best ms | modules imported |")
    print("|---|---|---:|---:|---:|---:|")
    for entry in ENTRIES:
        for name in installs:
            xs, ys = walls[entry, name], imports[entry, name]
            print(f"| {entry} | {name} | {min(xs):,.0f} | **{statistics.median(xs):,.0f}** | "
                  f"{min(y[0] for y in ys):,.1f} | {ys[0][1]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
