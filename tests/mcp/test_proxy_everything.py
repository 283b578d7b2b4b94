"""`toolcast proxy --for gemini-cli -- node …/server-everything stdio`: every tool served passes Gemini's
`parameters` rules (the google-genai SDK type and the documented rules), and a call of each tool with
arguments valid for the served schema reaches the server valid for its own schema (the proxy validated it
against the server's schema; the server never answers "invalid params"). Where lowering widened a tool's
schema (a format stated in the description only), the proxy refuses what the server's schema rejects, with
a message the model can read, instead of sending it."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as mt
import pytest
from live_servers import everything_http, free_port, npm_everything, npm_inspector
from proxy_client import HOSTILE, minimal_arguments, proxied, proxy_argv, stderr_text
from test_proxy_plan import as_gemini

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "convert"))
from sdk import VALIDATORS, check_documented_rules

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]
REFUSED = "do not match the tool's schema"
#: Arguments beyond the required ones, where a default would reach the network (none at test time).
EXTRA = {"gzip-file-as-resource": {"data": "data:text/plain;base64,aGVsbG8="}}


def test_everything_for_gemini_cli_serves_valid_tools_and_calls_reach_the_server_valid(tmp_path: Path) -> None:
    log = tmp_path / "proxy.jsonl"
    node = shutil.which("node") or "node"
    server = [node, str(npm_everything() / "dist" / "index.js"), "stdio"]

    async def sampling(context: Any, params: mt.CreateMessageRequestParams) -> mt.CreateMessageResult:
        return mt.CreateMessageResult(role="assistant", content=mt.TextContent(type="text", text="ok"), model="t")

    async def elicitation(context: Any, params: Any) -> mt.ElicitResult:
        return mt.ElicitResult(action="decline")

    async def roots(context: Any) -> mt.ListRootsResult:
        return mt.ListRootsResult(roots=[])

    outcomes: dict[str, str] = {}

    async def scenario() -> None:
        with anyio.fail_after(900):
            async with proxied("--for", "gemini-cli", "--timeout", "120", "--log", str(log), server=server,
                               sampling_callback=sampling, elicitation_callback=elicitation,
                               list_roots_callback=roots) as (session, errlog):
                tools = (await session.list_tools()).tools
                assert len(tools) >= 13, stderr_text(errlog)
                for tool in tools:
                    served = tool.model_dump(mode="json", by_alias=True, exclude_none=True)
                    declaration = as_gemini(served)
                    VALIDATORS["gemini"](declaration)
                    check_documented_rules("gemini", False, declaration)
                    arguments = {**minimal_arguments(served["inputSchema"]), **EXTRA.get(tool.name, {})}
                    try:
                        result = await session.call_tool(tool.name, arguments)
                    except Exception as exc:  # an error answer (the server's own, passed on)
                        outcomes[tool.name] = f"error: {exc}"
                        continue
                    text = " ".join(getattr(c, "text", "") for c in result.content)
                    outcomes[tool.name] = f"{'tool error: ' if result.is_error else ''}{text[:200]}"

    anyio.run(scenario)
    invalid = {name: text for name, text in outcomes.items() if "-32602" in text or "invalid arguments" in text.lower()}
    assert not invalid, invalid
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    widened = {e["tool"] for e in events if e["event"] == "loss" and e["effect"] == "widening"}
    refused = {name for name, text in outcomes.items() if REFUSED in text}
    assert refused <= widened, (refused, widened)
    assert len(outcomes) - len(refused) >= 13


def test_a_streamable_http_server_is_proxied_to_stdio() -> None:
    port = free_port()

    async def scenario() -> None:
        with anyio.fail_after(600):
            async with proxied("--for", "gemini-cli", "--mcp-url", f"http://127.0.0.1:{port}/mcp", "--timeout", "120",
                               server=[]) as (session, errlog):
                tools = {t.name: t for t in (await session.list_tools()).tools}
                assert "echo" in tools, stderr_text(errlog)
                result = await session.call_tool("echo", {"message": "over http"})
                assert not result.is_error and "over http" in result.content[0].text  # type: ignore[union-attr]
                bad = await session.call_tool("get-sum", {"a": 1})
                assert bad.is_error and REFUSED in bad.content[0].text  # type: ignore[union-attr]

    with everything_http(port):
        anyio.run(scenario)


def test_the_mcp_inspector_cli_lists_and_calls_through_the_proxy(tmp_path: Path) -> None:
    inspector = npm_inspector()
    # The Inspector reads options among the server's words: the proxy's command line goes in a script.
    script = tmp_path / "proxy.sh"
    script.write_text("#!/bin/sh\nexec " + " ".join(shlex.quote(w) for w in proxy_argv(
        "--for", "gemini-cli", server=HOSTILE)) + "\n", encoding="utf-8")
    script.chmod(0o755)

    def inspect(*method: str) -> dict[str, Any]:
        done = subprocess.run([str(inspector), "--cli", str(script), *method], capture_output=True, text=True,
                              timeout=300, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stdout + done.stderr
        found: dict[str, Any] = json.loads(done.stdout)
        return found

    names = {t["name"] for t in inspect("--method", "tools/list")["tools"]}
    assert "lookup.by_name" in names and "lookup.by name" not in names
    ok = inspect("--method", "tools/call", "--tool-name", "lookup.by_name", "--tool-arg", "q=abc")
    assert json.loads(ok["content"][0]["text"]) == {"name": "lookup.by name", "arguments": {"q": "abc"}}
    refused = inspect("--method", "tools/call", "--tool-name", "lookup.by_name", "--tool-arg", "q=a")
    assert refused["isError"] and REFUSED in refused["content"][0]["text"]
