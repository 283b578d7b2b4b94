"""`toolcast proxy` in front of PyPI's `mcp-server-git`, a real Python server, for every host profile: each tool
it would serve passes the SDK type and documented rules of the provider that host sends tools to, and through
the running proxy a call reaches the server and its answer comes back, while arguments the server's schema
rejects are answered by the proxy itself (never sent) as a tool error the model can read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from live_servers import pypi_servers
from proxy_client import proxied, proxy_argv, stderr_text
from toolcast.adapters.proxy_plan import HOST_DIALECTS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "convert"))
from sdk import VALIDATORS, check_documented_rules

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def _repository(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "a.txt").write_text("a\n", encoding="utf-8")
    return repo


def _as_sent(target: str, tool: dict[str, Any]) -> dict[str, Any]:
    """The served MCP tool as the host hands it to its provider (non-strict, as the hosts send MCP tools)."""
    name, description, schema = tool["name"], tool.get("description", ""), tool["inputSchema"]
    if target == "gemini":
        return {"name": name, "description": description,
                **({"parameters": schema} if schema != {"type": "object"} else {})}
    if target == "anthropic":
        return {"name": name, "description": description, "input_schema": schema}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": schema}}


@pytest.mark.parametrize("host", sorted(HOST_DIALECTS))
def test_every_tool_served_for_a_host_passes_its_providers_rules(tmp_path: Path, host: str) -> None:
    server = [str(pypi_servers() / "mcp-server-git"), "--repository", str(_repository(tmp_path))]
    done = subprocess.run(proxy_argv("--for", host, "--dry-run", "--format", "json", "--timeout", "120",
                                     server=server), capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    assert plan["target"] == HOST_DIALECTS[host]
    assert len(plan["tools"]) >= 10 and not plan["left_out"], plan["left_out"]
    for tool in plan["tools"]:
        sent = _as_sent(plan["target"], tool)
        VALIDATORS[plan["target"]](sent)
        check_documented_rules(plan["target"], False, sent)


def test_calls_through_the_proxy_reach_mcp_server_git(tmp_path: Path) -> None:
    repo = _repository(tmp_path)
    server = [str(pypi_servers() / "mcp-server-git"), "--repository", str(repo)]
    answers: dict[str, Any] = {}

    async def scenario() -> None:
        with anyio.fail_after(300):
            async with proxied("--for", "gemini-cli", "--timeout", "120", server=server) as (session, errlog):
                names = {tool.name for tool in (await session.list_tools()).tools}
                assert "git_status" in names, stderr_text(errlog)
                answers["status"] = await session.call_tool("git_status", {"repo_path": str(repo)})
                answers["missing"] = await session.call_tool("git_status", {})

    anyio.run(scenario)
    status, missing = answers["status"], answers["missing"]
    assert not status.is_error
    assert "a.txt" in " ".join(getattr(c, "text", "") for c in status.content)  # the server's own answer
    refusal = " ".join(getattr(c, "text", "") for c in missing.content)
    assert missing.is_error and "do not match the tool's schema" in refusal and "repo_path" in refusal, refusal
