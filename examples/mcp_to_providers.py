"""MCP tools → Gemini and Anthropic, and a model's tool call back to the MCP server, with toolcast as a library.

1. The official MCP client (the `mcp` package) starts examples/weather_server.py over stdio and lists its tools.
2. toolcast adapts the `mcp.types.Tool` objects for Gemini and for Anthropic, and says what each one loses.
3. A recorded response of each provider (examples/recorded/) holds a tool call; toolcast maps it back to the MCP
   tool's own name and arguments and validates them against the tool's schema.
4. The MCP server runs the mapped call.

No provider is called. Run: python examples/mcp_to_providers.py [--json]
(needs `pip install 'toolcast[mcp]'`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import toolcast
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

HERE = Path(__file__).resolve().parent
SERVER = StdioServerParameters(command=sys.executable, args=[str(HERE / "weather_server.py")])
RECORDED = {"anthropic": HERE / "recorded" / "anthropic.message.json",
            "gemini": HERE / "recorded" / "gemini.generate_content.json"}


def tool_calls(source: str, response: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool calls in a recorded response, as the provider sent them."""
    if source == "anthropic":
        return [block for block in response["content"] if block["type"] == "tool_use"]
    return [part for c in response["candidates"] for part in c["content"]["parts"] if "functionCall" in part]


async def run() -> dict[str, Any]:
    async with stdio_client(SERVER) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools  # mcp.types.Tool objects, passed to toolcast as they are
        adapted = {target: toolcast.adapt_all(tools, target) for target in ("gemini", "anthropic")}
        calls = []
        for source, path in RECORDED.items():
            for call in tool_calls(source, json.loads(path.read_text(encoding="utf-8"))):
                mapped = toolcast.map_call_back(call, adapted[source])
                result = None
                if mapped.ok:  # only arguments the tool accepts reach the server
                    answer = await session.call_tool(mapped.name, mapped.arguments)
                    result = " ".join(getattr(c, "text", "") for c in answer.content)
                calls.append({"source": source, "sent": call, **mapped.to_dict(), "result": result})
    losses = {target: [{"tool": t.name, **loss.to_dict()} for t in a.tools for loss in t.losses]
              for target, a in adapted.items()}
    return {"tools": [t.name for t in tools], "adapted": {target: a.output for target, a in adapted.items()},
            "losses": losses, "calls": calls}


def show(summary: dict[str, Any]) -> None:
    print(f"MCP server tools: {', '.join(summary['tools'])}")
    for target, losses in summary["losses"].items():
        print(f"{target}: {len(losses)} losses")
        for loss in losses:
            print(f"  {loss['tool']} {loss['pointer']}: {loss['message']}")
    for call in summary["calls"]:
        print(f"{call['source']} call {call['id']} -> {call['name']} {json.dumps(call['arguments'])}")
        for problem in call["problems"]:
            print(f"  invalid at {problem['pointer'] or '/'}: {problem['message']}")
        if call["result"] is not None:
            print(f"  server: {call['result']}")


def main() -> int:
    summary = anyio.run(run)
    if "--json" in sys.argv[1:]:
        print(json.dumps(summary, indent=2))
    else:
        show(summary)
    return 0 if all(not c["problems"] for c in summary["calls"]) else 1


if __name__ == "__main__":
    sys.exit(main())
