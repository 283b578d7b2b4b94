"""Servers no one here wrote, installed from the registries on first use (see live_servers.py): PyPI
mcp-server-git and mcp-server-fetch over stdio, npm @modelcontextprotocol/server-everything over stdio
and over streamable HTTP on 127.0.0.1. What toolcast finds in each, the snapshot round trip, and
conversion of every tool."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from live_cli import TIMEOUT, check_json, key, toolcast, where
from live_servers import everything_http, free_port, npm_everything, pypi_servers
from toolcast.adapters.targets import TARGETS

# Installing a server from a registry on first use takes minutes on a loaded machine.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]


@pytest.fixture(scope="module")
def pybin() -> Path:
    return pypi_servers()


@pytest.fixture(scope="module")
def everything() -> list[str]:
    node = shutil.which("node") or "node"
    return [node, str(npm_everything() / "dist" / "index.js"), "stdio"]


#: Every target named: each judged exactly in its form (with none named, each provider in its best form).
ALL_FORMS = tuple(arg for target in TARGETS for arg in ("--target", target))


def _snapshot_round_trip(tmp_path: Path, source: list[str], live: list[dict[str, object]],
                         extra: tuple[str, ...] = ()) -> dict[str, object]:
    out = tmp_path / "snap.json"
    done = toolcast("snapshot", "--timeout", TIMEOUT, "--out", str(out), *source, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert sorted(map(key, check_json(str(out), cwd=tmp_path, extra=extra))) == sorted(map(key, live))
    doc: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return doc


def test_mcp_server_git(tmp_path: Path, pybin: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    source = ["--mcp", "--", str(pybin / "mcp-server-git"), "--repository", str(repo)]
    human = toolcast("check", "--timeout", TIMEOUT, *source, cwd=tmp_path)
    assert human.returncode == 0, human.stderr
    cost, summary = human.stdout.strip().splitlines()  # the server's token cost, then the findings' count
    assert cost.startswith("mcp:mcp-git: 12 tool(s), tokens per request (estimate): openai ≈ ")
    assert summary == "12 tool(s) of MCP server mcp-git checked: 0 error(s), 0 other finding(s)"
    live = check_json(*source, cwd=tmp_path)
    assert live == []
    doc = _snapshot_round_trip(tmp_path, source, live)
    names = [t["name"] for t in doc["tools"]]  # type: ignore[attr-defined]
    assert "git_status" in names and names == sorted(names)
    for target in ("gemini", "openai", "anthropic", "bedrock"):
        done = toolcast("convert", "--to", target, "--timeout", TIMEOUT, *source, cwd=tmp_path)
        assert done.returncode == 0, done.stderr


def test_mcp_server_fetch(tmp_path: Path, pybin: Path) -> None:
    source = ["--mcp", "--", str(pybin / "mcp-server-fetch")]
    # With no target named: OpenAI non-strict keeps `format` and `minLength`; Gemini's two forms each lose one
    # of them, and `parametersJsonSchema` wins the tie.
    assert where(check_json(*source, cwd=tmp_path)) == {
        ("TC502", "mcp:mcp-fetch/fetch#/inputSchema/properties/url/minLength")}
    live = check_json(*source, cwd=tmp_path, extra=ALL_FORMS)
    assert where(live) == {
        ("TC502", "mcp:mcp-fetch/fetch#/inputSchema/properties/url/format"),
        ("TC502", "mcp:mcp-fetch/fetch#/inputSchema/properties/url/minLength"),
    }
    fmt = next(r for r in live if r["location"].endswith("/format"))
    assert "format `uri` is not supported by OpenAI Chat Completions, OpenAI Responses, Gemini (parameters)" \
        in fmt["message"]
    _snapshot_round_trip(tmp_path, source, live, ALL_FORMS)
    done = toolcast("convert", "--to", "openai", "--timeout", TIMEOUT, *source, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "mcp:mcp-fetch/fetch#/inputSchema/properties/url/format: openai: format `uri`" in done.stderr


EVERYTHING = {
    ("TC502", "mcp:mcp-servers-everything/get-structured-content#/outputSchema/additionalProperties"),
    ("TC502", "mcp:mcp-servers-everything/gzip-file-as-resource#/inputSchema/properties/data/format"),
}


def test_server_everything_over_stdio(tmp_path: Path, everything: list[str]) -> None:
    source = ["--mcp", "--", *everything]
    assert where(check_json(*source, cwd=tmp_path)) == set()  # no target named: the forms chosen keep both
    live = check_json(*source, cwd=tmp_path, extra=ALL_FORMS)
    assert where(live) == EVERYTHING
    doc = _snapshot_round_trip(tmp_path, source, live, ALL_FORMS)
    assert len(doc["tools"]) == 13  # type: ignore[arg-type]
    done = toolcast("convert", "--to", "gemini", "--timeout", TIMEOUT, *source, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert sum(len(b["functionDeclarations"]) for b in json.loads(done.stdout)) == 13


def test_server_everything_over_streamable_http(tmp_path: Path, everything: list[str]) -> None:
    stdio = check_json("--mcp", "--", *everything, cwd=tmp_path, extra=ALL_FORMS)
    port = free_port()
    with everything_http(port):
        over_http = check_json("--mcp-url", f"http://127.0.0.1:{port}/mcp", cwd=tmp_path, extra=ALL_FORMS)
        sarif = toolcast("check", "--format", "sarif", *ALL_FORMS, "--mcp-url", f"http://127.0.0.1:{port}/mcp",
                         cwd=tmp_path)
    assert where(over_http) == EVERYTHING
    assert sorted(map(key, over_http)) == sorted(map(key, stdio))
    assert sarif.returncode == 0 and len(json.loads(sarif.stdout)["runs"][0]["results"]) == 2
