"""JSON-RPC and LSP protocol rules pygls leaves out, and toolcast's own stdio message loop.

- Text sync is toolcast's alone: pygls' built-in ``didOpen``/``didChange``/``didClose`` handlers are
  removed, so pygls keeps no second copy of open documents and never rewrites a change's positions
  (its copy clamped a ``character`` past a line's end to "length − 1" and split lines at U+2028).
- Answers the specifications ask for: ``InvalidRequest``/``InvalidParams`` for malformed messages,
  ``ServerNotInitialized`` before ``initialize`` (notifications then are dropped), ``InvalidRequest``
  for a second ``initialize`` and for requests after ``shutdown``, ``ParseError`` for bodies that
  are not JSON; ``exit`` ends the process with 0 after ``shutdown`` and 1 without.
- Client mistakes are a one-line warning in the log, never a traceback; a handler answers one by
  returning ``ErrorReply``.
- Messages whose JSON toolcast has already built (``RawJson``) are written as they are.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from threading import Event
from typing import Any, BinaryIO

from lsprotocol import types as t
from pygls.exceptions import JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from toolcast.adapters.jsonvalue import escape_lone_surrogates

from .diagnostics import RawJson
from .framing import ByteSource, FrameReader
from .message_json import loads_body

log = logging.getLogger("toolcast.server")

#: Handled by toolcast's document store only (see the module docstring).
OWN_TEXT_SYNC = (t.TEXT_DOCUMENT_DID_OPEN, t.TEXT_DOCUMENT_DID_CHANGE, t.TEXT_DOCUMENT_DID_CLOSE)


class _NoTracebackForBadInput(logging.Filter):
    """Bad input from the client is answered per JSON-RPC (ParseError, InvalidParams); its log line is a
    warning without a traceback, so the editor's log does not look like the server crashed."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, (json.JSONDecodeError, UnicodeDecodeError)):
            record.msg, record.args = "refused a message body that is not JSON: %s", (error,)
        elif isinstance(error, (JsonRpcInvalidParams, JsonRpcInvalidRequest)):
            record.msg, record.args = "refused a request: %s", (error,)
        elif record.msg == "Unable to deserialize message\n%s":  # pygls logs the structuring traceback
            record.msg, record.args = "refused a message whose params do not fit its method", ()
        else:
            # A cancel for a request already answered is normal. The editor's log shows stderr as
            # errors, so that line would read as a fault on every keystroke: it is dropped.
            return not str(record.msg).startswith("Cancel notification for unknown message id")
        record.exc_info = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


log.addFilter(_NoTracebackForBadInput())
logging.getLogger("pygls.protocol.json_rpc").addFilter(_NoTracebackForBadInput())


class ErrorReply:
    """A handler's answer to a request the client got wrong: sent as a JSON-RPC error, logged as one
    warning line (raising would log a traceback)."""

    def __init__(self, message: str, code: int = -32602) -> None:
        self.message, self.code = message, code


class _Malformed:
    """A message that is JSON but not a valid JSON-RPC message (or has invalid params)."""

    def __init__(self, msg_id: Any, code: int, message: str) -> None:
        self.id, self.code, self.message = msg_id, code, message


