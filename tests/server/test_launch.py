"""Every way an editor launches the server answers `initialize`: `toolcast serve`, `toolcast serve --stdio`
(vscode-languageclient appends `--stdio`), `python -m toolcast.server [--stdio]`; a wrong option is a
one-line usage error, not a server that hangs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TOOLCAST = shutil.which("toolcast", path=str(Path(sys.executable).parent))


def _frame(message: dict[str, object]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _session(command: list[str]) -> subprocess.CompletedProcess[bytes]:
    messages = _frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    messages += _frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    messages += _frame({"jsonrpc": "2.0", "method": "exit"})
    return subprocess.run(command, input=messages, capture_output=True, timeout=60)


LAUNCHES = [
    pytest.param(["serve"], id="toolcast serve"),
    pytest.param(["serve", "--stdio"], id="toolcast serve --stdio"),
    pytest.param(["-m", "toolcast.server"], id="python -m toolcast.server"),
    pytest.param(["-m", "toolcast.server", "--stdio"], id="python -m toolcast.server --stdio"),
]


@pytest.mark.parametrize("args", LAUNCHES)
def test_each_launch_answers_initialize(args: list[str]) -> None:
    if args[0] == "-m":
        command = [sys.executable, *args]
    else:
        assert TOOLCAST is not None, "the toolcast script is installed with the package"
        command = [TOOLCAST, *args]
    done = _session(command)
    assert b'"id": 1' in done.stdout or b'"id":1' in done.stdout, done.stderr.decode()
    assert b"textDocumentSync" in done.stdout
    assert b"unrecognized arguments" not in done.stderr


def test_an_unknown_option_is_a_usage_error() -> None:
    done = subprocess.run([sys.executable, "-m", "toolcast.server", "--bogus"], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert "unrecognized arguments: --bogus" in done.stderr
    assert "Traceback" not in done.stderr


def test_stdio_and_tcp_together_are_refused() -> None:
    done = subprocess.run([sys.executable, "-m", "toolcast.server", "--stdio", "--tcp", "127.0.0.1:0"],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "choose one of --stdio and --tcp" in done.stderr
