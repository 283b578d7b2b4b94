"""Each consumer failure users reported, caught by a finding: the tests use the report's own schema (or the
schema the report's code generates, made here by the same library) and its error message, with the link."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pydantic
from toolcast.adapters.checks import CheckConfig, check_document
from toolcast.adapters.rules.codes import (
    CONSUMER_ARRAY_ITEMS,
    CONSUMER_META_SCHEMA,
    CONSUMER_NAME_LENGTH,
    CONSUMER_ROOT_PROPERTIES,
    CONSUMER_STRICT_KEYWORD,
    CONSUMER_STRICT_UNSUPPORTED,
    CONSUMER_TOOL_COUNT,
    CONSUMER_TOOLS_UNSUPPORTED,
    CONSUMER_UNTYPED_SCHEMA,
    PROVIDER_TOOL_COUNT,
)
from toolcast.adapters.rules.findings import Finding, Severity

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "consumers"


def _check(doc: Any, **settings: Any) -> list[Finding]:
    text = doc if isinstance(doc, str) else json.dumps(doc, indent=2)
    if "targets" in settings:
        settings["targets_named"] = True
    return list(check_document(text, config=replace(CheckConfig(), **settings)).findings)


def _codes(findings: list[Finding], prefix: str = "TC9") -> list[str]:
    return [f.code for f in findings if f.code.startswith(prefix)]


def _openai_tools(count: int) -> list[dict[str, Any]]:
    return [{"type": "function", "function": {
        "name": f"tool_{i}", "description": "One of many tools.", "strict": True,
        "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"],
                       "additionalProperties": False}}} for i in range(count)]


def test_a_150_tool_file_is_over_openais_128_without_any_selection() -> None:
    """0x4m4/hexstrike-ai#29 (also zed-industries/zed#32946, anomalyco/opencode#4909): "Invalid 'tools': array
    too long. Expected an array with maximum length 128, but got an array with length 150 instead." """
    found = [f for f in _check(_openai_tools(150)) if f.code == PROVIDER_TOOL_COUNT]
    chat = [f for f in found if f.target == "openai"]
    assert len(chat) == 1 and chat[0].severity == Severity.ERROR
    assert chat[0].pointer == "/128"  # the 129th tool, the first one over
    assert "150 tools (at most 128" in chat[0].message and "maximum length 128" in chat[0].message
    assert "zed-industries/zed#32946" in chat[0].message and "(observed)" in chat[0].message
    assert not [f for f in _check(_openai_tools(128)) if f.code == PROVIDER_TOOL_COUNT]
    # the provider limit belongs to OpenAI: a check for Anthropic only does not report it
    assert not [f for f in _check(_openai_tools(150), targets=("anthropic",)) if f.code == PROVIDER_TOOL_COUNT]


def test_defaults_stay_quiet_hosts_speak_when_selected() -> None:
    """Cursor's limit is unclear (RyanCardin15/AzureDevOps-MCP#8: 40; Snowflake-Labs/mcp#77: 80;
    DaxianLee/cocos-mcp-server#11: 100): a warning naming the sources. Copilot's 128 is documented."""
    tools = _openai_tools(150)
    assert not [c for c in _codes(_check(tools)) if c != PROVIDER_TOOL_COUNT]
    found = [f for f in _check(tools, consumers=("cursor", "vscode", "groq", "xai")) if f.code == CONSUMER_TOOL_COUNT]
    by = {f.data["consumer"]: f for f in found}
    assert set(by) == {"cursor", "vscode", "groq"}  # xAI's 200 is not reached
    assert by["cursor"].severity == Severity.WARNING and by["cursor"].pointer == "/40"
    assert "Snowflake-Labs/mcp#77" in by["cursor"].message and "(unclear)" in by["cursor"].message
    assert by["vscode"].severity == Severity.ERROR and by["vscode"].pointer == "/128"
    assert "maximum number of items is 128" in by["groq"].message  # HunorLaczko/ha-groq-cloud-api#25


