"""A server that cannot be started, exits at once, never answers or does not speak MCP: one error line
with its stderr tail, exit 2, a bounded wait, and no process left behind."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from live_cli import toolcast
from live_servers import free_port


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert done.stdout == ""
    return lines[0]


def gone(pid: int) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        stat = Path(f"/proc/{pid}/stat")
        if stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z":
            return True  # dead, waiting for its (new) parent to reap it
        time.sleep(0.1)
    return False


def test_command_not_found(tmp_path: Path) -> None:
    line = one_line(toolcast("check", "--mcp", "--", "no-such-mcp-server-xyz", "--flag", cwd=tmp_path))
    assert line == ("toolcast check: MCP server `no-such-mcp-server-xyz --flag`: command not found: "
                    "no-such-mcp-server-xyz")


def test_server_that_exits_at_once_shows_its_stderr(tmp_path: Path) -> None:
    script = tmp_path / "dies.py"
    script.write_text("import sys\nprint('starting', file=sys.stderr)\n"
                      "print('error: MCP_TOKEN is not set', file=sys.stderr)\nsys.exit(3)\n")
    line = one_line(toolcast("snapshot", "--mcp", "--", sys.executable, str(script), cwd=tmp_path))
    assert line.startswith(f"toolcast snapshot: MCP server `{sys.executable} "), line  # long commands are cut
    assert "`: the server closed the connection before it answered (did it exit?)" in line
    assert line.endswith("; its stderr ends: starting | error: MCP_TOKEN is not set")


def test_server_that_never_answers_times_out_and_is_killed(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    script = tmp_path / "hangs.py"
    script.write_text("import os, signal, sys, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                      f"open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
                      "print('listening (not really)', file=sys.stderr, flush=True)\ntime.sleep(600)\n")
    started = time.monotonic()
    line = one_line(toolcast("check", "--timeout", "3", "--mcp", "--", sys.executable, str(script), cwd=tmp_path,
                             timeout=120))
    assert time.monotonic() - started < 90
    assert "no answer to initialize within 3 s; its stderr ends: listening (not really)" in line
    assert gone(int(pid_file.read_text())), "the server survived toolcast"


def test_server_that_writes_something_else_than_json_rpc(tmp_path: Path) -> None:
    script = tmp_path / "chatty.py"
    script.write_text("import time\nprint('Welcome to my server!', flush=True)\ntime.sleep(600)\n")
    line = one_line(toolcast("convert", "--to", "openai", "--mcp", "--", sys.executable, str(script), cwd=tmp_path))
    assert "wrote something that is not MCP (JSON-RPC) during initialize" in line
    assert "'Welcome to my server!'" in line


def test_url_where_nothing_listens(tmp_path: Path) -> None:
    port = free_port()
    line = one_line(toolcast("check", "--timeout", "20", "--mcp-url", f"http://127.0.0.1:{port}/mcp", cwd=tmp_path))
    assert line.startswith(f"toolcast check: MCP server `http://127.0.0.1:{port}/mcp`: cannot connect")


@pytest.mark.parametrize(("argv", "message"), [
    (("check", "--mcp"), "--mcp needs the server command after `--`"),
    (("check", "--mcp-url", "localhost:3000"), "--mcp-url needs an http:// or https:// URL"),
    (("check", "--mcp-url", "http://127.0.0.1:1/mcp", "--mcp", "--", "x"),
     "give one source of tools, not --mcp and --mcp-url"),
    (("check",), "give tool files or folders, or a server"),
    (("check", "examples", "--mcp", "--", "x"), "give tool files, a server (--mcp / --mcp-url) or tool executables"),
    (("convert", "f.json", "--to", "openai", "--mcp", "--", "x"), "give a tool file, a server"),
    (("convert", "--to", "openai"), "give a tool file (- for standard input), or a server"),
    (("snapshot",), "give a server"),
    (("check", "--timeout", "0", "--mcp", "--", "x"), "--timeout must be a positive number"),
])
def test_usage_errors(tmp_path: Path, argv: tuple[str, ...], message: str) -> None:
    assert message in one_line(toolcast(*argv, cwd=tmp_path))


def test_missing_sdk_is_one_line_with_the_extra_to_install(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['mcp'] = None\nfrom toolcast.server.cli import main\n"
            "sys.exit(main(['check', '--mcp', '--', 'whatever']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert one_line(done) == "toolcast check: the MCP client is not installed: pip install 'toolcast[mcp]'"


def test_checking_files_does_not_import_the_mcp_client(tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parents[2] / "examples"
    code = ("import sys\nfrom toolcast.server.cli import main\ncode = main(['check', '--no-progress', "
            f"{str(examples)!r}])\nprint(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', "
            "'toolcast.server.mcp_source'))))\nsys.exit(code)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


PAGED = [sys.executable, str(Path(__file__).resolve().parent / "paged_server.py")]


def test_every_page_of_tools_list_is_read(tmp_path: Path) -> None:
    done = toolcast("check", "--target", "openai", "--mcp", "--", *PAGED, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "25 tool(s) of MCP server paged checked: 0 error(s), 25 other finding(s)" in done.stderr
    assert "mcp:paged/tool_24#/inputSchema/properties/link/format: TC502 " in done.stdout


def test_a_cursor_that_comes_back_is_an_error_not_a_loop(tmp_path: Path) -> None:
    line = one_line(toolcast("check", "--mcp", "--", *PAGED, "loop", cwd=tmp_path))
    assert line.endswith("`: tools/list returned the cursor '10' twice")


def test_a_server_without_tools(tmp_path: Path) -> None:
    done = toolcast("snapshot", "--mcp", "--", *PAGED, "notools", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == '{\n  "tools": []\n}\n'


def test_errors_in_a_servers_tools_exit_1_as_for_a_file(tmp_path: Path) -> None:
    done = toolcast("check", "--format", "github", "--mcp", "--", *PAGED, "bad", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "::error title=" in done.stdout and "::mcp:paged/broken#/inputSchema/properties/x/type: " in done.stdout
