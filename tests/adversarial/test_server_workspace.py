"""The language server's workspace index against a hostile checkout: tool files that are devices, FIFOs
or its own standard input, and many large closed tool files. The real server over stdio, capped."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.adversarial.lsp_probe import capped_server, initialize_and_index, peak_rss_mb
from tests.adversarial.samples import TOOL, checkout


def test_tool_files_that_are_not_files_are_skipped_and_named(tmp_path: Path) -> None:
    tools = checkout(tmp_path)
    (tools / "zero.json").symlink_to("/dev/zero")
    (tools / "stdin.json").symlink_to("/dev/stdin")  # the server's own LSP input
    os.mkfifo(tools / "fifo.json")
    server = capped_server()
    try:
        logs = initialize_and_index(server, tmp_path)
        said = "\n".join(m["message"] for m in logs)
        for name in ("zero.json", "stdin.json", "fifo.json"):
            assert f"{tools / name}: not a regular file" in said, said
        assert peak_rss_mb(server) < 300
    finally:
        code = server.close()  # shutdown answered: still serving
    assert code == 0, b"".join(server.stderr).decode(errors="replace")[-2000:]


def test_the_index_keeps_no_text_of_large_closed_files(tmp_path: Path) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    padding = "x" * 15_000_000
    for i in range(12):  # 180 MB of closed tool files, each under the index's 20 MB limit
        tool = dict(TOOL, name=f"t{i}", description=padding)
        (tools / f"t{i}.tool.json").write_text(json.dumps(tool), encoding="utf-8")
    server = capped_server()
    try:
        initialize_and_index(server, tmp_path, timeout=120)
        rss = int(next(line.split()[1] for line in Path(f"/proc/{server.proc.pid}/status").read_text().splitlines()
                       if line.startswith("VmRSS"))) / 1024
        assert rss < 150, f"{rss:.0f} MB resident after indexing 180 MB of closed files"
    finally:
        server.close()