def _tuple_tool() -> dict[str, Any]:
    """What pydantic (FastMCP's schema generator) writes for a tuple parameter: `prefixItems`, no `items`."""

    class PairArguments(pydantic.BaseModel):
        pair: tuple[int, str]
        maybe: tuple[float, float] | None = None

    return {"name": "set_pair", "description": "Store a pair.", "inputSchema": PairArguments.model_json_schema()}


def test_a_pydantic_tuple_is_an_array_without_items_for_vscode() -> None:
    """microsoft/vscode#246119: "Failed to validate tool …: tool parameters array type must have items"."""
    tool = _tuple_tool()
    assert "items" not in tool["inputSchema"]["properties"]["pair"]  # the report's shape, as pydantic makes it
    found = [f for f in _check(tool, consumers=("vscode",)) if f.code == CONSUMER_ARRAY_ITEMS]
    assert [f.pointer for f in found] == ["/inputSchema/properties/pair/items",
                                          "/inputSchema/properties/maybe/anyOf/0/items"]
    assert all(f.severity == Severity.ERROR and "tuple" in f.message for f in found)
    assert "must have items" in found[0].message and "microsoft/vscode#246119" in found[0].message
    assert not _codes(_check(tool, consumers=("claude-code",)), "TC904")
    assert not _codes(_check(tool), "TC904")


def test_vscode_validates_against_draft_07() -> None:
    """microsoft/vscode mcpServer.ts: tools whose inputSchema fails draft-07 are omitted."""
    tool = {"name": "count", "description": "Count.", "inputSchema": {
        "type": "object", "properties": {"n": {"type": "integer", "minimum": "0"}}}}
    found = [f for f in _check(tool, consumers=("vscode",)) if f.code == CONSUMER_META_SCHEMA]
    assert [f.pointer for f in found] == ["/inputSchema/properties/n/minimum"]
    tool["inputSchema"]["properties"]["n"]["minimum"] = 0
    assert not _codes(_check(tool, consumers=("vscode",)), "TC905")


def test_gemini_cli_skips_process_thought_for_its_untyped_ref() -> None:
    """arben-adm/mcp-sequential-thinking#12: "Skipping tool 'process_thought' from MCP server
    'sequential-thinking' because it has missing types in its parameter schema." The fixture is the schema
    FastMCP (mcp 1.13.1, 2025-09) generated for the server's `process_thought` signature: its `ctx:
    Optional[Context]` became `anyOf: [{$ref}, {type: null}]`."""
    text = (FIXTURES / "process_thought.tool.json").read_text()
    found = [f for f in _check(text, consumers=("gemini-cli",)) if f.code == CONSUMER_UNTYPED_SCHEMA]
    assert len(found) == 1 and found[0].severity == Severity.ERROR
    assert found[0].pointer == "/inputSchema/properties/ctx/anyOf/0/type"
    assert "missing types in its parameter schema" in found[0].message
    assert "arben-adm/mcp-sequential-thinking#12" in found[0].message
    fixed = json.loads(text)
    del fixed["inputSchema"]["properties"]["ctx"]  # what the current SDK writes (the context is left out)
    assert not _codes(_check(fixed, consumers=("gemini-cli",)), "TC906")


def test_a_100_character_name_is_rejected_by_gemini_2_5_but_allowed_by_the_profile() -> None:
    """google-gemini/gemini-cli#7869 (gemini-cli 0.3.3, Gemini 2.5): "Invalid function name. Must start with a
    letter or an underscore. … with a maximum length of 64." toolcast's Gemini profile allows 128."""
    name = "mcp_" + "workspace_" * 9 + "search"  # 100 characters, valid for the profile's pattern
    assert len(name) == 100
    tool = {"name": name, "description": "Search.", "parameters": {"type": "object", "properties": {}}}
    assert not [f for f in _check(tool) if f.target in ("gemini", "gemini-json") and f.code.startswith("TC2")]
    found = [f for f in _check(tool, models=("gemini-2.5-pro",)) if f.code == CONSUMER_NAME_LENGTH]
    assert len(found) == 1 and found[0].severity == Severity.ERROR and found[0].pointer == "/name"
    assert "100 characters (at most 64)" in found[0].message and "maximum length of 64" in found[0].message
    assert "google-gemini/gemini-cli#7869" in found[0].message
    assert not _codes(_check(tool, models=("gemini-3-pro-preview",)), "TC903")


