#!/usr/bin/env python3
"""Parser benchmark (run on demand; not a test): toolcast's tolerant parser against ``json.loads`` and
tree-sitter-json — speed of a full parse, of an incremental re-parse after a one-character edit, of the
line index, and how much structure survives the states a file is in while being typed.

    python bench/bench_parser.py                       # tree-sitter columns skipped when not installed
    /work/parserenv/bin/python bench/bench_parser.py   # a venv with tree-sitter + tree-sitter-json
    python bench/bench_parser.py --sizes 10 100 --repeat 3 --big 0

Input files come from ../shared/bench/gen.py (generated into --data, default /tmp/tc-bench-data).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GEN = ROOT.parent / "shared" / "bench" / "gen.py"

TYPED = """{
  "name": "get_weather",
  "description": "Get the weather",
  "parameters": {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"]
  }
}"""
ONE_LINE = " ".join(line.strip() for line in TYPED.splitlines())


def _states(valid: str) -> dict[str, str]:
    sep = "\n  " if "\n" in valid else " "
    return {
        "unterminated string": valid.replace('"Get the weather",', '"Get the wea'),
        "missing colon": valid.replace('"name": "get_weather"', '"name" "get_weather"'),
        "missing value": valid.replace('"name": "get_weather",', '"name": ,'),
        "half-typed key": valid.replace('"Get the weather",', '"Get the weather",' + sep + '"para'),
        "missing comma": valid.replace('"get_weather",', '"get_weather"'),
        "trailing comma": valid.replace('"required": ["city"]', '"required": ["city"],'),
        "key without opening quote": valid.replace('"description":', 'description":'),
    }


def _import_toolcast() -> None:
    """Make ``toolcast.adapters`` importable from an interpreter where toolcast is not installed
    (the tree-sitter venv): the source folders are the package."""
    try:
        import toolcast.adapters  # noqa: F401
    except ImportError:
        pkg = types.ModuleType("toolcast")
        pkg.__path__ = [str(ROOT)]
        sys.modules["toolcast"] = pkg


def timed(fn: Callable[[], Any], repeat: int) -> float:
    """Median wall time in ms (garbage collection on, as in the server)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def data_files(data: Path, sizes: list[int]) -> dict[int, str]:
    missing = [n for n in sizes if not (data / f"tools-{n}.tool.json").exists()]
    if missing:
        subprocess.run([sys.executable, str(GEN), "--out", str(data), "--sizes", *map(str, missing)],
                       check=True, stdout=subprocess.DEVNULL)
    return {n: (data / f"tools-{n}.tool.json").read_text(encoding="utf-8") for n in sizes}


def tree_sitter() -> Any:
    try:
        import tree_sitter_json
        from tree_sitter import Language, Parser
    except ImportError:
        print("(tree-sitter not installed in this interpreter: its columns are skipped)\n")
        return None
    return Parser(Language(tree_sitter_json.language()))


def _walk(node: Any) -> Any:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)


def _ts_structure(ts: Any, text: str) -> str:
    root = ts.parse(text.encode()).root_node

    def usable(n: Any) -> bool:  # a pair inside an ERROR node is not structure a checker can use
        p = n.parent
        while p is not None:
            if p.type == "ERROR":
                return False
            p = p.parent
        return True

    keys = {k.text.decode("utf-8", "replace").strip('"') for n in _walk(root) if n.type == "pair" and usable(n)
            for k in [n.child_by_field_name("key")] if k is not None and k.text}
    errors = sum(1 for n in _walk(root) if n.type == "ERROR" or n.is_missing)
    return f"{_kept(keys)} ({errors} ERROR/MISSING)"


def _kept(keys: set[str]) -> str:
    wanted = ["name", "description", "parameters", "properties", "required"]
    lost = [k for k in wanted if k not in keys]
    return "all kept" if not lost else "LOST " + ",".join(lost)


def structure_table(ts: Any) -> None:
    from toolcast.adapters.document import ParsedDocument

    print("## Structure kept in mid-typing states\n")
    print("Keys of the tool that are still in the tree as usable members (a key whose value is missing counts;")
    print("for tree-sitter, a `pair` not inside an ERROR node): name, description, parameters, properties, required.\n")
    print("| state | layout | toolcast | tree-sitter-json |")
    print("|---|---|---|---|")
    for layout, valid in (("multi-line", TYPED), ("one line", ONE_LINE)):
        for state, text in _states(valid).items():
            doc = ParsedDocument(text)
            keys: set[str] = set()  # keys of the tree (a property whose value is missing still counts)
            stack = [doc.root]
            while stack:
                node = stack.pop()
                if node is None:
                    continue
                for p in node.properties or []:
                    keys.add(p.key)
                    stack.append(p.value)
                stack.extend(node.items or [])
            codes = ", ".join(e.code for e in doc.errors)
            ts_cell = _ts_structure(ts, text) if ts is not None else "-"
            print(f"| {state} | {layout} | {_kept(keys)} ({codes}) | {ts_cell} |")
    top = '{"name": "get_wea'
    doc = ParsedDocument(top)
    ts_cell = "-"
    if ts is not None:
        ts_cell = "root is ERROR" if ts.parse(top.encode()).root_node.children[0].type == "ERROR" else "object"
    print(f"| unterminated string at top level | `{top}` | value {doc.value} | {ts_cell} |\n")


