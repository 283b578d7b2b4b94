"""Benchmark (not a test): the engines ``pattern_dialect`` rules compile a ``pattern`` with (schema/dialects.py),
on every pattern of tests/corpus, of the edge-schema sets and of the public reports the rules cite.

    .venv/bin/pip install -e '.[test]'      # regress and (Linux x86_64) google-re2
    .venv/bin/pip install mini-racer        # optional: V8, Node's engine, as the oracle for the ECMAScript ones
    .venv/bin/python bench/bench_dialects.py

For each engine: how many patterns it refuses, the time per compile, and the refused patterns. With mini-racer
installed, each ECMAScript engine (``regress``) is compared with ``new RegExp(pattern, flags)`` in V8: the
patterns where the two disagree on accepting. Figures: docs/design.md, "Dependencies and why each one"."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from toolcast.adapters.consumers import PATTERN_ENGINES as ENGINES
from toolcast.adapters.schema.dialects import Refused, Unavailable, compiled

ROOT = Path(__file__).resolve().parents[1]
SETS = [*sorted((ROOT / "tests" / "corpus").glob("*.json")), ROOT / "tests" / "verdicts" / "edge_schemas.json",
        *sorted((ROOT / "bench" / "heldout").glob("*.json"))]
#: The patterns of the reports the profiles cite (each with its report).
REPORTS = {
    "BerriAI/litellm#40485": r'^(?!__.*__$)[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}"\\./[\]]{1,200}$',
    "Dokploy/mcp#43": r"^[a-zA-Z0-9@#%^&*()_+\-=[\]{}|;:,.<>?~`]*$",
    "Dokploy/mcp#45": r"^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@"
                      r"([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$",
    "nicobailon/pi-interactive-shell#69": "^(?=.*\\S)[^\\u0000-\\u001F\\u007F]+$",
    "anomalyco/opencode#32073": r"^(?!undefined$|null$)",
    "fitchmultz/pi-oracle#5": r".*\S.*",
    "LeXwDeX/OpenCode-GraphAgent#412": r"^dag",
}
#: Where ECMAScript's modes and the other engines part (not from a tool file): for the V8 comparison.
CORNERS = [r"\-", r"a{,3}", r"[\w-a]", r"(?<n>a)(?<n>b)", r"(?i:a)b", r"(?i)ab", r"\z", r"\Z", r"\k<x>",
           r"(?<x>a)\k<x>", r"\u{1F600}", r"[[a]]", r"[a--b]", r"\p{Script=Greek}", r"\p{Lu}", r"\P{L}", r"(?<=a)b",
           r"(?<!a)b", r"a++", r"(?>a)", r"\Qa\E", r"(?P<n>a)", r"[^]", r"]", r"{", r"a{2,1}", r"\cJ", r"\c", r"\0",
           r"\01", r"[\d-z]", r"\x4", r"\u00", r"\1(a)", r"\8", r"*", r"a**", r"(?=a)*", r"[z-a]", r"\/", r"/",
           r"[a-z_-]", r"[-a]", r"\a", r"\e", r"[\b]", r"\B", r"$^", r"(?#comment)", r"(?x) a", r"\h", r"[[:alpha:]]"]
_FLAGS = {"ecmascript": "", "ecmascript-u": "u"}


def _patterns(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, sub in value.items():
            if key == "pattern" and isinstance(sub, str):
                yield sub
            elif key == "patternProperties" and isinstance(sub, dict):
                yield from (k for k in sub if isinstance(k, str))
            yield from _patterns(sub)
    elif isinstance(value, list):
        for sub in value:
            yield from _patterns(sub)


def collect() -> list[str]:
    seen: dict[str, None] = {}
    for path in SETS:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        seen.update(dict.fromkeys(_patterns(data)))
    seen.update(dict.fromkeys(REPORTS.values()))
    return list(seen)


def corners() -> None:
    """The ECMAScript corners, per engine (x: refused)."""
    print("\nECMAScript corners, per engine (x: refused):")
    print(f"{'pattern':<20}" + "".join(f"{e[:12]:>13}" for e in ENGINES))
    for pattern in CORNERS:
        marks = ["x" if isinstance(compiled(pattern, e), Refused) else "." for e in ENGINES]
        print(f"{pattern:<20}" + "".join(f"{m:>13}" for m in marks))


def engines(patterns: list[str]) -> dict[str, set[str]]:
    print(f"{len(patterns)} distinct patterns ({len(REPORTS)} from reports)\n")
    print(f"{'engine':<26}{'refused':>8}{'not tried':>10}{'µs/compile':>12}")
    refused_by: dict[str, set[str]] = {}
    for engine in ENGINES:
        compiled("^a$", engine)  # the engine's module imported before the clock starts
        verdicts = [compiled(p, engine) for p in patterns]
        # The fastest of 20 rounds (a shared machine is noisy); `re` answers later rounds from its own cache, so
        # its figure is the warm one.
        spent = float("inf")
        for _ in range(20):
            start = time.perf_counter()
            for p in patterns:
                compiled(p, engine)
            spent = min(spent, time.perf_counter() - start)
        refused = {p for p, v in zip(patterns, verdicts, strict=True) if isinstance(v, Refused)}
        skipped = sum(isinstance(v, Unavailable) for v in verdicts)
        refused_by[engine] = refused
        print(f"{engine:<26}{len(refused):>8}{skipped:>10}{spent / len(patterns) * 1e6:>12.1f}")
    for engine, refused in refused_by.items():
        if refused and engine != "anchored":
            print(f"\n{engine} refuses:")
            for p in sorted(refused)[:12]:
                print(f"  {p[:90]!r}  {compiled(p, engine)}")
    return refused_by


def against_v8(patterns: list[str]) -> None:
    if find_spec("py_mini_racer") is None:
        print("\nV8 oracle: not run (pip install mini-racer)")
        return
    from py_mini_racer import MiniRacer

    ctx = MiniRacer()
    ctx.eval("function chk(p, f) { try { new RegExp(p, f); return ''; } catch (e) { return String(e.message); } }")
    print(f"\nV8 {ctx.v8_version} against regress (accept/refuse), {len(patterns)} patterns:")
    for engine, flags in _FLAGS.items():
        differ = []
        for p in patterns:
            v8_refuses = bool(ctx.call("chk", p, flags))
            ours = compiled(p, engine)
            if isinstance(ours, Unavailable):
                continue
            if v8_refuses != isinstance(ours, Refused):
                differ.append((p, ctx.call("chk", p, flags), ours))
        print(f"  {engine:<14} flags {flags!r:<4} disagree on {len(differ)}")
        for p, v8, ours in differ[:8]:
            print(f"    {p[:70]!r}: V8 {v8 or 'accepts'!r}; regress {ours or 'accepts'}")


def reports() -> None:
    print("\nThe reports' patterns, per engine (x: refused):")
    print(f"{'report':<36}" + "".join(f"{e[:12]:>13}" for e in ENGINES))
    for source, pattern in REPORTS.items():
        marks = ["x" if isinstance(compiled(pattern, e), Refused) else "." for e in ENGINES]
        print(f"{source:<36}" + "".join(f"{m:>13}" for m in marks))


if __name__ == "__main__":
    found = collect()
    engines(found)
    reports()
    corners()
    against_v8(found + [c for c in CORNERS if c not in found])
