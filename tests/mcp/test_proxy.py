"""`toolcast proxy` as a host runs it: a real proxy process between the official Python MCP client and a real
server (the hostile test server; npm server-everything in test_proxy_everything.py). Calls round-trip with
the server receiving what its schema allows, everything else passes through, and faults end cleanly."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import mcp_types as mt
import pytest
from proxy_client import HOSTILE, proxied, proxy_argv, stderr_text

pytestmark = pytest.mark.timeout(300)
#: Bounds a whole test's session (a hang becomes a failure, never a stuck suite).
LIMIT = 120
FOR_GEMINI = ("--for", "gemini-cli", "--model", "gemini-2.5-pro", "--timeout", "60")


def served_name(tools: list[mt.Tool], description: str) -> str:
    return next(t.name for t in tools if t.description and t.description.startswith(description))


def received(calls: Path) -> list[dict[str, Any]]:
    if not calls.exists():
        return []
    return [json.loads(line) for line in calls.read_text(encoding="utf-8").splitlines()]


def test_calls_round_trip_and_the_server_gets_only_what_its_schema_allows(tmp_path: Path) -> None:
    calls = tmp_path / "calls.jsonl"
    log = tmp_path / "proxy.jsonl"

    async def scenario() -> None:
        env = {**os.environ, "HOSTILE_CALLS": str(calls)}
        with anyio.fail_after(LIMIT):
            async with proxied(*FOR_GEMINI, "--log", str(log), server=HOSTILE, env=env) as (session, errlog):
                tools = (await session.list_tools()).tools
                names = {t.name for t in tools}
                assert "lookup.by name" not in names and "either" not in names
                lookup = served_name(tools, "Find a record")
                ok = await session.call_tool(lookup, {"q": "ab", "limit": None})
                assert not ok.is_error
                bad = await session.call_tool(lookup, {"q": "a"})  # the server's minLength: 2
                assert bad.is_error and "/q" in bad.content[0].text  # type: ignore[union-attr]
                tree = served_name(tools, "Count the nodes")
                deep = {"root": {"label": "a", "children": [{"label": "b"}]}}
                assert not (await session.call_tool(tree, deep)).is_error
                unknown = await session.call_tool("no_such_tool", {})
                assert unknown.is_error
                for _ in range(600):  # the summary follows the token estimate, made beside serving
                    text = stderr_text(errlog)
                    if "serving " in text:
                        break
                    await anyio.sleep(0.1)
                assert "left out `either`" in text and "serving 149 of 150 tools of hostile" in text

    anyio.run(scenario)
    got = received(calls)
    assert got == [{"name": "lookup.by name", "arguments": {"q": "ab", "limit": None}},
                   {"name": "tree", "arguments": {"root": {"label": "a", "children": [{"label": "b"}]}}}]
    events = [json.loads(line)["event"] for line in log.read_text(encoding="utf-8").splitlines()]
    assert "loss" in events and "left_out" in events and "serving" in events and "call_rejected" in events


def test_progress_logging_resources_prompts_and_sampling_pass_through() -> None:
    progress: list[float] = []
    logs: list[Any] = []
    sampled: list[str] = []

    async def logging_callback(params: mt.LoggingMessageNotificationParams) -> None:
        logs.append(params.data)

    async def sampling_callback(context: Any, params: mt.CreateMessageRequestParams) -> mt.CreateMessageResult:
        sampled.append(params.messages[0].content.text)  # type: ignore[union-attr]
        return mt.CreateMessageResult(role="assistant", content=mt.TextContent(type="text", text="sampled!"),
                                      model="test")

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)

    async def scenario() -> None:
        with anyio.fail_after(LIMIT):
            async with proxied(*FOR_GEMINI, server=HOSTILE, logging_callback=logging_callback,
                               sampling_callback=sampling_callback) as (session, _):
                await session.call_tool("slow", {}, progress_callback=on_progress)
                asked = await session.call_tool("ask", {})
                assert json.loads(asked.content[0].text)["sampled"] == "sampled!"  # type: ignore[union-attr]
                read = await session.read_resource("hostile://note")
                assert read.contents[0].text == "read hostile://note"  # type: ignore[union-attr]
                assert [r.name for r in (await session.list_resources()).resources] == ["note"]
                prompt = await session.get_prompt("greet", {"who": "proxy"})
                assert prompt.messages[0].content.text == "hello proxy"  # type: ignore[union-attr]
                await session.send_ping()

    anyio.run(scenario)
    assert progress == [1, 2, 3]
    assert logs == ["step 1", "step 2", "step 3"]
    assert sampled == ["hello?"]


def test_a_changed_tool_list_is_lowered_again() -> None:
    changed = anyio.Event()

    async def message_handler(item: Any) -> None:
        if isinstance(item, mt.ToolListChangedNotification):
            changed.set()

    async def scenario() -> None:
        with anyio.fail_after(LIMIT):
            async with proxied(*FOR_GEMINI, server=HOSTILE, message_handler=message_handler) as (session, _):
                before = {t.name for t in (await session.list_tools()).tools}
                await session.call_tool("relist", {})
                await changed.wait()
                after = {t.name for t in (await session.list_tools()).tools}
                assert after - before == {"added.later"}

    anyio.run(scenario)


def test_a_cancelled_call_is_cancelled_at_the_server(tmp_path: Path) -> None:
    calls = tmp_path / "calls.jsonl"

    async def scenario() -> None:
        env = {**os.environ, "HOSTILE_CALLS": str(calls)}
        with anyio.fail_after(LIMIT):
            async with proxied(*FOR_GEMINI, server=HOSTILE, env=env) as (session, _):
                with anyio.move_on_after(3):
                    await session.call_tool("hang", {})
                for _ in range(100):  # the cancellation reaches the server through the proxy
                    if {"cancelled": "hang"} in received(calls):
                        break
                    await anyio.sleep(0.1)
                assert not (await session.call_tool("filler_000", {"n": 1})).is_error

    anyio.run(scenario)
    assert {"cancelled": "hang"} in received(calls)


def test_a_server_that_never_answers_gives_the_host_an_error_result() -> None:
    # Starting the server shares the timeout: a loaded machine needs more than a few seconds for it.
    async def scenario() -> None:
        with anyio.fail_after(LIMIT):
            async with proxied("--for", "gemini-cli", "--timeout", "10", server=HOSTILE) as (session, _):
                result = await session.call_tool("hang", {})
                assert result.is_error
                assert not (await session.call_tool("filler_001", {})).is_error

    anyio.run(scenario)


def _proxy_process(tmp_path: Path, *server: str) -> tuple[subprocess.Popen[bytes], Path]:
    err = tmp_path / "proxy.err"
    argv = proxy_argv("--for", "gemini-cli", "--timeout", "60", server=list(server) or HOSTILE)
    env = {**os.environ, "HOSTILE_PID": str(tmp_path / "server.pid")}
    with err.open("wb") as fh:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=fh, env=env,
                                start_new_session=True)
    return proc, err


def _send(proc: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()


def _answer(proc: subprocess.Popen[bytes], wanted: int) -> dict[str, Any]:
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        assert line, "the proxy closed its output"
        message: dict[str, Any] = json.loads(line)
        if message.get("id") == wanted:
            return message


def _initialize(proc: subprocess.Popen[bytes]) -> None:
    _send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}})
    assert "result" in _answer(proc, 1)
    _send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _stop(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


def test_a_host_that_disconnects_stops_the_server(tmp_path: Path) -> None:
    proc, _ = _proxy_process(tmp_path)
    try:
        _initialize(proc)
        pid = int((tmp_path / "server.pid").read_text())
        assert _alive(pid)
        assert proc.stdin is not None
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
        deadline = time.monotonic() + 30
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(pid)
    finally:
        _stop(proc)


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def test_a_server_that_floods_its_stderr_keeps_the_proxy_bounded(tmp_path: Path) -> None:
    proc, err = _proxy_process(tmp_path)
    try:
        _initialize(proc)
        before = _rss_mib(proc.pid)
        _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "flood", "arguments": {}}})
        assert not _answer(proc, 2)["result"].get("isError")
        _send(proc, {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                     "params": {"name": "filler_000", "arguments": {"n": 1}}})
        assert not _answer(proc, 3)["result"].get("isError")
        assert _rss_mib(proc.pid) - before < 50  # the 20 MB went to stderr, not into the proxy's memory
    finally:
        _stop(proc)
    assert err.stat().st_size > 20_000_000  # passed on to the host's log as it came


def test_a_server_that_crashes_mid_call_ends_the_proxy_with_one_line(tmp_path: Path) -> None:
    proc, err = _proxy_process(tmp_path)
    try:
        _initialize(proc)
        _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "crash", "arguments": {}}})
        answer = _answer(proc, 2)
        assert answer.get("result", {}).get("isError") or "error" in answer
        assert proc.wait(timeout=60) == 1
    finally:
        _stop(proc)
    text = err.read_text(encoding="utf-8")
    last = text.strip().splitlines()[-1]
    assert last.startswith("toolcast proxy: MCP server `") and "crashing now" in last, text
    assert "Traceback" not in text


@pytest.mark.parametrize(("server", "expected"), [
    (["/nonexistent/server"], "command not found"),
    ([sys.executable, "-c", "import sys; print('starting up', file=sys.stderr); sys.exit(4)"], "starting up"),
    ([sys.executable, "-c", "print('this is not JSON-RPC', flush=True); import time; time.sleep(60)"],
     "not MCP (JSON-RPC)"),
])
def test_a_server_that_cannot_start_is_one_line_and_exit_2(tmp_path: Path, server: list[str], expected: str) -> None:
    done = subprocess.run(proxy_argv("--for", "gemini-cli", "--timeout", "10", server=server), capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr
    # The server's own stderr is shown as it comes (hosts log it); the proxy's verdict is its one line.
    lines = [line for line in done.stderr.splitlines() if line.startswith("toolcast proxy:")]
    assert len(lines) == 1 and expected in lines[0] and done.stderr.strip().endswith(lines[0]), done.stderr
    assert "Traceback" not in done.stderr


def test_usage_errors_are_one_line() -> None:
    for argv, expected in (([], "give the server"), (["--for", "gemini-cly", "--", "x"], "unknown consumer"),
                           (["--for", "vscode", "--model", "llama-3", "--", "x"], "unknown model")):
        done = subprocess.run([sys.executable, "-m", "toolcast.server.cli", "proxy", *argv], capture_output=True,
                              text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert done.returncode == 2 and expected in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr


def test_dry_run_prints_what_would_be_served_and_exits() -> None:
    done = subprocess.run([*proxy_argv("--for", "gemini-cli", "--dry-run", "--format", "json", "--timeout", "60",
                                       server=HOSTILE)], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    assert plan["target"] == "gemini"
    assert {x["name"] for x in plan["left_out"]} == {"either"}
    assert len(plan["tools"]) == len(plan["served"]) == 149


def test_hosts_that_want_a_url_get_streamable_http(tmp_path: Path) -> None:
    from live_servers import free_port
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    port = free_port()
    err = tmp_path / "proxy.err"
    argv = proxy_argv("--for", "gemini-cli", "--listen", f"127.0.0.1:{port}", server=HOSTILE)
    with err.open("wb") as fh:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=fh,
                                start_new_session=True)

    async def scenario() -> None:
        with anyio.fail_after(LIMIT):
            while "listening on" not in err.read_text(encoding="utf-8"):
                assert proc.poll() is None, err.read_text(encoding="utf-8")
                await anyio.sleep(0.2)
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                tools = (await session.list_tools()).tools
                lookup = served_name(tools, "Find a record")
                answer = await session.call_tool(lookup, {"q": "over http"})
                assert json.loads(answer.content[0].text)["name"] == "lookup.by name"  # type: ignore[union-attr]

    try:
        anyio.run(scenario)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        finally:
            _stop(proc)
    assert "Traceback" not in err.read_text(encoding="utf-8")


def test_the_selection_can_live_in_toolcast_toml(tmp_path: Path) -> None:
    (tmp_path / "toolcast.toml").write_text('consumers = ["gemini-cli"]\nmodels = ["gemini-2.5-pro"]\n'
                                            'server_name = "h"\nmax_tools = 5\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "toolcast.server.cli", "proxy", "--dry-run", "--format", "json",
                           "--", *HOSTILE], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    assert plan["target"] == "gemini" and len(plan["served"]) == 5


def test_include_and_exclude_take_globs_repeated_or_comma_separated() -> None:
    done = subprocess.run(proxy_argv("--for", "gemini-cli", "--dry-run", "--format", "json", "--include",
                                     "filler_00*,tree", "--include", "lookup.*", "--exclude", "filler_000",
                                     server=HOSTILE), capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    served = {t["server_name"] for t in json.loads(done.stdout)["served"]}
    assert served == {f"filler_00{i}" for i in range(1, 10)} | {"tree", "lookup.by name"}
