"""A hostile MCP server over stdio, written by hand. `python hostile_mcp.py MODE REPORT`:

- ``daemon``: first double-forks a ``sleep`` that calls ``setsid`` (out of the server's process group),
  writes the sleep's pid to REPORT, then serves one tool;
- ``stderr``: writes 100 MB to its stderr, then writes to REPORT what its stderr is (``fifo`` or ``file
  SIZE``), ends its stderr with the line ``last words``, and never answers;
- ``huge``: lists tools whose JSON is larger than toolcast's 32,000,000-character document limit;
- ``bignum``: lists one tool whose schema holds a number beyond a double and a 100,000-digit integer;
- ``inf``: lists one tool whose schema holds a number beyond a double (``1e999``).
"""

import json
import os
import stat
import sys
import time

mode, report = sys.argv[1], sys.argv[2]
TOOL = {"name": "ok", "description": "A tool that is fine.",
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}


def daemon() -> None:
    if os.fork() == 0:
        os.setsid()
        pid = os.fork()
        if pid == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1):
                os.dup2(null, fd)
            os.execvp("sleep", ["sleep", "300"])
        with open(report, "w") as fh:
            fh.write(str(pid))
        os._exit(0)
    os.wait()


if mode == "daemon":
    daemon()
elif mode == "stderr":
    block = b"e" * (1 << 20)
    for _ in range(100):
        os.write(2, block)
    mode_of = os.fstat(2).st_mode
    with open(report, "w") as fh:
        fh.write("fifo" if stat.S_ISFIFO(mode_of) else f"file {os.fstat(2).st_size}")
    os.write(2, b"\nlast words\n")
    time.sleep(300)

for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg or "method" not in msg:
        continue
    if msg["method"] == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "hostile", "version": "1.0"}}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}) + "\n")
    elif msg["method"] == "tools/list":
        if mode == "huge":
            pad = "x" * 1_000_000
            tools = [dict(TOOL, name=f"t{i}", description=pad) for i in range(35)]
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"tools": tools}}) + "\n")
        elif mode in ("bignum", "inf"):
            schema = ('{"type": "object", "properties": {"n": {"type": "number", "maximum": 1e999}' +
                      (', "i": {"type": "integer", "default": ' + "9" * 100_000 + '}' if mode == "bignum" else "")
                      + '}}')
            sys.stdout.write('{"jsonrpc": "2.0", "id": ' + json.dumps(msg["id"]) + ', "result": {"tools": [{"name": '
                             '"big", "description": "A tool with big numbers.", "inputSchema": ' + schema + '}]}}\n')
        else:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"tools": [TOOL]}}) + "\n")
    else:
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {}}) + "\n")
    sys.stdout.flush()
