#!/usr/bin/env python3
"""Parser choice, by measurement (a benchmark, not a test): toolcast's tolerant parser against
tree-sitter-json and ``json.loads`` — speed on generated tool files, and how much structure survives the
states a file is in while being typed.

    python bench/bench_parser.py                   # tree-sitter rows skipped when it is not installed
    /path/to/venv-with-tree-sitter/bin/python bench/bench_parser.py
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
VALID = '{"name": "get_weather", "description": "Get the weather", "parameters": {"type": "object", ' \
        '"properties": {"city": {"type": "string"}}, "required": ["city"]}}'
STATES = {
    "unterminated string": VALID.replace('"Get the weather"', '"Get the wea\n'),
    "missing colon": VALID.replace('"name":', '"name"'),
    "missing value": VALID.replace('"get_weather"', ""),
    "half-typed key": VALID[:-1] + ', "para',
    "missing comma": VALID.replace('"get_weather",', '"get_weather"'),
    "trailing comma": VALID[:-1] + ",}",
}


def gen_texts() -> dict[int, str]:
    spec = importlib.util.spec_from_file_location("gen", ROOT.parent / "shared" / "bench" / "gen.py")
    assert spec and spec.loader
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return {n: json.dumps(gen.generate(n, 42, 25)[0], indent=2) for n in (10, 100, 1000, 5000)}


def median_ms(fn: Any, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    from toolcast.adapters.document import LineIndex, parse

    try:
        import tree_sitter_json
        from tree_sitter import Language, Parser

        ts: Any = Parser(Language(tree_sitter_json.language()))
    except ImportError:
        ts = None
        print("(tree-sitter not installed in this interpreter: its columns are skipped)", file=sys.stderr)

    print("| state | toolcast keeps | tree-sitter-json |")
    print("|---|---|---|")
    for state, text in STATES.items():
        value = parse(text).value
        kept = "parameters kept" if isinstance(value, dict) and "parameters" in value else "parameters LOST"
        ts_cell = "-"
        if ts is not None:
            root = ts.parse(text.encode()).root_node
            pairs = [n for n in _walk(root) if n.type == "pair"]
            has_params = any(p.child_by_field_name("key") is not None
                             and b"parameters" in (p.child_by_field_name("key").text or b"")
                             and not _under_error(p) for p in pairs)
            errors = sum(1 for n in _walk(root) if n.type == "ERROR" or n.is_missing)
            ts_cell = f"{'parameters kept' if has_params else 'parameters LOST'} ({errors} error nodes)"
        print(f"| {state} | {kept} ({len(parse(text).errors)} errors) | {ts_cell} |")

    print()
    print("| tools | size | json.loads | toolcast parse | parse + value | LineIndex | tree-sitter parse |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for n, text in gen_texts().items():
        loads = median_ms(lambda t=text: json.loads(t))
        ours = median_ms(lambda t=text: parse(t))
        ours_value = median_ms(lambda t=text: parse(t).value)
        index = median_ms(lambda t=text: LineIndex(t))
        tsp = f"{median_ms(lambda t=text: ts.parse(t.encode())):.1f} ms" if ts is not None else "-"
        print(f"| {n} | {len(text) / 1e6:.2f} MB | {loads:.1f} ms | {ours:.1f} ms | {ours_value:.1f} ms | "
              f"{index:.1f} ms | {tsp} |")


def _under_error(node: Any) -> bool:
    """A pair inside an ERROR node is not structure a checker can use."""
    parent = node.parent
    while parent is not None:
        if parent.type == "ERROR":
            return True
        parent = parent.parent
    return False


def _walk(node: Any) -> Any:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)


if __name__ == "__main__":
    main()
