"""`toolcast check/convert/snapshot --mcp` against a server written here with the `mcp` SDK (pydantic
Optional, nested models, an enum, a recursive model), over stdio and over streamable HTTP on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from live_cli import SDK_SERVER, TIMEOUT, check_json, key, toolcast, where
from live_servers import free_port, sdk_http
from toolcast.adapters.targets import TARGETS

SERVER = "mcp:toolcast-test-server"
RECURSION = (f"{SERVER}/count_nodes#/inputSchema/$defs/Node/properties/children/items/$ref")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Every form named: the Gemini `parameters` form's recursion finding is what these tests locate (with no
    # target named, Gemini is judged in `parametersJsonSchema`, which keeps the recursive `$ref`).
    folder = tmp_path_factory.mktemp("sdk")
    (folder / "toolcast.toml").write_text(f"targets = {json.dumps(list(TARGETS))}\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def live(workdir: Path) -> list[dict[str, Any]]:
    return check_json("--mcp", "--", *SDK_SERVER, cwd=workdir)


@pytest.fixture(scope="module")
def snapshot(workdir: Path) -> Path:
    out = workdir / "server.tools.json"
    done = toolcast("snapshot", "--timeout", TIMEOUT, "--out", str(out), "--mcp", "--", *SDK_SERVER, cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert "4 tool(s) of MCP server toolcast-test-server written to" in done.stderr
    return out


def test_live_check_locates_each_finding_by_server_tool_and_pointer(live: list[dict[str, Any]]) -> None:
    recursion = [r for r in live if r.get("location") == RECURSION]
    assert len(recursion) == 1, live
    r = recursion[0]
    assert (r["code"], r["target"], r["tool_name"], r["path"]) == ("TC502", "gemini", "count_nodes", SERVER)
    assert "recursive `$ref` #/$defs/Node cannot be inlined for gemini" in r["message"]
    assert r["pointer"].startswith("/tools/0/inputSchema/")  # the document pointer: the snapshot's place
    assert all(x["location"].startswith(SERVER + "/") for x in live)
    assert not [x for x in live if x["severity"] == "error"]


def test_snapshot_is_the_servers_tools_in_a_fixed_order(snapshot: Path) -> None:
    doc = json.loads(snapshot.read_text(encoding="utf-8"))
    assert [t["name"] for t in doc["tools"]] == ["count_nodes", "get_weather", "ping", "register_person"]
    weather = doc["tools"][1]
    assert list(weather)[:4] == ["name", "description", "inputSchema", "outputSchema"]
    # pydantic's Optional[int] = None, exactly as the SDK lists it: anyOf with null, default and title beside it.
    assert weather["inputSchema"]["properties"]["days"] == {
        "anyOf": [{"type": "integer"}, {"type": "null"}], "default": None, "title": "Days"}
    assert weather["inputSchema"]["$defs"]["Unit"]["enum"] == ["celsius", "fahrenheit"]
    person = doc["tools"][3]["inputSchema"]
    assert person["$defs"]["Person"]["properties"]["address"] == {"$ref": "#/$defs/Address"}
    assert snapshot.read_text(encoding="utf-8").endswith("}\n")


def test_snapshot_round_trips_to_the_same_findings(workdir: Path, live: list[dict[str, Any]],
                                                   snapshot: Path) -> None:
    from_file = check_json(str(snapshot), cwd=workdir)
    assert sorted(map(key, from_file)) == sorted(map(key, live))
    assert all(r["path"] == str(snapshot) for r in from_file)
    # Deterministic: a second snapshot is byte for byte the same, on stdout too.
    again = toolcast("snapshot", "--timeout", TIMEOUT, "--mcp", "--", *SDK_SERVER, cwd=workdir)
    assert again.returncode == 0, again.stderr
    assert again.stdout == snapshot.read_text(encoding="utf-8")


def test_every_output_format_and_the_configuration_in_cwd(workdir: Path, tmp_path: Path) -> None:
    human = toolcast("check", "--timeout", TIMEOUT, "--mcp", "--", *SDK_SERVER, cwd=workdir)
    assert human.returncode == 0, human.stderr
    assert f"{RECURSION}: TC502 Gemini (parameters): recursive" in human.stdout
    assert "4 tool(s) of MCP server toolcast-test-server checked: 0 error(s)," in human.stderr

    github = toolcast("check", "--format", "github", "--timeout", TIMEOUT, "--mcp", "--", *SDK_SERVER, cwd=workdir)
    assert f"::warning title=TC502::{RECURSION}: TC502 " in github.stdout
    assert "file=" not in github.stdout

    sarif = json.loads(toolcast("check", "--format", "sarif", "--timeout", TIMEOUT, "--mcp", "--", *SDK_SERVER,
                                cwd=workdir).stdout)
    results = sarif["runs"][0]["results"]
    names = [loc["fullyQualifiedName"] for r in results for loc in r["locations"][0]["logicalLocations"]]
    assert RECURSION in names
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == {SERVER}

    # toolcast.toml in the working folder applies as it does to files: no Gemini, no Gemini finding.
    (tmp_path / "toolcast.toml").write_text('targets = ["openai", "anthropic"]\n', encoding="utf-8")
    assert where(check_json("--mcp", "--", *SDK_SERVER, cwd=tmp_path)) == set()


def test_convert_from_a_server_reports_losses_at_tool_pointers(workdir: Path) -> None:
    done = toolcast("convert", "--to", "gemini", "--timeout", TIMEOUT, "--mcp", "--", *SDK_SERVER, cwd=workdir)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    names = [d["name"] for block in out for d in block["functionDeclarations"]]
    assert names == ["count_nodes", "get_weather", "ping", "register_person"]
    assert (f"{RECURSION}: gemini: recursive `$ref` #/$defs/Node cannot be inlined for gemini; the recursion is "
            "cut here (dropped, widening)") in done.stderr.splitlines()
    strict = toolcast("convert", "--to", "openai", "--timeout", TIMEOUT, "--mcp", "--", *SDK_SERVER, cwd=workdir)
    assert (f"{SERVER}/get_weather#/inputSchema/properties/days: openai: optional `days` is required and nullable "
            "for openai strict mode") in strict.stderr


def test_streamable_http_gives_the_same_findings(workdir: Path, live: list[dict[str, Any]]) -> None:
    port = free_port()
    with sdk_http(port):
        over_http = check_json("--mcp-url", f"http://127.0.0.1:{port}/mcp", cwd=workdir)
    assert sorted(map(key, over_http)) == sorted(map(key, live))
    assert where(over_http) == where(live)
