"""`toolcast check --mcp-config FILE` through the real CLI, with real servers: the SDK server of
sdk_server.py (started several times under different names) and the hand-written paged server, from the
configuration file of each host (VS Code, Claude Code, Cursor, Gemini CLI): every server the host loads,
checked as one request, a server that cannot start named with its reason while the others are checked."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from live_cli import HERE, TIMEOUT, toolcast
from live_servers import free_port, sdk_http
from toolcast.adapters.consumers import consumer

PY = sys.executable
SDK = str(HERE / "sdk_server.py")
PAGED = str(HERE / "paged_server.py")
SDK_TOOLS = {"count_nodes", "get_weather", "ping", "register_person"}

pytestmark = pytest.mark.timeout(600)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _check(config: Path, *extra: str, cwd: Path, env: dict[str, str] | None = None) -> Any:
    return toolcast("check", "--format", "json", "--timeout", TIMEOUT, "--mcp-config", str(config), *extra, cwd=cwd,
                    **({"env": env} if env else {}))


def _records(done: Any) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = json.loads(done.stdout)
    return records


def _codes_at(records: list[dict[str, Any]], code: str) -> dict[str, str]:
    return {r["location"]: r["message"] for r in records if r["code"] == code}


def test_vscode_two_servers_one_name_and_a_prompted_input(tmp_path: Path) -> None:
    """Two SDK servers under two names: each tool name is listed by both, so TC206 names the other server;
    `${workspaceFolder}` is expanded; a server needing `${input:…}` is named with the placeholder, never asked,
    and the two others are still checked (exit 2: not every server could be)."""
    (tmp_path / "srv").mkdir()
    (tmp_path / "srv" / "server.py").symlink_to(SDK)
    config = _write(tmp_path / ".vscode" / "mcp.json", f"""// JSONC, as VS Code writes it
{{
  "inputs": [{{"type": "promptString", "id": "token", "password": true}}],
  "servers": {{
    "weather": {{"type": "stdio", "command": {json.dumps(PY)}, "args": [{json.dumps(SDK)}]}},
    "forecast": {{"command": {json.dumps(PY)}, "args": ["${{workspaceFolder}}/srv/server.py"]}},
    "secret": {{"type": "stdio", "command": {json.dumps(PY)}, "env": {{"TOKEN": "${{input:token}}"}}}},
  }},
}}
""")
    done = _check(config, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "server 'secret': cannot be started: `${input:token}` is a value VS Code prompts for" in done.stderr
    dup = _codes_at(_records(done), "TC206")
    assert set(dup) == {f"mcp:{s}/{t}" for s in ("weather", "forecast") for t in SDK_TOOLS}
    rule = next(r for r in consumer("vscode").rules if r.kind == "duplicate_names")
    assert dup["mcp:weather/ping"] == ("tool name 'ping' is also listed by server 'forecast'; VS Code (Copilot "
                                       f"agent mode) sends each server's as `mcp_<server>_ping`: {rule.message} "
                                       f"[{rule.cite()}]")
    assert dup["mcp:forecast/ping"].startswith("tool name 'ping' is also listed by server 'weather'; VS Code")


def test_claude_code_prefix_with_the_entry_name_and_unset_variable(tmp_path: Path) -> None:
    """Claude Code's `mcp__<server>__<tool>` is measured with the entry's name (not the name the server
    reports); `${VAR:-default}` takes the default; an unset `${VAR}` makes its server not startable. A server
    starts in the project folder (a relative path in its arguments is read from there), wherever toolcast runs."""
    long_name = "a-server-name-long-enough-for-claude-code-prefixes"  # 50 characters
    (tmp_path / "srv.py").symlink_to(SDK)
    (tmp_path / "elsewhere").mkdir()
    config = _write(tmp_path / ".mcp.json", json.dumps({"mcpServers": {
        long_name: {"command": PY, "args": ["${SDK_PATH:-srv.py}"]},
        "needs-key": {"command": PY, "args": [SDK], "env": {"KEY": "${TOOLCAST_TEST_UNSET_KEY}"}},
    }}))
    env = {k: v for k, v in os.environ.items() if k not in ("SDK_PATH", "TOOLCAST_TEST_UNSET_KEY")}
    done = _check(config, "--select", "TC903", cwd=tmp_path / "elsewhere", env=env)
    assert done.returncode == 2, done.stderr
    assert ("server 'needs-key': cannot be started: `${TOOLCAST_TEST_UNSET_KEY}` is not set in this environment"
            in done.stderr)
    long_names = _codes_at(_records(done), "TC903")
    # mcp__ + 50 + __ + the tool's name: over 64 for the three tools of 11 characters or more, not for ping.
    assert set(long_names) == {f"mcp:{long_name}/{tool}#/name" for tool in ("register_person", "count_nodes",
                                                                          "get_weather")}
    assert f"`mcp__{long_name}__register_person`" in long_names[f"mcp:{long_name}/register_person#/name"]


def test_cursor_tool_limit_over_all_servers(tmp_path: Path) -> None:
    """Cursor sends the first 40 tools of all its servers: two servers of 25 tools each are within the limit
    alone and over it together, so the finding is on the 41st tool, the second server's 16th. `${env:…}`
    reads the environment."""
    config = _write(tmp_path / ".cursor" / "mcp.json", json.dumps({"mcpServers": {
        "one": {"command": PY, "args": [PAGED]},
        "two": {"command": "${env:TOOLCAST_TEST_PYTHON}", "args": [PAGED]},
    }}))
    done = _check(config, "--select", "TC902,TC206", cwd=tmp_path, env={**os.environ, "TOOLCAST_TEST_PYTHON": PY})
    assert done.returncode == 0, done.stderr  # Cursor's limit is unclear: a warning
    records = _records(done)
    limit = [r for r in records if r["code"] == "TC902"]
    assert [(r["location"], r["severity"]) for r in limit] == [("mcp:two/tool_15", "warning")]
    assert limit[0]["message"].startswith("Cursor: 50 tools (at most 40; this is tool 41)")
    assert len(_codes_at(records, "TC206")) == 50
    # Each server alone is within the limit: no finding with one of them.
    single = _write(tmp_path / "single" / ".cursor" / "mcp.json", json.dumps({"mcpServers": {
        "one": {"command": PY, "args": [PAGED]}}}))
    alone = _check(single, "--select", "TC902", cwd=tmp_path)
    assert alone.returncode == 0 and _records(alone) == [], alone.stderr


def test_gemini_cli_filters_transports_and_renames(tmp_path: Path) -> None:
    """Gemini CLI's settings: `httpUrl` is a streamable HTTP server (here the SDK server over HTTP), `url`
    an SSE one (not read: named with the reason), `includeTools`/`excludeTools` keep part of a server's
    tools, `mcp.excluded` leaves a server out, `$VAR` reads the environment; a name two servers list is
    given to the first and renamed for the other."""
    port = free_port()
    config = _write(tmp_path / ".gemini" / "settings.json", json.dumps({
        "theme": "Default",
        "mcp": {"excluded": ["left-out"]},
        "mcpServers": {
            "local": {"command": "$TOOLCAST_TEST_PYTHON", "args": [SDK], "excludeTools": ["count_nodes"],
                      "trust": True, "cwd": str(tmp_path)},
            "remote": {"httpUrl": f"http://127.0.0.1:{port}/mcp",
                       "includeTools": ["ping", "get_weather", "count_nodes"]},
            "events": {"url": f"http://127.0.0.1:{port}/sse"},
            "left-out": {"command": "/no/such/server"},
        }}))
    with sdk_http(port):
        done = _check(config, "--select", "TC206", cwd=tmp_path, env={**os.environ, "TOOLCAST_TEST_PYTHON": PY})
    assert done.returncode == 2, done.stderr
    assert "server 'events': cannot be started: an SSE server" in done.stderr
    assert "server 'left-out' is not loaded by the host (listed in `mcp.excluded`); not checked" in done.stderr
    dup = _codes_at(_records(done), "TC206")
    assert set(dup) == {"mcp:local/ping", "mcp:local/get_weather", "mcp:remote/ping", "mcp:remote/get_weather"}
    # What Gemini CLI does with the name is its profile's duplicate-names rule, quoted with its sources.
    rule = next(r for r in consumer("gemini-cli").rules if r.kind == "duplicate_names")
    assert dup["mcp:remote/ping"] == ("tool name 'ping' is also listed by server 'local'; Gemini CLI sends each "
                                      f"server's as `mcp_<server>_ping`: {rule.message} [{rule.cite()}]")
    assert dup["mcp:local/ping"].startswith("tool name 'ping' is also listed by server 'remote'; Gemini CLI sends")


def test_claude_user_file_loads_the_project_entry(tmp_path: Path) -> None:
    """`~/.claude.json`: the user's servers and those of the project toolcast runs in (its entry wins over
    a user server of the same name); another project's servers are not loaded, so they share no name."""
    project = tmp_path / "project"
    project.mkdir()
    config = _write(tmp_path / "home" / ".claude.json", json.dumps({
        "mcpServers": {"shared": {"command": "/no/such/user/server"}},
        "projects": {
            str(project.resolve()): {"mcpServers": {"shared": {"command": PY, "args": [PAGED]}}},
            str(tmp_path / "elsewhere"): {"mcpServers": {"other": {"command": PY, "args": [PAGED]}}},
        }}))
    done = toolcast("check", "--select", "TC206", "--mcp-config", str(config), cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ("25 tool(s) of 1 server(s) in " + str(config) + " checked for Claude Code (read as "
                                   "Claude Code ~/.claude.json; its host): 0 error(s), 0 other finding(s)")


def test_failing_server_is_named_and_the_others_checked(tmp_path: Path) -> None:
    """A server that exits at once is reported with its stderr, and the request is still checked."""
    config = _write(tmp_path / ".mcp.json", json.dumps({"mcpServers": {
        "crashes": {"command": PY,
                    "args": ["-c", "import sys; print('boom: no config', file=sys.stderr); sys.exit(3)"]},
        "works": {"command": PY, "args": [PAGED, "bad"]},
    }}))
    done = toolcast("check", "--timeout", TIMEOUT, "--mcp-config", str(config), cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    failure = [line for line in done.stderr.splitlines() if "server 'crashes'" in line]
    assert len(failure) == 1 and "boom: no config" in failure[0], done.stderr
    assert "mcp:works/broken#/inputSchema/properties/x/type" in done.stdout  # the other server's error
    assert (f"1 tool(s) of 1 server(s) in {config} checked for Claude Code (read as Claude Code .mcp.json; its "
            "host); 1 server(s) not checked: ") in done.stderr


@pytest.mark.parametrize(("name", "text", "message"), [
    (".vscode/mcp.json", '{"servers": {"a": {"command": "x",}', "not valid JSON (line 1, column"),
    (".vscode/mcp.json", '{"mcpServers": {"a": {"command": "x"}}}',
     "no `servers` object: not a VS Code .vscode/mcp.json file (it has `mcpServers`: another host's format)"),
    (".cursor/mcp.json", "[1, 2]", "not an MCP configuration (expected a JSON object)"),
    ("tools/mcp.json", '{"mcpServers": {}}', "which host reads this file? Name it with --for"),
])
def test_malformed_configuration(tmp_path: Path, name: str, text: str, message: str) -> None:
    config = _write(tmp_path / name, text)
    done = toolcast("check", "--mcp-config", str(config), cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == f"toolcast check: {config}: {message}" or message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_unreadable_configuration(tmp_path: Path) -> None:
    """A link to a device, a FIFO and a missing file: one line each, exit 2, nothing started or waited for."""
    (tmp_path / ".vscode").mkdir()
    (tmp_path / ".vscode" / "mcp.json").symlink_to("/dev/zero")
    fifo = tmp_path / ".mcp.json"
    os.mkfifo(fifo)
    for path, reason in ((tmp_path / ".vscode" / "mcp.json", "not a regular file (a character device)"),
                         (fifo, "not a regular file (a FIFO)"), (tmp_path / "missing.json", "no such file")):
        done = toolcast("check", "--mcp-config", str(path), cwd=tmp_path, timeout=120)
        assert done.returncode == 2, done.stderr
        assert done.stderr.strip().startswith(f"toolcast check: {path}: {reason}"), done.stderr


def test_unknown_file_name_read_as_the_host_named(tmp_path: Path) -> None:
    """A file whose name says no host is read as the format of the host `--for` names."""
    config = _write(tmp_path / "servers.json", json.dumps({"mcpServers": {"paged": {"command": PY,
                                                                                    "args": [PAGED]}}}))
    done = toolcast("check", "--select", "TC9", "--mcp-config", str(config), "--for", "cursor", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (f"25 tool(s) of 1 server(s) in {config} checked for Cursor (read as Cursor "
                                   ".cursor/mcp.json; hosts chosen with --for): 0 error(s), 0 other finding(s)")


@pytest.mark.parametrize("extra", [("tools.json",), ("--mcp-url", "http://127.0.0.1:1/mcp"),
                                   ("--server-name", "x")])
def test_usage_errors(tmp_path: Path, extra: tuple[str, ...]) -> None:
    config = _write(tmp_path / ".mcp.json", json.dumps({"mcpServers": {}}))
    done = toolcast("check", "--mcp-config", str(config), *extra, cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_registry_servers_in_one_vscode_file(tmp_path: Path) -> None:
    """Servers no one here wrote (installed from the registries on first use): mcp-server-git,
    mcp-server-fetch and server-everything in one VS Code file are one request of 26 tools; their findings
    are those of each server alone, located under the names the file gives them; `--cost` estimates the
    whole request."""
    import shutil
    import subprocess

    from live_servers import npm_everything, pypi_servers

    pybin, everything = pypi_servers(), npm_everything()
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    config = _write(tmp_path / ".vscode" / "mcp.json", json.dumps({"servers": {
        "git": {"type": "stdio", "command": str(pybin / "mcp-server-git"),
                "args": ["--repository", "${workspaceFolder}/repo"]},
        "fetch": {"type": "stdio", "command": str(pybin / "mcp-server-fetch")},
        "everything": {"type": "stdio", "command": shutil.which("node") or "node",
                       "args": [str(everything / "dist" / "index.js"), "stdio"]},
    }}))
    done = toolcast("check", "--timeout", TIMEOUT, "--cost", "--mcp-config", str(config), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    # With no target named, each provider in its best form: fetch keeps its `minLength` warning (what
    # tests/mcp/test_real_servers.py finds for it alone), server-everything and git none.
    assert {line.split(": TC")[0] for line in lines if ": TC" in line} == {
        "mcp:fetch/fetch#/inputSchema/properties/url/minLength"}
    costs = [line for line in lines if "tokens per request" in line]
    assert [c.split(" tool(s)")[0] for c in costs] == ["mcp:git: 12", "mcp:fetch: 1", "mcp:everything: 13",
                                                       f"{config} (all servers, one request): 26"]
    assert done.stderr.strip().splitlines()[-1] == (
        f"26 tool(s) of 3 server(s) in {config} checked for VS Code (Copilot agent mode) (read as VS Code "
        f".vscode/mcp.json; its host): 0 error(s), {sum(': TC' in line for line in lines)} other finding(s)")


def test_failure_messages_show_the_entry_as_written(tmp_path: Path) -> None:
    """A filled placeholder may be a secret: a server that fails is shown as the file writes it, and the value
    of the variable appears nowhere in the output."""
    secret = "sk-do-not-print-0123456789"
    config = _write(tmp_path / ".mcp.json", json.dumps({"mcpServers": {
        "keyed": {"command": "sh", "args": ["-c", "exit 4", "--key", "${TOOLCAST_TEST_SECRET}"]},
        "remote": {"type": "http", "url": "http://127.0.0.1:1/mcp?key=${TOOLCAST_TEST_SECRET}"},
    }}))
    done = toolcast("check", "--timeout", "60", "--mcp-config", str(config), cwd=tmp_path,
                    env={**os.environ, "TOOLCAST_TEST_SECRET": secret})
    assert done.returncode == 2, done.stderr
    assert secret not in done.stdout + done.stderr
    assert "MCP server `sh -c exit 4 --key ${TOOLCAST_TEST_SECRET}`" in done.stderr
    assert "`http://127.0.0.1:1/mcp?key=${TOOLCAST_TEST_SECRET}`" in done.stderr