def test_gemini_3_rejects_an_untyped_union_through_parameters() -> None:
    """UKGovernmentBEIS/inspect_ai#3097: "Gemini 3 started rejecting function schemas containing
    TYPE_UNSPECIFIED (previous Gemini models accepted them)", for union (anyOf) parameters."""
    tool = {"name": "lookup", "description": "Look up a record.", "parameters": {
        "type": "object", "properties": {"key": {"anyOf": [{"type": "string"}, {"type": "integer"}]}},
        "required": ["key"]}}
    found = [f for f in _check(tool, models=("gemini-3-pro-preview",), targets=("gemini",))
             if f.code == CONSUMER_UNTYPED_SCHEMA]
    assert [f.pointer for f in found] == ["/parameters/properties/key/type"]
    assert "TYPE_UNSPECIFIED" in found[0].message
    assert not _codes(_check(tool, models=("gemini-2.5-pro",), targets=("gemini",)), "TC906")
    # `parametersJsonSchema` keeps the union: only the `parameters` route is concerned, and with no target
    # named Gemini is judged in `parametersJsonSchema`, the form that keeps it
    assert not _codes(_check(tool, models=("gemini-3-pro-preview",), targets=("gemini-json",)), "TC906")
    assert not _codes(_check(tool, models=("gemini-3-pro-preview",)), "TC906")


def _bedrock_tool(strict: bool, max_items: bool = False) -> dict[str, Any]:
    tags: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
    if max_items:
        tags["maxItems"] = 5
    spec: dict[str, Any] = {"name": "tag_note", "description": "Tag a note.", "inputSchema": {"json": {
        "type": "object", "properties": {"tags": tags}, "required": ["tags"], "additionalProperties": False}}}
    if strict:
        spec["strict"] = True
    return {"toolSpec": spec}


def test_bedrock_strict_on_a_model_without_it() -> None:
    """BerriAI/litellm#31585 (Opus 4.7/4.8 on Bedrock Converse): "tools.0.custom.strict: Extra inputs are not
    permitted"."""
    found = [f for f in _check(_bedrock_tool(True), models=("us.anthropic.claude-opus-4-7",))
             if f.code == CONSUMER_STRICT_UNSUPPORTED]
    assert len(found) == 1 and found[0].pointer == "/toolSpec/strict" and found[0].target == "bedrock"
    assert "Extra inputs are not permitted" in found[0].message and "BerriAI/litellm#31585" in found[0].message
    assert not _codes(_check(_bedrock_tool(False), models=("us.anthropic.claude-opus-4-7",)), "TC907")
    assert not _codes(_check(_bedrock_tool(True), models=("us.anthropic.claude-sonnet-4-6",)), "TC907")


def test_bedrock_strict_with_max_items_on_sonnet_4_6() -> None:
    """BerriAI/litellm#39115: with strict, "tools.1.custom: For 'array' type, property 'maxItems' is not
    supported"; the same tool without strict, or strict without maxItems, is accepted."""
    model = ("us.anthropic.claude-sonnet-4-6",)
    found = [f for f in _check(_bedrock_tool(True, True), models=model) if f.code == CONSUMER_STRICT_KEYWORD]
    assert [f.pointer for f in found] == ["/toolSpec/inputSchema/json/properties/tags/maxItems"]
    assert "property 'maxItems' is not supported" in found[0].message
    assert not _codes(_check(_bedrock_tool(False, True), models=model), "TC908")
    assert not _codes(_check(_bedrock_tool(True, False), models=model), "TC908")


