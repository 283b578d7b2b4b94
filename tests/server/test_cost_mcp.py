"""`toolcast check --mcp` ends with the server's token cost per request for each target (a real MCP server
written with the SDK, tests/mcp/sdk_server.py), and it is the cost of the same tools as a snapshot file."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "mcp"))
from live_cli import SDK_SERVER, TIMEOUT, toolcast


def test_mcp_check_prints_the_servers_cost_and_it_equals_its_snapshots(tmp_path: Path) -> None:
    (tmp_path / "toolcast.toml").write_text('targets = ["openai", "anthropic", "gemini"]\n', encoding="utf-8")
    live = toolcast("check", "--timeout", TIMEOUT, "--mcp", "--", *SDK_SERVER, cwd=tmp_path)
    assert live.returncode in (0, 1), live.stderr
    line = next(x for x in live.stdout.splitlines() if x.startswith("mcp:toolcast-test-server: "))
    assert line.startswith("mcp:toolcast-test-server: 4 tool(s), tokens per request (estimate): openai ≈ ")
    totals = dict(re.findall(r"(\w[\w-]*) ≈ ([\d,]+)", line))
    assert set(totals) == {"openai", "anthropic", "gemini"}
    snap = tmp_path / "server.tools.json"
    done = toolcast("snapshot", "--timeout", TIMEOUT, "--out", str(snap), "--mcp", "--", *SDK_SERVER, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    as_file = toolcast("check", "--cost", "--format", "json", str(snap), cwd=tmp_path)
    (file,) = json.loads(as_file.stdout)["costs"]["files"]
    assert {k: f"{v:,}" for k, v in file["total"].items()} == totals
    # JSON for the server carries the same with --cost.
    js = toolcast("check", "--cost", "--format", "json", "--timeout", TIMEOUT, "--mcp", "--", *SDK_SERVER, cwd=tmp_path)
    (server,) = json.loads(js.stdout)["costs"]["files"]
    assert server["path"] == "mcp:toolcast-test-server" and server["total"] == file["total"]
    assert [t["name"] for t in server["tools"]] == ["count_nodes", "get_weather", "ping", "register_person"]
