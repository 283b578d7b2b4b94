"""The host's stdin and stdout for the SDK's ``stdio_server``, read and written without a worker thread.

The SDK wraps stdin and stdout in ``anyio.wrap_file``: every line read and every write and flush is a hand-off to
a worker thread, three per call, which on a loaded machine is most of what the proxy adds to a call's latency.
When stdin is a pipe or socket (as hosts start servers) it is read with asyncio's own pipe reader; stdout gets
plain writes, which a pipe takes at once (a host that stops reading stalls the proxy, as it would stall any
server). Otherwise ``host_streams`` gives the SDK's own streams. The SDK still frames and parses every message."""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import sys
from collections.abc import AsyncIterator
from typing import Any

from mcp.server.stdio import stdio_server


class _Lines:
    """Lines of the host's stdin, as ``stdio_server`` iterates them."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        line = await self._reader.readline()
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", "replace")


class _Out:
    """The host's stdout: each message written whole, at once."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    async def write(self, text: str) -> None:
        data = memoryview(text.encode("utf-8"))
        while data:
            try:
                data = data[os.write(self._fd, data):]
            except BlockingIOError:  # a non-blocking pipe the host has not drained yet
                await asyncio.sleep(0.001)

    async def flush(self) -> None:
        return None


def _is_pipe(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


@contextlib.asynccontextmanager
async def host_streams() -> AsyncIterator[tuple[Any, Any]]:
    """The SDK's ``stdio_server`` over the host's pipes (its own thread-backed streams when they are not pipes)."""
    if not (_is_pipe(0) and _is_pipe(1)):
        async with stdio_server() as streams:
            yield streams
        return
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**26)  # one message can be a large tools/call
    stdin = os.fdopen(os.dup(0), "rb", buffering=0)
    transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdin)
    out_fd = os.dup(1)
    sys.stdout.flush()
    # Stray prints from here on go to stderr, never into the host's protocol stream.
    os.dup2(2, 1)
    try:
        async with stdio_server(stdin=_Lines(reader), stdout=_Out(out_fd)) as streams:  # type: ignore[arg-type]
            yield streams
    finally:
        transport.close()
        os.close(out_fd)