def test_tools_for_a_bedrock_model_without_tool_use() -> None:
    """AWS's supported-features table: tool use No for Titan text (langchain-ai/langchain-aws#447: "This model
    doesn't support tool use")."""
    found = [f for f in _check(_bedrock_tool(False), models=("amazon.titan-text-express-v1",))
             if f.code == CONSUMER_TOOLS_UNSUPPORTED]
    assert len(found) == 1 and found[0].severity == Severity.ERROR


_GITHUB_TOOL = {"name": "add_pull_request_review_comment_to_pending_review",
                "description": "Add a review comment to the requester's latest pending pull request review.",
                "inputSchema": {"type": "object", "properties": {"body": {"type": "string"}}, "required": ["body"]}}


def test_claude_code_prefix_pushes_the_github_servers_tool_over_64() -> None:
    """anthropics/claude-code#2445 (and #2326, #2412): the GitHub server's
    `add_pull_request_review_comment_to_pending_review` under server `MCP_DOCKER` is sent as
    `mcp__MCP_DOCKER__add_pull_request_review_comment_to_pending_review` (66 characters): "API Error: 400
    tools.N.custom.name: String should have at most 64 characters"."""
    found = [f for f in _check(_GITHUB_TOOL, consumers=("claude-code",), server_name="MCP_DOCKER")
             if f.code == CONSUMER_NAME_LENGTH]
    assert len(found) == 1 and found[0].severity == Severity.ERROR and found[0].pointer == "/name"
    assert found[0].data["sent_name"] == "mcp__MCP_DOCKER__add_pull_request_review_comment_to_pending_review"
    assert found[0].data["length"] == 66
    assert "String should have at most 64 characters" in found[0].message
    assert "anthropics/claude-code#2326" in found[0].message
    # a short server name fits; without a name the shortest one is assumed, and it fits too
    assert not _codes(_check(_GITHUB_TOOL, consumers=("claude-code",), server_name="gh"), "TC903")
    assert not _codes(_check(_GITHUB_TOOL, consumers=("claude-code",)), "TC903")


def test_the_same_long_name_in_the_other_hosts() -> None:
    """Cursor filters it (ComposioHQ/composio#2788, combined > 60), VS Code cuts it at 64 (a warning), Codex
    CLI hashes it (info): each as its profile says."""
    long_server = "github-enterprise-server"
    found = {f.data["consumer"]: f for f in _check(_GITHUB_TOOL, consumers=("cursor", "vscode", "codex-cli"),
                                                   server_name=long_server) if f.code == CONSUMER_NAME_LENGTH}
    assert found["cursor"].severity == Severity.ERROR  # 24 + 49 = 73 > 60
    # VS Code's server part is lower-cased and cut to keep `mcp_<server>_` within 18 characters
    assert found["vscode"].data["sent_name"] == "mcp_github-enterp_add_pull_request_review_comment_to_pending_review"
    assert found["vscode"].severity == Severity.WARNING
    assert found["codex-cli"].severity == Severity.INFO


def test_cursor_filters_composios_sheet_tool_under_a_one_letter_server() -> None:
    """ComposioHQ/composio#2788: "g: GOOGLESHEETS_SPREADSHEETS_VALUES_BATCH_CLEAR_BY_DATA_FILTER – Combined server
    and tool name length (60) exceeds 60 characters" (the tool is filtered out)."""
    tool = {"name": "GOOGLESHEETS_SPREADSHEETS_VALUES_BATCH_CLEAR_BY_DATA_FILTER", "description": "Clear values.",
            "inputSchema": {"type": "object", "properties": {}}}
    found = [f for f in _check(tool, consumers=("cursor",), server_name="g") if f.code == CONSUMER_NAME_LENGTH]
    assert len(found) == 1 and found[0].severity == Severity.ERROR and found[0].data["length"] == 60
    assert "exceeds 60 characters" in found[0].message and "ComposioHQ/composio#2788" in found[0].message
    tool["name"] = tool["name"][:-1]  # 59 with the server's letter: kept
    assert not _codes(_check(tool, consumers=("cursor",), server_name="g"), "TC903")


