"""SARIF output (`toolcast check --format sarif`, read by GitHub code scanning): a finding in a file is a physical
location only; one on a live MCP server's tool, which has no file, also names the tool as a logical location."""

from __future__ import annotations

import json

from toolcast.adapters.checks import RULES, Finding, Located, Severity, as_sarif


def _located(where: str = "") -> Located:
    finding = Finding("TC101", Severity.ERROR, "the tool has no name", "/0", (1, 5), tool_index=0)
    return Located("tools.json", finding, 2, 3, 2, 9, where=where)


def test_a_file_finding_is_a_region_of_its_file() -> None:
    log = json.loads(as_sarif([_located()], "9.9"))
    (run,) = log["runs"]
    assert run["tool"]["driver"]["version"] == "9.9"
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == list(RULES)
    (result,) = run["results"]
    assert result["ruleId"] == "TC101" and result["level"] == "error"
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "TC101"
    (location,) = result["locations"]
    assert location == {"physicalLocation": {"artifactLocation": {"uri": "tools.json"},
                                             "region": {"startLine": 2, "startColumn": 3,
                                                        "endLine": 2, "endColumn": 9}}}


def test_a_live_servers_tool_is_also_a_logical_location() -> None:
    log = json.loads(as_sarif([_located("mcp:weather/get_forecast#/inputSchema")], "9.9"))
    (location,) = log["runs"][0]["results"][0]["locations"]
    assert location["logicalLocations"] == [{"fullyQualifiedName": "mcp:weather/get_forecast#/inputSchema",
                                             "kind": "function"}]
    assert location["physicalLocation"]["region"]["startLine"] == 2
