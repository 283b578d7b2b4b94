"""Reading hosts' MCP configuration files (adapters/host_config.py): which servers each host loads and how
it would start them, placeholders expanded as that host expands them, or the server named as not startable
with the placeholder that stops it. No process is started here (test_mcp_config.py starts them)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from toolcast.adapters.host_config import (
    LAYOUTS,
    MAX_SERVERS,
    Context,
    HostConfigError,
    layout_named,
    layout_of,
    read_host_config,
)

CTX = Context(env={"TOKEN": "t0k", "BIN": "/opt/bin"}, home="/home/u", folder="/work/proj")


def _servers(path: str, value: Any, **kw: Any) -> dict[str, Any]:
    config = read_host_config(json.dumps(value), path, CTX, **kw)
    return {s.name: s for s in config.servers}


@pytest.mark.parametrize(("path", "kind"), [
    ("/p/.vscode/mcp.json", "vscode"), ("/p/.mcp.json", "claude-code"), ("/home/u/.claude.json", "claude-user"),
    ("/p/.cursor/mcp.json", "cursor"), ("/p/.gemini/settings.json", "gemini-cli"),
    ("/x/claude_desktop_config.json", "claude-desktop"), ("C:\\p\\.vscode\\mcp.json", "vscode"),
])
def test_layout_by_file_name(path: str, kind: str) -> None:
    assert layout_of(path) is LAYOUTS[kind]


def test_unknown_names_have_no_layout_until_a_host_is_named() -> None:
    assert layout_of("/p/mcp.json") is None and layout_of("/p/.gemini/mcp.json") is None
    assert layout_named("cursor") is LAYOUTS["cursor"] and layout_named("windsurf") is None


def test_vscode_variables() -> None:
    servers = _servers("/work/proj/.vscode/mcp.json", {"servers": {
        "a": {"type": "stdio", "command": "${env:BIN}/srv", "args": ["${workspaceFolder}", "${userHome}/x",
                                                                     "${workspaceFolderBasename}", "a${/}b"],
              "env": {"K": "${env:TOKEN}"}, "cwd": "${workspaceFolder}/sub"},
        "b": {"type": "stdio", "command": "srv", "env": {"K": "${input:key}"}},
        "c": {"command": "srv", "args": ["${env:MISSING}"]},
        "d": {"command": "srv", "args": ["${command:pick}"]},
        "e": {"type": "http", "url": "https://h/mcp", "headers": {"Authorization": "Bearer ${env:TOKEN}"}},
        "f": {"type": "sse", "url": "https://h/sse"},
    }})
    a = servers["a"]
    assert a.command == ("/opt/bin/srv", "/work/proj", "/home/u/x", "proj", "a/b")
    assert dict(a.env) == {"K": "t0k"} and a.cwd == "/work/proj/sub" and a.problem is None
    assert servers["b"].problem == ("`${input:key}` is a value VS Code prompts for (an `inputs` entry); toolcast "
                                    "never asks")
    assert servers["c"].problem == "`${env:MISSING}` is not set in this environment"
    assert servers["d"].problem == "`${command:pick}` is a VS Code variable toolcast cannot fill"
    assert servers["e"].url == "https://h/mcp" and dict(servers["e"].headers) == {"Authorization": "Bearer t0k"}
    assert servers["f"].problem is not None and servers["f"].problem.startswith("an SSE server")


def test_claude_code_variables_and_types() -> None:
    servers = _servers("/work/proj/.mcp.json", {"mcpServers": {
        "a": {"command": "${BIN}/srv", "args": ["${MISSING:-fallback}", "$TOKEN"]},
        "b": {"command": "srv", "env": {"K": "${MISSING}"}},
        "c": {"type": "http", "url": "${MISSING:-http://127.0.0.1:9}/mcp"},
        "d": {"type": "sse", "url": "http://h/sse"},
        "e": {"type": "http"},
    }})
    assert servers["a"].command == ("/opt/bin/srv", "fallback", "$TOKEN")  # a bare $NAME is not expanded
    assert servers["a"].cwd == "/work/proj"  # started in the project folder
    assert servers["b"].problem == "`${MISSING}` is not set in this environment (and has no `:-default`)"
    assert servers["c"].url == "http://127.0.0.1:9/mcp"
    assert servers["d"].problem is not None and "SSE" in servers["d"].problem
    assert servers["e"].problem == "`type` 'http' needs a `url`"


def test_cursor_variables() -> None:
    servers = _servers("/work/proj/.cursor/mcp.json", {"mcpServers": {
        "a": {"command": "${userHome}/srv", "args": ["${workspaceFolder}"], "env": {"K": "${env:TOKEN}"}},
        "b": {"command": "srv", "env": {"K": "${input:key}"}},
        "c": {"url": "http://127.0.0.1:9/mcp"},
    }})
    assert servers["a"].command == ("/home/u/srv", "/work/proj") and dict(servers["a"].env) == {"K": "t0k"}
    assert servers["b"].problem == "`${input:key}` is a Cursor variable toolcast cannot fill"
    assert servers["c"].url == "http://127.0.0.1:9/mcp" and servers["c"].problem is None


def test_gemini_cli_settings() -> None:
    config = read_host_config(json.dumps({
        "theme": "x", "mcp": {"allowed": ["a", "b", "c", "d"], "excluded": ["d"]},
        "mcpServers": {
            "a": {"command": "$BIN/srv", "args": ["${TOKEN}"], "includeTools": ["x", "y"], "excludeTools": ["y"],
                  "cwd": "./servers/$TOKEN"},
            "b": {"httpUrl": "http://127.0.0.1:9/mcp"},
            "c": {"url": "http://127.0.0.1:9/sse"},
            "d": {"command": "srv"},
            "e": {"command": "srv"},
            "f": {"command": "srv", "env": {"K": "$MISSING"}},
        }}), "/work/proj/.gemini/settings.json", CTX)
    servers = {s.name: s for s in config.servers}
    assert set(servers) == {"a", "b", "c"}
    assert config.skipped == (("d", "listed in `mcp.excluded`"), ("e", "not listed in `mcp.allowed`"),
                              ("f", "not listed in `mcp.allowed`"))
    a = servers["a"]
    assert a.command == ("/opt/bin/srv", "t0k") and a.cwd == "/work/proj/./servers/t0k"
    assert [t for t in ("x", "y", "z") if a.keeps(t)] == ["x"]  # excludeTools wins over includeTools
    assert servers["b"].url == "http://127.0.0.1:9/mcp" and servers["b"].problem is None
    assert servers["c"].problem is not None and "SSE" in servers["c"].problem
    unset = _servers("/p/.gemini/settings.json", {"mcpServers": {"f": {"command": "srv", "env": {"K": "$MISSING"}}}})
    assert unset["f"].problem == "`$MISSING` is not set in this environment"


def test_claude_user_file_merges_the_project() -> None:
    value = {"mcpServers": {"u": {"command": "user"}, "both": {"command": "user"}},
             "projects": {"/work/proj": {"mcpServers": {"both": {"command": "project"}, "p": {"command": "p"}}},
                          "/elsewhere": {"mcpServers": {"x": {"command": "x"}}}}}
    servers = _servers("/home/u/.claude.json", value, project="/work/proj")
    assert {n: s.command for n, s in servers.items()} == {"u": ("user",), "both": ("project",), "p": ("p",)}
    assert set(_servers("/home/u/.claude.json", value, project="/nowhere")) == {"u", "both"}
    assert _servers("/home/u/.claude.json", {"projects": {}}, project="/work/proj") == {}


def test_claude_desktop_expands_nothing() -> None:
    value = {"mcpServers": {"a": {"command": "${BIN}", "args": ["$TOKEN"]}}}
    servers = _servers("/x/claude_desktop_config.json", value)
    assert servers["a"].command == ("${BIN}", "$TOKEN") and servers["a"].problem is None


@pytest.mark.parametrize(("spec", "problem"), [
    ("not an object", "not a server entry (expected an object)"),
    ({}, "no `command` or `url`"),
    ({"command": "   "}, "no `command` or `url`"),
    ({"command": "x", "args": "--flag"}, "`args` must be a list of strings"),
    ({"command": "x", "args": [{"a": 1}]}, "`args` must be a list of strings"),
    ({"command": "x", "env": ["A=1"]}, "`env` must be an object of strings"),
    ({"command": "x", "cwd": 3}, "`cwd` must be a string"),
    ({"command": "x", "type": 3}, "`type` must be a string"),
    ({"url": "ftp://h/mcp"}, "`url` is not an http:// or https:// URL"),
    ({"url": 7}, "`url` must be a URL"),
])
def test_entries_that_cannot_start(spec: Any, problem: str) -> None:
    assert _servers("/p/.mcp.json", {"mcpServers": {"s": spec}})["s"].problem == problem


@pytest.mark.parametrize(("path", "text", "message"), [
    ("/p/.mcp.json", '{"mcpServers": {', "not valid JSON (line 1, column 1: `}` expected)"),
    ("/p/.mcp.json", "null", "not an MCP configuration (expected a JSON object)"),
    ("/p/.mcp.json", '{"servers": {}}', "no `mcpServers` object: not a Claude Code .mcp.json file (it has `servers`"),
    ("/p/.gemini/settings.json", '{"theme": "x"}', "no `mcpServers` object: not a Gemini CLI"),
    ("/p/mcp.json", '{"mcpServers": {}}', "which host reads this file?"),
])
def test_files_that_are_not_configurations(path: str, text: str, message: str) -> None:
    with pytest.raises(HostConfigError) as caught:
        read_host_config(text, path, CTX)
    assert str(caught.value).startswith(message), str(caught.value)


def test_too_many_servers() -> None:
    many = {"mcpServers": {f"s{i}": {"command": "x"} for i in range(MAX_SERVERS + 1)}}
    with pytest.raises(HostConfigError, match=f"toolcast starts at most {MAX_SERVERS} at once"):
        read_host_config(json.dumps(many), "/p/.mcp.json", CTX)
    assert len(_servers("/p/.mcp.json", {"mcpServers": dict(list(many["mcpServers"].items())[:MAX_SERVERS])})) \
        == MAX_SERVERS
