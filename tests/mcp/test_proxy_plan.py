"""What `toolcast proxy` serves for a hostile server's tools (tests/mcp/hostile_server.py), judged by the
providers' own SDK types and documented rules, and how calls come back: the pure plan, no process."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import hostile_server
import pytest
from toolcast.adapters.checks.consumer_checks import prefixed_name
from toolcast.adapters.consumers import consumer, model_family
from toolcast.adapters.proxy_plan import ProxySettings, ProxySettingsError, dialect, lower_tools

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "convert"))
from sdk import VALIDATORS, check_documented_rules

#: The server's tools, and one the SDK would not let it list (other SDKs do): a root that is not an object.
TOOLS = [*hostile_server.tools(),
         {"name": "scalar", "description": "Not an object.", "inputSchema": {"type": "string"}}]
GEMINI = ProxySettings(hosts=("gemini-cli",), models=("gemini-2.5-pro",))


def as_gemini(served: dict[str, Any]) -> dict[str, Any]:
    """The served MCP tool as the function declaration the host makes of it."""
    out: dict[str, Any] = {"name": served["name"]}
    if "description" in served:
        out["description"] = served["description"]
    if served["inputSchema"] != {"type": "object"}:
        out["parameters"] = served["inputSchema"]
    return out


def test_every_served_tool_passes_gemini_and_the_hosts_rules() -> None:
    plan = lower_tools(TOOLS, GEMINI, "hostile")
    assert plan.target == "gemini"
    assert len(plan.served) >= 140
    rules = [r for who in (consumer("gemini-cli"), model_family("gemini-2.5-pro")) for r in who.rules
             if r.kind == "name_length"]
    for tool in plan.served:
        declaration = as_gemini(tool.served)
        VALIDATORS["gemini"](declaration)
        check_documented_rules("gemini", False, declaration)
        VALIDATORS["mcp"](tool.served)
        for rule in rules:
            assert len(prefixed_name(rule, tool.name, "hostile")) <= int(rule.settings["max"]), tool.name


def test_what_gemini_cannot_take_is_left_out_with_the_reason() -> None:
    plan = lower_tools(TOOLS, GEMINI, "hostile")
    left = {x.name: x.reason for x in plan.left_out}
    assert "either" in left and "root-not-object" in left["either"]
    assert "scalar" in left
    assert {t.original_name for t in plan.served} >= {"loop", "tree", "pick", "lookup.by name"}
    assert {t.original_name for t in plan.served} | set(left) == {t["name"] for t in TOOLS}


def test_names_are_fitted_stably_and_map_back() -> None:
    plan = lower_tools(TOOLS, GEMINI, "hostile")
    again = lower_tools(list(reversed(TOOLS)), GEMINI, "hostile")
    names = {t.original_name: t.name for t in plan.served}
    assert names[hostile_server.LONG] != names[hostile_server.LONG + "_v2"]
    assert names[hostile_server.LONG] == {t.original_name: t.name for t in again.served}[hostile_server.LONG]
    assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.:-]*", names["lookup.by name"])
    for original, served in names.items():
        call = plan.map_call(served, {})
        assert call is not None and call.name == original
    assert plan.map_call("lookup.by name", {}) is None or names["lookup.by name"] == "lookup.by name"


def test_calls_are_mapped_back_and_validated_against_the_servers_schema() -> None:
    plan = lower_tools(TOOLS, GEMINI, "hostile")
    name = next(t.name for t in plan.served if t.original_name == "lookup.by name")
    ok = plan.map_call(name, {"q": "ab", "limit": None})
    assert ok is not None and ok.problems == () and ok.arguments == {"q": "ab", "limit": None}
    bad = plan.map_call(name, {"q": "a"})  # the server's minLength: 2
    assert bad is not None and [p.pointer for p in bad.problems] == ["/q"] and not bad.ok
    tree = next(t.name for t in plan.served if t.original_name == "tree")
    deep = {"root": {"label": "a", "children": [{"label": "b", "children": [{"label": "c"}]}]}}
    mapped = plan.map_call(tree, deep)
    assert mapped is not None and mapped.problems == () and mapped.arguments == deep


def test_budgets_include_exclude_and_max_tools() -> None:
    only = lower_tools(TOOLS, ProxySettings(hosts=("gemini-cli",), include=("filler_*",), exclude=("filler_00*",)),
                       "hostile")
    assert {t.original_name for t in only.served} == {f"filler_{i:03d}" for i in range(10, hostile_server.FILLERS)}
    capped = lower_tools(TOOLS, ProxySettings(hosts=("gemini-cli",), max_tools=5), "hostile")
    assert len(capped.served) == 5
    unservable = {"either", "scalar"}
    assert {x.name for x in capped.left_out if "over the limit of 5" not in x.reason} == unservable
    few, every = capped.tokens(), lower_tools(TOOLS, GEMINI, "hostile").tokens()
    assert few is not None and every is not None and 0 < few < every


@pytest.mark.parametrize("host", ["vscode", "cursor"])
def test_a_hosts_own_tool_limit_is_kept(host: str) -> None:
    limit = min(int(r.settings["max"]) for r in consumer(host).rules if r.kind == "max_tools")
    plan = lower_tools(TOOLS, ProxySettings(hosts=(host,)), "hostile")
    assert len(plan.served) == limit
    others = {x.name for x in plan.left_out if f"over the limit of {limit} tools" not in x.reason}
    assert others <= {"either", "scalar", "loop", "pick"}
    assert len(plan.left_out) == len(TOOLS) - limit
    if host == "vscode":  # Copilot's rule: an array without `items` (the tuple `pair`) fails the request
        assert "without `items`" in next(x.reason for x in plan.left_out if x.name == "pick")


@pytest.mark.parametrize(("settings", "expected"), [
    (ProxySettings(hosts=("gemini-cli",)), "gemini"),
    (ProxySettings(hosts=("vscode",), models=("gemini-2.5-pro",)), "gemini"),
    (ProxySettings(hosts=("vscode",), models=("gpt-4.1",)), "openai"),
    (ProxySettings(hosts=("claude-code",)), "anthropic"),
    (ProxySettings(hosts=("vscode",), models=("claude-sonnet-4", "gemini-2.5-flash")), "gemini"),
    (ProxySettings(hosts=("copilot-cli",)), "anthropic"),
    (ProxySettings(hosts=("copilot-cli",), models=("gemini-3-flash-preview",)), "gemini"),
    (ProxySettings(hosts=("antigravity",)), "gemini"),
])
def test_the_dialect_follows_the_model_then_the_host(settings: ProxySettings, expected: str) -> None:
    assert dialect(settings) == expected


def test_a_server_name_the_host_prefixes_does_not_leave_the_tools_out() -> None:
    """Roo Code behind a dotted server name on Bedrock (RooCodeInc/Roo-Code#10152): the characters come from the
    server's name in the host's configuration, which the proxy cannot change; its tools are still served, with
    the names Bedrock accepts."""
    settings = ProxySettings(hosts=("roo-code",), target="bedrock",
                             server_name="awslabs.aws-documentation-mcp-server")
    plan = lower_tools(TOOLS, settings, "hostile")
    every = lower_tools(TOOLS, ProxySettings(hosts=("roo-code",), target="bedrock", server_name="aws-docs"),
                        "hostile")
    assert len(plan.served) == len(every.served) >= 100
    assert all(re.fullmatch(r"[a-zA-Z0-9_-]+", t.name) for t in plan.served)


def test_unknown_names_are_a_clear_error() -> None:
    with pytest.raises(ProxySettingsError, match="known"):
        lower_tools(TOOLS, ProxySettings(hosts=("gemini-cly",)), "hostile")
    with pytest.raises(ProxySettingsError, match="unknown model"):
        dialect(ProxySettings(hosts=("vscode",), models=("llama-3",)))


@pytest.mark.parametrize("target", ["openai", "anthropic", "mistral"])
def test_other_dialects_serve_what_their_sdk_accepts(target: str) -> None:
    plan = lower_tools(TOOLS, ProxySettings(target=target), "hostile")
    assert len(plan.served) >= 140
    for tool in plan.served:
        VALIDATORS["mcp"](tool.served)
        call = plan.map_call(tool.name, {})
        assert call is not None and call.name == tool.original_name


def test_formats_the_lowering_moved_to_the_description_are_still_asserted() -> None:
    tool = {"name": "open", "inputSchema": {"type": "object", "properties": {
        "url": {"type": "string", "format": "uri"}, "at": {"type": "string", "format": "date-time"}}}}
    plan = lower_tools([tool], GEMINI, "hostile")
    url = plan.tools()[0]["inputSchema"]["properties"]["url"]
    assert "format" not in url and "uri" in url["description"]  # Gemini takes no `uri` format
    good = plan.map_call("open", {"url": "https://example.com/a", "at": "2026-11-28T10:00:00Z"})
    assert good is not None and good.problems == ()
    bad = plan.map_call("open", {"url": "example", "at": "tomorrow"})
    assert bad is not None and sorted(p.pointer for p in bad.problems) == ["/at", "/url"]


def test_a_proxied_call_is_the_librarys_mapped_call() -> None:
    """A call mapped back to the tool's own name and arguments, validated, has one record: the proxy's is
    `toolcast.MappedCall` (an MCP `tools/call` has no call id of its own)."""
    import toolcast

    plan = lower_tools(TOOLS, GEMINI, "hostile")
    name = next(t.name for t in plan.served if t.original_name == "lookup.by name")
    bad = plan.map_call(name, {"q": "a"})
    assert isinstance(bad, toolcast.MappedCall) and all(isinstance(p, toolcast.CallProblem) for p in bad.problems)
    assert bad.to_dict()["id"] == "" and bad.to_dict()["problems"][0]["pointer"] == "/q"
