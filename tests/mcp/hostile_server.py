"""An MCP server with hostile tools, for the proxy's tests, written with the `mcp` SDK's low-level Server:
recursive `$ref`s, a root `anyOf`, names with dots and spaces and names too long for a host's prefix, and
enough tools (150) to pass a host's budget. Every call answers with what the server received (JSON: name and
arguments), so a test sees exactly what reached it. Some tools misbehave on purpose: `crash` exits mid-call,
`hang` never answers, `flood` writes 20 MB to stderr, `slow` reports progress and logs, `ask` asks the client
to sample a message. `relist` makes the tool list change (and says so).

`python hostile_server.py` serves over stdio. Each call (and each cancelled call) is also appended to
$HOSTILE_CALLS when set; the server's process id is written to $HOSTILE_PID when set."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import anyio
import mcp_types as mt
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.stdio import stdio_server

LONG = "summarise_the_quarterly_financial_statements_for_every_subsidiary_company_in_the_group"
FILLERS = 150 - 13
EXTRA: list[dict[str, Any]] = []


def tools() -> list[dict[str, Any]]:
    node = {"type": "object", "properties": {"label": {"type": "string"},
                                             "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
            "required": ["label"]}
    out: list[dict[str, Any]] = [
        {"name": "lookup.by name", "description": "Find a record by name.",
         "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "minLength": 2},
                                                          "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}],
                                                                    "default": None}},
                         "required": ["q"]}},
        {"name": "tree", "description": "Count the nodes of a tree.",
         "inputSchema": {"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}}, "required": ["root"],
                         "$defs": {"Node": node}}},
        {"name": "loop", "description": "A property whose definitions refer to each other only.",
         "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/A"}},
                         "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}}},
        {"name": "either", "description": "Root anyOf.",
         "inputSchema": {"type": "object", "anyOf": [
             {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
             {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]}]}},
        {"name": LONG, "description": "A name longer than a prefixed host name allows.",
         "inputSchema": {"type": "object", "properties": {"year": {"type": "integer", "minimum": 2000}},
                         "required": ["year"]}},
        {"name": LONG + "_v2", "description": "The same head, another tool.",
         "inputSchema": {"type": "object", "properties": {}}},
        {"name": "pick", "description": "A tuple and a constant.",
         "inputSchema": {"type": "object", "properties": {
             "kind": {"const": "fixed"}, "pair": {"type": "array", "prefixItems": [{"type": "string"},
                                                                                    {"type": "integer"}]}}}},
        {"name": "crash", "description": "Exits mid-call.", "inputSchema": {"type": "object"}},
        {"name": "hang", "description": "Never answers.", "inputSchema": {"type": "object"}},
        {"name": "slow", "description": "Reports progress and logs.", "inputSchema": {"type": "object"}},
        {"name": "ask", "description": "Asks the client to sample a message.", "inputSchema": {"type": "object"}},
        {"name": "relist", "description": "Adds a tool and says the list changed.", "inputSchema": {"type": "object"}},
        {"name": "flood", "description": "Writes 20 MB to stderr.", "inputSchema": {"type": "object"}},
    ]
    out += [{"name": f"filler_{i:03d}", "description": f"Filler tool {i}.",
             "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}} for i in range(FILLERS)]
    return out + EXTRA


def record(what: dict[str, Any]) -> None:
    if os.environ.get("HOSTILE_CALLS"):
        with open(os.environ["HOSTILE_CALLS"], "a", encoding="utf-8") as fh:
            fh.write(json.dumps(what) + "\n")


async def list_tools(ctx: Any, params: mt.PaginatedRequestParams | None) -> mt.ListToolsResult:
    return mt.ListToolsResult(tools=[mt.Tool.model_validate(t) for t in tools()])


async def call_tool(ctx: Any, params: mt.CallToolRequestParams) -> mt.CallToolResult:
    received: dict[str, Any] = {"name": params.name, "arguments": params.arguments}
    record(received)
    if params.name == "crash":
        print("hostile server: crashing now", file=sys.stderr, flush=True)
        os._exit(3)
    if params.name == "hang":
        try:
            await anyio.sleep_forever()
        except anyio.get_cancelled_exc_class():
            record({"cancelled": params.name})
            raise
    if params.name == "slow":
        for step in range(3):
            await ctx.session.report_progress(step + 1, 3, f"step {step + 1}")
            await ctx.session.send_notification(mt.LoggingMessageNotification(
                params=mt.LoggingMessageNotificationParams(level="info", data=f"step {step + 1}")))
    if params.name == "ask":
        answer = await ctx.session.send_request(mt.CreateMessageRequest(params=mt.CreateMessageRequestParams(
            messages=[mt.SamplingMessage(role="user", content=mt.TextContent(type="text", text="hello?"))],
            max_tokens=10)), mt.CreateMessageResult)
        received["sampled"] = answer.content.text if isinstance(answer.content, mt.TextContent) else None
    if params.name == "flood":
        line = "flood " * 170 + "\n"
        for _ in range(20_000):
            sys.stderr.write(line)
        sys.stderr.write("flood done\n")
        sys.stderr.flush()
    if params.name == "relist":
        EXTRA.append({"name": "added.later", "inputSchema": {"type": "object"}})
        await ctx.session.send_tool_list_changed()
    return mt.CallToolResult(content=[mt.TextContent(type="text", text=json.dumps(received))])


async def read_resource(ctx: Any, params: mt.ReadResourceRequestParams) -> mt.ReadResourceResult:
    return mt.ReadResourceResult(contents=[mt.TextResourceContents(uri=params.uri, text=f"read {params.uri}")])


async def list_resources(ctx: Any, params: mt.PaginatedRequestParams | None) -> mt.ListResourcesResult:
    return mt.ListResourcesResult(resources=[mt.Resource(uri="hostile://note", name="note")])


async def list_prompts(ctx: Any, params: mt.PaginatedRequestParams | None) -> mt.ListPromptsResult:
    return mt.ListPromptsResult(prompts=[mt.Prompt(name="greet")])


async def get_prompt(ctx: Any, params: mt.GetPromptRequestParams) -> mt.GetPromptResult:
    return mt.GetPromptResult(messages=[mt.PromptMessage(role="user", content=mt.TextContent(
        type="text", text=f"hello {(params.arguments or {}).get('who', 'you')}"))])


async def main() -> None:
    if os.environ.get("HOSTILE_PID"):
        with open(os.environ["HOSTILE_PID"], "w", encoding="utf-8") as fh:
            fh.write(str(os.getpid()))
    server: Server[Any] = Server("hostile", version="1", on_list_tools=list_tools, on_call_tool=call_tool,
                                 on_read_resource=read_resource, on_list_resources=list_resources,
                                 on_list_prompts=list_prompts, on_get_prompt=get_prompt)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options(NotificationOptions(tools_changed=True)))


if __name__ == "__main__":
    anyio.run(main)
