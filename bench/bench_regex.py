"""Benchmark (not a test): the engines toolcast could match users' patterns with, so that no pattern can hang it.

    .venv/bin/pip install google-re2   # to compare RE2 too (regex is a dependency of toolcast)
    .venv/bin/python bench/bench_regex.py

For ``re`` (what jsonschema uses), ``regex`` with ``timeout=`` and RE2 (google-re2): (1) hostile patterns
against a value of 40 characters they do not match, each run in a child process stopped after 5 s; (2)
every pattern of tests/corpus and of a set of ordinary tool-schema patterns, matched against the corpus's
strings: how many the engine refuses, how many answers differ from ``re``'s, the time per match; (3) the
cases where ``re``'s meaning and RE2's part. Figures: docs/design.md, "Dependencies and why each one"."""

from __future__ import annotations

import json
import multiprocessing
import re
import time
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus"
EVIL = "a" * 40 + "!"
HOSTILE = [r"^(a+)+$", r"^(a|aa)+$", r"^(a|a)*$", r"^(a*)*b$", r"(.*a){20}$", r"^(\w+\s?)*$", r"^((a+)+)+\1$"]
ORDINARY = [r"^[a-z0-9_-]{3,16}$", r"^\d{4}-\d{2}-\d{2}$", r"^[A-Z]{3}$", r"^https?://", r"^\+?[1-9]\d{1,14}$",
            r"^[^@\s]+@[^@\s]+\.[^@\s]+$", r"^(?=.*[A-Z])(?=.*\d).{8,}$", r"^(\w+)\s\1$", r"^[0-9a-f]{40}$",
            r"^\S+$", r"^(GET|POST|PUT|DELETE)$", r"\.json$", r"^[\p{L} ]+$"]
# Where the engines' meanings part: (pattern, text).
SEMANTICS = [(r"^\d+$", "١٢٣"), (r"^\w+$", "café"), (r"^a$", "a\n"), (r"^\s$", "\v"), (r"\bé", " é"),
             (r"^(?=a)a$", "a"), (r"^(a)\1$", "aa")]


def _engines() -> dict[str, Callable[[str], Callable[[str], bool]]]:
    import regex

    engines: dict[str, Callable[[str], Callable[[str], bool]]] = {
        "re": lambda p: (lambda c: lambda s: c.search(s) is not None)(re.compile(p)),
        "regex": lambda p: (lambda c: lambda s: c.search(s) is not None)(regex.compile(p)),
        "regex(timeout)": lambda p: (lambda c: lambda s: c.search(s, timeout=0.1) is not None)(regex.compile(p)),
    }
    if find_spec("re2") is not None:
        import re2

        options = re2.Options()
        options.log_errors = False
        engines["re2"] = lambda p: (lambda c: lambda s: c.search(s) is not None)(re2.compile(p, options))
    return engines


def _one(engine: str, pattern: str, text: str, out: Any) -> None:
    start = time.perf_counter()
    try:
        match = _engines()[engine](pattern)
        start = time.perf_counter()  # the match alone, not the import or the compilation
        answer: object = match(text)
    except TimeoutError:
        answer = "timeout"
    except Exception as exc:  # a pattern the engine refuses
        answer = f"refused ({type(exc).__name__})"
    out.put((answer, time.perf_counter() - start))


def hostile() -> None:
    print(f"1. hostile patterns against {EVIL[:5]}…! ({len(EVIL)} characters), a child process each, 5 s at most")
    engines = list(_engines())
    print(f"{'pattern':<18}" + "".join(f"{e:>26}" for e in engines))
    ctx = multiprocessing.get_context("fork")
    for pattern in HOSTILE:
        cells = []
        for engine in engines:
            queue: Any = ctx.Queue()
            proc = ctx.Process(target=_one, args=(engine, pattern, EVIL, queue))
            proc.start()
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join()
                cells.append("still running at 5 s")
            else:
                answer, seconds = queue.get()
                cells.append(f"{answer} {seconds * 1000:.2f} ms")
        print(f"{pattern:<18}" + "".join(f"{c:>26}" for c in cells))


def _strings(value: Any, into: list[str]) -> None:
    if isinstance(value, str):
        into.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            into.append(k)
            _strings(v, into)
    elif isinstance(value, list):
        for v in value:
            _strings(v, into)


def _patterns(value: Any, into: set[str]) -> None:
    if isinstance(value, dict):
        if isinstance(value.get("pattern"), str):
            into.add(value["pattern"])
        if isinstance(value.get("patternProperties"), dict):
            into.update(value["patternProperties"])
        for v in value.values():
            _patterns(v, into)
    elif isinstance(value, list):
        for v in value:
            _patterns(v, into)


def ordinary() -> None:
    strings: list[str] = []
    found: set[str] = set()
    for path in sorted(CORPUS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        _strings(data, strings)
        _patterns(data, found)
    texts = sorted({s for s in strings if len(s) <= 200})[:3000]
    patterns = sorted(found) + ORDINARY
    print(f"\n2. {len(found)} corpus patterns and {len(ORDINARY)} ordinary ones, against {len(texts)} corpus strings")
    reference: dict[str, list[bool]] = {}
    for name, make in _engines().items():
        refused, differ, matches, spent = [], 0, 0, 0.0
        for pattern in patterns:
            try:
                match = make(pattern)
            except Exception:
                refused.append(pattern)
                continue
            start = time.perf_counter()
            answers = [match(t) for t in texts]
            spent += time.perf_counter() - start
            matches += len(texts)
            if name == "re":
                reference[pattern] = answers
            elif pattern in reference:
                differ += sum(a != b for a, b in zip(answers, reference[pattern], strict=True))
        print(f"{name:<16} refuses {len(refused):>2} {refused}; answers unlike re's: {differ}; "
              f"{spent / max(matches, 1) * 1e6:.2f} µs a match")


def semantics() -> None:
    print("\n3. where the meanings part (True: matches)")
    engines = _engines()
    print(f"{'pattern':<14}{'text':<10}" + "".join(f"{e:>16}" for e in engines))
    for pattern, text in SEMANTICS:
        cells = []
        for make in engines.values():
            try:
                cells.append(str(make(pattern)(text)))
            except Exception:
                cells.append("refused")
        print(f"{pattern:<14}{text!r:<10}" + "".join(f"{c:>16}" for c in cells))


if __name__ == "__main__":
    hostile()
    ordinary()
    semantics()
