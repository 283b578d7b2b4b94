"""A minimal MCP server speaking the stdio protocol by hand, for paging: 25 tools, 10 per page.
`python paged_server.py [ok|loop|notools|bad]`: `loop` hands back the same cursor forever; `notools`
declares no tools capability; `bad` lists one tool with an invalid schema."""

import json
import sys

TOOLS = [{"name": f"tool_{i:02d}", "description": "A tool.",
          "inputSchema": {"type": "object", "properties": {"link": {"type": "string", "format": "uri"}}}}
         for i in range(25)]
mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
if mode == "bad":  # a schema no provider accepts: an error, so exit status 1 as for a file
    TOOLS = [{"name": "broken", "inputSchema": {"type": "object", "properties": {"x": {"type": "strin"}}}}]

for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg or "method" not in msg:
        continue
    if msg["method"] == "initialize":
        caps = {} if mode == "notools" else {"tools": {}}
        result = {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": caps,
                  "serverInfo": {"name": "paged", "version": "1.0"}}
    elif msg["method"] == "tools/list":
        start = int((msg.get("params") or {}).get("cursor") or 0)
        result = {"tools": TOOLS[start:start + 10]}
        if mode == "loop":
            result["nextCursor"] = "10"
        elif start + 10 < len(TOOLS):
            result["nextCursor"] = str(start + 10)
    else:
        error = {"code": -32601, "message": "Method not found"}
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "error": error}), flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
