"""Tool executables and MCP servers that leave processes behind, and MCP servers that write without end
on their standard error. Every descendant ends with toolcast, and what toolcast keeps of a server's
stderr is a bounded tail in memory (nothing growing on disk)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.adversarial.bounded import toolcast
from tests.adversarial.samples import TOOL

HOSTILE_MCP = str(Path(__file__).with_name("hostile_mcp.py"))

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux subreaper")


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie is not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rpartition(b")")[2].split()[0] != b"Z"
    except OSError:
        return False


def _gone_after(pid: int, limit: float = 5.0) -> bool:
    """Whether ``pid`` is gone within ``limit`` seconds (a limit, not a timing: init reaps asynchronously)."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


def _daemon_pid(report: Path) -> int:
    assert report.exists(), "the program did not start its daemon"
    return int(report.read_text())


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)


def _daemonising_executable(folder: Path, report: Path) -> Path:
    program = folder / "daemonising"
    program.write_text(f"#!{sys.executable}\n" + textwrap.dedent(f"""
        import json, os
        if os.fork() == 0:
            os.setsid()
            pid = os.fork()
            if pid == 0:
                null = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(null, fd)
                os.execvp("sleep", ["sleep", "300"])
            with open({str(report)!r}, "w") as fh:
                fh.write(str(pid))
            os._exit(0)
        os.wait()
        print(json.dumps({TOOL!r}))
    """), encoding="utf-8")
    program.chmod(0o755)
    return program


@pytest.mark.parametrize("how", ["exec", "exec-dir"])
def test_a_tool_executables_detached_grandchild_ends_with_toolcast(tmp_path: Path, how: str) -> None:
    report = tmp_path / "pid"
    program = _daemonising_executable(tmp_path, report)
    args = ("--exec", "--", str(program)) if how == "exec" else ("--exec-dir", str(tmp_path))
    out = toolcast("check", *args, timeout=60)
    pid = _daemon_pid(report)
    try:
        assert not out.timed_out, out
        assert "Traceback" not in out.stderr
        assert _gone_after(pid), f"the program's detached sleep {pid} outlived toolcast"
    finally:
        _kill(pid)


def test_an_mcp_servers_detached_grandchild_ends_with_toolcast(tmp_path: Path) -> None:
    report = tmp_path / "pid"
    out = toolcast("check", "--mcp", "--", sys.executable, HOSTILE_MCP, "daemon", str(report), timeout=60)
    pid = _daemon_pid(report)
    try:
        assert not out.timed_out, out
        assert out.returncode == 0, out
        assert _gone_after(pid), f"the server's detached sleep {pid} outlived toolcast"
    finally:
        _kill(pid)


def test_an_mcp_servers_endless_stderr_is_kept_as_a_tail_in_memory(tmp_path: Path) -> None:
    report = tmp_path / "stderr"
    out = toolcast("check", "--mcp", "--timeout", "3", "--", sys.executable, HOSTILE_MCP, "stderr", str(report),
                   timeout=60)
    assert not out.timed_out, out
    assert out.returncode == 2, out
    assert report.read_text() == "fifo", "the server's stderr was a file on disk"
    assert "no answer to initialize within 3 s; its stderr ends: " in out.stderr, out
    assert out.stderr.rstrip().endswith("last words"), out.stderr[-300:]
    assert out.peak_rss_mb < 200, out.peak_rss_mb


def test_an_mcp_server_listing_more_than_the_limit_is_an_error(tmp_path: Path) -> None:
    out = toolcast("check", "--mcp", "--format", "json", "--", sys.executable, HOSTILE_MCP, "huge", str(tmp_path / "r"),
                   timeout=120)
    assert not out.timed_out, out
    assert out.returncode == 1, out.stderr[-500:]
    findings = json.loads(out.stdout)
    assert [(f["code"], f["severity"]) for f in findings] == [("TC003", "error")], findings


def test_a_proxied_servers_detached_grandchild_ends_with_the_proxy(tmp_path: Path) -> None:
    """`toolcast proxy` in front of the same server: the host initializes, then goes away; the proxy stops the
    server and, with it, the sleep the server detached."""
    report = tmp_path / "pid"
    host = "".join(json.dumps(m) + "\n" for m in (
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"}))
    out = toolcast("proxy", "--for", "claude-code", "--timeout", "30", "--", sys.executable, HOSTILE_MCP, "daemon",
                   str(report), stdin=host, timeout=60)
    pid = _daemon_pid(report)
    try:
        assert not out.timed_out, out
        assert out.returncode == 0 and '"id":1' in out.stdout.replace(" ", ""), out  # answered, then the host left
        assert _gone_after(pid), f"the proxied server's detached sleep {pid} outlived toolcast proxy"
    finally:
        _kill(pid)