def edits_for(text: str, count: int, seed: int = 1) -> list[int]:
    """Offsets inside description strings of random tools (a one-character insert there)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        at = text.find('"description": "', rng.randrange(len(text)))
        if at >= 0:
            out.append(at + 20)
    return out


def speed_table(texts: dict[int, str], repeat: int, ts: Any, edits: int) -> None:
    from toolcast.adapters.document import LineIndex, ParsedDocument, parse, reparse
    from toolcast.adapters.document import parser as parser_module

    print("## Speed (median ms)\n")
    print("| tools | size | json.loads | parse | parse+value | recovering path only | reparse 1 char | "
          "parse(text, previous) | LineIndex | LineIndex.edited | tree-sitter parse | tree-sitter edit+reparse |")
    print("|" + "---:|" * 12)
    for n, text in texts.items():
        loads = timed(lambda text=text: json.loads(text), repeat)
        full = timed(lambda text=text: ParsedDocument(text), repeat)
        full_value = timed(lambda text=text: ParsedDocument(text).value, repeat)
        saved = parser_module.EAGER_DEPTH
        parser_module.EAGER_DEPTH = 1 << 30
        try:
            eager = timed(lambda text=text: ParsedDocument(text), 1 if n >= 1000 else repeat)
        finally:
            parser_module.EAGER_DEPTH = saved
        doc = ParsedDocument(text)
        _ = doc.value
        offsets = edits_for(text, edits)
        new_texts = [text[:o] + "x" + text[o:] for o in offsets]
        re_times, diff_times = [], []
        for o, new in zip(offsets, new_texts, strict=True):
            start = time.perf_counter()
            new_doc = reparse(doc, o, o, "x", text=new)
            _ = new_doc.value
            re_times.append((time.perf_counter() - start) * 1000)
            assert new_doc.changed_pointer is not None
            start = time.perf_counter()
            parse(new, previous=doc)
            diff_times.append((time.perf_counter() - start) * 1000)
        index = LineIndex(text)
        build = timed(lambda text=text: LineIndex(text), repeat)
        edited = statistics.median(_time(lambda o=o, index=index: index.edited(o, o, "x")) for o in offsets)
        ts_parse = ts_inc = "-"
        if ts is not None:
            raw = text.encode()
            ts_parse = f"{timed(lambda raw=raw: ts.parse(raw), repeat):.1f}"
            tree = ts.parse(raw)
            inc = []
            for o, new in zip(offsets[:10], new_texts[:10], strict=True):
                b = len(text[:o].encode())
                row = raw.count(b"\n", 0, b)
                col = b - (raw.rfind(b"\n", 0, b) + 1)
                new_raw = new.encode()
                start = time.perf_counter()
                t2 = tree.copy()
                t2.edit(b, b, b + 1, (row, col), (row, col), (row, col + 1))
                ts.parse(new_raw, t2)
                inc.append((time.perf_counter() - start) * 1000)
            ts_inc = f"{statistics.median(inc):.1f}"
        print(f"| {n:,} | {len(text) / 1e6:.2f} MB | {loads:.1f} | {full:.1f} | {full_value:.1f} | {eager:.0f} | "
              f"{statistics.median(re_times):.2f} (p95 {_p95(re_times):.2f}) | {statistics.median(diff_times):.2f} | "
              f"{build:.1f} | {edited:.2f} | {ts_parse} | {ts_inc} |")
        del doc
        gc.collect()
    print()


def _time(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def limits_table(big_mb: int) -> None:
    from toolcast.adapters.document import ParsedDocument

    print("## Hostile input\n")
    print("| input | time (ms) | result |")
    print("|---|---:|---|")
    cases: dict[str, str] = {
        "10,000 × `[`…`]`": "[" * 10_000 + "]" * 10_000,
        '10,000 × `{"a":`…`}`': '{"a":' * 10_000 + "1" + "}" * 10_000,
        "10,000 × `[` unclosed": "[" * 10_000,
        "1 MB of `\"` `\\` `{` noise": ('"\\{' * 350_000),
    }
    if big_mb:
        tool = json.dumps({"name": "t", "description": "d" * 200, "parameters": {"type": "object", "properties": {
            f"p{i}": {"type": "string", "description": "x" * 40} for i in range(20)}}})
        count = big_mb * 1_000_000 // len(tool) + 1
        cases[f"{big_mb} MB tool list"] = "[" + ",\n".join([tool] * count) + "]"
        cases[f"{big_mb} MB string"] = '"' + "a" * (big_mb * 1_000_000) + '"'
    for name, text in cases.items():
        start = time.perf_counter()
        doc = ParsedDocument(text)
        _ = doc.value
        took = (time.perf_counter() - start) * 1000
        codes = sorted({e.code for e in doc.errors})
        print(f"| {name} | {took:.0f} | errors: {', '.join(codes) or 'none'} |")
        del doc
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("/tmp/tc-bench-data"))
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000, 5000])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--edits", type=int, default=30, help="one-character edits measured per file")
    ap.add_argument("--big", type=int, default=50, help="size in MB of the big-input rows (0: skip)")
    args = ap.parse_args()
    _import_toolcast()
    print(f"Python {sys.version.split()[0]}; {time.strftime('%Y-%m-%d')}\n")
    ts = tree_sitter()
    structure_table(ts)
    speed_table(data_files(args.data, args.sizes), args.repeat, ts, args.edits)
    limits_table(args.big)


if __name__ == "__main__":
    main()
