"""Framing that never wedges (the real server over stdio): after each kind of badly framed message the
server logs it once and still answers the next well-framed request, then shuts down cleanly.

The rule (docs/design.md): header names in any case, LF or CRLF line ends; a frame whose length is
missing, not a byte count or over the limit is skipped up to the next ``Content-Length`` header; a
body that is not JSON gets ``ParseError`` and the reader looks for the next header inside it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from raw_rpc import Raw


@pytest.fixture
def raw() -> Iterator[Raw]:
    conn = Raw()
    yield conn
    conn.close()


def _body(rid: int) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": rid, "method": "textDocument/documentSymbol",
                       "params": {"textDocument": {"uri": "file:///nowhere.json"}}}).encode()


def _write(raw: Raw, data: bytes) -> None:
    stdin = raw.proc.stdin
    assert stdin is not None
    stdin.write(data)
    stdin.flush()


BAD = _body(900)
CASES = {
    "lf_only_headers": (b"Content-Length: %d\n\n" % len(BAD) + BAD, True),
    "lowercase_name": (b"content-length: %d\r\n\r\n" % len(BAD) + BAD, True),
    "mixed_case_and_content_type": (b"CONTENT-length:%d\r\ncontent-type: application/vscode-jsonrpc\r\n\r\n"
                                    % len(BAD) + BAD, True),
    "length_not_a_number": (b"Content-Length: abc\r\n\r\n" + BAD, False),
    "negative_length": (b"Content-Length: -5\r\n\r\n" + BAD, False),
    "no_length": (b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + BAD, False),
    "length_5_too_small": (b"Content-Length: %d\r\n\r\n" % (len(BAD) - 5) + BAD, False),
    "length_10_too_large": (b"Content-Length: %d\r\n\r\n" % (len(BAD) + 10) + BAD, False),
    # Nothing follows: the client waits for the answer; once the body stalls it is read as it is.
    "length_10_too_large_then_silence": (b"Content-Length: %d\r\n\r\n" % (len(BAD) + 10) + BAD, True),
    "header_line_over_64_kib": (b"X-Padding: " + b"p" * (65 * 1024) + b"\r\nContent-Length: %d\r\n\r\n" % len(BAD)
                                + BAD, False),
    "header_line_over_1_mb": (b"Content-Length: 1" + b"1" * (1 << 20) + b"\r\n\r\n" + BAD, False),
    "length_over_the_body_limit": (b"Content-Length: 999999999999\r\n\r\n" + BAD, False),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_frame_never_wedges_the_server(raw: Raw, tmp_path: Path, case: str) -> None:
    data, answered = CASES[case]
    raw.initialize(tmp_path)
    _write(raw, data)
    if answered:  # a legal frame: its request is answered
        assert raw.response(900, 15)["result"] in (None, [])
    rid = raw.request("textDocument/documentSymbol", {"textDocument": {"uri": "file:///nowhere.json"}})
    assert raw.response(rid, 15)["result"] in (None, [])  # the next well-framed request is answered
    shutdown = raw.request("shutdown")
    assert raw.response(shutdown, 10)["result"] is None
    raw.notify("exit")
    assert raw.proc.wait(10) == 0
    log = b"".join(raw.stderr).decode("utf-8", "replace")
    assert "Traceback" not in log and "CancelledError" not in log
    if not answered:  # logged, each on one line
        warnings = [line for line in log.splitlines() if line.startswith("WARNING")]
        assert warnings and all(len(w) < 300 for w in warnings), log[:2000]