def message_bytes(text: str) -> bytes:
    """A JSON text as UTF-8. A document can hold lone surrogates (a ``"\\ud800"`` escape is legal JSON on
    the wire, and quoted back in a message it is one code point UTF-8 cannot encode); JSON only puts
    them inside strings, so each is written as its own ``\\uXXXX`` escape: the same value, valid UTF-8."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # rare: the fast path stays one encode
        return escape_lone_surrogates(text).encode("utf-8")


class ToolcastProtocol(LanguageServerProtocol):
    initialize_seen = False
    exit_code: int | None = None  # set by `exit`: the loop stops and the process ends with it

    def _register_builtin_features(self) -> None:
        super()._register_builtin_features()  # type: ignore[no-untyped-call]
        for method in OWN_TEXT_SYNC:
            self.fm.builtin_features.pop(method, None)

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except Exception as exc:  # params that do not fit the method's types, or a broken envelope
            code = getattr(exc, "code", -32600)
            is_request = "method" in data and "id" in data
            return _Malformed(data.get("id") if is_request else None, code if is_request else -32600,
                              f"{type(exc).__name__}: invalid message for {data.get('method', 'a response')!r}")

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _Malformed) or not hasattr(message, "jsonrpc"):
            if isinstance(message, _Malformed):
                msg_id, code, text = message.id, message.code, message.message
            else:  # JSON, but not an object with "jsonrpc": answered with id null
                msg_id, code, text = None, -32600, "Invalid Request: not a JSON-RPC 2.0 message"
            log.warning("refused a malformed message: %s", text)
            if msg_id is not None or not isinstance(message, _Malformed):
                self.send_error(msg_id, code, text)
            return
        method = getattr(message, "method", None)
        msg_id = getattr(message, "id", None)
        if method == t.EXIT:
            self.exit_code = 0 if self._shutdown else 1
            if self.exit_code:
                log.warning("`exit` without `shutdown`: ending with exit code 1")
            return
        if not self.initialize_seen:
            if method == t.INITIALIZE:
                self.initialize_seen = True
            else:
                if method is not None and msg_id is not None:
                    self.send_error(msg_id, -32002, "Server Not Initialized: send `initialize` first")
                return
        elif method is not None and msg_id is not None:
            if self._shutdown:
                self.refuse(msg_id, -32600, "Invalid Request: the server is shutting down")
                return
            if method == t.INITIALIZE:
                self.refuse(msg_id, -32600, "Invalid Request: `initialize` was already received")
                return
            if method == t.WORKSPACE_EXECUTE_COMMAND and message.params.command not in self.fm.commands:
                self.refuse(msg_id, -32602, f"Invalid params: no command {message.params.command!r}")
                return
        super().handle_message(message)

    def refuse(self, msg_id: Any, code: int, message: str) -> None:
        log.warning("refused a request: %s", message)
        self.send_error(msg_id, code, message)

    def send_error(self, msg_id: Any, code: int, message: str) -> None:
        error = {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}
        self._send_data(RawJson(json.dumps(error, ensure_ascii=False)))

    def handle_body(self, body: bytes, reader: FrameReader) -> None:
        """One frame's body: a message handled, or a ParseError answer (id null) for one that is not JSON
        (its length may have been wrong: the reader looks for the next frame inside it)."""
        try:
            message = loads_body(body, object_hook=self.structure_message)
        except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
            reader.unread_tail(body)
            log.warning("refused a message body that is not JSON: %s", exc)
            self.send_error(None, -32700, f"Parse error: {exc}")
            return
        try:
            self.handle_message(message)
        except Exception:  # a defect in toolcast: logged in full, the loop reads on
            log.exception("failed to handle a message")

    def _send_data(self, data: Any) -> None:
        """Every message the server writes goes out here, as UTF-8 whatever a document held."""
        if not data or self.writer is None:
            return
        try:
            text = data.text if isinstance(data, RawJson) else \
                json.dumps(data, default=self._serialize_message, ensure_ascii=False)
        except (TypeError, ValueError):  # a value with no JSON form is toolcast's defect: logged, not sent
            log.exception("failed to write a message")
            return
        body = message_bytes(text)
        self.writer.write(f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body)

    def _send_response(self, msg_id: Any, result: Any | None = None, error: Any = None) -> None:
        if error is None and isinstance(result, ErrorReply):
            self._result_types.pop(msg_id, None)
            self.refuse(msg_id, result.code, result.message)
            return
        if error is None and isinstance(result, RawJson):
            self._result_types.pop(msg_id, None)
            self._send_data(RawJson(f'{{"jsonrpc":"2.0","id":{json.dumps(msg_id)},"result":{result.text}}}'))
            return
        super()._send_response(msg_id, result, error)


class _PipeSource:
    """stdin read on the event loop: messages already in the pipe's buffer are taken without a thread
    hop each (lower latency per edit; a burst of changes is applied before its diagnostics are made)."""

    def __init__(self, stream: asyncio.StreamReader) -> None:
        self.stream = stream

    async def read(self, n: int) -> bytes:
        return await self.stream.read(n)


class _ThreadSource:
    """Any binary stream (a regular file as stdin, a test's stream), read in a worker thread."""

    def __init__(self, stream: BinaryIO, pool: ThreadPoolExecutor) -> None:
        self.stream, self.pool = stream, pool

    async def read(self, n: int) -> bytes:
        read = getattr(self.stream, "read1", self.stream.read)
        data: bytes = await asyncio.get_running_loop().run_in_executor(self.pool, read, n)
        return data


async def _stdin_source(stdin: BinaryIO | None, pool: ThreadPoolExecutor) -> ByteSource:
    if stdin is None and os.name == "posix":
        stream = asyncio.StreamReader(limit=1 << 20)
        try:
            await asyncio.get_running_loop().connect_read_pipe(
                lambda: asyncio.StreamReaderProtocol(stream), sys.stdin.buffer)
            return _PipeSource(stream)
        except (ValueError, OSError):  # stdin is a regular file
            pass
    return _ThreadSource(stdin or sys.stdin.buffer, pool)


def run_io(server: LanguageServer, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """Serve on stdio until ``exit`` or the end of input; the process's exit code."""
    protocol = server.protocol
    assert isinstance(protocol, ToolcastProtocol)
    stop = server._stop_event = Event()
    protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))

    async def serve() -> None:
        reader = FrameReader(await _stdin_source(stdin, server.thread_pool))
        while not stop.is_set() and protocol.exit_code is None:
            body = await reader.read()
            if body is None:
                break
            protocol.handle_body(body, reader)
            del body  # a large didOpen's bytes would otherwise be held until the next message comes

    try:
        asyncio.run(serve())
    except BrokenPipeError:
        log.error("the client closed the connection")
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()  # type: ignore[no-untyped-call]
    return protocol.exit_code or 0
