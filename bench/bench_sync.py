"""Benchmark (not a test): incremental text sync under a burst of changes, as issue 13 measures it.

    python3 ../shared/bench/gen.py --out /tmp/tc-bench-data
    .venv/bin/python bench/bench_sync.py --file /tmp/tc-bench-data/tools-1000.tool.json --changes 10000

Starts the real server (``toolcast serve`` plus the test-only ``toolcast.test.documentText`` command of
tests/server/hook_server.py), opens the file, waits for its complete diagnostics, then writes N
one-character ``didChange`` notifications (random lines, UTF-16 columns, inserts and deletes) as fast as
the pipe takes them and waits for the diagnostics of the last version. Prints the time to send, the
time from the last change to its diagnostics, the total, the server's CPU time per change, and checks
that the server's text equals the client's (the edits are replayed on the client's copy).

``--in-process`` also times ``Document.apply`` alone (the server's share of one change, no I/O).
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "server"))
from raw_rpc import HOOK_SERVER, Raw  # noqa: E402 - the tests' raw JSON-RPC client and hook server


def _frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message, ensure_ascii=False).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _cpu(raw: Raw) -> float:
    """The server's user + system CPU seconds (clock ticks of 10 ms)."""
    fields = Path(f"/proc/{raw.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def changes(uri: str, text: str, count: int, seed: int) -> tuple[list[bytes], str]:
    """``count`` didChange frames (versions 2..count+1) and the text after them, edits replayed here."""
    rng = random.Random(seed)
    lines = text.split("\n")  # gen.py writes LF only
    frames = []
    for version in range(2, count + 2):
        n = rng.randrange(len(lines))
        line = lines[n]
        if line and rng.random() < 0.5:  # delete one code point
            col = rng.randrange(len(line))
            units_a = _utf16(line[:col])
            units_b = units_a + _utf16(line[col])
            lines[n] = line[:col] + line[col + 1:]
            rng_ = {"start": {"line": n, "character": units_a}, "end": {"line": n, "character": units_b}}
            new = ""
        else:
            col = rng.randrange(len(line) + 1)
            units_a = _utf16(line[:col])
            new = rng.choice("xé😀 ")
            lines[n] = line[:col] + new + line[col:]
            rng_ = {"start": {"line": n, "character": units_a}, "end": {"line": n, "character": units_a}}
        frames.append(_frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": rng_, "text": new}]}}))
    return frames, "\n".join(lines)


def _is_publish(version: int | None = None) -> Any:
    return lambda m: m.get("method") == "textDocument/publishDiagnostics" and (
        version is None or m["params"].get("version") == version)


def run(path: Path, count: int, seed: int) -> None:
    text = path.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as root:
        doc = Path(root) / path.name
        doc.write_text(text, encoding="utf-8")
        uri = doc.as_uri()
        frames, expected = changes(uri, text, count, seed)
        server = Raw(HOOK_SERVER)
        try:
            started = time.monotonic()
            server.initialize(Path(root))
            server.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "json", "version": 1, "text": text}})
            server.wait(_is_publish(1), 300)
            # The complete check publishes again for version 1; wait for quiet.
            while True:
                try:
                    server.wait(_is_publish(), 3)
                except (queue.Empty, TimeoutError):
                    break
            opened = time.monotonic() - started
            cpu0 = _cpu(server)
            t0 = time.monotonic()
            stdin = server.proc.stdin
            assert stdin is not None
            stdin.write(b"".join(frames))
            stdin.flush()
            sent = time.monotonic() - t0
            last = server.wait(_is_publish(count + 1), 600)
            total = time.monotonic() - t0
            cpu = _cpu(server) - cpu0
            rid = server.request("workspace/executeCommand", {"command": "toolcast.test.documentText",
                                                              "arguments": [uri]})
            same = server.response(rid, 60).get("result") == expected
            print(f"file: {path.name} ({len(text):,} code points); opened and checked in {opened:.1f} s")
            print(f"{count:,} changes: sent in {sent:.2f} s, last change -> its diagnostics "
                  f"{total - sent:.2f} s, total {total:.2f} s; server CPU {cpu:.2f} s "
                  f"({cpu / count * 1000:.2f} ms per change); {len(last['params']['diagnostics'])} diagnostics")
            print(f"server text equals the client's: {same}")
            if not same:
                raise SystemExit(1)
        finally:
            server.close()


def in_process(path: Path, count: int, seed: int) -> None:
    from toolcast.server.lsp.documents import Document

    text = path.read_text(encoding="utf-8")
    frames, expected = changes("file:///bench.tool.json", text, count, seed)
    parsed = [json.loads(f.split(b"\r\n\r\n", 1)[1])["params"]["contentChanges"][0] for f in frames]

    def ns(value: Any) -> Any:
        return SimpleNamespace(**{k: ns(v) for k, v in value.items()}) if isinstance(value, dict) else value

    objs = [ns(c) for c in parsed]
    doc = Document("file:///bench.tool.json", text, 1)
    t0 = time.perf_counter()
    for version, change in enumerate(objs, 2):
        doc.apply([change], version, "utf-16")
    took = time.perf_counter() - t0
    print(f"in process: Document.apply {took / count * 1000:.3f} ms per change over {count:,} changes; "
          f"text right: {doc.text == expected}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", type=Path, required=True)
    ap.add_argument("--changes", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--in-process", action="store_true")
    args = ap.parse_args()
    if args.in_process:
        in_process(args.file, args.changes, args.seed)
    run(args.file, args.changes, args.seed)


if __name__ == "__main__":
    main()