def _schemas_in(value: Any) -> list[dict[str, Any]]:
    """Every parameters/inputSchema object in a fixture document."""
    out: list[dict[str, Any]] = []
    if isinstance(value, dict):
        for key, sub in value.items():
            if key in ("parameters", "inputSchema", "input_schema", "json") and isinstance(sub, dict):
                out.append(sub)
            out += _schemas_in(sub)
    elif isinstance(value, list):
        for sub in value:
            out += _schemas_in(sub)
    return out


def test_the_fast_draft_07_answer_is_never_valid_when_jsonschema_says_invalid() -> None:
    """The pre-check that spares jsonschema's milliseconds for VS Code's draft-07 rule must not pass a schema
    the draft-07 meta-schema rejects (jsonschema's Draft7Validator is the oracle)."""
    from jsonschema import Draft7Validator
    from toolcast.adapters.checks.consumer_checks import certainly_valid_07

    bad_values: list[tuple[str, Any]] = [("additionalItems", 5), ("minimum", "0"), ("required", "a"), ("items", 3),
                                         ("type", "tuple"), ("maxItems", -1), ("enum", {}), ("properties", []),
                                         ("anyOf", []), ("dependencies", {"a": 1}), ("additionalItems", True)]
    files = sorted(FIXTURES.parent.glob("*.json")) + sorted((FIXTURES.parents[1] / "corpus").glob("examples-*.json"))
    bases = [s for path in files for s in _schemas_in(json.loads(path.read_text()))][:300]
    schemas = list(bases)
    for base in bases[:40]:
        for key, value in bad_values:
            schemas.append({**base, key: value})
            schemas.append({"type": "object", "properties": {"inner": {**base, key: value}}})
    meta = Draft7Validator(Draft7Validator.META_SCHEMA)
    passed = 0
    for schema in schemas:
        if certainly_valid_07(schema):
            passed += 1
            assert not list(meta.iter_errors(schema)), schema
    assert len(bases) > 100 and passed > 100  # it does spare the common case


def test_a_gemini_openapi_schema_is_not_judged_by_hosts_as_json_schema() -> None:
    """Upper-case OpenAPI types are Gemini's `parameters` form; an MCP host gets the tool converted."""
    tool = {"functionDeclarations": [{"name": "lookup", "description": "Look up.", "parameters": {
        "type": "OBJECT", "properties": {"tags": {"type": "ARRAY", "items": {"type": "STRING"}}}}}]}
    assert not _codes(_check(tool, consumers=("vscode", "gemini-cli")), "TC90")


def test_copilot_cli_sends_a_no_argument_tool_without_properties_to_gpt() -> None:
    """github/copilot-cli#1825: "Invalid schema for function 'ai-game-developer-assets-prefab-save': In context=(),
    object schema missing properties." for `{"type": "object", "additionalProperties": false}`; Claude models accept
    it, and toolcast's own conversion for OpenAI adds `properties: {}` (only TC108's warning without a host)."""
    tool = {"name": "assets-prefab-save", "description": "Save the prefab.",
            "inputSchema": {"type": "object", "additionalProperties": False}}
    found = [f for f in _check(tool, consumers=("copilot-cli",), targets=("openai",))
             if f.code == CONSUMER_ROOT_PROPERTIES]
    assert [(f.pointer, f.severity) for f in found] == [("/inputSchema/properties", Severity.ERROR)]
    assert "object schema missing properties" in found[0].message and "github/copilot-cli#1825" in found[0].message
    assert not _codes(_check(tool, consumers=("copilot-cli",), targets=("anthropic",)), "TC924")  # Claude: fine
    assert not _codes(_check(tool, targets=("openai",)), "TC924")  # no host: toolcast's conversion adds it
    with_properties = {**tool, "inputSchema": {**tool["inputSchema"], "properties": {}}}
    assert not _codes(_check(with_properties, consumers=("copilot-cli",), targets=("openai",)), "TC924")
